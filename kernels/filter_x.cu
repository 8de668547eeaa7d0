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
constexpr int kTileX = 128;      // shared-tile: 128 outputs of 16 rows per block, plus the halo
constexpr int kThreadRows = 4;   // blockDim.y
constexpr int kRowsPerThread = 4;
constexpr int kTileRows = kThreadRows * kRowsPerThread;

// Each thread reads its 2r+1 neighbours straight from global memory. Neighbouring threads overlap,
// so the L1 cache serves most of the reads; threads near a border apply the border rule per read.
template <bool Pitched>
__global__ void filter_x_direct_kernel(MatView in, MatView out, int radius, Border border) {
    const std::size_t c = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= in.cols) return;
    const long long n = static_cast<long long>(in.cols);
    const float width = static_cast<float>(2 * radius + 1);
    // Away from the borders the window needs no border rule: plain loads, same order of terms.
    const bool interior = c >= static_cast<std::size_t>(radius) && c + radius < in.cols;
    for (std::size_t r = blockIdx.y * blockDim.y + threadIdx.y; r < in.rows; r += gridDim.y * blockDim.y) {
        const float* row = gpu::row_of<Pitched>(in, r);
        float sum = 0.0f;
        if (interior) {
            const float* window = row + (c - radius);
            for (int k = 0; k <= 2 * radius; ++k) sum += window[k];
        } else {
            for (int k = -radius; k <= radius; ++k) {
                const long long j = gpu::border_index(static_cast<long long>(c) + k, n, border);
                sum += j < 0 ? 0.0f : row[j];
            }
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

// A block loads 16 rows of its 128 columns plus r halo columns on each side (borders resolved once,
// at load) into shared memory with coalesced reads, each thread four rows apart with up to eight
// loads in flight; then every output sums 2r+1 conflict-free shared reads.
__global__ void filter_x_shared_kernel(MatView in, MatView out, int radius, Border border) {
    static_assert(2 * kMaxRadius <= kTileX, "the halo must fit in one extra pass of kTileX columns");
    __shared__ float tile[kTileRows][kTileX + 2 * kMaxRadius];
    const std::size_t c0 = static_cast<std::size_t>(blockIdx.x) * kTileX;
    const std::size_t c = c0 + threadIdx.x;
    const long long n = static_cast<long long>(in.cols);
    const int halo_i = kTileX + threadIdx.x;  // this thread's second column of the tile, if any
    const bool has_halo = halo_i < kTileX + 2 * radius;
    const long long j_main = gpu::border_index(static_cast<long long>(c0) - radius + threadIdx.x, n, border);
    const long long j_halo = gpu::border_index(static_cast<long long>(c0) - radius + halo_i, n, border);
    const float width = static_cast<float>(2 * radius + 1);
    for (std::size_t block_row = blockIdx.y; block_row * kTileRows < in.rows; block_row += gridDim.y) {
        float main_v[kRowsPerThread], halo_v[kRowsPerThread];
#pragma unroll
        for (int k = 0; k < kRowsPerThread; ++k) {
            const std::size_t r = block_row * kTileRows + threadIdx.y + k * kThreadRows;
            main_v[k] = halo_v[k] = 0.0f;
            if (r < in.rows) {
                const float* row = gpu::dense_row(in, r);
                if (j_main >= 0) main_v[k] = row[j_main];
                if (has_halo && j_halo >= 0) halo_v[k] = row[j_halo];
            }
        }
#pragma unroll
        for (int k = 0; k < kRowsPerThread; ++k) {
            const int tr = threadIdx.y + k * kThreadRows;
            tile[tr][threadIdx.x] = main_v[k];
            if (has_halo) tile[tr][halo_i] = halo_v[k];
        }
        __syncthreads();
        if (c < in.cols) {
#pragma unroll
            for (int k = 0; k < kRowsPerThread; ++k) {
                const int tr = threadIdx.y + k * kThreadRows;
                const std::size_t r = block_row * kTileRows + tr;
                if (r < in.rows) {
                    float sum = 0.0f;
                    for (int i = 0; i <= 2 * radius; ++i) sum += tile[tr][threadIdx.x + i];
                    gpu::dense_row(out, r)[c] = sum / width;
                }
            }
        }
        __syncthreads();  // the tile is refilled by the next block row
    }
}

void launch_shared(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kTileX), gpu::blocks_for(in.rows, kTileRows, gpu::kMaxGridY));
    filter_x_shared_kernel<<<grid, dim3(kTileX, kThreadRows), 0, stream>>>(in, out, params.radius, params.border);
    COALESCE_CHECK_LAUNCH("filter_x_shared_kernel");
}

}  // namespace

void register_filter_x(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"filter_x/global", Op::filter_x, space::global,
         "Each thread reads its 2r+1 row neighbours from global memory: adjacent threads' overlapping reads "
         "hit L1, but 2r+1 load instructions per output make it instruction-bound, well below copy.",
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
         "16 rows of 128 columns plus a halo of r each side loaded once into shared memory (borders "
         "resolved at load), then 2r+1 conflict-free shared reads per output: global traffic near one read.",
         Layout::dense},
        launch_shared));
}

}  // namespace coalesce
