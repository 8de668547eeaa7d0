#include "coalesce/operation.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace coalesce {

const std::vector<Op>& all_ops() {
    static const std::vector<Op> ops = {Op::copy, Op::transpose, Op::row_sums,
                                        Op::col_sums, Op::filter_x, Op::filter_y};
    return ops;
}

const std::vector<Border>& all_borders() {
    static const std::vector<Border> borders = {Border::clamp, Border::zero, Border::wrap, Border::mirror};
    return borders;
}

std::string_view op_name(Op op) {
    switch (op) {
    case Op::copy: return "copy";
    case Op::transpose: return "transpose";
    case Op::row_sums: return "row_sums";
    case Op::col_sums: return "col_sums";
    case Op::filter_x: return "filter_x";
    case Op::filter_y: return "filter_y";
    }
    return "?";
}

std::string_view border_name(Border b) {
    switch (b) {
    case Border::clamp: return "clamp";
    case Border::zero: return "zero";
    case Border::wrap: return "wrap";
    case Border::mirror: return "mirror";
    }
    return "?";
}

namespace {

std::string normalized(std::string_view name) {
    std::string s;
    for (char ch : name) {
        if (ch == '-' || ch == ' ') ch = '_';
        s += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    }
    return s;
}

}  // namespace

std::optional<Op> parse_op(std::string_view name) {
    const std::string n = normalized(name);
    for (Op op : all_ops())
        if (n == op_name(op)) return op;
    if (n == "rowsums") return Op::row_sums;
    if (n == "colsums" || n == "column_sums") return Op::col_sums;
    if (n == "filterx") return Op::filter_x;
    if (n == "filtery") return Op::filter_y;
    return std::nullopt;
}

std::optional<Border> parse_border(std::string_view name) {
    const std::string n = normalized(name);
    for (Border b : all_borders())
        if (n == border_name(b)) return b;
    if (n == "border" || n == "constant") return Border::zero;
    if (n == "reflect") return Border::mirror;
    return std::nullopt;
}

bool is_filter(Op op) { return op == Op::filter_x || op == Op::filter_y; }

Shape output_shape(Op op, Shape in) {
    switch (op) {
    case Op::transpose: return {in.cols, in.rows};
    case Op::row_sums: return {in.rows, 1};
    case Op::col_sums: return {1, in.cols};
    default: return in;
    }
}

std::size_t bytes_moved(Op op, Shape in) {
    return (in.elements() + output_shape(op, in).elements()) * sizeof(float);
}

namespace {

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

// Mean over the 2r+1 neighbours along one line read through `at(index)`.
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
        out[i * out_stride] = static_cast<float>(sum * scale);
        magnitude[i * out_stride] = static_cast<float>(abs_sum * scale);
    }
}

}  // namespace

Reference cpu_reference(Op op, const Matrix& in, const OpParams& params) {
    const Shape out_shape = output_shape(op, in.shape());
    Reference ref{Matrix(out_shape.rows, out_shape.cols), Matrix(out_shape.rows, out_shape.cols), 1};
    const std::size_t rows = in.rows(), cols = in.cols();
    Matrix& out = ref.value;
    Matrix& mag = ref.magnitude;
    switch (op) {
    case Op::copy:
        out = in;
        break;
    case Op::transpose:
        parallel_for(rows, [&](std::size_t r0, std::size_t r1) {
            for (std::size_t r = r0; r < r1; ++r)
                for (std::size_t c = 0; c < cols; ++c) out.at(c, r) = in.at(r, c);
        });
        break;
    case Op::row_sums:
        ref.terms = cols;
        parallel_for(rows, [&](std::size_t r0, std::size_t r1) {
            for (std::size_t r = r0; r < r1; ++r) {
                double sum = 0.0, abs_sum = 0.0;
                for (std::size_t c = 0; c < cols; ++c) {
                    sum += in.at(r, c);
                    abs_sum += std::fabs(in.at(r, c));
                }
                out.at(r, 0) = static_cast<float>(sum);
                mag.at(r, 0) = static_cast<float>(abs_sum);
            }
        });
        break;
    case Op::col_sums: {
        ref.terms = rows;
        parallel_for(cols, [&](std::size_t c0, std::size_t c1) {
            std::vector<double> sum(c1 - c0, 0.0), abs_sum(c1 - c0, 0.0);
            for (std::size_t r = 0; r < rows; ++r) {
                const float* row = in.row(r);
                for (std::size_t c = c0; c < c1; ++c) {
                    sum[c - c0] += row[c];
                    abs_sum[c - c0] += std::fabs(row[c]);
                }
            }
            for (std::size_t c = c0; c < c1; ++c) {
                out.at(0, c) = static_cast<float>(sum[c - c0]);
                mag.at(0, c) = static_cast<float>(abs_sum[c - c0]);
            }
        });
        break;
    }
    case Op::filter_x:
        ref.terms = static_cast<std::size_t>(2 * params.radius + 1);
        parallel_for(rows, [&](std::size_t r0, std::size_t r1) {
            for (std::size_t r = r0; r < r1; ++r) {
                const float* row = in.row(r);
                filter_line(static_cast<long long>(cols), params.radius, params.border,
                            [row](long long j) { return row[j]; }, out.row(r), mag.row(r), 1);
            }
        });
        break;
    case Op::filter_y:
        ref.terms = static_cast<std::size_t>(2 * params.radius + 1);
        parallel_for(cols, [&](std::size_t c0, std::size_t c1) {
            for (std::size_t c = c0; c < c1; ++c)
                filter_line(static_cast<long long>(rows), params.radius, params.border,
                            [&in, c](long long j) { return in.at(static_cast<std::size_t>(j), c); },
                            out.data() + c, mag.data() + c, cols);
        });
        break;
    }
    if (op == Op::copy || op == Op::transpose) mag = Matrix(out_shape.rows, out_shape.cols, 0.0f);
    return ref;
}

Verification verify(Op op, const Reference& ref, const Matrix& out) {
    Verification v;
    if (out.shape() != ref.value.shape()) {
        std::ostringstream msg;
        msg << "output is " << out.rows() << "x" << out.cols() << ", expected " << ref.value.rows()
            << "x" << ref.value.cols();
        v.message = msg.str();
        return v;
    }
    const bool exact = op == Op::copy || op == Op::transpose;
    // Rounding errors of a float32 sum of n terms grow like sqrt(n) * eps * sum|terms| in practice
    // (the worst case, n * eps, is so loose that a missing element would pass); +2 covers the
    // filters' final scaling and the rounding of the double reference to float.
    const double factor =
        exact ? 0.0 : (2.0 * std::sqrt(static_cast<double>(ref.terms)) + 2.0) * FLT_EPSILON;
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double got = out.data()[i];
        const double want = ref.value.data()[i];
        const double err = std::fabs(got - want);
        const double tol = factor * ref.magnitude.data()[i];
        if (std::isnan(got) || err > tol) {
            if (v.message.empty()) {
                std::ostringstream msg;
                msg.precision(9);
                msg << "element (" << i / out.cols() << ", " << i % out.cols() << "): got " << got
                    << ", expected " << want;
                if (std::isnan(got)) msg << " (NaN: never written, or computed from NaN)";
                else if (!exact) msg << " (error " << err << " > tolerance " << tol << ")";
                v.message = msg.str();
            }
        }
        if (!std::isnan(got)) v.max_abs_error = std::max(v.max_abs_error, err);
    }
    v.ok = v.message.empty();
    return v;
}

}  // namespace coalesce
