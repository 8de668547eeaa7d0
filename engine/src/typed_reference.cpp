// Typed CPU references (see typed_reference.hpp): plain loops, written to be obviously right
// rather than fast (but for the integer filters' sliding sums, exact all the same: below).
#include "coalesce/typed_reference.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace coalesce::typed {
namespace {

template <class T>
constexpr std::uint64_t max_value() {
    return std::numeric_limits<T>::max();
}

std::uint64_t max_of(ElemType t) {
    return t == ElemType::u8 ? max_value<std::uint8_t>() : max_value<std::uint16_t>();
}

void check_radius(std::string_view op, int radius) {
    if (radius < 0 || radius > kMaxRadius)
        throw std::invalid_argument(std::string(op) + ": radius " + std::to_string(radius) +
                                    " is outside 0.." + std::to_string(kMaxRadius));
}

// Sums each channel of every line (rows when along_rows, else columns) into Acc.
template <class Acc, class T>
TypedImage<Acc> line_sums(const TypedImage<T>& in, bool along_rows) {
    const std::size_t ch = in.channels();
    TypedImage<Acc> out(along_rows ? in.rows() : 1, along_rows ? 1 : in.cols(), ch);
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c)
            for (std::size_t k = 0; k < ch; ++k)
                out.at(along_rows ? r : 0, along_rows ? 0 : c, k) +=
                    static_cast<Acc>(in.at(r, c, k));
    return out;
}

template <class T>
IntegerSums integer_sums(const TypedImage<T>& in, bool along_rows) {
    const char* op = along_rows ? "row_sums" : "col_sums";
    const std::size_t terms = along_rows ? in.cols() : in.rows();
    if (sum_width(op, terms, ElemTraits<T>::type) == SumWidth::u32)
        return line_sums<std::uint32_t>(in, along_rows);
    return line_sums<std::uint64_t>(in, along_rows);
}

// The f32 mean of the 2r+1 neighbours of position i of a line of n, summed in double.
template <class Read>
float filter_at(long long i, long long n, int radius, Border border, Read read) {
    double sum = 0;
    for (long long j = i - radius; j <= i + radius; ++j) {
        const long long at = border_index(j, n, border);
        if (at >= 0) sum += static_cast<double>(read(at));
    }
    return static_cast<float>(sum / static_cast<double>(2 * radius + 1));
}

// u8/u16 box filter of `width` lines side by side over n positions, position i's values at
// src + i * width (contiguous), the means written to dst in the same layout: one sliding uint64
// sum per line (add the entering sample, take the leaving one away), equal to the window's own sum
// exactly at every position. An 8192x8192 u8 and u16 bench run at r = 64 on the GPU machine took
// about 5 s with it, over a minute summing every window.
template <class T>
void slide_means(const T* src, T* dst, long long n, std::size_t width, int radius, Border border) {
    if (n == 0) return;  // no outputs, and wrap and mirror have no period to fold into
    const auto k = static_cast<std::uint64_t>(2 * radius + 1);
    std::vector<std::uint64_t> sums(width, 0);
    const auto add = [&](long long j, bool enter) {
        const long long at = border_index(j, n, border);
        if (at < 0) return;
        const T* v = src + static_cast<std::size_t>(at) * width;
        for (std::size_t l = 0; l < width; ++l) sums[l] = enter ? sums[l] + v[l] : sums[l] - v[l];
    };
    for (long long j = -radius; j <= radius; ++j) add(j, true);
    for (long long i = 0; i < n; ++i) {
        T* o = dst + static_cast<std::size_t>(i) * width;
        for (std::size_t l = 0; l < width; ++l) o[l] = static_cast<T>(rounded_mean(sums[l], k));
        add(i + radius + 1, true);
        add(i - radius, false);
    }
}

// The box filter along rows (filter_x) or along columns (filter_y), every channel on its own.
// f32: each mean from its own window summed in double (a sliding double sum would round
// differently). u8/u16: slide_means, along a row over its pixels' channels, along columns over
// whole rows at a time, so the image is read in row order.
template <class T>
TypedImage<T> filter_along(const TypedImage<T>& in, int radius, Border border, bool along_rows) {
    check_radius(along_rows ? "filter_x" : "filter_y", radius);
    TypedImage<T> out(in.rows(), in.cols(), in.channels());
    const auto n = static_cast<long long>(along_rows ? in.cols() : in.rows());
    if constexpr (std::is_same_v<T, float>) {
        for (std::size_t r = 0; r < in.rows(); ++r)
            for (std::size_t c = 0; c < in.cols(); ++c)
                for (std::size_t k = 0; k < in.channels(); ++k)
                    out.at(r, c, k) =
                        filter_at(static_cast<long long>(along_rows ? c : r), n, radius, border,
                                  [&](long long j) {
                                      const auto at = static_cast<std::size_t>(j);
                                      return along_rows ? in.at(r, at, k) : in.at(at, c, k);
                                  });
    } else {
        const std::size_t row = in.cols() * in.channels();
        if (along_rows) {
            for (std::size_t r = 0; r < in.rows(); ++r)
                slide_means(in.data() + r * row, out.data() + r * row, n, in.channels(), radius,
                            border);
        } else {
            slide_means(in.data(), out.data(), n, row, radius, border);
        }
    }
    return out;
}

}  // namespace

SumWidth sum_width(std::string_view op, std::size_t terms, ElemType t) {
    if (t == ElemType::f32)
        throw std::invalid_argument(std::string(op) +
                                    ": f32 sums accumulate in double, not in an integer");
    const std::uint64_t max = max_of(t);
    const auto n = static_cast<std::uint64_t>(terms);
    if (n > std::numeric_limits<std::uint64_t>::max() / max)
        throw std::overflow_error(std::string(op) + ": " + std::to_string(terms) + " " +
                                  std::string(elem_type_name(t)) +
                                  " terms could overflow a 64-bit sum");
    return n <= std::numeric_limits<std::uint32_t>::max() / max ? SumWidth::u32 : SumWidth::u64;
}

template <class T>
TypedImage<T> copy(const TypedImage<T>& in) {
    return in;
}

template <class T>
TypedImage<T> transpose(const TypedImage<T>& in) {
    TypedImage<T> out(in.cols(), in.rows(), in.channels());
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c)
            for (std::size_t k = 0; k < in.channels(); ++k) out.at(c, r, k) = in.at(r, c, k);
    return out;
}

IntegerSums row_sums(const TypedImage<std::uint8_t>& in) { return integer_sums(in, true); }
IntegerSums row_sums(const TypedImage<std::uint16_t>& in) { return integer_sums(in, true); }
TypedImage<double> row_sums(const TypedImage<float>& in) { return line_sums<double>(in, true); }
IntegerSums col_sums(const TypedImage<std::uint8_t>& in) { return integer_sums(in, false); }
IntegerSums col_sums(const TypedImage<std::uint16_t>& in) { return integer_sums(in, false); }
TypedImage<double> col_sums(const TypedImage<float>& in) { return line_sums<double>(in, false); }

template <class T>
TypedImage<T> filter_x(const TypedImage<T>& in, int radius, Border border) {
    return filter_along(in, radius, border, true);
}

template <class T>
TypedImage<T> filter_y(const TypedImage<T>& in, int radius, Border border) {
    return filter_along(in, radius, border, false);
}

#define COALESCE_TYPED_INSTANTIATE(T)                                   \
    template TypedImage<T> copy(const TypedImage<T>&);                  \
    template TypedImage<T> transpose(const TypedImage<T>&);             \
    template TypedImage<T> filter_x(const TypedImage<T>&, int, Border); \
    template TypedImage<T> filter_y(const TypedImage<T>&, int, Border);
COALESCE_TYPED_INSTANTIATE(std::uint8_t)
COALESCE_TYPED_INSTANTIATE(std::uint16_t)
COALESCE_TYPED_INSTANTIATE(float)
#undef COALESCE_TYPED_INSTANTIATE

}  // namespace coalesce::typed
