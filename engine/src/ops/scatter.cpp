// scatter: out[i * stride] = in[i] for i < ceil(N / stride), the buffers read as lines of
// N = rows * cols floats. The strided write of seed 004's strided_access: a warp's 32 stores
// spread over `stride` times the sectors. The slots between the strides are left alone: the
// reference marks them NaN (not defined by the operation, not checked).
#include "op_support.hpp"

#include <limits>
#include <string>

namespace coalesce::ops {
namespace {

std::size_t scattered_count(Shape in, const OpParams& p) {
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    return (in.elements() + stride - 1) / stride;
}

void scatter_host(const Matrix& in, Matrix& out, const OpParams& p) {
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    const std::size_t count = scattered_count(in.shape(), p);
    const float* src = in.data();
    float* dst = out.data();
    for (std::size_t i = 0; i < count; ++i) dst[i * stride] = src[i];
}

}  // namespace

const OpDesc& describe_scatter() {
    static const OpDesc desc{
        .op = Op("scatter"),
        .aliases = {"strided_write"},
        .summary =
            "out[i * stride] = in[i] over the whole buffer: writes `stride` floats apart "
            "(the slots between are left alone)",
        .filter = false,
        .exact = true,
        .params = {{"stride", 1, 1024, 1, "elements between two writes (1: a plain copy)"}},
        .output_shape = same_shape,
        // Only the floats scattered count: one read and one write each.
        .bytes_moved = [](Shape in,
                          const OpParams& p) { return 2 * sizeof(float) * scattered_count(in, p); },
        .reference =
            [](const Matrix& in, const OpParams& p) {
                Matrix out(in.rows(), in.cols(), std::numeric_limits<float>::quiet_NaN());
                scatter_host(in, out, p);
                return exact_reference(std::move(out));
            },
        .host = {{"cpu-naive",
                  "Host loop writing the input to every stride-th float.",
                  scatter_host,
                  {}}},
        .check = stride_fits_buffer,
    };
    return desc;
}

}  // namespace coalesce::ops
