// filter_x: a box filter along rows (the mean of 2r+1 neighbours), with four border modes.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

// Copies each row with its halo into a padded line once, so the inner loop has no border branches.
void filter_x_blocked(const Matrix& in, Matrix& out, const OpParams& p) {
    const long long cols = static_cast<long long>(in.cols());
    const float scale = 1.0f / static_cast<float>(2 * p.radius + 1);
    std::vector<float> line(static_cast<std::size_t>(cols + 2 * p.radius));
    for (std::size_t r = 0; r < in.rows(); ++r) {
        const float* row = in.row(r);
        for (long long i = 0; i < cols + 2 * p.radius; ++i)
            line[static_cast<std::size_t>(i)] =
                read_or_zero(row, border_index(i - p.radius, cols, p.border), 1);
        for (long long c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (long long k = 0; k <= 2 * p.radius; ++k)
                sum += line[static_cast<std::size_t>(c + k)];
            out.at(r, static_cast<std::size_t>(c)) = sum * scale;
        }
    }
}

}  // namespace

const OpDesc& describe_filter_x() {
    static const OpDesc desc{
        .op = Op::filter_x,
        .aliases = {"filterx"},
        .summary = "out[r][c] = mean of in[r][c-r..c+r]: a box filter along rows",
        .filter = true,
        .exact = false,
        .params = {},
        .output_shape = same_shape,
        .bytes_moved = same_shape_bytes,
        .reference = [](const Matrix& in,
                        const OpParams& p) { return filter_reference(in, p, true); },
        .host =
            {
                {"cpu-naive",
                 "Host box filter with a border check on every read.",
                 [](const Matrix& in, Matrix& out, const OpParams& p) {
                     filter_naive(in, out, p, true);
                 },
                 {}},
                {"cpu-blocked",
                 "Host box filter over a padded copy of each row: no border branches in the "
                 "inner loop.",
                 filter_x_blocked,
                 {}},
            },
    };
    return desc;
}

}  // namespace coalesce::ops
