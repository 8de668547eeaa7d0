// filter_y: a box filter down columns (the mean of 2r+1 neighbours), with four border modes.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

// Accumulates whole rows: each term adds a contiguous input row to a contiguous output row.
void filter_y_blocked(const Matrix& in, Matrix& out, const OpParams& p) {
    const long long rows = static_cast<long long>(in.rows());
    const std::size_t cols = in.cols();
    const float scale = 1.0f / static_cast<float>(2 * p.radius + 1);
    std::vector<float> acc(cols);
    for (long long r = 0; r < rows; ++r) {
        std::fill(acc.begin(), acc.end(), 0.0f);
        for (long long k = -p.radius; k <= p.radius; ++k) {
            const long long j = border_index(r + k, rows, p.border);
            if (j < 0) continue;
            const float* src = in.row(static_cast<std::size_t>(j));
            for (std::size_t c = 0; c < cols; ++c) acc[c] += src[c];
        }
        float* dst = out.row(static_cast<std::size_t>(r));
        for (std::size_t c = 0; c < cols; ++c) dst[c] = acc[c] * scale;
    }
}

}  // namespace

const OpDesc& describe_filter_y() {
    static const OpDesc desc{
        .op = Op::filter_y,
        .aliases = {"filtery"},
        .summary = "out[r][c] = mean of in[r-r..r+r][c]: a box filter down columns",
        .filter = true,
        .exact = false,
        .params = {},
        .output_shape = same_shape,
        .bytes_moved = same_shape_bytes,
        .reference = [](const Matrix& in,
                        const OpParams& p) { return filter_reference(in, p, false); },
        .host =
            {
                {"cpu-naive",
                 "Host box filter reading down columns: a strided access for every "
                 "term.",
                 [](const Matrix& in, Matrix& out, const OpParams& p) {
                     filter_naive(in, out, p, false);
                 },
                 {}},
                {"cpu-blocked",
                 "Host box filter adding whole rows: contiguous reads and writes for every term.",
                 filter_y_blocked,
                 {}},
            },
    };
    return desc;
}

}  // namespace coalesce::ops
