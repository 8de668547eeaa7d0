// random_sample through a texture: the seed's texRandomSample. The same hashed samples as the
// built-in variants, each a point-sampled tex2D: the texture cache holds 2-D neighbourhoods
// (a cudaArray's block-linear layout keeps them in few lines), which is what scattered reads in a
// small window need.
#include "tex_fetch.cuh"
#include "texture_error.hpp"

#include "coalesce/onchip.hpp"

namespace coalesce::textures {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

__global__ void tex_random_sample_kernel(TexInput in, int area, int samples,
                                         float* __restrict__ d_out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= in.cols || y >= in.rows) return;
    const int x0 = onchip::window_start(x, in.cols, area);
    const int y0 = onchip::window_start(y, in.rows, area);
    const int wx = onchip::window_size(in.cols, area);
    const int wy = onchip::window_size(in.rows, area);
    float sum = 0.0f;
    for (int k = 0; k < samples; ++k) {
        const unsigned h = onchip::sample_hash(x, y, k);
        sum += fetch<false>(in, x0 + onchip::sample_dx(h, wx), y0 + onchip::sample_dy(h, wy));
    }
    d_out[static_cast<size_t>(y) * in.cols + x] = sum / samples;
}

}  // namespace

void launch_random_sample(const TexInput& in, int area, int samples, float* d_out,
                          cudaStream_t stream) {
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(blocks_for(in.cols, kBlockX), blocks_for(in.rows, kBlockY));
    tex_random_sample_kernel<<<grid, block, 0, stream>>>(in, area, samples, d_out);
    COALESCE_CHECK_LAUNCH("tex_random_sample_kernel");
}

}  // namespace coalesce::textures
