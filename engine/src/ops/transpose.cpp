// transpose: out[c][r] = in[r][c], the course's coalescing lesson on writes.
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

// 32x32 floats (4 KiB) of input and of output: both blocks stay in L1 while a block is copied,
// so every cache line of the output is written whole before it is evicted.
constexpr std::size_t kBlock = 32;

void transpose_naive(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c) out.at(c, r) = in.at(r, c);
}

void transpose_blocked(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r0 = 0; r0 < in.rows(); r0 += kBlock)
        for (std::size_t c0 = 0; c0 < in.cols(); c0 += kBlock) {
            const std::size_t r1 = std::min(in.rows(), r0 + kBlock);
            const std::size_t c1 = std::min(in.cols(), c0 + kBlock);
            // Column-outer inside the block: each output row segment is written contiguously.
            for (std::size_t c = c0; c < c1; ++c) {
                float* dst = out.row(c);
                for (std::size_t r = r0; r < r1; ++r) dst[r] = in.at(r, c);
            }
        }
}

}  // namespace

const OpDesc& describe_transpose() {
    static const OpDesc desc{
        .op = Op::transpose,
        .aliases = {},
        .summary =
            "out[c][r] = in[r][c]: coalesced reads or coalesced writes, not both, "
            "unless a tile turns the corner",
        .filter = false,
        .exact = true,
        .params = {},
        .output_shape =
            [](Shape in, const OpParams&) {
                return Shape{in.cols, in.rows};
            },
        .bytes_moved = same_shape_bytes,
        .reference =
            [](const Matrix& in, const OpParams&) {
                Matrix out(in.cols(), in.rows());
                parallel_for(in.rows(), [&](std::size_t r0, std::size_t r1) {
                    for (std::size_t r = r0; r < r1; ++r)
                        for (std::size_t c = 0; c < in.cols(); ++c) out.at(c, r) = in.at(r, c);
                });
                return exact_reference(std::move(out));
            },
        .host =
            {
                {"cpu-naive",
                 "Host loop writing down columns: every write touches a new cache line.",
                 transpose_naive,
                 {}},
                {"cpu-blocked",
                 "Host transpose in 32x32 blocks: a block of input and output stays in L1.",
                 transpose_blocked,
                 {}},
            },
    };
    return desc;
}

}  // namespace coalesce::ops
