// filter_y: box filter down each column, the mean of the 2r+1 neighbours, borders per coalesce::Border.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "device_util.cuh"

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kCols = 32;      // a warp spans 32 adjacent columns: every read is coalesced
constexpr int kRowLanes = 8;
constexpr int kTileY = 64;     // shared-tile: 64 output rows per block, plus r halo rows each side

// Each thread reads its 2r+1 column neighbours from global memory, rows apart; a warp still reads
// 128 contiguous bytes per neighbour, and L1/L2 serve the rows that adjacent outputs share.
template <bool Pitched>
__global__ void filter_y_direct_kernel(MatView in, MatView out, int radius, Border border) {
    const std::size_t c = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= in.cols) return;
    const long long n = static_cast<long long>(in.rows);
    const float width = static_cast<float>(2 * radius + 1);
    for (std::size_t r = blockIdx.y * blockDim.y + threadIdx.y; r < in.rows; r += gridDim.y * blockDim.y) {
        float sum = 0.0f;
        if (r >= static_cast<std::size_t>(radius) && r + radius < in.rows) {
            // Away from the borders: plain loads down the column, same order of terms.
            for (int k = -radius; k <= radius; ++k) sum += gpu::row_of<Pitched>(in, r + k)[c];
        } else {
            for (int k = -radius; k <= radius; ++k) {
                const long long i = gpu::border_index(static_cast<long long>(r) + k, n, border);
                sum += i < 0 ? 0.0f : gpu::row_of<Pitched>(in, static_cast<std::size_t>(i))[c];
            }
        }
        gpu::row_of<Pitched>(out, r)[c] = sum / width;
    }
}

template <bool Pitched>
void launch_direct(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kCols), gpu::blocks_for(in.rows, kRowLanes, gpu::kMaxGridY));
    filter_y_direct_kernel<Pitched><<<grid, dim3(kCols, kRowLanes), 0, stream>>>(in, out, params.radius, params.border);
    COALESCE_CHECK_LAUNCH("filter_y_direct_kernel");
}

// A block loads 32 columns of 64 + 2r rows (borders resolved once, at load) into shared memory,
// then each of its 8 row lanes produces 8 outputs from 2r+1 conflict-free shared reads.
__global__ void filter_y_shared_kernel(MatView in, MatView out, int radius, Border border) {
    __shared__ float tile[kTileY + 2 * kMaxRadius][kCols];
    const std::size_t c = static_cast<std::size_t>(blockIdx.x) * kCols + threadIdx.x;
    const long long n = static_cast<long long>(in.rows);
    const int loaded = kTileY + 2 * radius;
    const float width = static_cast<float>(2 * radius + 1);
    for (std::size_t tile_row = blockIdx.y; tile_row * kTileY < in.rows; tile_row += gridDim.y) {
        const std::size_t r0 = tile_row * kTileY;
        // A tile whose halo lies inside the matrix needs no border rule.
        const bool interior = r0 >= static_cast<std::size_t>(radius) && r0 + kTileY + radius <= in.rows;
        for (int i = threadIdx.y; i < loaded; i += kRowLanes) {
            long long j = static_cast<long long>(r0) - radius + i;
            if (!interior) j = gpu::border_index(j, n, border);
            tile[i][threadIdx.x] = (c < in.cols && j >= 0) ? gpu::dense_row(in, static_cast<std::size_t>(j))[c] : 0.0f;
        }
        __syncthreads();
        if (c < in.cols) {
            for (int i = threadIdx.y; i < kTileY && r0 + i < in.rows; i += kRowLanes) {
                float sum = 0.0f;
                for (int k = 0; k <= 2 * radius; ++k) sum += tile[i + k][threadIdx.x];
                gpu::dense_row(out, r0 + i)[c] = sum / width;
            }
        }
        __syncthreads();  // the tile is refilled by the next tile row
    }
}

void launch_shared(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kCols), gpu::blocks_for(in.rows, kTileY, gpu::kMaxGridY));
    filter_y_shared_kernel<<<grid, dim3(kCols, kRowLanes), 0, stream>>>(in, out, params.radius, params.border);
    COALESCE_CHECK_LAUNCH("filter_y_shared_kernel");
}

}  // namespace

void register_filter_y(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"filter_y/global", Op::filter_y, space::global,
         "Each thread reads its 2r+1 column neighbours from global memory: warps read whole rows "
         "(coalesced) and the caches absorb the 2r+1-fold re-reading, but the loads cost instructions.",
         Layout::dense},
        launch_direct<false>));
    registry.add(gpu::make_device_variant(
        {"filter_y/pitched", Op::filter_y, space::pitched,
         "The direct column filter on cudaMallocPitch rows indexed by pitch in bytes: same pattern, "
         "row starts aligned so each warp read is whole sectors for any width.",
         Layout::pitched},
        launch_direct<true>));
    registry.add(gpu::make_device_variant(
        {"filter_y/shared-tile", Op::filter_y, space::shared,
         "32 columns of 64 rows plus r halo rows each side loaded once into shared memory, then 2r+1 "
         "shared reads per output: global traffic is (64+2r)/64 reads per element, not 2r+1.",
         Layout::dense},
        launch_shared));
}

}  // namespace coalesce
