// filter_x: box filter along each row, the mean of the 2r+1 neighbours, borders per coalesce::Border.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "device_util.cuh"

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kDirectCols = 64;  // direct variants: 64x4 threads, one output each
constexpr int kDirectRows = 4;
constexpr int kTileX = 128;      // shared-tile: 128 outputs of 4 rows per block, plus the halo
constexpr int kTileRows = 4;

// Each thread reads its 2r+1 neighbours straight from global memory. Neighbouring threads overlap,
// so the L1 cache serves most of the reads; the border test runs for every neighbour.
template <bool Pitched>
__global__ void filter_x_direct_kernel(MatView in, MatView out, int radius, Border border) {
    const std::size_t c = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= in.cols) return;
    const long long n = static_cast<long long>(in.cols);
    const float width = static_cast<float>(2 * radius + 1);
    for (std::size_t r = blockIdx.y * blockDim.y + threadIdx.y; r < in.rows; r += gridDim.y * blockDim.y) {
        const float* row = gpu::row_of<Pitched>(in, r);
        float sum = 0.0f;
        for (int k = -radius; k <= radius; ++k) {
            const long long j = gpu::border_index(static_cast<long long>(c) + k, n, border);
            sum += j < 0 ? 0.0f : row[j];
        }
        gpu::row_of<Pitched>(out, r)[c] = sum / width;
    }
}

template <bool Pitched>
void launch_direct(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kDirectCols), gpu::blocks_for(in.rows, kDirectRows, gpu::kMaxGridY));
    filter_x_direct_kernel<Pitched>
        <<<grid, dim3(kDirectCols, kDirectRows), 0, stream>>>(in, out, params.radius, params.border);
    COALESCE_CHECK_LAUNCH("filter_x_direct_kernel");
}

// A block loads its 128 columns plus r halo columns on each side (borders resolved once, at load)
// into shared memory with coalesced reads, then every output sums 2r+1 conflict-free shared reads.
__global__ void filter_x_shared_kernel(MatView in, MatView out, int radius, Border border) {
    __shared__ float tile[kTileRows][kTileX + 2 * kMaxRadius];
    const std::size_t c0 = static_cast<std::size_t>(blockIdx.x) * kTileX;
    const std::size_t c = c0 + threadIdx.x;
    const long long n = static_cast<long long>(in.cols);
    const int loaded = kTileX + 2 * radius;
    const float width = static_cast<float>(2 * radius + 1);
    for (std::size_t block_row = blockIdx.y; block_row * kTileRows < in.rows; block_row += gridDim.y) {
        const std::size_t r = block_row * kTileRows + threadIdx.y;
        if (r < in.rows) {
            const float* row = gpu::dense_row(in, r);
            for (int i = threadIdx.x; i < loaded; i += kTileX) {
                const long long j = gpu::border_index(static_cast<long long>(c0) - radius + i, n, border);
                tile[threadIdx.y][i] = j < 0 ? 0.0f : row[j];
            }
        }
        __syncthreads();
        if (r < in.rows && c < in.cols) {
            float sum = 0.0f;
            for (int k = 0; k <= 2 * radius; ++k) sum += tile[threadIdx.y][threadIdx.x + k];
            gpu::dense_row(out, r)[c] = sum / width;
        }
        __syncthreads();  // the tile is refilled by the next block row
    }
}

void launch_shared(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kTileX), gpu::blocks_for(in.rows, kTileRows, gpu::kMaxGridY));
    filter_x_shared_kernel<<<grid, dim3(kTileX, kTileRows), 0, stream>>>(in, out, params.radius, params.border);
    COALESCE_CHECK_LAUNCH("filter_x_shared_kernel");
}

}  // namespace

void register_filter_x(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"filter_x/global", Op::filter_x, space::global,
         "Each thread reads its 2r+1 row neighbours from global memory: overlapping reads of adjacent "
         "threads hit L1, so it stays fast at small r but issues 2r+1 loads and border tests per output.",
         Layout::dense},
        launch_direct<false>));
    registry.add(gpu::make_device_variant(
        {"filter_x/pitched", Op::filter_x, space::pitched,
         "The direct filter on cudaMallocPitch rows indexed by pitch in bytes: same access pattern, "
         "with every row start aligned so no warp read straddles an extra sector.",
         Layout::pitched},
        launch_direct<true>));
    registry.add(gpu::make_device_variant(
        {"filter_x/shared-tile", Op::filter_x, space::shared,
         "128 columns plus a halo of r on each side loaded once into shared memory (borders resolved at "
         "load), then 2r+1 conflict-free shared reads per output: global traffic close to one read.",
         Layout::dense},
        launch_shared));
}

}  // namespace coalesce
