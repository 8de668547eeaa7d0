// offset_read: each thread copies one element, reading `offset` elements further along its row.
// The lesson (seeds 003 and 004): a warp's 32 reads are still 128 contiguous bytes, but unless the
// offset is a multiple of 8 floats they straddle one more 32-byte sector: 5 sectors instead of 4.
#include "offset_copy.cuh"

namespace coalesce {
namespace {

// As the course writes it: one thread per element, x along the row, one block row per matrix row.
__global__ void offset_read_kernel(const float* __restrict__ in, float* __restrict__ out, int cols,
                                   std::size_t in_pitch, std::size_t out_pitch, int offset) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    const std::size_t r = blockIdx.y;
    int src = c + offset;
    if (src >= cols) src -= cols;
    out[r * out_pitch + c] = in[r * in_pitch + src];
}

}  // namespace

void register_offset_read(Registry& registry) {
    gpu::offset_copy::register_pair(
        registry, {"offset_read", offset_read_kernel, "offset_read_kernel", false,
                   "One thread per element reading `offset` floats along: 4 sectors per warp "
                   "at offsets 0, 8, 16..., 5 in between; the extra sector costs up to 20% of "
                   "the read traffic.",
                   "Rows from cudaMallocPitch start on 512-byte boundaries, so every row "
                   "misaligns by exactly the offset: the sector model's curve, row after row."});
}

}  // namespace coalesce
