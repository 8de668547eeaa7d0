// The fast variants (kernels/fast_*.cu) on the shapes that reach their special paths, which the
// registry-wide test (gpu_variants_test.cpp) does not: odd widths (unaligned dense rows, peeled
// heads and tails), 16-byte aligned rows with partial edge tiles, segments and strips, few rows,
// many row chunks (the chunk tickets and flags); every filter radius class and border mode, windows
// wider than the whole line included; lines long enough for a running sum to drift; and
// launch-to-launch determinism, bit for bit. Cases outside a variant's declared limits are not
// generated (the runner skips those), so on a GPU machine no test here skips. A variant that does
// not take f32 (written for bytes: info.types without f32) runs on u8 and u16 instead, whichever
// it declares, on the same shapes, radii and borders, against the typed reference, exactly, on an
// output poisoned with 0x00 and with 0xFF, as the runner verifies it.
#include "support/builtin_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/typed_run.hpp"
#include "fast_walk_widths.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace coalesce {
namespace {

std::vector<std::string> fast_ids() {
    std::vector<std::string> ids;
    for (const Variant& v : test::builtin_registry().variants())
        // Colour-only variants (3 or 4 channels) have their own test: colour_gpu_test.cpp.
        if (v.info.gpu && v.info.id.find("/fast-") != std::string::npos && v.info.takes_channels(1))
            ids.push_back(v.info.id);
    return ids;
}

// Odd shapes first: one element; one column or one row (every window wider than the line at
// r >= 1 across it; 38 and 39 rows of one column end 2 and 3 floats into a float4, which column
// sums' last rows must not read past); 33x65; 4097x3 and 3x4097 (dense rows that start on every
// 4-byte phase, long lines across the short side); 65x1029 (rows on all four phases, each across
// several filter segments and a last one of 5 columns); 67x131 (odd both ways, several tiles each
// way: rows and columns of 3 mod 4, the any-phase transpose's second tile stride); 125x67 (125 % 64
// = 61: the any-phase transpose's extra block row for windows up to 7 rows early). Then the aligned
// shapes of the special paths: 100x4100 (block per row; partial last tile, segment and thread),
// 4100x36 (narrow: one strip, many chunks), 517x1028, 2x8192 (two rows, one chunk per strip),
// 4500x260 (partial strip and filter segment), 37x4 (one float4 per row: every filter window
// reaches past both ends of the row). All small enough for compute-sanitizer.
const std::vector<Shape>& shapes() {
    static const std::vector<Shape> s = {
        {1, 1},     {37, 1},     {38, 1},    {39, 1},     {1, 37},   {33, 65},
        {4097, 3},  {3, 4097},   {65, 1029}, {67, 131},   {125, 67}, {100, 4100},
        {4100, 36}, {517, 1028}, {2, 8192},  {4500, 260}, {37, 4}};
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

// The element types a fast variant is tested on: f32 where it takes f32 (the float tuned
// variants), otherwise the integer types it declares (the byte variants, u8 and u16).
std::vector<ElemType> test_types(const Variant& v) {
    if (v.info.takes(ElemType::f32)) return {ElemType::f32};
    std::vector<ElemType> out;
    for (ElemType t : {ElemType::u8, ElemType::u16})
        if (v.info.takes(t)) out.push_back(t);
    return out;
}

// Whether `type` can run `op` on this shape at all (sums whose total overflows even uint64 never
// reach a variant): the runner skips the rest.
bool type_fits(Op op, ElemType type, Shape shape) {
    return type == ElemType::f32 || typed::type_problem(op, type, shape).empty();
}

// A typed test's random full-range input, once per (type, shape) and process.
const AnyImage& cached_typed_input(ElemType type, Shape shape) {
    static std::map<std::tuple<ElemType, std::size_t, std::size_t>, AnyImage> cache;
    const auto key = std::make_tuple(type, shape.rows, shape.cols);
    auto it = cache.find(key);
    if (it == cache.end())
        it =
            cache.emplace(key, typed::random_input(type, shape, 1000003u * shape.rows + shape.cols))
                .first;
    return it->second;
}

// The typed reference of `op` on cached_typed_input(type, shape).
const AnyImage& cached_typed_reference(Op op, ElemType type, Shape shape, const OpParams& params) {
    static std::map<std::string, AnyImage> cache;
    std::string key = std::string(op_name(op)) + " " + std::string(elem_type_name(type)) + " " +
                      std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
    if (is_filter(op))
        key += " " + std::to_string(params.radius) + " " + std::string(border_name(params.border));
    auto it = cache.find(key);
    if (it == cache.end())
        it =
            cache.emplace(key, typed::reference(op, cached_typed_input(type, shape), params)).first;
    return it->second;
}

// "_u8", "_u16" after a typed case's name; f32 cases keep the names they always had.
std::string type_suffix(ElemType type) {
    return type == ElemType::f32 ? std::string() : "_" + std::string(elem_type_name(type));
}

// One test per (variant, shape); a filter's radii and borders run inside it (one process per
// combination would spend the suite's time creating CUDA contexts).
struct FastCase {
    std::string id;
    Shape shape;
    std::vector<OpParams> params;  // those inside the variant's limits
    ElemType type = ElemType::f32;
};

void PrintTo(const FastCase& c, std::ostream* os) {
    *os << c.id << " " << c.shape.rows << "x" << c.shape.cols << " " << elem_type_name(c.type)
        << " (" << c.params.size() << " parameter sets)";
}

std::vector<FastCase> cases() {
    std::vector<FastCase> out;
    for (const std::string& id : fast_ids()) {
        const Variant& v = *test::builtin_registry().find(id);
        for (Shape s : shapes()) {
            std::vector<OpParams> params;
            if (!is_filter(v.info.op)) {
                params.push_back({});
            } else {
                for (int radius : radii())
                    for (Border b : all_borders()) params.push_back({radius, b});
            }
            std::erase_if(params, [&](const OpParams& p) { return !supported(v, s, p); });
            if (params.empty()) continue;
            for (ElemType type : test_types(v))
                if (type_fits(v.info.op, type, s)) out.push_back({id, s, params, type});
        }
    }
    return out;
}

std::string case_name(const testing::TestParamInfo<FastCase>& info) {
    return test::case_name(info.param.id, info.param.shape) + type_suffix(info.param.type);
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

// One launch over an output whose every byte is `poison`: what the kernel wrote (a typed run).
AnyImage launch_poisoned_typed(Instance& instance, const Stream& stream, std::uint8_t poison) {
    instance.poison_bytes(poison);
    instance.launch(stream.get());
    stream.synchronize();
    return instance.download_typed();
}

// A typed case: exact under both poisons (an unwritten element shows under one of them at least),
// and the two launches agree bit for bit.
void expect_typed_case(const Variant& v, const FastCase& c) {
    const Op op = v.info.op;
    const AnyImage& input = cached_typed_input(c.type, c.shape);
    const Stream stream = Stream::create();
    for (const OpParams& params : c.params) {
        SCOPED_TRACE(params_text(op, params));
        const AnyImage& ref = cached_typed_reference(op, c.type, c.shape, params);
        std::unique_ptr<Instance> instance = v.make(c.shape, params);
        instance->upload_typed(input);
        const AnyImage zeros = launch_poisoned_typed(*instance, stream, 0x00);
        const Verification low = typed::verify_exact(ref, zeros);
        EXPECT_TRUE(low.ok) << low.message << " (output bytes poisoned with 0x00)";
        const AnyImage ones = launch_poisoned_typed(*instance, stream, 0xFF);
        const Verification high = typed::verify_exact(ref, ones);
        EXPECT_TRUE(high.ok) << high.message << " (output bytes poisoned with 0xFF)";
        EXPECT_TRUE(zeros == ones) << "two launches on the same input differ";
    }
}

// Matches the CPU reference, and a second launch on the same instance writes the same bits (the
// column sums' ticket counters reset themselves; no result depends on block scheduling).
TEST_P(FastVariantTest, MatchesReferenceAndRepeatsBitForBit) {
    const FastCase& c = GetParam();
    const Variant* v = test::builtin_registry().find(c.id);
    ASSERT_NE(v, nullptr);
    if (c.type != ElemType::f32) return expect_typed_case(*v, c);
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
// columns (of four, for the filters whose rows take whole float4), across and along. Every fast
// filter that takes the input stays inside the verification bound; the running sums, which carry a
// sum from output to output down the whole walk, stay within FLT_EPSILON times the mean of |window|
// (fast_running.cuh bounds them by about u = half of that): a plain float running sum drifts by
// sqrt(n) u and more, and fails here.
struct LongCase {
    std::string id;
    Shape shape;
    ElemType type = ElemType::f32;
};

void PrintTo(const LongCase& c, std::ostream* os) {
    *os << c.id << " " << c.shape.rows << "x" << c.shape.cols << " " << elem_type_name(c.type);
}

const std::vector<std::string>& running_sum_ids() {
    // The compensated running sums, held to FLT_EPSILON below; the window-block filter's error
    // is a direct sum's (16 FLT_EPSILON at r = 64 on a long line): the verification bound's.
    static const std::vector<std::string> ids = {"filter_x/fast-running-sum",
                                                 "filter_y/fast-running-sum"};
    return ids;
}

// The filters that carry a sum from output to output (the running sums, and the prefix sums in
// double down a walk or across a row segment), held to FLT_EPSILON on the long lines.
bool carries_a_sum(const std::string& id) {
    static const std::vector<std::string> prefix = {"filter_y/fast-walk-prefix",
                                                    "filter_y/fast-walk-prefix-pitched",
                                                    "filter_x/fast-seg4096-prefix"};
    const auto has = [&id](const std::vector<std::string>& ids) {
        return std::find(ids.begin(), ids.end(), id) != ids.end();
    };
    return has(running_sum_ids()) || has(prefix);
}

std::vector<LongCase> long_cases() {
    std::vector<LongCase> out;
    for (const std::string& id : fast_ids()) {
        const Variant& v = *test::builtin_registry().find(id);
        if (!is_filter(v.info.op)) continue;
        bool tall = false;
        for (Shape s : {Shape{1, 100003}, Shape{60001, 2}, Shape{60001, 4}}) {
            if (!supported(v, s, {kMaxRadius, Border::clamp})) continue;
            if (s.rows > 1 && std::exchange(tall, true)) continue;  // one tall case per filter
            for (ElemType type : test_types(v))
                if (type_fits(v.info.op, type, s)) out.push_back({id, s, type});
        }
    }
    return out;
}

std::string long_case_name(const testing::TestParamInfo<LongCase>& info) {
    return test::case_name(info.param.id, info.param.shape) + type_suffix(info.param.type);
}

using FastLongLineTest = test::GpuTestWithParam<LongCase>;

TEST_P(FastLongLineTest, ErrorStaysBoundedAtTheLargestRadius) {
    const LongCase& c = GetParam();
    const Variant* v = test::builtin_registry().find(c.id);
    ASSERT_NE(v, nullptr);
    const Op op = v->info.op;
    if (c.type != ElemType::f32) {  // integers: exact, as everywhere else
        std::vector<OpParams> params;
        for (Border border : all_borders()) params.push_back({kMaxRadius, border});
        return expect_typed_case(*v, {c.id, c.shape, params, c.type});
    }
    const bool running = carries_a_sum(c.id);
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

// One launch of filter Y variant v over a poisoned output, on the cached input of `shape`,
// verified against the CPU reference.
Verification launch_filter_y(const Variant& v, Shape shape, const OpParams& params,
                             const Stream& stream) {
    const Reference& ref = test::cached_reference(Op::filter_y, shape, params);
    std::unique_ptr<Instance> instance = v.make(shape, params);
    instance->upload(test::cached_input(shape));
    return verify(Op::filter_y, ref, launch_poisoned(*instance, stream));
}

// The scan walk's windows end one or two blocks of 64 rows past their start, at a position that
// moves with 2r mod 64: every radius it takes and every border, on 700 rows of 260 columns (three
// strips, the last of 4 columns; eight runs of 280 rows, so runs go on from one strip to the next).
using ScanWalkTest = test::GpuTestWithParam<std::string>;

TEST_P(ScanWalkTest, MatchesTheReferenceAtEveryRadiusItTakes) {
    const Variant* v = test::builtin_registry().find(GetParam());
    ASSERT_NE(v, nullptr);
    const Shape shape{700, 260};
    const Stream stream = Stream::create();
    int checked = 0;
    for (int radius = v->info.limits.min_radius; radius <= kMaxRadius; ++radius) {
        for (Border border : all_borders()) {
            const OpParams params{radius, border};
            SCOPED_TRACE(params_text(Op::filter_y, params));
            const Verification check = launch_filter_y(*v, shape, params, stream);
            EXPECT_TRUE(check.ok) << check.message;
            ++checked;
        }
    }
    EXPECT_EQ(checked, 4 * (kMaxRadius - 32 + 1)) << "radii 32 .. " << kMaxRadius;
}

INSTANTIATE_TEST_SUITE_P(Fast, ScanWalkTest,
                         testing::Values("filter_y/fast-walk-scan",
                                         "filter_y/fast-walk-scan-pitched"),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                             return test::case_name(param_info.param, Shape{700, 260});
                         });

// filter_y/fast-walk's strips of 128, 96 and 64 columns each walk with their own threads and
// step (kernels/fast_filter_y_walk.cu). Its plan picks the width by shape and device, so the test
// asks the plan which width it takes for shapes of 768 and 1024 rows at r = 64 and checks the walk
// on the smallest shape found for each width, every border. On a 132-multiprocessor H100 the
// 96-column strips come at 768x3332.
using FastWalkWidthTest = test::GpuTestWithParam<std::string>;

TEST_P(FastWalkWidthTest, EveryStripWidthMatchesTheReference) {
    const Variant* v = test::builtin_registry().find(GetParam());
    ASSERT_NE(v, nullptr);
    std::map<int, Shape> shape_of;  // strip columns -> the smallest shape that takes them
    for (std::size_t rows : {768, 1024})
        for (std::size_t cols = 4; cols <= 4096; cols += 4) {
            const int width = fast_walk_strip_columns({rows, cols}, kMaxRadius);
            const auto it = shape_of.find(width);
            if (it == shape_of.end() || rows * cols < it->second.rows * it->second.cols)
                shape_of[width] = {rows, cols};
        }
    EXPECT_TRUE(shape_of.contains(96)) << "no shape here takes 96-column strips";
    const Stream stream = Stream::create();
    for (const auto& [width, shape] : shape_of) {
        SCOPED_TRACE(std::to_string(width) + "-column strips, " + std::to_string(shape.rows) + "x" +
                     std::to_string(shape.cols));
        for (Border border : all_borders()) {
            const OpParams params{kMaxRadius, border};
            SCOPED_TRACE(params_text(Op::filter_y, params));
            const Verification check = launch_filter_y(*v, shape, params, stream);
            EXPECT_TRUE(check.ok) << check.message;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Fast, FastWalkWidthTest,
                         testing::Values("filter_y/fast-walk", "filter_y/fast-walk-pitched"),
                         [](const testing::TestParamInfo<std::string>& param_info) {
                             return test::sanitized(param_info.param);
                         });

// The typed column sums take one 512-thread block per multiprocessor where those fill the chip
// (fast_typed_sums.cu): 8192-byte u8 rows (256-byte strips, half a warp per row) and 16384-byte
// u16 rows (512-byte strips) are 32 strips each, whose chunks then fill 128 of 132
// multiprocessors; the u8 strips' sums meet in pairs of columns by 64-bit atomic adds, and 8191
// columns end on a lone column (pitched rows) or walk element by element (dense rows off 16
// bytes). Exact, under both poisons, as every typed case.
std::vector<FastCase> col_wave_cases() {
    std::vector<FastCase> out;
    for (const std::string& id : fast_ids()) {
        const Variant& v = *test::builtin_registry().find(id);
        if (v.info.op != Op::col_sums || v.info.takes(ElemType::f32)) continue;
        for (ElemType t : {ElemType::u8, ElemType::u16})
            for (Shape s : {Shape{2048, 8192}, Shape{2048, 8191}})
                if (v.info.takes(t) && supported(v, s, {})) out.push_back({id, s, {OpParams{}}, t});
    }
    return out;
}

using FastColWaveTest = test::GpuTestWithParam<FastCase>;

TEST_P(FastColWaveTest, SumsAreExact) {
    const Variant* v = test::builtin_registry().find(GetParam().id);
    ASSERT_NE(v, nullptr);
    expect_typed_case(*v, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Fast, FastColWaveTest, testing::ValuesIn(col_wave_cases()), case_name);

// u16 sums whose lines are long enough for uint64 outputs (65537 * 65535 > 2^32): column sums
// of 70001 rows, dense rows on every 2-byte phase (3 columns) and rows on 16 bytes (40 columns:
// 80 bytes), whose chunks meet by 64-bit atomic adds; row sums of 70001 columns. Exact, under both
// poisons, as every typed case.
struct WideSumCase {
    std::string id;
    Shape shape;
};

void PrintTo(const WideSumCase& c, std::ostream* os) {
    *os << c.id << " " << c.shape.rows << "x" << c.shape.cols << " u16";
}

std::vector<WideSumCase> wide_sum_cases() {
    std::vector<WideSumCase> out;
    for (const std::string& id : fast_ids()) {
        const Variant& v = *test::builtin_registry().find(id);
        if (!v.info.takes(ElemType::u16) || v.info.takes(ElemType::f32)) continue;
        if (v.info.op == Op::col_sums)
            for (Shape s : {Shape{70001, 3}, Shape{70001, 40}})
                if (supported(v, s, {})) out.push_back({id, s});
        if (v.info.op == Op::row_sums && supported(v, {3, 70001}, {}))
            out.push_back({id, {3, 70001}});
    }
    return out;
}

std::string wide_sum_case_name(const testing::TestParamInfo<WideSumCase>& info) {
    return test::case_name(info.param.id, info.param.shape) + "_u16";
}

using FastWideSumTest = test::GpuTestWithParam<WideSumCase>;

TEST_P(FastWideSumTest, Uint64SumsAreExact) {
    const WideSumCase& c = GetParam();
    const Variant* v = test::builtin_registry().find(c.id);
    ASSERT_NE(v, nullptr);
    ASSERT_EQ(typed::output_elem_size(v->info.op, ElemType::u16, c.shape), 8u)
        << "the shape no longer reaches uint64 sums";
    expect_typed_case(*v, {c.id, c.shape, {OpParams{}}, ElemType::u16});
}

INSTANTIATE_TEST_SUITE_P(Fast, FastWideSumTest, testing::ValuesIn(wide_sum_cases()),
                         wide_sum_case_name);

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
