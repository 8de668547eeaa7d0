// copy through a texture: every element read once with point sampling, written coalesced.
#include "tex_fetch.cuh"
#include "texture_error.hpp"

namespace coalesce::textures {
namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void copy_kernel(TexInput in, float* __restrict__ d_out) {
    const int x = static_cast<int>(blockIdx.x * kTile + threadIdx.x);
    if (x >= in.cols) return;
    for (int y = static_cast<int>(blockIdx.y * kTile + threadIdx.y);
         y < min(in.rows, (static_cast<int>(blockIdx.y) + 1) * kTile); y += kRowsPerPass)
        d_out[static_cast<size_t>(y) * in.cols + x] = fetch<false>(in, x, y);
}

}  // namespace

void launch_copy(const TexInput& in, float* d_out, cudaStream_t stream) {
    const dim3 block(kTile, kRowsPerPass);
    const dim3 grid(blocks_for(in.cols, kTile), blocks_for(in.rows, kTile));
    copy_kernel<<<grid, block, 0, stream>>>(in, d_out);
    COALESCE_CHECK_LAUNCH("copy_kernel (texture)");
}

}  // namespace coalesce::textures
