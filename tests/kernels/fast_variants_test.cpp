// The fast variants (kernels/fast_*.cu) on the shapes that reach their special paths, which the
// registry-wide test (gpu_variants_test.cpp) does not: odd widths (unaligned dense rows, peeled
// heads and tails), 16-byte aligned rows with partial edge tiles, segments and strips, few rows,
// many row chunks (the last-block ticket); every filter radius class and border mode, windows
// wider than the whole line included; lines long enough for a running sum to drift; and
// launch-to-launch determinism, bit for bit. Cases outside a variant's declared limits are not
// generated (the runner skips those), so on a GPU machine no test here skips.
#include "support/builtin_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace coalesce {
namespace {

std::vector<std::string> fast_ids() {
    std::vector<std::string> ids;
    for (const Variant& v : test::builtin_registry().variants())
        if (v.info.gpu && v.info.id.find("/fast-") != std::string::npos) ids.push_back(v.info.id);
    return ids;
}

// Odd shapes first: one element; one column or one row (every window wider than the line at
// r >= 1 across it); 33x65; 4097x3 and 3x4097 (dense rows that start on every 4-byte phase, long
// lines across the short side); 65x1029 (rows on all four phases, each across several filter
// segments and a last one of 5 columns); 67x131 (odd both ways, several tiles each way: rows and
// columns of 3 mod 4, the any-phase transpose's second tile stride); 125x67 (125 % 64 = 61: the
// any-phase transpose's extra block row for windows up to 7 rows early). Then the aligned shapes of
// the special paths: 100x4100 (block per row; partial last tile, segment and thread), 4100x36
// (narrow: one strip, many chunks), 517x1028, 2x8192 (two rows, one chunk per strip), 4500x260
// (partial strip and filter segment), 37x4 (one float4 per row: every filter window reaches past
// both ends of the row). All small enough for compute-sanitizer.
const std::vector<Shape>& shapes() {
    static const std::vector<Shape> s = {{1, 1},    {37, 1},     {1, 37},    {33, 65},
                                         {4097, 3}, {3, 4097},   {65, 1029}, {67, 131},
                                         {125, 67}, {100, 4100}, {4100, 36}, {517, 1028},
                                         {2, 8192}, {4500, 260}, {37, 4}};
    return s;
}

// Every radius class: 0 (a copy), 1, the small compiled radii (2-4), 8 (the largest compiled in),
// 9 (the first past it), 11 (filter Y's first chunked middle), 17 (odd, past the 16 of the tiled
// kernels' switch), 23 (filter X's first chunked middle), 32 and the maximum.
const std::vector<int>& radii() {
    static const std::vector<int> r = {0, 1, 2, 3, 4, 8, 9, 11, 17, 23, 32, kMaxRadius};
    return r;
}

bool supported(const Variant& v, Shape shape, const OpParams& params) {
    if (!v.info.limits.unsupported_reason(v.info.op, shape, params).empty()) return false;
    try {
        v.make(shape, params);  // no device work: factories only check and record
    } catch (const Unsupported&) {
        return false;
    }
    return true;
}

// One test per (variant, shape); a filter's radii and borders run inside it (one process per
// combination would spend the suite's time creating CUDA contexts).
struct FastCase {
    std::string id;
    Shape shape;
    std::vector<OpParams> params;  // those inside the variant's limits
};

void PrintTo(const FastCase& c, std::ostream* os) {
    *os << c.id << " " << c.shape.rows << "x" << c.shape.cols << " (" << c.params.size()
        << " parameter sets)";
}

std::vector<FastCase> cases() {
    std::vector<FastCase> out;
    for (const std::string& id : fast_ids()) {
        const Variant& v = *test::builtin_registry().find(id);
        for (Shape s : shapes()) {
            FastCase c{id, s, {}};
            if (!is_filter(v.info.op)) {
                c.params.push_back({});
            } else {
                for (int radius : radii())
                    for (Border b : all_borders()) c.params.push_back({radius, b});
            }
            std::erase_if(c.params, [&](const OpParams& p) { return !supported(v, s, p); });
            if (!c.params.empty()) out.push_back(std::move(c));
        }
    }
    return out;
}

std::string case_name(const testing::TestParamInfo<FastCase>& info) {
    return test::case_name(info.param.id, info.param.shape);
}

using FastVariantTest = test::GpuTestWithParam<FastCase>;

std::string params_text(Op op, const OpParams& p) {
    if (!is_filter(op)) return "no parameters";
    return "radius " + std::to_string(p.radius) + ", border " + std::string(border_name(p.border));
}

// One launch over a poisoned output, as the runner verifies a variant: what the kernel wrote.
Matrix launch_poisoned(Instance& instance, const Stream& stream) {
    instance.poison();
    instance.launch(stream.get());
    stream.synchronize();
    return instance.download();
}

// Matches the CPU reference, and a second launch on the same instance writes the same bits (the
// column sums' ticket counters reset themselves; no result depends on block scheduling).
TEST_P(FastVariantTest, MatchesReferenceAndRepeatsBitForBit) {
    const FastCase& c = GetParam();
    const Variant* v = test::builtin_registry().find(c.id);
    ASSERT_NE(v, nullptr);
    const Op op = v->info.op;
    const Matrix& input = test::cached_input(c.shape);
    const Stream stream = Stream::create();
    for (const OpParams& params : c.params) {
        SCOPED_TRACE(params_text(op, params));
        const Reference& ref = test::cached_reference(op, c.shape, params);
        std::unique_ptr<Instance> instance = v->make(c.shape, params);
        instance->upload(input);
        const Matrix first = launch_poisoned(*instance, stream);
        const Verification check = verify(op, ref, first);
        EXPECT_TRUE(check.ok) << check.message;

        const Matrix second = launch_poisoned(*instance, stream);
        ASSERT_EQ(first.shape(), second.shape());
        EXPECT_EQ(0, std::memcmp(first.data(), second.data(), first.size() * sizeof(float)))
            << "two launches on the same input differ";
    }
}

INSTANTIATE_TEST_SUITE_P(Fast, FastVariantTest, testing::ValuesIn(cases()), case_name);

// Long lines at the largest radius, every border: one row of 100003 columns and 60001 rows of two
// columns, across and along. Every fast filter that takes the input stays inside the verification
// bound; the running sums, which carry a sum from output to output down the whole walk, stay
// within FLT_EPSILON times the mean of |window| (fast_running.cuh bounds them by about u = half
// of that): a plain float running sum drifts by sqrt(n) u and more, and fails here.
struct LongCase {
    std::string id;
    Shape shape;
};

void PrintTo(const LongCase& c, std::ostream* os) {
    *os << c.id << " " << c.shape.rows << "x" << c.shape.cols;
}

const std::vector<std::string>& running_sum_ids() {
    // The compensated running sums, held to FLT_EPSILON below; the window-block filter's error
    // is a direct sum's (16 FLT_EPSILON at r = 64 on a long line): the verification bound's.
    static const std::vector<std::string> ids = {"filter_x/fast-running-sum",
                                                 "filter_y/fast-running-sum"};
    return ids;
}

std::vector<LongCase> long_cases() {
    std::vector<LongCase> out;
    for (const std::string& id : fast_ids()) {
        const Variant& v = *test::builtin_registry().find(id);
        if (!is_filter(v.info.op)) continue;
        for (Shape s : {Shape{1, 100003}, Shape{60001, 2}})
            if (supported(v, s, {kMaxRadius, Border::clamp})) out.push_back({id, s});
    }
    return out;
}

std::string long_case_name(const testing::TestParamInfo<LongCase>& info) {
    return test::case_name(info.param.id, info.param.shape);
}

using FastLongLineTest = test::GpuTestWithParam<LongCase>;

TEST_P(FastLongLineTest, ErrorStaysBoundedAtTheLargestRadius) {
    const LongCase& c = GetParam();
    const Variant* v = test::builtin_registry().find(c.id);
    ASSERT_NE(v, nullptr);
    const Op op = v->info.op;
    const bool running = std::find(running_sum_ids().begin(), running_sum_ids().end(), c.id) !=
                         running_sum_ids().end();
    const Matrix& input = test::cached_input(c.shape);
    const Stream stream = Stream::create();
    for (Border border : all_borders()) {
        const OpParams params{kMaxRadius, border};
        SCOPED_TRACE(params_text(op, params));
        const Reference& ref = test::cached_reference(op, c.shape, params);
        std::unique_ptr<Instance> instance = v->make(c.shape, params);
        instance->upload(input);
        const Matrix out = launch_poisoned(*instance, stream);
        const Verification check = verify(op, ref, out);
        EXPECT_TRUE(check.ok) << check.message;
        if (!running) continue;
        double worst = 0.0;  // |out - ref| / (FLT_EPSILON * mean |window|)
        for (std::size_t i = 0; i < out.size(); ++i) {
            const double err = std::fabs(static_cast<double>(out.data()[i]) - ref.value.data()[i]);
            worst = std::max(worst, err / (FLT_EPSILON * ref.magnitude.data()[i]));
        }
        EXPECT_LE(worst, 1.0) << "the running sum drifted";
    }
}

INSTANTIATE_TEST_SUITE_P(Fast, FastLongLineTest, testing::ValuesIn(long_cases()), long_case_name);

// The long-line test covers the running sums: they exist and take both long shapes.
TEST(FastVariants, RunningSumsTakeEveryRadiusBorderAndWidth) {
    for (const std::string& id : running_sum_ids()) {
        const Variant* v = test::builtin_registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        EXPECT_EQ(v->info.tier, Tier::experiment) << id;  // they lost to the staged tiles
        for (Shape s : {Shape{1, 100003}, Shape{60001, 2}, Shape{4097, 3001}})
            for (int radius : radii())
                for (Border b : all_borders()) EXPECT_TRUE(supported(*v, s, {radius, b})) << id;
    }
}

// Every fast variant is tuned or an experiment and names the kernel it runs; needs no device.
TEST(FastVariants, CarryATierAndTheirKernel) {
    for (const std::string& id : fast_ids()) {
        const VariantInfo& info = test::builtin_registry().find(id)->info;
        EXPECT_NE(info.tier, Tier::classic) << id;
        EXPECT_FALSE(info.kernel.empty()) << id;
        if (info.tier == Tier::experiment) {
            EXPECT_NE(info.description.find("Lost to"), std::string::npos)
                << id << ": say why it lost";
        }
    }
}

// An input outside a variant's declared limits never reaches its kernel: the factory refuses it
// with Unsupported (the runner's skip) before allocating anything, so this needs no device.
TEST(FastVariants, RefuseInputsOutsideTheirLimits) {
    for (const std::string& id : fast_ids()) {
        const VariantInfo& info = test::builtin_registry().find(id)->info;
        const Variant& v = *test::builtin_registry().find(id);
        const Limits& l = info.limits;
        if (l.cols_multiple > 1) {
            const Shape odd{8, 2 * l.cols_multiple + 1};
            EXPECT_THROW(v.make(odd, OpParams{std::max(l.min_radius, 1), Border::clamp}),
                         Unsupported)
                << id;
        }
        if (is_filter(info.op) && l.max_radius < kMaxRadius) {
            EXPECT_THROW(v.make({8, 8}, OpParams{l.max_radius + 1, Border::clamp}), Unsupported)
                << id;
        }
        if (is_filter(info.op) && l.min_radius > 0) {
            EXPECT_THROW(v.make({8, 8}, OpParams{l.min_radius - 1, Border::clamp}), Unsupported)
                << id;
        }
    }
    // What limits cannot say: the quad transposes need rows that are a multiple of 4 too.
    for (const char* id : {"transpose/fast-quad-swizzle", "transpose/fast-quad-swizzle-pitched"}) {
        const Variant* v = test::builtin_registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        EXPECT_THROW(v->make({6, 8}, OpParams{}), Unsupported) << id;
    }
}

// Every operation has a fast variant (the bandwidth comparison of bench/ relies on it); needs no
// device.
TEST(FastVariants, EveryOperationHasOne) {
    for (Op op : test::matrix_ops()) {
        bool found = false;
        for (const Variant* v : test::builtin_registry().for_op(op))
            found = found || v->info.id.find("/fast-") != std::string::npos;
        EXPECT_TRUE(found) << op_name(op);
    }
}

}  // namespace
}  // namespace coalesce
