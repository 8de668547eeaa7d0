// gather: out[i] = in[i * stride] for i < ceil(N / stride), the buffer read as one line of
// N = rows * cols floats. The course's strided read (seed 003's testOffset<k>, which is a stride,
// and seed 004's strided_access): a warp's 32 reads spread over `stride` times the sectors.
#include "op_support.hpp"

#include <string>

namespace coalesce::ops {
namespace {

std::size_t gathered(Shape in, const OpParams& p) {
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    return (in.elements() + stride - 1) / stride;
}

void gather_host(const Matrix& in, Matrix& out, const OpParams& p) {
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    const float* src = in.data();
    float* dst = out.data();
    for (std::size_t i = 0; i < out.size(); ++i) dst[i] = src[i * stride];
}

}  // namespace

const OpDesc& describe_gather() {
    static const OpDesc desc{
        .op = Op("gather"),
        .aliases = {"strided_read", "strided_copy"},
        .summary = "out[i] = in[i * stride] over the whole buffer: reads `stride` floats apart",
        .filter = false,
        .exact = true,
        .params = {{"stride", 1, 1024, 1, "elements between two reads (1: a plain copy)"}},
        .output_shape =
            [](Shape in, const OpParams& p) {
                return Shape{1, gathered(in, p)};
            },
        // Only the floats gathered count: one read and one write each.
        .bytes_moved = [](Shape in,
                          const OpParams& p) { return 2 * sizeof(float) * gathered(in, p); },
        .reference =
            [](const Matrix& in, const OpParams& p) {
                Matrix out(1, gathered(in.shape(), p));
                gather_host(in, out, p);
                return exact_reference(std::move(out));
            },
        .host = {{"cpu-naive",
                  "Host loop reading every stride-th float of the buffer.",
                  gather_host,
                  {}}},
        .check = stride_fits_buffer,
    };
    return desc;
}

}  // namespace coalesce::ops
