// resample through a texture with hardware filtering: one tex2D per output pixel on a texture
// with cudaFilterModeLinear does the four reads, the clamped edges and the bilinear weights
// (9-bit fixed point, 8 fractional bits) that the built-in resample/global computes by hand.
#include "tex_fetch.cuh"
#include "texture_error.hpp"

namespace coalesce::textures {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;

__global__ void tex_resample_kernel(TexInput in, onchip::ResampleMap map, int out_rows,
                                    int out_cols, float* __restrict__ d_out) {
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= out_cols || oy >= out_rows) return;
    float sx, sy;
    onchip::resample_source(map, ox, oy, sx, sy);
    d_out[static_cast<size_t>(oy) * out_cols + ox] = tex2D<float>(in.texture, sx, sy);
}

}  // namespace

void launch_resample(const TexInput& in, const onchip::ResampleMap& map, int out_rows, int out_cols,
                     float* d_out, cudaStream_t stream) {
    const dim3 block(kBlockX, kBlockY);
    const dim3 grid(blocks_for(out_cols, kBlockX), blocks_for(out_rows, kBlockY));
    tex_resample_kernel<<<grid, block, 0, stream>>>(in, map, out_rows, out_cols, d_out);
    COALESCE_CHECK_LAUNCH("tex_resample_kernel");
}

}  // namespace coalesce::textures
