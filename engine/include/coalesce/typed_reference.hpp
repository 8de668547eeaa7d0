// Typed CPU references: the six operations on u8, u16 and f32 images with 1, 3 or 4 interleaved
// channels (each channel on its own). They are the ground truth the typed GPU variants will be
// verified against, pinned to OpenCV on the sample images in images/ and a strip of a photograph
// (tests/engine/typed_reference_test.cpp); nothing in the runner, CLI or GUI calls them yet.
//
// Semantics:
// - copy, transpose: the same elements, same type.
// - row_sums / col_sums of u8/u16: exact integer sums per channel, in the narrowest of uint32 and
//   uint64 that cannot overflow for the line's length (sum_width). f32: summed in double.
//   row_sums is rows x 1, col_sums is 1 x cols, channels kept.
// - filter_x / filter_y: the mean of the 2r+1 neighbours along the row / column, r = 0..64, with
//   the Border modes of operation.hpp (zero counts the outside as 0 and still divides by 2r+1).
//   u8/u16 round the exact integer mean to nearest: (2 s + k) / (2 k) with k = 2r+1; k is odd, so
//   there are no ties. This is what cv::blur does for 8U bit for bit (its fixed-point
//   ((s + k/2) * m) >> 23 equals it for every sum of k u8 values, k <= 129); for 16U OpenCV
//   rounds float32(s) * float32(1/k) in its SIMD lanes, which is one too high for a few sums just
//   below a half (the test pins those). f32: float(sum in double / k).
#pragma once

#include "coalesce/operation.hpp"
#include "coalesce/typed_image.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <variant>

namespace coalesce::typed {

// The accumulator of a row or column sum over `terms` elements of type t (u8 or u16): uint32
// when terms * max(t) <= 2^32 - 1 (u8: up to 16843009 terms, u16: up to 65537), else uint64.
// uint64 holds terms * 65535 for any terms < 2^48, which is more u16 elements than any machine's
// address space holds (and u8 likewise below 2^56 bytes), so the overflow refusal below cannot
// trigger for an image in memory; it is kept so the rule is total. Throws std::overflow_error
// naming the operation, the number of terms and the type when even uint64 could overflow, and
// std::invalid_argument for f32 (summed in double, not in an integer).
enum class SumWidth { u32, u64 };
SumWidth sum_width(std::string_view op, std::size_t terms, ElemType t);

using IntegerSums = std::variant<TypedImage<std::uint32_t>, TypedImage<std::uint64_t>>;

template <class T>
TypedImage<T> copy(const TypedImage<T>& in);
template <class T>
TypedImage<T> transpose(const TypedImage<T>& in);

IntegerSums row_sums(const TypedImage<std::uint8_t>& in);
IntegerSums row_sums(const TypedImage<std::uint16_t>& in);
TypedImage<double> row_sums(const TypedImage<float>& in);
IntegerSums col_sums(const TypedImage<std::uint8_t>& in);
IntegerSums col_sums(const TypedImage<std::uint16_t>& in);
TypedImage<double> col_sums(const TypedImage<float>& in);

// Throw std::invalid_argument naming the operation for a radius outside 0..kMaxRadius.
template <class T>
TypedImage<T> filter_x(const TypedImage<T>& in, int radius, Border border);
template <class T>
TypedImage<T> filter_y(const TypedImage<T>& in, int radius, Border border);

// The rounding the integer filters use, exposed for the tests: round(s / k) for odd k.
constexpr std::uint64_t rounded_mean(std::uint64_t sum, std::uint64_t k) {
    return (2 * sum + k) / (2 * k);
}

}  // namespace coalesce::typed
