// The texture plugin's host-side addressing rules, without a GPU: its copy of the border contract
// agrees with coalesce::border_index, the border-to-address-mode mapping is the documented one,
// and the normalized-coordinate precision check passes the sizes textures allow but does refuse
// a size where float coordinates no longer land on the right texel.
#include "addressing.hpp"
#include "texture_ops.hpp"
#include "texture_error.hpp"

#include "coalesce/operation.hpp"
#include "coalesce/plugin_abi.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace coalesce::textures {
namespace {

TEST(TextureAddressing, ReferenceIndexMatchesTheEngineBorderContract) {
    for (Border border : all_borders())
        for (long long n : {1LL, 2LL, 3LL, 7LL, 64LL})
            for (long long i = -3 * n - kMaxRadius; i < 4 * n + kMaxRadius; ++i)
                ASSERT_EQ(reference_index(i, n, static_cast<int>(border)),
                          border_index(i, n, border))
                    << border_name(border) << " i=" << i << " n=" << n;
}

TEST(TextureAddressing, BordersMapOntoTextureAddressModes) {
    const auto filter_x = [](int border) { return addressing_for(TEX_OP_FILTER_X, border); };
    EXPECT_EQ(filter_x(COALESCE_BORDER_CLAMP).mode, cudaAddressModeClamp);
    EXPECT_FALSE(filter_x(COALESCE_BORDER_CLAMP).normalized);
    EXPECT_EQ(filter_x(COALESCE_BORDER_ZERO).mode, cudaAddressModeBorder);
    EXPECT_EQ(filter_x(COALESCE_BORDER_WRAP).mode, cudaAddressModeWrap);
    EXPECT_EQ(filter_x(COALESCE_BORDER_MIRROR).mode, cudaAddressModeMirror);
    // Wrap and mirror exist only with normalized coordinates: never silently another mode.
    EXPECT_TRUE(filter_x(COALESCE_BORDER_WRAP).normalized);
    EXPECT_TRUE(filter_x(COALESCE_BORDER_MIRROR).normalized);
    EXPECT_TRUE(filter_x(COALESCE_BORDER_ZERO).normalized);
    // Operations that never read outside use plain clamped integer coordinates, whatever the
    // border.
    EXPECT_FALSE(addressing_for(TEX_OP_TRANSPOSE, COALESCE_BORDER_WRAP).normalized);
    EXPECT_THROW(filter_x(17), TextureError);
}

TEST(TextureAddressing, NormalizedCoordinatesAddressEveryTexelAtTheTestedAndLimitSizes) {
    for (int border : {COALESCE_BORDER_ZERO, COALESCE_BORDER_WRAP, COALESCE_BORDER_MIRROR})
        for (long long n :
             {1LL, 2LL, 37LL, 65LL, 1000LL, 1001LL, 4096LL, 8192LL, 60001LL, 100003LL, 131072LL})
            for (int radius : {0, 1, 5, 32, kMaxRadius})
                EXPECT_NO_THROW(check_normalized_precision(n, radius, border, "a row"))
                    << n << " r=" << radius;
}

TEST(TextureAddressing, ASizeWhereFloatCoordinatesFailIsRefusedWithTheReason) {
    // 2^25 texels: float spacing near 1.0 is 2 texels, so texel centres can no longer be told
    // apart.
    try {
        check_normalized_precision(1LL << 25, 0, COALESCE_BORDER_WRAP, "a row");
        FAIL() << "no refusal";
    } catch (const TextureError& e) {
        EXPECT_THAT(e.what(), testing::HasSubstr("wrap"));
        EXPECT_THAT(e.what(), testing::HasSubstr("33554432"));
        EXPECT_THAT(e.what(), testing::HasSubstr("refused"));
    }
}

}  // namespace
}  // namespace coalesce::textures
