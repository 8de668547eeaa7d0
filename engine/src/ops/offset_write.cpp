// offset_write: out[r][(c + offset) mod cols] = in[r][c]. The write-side twin of offset_read
// (seed 004's offset_access writes where it reads): every warp reads 32 aligned neighbours and
// stores them `offset` floats past a sector boundary. Rows wrap around, so every output is defined.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

// Rows [r0, r1): each float goes `offset` places along its row, wrapping at the end.
void offset_write_rows(const Matrix& in, Matrix& out, std::size_t k, std::size_t r0,
                       std::size_t r1) {
    const std::size_t cols = in.cols();
    for (std::size_t r = r0; r < r1; ++r)
        for (std::size_t c = 0; c < cols; ++c) out.at(r, (c + k) % cols) = in.at(r, c);
}

std::size_t offset_of(const Matrix& in, const OpParams& p) {
    return static_cast<std::size_t>(p.value("offset")) % in.cols();
}

void offset_write_host(const Matrix& in, Matrix& out, const OpParams& p) {
    offset_write_rows(in, out, offset_of(in, p), 0, in.rows());
}

}  // namespace

const OpDesc& describe_offset_write() {
    static const OpDesc desc{
        .op = Op("offset_write"),
        .aliases = {"offset_store"},
        .summary =
            "out[r][c + offset] = in[r][c] (rows wrap): stores that start off a sector "
            "boundary",
        .filter = false,
        .exact = true,
        .params = {{"offset", 0, 32, 0, "elements each write is shifted by"}},
        .output_shape = same_shape,
        .bytes_moved = same_shape_bytes,
        .reference =
            [](const Matrix& in, const OpParams& p) {
                Matrix out(in.rows(), in.cols());
                const std::size_t k = offset_of(in, p);
                parallel_for(in.rows(), [&](std::size_t r0, std::size_t r1) {
                    offset_write_rows(in, out, k, r0, r1);
                });
                return exact_reference(std::move(out));
            },
        .host = {{"cpu-naive",
                  "Host loop writing each row from `offset` on, wrapping at its end.",
                  offset_write_host,
                  {}}},
        .check = {},
    };
    return desc;
}

}  // namespace coalesce::ops
