// transpose through a texture: threads walk the output so writes stay coalesced; the reads go down
// a column of the input, which the texture cache serves from its 2-D tiles instead of one
// 32-byte sector per element.
#include "tex_fetch.cuh"
#include "texture_error.hpp"

namespace coalesce::textures {
namespace {

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void transpose_kernel(TexInput in, float* __restrict__ d_out) {
    // Output is cols x rows: output column = input row, output row = input column.
    const int out_x = static_cast<int>(blockIdx.x * kTile + threadIdx.x);  // input row
    if (out_x >= in.rows) return;
    const int out_end = min(in.cols, (static_cast<int>(blockIdx.y) + 1) * kTile);
    for (int out_y = static_cast<int>(blockIdx.y * kTile + threadIdx.y); out_y < out_end;
         out_y += kRowsPerPass)
        d_out[static_cast<size_t>(out_y) * in.rows + out_x] = fetch<false>(in, out_y, out_x);
}

}  // namespace

void launch_transpose(const TexInput& in, float* d_out, cudaStream_t stream) {
    const dim3 block(kTile, kRowsPerPass);
    const dim3 grid(blocks_for(in.rows, kTile), blocks_for(in.cols, kTile));
    transpose_kernel<<<grid, block, 0, stream>>>(in, d_out);
    COALESCE_CHECK_LAUNCH("transpose_kernel (texture)");
}

}  // namespace coalesce::textures
