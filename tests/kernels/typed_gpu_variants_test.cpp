// Every built-in GPU variant that takes u8 and u16 (info.types), against the typed references,
// exactly, on odd shapes, filter radii 0, 1, 4 and the maximum with every border mode; sums past
// uint32's reach in uint64; an unwritten output fails under both poisons; and the runner's typed
// path end to end. The cases are generated from the registry: a variant is tested the moment it
// declares a type. Without a device each case skips.
#include "support/builtin_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/typed_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace coalesce {
namespace {

using test::builtin_registry;

constexpr ElemType kIntegerTypes[] = {ElemType::u8, ElemType::u16};

std::vector<const Variant*> typed_gpu_variants() {
    std::vector<const Variant*> out;
    for (const Variant& v : builtin_registry().variants())
        if (v.info.gpu && (v.info.takes(ElemType::u8) || v.info.takes(ElemType::u16)) &&
            v.info.takes_channels(1))  // colour-only variants: colour_gpu_test.cpp
            out.push_back(&v);
    return out;
}

struct TypedCase {
    std::string variant_id;
    Shape shape;
};

void PrintTo(const TypedCase& c, std::ostream* os) {
    *os << c.variant_id << " " << c.shape.rows << "x" << c.shape.cols;
}

std::vector<OpParams> params_for(Op op) {
    if (!is_filter(op)) return {OpParams{}};
    std::vector<OpParams> out;
    for (int radius : {0, 1, 4, kMaxRadius})
        for (Border border : all_borders()) out.push_back({radius, border});
    return out;
}

std::vector<TypedCase> all_cases() {
    std::vector<TypedCase> cases;
    for (const Variant* v : typed_gpu_variants())
        // Rows of 4097 and 8192 bytes and more: filter X's runs of 17 words and more, and at the
        // maximum radius edges of more elements than a block has threads (x_stage's two passes).
        for (Shape shape : {Shape{1, 1}, Shape{37, 1}, Shape{1, 37}, Shape{33, 65}, Shape{65, 1029},
                            Shape{3, 4097}, Shape{5, 8192}})
            cases.push_back({v->info.id, shape});
    return cases;
}

std::string case_name(const testing::TestParamInfo<TypedCase>& info) {
    return test::case_name(info.param.variant_id, info.param.shape);
}

using test::run_once;

void expect_exact(const Variant& variant, const AnyImage& input, const OpParams& params) {
    const AnyImage ref = typed::reference(variant.info.op, input, params);
    for (std::uint8_t poison : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
        SCOPED_TRACE("poison " + std::to_string(poison));
        const Verification v = typed::verify_exact(ref, run_once(variant, input, params, poison));
        EXPECT_TRUE(v.ok) << v.message;
    }
}

using TypedGpuVariantTest = test::GpuTestWithParam<TypedCase>;

TEST_P(TypedGpuVariantTest, MatchesTheTypedReferenceExactly) {
    const TypedCase& c = GetParam();
    const Variant* variant = builtin_registry().find(c.variant_id);
    ASSERT_NE(variant, nullptr);
    for (ElemType type : kIntegerTypes) {
        if (!variant->info.takes(type)) continue;
        SCOPED_TRACE(std::string(elem_type_name(type)));
        const AnyImage input = typed::random_input(type, c.shape, 42);
        for (const OpParams& params : params_for(variant->info.op)) {
            SCOPED_TRACE("radius " + std::to_string(params.radius) + ", border " +
                         std::string(border_name(params.border)));
            expect_exact(*variant, input, params);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Builtin, TypedGpuVariantTest, testing::ValuesIn(all_cases()), case_name);

// u8 filter Y above r = 40 takes 256-byte strips in one full wave where that wave fills the chip
// (fast_typed_filters.cu): 1100 rows of 8192 bytes give 32 strips x 8 walks of 138 rows, 256
// blocks for the 264 slots of a 132-SM device. The small shapes above take the other shape.
class TypedGpuOneWaveWalkTest : public test::GpuTestWithParam<std::string> {};

TEST_P(TypedGpuOneWaveWalkTest, MatchesTheTypedReferenceExactly) {
    const Variant* variant = builtin_registry().find(GetParam());
    ASSERT_NE(variant, nullptr);
    const AnyImage input = typed::random_input(ElemType::u8, Shape{1100, 8192}, 7);
    for (int radius : {41, kMaxRadius})
        for (Border border : all_borders()) {
            SCOPED_TRACE("radius " + std::to_string(radius) + ", border " +
                         std::string(border_name(border)));
            OpParams params;
            params.radius = radius;
            params.border = border;
            expect_exact(*variant, input, params);
        }
}

std::string one_wave_case_name(const testing::TestParamInfo<std::string>& param_info) {
    return test::case_name(param_info.param, Shape{1100, 8192});
}

INSTANTIATE_TEST_SUITE_P(Builtin, TypedGpuOneWaveWalkTest,
                         testing::Values("filter_y/fast-int-running",
                                         "filter_y/fast-int-running-pitched"),
                         one_wave_case_name);

// Sums whose lines are long enough for sum_width to pick uint64, on inputs of the largest value
// (a sum past 2^32: a 32-bit accumulator would wrap) and of random values.
class TypedGpuWideSumTest : public test::GpuTestWithParam<std::string> {};

TEST_P(TypedGpuWideSumTest, SumsPast32BitsAreExact) {
    const Variant* variant = builtin_registry().find(GetParam());
    ASSERT_NE(variant, nullptr);
    const bool rows = variant->info.op == Op::row_sums;
    const Shape shape = rows ? Shape{2, 65538} : Shape{65538, 3};
    ASSERT_EQ(typed::output_elem_size(variant->info.op, ElemType::u16, shape), 8u);
    expect_exact(*variant, TypedImage<std::uint16_t>(shape.rows, shape.cols, 1, 65535), {});
    expect_exact(*variant, typed::random_input(ElemType::u16, shape, 42), {});
}

std::vector<std::string> typed_sum_ids() {
    std::vector<std::string> ids;
    for (const Variant* v : typed_gpu_variants())
        if (v->info.op == Op::row_sums || v->info.op == Op::col_sums) ids.push_back(v->info.id);
    return ids;
}

INSTANTIATE_TEST_SUITE_P(Builtin, TypedGpuWideSumTest, testing::ValuesIn(typed_sum_ids()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                             return test::sanitized(param_info.param);
                         });

// An output no launch wrote fails under at least one of the two poisons, for every type.
class TypedGpuPoisonTest : public test::GpuTestWithParam<std::string> {};

TEST_P(TypedGpuPoisonTest, UnwrittenOutputFailsUnderOneOfThePoisons) {
    const Variant* variant = builtin_registry().find(GetParam());
    ASSERT_NE(variant, nullptr);
    const Shape shape{33, 65};
    for (ElemType type : kIntegerTypes) {
        if (!variant->info.takes(type)) continue;
        SCOPED_TRACE(std::string(elem_type_name(type)));
        const AnyImage input = typed::random_input(type, shape, 42);
        const AnyImage ref = typed::reference(variant->info.op, input, {});
        bool caught = false;
        for (std::uint8_t poison : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
            std::unique_ptr<Instance> instance = variant->make(shape, {});
            instance->upload_typed(input);
            instance->poison_bytes(poison);
            caught = caught || !typed::verify_exact(ref, instance->download_typed()).ok;
        }
        EXPECT_TRUE(caught) << "a poisoned, never launched output passed verification";
    }
}

std::vector<std::string> typed_ids() {
    std::vector<std::string> ids;
    for (const Variant* v : typed_gpu_variants()) ids.push_back(v->info.id);
    return ids;
}

INSTANTIATE_TEST_SUITE_P(Builtin, TypedGpuPoisonTest, testing::ValuesIn(typed_ids()),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                             return test::sanitized(param_info.param);
                         });

// What the registry says; needs no device.
TEST(TypedGpuVariants, EveryClassicVariantOfTheSixOperationsTakesU8AndU16) {
    for (const Variant& v : builtin_registry().variants()) {
        if (!v.info.gpu || v.info.tier != Tier::classic || v.info.origin != "built-in") continue;
        if (!v.info.takes_channels(1)) continue;  // colour lessons run u8 and u16 only
        if (!typed::has_typed_semantics(v.info.op)) {
            EXPECT_EQ(v.info.types, std::vector<ElemType>{ElemType::f32}) << v.info.id;
            continue;
        }
        EXPECT_TRUE(v.info.takes(ElemType::f32)) << v.info.id;
        EXPECT_TRUE(v.info.takes(ElemType::u8)) << v.info.id;
        EXPECT_TRUE(v.info.takes(ElemType::u16)) << v.info.id;
    }
}

// The runner's typed path on the device: every typed classic variant at an odd size, each type a
// run, each verified, with the bytes model by element size.
TEST(TypedGpuRunner, RunsEveryTypedVariantVerifiedWithTheTypedBytesModel) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    Runner runner(builtin_registry());
    RunConfig config;
    config.sizes = {{257, 1031}};
    config.types = {ElemType::u8, ElemType::u16, ElemType::f32};
    config.variants = typed_ids();
    config.reps = 3;
    config.warmups = 1;
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 3 * typed_ids().size());
    for (const RunResult& r : record.runs) {
        SCOPED_TRACE(r.variant + " " + r.type);
        const ElemType run_type = *parse_elem_type(r.type);
        if (!builtin_registry().find(r.variant)->info.takes(run_type)) {  // the byte-only ones
            EXPECT_EQ(r.status, Status::skipped);
            EXPECT_THAT(r.error, testing::HasSubstr("does not take " + r.type));
            continue;
        }
        EXPECT_EQ(r.status, Status::ok) << r.error;
        EXPECT_TRUE(r.verified);
        const ElemType type = *parse_elem_type(r.type);
        EXPECT_EQ(r.bytes, typed::bytes_moved(*parse_op(r.op), type, {257, 1031}, config.params));
        EXPECT_GT(r.copy_gbps, 0);
    }
}

}  // namespace
}  // namespace coalesce
