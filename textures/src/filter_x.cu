// filter X (mean of the 2r+1 neighbours in a row) through a texture: neighbouring outputs reuse
// each other's texels from the texture cache, and reads past the row's ends are resolved by the
// texture unit's address mode (clamp, border, wrap, mirror) instead of index arithmetic.
#include "tex_fetch.cuh"
#include "texture_error.hpp"
#include "unorm_window.cuh"

#include <cstdint>

namespace coalesce::textures {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

template <bool Normalized>
__global__ void filter_x_kernel(TexInput in, int radius, float* __restrict__ d_out) {
    const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
    if (x >= in.cols || y >= in.rows) return;
    float sum = 0.0f;
    for (int k = -radius; k <= radius; ++k) sum += fetch<Normalized>(in, x + k, y);
    d_out[static_cast<size_t>(y) * in.cols + x] = sum / static_cast<float>(2 * radius + 1);
}

// 8-bit and 16-bit texels: the texture unit converts each read to v / max, the window's integer
// mean is recovered exactly (unorm_window.cuh).
template <class T, bool Normalized>
__global__ void filter_x_unorm_kernel(TexInput in, int radius, T* __restrict__ d_out) {
    const int x = static_cast<int>(blockIdx.x * kBlockX + threadIdx.x);
    const int y = static_cast<int>(blockIdx.y * kBlockY + threadIdx.y);
    if (x >= in.cols || y >= in.rows) return;
    d_out[static_cast<size_t>(y) * in.cols + x] =
        unorm_window_mean<T, Normalized, true>(in, x, y, radius);
}

}  // namespace

template <class T>
void launch_filter_x_unorm(const TexInput& in, int radius, T* d_out, cudaStream_t stream) {
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(blocks_for(in.cols, kBlockX), blocks_for(in.rows, kBlockY));
    if (in.normalized)
        filter_x_unorm_kernel<T, true><<<grid, block, 0, stream>>>(in, radius, d_out);
    else
        filter_x_unorm_kernel<T, false><<<grid, block, 0, stream>>>(in, radius, d_out);
    COALESCE_CHECK_LAUNCH("filter_x_unorm_kernel (texture)");
}

template void launch_filter_x_unorm<std::uint8_t>(const TexInput&, int, std::uint8_t*,
                                                  cudaStream_t);
template void launch_filter_x_unorm<std::uint16_t>(const TexInput&, int, std::uint16_t*,
                                                   cudaStream_t);

void launch_filter_x(const TexInput& in, int radius, float* d_out, cudaStream_t stream) {
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(blocks_for(in.cols, kBlockX), blocks_for(in.rows, kBlockY));
    if (in.normalized)
        filter_x_kernel<true><<<grid, block, 0, stream>>>(in, radius, d_out);
    else
        filter_x_kernel<false><<<grid, block, 0, stream>>>(in, radius, d_out);
    COALESCE_CHECK_LAUNCH("filter_x_kernel (texture)");
}

}  // namespace coalesce::textures
