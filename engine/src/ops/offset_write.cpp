// offset_write: out[r][(c + offset) mod cols] = in[r][c]. The write-side twin of offset_read
// (seed 004's offset_access writes where it reads): every warp reads 32 aligned neighbours and
// stores them `offset` floats past a sector boundary. Rows wrap around, so every output is defined.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

void offset_write_host(const Matrix& in, Matrix& out, const OpParams& p) {
    const std::size_t cols = in.cols();
    const std::size_t k = static_cast<std::size_t>(p.value("offset")) % cols;
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < cols; ++c) out.at(r, (c + k) % cols) = in.at(r, c);
}

}  // namespace

const OpDesc& describe_offset_write() {
    static const OpDesc desc{
        .op = Op("offset_write"),
        .aliases = {"offset_store"},
        .summary = "out[r][c + offset] = in[r][c] (rows wrap): stores that start off a sector "
                   "boundary",
        .filter = false,
        .exact = true,
        .params = {{"offset", 0, 32, 0, "elements each write is shifted by"}},
        .output_shape = same_shape,
        .bytes_moved = [](Shape in, const OpParams&) { return in_plus_out_bytes(in, in); },
        .reference =
            [](const Matrix& in, const OpParams& p) {
                Matrix out(in.rows(), in.cols());
                offset_write_host(in, out, p);
                return exact_reference(std::move(out));
            },
        .host = {{"cpu-naive", "Host loop writing each row from `offset` on, wrapping at its end.",
                  offset_write_host, {}}},
        .check = {},
    };
    return desc;
}

}  // namespace coalesce::ops
