// The unorm filters' arithmetic (textures/src/unorm_mean.hpp) replayed on the host: every window
// size k = 2r + 1 <= 129 and every integer sum a window of k u8 texels can have, summed in float as
// the kernel sums it, with the texture unit's v / 255 off by up to 4 ulp in either direction,
// must round to the typed reference's (2 s + k) / (2 k); and every u16 texel must come back as
// itself. No GPU needed: the functions are the kernels' own.
#include "unorm_mean.hpp"

#include "coalesce/operation.hpp"
#include "coalesce/typed_reference.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

namespace coalesce::textures {
namespace {

constexpr int kUlps = 4;  // how far from v / max the texture unit's conversion is allowed to be

float nudged(float f, int ulps) {
    for (int i = 0; i < std::abs(ulps); ++i) f = std::nextafter(f, ulps > 0 ? 2.0f : -2.0f);
    return f;
}

// What a normalized read of u8 texel v returns: v / 255 rounded to float, nudged by `ulps`.
std::array<float, 256> u8_reads(int ulps) {
    std::array<float, 256> reads{};
    for (int v = 0; v < 256; ++v)
        reads[v] = nudged(static_cast<float>(static_cast<double>(v) / 255.0), ulps);
    return reads;
}

// Windows of k values summing to s, in three orders: large values first (the partial sums, and
// their rounding, grow fastest), large values last, and spread evenly.
std::vector<int> window(int k, int s, int order) {
    std::vector<int> values(static_cast<std::size_t>(k), 0);
    if (order == 2) {
        for (int i = 0; i < k; ++i) values[i] = s / k + (i < s % k ? 1 : 0);
        return values;
    }
    int left = s;
    for (int i = 0; i < k; ++i) {
        values[i] = std::min(left, 255);
        left -= values[i];
    }
    if (order == 1) std::reverse(values.begin(), values.end());
    return values;
}

TEST(UnormMean, EveryU8SumOfEveryWindowRoundsAsTheTypedReference) {
    double worst = 0.0;  // the largest |255 * float sum - s| met
    for (int ulps : {-kUlps, 0, kUlps}) {
        const std::array<float, 256> reads = u8_reads(ulps);
        for (int radius = 0; radius <= kMaxRadius; ++radius) {
            const int k = 2 * radius + 1;
            for (int s = 0; s <= 255 * k; ++s) {
                for (int order = 0; order < 3; ++order) {
                    const std::vector<int> values = window(k, s, order);
                    float sum = 0.0f;  // in window order, as the kernel's loop adds
                    for (int v : values) sum += reads[v];
                    worst = std::max(worst, std::fabs(static_cast<double>(sum * 255.0f) - s));
                    const auto want = typed::rounded_mean(static_cast<std::uint64_t>(s),
                                                          static_cast<std::uint64_t>(k));
                    ASSERT_EQ(unorm8_mean(sum, k), want)
                        << "k " << k << ", sum " << s << ", order " << order << ", reads off by "
                        << ulps << " ulp";
                }
            }
        }
    }
    // The bound unorm_mean.hpp proves is 0.15; rint needs 0.5.
    EXPECT_LT(worst, 0.15);
    RecordProperty("worst_u8_sum_error", std::to_string(worst));
}

TEST(UnormMean, EveryU16TexelComesBackAsItself) {
    double worst = 0.0;
    for (int ulps : {-kUlps, 0, kUlps})
        for (std::uint32_t v = 0; v <= 65535; ++v) {
            const float f = nudged(static_cast<float>(static_cast<double>(v) / 65535.0), ulps);
            worst = std::max(worst, std::fabs(static_cast<double>(f * 65535.0f) - v));
            ASSERT_EQ(unorm16_value(f), v) << "reads off by " << ulps << " ulp";
        }
    EXPECT_LT(worst, 0.036);  // the bound unorm_mean.hpp states
    RecordProperty("worst_u16_texel_error", std::to_string(worst));
}

// The integer rounding in 32 bits: the typed reference's at the ends of every window's range and
// at every sum of the largest window (its 2 s + k is the largest).
TEST(UnormMean, TheU16RoundingFitsIn32BitsAndMatchesTheReference) {
    for (std::uint32_t k = 1; k <= 2 * kMaxRadius + 1; k += 2)
        for (std::uint32_t s : {0u, 1u, k / 2, k / 2 + 1, 65535u * k - 1, 65535u * k})
            ASSERT_EQ(unorm_rounded_mean(s, k), typed::rounded_mean(s, k)) << k << " " << s;
    const std::uint32_t k = 2 * kMaxRadius + 1;
    for (std::uint32_t s = 0; s <= 65535u * k; ++s)
        ASSERT_EQ(unorm_rounded_mean(s, k), typed::rounded_mean(s, k)) << s;
}

}  // namespace
}  // namespace coalesce::textures
