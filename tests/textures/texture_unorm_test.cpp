// The texture plugin's unorm filters (u8 and u16 texels read as normalized floats) against the
// typed CPU reference, exactly, under both output poisons: odd shapes, radii 0, 1, 4 and 64, every
// border each variant claims, long rows and tall columns for the normalized-coordinate modes, and
// through the runner. Cases come from the registry: any variant taking u8 or u16 is tested.
#include "support/texture_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/typed_image.hpp"
#include "coalesce/typed_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace coalesce {
namespace {

using test::texture_registry;

struct UnormCase {
    std::string variant_id;
    ElemType type = ElemType::u8;
    Shape shape;
    OpParams params;
};

void PrintTo(const UnormCase& c, std::ostream* os) {
    *os << c.variant_id << " " << elem_type_name(c.type) << " " << c.shape.rows << "x"
        << c.shape.cols << " r=" << c.params.radius << " " << border_name(c.params.border);
}

std::vector<const Variant*> typed_texture_variants() {
    std::vector<const Variant*> out;
    for (const Variant& v : texture_registry().variants())
        if (v.info.takes(ElemType::u8) || v.info.takes(ElemType::u16)) out.push_back(&v);
    return out;
}

std::vector<UnormCase> all_cases() {
    const std::vector<Shape> shapes = {{1, 1}, {37, 1}, {1, 37}, {33, 65}, {65, 1029}};
    std::vector<UnormCase> cases;
    for (const Variant* v : typed_texture_variants())
        for (ElemType type : v->info.types) {
            if (type == ElemType::f32) continue;
            for (Shape shape : shapes)
                for (int radius : {0, 1, 4, kMaxRadius})
                    for (Border border : v->info.borders)
                        cases.push_back({v->info.id, type, shape, {radius, border}});
            // Normalized coordinates over ~10^5 texels along the filtered axis.
            const Shape long_axis = v->info.op == Op::filter_x ? Shape{2, 100003} : Shape{60001, 2};
            for (Border border : {Border::zero, Border::wrap, Border::mirror})
                if (v->info.supports(border))
                    cases.push_back({v->info.id, type, long_axis, {kMaxRadius, border}});
        }
    return cases;
}

std::string case_name(const testing::TestParamInfo<UnormCase>& info) {
    const UnormCase& c = info.param;
    return test::sanitized(c.variant_id) + "_" + std::string(elem_type_name(c.type)) + "_" +
           std::to_string(c.shape.rows) + "x" + std::to_string(c.shape.cols) + "_r" +
           std::to_string(c.params.radius) + "_" + std::string(border_name(c.params.border));
}

const AnyImage& cached_typed_input(ElemType type, Shape shape) {
    static std::map<std::string, AnyImage> cache;
    const std::string key = std::string(elem_type_name(type)) + " " + std::to_string(shape.rows) +
                            "x" + std::to_string(shape.cols);
    auto it = cache.find(key);
    if (it == cache.end())
        it = cache.emplace(key, typed::random_input(type, shape, 7919u * shape.rows + shape.cols))
                 .first;
    return it->second;
}

using UnormTextureTest = test::GpuTestWithParam<UnormCase>;

TEST_P(UnormTextureTest, MatchesTheTypedReferenceExactlyUnderBothPoisons) {
    const UnormCase& c = GetParam();
    const Variant* variant = texture_registry().find(c.variant_id);
    ASSERT_NE(variant, nullptr);
    const AnyImage& input = cached_typed_input(c.type, c.shape);
    const AnyImage expected = typed::reference(variant->info.op, input, c.params);

    std::unique_ptr<Instance> instance = variant->make(c.shape, c.params);
    instance->upload_typed(input);
    const Stream stream = Stream::create();
    for (std::uint8_t byte : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
        instance->poison_bytes(byte);
        instance->launch(stream.get());
        instance->launch(stream.get());  // repeated launches (as timed) give the same result
        const Verification v = typed::verify_exact(expected, instance->download_typed());
        EXPECT_TRUE(v.ok) << v.message << " (poison 0x" << std::hex << int{byte} << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(TexturesUnorm, UnormTextureTest, testing::ValuesIn(all_cases()),
                         case_name);

std::vector<std::string> typed_ids() {
    std::vector<std::string> ids;
    for (const Variant* v : typed_texture_variants()) ids.push_back(v->info.id);
    return ids;
}

using UnormTextureRunnerTest = test::GpuTestWithParam<std::string>;

// A poisoned output no launch wrote fails the exact check (the check can fail).
TEST_P(UnormTextureRunnerTest, AnUnlaunchedOutputFailsVerification) {
    const Variant* variant = texture_registry().find(GetParam());
    ASSERT_NE(variant, nullptr);
    const Shape shape{33, 65};
    const OpParams params{1, Border::clamp};
    const AnyImage& input = cached_typed_input(ElemType::u8, shape);
    std::unique_ptr<Instance> instance = variant->make(shape, params);
    instance->upload_typed(input);
    instance->poison_bytes(0xFF);
    EXPECT_FALSE(typed::verify_exact(typed::reference(variant->info.op, input, params),
                                     instance->download_typed())
                     .ok);
}

// As a user meets them: u8 and u16 runs verify and are timed; an f32 run is skipped, naming the
// variant and the type.
TEST_P(UnormTextureRunnerTest, TheRunnerRunsU8AndU16AndSkipsF32NamingIt) {
    Registry registry = texture_registry();
    RunConfig config;
    config.variants = {GetParam()};
    config.sizes = {{33, 65}};
    config.types = {ElemType::u8, ElemType::u16, ElemType::f32};
    config.params = {4, Border::mirror};
    config.reps = 2;
    config.warmups = 1;
    const RunRecord record = Runner(registry).run(config);
    ASSERT_EQ(record.runs.size(), 3u);
    for (const RunResult& r : record.runs) {
        if (r.type == "f32") {
            EXPECT_EQ(r.status, Status::skipped);
            EXPECT_EQ(r.error, GetParam() + " does not take f32 (it takes u8, u16)");
        } else {
            EXPECT_EQ(r.status, Status::ok) << r.type << ": " << r.error;
            EXPECT_TRUE(r.verified) << r.type;
        }
    }
    EXPECT_TRUE(record.all_verified());
}

INSTANTIATE_TEST_SUITE_P(TexturesUnorm, UnormTextureRunnerTest, testing::ValuesIn(typed_ids()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                             return test::sanitized(param_info.param);
                         });

}  // namespace
}  // namespace coalesce
