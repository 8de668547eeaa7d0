// offset_write: each thread copies one element, writing it `offset` elements further along its
// row. The lesson is offset_read's on the store side (seed 004, offset_access): the warp's 32 reads
// are 4 aligned sectors, its 32 stores 128 contiguous bytes that straddle a fifth sector unless the
// offset is a multiple of 8 floats; the neighbouring warp writes the rest of both partial sectors.
#include "offset_copy.cuh"

namespace coalesce {
namespace {

// As the course writes it: one thread per element, x along the row, one block row per matrix row.
__global__ void offset_write_kernel(const float* __restrict__ in, float* __restrict__ out, int cols,
                                    std::size_t in_pitch, std::size_t out_pitch, int offset) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    const std::size_t r = blockIdx.y;
    int dst = c + offset;
    if (dst >= cols) dst -= cols;
    out[r * out_pitch + dst] = in[r * in_pitch + c];
}

}  // namespace

void register_offset_write(Registry& registry) {
    gpu::offset_copy::register_pair(
        registry, {"offset_write", offset_write_kernel, "offset_write_kernel", true,
                   "One thread per element writing `offset` floats along: 4 sectors per warp "
                   "store at offsets 0, 8, 16..., 5 in between, each end sector shared "
                   "with the neighbouring warp.",
                   "Rows from cudaMallocPitch start on 512-byte boundaries, so every row's "
                   "stores misalign by exactly the offset: 5 sectors per warp store off the "
                   "multiples of 8."});
}

}  // namespace coalesce
