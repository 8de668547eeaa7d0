// row sums through a texture: one warp per row, lanes read neighbouring texels (one cache line
// per 32 reads), then a shuffle reduction.
#include "tex_fetch.cuh"
#include "texture_error.hpp"

namespace coalesce::textures {
namespace {

constexpr int kWarp = 32;
constexpr int kWarpsPerBlock = 8;

__global__ void row_sums_kernel(TexInput in, float* __restrict__ d_out) {
    const int row = static_cast<int>(blockIdx.x * kWarpsPerBlock + threadIdx.y);
    if (row >= in.rows) return;  // whole warps leave together: threadIdx.y is per warp
    float sum = 0.0f;
    for (int x = static_cast<int>(threadIdx.x); x < in.cols; x += kWarp)
        sum += fetch<false>(in, x, row);
    for (int offset = kWarp / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x == 0) d_out[row] = sum;
}

}  // namespace

void launch_row_sums(const TexInput& in, float* d_out, cudaStream_t stream) {
    const dim3 block(kWarp, kWarpsPerBlock);
    const dim3 grid(blocks_for(in.rows, kWarpsPerBlock));
    row_sums_kernel<<<grid, block, 0, stream>>>(in, d_out);
    COALESCE_CHECK_LAUNCH("row_sums_kernel (texture)");
}

}  // namespace coalesce::textures
