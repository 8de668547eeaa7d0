// matrix_add: out[r][c] = a[r][c] + b[r][c], seed 002's matrix_add. `a` is the input; `b` is the
// input with its rows rotated by half the matrix, b[r][c] = a[(r + rows/2) mod rows][c], a second
// operand in a buffer of its own (GPU variants prepare it before timing). The lesson is in the
// variants: a 2-D grid whose x runs along the rows or down the columns.
#include "op_support.hpp"

#include <cmath>

namespace coalesce::ops {
namespace {

// b[r][c] of the operation: the input's row half a matrix further down.
float second_operand(const Matrix& in, std::size_t r, std::size_t c) {
    return in.at((r + in.rows() / 2) % in.rows(), c);
}

void matrix_add_host(const Matrix& in, Matrix& out, const OpParams&) {
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c)
            out.at(r, c) = in.at(r, c) + second_operand(in, r, c);
}

}  // namespace

const OpDesc& describe_matrix_add() {
    static const OpDesc desc{
        .op = Op("matrix_add"),
        .aliases = {"add_2d"},
        .summary = "out = a + b, b = a with its rows rotated by half: seed 002's matrix_add",
        .filter = false,
        .exact = false,
        .params = {},
        .output_shape = same_shape,
        // a and b read once, out written once.
        .bytes_moved = [](Shape in, const OpParams&) { return 3 * sizeof(float) * in.elements(); },
        .reference =
            [](const Matrix& in, const OpParams&) {
                Reference ref{Matrix(in.rows(), in.cols()), Matrix(in.rows(), in.cols()), 2};
                parallel_for(in.rows(), [&](std::size_t r0, std::size_t r1) {
                    for (std::size_t r = r0; r < r1; ++r)
                        for (std::size_t c = 0; c < in.cols(); ++c) {
                            const double a = in.at(r, c);
                            const double b = second_operand(in, r, c);
                            ref.value.at(r, c) = static_cast<float>(a + b);
                            ref.magnitude.at(r, c) =
                                static_cast<float>(std::fabs(a) + std::fabs(b));
                        }
                });
                return ref;
            },
        .host = {{"cpu-naive", "Host loop adding a and b row by row.", matrix_add_host,
                  [](Shape, std::size_t) { return std::size_t{1}; }}},
        .check = {},
    };
    return desc;
}

}  // namespace coalesce::ops
