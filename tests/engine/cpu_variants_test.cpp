// Every host variant against the reference at awkward sizes, radii and border modes.
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

#include <tuple>

using namespace coalesce;

namespace {

struct Case {
    std::string id;
    Shape shape;
    OpParams params;
};

std::vector<Case> cases() {
    Registry registry;
    register_cpu_variants(registry);
    std::vector<Case> out;
    const Shape shapes[] = {{1, 1}, {1, 37}, {37, 1}, {33, 65}, {130, 67}};
    for (const Variant& v : registry.variants())
        for (Shape s : shapes) {
            if (!is_filter(v.info.op)) {
                out.push_back({v.info.id, s, {}});
                continue;
            }
            for (int radius : {0, 1, 5, 32})
                for (Border b : all_borders()) out.push_back({v.info.id, s, {radius, b}});
        }
    return out;
}

class HostVariant : public testing::TestWithParam<Case> {};

}  // namespace

TEST_P(HostVariant, MatchesTheReferenceOnAPoisonedOutput) {
    Registry registry;
    register_cpu_variants(registry);
    const Case& c = GetParam();
    const Variant* v = registry.find(c.id);
    ASSERT_NE(v, nullptr);
    const Matrix input = Matrix::random(c.shape.rows, c.shape.cols, 1234);
    auto instance = v->make(c.shape, c.params);
    instance->upload(input);
    instance->poison();
    instance->launch(nullptr);
    const Verification check =
        verify(v->info.op, cpu_reference(v->info.op, input, c.params), instance->download());
    EXPECT_TRUE(check.ok) << check.message;
}

TEST(HostVariantPoison, AnUnlaunchedOutputFailsVerification) {
    Registry registry;
    register_cpu_variants(registry);
    const Matrix input = Matrix::random(5, 7, 3);
    auto instance = registry.find("filter_y/cpu-blocked")->make(input.shape(), {});
    instance->upload(input);
    instance->poison();
    EXPECT_FALSE(
        verify(Op::filter_y, cpu_reference(Op::filter_y, input, {}), instance->download()).ok);
}

INSTANTIATE_TEST_SUITE_P(All, HostVariant, testing::ValuesIn(cases()), [](const auto& p) {
    const Case& c = p.param;
    std::string name = c.id + "_" + std::to_string(c.shape.rows) + "x" +
                       std::to_string(c.shape.cols) + "_r" + std::to_string(c.params.radius) + "_" +
                       std::string(border_name(c.params.border));
    for (char& ch : name)
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
});
