// Colour variants made from grey ones (colour_wrappers.cu says how): the interleaved host image
// split into planes for the grey kernel, or its rows taken as grey rows where that is the same
// computation. Registered by register_colour_wrappers; exposed for the host tests, which wrap the
// host variants to check the splitting and merging without a device.
#pragma once

#include "coalesce/variant.hpp"

#include <string>

namespace coalesce::colour {

enum class Layout {
    planar,       // one plane per channel, split at upload and merged at download (untimed)
    interleaved,  // the rows as stored, as grey rows of cols * channels elements
};

// A variant taking u8 and u16 images of 3 or 4 channels that runs `grey` (which must take u8 and
// u16 grey images) in `layout`. Interleaved is the grey computation only for copy, filter_y and
// col_sums: other operations throw std::invalid_argument naming the id, as does a grey variant
// that does not take u8 and u16.
Variant wrap(const Variant& grey, std::string id, Layout layout, std::string description);

}  // namespace coalesce::colour
