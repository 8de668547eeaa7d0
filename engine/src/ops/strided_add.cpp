// strided_add: out[i] = a[i * stride] + b[i * stride] for i < ceil(N / stride), seed 002's
// add_experiment (stride 1 is its coalesced case). `a` is the input read as one line of
// N = rows * cols floats; `b` is the input rotated by half the buffer, b[j] = a[(j + N/2) mod N],
// a second operand in a buffer of its own (GPU variants prepare it before timing).
#include "op_support.hpp"

#include <cmath>
#include <string>

namespace coalesce::ops {
namespace {

std::size_t sums(Shape in, const OpParams& p) {
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    return (in.elements() + stride - 1) / stride;
}

// b[j] of the operation: the input half a buffer along.
float second_operand(const Matrix& in, std::size_t j) {
    return in.data()[(j + in.size() / 2) % in.size()];
}

void strided_add_host(const Matrix& in, Matrix& out, const OpParams& p) {
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    for (std::size_t i = 0; i < out.size(); ++i)
        out.data()[i] = in.data()[i * stride] + second_operand(in, i * stride);
}

}  // namespace

const OpDesc& describe_strided_add() {
    static const OpDesc desc{
        .op = Op("strided_add"),
        .aliases = {"add_experiment", "strided_sum"},
        .summary =
            "out[i] = a[i * stride] + b[i * stride], b = a rotated by half the buffer: "
            "seed 002's add_experiment",
        .filter = false,
        .exact = false,
        .params = {{"stride", 1, 1024, 1,
                    "elements between two reads of a and of b (1: coalesced)"}},
        .output_shape =
            [](Shape in, const OpParams& p) {
                return Shape{1, sums(in, p)};
            },
        // Only the floats added count: two reads and one write per output.
        .bytes_moved = [](Shape in, const OpParams& p) { return 3 * sizeof(float) * sums(in, p); },
        .reference =
            [](const Matrix& in, const OpParams& p) {
                const std::size_t count = sums(in.shape(), p);
                const auto stride = static_cast<std::size_t>(p.value("stride"));
                Reference ref{Matrix(1, count), Matrix(1, count), 2};
                parallel_for(count, [&](std::size_t i0, std::size_t i1) {
                    for (std::size_t i = i0; i < i1; ++i) {
                        const double a = in.data()[i * stride];
                        const double b = second_operand(in, i * stride);
                        ref.value.data()[i] = static_cast<float>(a + b);
                        ref.magnitude.data()[i] = static_cast<float>(std::fabs(a) + std::fabs(b));
                    }
                });
                return ref;
            },
        .host = {{"cpu-naive", "Host loop adding every stride-th float of a and of b.",
                  strided_add_host, [](Shape, std::size_t) { return std::size_t{1}; }}},
        .check = stride_fits_buffer,
    };
    return desc;
}

}  // namespace coalesce::ops
