// Every variant of the texture plugin, loaded from the build tree, against the CPU reference at
// awkward and large sizes, every filter radius class and border mode. Cases are generated from
// what the plugin registers, so a new texture variant is tested the moment it exists.
#include "support/texture_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace coalesce {
namespace {

using test::texture_registry;

struct TextureCase {
    std::string variant_id;
    Shape shape;
    OpParams params;
};

void PrintTo(const TextureCase& c, std::ostream* os) {
    *os << c.variant_id << " " << c.shape.rows << "x" << c.shape.cols << " r=" << c.params.radius
        << " " << border_name(c.params.border);
}

const std::vector<Shape>& test_shapes() {
    static const std::vector<Shape> shapes = {{1, 1},   {1, 37},      {37, 1},
                                              {33, 65}, {1000, 1001}, {4096, 4096}};
    return shapes;
}

bool is_large(Shape s) { return s.elements() >= 4096u * 4096u; }

std::vector<OpParams> params_for(Op op, Shape shape) {
    if (!is_filter(op)) return {OpParams{}};
    if (is_large(shape))  // a few combinations, the normalized-coordinate modes among them
        return {{5, Border::clamp}, {5, Border::wrap}, {32, Border::mirror}, {1, Border::zero}};
    std::vector<OpParams> out;
    for (int radius : {0, 1, 5, 32, kMaxRadius})
        for (Border border : all_borders()) out.push_back({radius, border});
    return out;
}

// The variants of f32 runs; the unorm ones (u8, u16) have their own suite, texture_unorm_test.cpp.
std::vector<const Variant*> f32_variants() {
    std::vector<const Variant*> out;
    for (const Variant& v : texture_registry().variants())
        if (v.info.takes(ElemType::f32)) out.push_back(&v);
    return out;
}

std::vector<TextureCase> all_cases() {
    std::vector<TextureCase> cases;
    for (const Variant* variant : f32_variants()) {
        const Variant& v = *variant;
        for (Shape shape : test_shapes())
            for (const OpParams& params : params_for(v.info.op, shape))
                cases.push_back({v.info.id, shape, params});
        // Long rows (filter X) and tall columns (filter Y): normalized coordinates over ~10^5
        // texels, where a coordinate path with too little precision would pick neighbouring texels.
        if (v.info.op == Op::filter_x || v.info.op == Op::filter_y) {
            const Shape long_axis = v.info.op == Op::filter_x ? Shape{2, 100003} : Shape{60001, 2};
            for (Border border : {Border::zero, Border::wrap, Border::mirror})
                cases.push_back({v.info.id, long_axis, {kMaxRadius, border}});
        }
    }
    return cases;
}

std::string case_name(const testing::TestParamInfo<TextureCase>& info) {
    const TextureCase& c = info.param;
    std::string name = test::sanitized(c.variant_id) + "_" + std::to_string(c.shape.rows) + "x" +
                       std::to_string(c.shape.cols);
    const Variant* v = texture_registry().find(c.variant_id);
    if (v != nullptr && is_filter(v->info.op))
        name += "_r" + std::to_string(c.params.radius) + "_" +
                std::string(border_name(c.params.border));
    return name;
}

void skip_without_device() {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
}

class TextureVariantTest : public testing::TestWithParam<TextureCase> {
protected:
    void SetUp() override { skip_without_device(); }
};

TEST_P(TextureVariantTest, MatchesCpuReference) {
    const TextureCase& c = GetParam();
    const Variant* variant = texture_registry().find(c.variant_id);
    ASSERT_NE(variant, nullptr);
    const Op op = variant->info.op;
    const Reference& ref = test::cached_reference(op, c.shape, c.params);

    std::unique_ptr<Instance> instance = variant->make(c.shape, c.params);
    instance->upload(test::cached_input(c.shape));
    instance->poison();
    const Stream stream = Stream::create();
    instance->launch(stream.get());
    instance->launch(stream.get());  // repeated launches (as timed) give the same result
    const Matrix out = instance->download();

    ASSERT_EQ(out.shape(), output_shape(op, c.shape));
    const Verification v = verify(op, ref, out);
    EXPECT_TRUE(v.ok) << v.message << " (max abs error " << v.max_abs_error << ")";
}

INSTANTIATE_TEST_SUITE_P(Textures, TextureVariantTest, testing::ValuesIn(all_cases()), case_name);

std::vector<std::string> variant_ids() {
    std::vector<std::string> ids;
    for (const Variant* v : f32_variants()) ids.push_back(v->info.id);
    return ids;
}

class TextureVariantLimitsTest : public testing::TestWithParam<std::string> {
protected:
    void SetUp() override { skip_without_device(); }
};

// A poisoned output that no launch wrote must fail verification (the check can fail).
TEST_P(TextureVariantLimitsTest, UnlaunchedOutputFailsVerification) {
    const Variant* variant = texture_registry().find(GetParam());
    ASSERT_NE(variant, nullptr);
    const Shape shape{33, 65};
    const OpParams params{};
    std::unique_ptr<Instance> instance = variant->make(shape, params);
    instance->upload(test::cached_input(shape));
    instance->poison();
    const Matrix out = instance->download();
    EXPECT_FALSE(
        verify(variant->info.op, test::cached_reference(variant->info.op, shape, params), out).ok);
}

// Beyond the device's 2-D texture limits, create() says the input is unsupported (the runner then
// skips the run with this reason instead of failing it), with the limit in the message.
TEST_P(TextureVariantLimitsTest, SizesBeyondTheTextureLimitsAreRefusedClearly) {
    const Variant* variant = texture_registry().find(GetParam());
    ASSERT_NE(variant, nullptr);
    for (const Shape too_big : {Shape{1, std::size_t{1} << 22}, Shape{std::size_t{1} << 22, 1}}) {
        try {
            variant->make(too_big, OpParams{});
            FAIL() << "no refusal for " << too_big.rows << "x" << too_big.cols;
        } catch (const Unsupported& e) {
            EXPECT_THAT(e.what(), testing::HasSubstr("exceeds this device's 2-D"));
            EXPECT_THAT(e.what(), testing::HasSubstr("texture limit"));
        }
    }
}

// Through the runner, as a user meets it: a texture-limit input is skipped with the reason and the
// run still counts as verified (exit status 0 in coalesce-bench).
TEST_P(TextureVariantLimitsTest, TheRunnerSkipsSizesBeyondTheLimitsWithTheReason) {
    Registry registry = texture_registry();
    RunConfig config;
    config.variants = {GetParam()};
    config.sizes = {{1, std::size_t{1} << 22}, {100003, 1}};  // past every Hopper 2-D limit
    config.reps = 1;
    config.warmups = 0;
    const RunRecord record = Runner(registry).run(config);
    ASSERT_EQ(record.runs.size(), 2u);
    for (const RunResult& r : record.runs) {
        EXPECT_EQ(r.status, Status::skipped) << r.rows << "x" << r.cols << ": " << r.error;
        EXPECT_THAT(r.error, testing::HasSubstr("texture limit"));
    }
    EXPECT_TRUE(record.all_verified());
}

INSTANTIATE_TEST_SUITE_P(Textures, TextureVariantLimitsTest, testing::ValuesIn(variant_ids()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                             return test::sanitized(param_info.param);
                         });

}  // namespace
}  // namespace coalesce
