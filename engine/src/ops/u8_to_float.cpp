// u8_to_float: 8-bit pixels to floats in [0, 1] (seed 003's texture features: "conversion"). The
// engine's matrices are float, so the operation itself turns each input value into its 8-bit pixel
// (rounded, saturated to 0..255: images open as 0..255) and converts that: out = pixel / 255.
// The variants read the 8-bit copy, prepared untimed, and write floats: by hand from global memory
// or by the texture unit (cudaReadModeNormalizedFloat).
#include "coalesce/onchip.hpp"
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

void u8_to_float_host(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t i = 0; i < in.size(); ++i)
        out.data()[i] = static_cast<float>(onchip::to_u8(in.data()[i])) / 255.0f;
}

Reference u8_to_float_reference(const Matrix& in, const OpParams&) {
    Reference ref{Matrix(in.rows(), in.cols()), Matrix(in.rows(), in.cols()), 1, {}};
    for (std::size_t i = 0; i < in.size(); ++i) {
        const double v = static_cast<double>(onchip::to_u8(in.data()[i])) / 255.0;
        ref.value.data()[i] = static_cast<float>(v);
        ref.magnitude.data()[i] = static_cast<float>(v);
    }
    return ref;
}

}  // namespace

const OpDesc& describe_u8_to_float() {
    static const OpDesc desc{
        .op = Op("u8_to_float"),
        .aliases = {"u8", "normalized_float", "uchar_to_float"},
        .summary =
            "8-bit pixels (input values rounded and saturated to 0..255) to floats / 255: "
            "by hand, or normalized by the texture unit",
        .filter = false,
        .exact = false,
        .params = {},
        .output_shape = same_shape,
        // One byte read and four written per element.
        .bytes_moved = [](Shape in,
                          const OpParams&) { return in.elements() * (1 + sizeof(float)); },
        .reference = u8_to_float_reference,
        .host = {{"cpu-naive",
                  "Host loop converting each value to its 8-bit pixel and back / 255.",
                  u8_to_float_host,
                  {}}},
        .check = {},
        .accesses = {},
    };
    return desc;
}

}  // namespace coalesce::ops
