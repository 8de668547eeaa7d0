// What the operation descriptors in this folder share: splitting reference work over the host's
// cores, the mean of a window along one line, the bytes models and checks several of them use.
#pragma once

#include "coalesce/operation.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

namespace coalesce::ops {

// Splits [0, count) over the host's cores; the references of 8192x8192 filters are otherwise slow.
template <class Body>
void parallel_for(std::size_t count, Body body) {
    const std::size_t workers = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 32);
    if (count < 256 || workers == 1) {
        body(std::size_t{0}, count);
        return;
    }
    std::vector<std::thread> threads;
    const std::size_t chunk = (count + workers - 1) / workers;
    for (std::size_t begin = 0; begin < count; begin += chunk)
        threads.emplace_back(body, begin, std::min(count, begin + chunk));
    for (auto& t : threads) t.join();
}

// Mean over the 2r+1 neighbours along one line read through `at(index)`, in double, with the
// mean of |terms| as the magnitude.
template <class At>
void filter_line(long long n, int radius, Border border, At at, float* out, float* magnitude,
                 std::size_t out_stride) {
    const double scale = 1.0 / (2 * radius + 1);
    for (long long i = 0; i < n; ++i) {
        double sum = 0.0, abs_sum = 0.0;
        for (long long k = i - radius; k <= i + radius; ++k) {
            const long long j = border_index(k, n, border);
            const double v = j < 0 ? 0.0 : at(j);
            sum += v;
            abs_sum += std::fabs(v);
        }
        out[i * static_cast<long long>(out_stride)] = static_cast<float>(sum * scale);
        magnitude[i * static_cast<long long>(out_stride)] = static_cast<float>(abs_sum * scale);
    }
}

// A reference whose magnitude is all zeros: for exact operations.
inline Reference exact_reference(Matrix value) {
    Matrix zeros(value.rows(), value.cols(), 0.0f);
    return Reference{std::move(value), std::move(zeros), 1};
}

inline float read_or_zero(const float* line, long long j, std::size_t stride) {
    return j < 0 ? 0.0f : line[j * static_cast<long long>(stride)];
}

inline Shape same_shape(Shape in, const OpParams&) { return in; }

// Each input element read once plus each output element written once, 4 bytes each.
inline std::size_t in_plus_out_bytes(Shape in, Shape out) {
    return (in.elements() + out.elements()) * sizeof(float);
}

// The bytes model of an operation whose output has the input's shape.
inline std::size_t same_shape_bytes(Shape in, const OpParams&) { return in_plus_out_bytes(in, in); }

// The check of the operations that step through the whole buffer by `stride` floats: a stride
// longer than the buffer would touch one element only, so it is refused, naming both.
inline std::string stride_fits_buffer(Shape in, const OpParams& p) {
    const long long stride = p.value("stride");
    if (static_cast<std::size_t>(stride) <= in.elements()) return {};
    return "stride=" + std::to_string(stride) + " is longer than the buffer (" +
           std::to_string(in.rows) + "x" + std::to_string(in.cols) + " = " +
           std::to_string(in.elements()) + " elements)";
}

}  // namespace coalesce::ops

namespace coalesce::ops {

// The textbook host box filter: a border check on every read, along rows or down columns.
inline void filter_naive(const Matrix& in, Matrix& out, const OpParams& p, bool along_x) {
    const long long rows = static_cast<long long>(in.rows());
    const long long cols = static_cast<long long>(in.cols());
    const float scale = 1.0f / static_cast<float>(2 * p.radius + 1);
    for (long long r = 0; r < rows; ++r)
        for (long long c = 0; c < cols; ++c) {
            float sum = 0.0f;
            for (long long k = -p.radius; k <= p.radius; ++k) {
                if (along_x) {
                    const long long j = border_index(c + k, cols, p.border);
                    sum += read_or_zero(in.row(static_cast<std::size_t>(r)), j, 1);
                } else {
                    const long long j = border_index(r + k, rows, p.border);
                    sum += read_or_zero(in.data() + c, j, in.cols());
                }
            }
            out.at(static_cast<std::size_t>(r), static_cast<std::size_t>(c)) = sum * scale;
        }
}

inline std::size_t filter_terms(const OpParams& p) {
    return static_cast<std::size_t>(2 * p.radius + 1);
}

// The CPU reference of filter X (`along_x`: each row) or filter Y (each column): every line's
// window mean in double, lines spread over the host's cores.
inline Reference filter_reference(const Matrix& in, const OpParams& p, bool along_x) {
    Reference ref{Matrix(in.rows(), in.cols()), Matrix(in.rows(), in.cols()), filter_terms(p)};
    const std::size_t rows = in.rows(), cols = in.cols();
    parallel_for(along_x ? rows : cols, [&](std::size_t first, std::size_t last) {
        for (std::size_t line = first; line < last; ++line) {
            if (along_x) {
                const float* row = in.row(line);
                filter_line(
                    static_cast<long long>(cols), p.radius, p.border,
                    [row](long long j) { return row[j]; }, ref.value.row(line),
                    ref.magnitude.row(line), 1);
            } else {
                filter_line(
                    static_cast<long long>(rows), p.radius, p.border,
                    [&in, line](long long j) { return in.at(static_cast<std::size_t>(j), line); },
                    ref.value.data() + line, ref.magnitude.data() + line, cols);
            }
        }
    });
    return ref;
}

}  // namespace coalesce::ops
