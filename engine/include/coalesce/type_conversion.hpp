// Turning an opened image into another element type for a run, only when asked and only in a way
// the user named: an image keeps its type unless a conversion is chosen.
//
//   values  each value kept as it is: u8 -> u16 and u8/u16 -> f32 always; u16 -> u8 and
//           f32 -> u8/u16 only when every value is an integer the target holds (the first one that
//           is not is named).
//   scale   the full range mapped onto the full range: u8 -> u16 x257 (255 -> 65535), u16 -> u8
//           /257 rounded to nearest (the exact inverse on multiples of 257); f32 -> u8/u16 takes
//           [0, 1] as the full range (v x 255 or x 65535, rounded to nearest even and saturated,
//           as cv::Mat::convertTo does); to f32 the values are kept as they are (float runs have no
//           "full range", and the integer values stay exact in float32).
//   none    no conversion: u8 <-> u16 and f32 -> u8/u16 are refused, naming both choices;
//           u8/u16 -> f32 keeps the values (exact in float32, nothing to choose or lose).
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/typed_image.hpp"

#include <optional>
#include <string_view>

namespace coalesce {

enum class Conversion { none, values, scale };

std::string_view conversion_name(Conversion c);  // "none", "values", "scale"
std::optional<Conversion> parse_conversion(std::string_view name);

// The element type of an image a run takes (u8, u16, f32); nothing for the sums' u32/u64.
std::optional<ElemType> elem_type_of(const AnyImage& image);

// `image` (u8/u16/f32; colour channel by channel, except to f32, which takes one channel) as `to`
// elements. Throws std::invalid_argument with the
// reason: u8 <-> u16 or f32 -> u8/u16 with Conversion::none ("the input is u16; running it as u8
// needs a conversion: ..."), or the first value `values` cannot keep.
AnyImage convert_image(const AnyImage& image, ElemType to, Conversion how);

// Every value of any typed image (sums included) as float32, for pictures and float runs; u32/u64
// sums past 2^24 are rounded to float32 as any float conversion would.
Matrix to_matrix(const AnyImage& image);

// A float32 matrix as a single-channel f32 typed image, values as they are.
AnyImage from_matrix(const Matrix& matrix);

}  // namespace coalesce
