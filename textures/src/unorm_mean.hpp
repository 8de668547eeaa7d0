// The integer mean of a filter window read through a texture with cudaReadModeNormalizedFloat,
// where the texture unit hands each u8 texel v back as v / 255 and each u16 texel as v / 65535.
// The result must equal the typed reference bit for bit: round(s / k) = (2 s + k) / (2 k) for the
// window's integer sum s and its k = 2r + 1 texels (typed_reference.hpp, rounded_mean). Host and
// device share these functions, so the host test (tests/textures/unorm_mean_test.cpp) replays the
// kernels' arithmetic over every k <= 129 and every sum.
//
// u8: the window is summed in float, one FADD per texel as in the float filter, and the integer
// sum is recovered once per output: s = rint(255 * sum). Why that is exact:
//  - The reads. Each term is v / 255 converted by the texture unit, assumed within 4 ulp of the
//    true quotient (the host test perturbs every term by that much; it is below 2^-21 for values
//    <= 1). A zero border reads the border colour 0 exactly. So whatever the border mode (clamp,
//    zero, wrap, mirror: they only choose which texels are read), a window is k values of 0..255
//    in some order, which is what the host test enumerates.
//  - The sum. A partial sum of j terms is at most j, so adding to it rounds by at most
//    ulp(j) / 2 <= j * 2^-24. Over the k - 1 additions that is at most k^2 / 2 * 2^-24 <= 4.96e-4
//    for k = 129, and the reads add at most 129 * 2^-21 = 6.2e-5: |sum - s / 255| < 5.6e-4.
//  - The conversion. 255 * sum is within 255 * 5.6e-4 = 0.143 of s, and its own rounding (a value
//    below 2^16, so half an ulp is at most 2^-9) adds 0.002: |255 * sum - s| < 0.15, well inside
//    the 0.5 that rint needs to return s. The host test meets at most 0.053 (reads 4 ulp off) and
//    holds it under 0.15.
// Rounding the mean in float instead (rint(255 * sum / k)) would also be right, since k is odd
// and a true mean s / k is never closer than 1 / (2k) to a .5 boundary, but recovering s keeps the
// division in integers, the same expression as the reference.
//
// u16: a float sum of up to 129 terms would be off by up to 129^2 / 2 * 2^-24 * 65535 = 32 units
// of s, so each texel is turned back into its integer on its own: v = rint(65535 * f), exact while
// |65535 * f - v| < 0.5, and it is below 65535 * 4 * 2^-23 + 2 * 2^-9 = 0.036 (4 ulp of a read at
// most 1 + 4 ulp, the rounding of v / 65535 and of the product). The sum is then exact in 32 bits
// (129 * 65535 < 2^24).
#pragma once

#include "coalesce/operation.hpp"  // COALESCE_HOST_DEVICE (a macro: no engine symbols)

#include <cmath>
#include <cstdint>

namespace coalesce::textures {

// round(s / k) for odd k, as typed::rounded_mean; s <= 129 * 65535, so 2 s + k fits 32 bits.
COALESCE_HOST_DEVICE inline std::uint32_t unorm_rounded_mean(std::uint32_t s, std::uint32_t k) {
    return (2u * s + k) / (2u * k);
}

// The u8 mean of a window of k texels whose normalized reads summed (in float) to `sum`.
COALESCE_HOST_DEVICE inline std::uint8_t unorm8_mean(float sum, int k) {
    const auto s = static_cast<std::uint32_t>(rintf(sum * 255.0f));
    return static_cast<std::uint8_t>(unorm_rounded_mean(s, static_cast<std::uint32_t>(k)));
}

// The u16 texel a normalized read `f` came from.
COALESCE_HOST_DEVICE inline std::uint32_t unorm16_value(float f) {
    return static_cast<std::uint32_t>(rintf(f * 65535.0f));
}

}  // namespace coalesce::textures
