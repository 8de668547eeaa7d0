// transpose, fast: 64x64 tiles, 16-byte loads and stores on both sides, four loads in flight per
// thread before the first shared-memory store; through a padded tile of floats, or (quad-swizzle)
// 4x4 blocks transposed in registers through a swizzled tile of float4.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <string>

namespace coalesce {
namespace {

constexpr int kTile = 64;
constexpr int kThreads = 256;          // 16 float4 across a tile row x 16 tile rows per pass
constexpr int kPasses = kTile / 16;    // each thread moves kPasses float4 in and kPasses out

// Blocks take tiles in row order: the ~1056 resident blocks read whole input rows and scatter
// their writes over every output row (2 KiB runs at 8192x8192). Column order, the mirror, measured
// 14-18 points slower (bench/NOTES.md, run 5): the reads want the long runs.

// One 64x64 tile per block. Every tile of a 16-byte aligned matrix takes float4 both ways (edge
// tiles guard each float4: a scalar edge path made a handful of slow blocks the tail of the whole
// launch); the tile is padded to 65 columns so the column-wise reads of the second phase hit 16
// banks twice (a 2-way conflict) instead of 2 banks 16 times. Unaligned matrices take a scalar
// path through the same padded tile (conflict-free, still coalesced).
// (kThreads, 8): 32 registers, so 8 blocks (2048 threads, 130 KiB of tiles) fit on a multiprocessor.
__global__ void __launch_bounds__(kThreads, 8) fast_transpose_kernel(MatView in, MatView out, unsigned gx,
                                                                  bool vec) {
    __shared__ float tile[kTile][kTile + 1];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const std::size_t r0 = static_cast<std::size_t>(by) * kTile;
    const std::size_t c0 = static_cast<std::size_t>(bx) * kTile;
    if (vec) {
        // rows % 4 == 0 and cols % 4 == 0 here, so a float4 lies wholly inside or wholly outside.
        const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
        const std::size_t c = c0 + 4 * tx;
        float4 v[kPasses];
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const std::size_t r = r0 + ty + 16 * k;
            v[k] = r < in.rows && c < in.cols ? fast::load4(gpu::pitched_row(in, r) + c) : make_float4(0, 0, 0, 0);
        }
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            float* t = &tile[ty + 16 * k][4 * tx];
            t[0] = v[k].x; t[1] = v[k].y; t[2] = v[k].z; t[3] = v[k].w;
        }
        __syncthreads();
        // Output row c0 + j holds input column j: four consecutive input rows per float4.
        const std::size_t out_c = r0 + 4 * tx;
#pragma unroll
        for (int k = 0; k < kPasses; ++k) {
            const int j = ty + 16 * k;
            const float4 o = make_float4(tile[4 * tx][j], tile[4 * tx + 1][j], tile[4 * tx + 2][j], tile[4 * tx + 3][j]);
            if (c0 + j < in.cols && out_c < in.rows) fast::store4(gpu::pitched_row(out, c0 + j) + out_c, o);
        }
    } else {
        // Unaligned rows: scalar, still coalesced; unrolled so the 16 loads are in flight together.
        const int x = threadIdx.x & 63, y0 = threadIdx.x >> 6;  // 64 wide, 4 rows per pass
        const std::size_t c = c0 + x;
#pragma unroll
        for (int k = 0; k < kTile / 4; ++k) {
            const int y = y0 + 4 * k;
            const std::size_t r = r0 + y;
            if (r < in.rows && c < in.cols) tile[y][x] = gpu::pitched_row(in, r)[c];
        }
        __syncthreads();
        const std::size_t out_c = r0 + x;  // output column = input row
#pragma unroll
        for (int k = 0; k < kTile / 4; ++k) {
            const int y = y0 + 4 * k;
            const std::size_t out_r = c0 + y;  // output row = input column
            if (out_r < in.cols && out_c < in.rows) gpu::pitched_row(out, out_r)[out_c] = tile[x][y];
        }
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
    const std::size_t r0 = static_cast<std::size_t>(by) * kTile, c0 = static_cast<std::size_t>(bx) * kTile;
    const int cg = threadIdx.x & 15, rg = threadIdx.x >> 4;  // column and row group of four
    const std::size_t c = c0 + 4 * cg, r = r0 + 4 * rg;
    float4 a[4];
#pragma unroll
    for (int e = 0; e < 4; ++e)
        a[e] = r + e < in.rows && c < in.cols ? fast::load4(gpu::pitched_row(in, r + e) + c) : make_float4(0, 0, 0, 0);
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
        if (c0 + j < in.cols && out_c < in.rows) fast::store4(gpu::pitched_row(out, c0 + j) + out_c, tile[j][swizzle(j, ox)]);
    }
}

void launch_fast_transpose(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const unsigned gx = gpu::ceil_div(in.cols, kTile), gy = gpu::ceil_div(in.rows, kTile);
    const bool vec = fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out) && in.rows % 4 == 0 &&
                     in.cols % 4 == 0;
    fast_transpose_kernel<<<gx * gy, kThreads, 0, stream>>>(in, out, gx, vec);
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

void launch_fast_transpose_quad(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || !fast::rows_are_16b_aligned(out))
        throw Unsupported("transpose/fast-quad-swizzle needs 16-byte aligned rows");
    if (std::string why = quad_refusal({in.rows, in.cols}, params); !why.empty()) throw Unsupported(why);
    const unsigned gx = gpu::ceil_div(in.cols, kTile), gy = gpu::ceil_div(in.rows, kTile);
    fast_transpose_quad_kernel<<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    COALESCE_CHECK_LAUNCH("fast_transpose_quad_kernel");
}

}  // namespace

void register_fast_transpose(Registry& registry) {
    registry.add(fast::device_variant(
        {"transpose/fast-tile64-float4", Op::transpose, space::shared,
         "64x64 shared tile (padded to 65), float4 loads and stores, 4 loads in flight per "
         "thread; a scalar path inside the same kernel for rows not 16-byte aligned; blocks take "
         "tiles in row order",
         gpu::Layout::dense, Tier::tuned, "fast_transpose_kernel", {}},
        launch_fast_transpose));
    registry.add(fast::device_variant(
        {"transpose/fast-quad-swizzle", Op::transpose, space::shared,
         "64x64 tiles, each thread transposes a 4x4 block in registers and stores whole float4 "
         "columns into an XOR-swizzled (unpadded) shared tile: 16-byte shared stores and loads, "
         "nearly no bank conflicts, a quarter of the shared-memory instructions; rows and columns "
         "multiples of 4 only",
         gpu::Layout::dense, Tier::tuned, "fast_transpose_quad_kernel", {.cols_multiple = 4}},
        launch_fast_transpose_quad, quad_refusal));
    registry.add(fast::device_variant(
        {"transpose/fast-quad-swizzle-pitched", Op::transpose, space::pitched,
         "transpose/fast-quad-swizzle on cudaMallocPitch rows (every row starts on a 512-byte "
         "boundary)",
         gpu::Layout::pitched, Tier::tuned, "fast_transpose_quad_kernel", {.cols_multiple = 4}},
        launch_fast_transpose_quad, quad_refusal));
}

}  // namespace coalesce
