// copy: the baseline every other operation's bandwidth is read against.
#include "op_support.hpp"

namespace coalesce::ops {

const OpDesc& describe_copy() {
    static const OpDesc desc{
        .op = Op::copy,
        .aliases = {},
        .summary = "out = in: the baseline every figure is read against",
        .filter = false,
        .exact = true,
        .params = {},
        .output_shape = same_shape,
        .bytes_moved = same_shape_bytes,
        .reference = [](const Matrix& in, const OpParams&) { return exact_reference(in); },
        .host =
            {
                {"cpu-naive",
                 "Host loop, element by element: the host's baseline.",
                 [](const Matrix& in, Matrix& out, const OpParams&) {
                     for (std::size_t r = 0; r < in.rows(); ++r)
                         for (std::size_t c = 0; c < in.cols(); ++c) out.at(r, c) = in.at(r, c);
                 },
                 {}},
                {"cpu-blocked",
                 "Host std::copy: the memcpy the host copy figure is measured with.",
                 [](const Matrix& in, Matrix& out, const OpParams&) {
                     std::copy(in.data(), in.data() + in.size(), out.data());
                 },
                 {}},
            },
    };
    return desc;
}

}  // namespace coalesce::ops
