// transpose, fast: 64x64 tiles, 16-byte loads and stores on both sides, four loads in flight per
// thread before the first shared-memory store; through a padded tile of floats, or (quad-swizzle)
// 4x4 blocks transposed in registers through a swizzled tile of float4.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_transpose_phase_tile.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace coalesce {
namespace {

constexpr int kTile = 64;
constexpr int kThreads = 256;        // 16 float4 across a tile row x 16 tile rows per pass
constexpr int kPasses = kTile / 16;  // each thread moves kPasses float4 in and kPasses out

// Blocks take tiles in row order: the ~1056 resident blocks read whole input rows and scatter
// their writes over every output row (2 KiB runs at 8192x8192). Column order, the mirror, measured
// 14-18 points slower (bench/NOTES.md, run 5): the reads want the long runs.

// One 64x64 tile per block on views whose rows all start on 16 bytes: float4 both ways. Pitched
// rows of any width too, so a row's last float4 may reach past its last column: those floats are
// read and written one by one. The tile is padded to 65 columns so the column-wise reads of the
// second phase hit 16 banks twice (a 2-way conflict) instead of 2 banks 16 times.
__device__ __forceinline__ void transpose_aligned_tile(const MatView& in, const MatView& out,
                                                       unsigned gx) {
    __shared__ float tile[kTile][kTile + 1];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const long long rows = static_cast<long long>(in.rows), cols = static_cast<long long>(in.cols);
    const long long r0 = static_cast<long long>(by) * kTile,
                    c0 = static_cast<long long>(bx) * kTile;
    const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;

    float4 v[kPasses];
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const long long r = r0 + ty + 16 * k;
        v[k] = make_float4(0, 0, 0, 0);
        if (r >= rows) continue;
        const long long col = c0 + 4 * tx;
        const float* a = gpu::pitched_row(in, static_cast<std::size_t>(r)) + col;
        if (col + 3 < cols) {
            v[k] = fast::load4(a);
        } else {  // past the row's end: the row's own floats only
            if (col < cols) v[k].x = a[0];
            if (col + 1 < cols) v[k].y = a[1];
            if (col + 2 < cols) v[k].z = a[2];
        }
    }
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int y = ty + 16 * k;
        if (r0 + y >= rows) continue;
        float* t = &tile[y][4 * tx];
        t[0] = v[k].x;
        t[1] = v[k].y;
        t[2] = v[k].z;
        t[3] = v[k].w;
    }
    __syncthreads();

    // Output row c0 + j holds tile column j: input rows r0 .. r0 + 63, four per float4.
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int j = ty + 16 * k;
        if (c0 + j >= cols) continue;
        const int y = 4 * tx;  // tile row of the float4's first float
        float* a = gpu::pitched_row(out, static_cast<std::size_t>(c0 + j)) + r0 + y;
        if (r0 + y + 3 < rows) {
            fast::store4(a,
                         make_float4(tile[y][j], tile[y + 1][j], tile[y + 2][j], tile[y + 3][j]));
        } else {  // the tail: past the last row
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (r0 + y + e < rows) a[e] = tile[y + e][j];
        }
    }
}

// Dense matrices with cols % 4 != 0 (and the transposed output, rows % 4 != 0) start their rows
// on every 4-byte phase. The any-phase tile makes every global access an aligned float4 anyway,
// and every warp's stores whole 32-byte sectors:
// - Output row c (phase q_c: floats from the 32-byte boundary below its start, 0..7) is written
//   by its blocks in windows that start on that boundary: block row `by` writes output columns
//   64 by - q_c .. 64 by - q_c + 63, i.e. input rows r0 - q_c .. r0 + 63 - q_c. Sixteen whole
//   float4 per output row and tile, eight whole sectors, as in the aligned tile; only the
//   matrix's first and last windows are cut (the grid has a block row more where rows % 64 is 0
//   or 58..63). Windows from the 16-byte boundary (the previous version) started half the runs
//   half-way into a sector, which they then shared with the neighbouring block row's windows:
//   the suspected reason the L2 took 2.1x the aligned tile's write sectors there (H100,
//   4097x3001), as many as with windows fixed at r0. Host emulation at 4097x3001: store sectors
//   written in part by a warp 202K -> 12K, sectors written by two blocks 97.5K -> 2.6K; the cost
//   is 4 more halo rows per tile (global load sectors +6%, shared stores +5%).
// - So a block reads input rows r0 - 7 .. r0 + 63 (kPhaseRows), columns c0 .. c0 + 63: each row
//   from its own 16-byte phase p back (the reads need no more), 16 aligned float4 (slots
//   0..15), and a 17th (slot 16) for the at most 3 floats past the 16th. The shift by p is in
//   the shared-memory address: the tile has kInPhase columns of margin on each side for the
//   floats of slots 0 and 16 outside the tile.
// The shifts move the banks a warp's two tile rows (one per half-warp) hit by the phase step
// between consecutive rows; the tile's stride is chosen per launch (any_phase_stride) so that the
// two rows still land on disjoint banks, on both sides where the phase steps allow it: each
// shared access stays the aligned tile's 2-way (the 16 lanes of a row reach 8 banks of one
// residue mod 4, so only the steps mod 4 matter, also for the output's 32-byte phases).
using phase_tile::kInPhase;
using phase_tile::kOutPhase;
using phase_tile::kStride1;
using phase_tile::kStride3;
static_assert(kTile == phase_tile::kTile && kPasses == phase_tile::kPasses);

template <int Stride>
__device__ __forceinline__ void transpose_any_phase_tile(const MatView& in, const MatView& out,
                                                         unsigned gx) {
    // Tile row y + kOutPhase holds input row r0 + y (y = -7 .. 63); column x + kInPhase holds
    // input column c0 + x (fast_transpose_phase_tile.cuh).
    __shared__ float tile[phase_tile::kPhaseRows * Stride];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const phase_tile::Bounds b = phase_tile::bounds(in, bx, by);
    const std::size_t r0 = b.r0, c0 = b.c0;
    const int height = b.height, width = b.width, y_lo = b.y_lo;
    const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    phase_tile::stage<Stride>(in, b, tile, tx, ty);
    __syncthreads();

    // Output row c0 + j (phase q) takes tile column j, input rows r0 - q .. r0 + 63 - q: thread tx
    // the aligned float4 at output column r0 - q + 4 tx.
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int j = ty + 16 * k;
        if (j >= width) continue;
        float* orow = gpu::pitched_row(out, c0 + j) + r0;
        const int y =
            4 * tx - fast::floats_past_boundary<32>(orow);  // tile row of the float4's first float
        float* a = orow + y;
        const float* s = &tile[(y + kOutPhase) * Stride + kInPhase + j];
        if (y >= y_lo && y + 3 < height) {
            fast::store4(a, make_float4(s[0], s[Stride], s[2 * Stride], s[3 * Stride]));
        } else {  // the first window (before row 0) or the last (past the last row)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (y + e >= y_lo && y + e < height) a[e] = s[e * Stride];
        }
    }
}

// Stride 0: the aligned instance; kStride1 or kStride3: the any-phase one with that tile stride.
// Matrices whose rows all start on 16 bytes (both sides) run the aligned one, without the phase
// arithmetic (the any-phase tile that peeled heads and tails cost 5.7 points there, H100 8192^2).
// (kThreads, 8): 32 registers, so 8 blocks (2048 threads; 130 KiB of aligned tiles, 157 or 162
// KiB of any-phase ones) fit on a multiprocessor.
template <int Stride>
__global__ void __launch_bounds__(kThreads, 8)
    fast_transpose_kernel(MatView in, MatView out, unsigned gx) {
    if constexpr (Stride == 0)
        transpose_aligned_tile(in, out, gx);
    else
        transpose_any_phase_tile<Stride>(in, out, gx);
}

// 4x4 blocks transposed in registers: a thread loads four float4 from four consecutive rows,
// regroups them into four float4 columns, and stores those whole into a 64 x 16-float4 tile of
// input columns (tile[j] holds input column j, i.e. output row j). The tile is not padded but
// XOR-swizzled at float4 granularity (row j's float4 i sits at i ^ ((j >> 2) & 7)), so that the
// eight lanes of each quarter-warp phase reach eight different 16-byte bank groups on both sides:
// four 16-byte shared stores and four loads per thread instead of sixteen 4-byte ones each, 2-way
// conflicted (Nsight Compute at 8192x8192: 0.37 M bank conflicts against 4.8 M). 16-byte aligned
// matrices only.
__device__ __forceinline__ int swizzle(int j, int i) { return i ^ ((j >> 2) & 7); }

__global__ void __launch_bounds__(kThreads, 8)
    fast_transpose_quad_kernel(MatView in, MatView out, unsigned gx) {
    __shared__ float4 tile[kTile][kTile / 4];
    const unsigned by = blockIdx.x / gx, bx = blockIdx.x - by * gx;
    const std::size_t r0 = static_cast<std::size_t>(by) * kTile,
                      c0 = static_cast<std::size_t>(bx) * kTile;
    const int cg = threadIdx.x & 15, rg = threadIdx.x >> 4;  // column and row group of four
    const std::size_t c = c0 + 4 * cg, r = r0 + 4 * rg;
    float4 a[4];
#pragma unroll
    for (int e = 0; e < 4; ++e)
        a[e] = r + e < in.rows && c < in.cols ? fast::load4(gpu::pitched_row(in, r + e) + c)
                                              : make_float4(0, 0, 0, 0);
    tile[4 * cg + 0][swizzle(4 * cg + 0, rg)] = make_float4(a[0].x, a[1].x, a[2].x, a[3].x);
    tile[4 * cg + 1][swizzle(4 * cg + 1, rg)] = make_float4(a[0].y, a[1].y, a[2].y, a[3].y);
    tile[4 * cg + 2][swizzle(4 * cg + 2, rg)] = make_float4(a[0].z, a[1].z, a[2].z, a[3].z);
    tile[4 * cg + 3][swizzle(4 * cg + 3, rg)] = make_float4(a[0].w, a[1].w, a[2].w, a[3].w);
    __syncthreads();
    const int ox = threadIdx.x & 15, oy = threadIdx.x >> 4;
    const std::size_t out_c = r0 + 4 * ox;
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const int j = oy + 16 * k;
        if (c0 + j < in.cols && out_c < in.rows)
            fast::store4(gpu::pitched_row(out, c0 + j) + out_c, tile[j][swizzle(j, ox)]);
    }
}

// Floats a view's row start moves by from one row to the next, mod 4: its rows' phase step.
int phase_step(const MatView& v) { return static_cast<int>(v.pitch_bytes / 4 % 4); }

// The any-phase tile's stride. From one tile row to the next, the banks of the shared stores move
// by the stride less the input's phase step, those of the loads by 1 less the stride times the
// output's phase step; at 0 mod 4 a warp's two rows share 8 banks (4-way). 71 avoids it unless a
// step is 3, 73 unless one is 1 (dense: cols and rows mod 4). Steps 1 and 3 together leave one
// side 4-way: the loads, since the stores are the more (67 rows and slot 16).
int any_phase_stride(const MatView& in, const MatView& out) {
    const int p = phase_step(in), q = phase_step(out);
    if (p == 3 || (q == 3 && p != 1)) return kStride1;
    return kStride3;
}

void launch_fast_transpose(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const unsigned gx = gpu::ceil_div(in.cols, kTile);
    if (fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out)) {
        const unsigned gy = gpu::ceil_div(in.rows, kTile);
        fast_transpose_kernel<0><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    } else {  // the output windows start up to kOutPhase rows early: the last may need a block row
        const unsigned gy = gpu::ceil_div(in.rows + kOutPhase, kTile);
        if (any_phase_stride(in, out) == kStride3)
            fast_transpose_kernel<kStride3><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
        else
            fast_transpose_kernel<kStride1><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    }
    COALESCE_CHECK_LAUNCH("fast_transpose_kernel");
}

// What the quad kernel needs besides 16-byte aligned rows (cols % 4 == 0 on dense matrices, any
// width on pitched ones): whole float4 on both sides, so rows and columns are multiples of 4.
std::string quad_refusal(Shape input, const OpParams&) {
    if (input.rows % 4 == 0 && input.cols % 4 == 0) return {};
    return "the 4x4 register blocks move whole float4 of input and output rows: needs rows and "
           "columns that are multiples of 4 (this input is " +
           std::to_string(input.rows) + "x" + std::to_string(input.cols) + ")";
}

void launch_fast_transpose_quad(MatView in, MatView out, const OpParams& params,
                                cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || !fast::rows_are_16b_aligned(out))
        throw Unsupported("transpose/fast-quad-swizzle needs 16-byte aligned rows");
    if (std::string why = quad_refusal({in.rows, in.cols}, params); !why.empty())
        throw Unsupported(why);
    const unsigned gx = gpu::ceil_div(in.cols, kTile), gy = gpu::ceil_div(in.rows, kTile);
    fast_transpose_quad_kernel<<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    COALESCE_CHECK_LAUNCH("fast_transpose_quad_kernel");
}

}  // namespace

void register_fast_transpose(Registry& registry) {
    registry.add(fast::device_variant(
        {"transpose/fast-tile64-float4",
         Op::transpose,
         space::shared,
         "64x64 shared tile (padded to 65), float4 loads and stores, 4 loads in flight per "
         "thread, at any width: where rows do not start on 16 bytes, a tile writes each output "
         "row's 64 floats from that row's 32-byte boundary (71 input rows per tile), whole "
         "sectors, and reads each input row from its own 16-byte boundary, shifting in the "
         "shared-memory address; tiles in row order",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_transpose_kernel",
         {}},
        launch_fast_transpose));
    registry.add(fast::device_variant(
        {"transpose/fast-quad-swizzle",
         Op::transpose,
         space::shared,
         "64x64 tiles, each thread transposes a 4x4 block in registers and stores whole float4 "
         "columns into an XOR-swizzled (unpadded) shared tile: 16-byte shared stores and loads, "
         "nearly no bank conflicts, a quarter of the shared-memory instructions; rows and columns "
         "multiples of 4 only",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_transpose_quad_kernel",
         {.cols_multiple = 4}},
        launch_fast_transpose_quad, quad_refusal));
    registry.add(fast::device_variant(
        {"transpose/fast-quad-swizzle-pitched",
         Op::transpose,
         space::pitched,
         "transpose/fast-quad-swizzle on cudaMallocPitch rows (every row starts on a 512-byte "
         "boundary)",
         gpu::Layout::pitched,
         Tier::tuned,
         "fast_transpose_quad_kernel",
         {.cols_multiple = 4}},
        launch_fast_transpose_quad, quad_refusal));
}

}  // namespace coalesce
