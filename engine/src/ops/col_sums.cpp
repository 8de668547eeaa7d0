// col_sums: one sum per column; coalesced on the GPU when neighbouring threads own neighbouring
// columns, the notebook's counterpart of row sums.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

void col_sums_naive(const Matrix& in, Matrix& out, const OpParams&) {
    // Walks down each column: one cache line fetched per element, the host's uncoalesced lesson.
    for (std::size_t c = 0; c < in.cols(); ++c) {
        float sum = 0.0f;
        for (std::size_t r = 0; r < in.rows(); ++r) sum += in.at(r, c);
        out.at(0, c) = sum;
    }
}

void col_sums_blocked(const Matrix& in, Matrix& out, const OpParams&) {
    // Row by row: each input line is read once, contiguously, into a row of running sums.
    std::fill(out.data(), out.data() + out.size(), 0.0f);
    for (std::size_t r = 0; r < in.rows(); ++r) {
        const float* row = in.row(r);
        float* sums = out.data();
        for (std::size_t c = 0; c < in.cols(); ++c) sums[c] += row[c];
    }
}

}  // namespace

const OpDesc& describe_col_sums() {
    static const OpDesc desc{
        .op = Op::col_sums,
        .aliases = {"colsums", "column_sums"},
        .summary = "out[c] = sum of column c",
        .filter = false,
        .exact = false,
        .params = {},
        .output_shape =
            [](Shape in, const OpParams&) {
                return Shape{1, in.cols};
            },
        .bytes_moved =
            [](Shape in, const OpParams&) {
                return in_plus_out_bytes(in, Shape{1, in.cols});
            },
        .reference =
            [](const Matrix& in, const OpParams&) {
                Reference ref{Matrix(1, in.cols()), Matrix(1, in.cols()), in.rows()};
                parallel_for(in.cols(), [&](std::size_t c0, std::size_t c1) {
                    std::vector<double> sum(c1 - c0, 0.0), abs_sum(c1 - c0, 0.0);
                    for (std::size_t r = 0; r < in.rows(); ++r) {
                        const float* row = in.row(r);
                        for (std::size_t c = c0; c < c1; ++c) {
                            sum[c - c0] += row[c];
                            abs_sum[c - c0] += std::fabs(row[c]);
                        }
                    }
                    for (std::size_t c = c0; c < c1; ++c) {
                        ref.value.at(0, c) = static_cast<float>(sum[c - c0]);
                        ref.magnitude.at(0, c) = static_cast<float>(abs_sum[c - c0]);
                    }
                });
                return ref;
            },
        .host =
            {
                {"cpu-naive",
                 "Host loop walking down each column: a cache line fetched for every element.",
                 col_sums_naive,
                 {}},
                {"cpu-blocked",
                 "Host column sums row by row into a line of running sums: every read is "
                 "contiguous.",
                 col_sums_blocked,
                 {}},
            },
    };
    return desc;
}

}  // namespace coalesce::ops
