// transpose, fast: 64x64 (or 64x128) tiles, 16-byte loads and stores on both sides, every load of
// a thread in flight before its first shared-memory store.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variants.hpp"

#include <algorithm>
#include <mutex>

namespace coalesce {
namespace {

constexpr int kTile = 64;
constexpr int kThreads = 256;

// The order in which blocks take tiles decides which DRAM pages the ~1056 resident blocks touch
// together: row order reads whole input rows and scatters the writes over every output row (2 KiB
// runs at 8192x8192); column order is the mirror (2 KiB read runs, whole output rows written), and
// measured 14-18 points slower (bench/NOTES.md, run 5): the reads want the long runs.
// rows_evict_first: row order, loads hinted evict-first in L2 (an experiment on the same walk).
enum class TileOrder { rows, cols, rows_evict_first };

template <TileOrder Order>
__device__ __forceinline__ void tile_xy(unsigned gx, unsigned gy, unsigned& bx, unsigned& by) {
    const unsigned i = blockIdx.x;
    if constexpr (Order != TileOrder::cols) {
        by = i / gx;
        bx = i - by * gx;
    } else {
        bx = i / gy;
        by = i - bx * gy;
    }
}

// One tile of 64 rows x TileW columns (64, or 128 for 512-byte read runs) per block. Every tile of
// a 16-byte aligned matrix takes float4 both ways (edge tiles guard each float4: a scalar edge path
// made a handful of slow blocks the tail of the whole launch); the tile is padded by one column so
// the column-wise reads of the second phase hit 16 banks twice (a 2-way conflict) instead of 2
// banks 16 times. Unaligned matrices take a scalar path through the same padded tile
// (conflict-free, still coalesced), in the 64x64 instantiation only.
// 64x64, (kThreads, 8): 32 registers, so 8 blocks (2048 threads, 130 KiB of tiles) fit on a
// multiprocessor; 64x128, (kThreads, 6): eight float4 loads per thread, 33 KiB tiles, 6 blocks.
template <TileOrder Order, int TileW>
__global__ void __launch_bounds__(kThreads, TileW == 64 ? 8 : 6)
    fast_transpose_kernel(MatView in, MatView out, unsigned gx, unsigned gy, bool vec) {
    constexpr int kTx = TileW / 4;           // float4 across a tile row
    constexpr int kTy = kThreads / kTx;      // tile rows per pass
    constexpr int kLoads = kTile / kTy;      // float4 each thread loads
    constexpr int kStores = TileW / 16;      // float4 each thread stores (16 across x 16 output rows)
    __shared__ float tile[kTile][TileW + 1];
    unsigned bx, by;
    tile_xy<Order>(gx, gy, bx, by);
    const std::size_t r0 = static_cast<std::size_t>(by) * kTile;
    const std::size_t c0 = static_cast<std::size_t>(bx) * TileW;
    if (vec) {
        // rows % 4 == 0 and cols % 4 == 0 here, so a float4 lies wholly inside or wholly outside.
        const int tx = threadIdx.x % kTx, ty = threadIdx.x / kTx;
        const std::size_t c = c0 + 4 * tx;
        float4 v[kLoads];
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
            const std::size_t r = r0 + ty + kTy * k;
            const float* q = fast::row_ptr(in, r) + c;
            const bool inside = r < in.rows && c < in.cols;
            if constexpr (Order == TileOrder::rows_evict_first)
                v[k] = inside ? fast::load4_evict_first(q) : make_float4(0, 0, 0, 0);
            else
                v[k] = inside ? fast::load4(q) : make_float4(0, 0, 0, 0);
        }
#pragma unroll
        for (int k = 0; k < kLoads; ++k) {
            float* t = &tile[ty + kTy * k][4 * tx];
            t[0] = v[k].x; t[1] = v[k].y; t[2] = v[k].z; t[3] = v[k].w;
        }
        __syncthreads();
        // Output row c0 + j holds input column j: four consecutive input rows per float4.
        const int ox = threadIdx.x & 15, oy = threadIdx.x >> 4;
        const std::size_t out_c = r0 + 4 * ox;
#pragma unroll
        for (int k = 0; k < kStores; ++k) {
            const int j = oy + 16 * k;
            const float4 o = make_float4(tile[4 * ox][j], tile[4 * ox + 1][j], tile[4 * ox + 2][j], tile[4 * ox + 3][j]);
            if (c0 + j < in.cols && out_c < in.rows) fast::store4(fast::row_ptr(out, c0 + j) + out_c, o);
        }
    } else if constexpr (TileW == kTile) {
        // Unaligned rows: scalar, still coalesced; unrolled so the 16 loads are in flight together.
        const int x = threadIdx.x & 63, y0 = threadIdx.x >> 6;  // 64 wide, 4 rows per pass
        const std::size_t c = c0 + x;
#pragma unroll
        for (int k = 0; k < kTile / 4; ++k) {
            const int y = y0 + 4 * k;
            const std::size_t r = r0 + y;
            if (r < in.rows && c < in.cols) tile[y][x] = fast::row_ptr(in, r)[c];
        }
        __syncthreads();
        const std::size_t out_c = r0 + x;  // output column = input row
#pragma unroll
        for (int k = 0; k < kTile / 4; ++k) {
            const int y = y0 + 4 * k;
            const std::size_t out_r = c0 + y;  // output row = input column
            if (out_r < in.cols && out_c < in.rows) fast::row_ptr(out, out_r)[out_c] = tile[x][y];
        }
    }
}

// Persistent and software-pipelined: a resident block walks tiles t, t + grid, ... (row order, so
// the tiles in flight are still one window of the matrix) and issues the next tile's four float4
// loads right after the current tile is in shared memory, so its loads are in flight while it
// reads the tile back and writes it out (the one-tile kernel has none in flight then, and a block
// start per tile). 16-byte aligned matrices only.
__global__ void __launch_bounds__(kThreads, 8)
    fast_transpose_persistent_kernel(MatView in, MatView out, unsigned gx, unsigned tiles) {
    __shared__ float tile[kTile][kTile + 1];
    const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    float4 v[4];
    auto load = [&](unsigned t) {
        const unsigned by = t / gx, bx = t - by * gx;
        const std::size_t r0 = static_cast<std::size_t>(by) * kTile, c = static_cast<std::size_t>(bx) * kTile + 4 * tx;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const std::size_t r = r0 + ty + 16 * k;
            v[k] = r < in.rows && c < in.cols ? fast::load4(fast::row_ptr(in, r) + c) : make_float4(0, 0, 0, 0);
        }
    };
    unsigned t = blockIdx.x;
    if (t < tiles) load(t);
    for (; t < tiles; t += gridDim.x) {
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            float* d = &tile[ty + 16 * k][4 * tx];
            d[0] = v[k].x; d[1] = v[k].y; d[2] = v[k].z; d[3] = v[k].w;
        }
        __syncthreads();
        if (t + gridDim.x < tiles) load(t + gridDim.x);
        const unsigned by = t / gx, bx = t - by * gx;
        const std::size_t c0 = static_cast<std::size_t>(bx) * kTile, out_c = static_cast<std::size_t>(by) * kTile + 4 * tx;
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const int j = ty + 16 * k;
            const float4 o = make_float4(tile[4 * tx][j], tile[4 * tx + 1][j], tile[4 * tx + 2][j], tile[4 * tx + 3][j]);
            if (c0 + j < in.cols && out_c < in.rows) fast::store4(fast::row_ptr(out, c0 + j) + out_c, o);
        }
        __syncthreads();  // the tile is read back before the next one is stored
    }
}

void launch_fast_transpose_persistent(MatView in, MatView out, const OpParams& params, cudaStream_t stream);

template <TileOrder Order, int TileW = kTile>
void launch_fast_transpose(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const bool vec = fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out) && in.rows % 4 == 0 &&
                     in.cols % 4 == 0;
    const unsigned gy = fast::ceil_div(in.rows, kTile);
    if (TileW == kTile || !vec) {  // the wide tile has no scalar path: unaligned matrices take 64x64's
        const unsigned gx = fast::ceil_div(in.cols, kTile);
        fast_transpose_kernel<Order, kTile><<<gx * gy, kThreads, 0, stream>>>(in, out, gx, gy, vec);
    } else {
        const unsigned gx = fast::ceil_div(in.cols, TileW);
        fast_transpose_kernel<Order, TileW><<<gx * gy, kThreads, 0, stream>>>(in, out, gx, gy, vec);
    }
    COALESCE_CHECK_LAUNCH("fast_transpose_kernel");
}

void launch_fast_transpose_persistent(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const bool vec = fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out) && in.rows % 4 == 0 &&
                     in.cols % 4 == 0;
    if (!vec) return launch_fast_transpose<TileOrder::rows>(in, out, params, stream);
    static std::once_flag once;
    static int per_sm = 0;
    std::call_once(once, [] {
        COALESCE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fast_transpose_persistent_kernel, kThreads, 0));
    });
    int device = 0, sms = 0;
    COALESCE_CUDA(cudaGetDevice(&device));
    COALESCE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const unsigned gx = fast::ceil_div(in.cols, kTile), tiles = gx * fast::ceil_div(in.rows, kTile);
    const unsigned grid = std::min(tiles, static_cast<unsigned>(std::max(1, sms * per_sm)));
    fast_transpose_persistent_kernel<<<grid, kThreads, 0, stream>>>(in, out, gx, tiles);
    COALESCE_CHECK_LAUNCH("fast_transpose_persistent_kernel");
}

}  // namespace

void register_fast_transpose(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64-float4", Op::transpose, space::shared,
         "64x64 shared tile (padded to 65), float4 loads and stores, 4 loads in flight per thread; "
         "scalar path for rows not 16-byte aligned; blocks take tiles in row order",
         gpu::Layout::dense},
        launch_fast_transpose<TileOrder::rows>));
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64-colorder", Op::transpose, space::shared,
         "transpose/fast-tile64-float4 with blocks taking tiles down the columns: the resident blocks "
         "write whole output rows and read short runs of many input rows",
         gpu::Layout::dense},
        launch_fast_transpose<TileOrder::cols>));
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64-pitched", Op::transpose, space::pitched,
         "transpose/fast-tile64-float4 on cudaMallocPitch rows: every input and output row starts on a "
         "512-byte boundary (dense 6000-column rows start 64 bytes into a 128-byte line on every other row)",
         gpu::Layout::pitched},
        launch_fast_transpose<TileOrder::rows>));
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64-evict-first", Op::transpose, space::shared,
         "transpose/fast-tile64-float4 with evict-first loads: the input, read once, goes out of the "
         "L2 before the output lines being filled there",
         gpu::Layout::dense},
        launch_fast_transpose<TileOrder::rows_evict_first>));
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64-persistent", Op::transpose, space::shared,
         "transpose/fast-tile64-float4 as a persistent grid (as many blocks as fit) that walks the tiles "
         "in row order and loads the next tile while it writes out the current one; unaligned "
         "matrices take the one-tile kernel",
         gpu::Layout::dense},
        launch_fast_transpose_persistent));
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64-persistent-pitched", Op::transpose, space::pitched,
         "transpose/fast-tile64-persistent on cudaMallocPitch rows (every row starts on a 512-byte boundary)",
         gpu::Layout::pitched},
        launch_fast_transpose_persistent));
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64x128", Op::transpose, space::shared,
         "64 rows x 128 columns per shared tile (padded to 129): each warp load reads 512 contiguous "
         "bytes of a row instead of two 256-byte pieces, eight float4 loads in flight per thread, "
         "six blocks per multiprocessor; rows in order",
         gpu::Layout::dense},
        launch_fast_transpose<TileOrder::rows, 128>));
    registry.add(gpu::make_device_variant(
        {"transpose/fast-tile64x128-pitched", Op::transpose, space::pitched,
         "transpose/fast-tile64x128 on cudaMallocPitch rows (every row starts on a 512-byte boundary)",
         gpu::Layout::pitched},
        launch_fast_transpose<TileOrder::rows, 128>));
}

}  // namespace coalesce
