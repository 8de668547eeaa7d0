#include "typed_host_loops.hpp"

#include "coalesce/typed_run.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace coalesce::host_loops {
namespace {

template <class T, class S>
void sums(Op op, const TypedImage<T>& in, TypedImage<S>& out) {
    std::fill(out.data(), out.data() + out.size(), S{0});
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c)
            for (std::size_t ch = 0; ch < in.channels(); ++ch) {
                if (op == Op::row_sums)
                    out.at(r, 0, ch) += in.at(r, c, ch);
                else
                    out.at(0, c, ch) += in.at(r, c, ch);
            }
}

template <class T>
void filter(Op op, const TypedImage<T>& in, const OpParams& p, TypedImage<T>& out) {
    const bool along_x = op == Op::filter_x;
    const long long n = static_cast<long long>(along_x ? in.cols() : in.rows());
    const std::uint64_t k = 2 * static_cast<std::uint64_t>(p.radius) + 1;
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c)
            for (std::size_t ch = 0; ch < in.channels(); ++ch) {
                const long long at = static_cast<long long>(along_x ? c : r);
                std::uint64_t s = 0;
                for (long long d = -p.radius; d <= p.radius; ++d) {
                    const long long i = border_index(at + d, n, p.border);
                    if (i < 0) continue;  // Border::zero
                    const auto j = static_cast<std::size_t>(i);
                    s += along_x ? in.at(r, j, ch) : in.at(j, c, ch);
                }
                out.at(r, c, ch) = static_cast<T>((s + static_cast<std::uint64_t>(p.radius)) / k);
            }
}

template <class T, class O>
void run(Op op, const TypedImage<T>& in, const OpParams& p, TypedImage<O>& out) {
    if (op == Op::row_sums || op == Op::col_sums) {
        if constexpr (std::is_same_v<O, std::uint32_t> || std::is_same_v<O, std::uint64_t>)
            return sums(op, in, out);
    } else if constexpr (std::is_same_v<O, T>) {
        if (op == Op::copy) return void(out = in);
        if (op == Op::transpose) {
            for (std::size_t r = 0; r < in.rows(); ++r)
                for (std::size_t c = 0; c < in.cols(); ++c)
                    for (std::size_t ch = 0; ch < in.channels(); ++ch)
                        out.at(c, r, ch) = in.at(r, c, ch);
            return;
        }
        if (is_filter(op)) return filter(op, in, p, out);
    }
    throw std::invalid_argument("host loops: no u8/u16 loop for " + std::string(op.name()) +
                                " into this output type");
}

}  // namespace

AnyImage typed_output(Op op, const AnyImage& input, const OpParams& params) {
    const Shape in = typed::shape_of(input);
    const Shape s = output_shape(op, in, params);
    const auto channels = static_cast<std::size_t>(typed::channels_of(input));
    if (op == Op::row_sums || op == Op::col_sums) {
        const ElemType t =
            std::holds_alternative<TypedImage<std::uint8_t>>(input) ? ElemType::u8 : ElemType::u16;
        if (typed::output_elem_size(op, t, in) == 8)
            return TypedImage<std::uint64_t>(s.rows, s.cols, channels);
        return TypedImage<std::uint32_t>(s.rows, s.cols, channels);
    }
    return std::visit(
        [&](const auto& image) -> AnyImage {
            return std::decay_t<decltype(image)>(s.rows, s.cols, channels);
        },
        input);
}

void run_typed(Op op, const AnyImage& input, const OpParams& params, AnyImage& out) {
    std::visit(
        [&](const auto& in, auto& o) {
            using T = typename std::decay_t<decltype(in)>;
            if constexpr (std::is_same_v<T, TypedImage<std::uint8_t>> ||
                          std::is_same_v<T, TypedImage<std::uint16_t>>)
                run(op, in, params, o);
            else
                throw std::invalid_argument("host loops: u8 or u16 input expected");
        },
        input, out);
}

}  // namespace coalesce::host_loops
