// Every built-in GPU variant that takes colour (info.channels 3 or 4), against the typed
// references, exactly: u8 and u16, 3 and 4 interleaved channels, odd shapes, filter radii 0, 1, 4
// and the maximum with every border mode, under outputs poisoned with 0x00 and with 0xFF (an
// element left unwritten fails under one of them); the runner's colour path end to end; and
// what the registry promises (the pairs, the channel counts). Without a device each GPU case
// skips.
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

std::vector<std::string> colour_ids() {
    std::vector<std::string> ids;
    for (const Variant& v : builtin_registry().variants())
        if (v.info.gpu && (v.info.takes_channels(3) || v.info.takes_channels(4)))
            ids.push_back(v.info.id);
    return ids;
}

struct ColourCase {
    std::string variant_id;
    Shape shape;
};

void PrintTo(const ColourCase& c, std::ostream* os) {
    *os << c.variant_id << " " << c.shape.rows << "x" << c.shape.cols;
}

std::vector<ColourCase> all_cases() {
    std::vector<ColourCase> cases;
    for (const std::string& id : colour_ids())
        for (Shape shape : {Shape{1, 1}, Shape{37, 1}, Shape{1, 37}, Shape{33, 65}, Shape{65, 1029},
                            Shape{4097, 3}, Shape{3, 2100}})
            cases.push_back({id, shape});
    return cases;
}

std::vector<OpParams> params_for(Op op) {
    if (!is_filter(op)) return {OpParams{}};
    std::vector<OpParams> out;
    for (int radius : {0, 1, 4, kMaxRadius})
        for (Border border : all_borders()) out.push_back({radius, border, {}});
    return out;
}

using test::run_once;

using ColourGpuVariantTest = test::GpuTestWithParam<ColourCase>;

TEST_P(ColourGpuVariantTest, MatchesTheTypedReferenceExactlyUnderBothPoisons) {
    const ColourCase& c = GetParam();
    const Variant* variant = builtin_registry().find(c.variant_id);
    ASSERT_NE(variant, nullptr);
    for (ElemType type : {ElemType::u8, ElemType::u16})
        for (int channels : {3, 4}) {
            if (!variant->info.takes(type) || !variant->info.takes_channels(channels)) continue;
            SCOPED_TRACE(std::string(elem_type_name(type)) + " x" + std::to_string(channels));
            const AnyImage input = typed::random_input(type, c.shape, 42, channels);
            for (const OpParams& params : params_for(variant->info.op)) {
                SCOPED_TRACE("radius " + std::to_string(params.radius) + ", border " +
                             std::string(border_name(params.border)));
                const AnyImage ref = typed::reference(variant->info.op, input, params);
                for (std::uint8_t poison : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
                    const Verification v =
                        typed::verify_exact(ref, run_once(*variant, input, params, poison));
                    EXPECT_TRUE(v.ok) << "poison " << +poison << ": " << v.message;
                }
            }
        }
}

INSTANTIATE_TEST_SUITE_P(Builtin, ColourGpuVariantTest, testing::ValuesIn(all_cases()),
                         [](const testing::TestParamInfo<ColourCase>& param_info) {
                             return test::case_name(param_info.param.variant_id,
                                                    param_info.param.shape);
                         });

// Row sums long enough for uint64 (u16 rows of 65538 pixels), at the largest value.
TEST(ColourGpuSums, RowSumsPast32BitsAreExact) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    for (const char* id : {"row_sums/fast-interleaved", "row_sums/fast-planar"}) {
        const Variant* variant = builtin_registry().find(id);
        ASSERT_NE(variant, nullptr) << id;
        const AnyImage input = TypedImage<std::uint16_t>(2, 65538, 3, 65535);
        const AnyImage ref = typed::reference(Op::row_sums, input, {});
        ASSERT_EQ(typed::type_name_of(ref), "u64");
        const Verification v = typed::verify_exact(ref, run_once(*variant, input, {}, 0xFF));
        EXPECT_TRUE(v.ok) << id << ": " << v.message;
    }
}

// The runner's colour path: every colour variant at an odd size, u8 and u16 x3, verified, with
// the bytes model counting every channel.
TEST(ColourGpuRunner, RunsEveryColourVariantVerified) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    Runner runner(builtin_registry());
    RunConfig config;
    config.sizes = {{257, 1031}};
    config.types = {ElemType::u8, ElemType::u16};
    config.channels = 3;
    config.variants = colour_ids();
    config.reps = 2;
    config.warmups = 1;
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 2 * colour_ids().size());
    for (const RunResult& r : record.runs) {
        SCOPED_TRACE(r.variant + " " + r.type);
        EXPECT_EQ(r.status, Status::ok) << r.error;
        EXPECT_TRUE(r.verified);
        EXPECT_EQ(r.channels, 3);
        EXPECT_EQ(r.bytes, 3 * typed::bytes_moved(*parse_op(r.op), *parse_elem_type(r.type),
                                                  {257, 1031}, config.params));
    }
}

// What the registry promises; needs no device.
TEST(ColourVariants, EachOperationHasAnInterleavedAndAPlanarVariantForU8AndU16) {
    for (const char* op : {"copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"})
        for (const char* layout : {"/fast-interleaved", "/fast-planar"}) {
            const Variant* v = builtin_registry().find(std::string(op) + layout);
            ASSERT_NE(v, nullptr) << op << layout;
            EXPECT_EQ(v->info.types, (std::vector<ElemType>{ElemType::u8, ElemType::u16}));
            EXPECT_EQ(v->info.channels, (std::vector<int>{3, 4}));
            // Tuned, or an experiment that says what it lost to (the tier test checks that).
            EXPECT_NE(v->info.tier, Tier::classic) << v->info.id;
        }
    for (const char* id : {"filter_x/global-interleaved", "filter_x/global-planar"}) {
        const Variant* v = builtin_registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        EXPECT_EQ(v->info.tier, Tier::classic) << id;
        EXPECT_FALSE(v->info.takes_channels(1)) << id;
    }
}

}  // namespace
}  // namespace coalesce
