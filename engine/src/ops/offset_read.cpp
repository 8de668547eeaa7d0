// offset_read: out[r][c] = in[r][(c + offset) mod cols]. Every warp reads 32 neighbours that start
// `offset` floats past a sector boundary: the course's misaligned access (seed 004, "offset";
// seed 003, "granularity"). Rows wrap around, so every output is defined.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

void offset_read_host(const Matrix& in, Matrix& out, const OpParams& p) {
    const std::size_t cols = in.cols();
    const std::size_t k = static_cast<std::size_t>(p.value("offset")) % cols;
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < cols; ++c) out.at(r, c) = in.at(r, (c + k) % cols);
}

}  // namespace

const OpDesc& describe_offset_read() {
    static const OpDesc desc{
        .op = Op("offset_read"),
        .aliases = {"offset", "offset_copy"},
        .summary =
            "out[r][c] = in[r][c + offset] (rows wrap): reads that start off a sector boundary",
        .filter = false,
        .exact = true,
        .params = {{"offset", 0, 32, 0, "elements each read is shifted by"}},
        .output_shape = same_shape,
        .bytes_moved = same_shape_bytes,
        .reference =
            [](const Matrix& in, const OpParams& p) {
                Matrix out(in.rows(), in.cols());
                offset_read_host(in, out, p);
                return exact_reference(std::move(out));
            },
        .host = {{"cpu-naive",
                  "Host loop reading each row from `offset` on, wrapping at its end.",
                  offset_read_host,
                  {}}},
        .check = {},
    };
    return desc;
}

}  // namespace coalesce::ops
