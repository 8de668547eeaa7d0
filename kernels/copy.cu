// copy: the baseline every other operation is compared with.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "device_util.cuh"

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kCopyThreads = 256;
constexpr int kCopyPerThread = 4;  // independent loads in flight per thread

// Dense: the matrix is one linear array. Each block copies kCopyThreads * kCopyPerThread
// consecutive elements; a warp's loads are 128 contiguous bytes.
__global__ void copy_global_kernel(const float* __restrict__ d_in, float* __restrict__ d_out,
                                   std::size_t num_items) {
    const std::size_t chunk = static_cast<std::size_t>(kCopyThreads) * kCopyPerThread;
    for (std::size_t base = blockIdx.x * chunk; base < num_items; base += gridDim.x * chunk) {
        float v[kCopyPerThread];
#pragma unroll
        for (int k = 0; k < kCopyPerThread; ++k) {
            const std::size_t i = base + threadIdx.x + static_cast<std::size_t>(k) * kCopyThreads;
            if (i < num_items) v[k] = d_in[i];
        }
#pragma unroll
        for (int k = 0; k < kCopyPerThread; ++k) {
            const std::size_t i = base + threadIdx.x + static_cast<std::size_t>(k) * kCopyThreads;
            if (i < num_items) d_out[i] = v[k];
        }
    }
}

void launch_copy_global(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const std::size_t num_items = in.rows * in.cols;
    const unsigned blocks = gpu::blocks_for(num_items, kCopyThreads * kCopyPerThread);
    copy_global_kernel<<<blocks, kCopyThreads, 0, stream>>>(in.data, out.data, num_items);
    COALESCE_CHECK_LAUNCH("copy_global_kernel");
}

// Pitched: rows start at pitch-aligned addresses; blocks of 32x8 threads cover 32x32 tiles, each
// thread four rows apart.
__global__ void copy_pitched_kernel(MatView in, MatView out) {
    const std::size_t c = blockIdx.x * 32 + threadIdx.x;
    const std::size_t tiles_y = (in.rows + 31) / 32;
    if (c >= in.cols) return;
    for (std::size_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
        const std::size_t r0 = ty * 32 + threadIdx.y;
        float v[4];
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const std::size_t r = r0 + k * 8;
            if (r < in.rows) v[k] = gpu::pitched_row(in, r)[c];
        }
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            const std::size_t r = r0 + k * 8;
            if (r < in.rows) gpu::pitched_row(out, r)[c] = v[k];
        }
    }
}

void launch_copy_pitched(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const dim3 block(32, 8);
    const dim3 grid(gpu::blocks_for(in.cols, 32), gpu::blocks_for(in.rows, 32, gpu::kMaxGridY));
    copy_pitched_kernel<<<grid, block, 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("copy_pitched_kernel");
}

}  // namespace

void register_copy(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"copy/global", Op::copy, space::global,
         "Linear cudaMalloc buffer copied with four coalesced loads in flight per thread: the "
         "reference bandwidth a memory-bound kernel can hope for.",
         Layout::dense},
        launch_copy_global));
    registry.add(gpu::make_device_variant(
        {"copy/pitched", Op::copy, space::pitched,
         "cudaMallocPitch rows indexed by pitch in bytes, 32x32 tiles: shows that aligned row starts "
         "cost nothing when every warp still reads 128 contiguous bytes.",
         Layout::pitched},
        launch_copy_pitched));
}

}  // namespace coalesce
