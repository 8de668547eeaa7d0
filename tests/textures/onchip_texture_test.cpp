// The texture plugin's on-chip variants (random sampling, hardware bilinear resampling, 8-bit
// texels read as normalized floats) against the CPU reference over the parameters and small shapes
// of support/onchip_cases.hpp, plus what the hardware must do exactly. Run under compute-sanitizer
// on the GPU machine; skips without a device.
#include "support/onchip_cases.hpp"
#include "support/texture_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace coalesce {
namespace {

std::vector<std::string> onchip_texture_ids() {
    std::vector<std::string> ids;
    for (const Variant& v : test::texture_registry().variants())
        if (test::is_onchip(v.info.op)) ids.push_back(v.info.id);
    return ids;
}

using OnchipTextureTest = test::GpuTestWithParam<std::string>;

TEST_P(OnchipTextureTest, MatchesTheReferenceForEveryParameterAndShape) {
    const Variant* v = test::texture_registry().find(GetParam());
    ASSERT_NE(v, nullptr);
    test::expect_every_onchip_case_verifies(*v);
}

INSTANTIATE_TEST_SUITE_P(Onchip, OnchipTextureTest, testing::ValuesIn(onchip_texture_ids()),
                         [](const auto& param_info) { return test::sanitized(param_info.param); });

// At texel centres linear filtering puts the whole weight on one texel: scale 100 % without a
// rotation reproduces the input bit for bit, through either texture family.
TEST(OnchipTextureExact, UnitResampleIsTheIdentity) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    const Matrix input = Matrix::random(37, 53, 11);
    for (const char* id : {"resample/texture-array", "resample/texture-pitched"}) {
        const Variant* v = test::texture_registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        const Matrix out =
            test::launched_twice(*v, input, test::named({{"scale", 100}, {"angle", 0}}));
        ASSERT_EQ(out.shape(), input.shape());
        for (std::size_t i = 0; i < input.size(); ++i)
            ASSERT_EQ(out.data()[i], input.data()[i]) << id << " element " << i;
    }
}

// On integer texels every weighted sum is exact in float, so the texture unit's weights show
// bit for bit: the reference's (alpha, beta and alpha * beta in 1/256 steps, halves upwards) must
// be the unit's, at every scale and angle, through either family.
TEST(OnchipTextureExact, BilinearWeightsAreTheUnitsBitForBit) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    Matrix input(29, 41);
    for (std::size_t y = 0; y < 29; ++y)
        for (std::size_t x = 0; x < 41; ++x)
            input.at(y, x) = static_cast<float>((7 * x + 13 * y) % 17);
    const Op op = *parse_op("resample");
    for (const char* id : {"resample/texture-array", "resample/texture-pitched"}) {
        const Variant* v = test::texture_registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        for (const auto& [scale, angle] : std::vector<std::pair<long long, long long>>{
                 {150, 0}, {370, 0}, {230, 17}, {100, 45}, {61, -100}}) {
            const OpParams params = test::named({{"scale", scale}, {"angle", angle}});
            const Matrix out = test::launched_twice(*v, input, params);
            const Matrix want = cpu_reference(op, input, params).value;
            ASSERT_EQ(out.shape(), want.shape());
            std::size_t differ = 0;
            for (std::size_t i = 0; i < out.size(); ++i) differ += out.data()[i] != want.data()[i];
            EXPECT_EQ(differ, 0u) << id << " scale " << scale << " angle " << angle << ": "
                                  << differ << " of " << out.size() << " outputs differ";
        }
    }
}

// The normalized read of 8-bit texels gives every pixel p as p / 255 to within an ulp.
TEST(OnchipTextureExact, EveryPixelValueReadsAsItsFraction) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    Matrix input(1, 256);
    for (int p = 0; p < 256; ++p) input.data()[p] = static_cast<float>(p);
    for (const char* id : {"u8_to_float/texture-array", "u8_to_float/texture-pitched"}) {
        const Variant* v = test::texture_registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        const Matrix out = test::launched_twice(*v, input, {});
        EXPECT_EQ(out.data()[0], 0.0f) << id;
        EXPECT_EQ(out.data()[255], 1.0f) << id;
        for (int p = 0; p < 256; ++p)
            EXPECT_NEAR(out.data()[p], p / 255.0, 1.2e-7) << id << " pixel " << p;
    }
}

}  // namespace
}  // namespace coalesce
