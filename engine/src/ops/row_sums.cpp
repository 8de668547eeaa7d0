// row_sums: one sum per row; along a row on the GPU only if the threads of a warp share a row.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

constexpr std::size_t kParts = 8;

void row_sums_naive(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r = 0; r < in.rows(); ++r) {
        float sum = 0.0f;
        for (std::size_t c = 0; c < in.cols(); ++c) sum += in.at(r, c);
        out.at(r, 0) = sum;
    }
}

// Eight independent partial sums let the compiler vectorize without reassociating one chain.
void row_sums_blocked(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r = 0; r < in.rows(); ++r) {
        float part[kParts] = {};
        const float* row = in.row(r);
        std::size_t c = 0;
        for (; c + kParts <= in.cols(); c += kParts)
            for (std::size_t k = 0; k < kParts; ++k) part[k] += row[c + k];
        float sum = 0.0f;
        for (float s : part) sum += s;
        for (; c < in.cols(); ++c) sum += row[c];
        out.at(r, 0) = sum;
    }
}

}  // namespace

const OpDesc& describe_row_sums() {
    static const OpDesc desc{
        .op = Op::row_sums,
        .aliases = {"rowsums"},
        .summary = "out[r] = sum of row r",
        .filter = false,
        .exact = false,
        .params = {},
        .output_shape =
            [](Shape in, const OpParams&) {
                return Shape{in.rows, 1};
            },
        .bytes_moved =
            [](Shape in, const OpParams&) {
                return in_plus_out_bytes(in, Shape{in.rows, 1});
            },
        .reference =
            [](const Matrix& in, const OpParams&) {
                Reference ref{Matrix(in.rows(), 1), Matrix(in.rows(), 1), in.cols()};
                parallel_for(in.rows(), [&](std::size_t r0, std::size_t r1) {
                    for (std::size_t r = r0; r < r1; ++r) {
                        double sum = 0.0, abs_sum = 0.0;
                        for (std::size_t c = 0; c < in.cols(); ++c) {
                            sum += in.at(r, c);
                            abs_sum += std::fabs(in.at(r, c));
                        }
                        ref.value.at(r, 0) = static_cast<float>(sum);
                        ref.magnitude.at(r, 0) = static_cast<float>(abs_sum);
                    }
                });
                return ref;
            },
        .host =
            {
                {"cpu-naive",
                 "Host loop with one running sum per row: a serial add chain.",
                 row_sums_naive,
                 {}},
                {"cpu-blocked",
                 "Host row sums with eight partial sums: independent adds the compiler "
                 "vectorizes.",
                 row_sums_blocked,
                 [](Shape in, std::size_t) { return in.cols / kParts + kParts + kParts; }},
            },
    };
    return desc;
}

}  // namespace coalesce::ops
