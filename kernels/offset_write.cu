// offset_write: each thread copies one element, writing it `offset` elements further along its
// row. The lesson is offset_read's on the store side (seed 004, offset_access): the warp's 32 reads
// are 4 aligned sectors, its 32 stores 128 contiguous bytes that straddle a fifth sector unless the
// offset is a multiple of 8 floats; the neighbouring warp writes the rest of both partial sectors.
#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kMaxRowsPerLaunch = 65535;  // gridDim.y

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

void launch_offset_write(MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    const int offset = static_cast<int>(p.value("offset") % static_cast<long long>(in.cols));
    const std::size_t in_pitch = in.pitch_bytes / sizeof(float);
    const std::size_t out_pitch = out.pitch_bytes / sizeof(float);
    for (std::size_t row0 = 0; row0 < in.rows; row0 += kMaxRowsPerLaunch) {
        const unsigned rows =
            static_cast<unsigned>(std::min<std::size_t>(kMaxRowsPerLaunch, in.rows - row0));
        const dim3 grid(static_cast<unsigned>((cols + kThreads - 1) / kThreads), rows);
        offset_write_kernel<<<grid, kThreads, 0, stream>>>(in.data + row0 * in_pitch,
                                                           out.data + row0 * out_pitch, cols,
                                                           in_pitch, out_pitch, offset);
        COALESCE_CHECK_LAUNCH("offset_write_kernel");
    }
}

// Warp 1 of row 1: a load at the row start plus 32 floats, a store `offset` floats further (rows
// start cols * 4 bytes apart dense, on 512-byte boundaries pitched).
std::vector<WarpRequest> offset_write_access(Shape in, const OpParams& p, bool pitched) {
    const long long row_bytes =
        pitched ? (static_cast<long long>(in.cols) * 4 + 511) / 512 * 512 : in.cols * 4ll;
    const long long k = p.value("offset") % static_cast<long long>(in.cols);
    const int lanes = static_cast<int>(std::min<std::size_t>(32, in.cols));
    return {affine_request(false, row_bytes + 128, 4, 4, lanes),
            affine_request(true, row_bytes + 128 + k * 4, 4, 4, lanes)};
}

}  // namespace

void register_offset_write(Registry& registry) {
    const Op op("offset_write");
    for (const bool pitched : {false, true}) {
        gpu::DeviceVariantSpec spec;
        spec.id = pitched ? "offset_write/pitched" : "offset_write/global";
        spec.op = op;
        spec.memory_space = pitched ? space::pitched : space::global;
        spec.description =
            pitched ? "Rows from cudaMallocPitch start on 512-byte boundaries, so every row's "
                      "stores misalign by exactly the offset: 5 sectors per warp store off the "
                      "multiples of 8."
                    : "One thread per element writing `offset` floats along: 4 sectors per warp "
                      "store at offsets 0, 8, 16..., 5 in between, each end sector shared "
                      "with the neighbouring warp.";
        spec.layout = pitched ? gpu::Layout::pitched : gpu::Layout::dense;
        spec.kernel = "offset_write_kernel";
        spec.access = [pitched](Shape in, const OpParams& p) {
            return offset_write_access(in, p, pitched);
        };
        registry.add(gpu::make_device_variant(std::move(spec), launch_offset_write));
    }
}

}  // namespace coalesce
