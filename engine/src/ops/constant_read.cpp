// constant_read: the constant-memory experiment of seed 003. Every thread reads `repeat` entries of
// a 1024-float table (the first 1024 input elements) and writes their sum; the index is uniform
// across a warp or differs between its lanes (parameter `distinct`), which is what decides whether
// the constant cache serves the warp in one pass or serializes it. Timed per access.
#include "coalesce/onchip.hpp"
#include "op_support.hpp"

#include <array>

namespace coalesce::ops {
namespace {

using onchip::kTableSize;

std::array<double, kTableSize> table_of(const Matrix& in) {
    std::array<double, kTableSize> table{};
    for (std::size_t k = 0; k < table.size(); ++k) table[k] = in.data()[k % in.size()];
    return table;
}

// The sums of `repeat` consecutive entries (wrapping) from each start, and of their |entries|: a
// thread's output depends only on its start, so the reference costs O(table * repeat).
struct WindowSums {
    std::array<double, kTableSize> sum{}, magnitude{};
};

WindowSums window_sums(const Matrix& in, long long repeat) {
    const auto table = table_of(in);
    WindowSums w;
    for (int base = 0; base < kTableSize; ++base)
        for (long long i = 0; i < repeat; ++i) {
            const double v =
                table[static_cast<std::size_t>(onchip::table_index(base, static_cast<int>(i)))];
            w.sum[static_cast<std::size_t>(base)] += v;
            w.magnitude[static_cast<std::size_t>(base)] += std::fabs(v);
        }
    return w;
}

void constant_read_host(const Matrix& in, Matrix& out, const OpParams& p) {
    std::array<float, kTableSize> table{};
    for (std::size_t k = 0; k < table.size(); ++k) table[k] = in.data()[k % in.size()];
    const int repeat = static_cast<int>(p.value("repeat"));
    const int distinct = static_cast<int>(p.value("distinct"));
    for (std::size_t r = 0; r < out.rows(); ++r)
        for (std::size_t c = 0; c < out.cols(); ++c) {
            const int base =
                onchip::table_base(static_cast<long long>(r), static_cast<long long>(c), distinct);
            float sum = 0.0f;
            for (int i = 0; i < repeat; ++i)
                sum += table[static_cast<std::size_t>(onchip::table_index(base, i))];
            out.at(r, c) = sum;
        }
}

Reference constant_read_reference(const Matrix& in, const OpParams& p) {
    const long long repeat = p.value("repeat");
    const int distinct = static_cast<int>(p.value("distinct"));
    const WindowSums w = window_sums(in, repeat);
    Reference ref{Matrix(in.rows(), in.cols()),
                  Matrix(in.rows(), in.cols()),
                  static_cast<std::size_t>(repeat),
                  {}};
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c) {
            const auto base = static_cast<std::size_t>(
                onchip::table_base(static_cast<long long>(r), static_cast<long long>(c), distinct));
            ref.value.at(r, c) = static_cast<float>(w.sum[base]);
            ref.magnitude.at(r, c) = static_cast<float>(w.magnitude[base]);
        }
    return ref;
}

}  // namespace

const OpDesc& describe_constant_read() {
    static const OpDesc desc{
        .op = Op("constant_read"),
        .aliases = {"constant", "constant_memory"},
        .summary =
            "each thread sums `repeat` entries of a 1024-float table read with `distinct` "
            "addresses per warp (0: c[i], 1: c[row + i], n: c[row + col % n + i]); timed "
            "per access",
        .filter = false,
        .exact = false,
        .params = {{"repeat", 1, 4096, 64, "table reads per thread"},
                   {"distinct", 0, 32, 1,
                    "addresses a warp's 32 lanes read at once: 0 c[i] (the whole grid), 1 "
                    "c[row + i] (uniform per warp), up to 32 (c[lane + i]: one per lane)"}},
        .output_shape = same_shape,
        // The table read once and every sum written once; the figure of this operation is the
        // time per access, not GB/s.
        .bytes_moved =
            [](Shape in, const OpParams&) {
                return (std::min<std::size_t>(in.elements(), kTableSize) + in.elements()) *
                       sizeof(float);
            },
        .reference = constant_read_reference,
        .host = {{"cpu-naive",
                  "Host loop summing the table entries each thread would read.",
                  constant_read_host,
                  {}}},
        .check = {},
        .accesses =
            [](Shape in, const OpParams& p) {
                return static_cast<double>(in.elements()) * static_cast<double>(p.value("repeat"));
            },
    };
    return desc;
}

}  // namespace coalesce::ops
