// u8_to_float through a texture: 8-bit texels read with cudaReadModeNormalizedFloat, so the fetch
// itself returns pixel / 255 as a float; the kernel only writes it.
#include "tex_fetch.cuh"
#include "texture_error.hpp"

namespace coalesce::textures {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

__global__ void tex_u8_to_float_kernel(TexInput in, float* __restrict__ d_out) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= in.cols || y >= in.rows) return;
    d_out[static_cast<size_t>(y) * in.cols + x] = fetch<false>(in, x, y);
}

}  // namespace

void launch_u8_to_float(const TexInput& in, float* d_out, cudaStream_t stream) {
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(blocks_for(in.cols, kBlockX), blocks_for(in.rows, kBlockY));
    tex_u8_to_float_kernel<<<grid, block, 0, stream>>>(in, d_out);
    COALESCE_CHECK_LAUNCH("tex_u8_to_float_kernel");
}

}  // namespace coalesce::textures
