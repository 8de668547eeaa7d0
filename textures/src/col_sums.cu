// column sums through a texture: a block owns 32 columns; its 32 thread rows each sum a strided
// share of the rows (a warp reads 32 neighbouring texels of one row), then shared memory adds the
// 32 partial sums per column.
#include "tex_fetch.cuh"
#include "texture_error.hpp"

namespace coalesce::textures {
namespace {

constexpr int kCols = 32;
constexpr int kRowThreads = 32;

__global__ void col_sums_kernel(TexInput in, float* __restrict__ d_out) {
    __shared__ float partial[kRowThreads][kCols + 1];  // +1: no bank conflicts when reading down
    const int col = static_cast<int>(blockIdx.x * kCols + threadIdx.x);
    float sum = 0.0f;
    if (col < in.cols)
        for (int y = static_cast<int>(threadIdx.y); y < in.rows; y += kRowThreads)
            sum += fetch<false>(in, col, y);
    partial[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.y == 0 && col < in.cols) {
        float total = 0.0f;
        for (int i = 0; i < kRowThreads; ++i) total += partial[i][threadIdx.x];
        d_out[col] = total;
    }
}

}  // namespace

void launch_col_sums(const TexInput& in, float* d_out, cudaStream_t stream) {
    const dim3 block(kCols, kRowThreads);
    const dim3 grid(blocks_for(in.cols, kCols));
    col_sums_kernel<<<grid, block, 0, stream>>>(in, d_out);
    COALESCE_CHECK_LAUNCH("col_sums_kernel (texture)");
}

}  // namespace coalesce::textures
