// transpose, fast: 64x64 tiles, 16-byte loads and stores on both sides, four loads in flight per
// thread before the first shared-memory store; through a padded tile of floats, or (quad-swizzle)
// 4x4 blocks transposed in registers through a swizzled tile of float4.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

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

// How far (in floats, 0..3) p lies past the 16-byte boundary below it; 0 by construction where
// every row starts on 16 bytes (AnyPhase false), which lets the compiler drop the peeling.
template <bool AnyPhase>
__device__ __forceinline__ int phase_of(const float* p) {
    if constexpr (!AnyPhase) return 0;
    return static_cast<int>((reinterpret_cast<std::uintptr_t>(p) >> 2) & 3);
}

// One 64x64 tile per block, float4 both ways at any width. Rows of a dense matrix with
// cols % 4 != 0 start on every 4-byte phase, so each row reads the 16 aligned float4 that begin at
// or before its first column (its phase p back), and the ones that start before column c0 or
// would read past the row's last column take only their own floats (the head and tail, peeled in
// the same kernel); the at most p floats past the 16th float4 are one scalar load by three
// quarters of the threads, issued with the rest. The store side does the same per output row
// (phase q). With p = q = 0 (cols and rows % 4 == 0, pitched rows) this is plain float4 both
// ways. The tile is padded to 65 columns so the column-wise reads of the second phase hit 16
// banks twice (a 2-way conflict) instead of 2 banks 16 times.
// Matrices whose rows all start on 16 bytes (both sides) run the instance without the phase
// arithmetic: measured on an H100 at 8192x8192, the any-phase instance costs 5.7 points there.
// (kThreads, 8): 32 registers, so 8 blocks (2048 threads, 130 KiB of tiles) fit on a
// multiprocessor.
template <bool AnyPhase>
__global__ void __launch_bounds__(kThreads, 8)
    fast_transpose_kernel(MatView in, MatView out, unsigned gx) {
    __shared__ float tile[kTile][kTile + 1];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const long long rows = static_cast<long long>(in.rows), cols = static_cast<long long>(in.cols);
    const long long r0 = static_cast<long long>(by) * kTile,
                    c0 = static_cast<long long>(bx) * kTile;
    const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    // The floats past a row's 16th float4: thread t < 192 takes float t % 3 of tile row t / 3.
    const int extra_y = threadIdx.x / 3, extra_i = threadIdx.x - 3 * extra_y;
    const bool has_extra = AnyPhase && threadIdx.x < 3 * kTile;

    float4 v[kPasses];
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const long long r = r0 + ty + 16 * k;
        v[k] = make_float4(0, 0, 0, 0);
        if (r >= rows) continue;
        const float* row = gpu::pitched_row(in, static_cast<std::size_t>(r)) + c0;
        const int p = phase_of<AnyPhase>(row);
        const long long col = c0 - p + 4 * tx;  // first column of this aligned float4
        const float* a = row - p + 4 * tx;
        if (col + 3 < cols) {
            v[k] = fast::load4(a);  // before c0 only in the row's own (or the previous) floats
        } else {                    // past the row's end: the row's own floats only
            if (col < cols) v[k].x = a[0];
            if (col + 1 < cols) v[k].y = a[1];
            if (col + 2 < cols) v[k].z = a[2];
        }
    }
    float extra = 0.0f;
    int extra_x = kTile;  // tile column of `extra`; kTile: none
    if (has_extra && r0 + extra_y < rows) {
        const float* row = gpu::pitched_row(in, static_cast<std::size_t>(r0 + extra_y)) + c0;
        const int x = kTile - phase_of<AnyPhase>(row) + extra_i;
        if (x < kTile && c0 + x < cols) {
            extra = row[x];
            extra_x = x;
        }
    }
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int y = ty + 16 * k;
        if (r0 + y >= rows) continue;
        const int x = 4 * tx - phase_of<AnyPhase>(
                                   gpu::pitched_row(in, static_cast<std::size_t>(r0 + y)) + c0);
        float* t = &tile[y][0];
        if (x >= 0) {
            t[x] = v[k].x;
            t[x + 1] = v[k].y;
            t[x + 2] = v[k].z;
            t[x + 3] = v[k].w;
        } else {  // the head: the float4 began before c0
            if (x + 1 >= 0) t[x + 1] = v[k].y;
            if (x + 2 >= 0) t[x + 2] = v[k].z;
            t[x + 3] = v[k].w;
        }
    }
    if (extra_x < kTile) tile[extra_y][extra_x] = extra;
    __syncthreads();

    // Output row c0 + j holds tile column j: input rows r0 .. r0 + 63, from the output row's
    // phase q back, four per float4.
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int j = ty + 16 * k;
        if (c0 + j >= cols) continue;
        float* orow = gpu::pitched_row(out, static_cast<std::size_t>(c0 + j)) + r0;
        const int y = 4 * tx - phase_of<AnyPhase>(orow);  // tile row of the float4's first float
        float* a = orow + y;
        if (y >= 0 && r0 + y + 3 < rows) {
            fast::store4(a,
                         make_float4(tile[y][j], tile[y + 1][j], tile[y + 2][j], tile[y + 3][j]));
        } else {  // the head (began before r0) or the tail (past the last row)
#pragma unroll
            for (int e = 0; e < 4; ++e)
                if (y + e >= 0 && r0 + y + e < rows) a[e] = tile[y + e][j];
        }
    }
    if (has_extra && c0 + extra_y < cols) {
        float* orow = gpu::pitched_row(out, static_cast<std::size_t>(c0 + extra_y)) + r0;
        const int y = kTile - phase_of<AnyPhase>(orow) + extra_i;
        if (y < kTile && r0 + y < rows) orow[y] = tile[y][extra_y];
    }
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

void launch_fast_transpose(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const unsigned gx = gpu::ceil_div(in.cols, kTile), gy = gpu::ceil_div(in.rows, kTile);
    if (fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out))
        fast_transpose_kernel<false><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    else
        fast_transpose_kernel<true><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
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
         "thread, at any width: rows that do not start on 16 bytes read and write from their "
         "16-byte boundary and peel the head and tail in the same kernel; tiles in row order",
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
