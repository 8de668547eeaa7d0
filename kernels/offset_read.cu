// offset_read: each thread copies one element, reading `offset` elements further along its row.
// The lesson (seeds 003 and 004): a warp's 32 reads are still 128 contiguous bytes, but unless the
// offset is a multiple of 8 floats they straddle one more 32-byte sector: 5 sectors instead of 4.
#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kMaxRowsPerLaunch = 65535;  // gridDim.y

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

void launch_offset_read(MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    const int offset = static_cast<int>(p.value("offset") % static_cast<long long>(in.cols));
    const std::size_t in_pitch = in.pitch_bytes / sizeof(float);
    const std::size_t out_pitch = out.pitch_bytes / sizeof(float);
    for (std::size_t row0 = 0; row0 < in.rows; row0 += kMaxRowsPerLaunch) {
        const unsigned rows =
            static_cast<unsigned>(std::min<std::size_t>(kMaxRowsPerLaunch, in.rows - row0));
        const dim3 grid(static_cast<unsigned>((cols + kThreads - 1) / kThreads), rows);
        offset_read_kernel<<<grid, kThreads, 0, stream>>>(in.data + row0 * in_pitch,
                                                          out.data + row0 * out_pitch, cols,
                                                          in_pitch, out_pitch, offset);
        COALESCE_CHECK_LAUNCH("offset_read_kernel");
    }
}

// Warp 1 of row 1: a load `offset` floats past its row's start plus 32, a store at the row start
// plus 32 (rows start where the layout puts them: cols * 4 bytes apart dense, pitch apart pitched).
std::vector<WarpRequest> offset_read_access(Shape in, const OpParams& p, bool pitched) {
    const long long row_bytes =
        pitched ? (static_cast<long long>(in.cols) * 4 + 511) / 512 * 512 : in.cols * 4ll;
    const long long k = p.value("offset") % static_cast<long long>(in.cols);
    const long long lanes = std::min<long long>(32, static_cast<long long>(in.cols));
    return {affine_request(false, row_bytes + 128 + k * 4, 4, 4, static_cast<int>(lanes)),
            affine_request(true, row_bytes + 128, 4, 4, static_cast<int>(lanes))};
}

}  // namespace

void register_offset_read(Registry& registry) {
    const Op op("offset_read");
    for (const bool pitched : {false, true}) {
        gpu::DeviceVariantSpec spec;
        spec.id = pitched ? "offset_read/pitched" : "offset_read/global";
        spec.op = op;
        spec.memory_space = pitched ? space::pitched : space::global;
        spec.description =
            pitched ? "Rows from cudaMallocPitch start on 512-byte boundaries, so every row "
                      "misaligns by exactly the offset: the sector model's curve, row after row."
                    : "One thread per element reading `offset` floats along: 4 sectors per warp "
                      "at offsets 0, 8, 16..., 5 in between; the extra sector costs up to 20% of "
                      "the read traffic.";
        spec.layout = pitched ? gpu::Layout::pitched : gpu::Layout::dense;
        spec.kernel = "offset_read_kernel";
        spec.access = [pitched](Shape in, const OpParams& p) {
            return offset_read_access(in, p, pitched);
        };
        registry.add(gpu::make_device_variant(std::move(spec), launch_offset_read));
    }
}

}  // namespace coalesce
