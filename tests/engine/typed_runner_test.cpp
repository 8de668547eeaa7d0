// The runner's typed path (u8, u16) on the host: host variants written here, each its own
// implementation (a blocked transpose, a running-sum filter), checked against the typed
// references; broken ones show what the exact verification reports. Also the typed bytes model,
// the skip and refusal messages and the random typed inputs.
#include "coalesce/run_steps.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/typed_reference.hpp"
#include "coalesce/typed_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

using namespace coalesce;
using ::testing::HasSubstr;

namespace {

// Computes a typed output from a typed input, writing into `out` (made by the instance).
using Work = std::function<void(const AnyImage& in, AnyImage& out)>;
using MakeOut = std::function<AnyImage(const AnyImage& in)>;

// A host Instance for typed runs only: poison_bytes fills the output's bytes, launch runs `work`.
class TypedHost final : public Instance {
public:
    TypedHost(MakeOut make_out, Work work)
        : make_out_(std::move(make_out)), work_(std::move(work)) {}

    void upload(const Matrix&) override { throw std::logic_error("typed only"); }
    void poison() override { throw std::logic_error("typed only"); }
    Matrix download() override { throw std::logic_error("typed only"); }

    void upload_typed(const AnyImage& input) override {
        in_ = input;
        out_ = make_out_(input);
    }
    void poison_bytes(std::uint8_t byte) override {
        std::visit(
            [&](auto& image) {
                std::memset(image.data(), byte, image.size() * sizeof(image.data()[0]));
            },
            out_);
    }
    void launch(cudaStream_t) override { work_(in_, out_); }
    AnyImage download_typed() override { return out_; }

private:
    MakeOut make_out_;
    Work work_;
    AnyImage in_, out_;
};

// Calls f(in, out) with both as TypedImage<T> of the input's integer type.
template <class F>
void same_type(const AnyImage& in, AnyImage& out, F&& f) {
    if (const auto* u8 = std::get_if<TypedImage<std::uint8_t>>(&in))
        return f(*u8, std::get<TypedImage<std::uint8_t>>(out));
    f(std::get<TypedImage<std::uint16_t>>(in), std::get<TypedImage<std::uint16_t>>(out));
}

AnyImage same_shape(const AnyImage& in) {
    return std::visit(
        [](const auto& i) -> AnyImage { return std::decay_t<decltype(i)>(i.rows(), i.cols(), 1); },
        in);
}

AnyImage transposed_shape(const AnyImage& in) {
    return std::visit(
        [](const auto& i) -> AnyImage { return std::decay_t<decltype(i)>(i.cols(), i.rows(), 1); },
        in);
}

// Transposes in 8x8 blocks (not the reference's row loop).
void blocked_transpose(const AnyImage& in, AnyImage& out) {
    same_type(in, out, [](const auto& i, auto& o) {
        for (std::size_t r0 = 0; r0 < i.rows(); r0 += 8)
            for (std::size_t c0 = 0; c0 < i.cols(); c0 += 8)
                for (std::size_t r = r0; r < std::min(r0 + 8, i.rows()); ++r)
                    for (std::size_t c = c0; c < std::min(c0 + 8, i.cols()); ++c)
                        o.at(c, r) = i.at(r, c);
    });
}

// The box filter along rows as a running sum: add the element entering the window, drop the
// one leaving it (the reference sums every window afresh).
void running_filter_x(const AnyImage& in, AnyImage& out, int radius, Border border) {
    same_type(in, out, [&](const auto& i, auto& o) {
        const auto n = static_cast<long long>(i.cols());
        const std::uint64_t k = 2 * radius + 1;
        for (std::size_t r = 0; r < i.rows(); ++r) {
            auto value = [&](long long j) -> std::uint64_t {
                const long long at = border_index(j, n, border);
                return at < 0 ? 0 : i.at(r, static_cast<std::size_t>(at));
            };
            std::uint64_t sum = 0;
            for (long long j = -radius; j <= radius; ++j) sum += value(j);
            for (long long c = 0; c < n; ++c) {
                using T = std::decay_t<decltype(o.at(0, 0))>;
                o.at(r, static_cast<std::size_t>(c)) = static_cast<T>((2 * sum + k) / (2 * k));
                sum += value(c + radius + 1);
                sum -= value(c - radius);
            }
        }
    });
}

Variant typed_host(std::string id, Op op, std::vector<ElemType> types, MakeOut make_out,
                   Work work) {
    Variant v;
    v.info.id = std::move(id);
    v.info.op = op;
    v.info.memory_space = space::host;
    v.info.gpu = false;
    v.info.types = std::move(types);
    v.make = [make_out, work](Shape, const OpParams&) {
        return std::make_unique<TypedHost>(make_out, work);
    };
    return v;
}

RunConfig typed_config(std::vector<ElemType> types) {
    RunConfig config;
    config.sizes = {{33, 65}};
    config.reps = 2;
    config.warmups = 1;
    config.include_cpu = true;
    config.types = std::move(types);
    return config;
}

// By value, as in plugin_loader_test.cpp (-Wdangling-reference).
const RunResult& run_of(const RunRecord& record, std::string_view variant, std::string_view type) {
    for (const RunResult& r : record.runs)
        if (r.variant == variant && r.type == type) return r;
    throw std::runtime_error("no run of " + std::string(variant) + " " + std::string(type));
}

}  // namespace

TEST(TypedRunner, RunsEachTypeVerifiesExactlyAndSkipsTypesAVariantDoesNotTake) {
    Registry registry;
    registry.add(typed_host("transpose/blocked", Op::transpose, {ElemType::u8, ElemType::u16},
                            transposed_shape, blocked_transpose));
    Runner runner(registry);
    const RunRecord record = runner.run(typed_config({ElemType::u8, ElemType::u16, ElemType::f32}));
    ASSERT_EQ(record.runs.size(), 3u);
    for (const char* type : {"u8", "u16"}) {
        const RunResult& r = run_of(record, "transpose/blocked", type);
        EXPECT_EQ(r.status, Status::ok) << type << ": " << r.error;
        EXPECT_TRUE(r.verified) << type;
        EXPECT_EQ(r.max_abs_error, 0) << type;
        EXPECT_GT(r.median_ms, 0) << type;
        EXPECT_TRUE(std::isnan(r.model_efficiency)) << "the sector model describes float32";
    }
    const RunResult& f32 = run_of(record, "transpose/blocked", "f32");
    EXPECT_EQ(f32.status, Status::skipped);
    EXPECT_EQ(f32.error, "transpose/blocked does not take f32 (it takes u8, u16)");
    EXPECT_TRUE(record.all_verified());
}

TEST(TypedRunner, AVariantTakingNoneOfTheRunsTypesIsLeftOutUnlessNamed) {
    Registry registry;
    registry.add(typed_host("transpose/blocked", Op::transpose, {ElemType::u8, ElemType::u16},
                            transposed_shape, blocked_transpose));
    const Runner runner(registry);
    RunConfig config = typed_config({ElemType::f32});
    EXPECT_TRUE(runner.select(config, false).empty()) << "a float run lists no byte-only kernel";
    config.types = {ElemType::f32, ElemType::u16};
    EXPECT_EQ(runner.select(config, false).size(), 1u);
    config.types = {ElemType::f32};
    config.variants = {"transpose/blocked"};
    ASSERT_EQ(runner.select(config, false).size(), 1u) << "named, it runs and says why it skips";
}

TEST(TypedRunner, TheBytesModelAndTheCopyBaselineFollowTheElementSize) {
    Registry registry;
    registry.add(typed_host("transpose/blocked", Op::transpose, {ElemType::u8, ElemType::u16},
                            transposed_shape, blocked_transpose));
    Runner runner(registry);
    std::vector<std::string> baselines;
    runner.on_progress = [&](const Progress& p) {
        if (p.what.rfind("copy baseline", 0) == 0) baselines.push_back(p.what);
    };
    const RunRecord record = runner.run(typed_config({ElemType::u8, ElemType::u16}));
    EXPECT_EQ(run_of(record, "transpose/blocked", "u8").bytes, 33u * 65 * 2);
    EXPECT_EQ(run_of(record, "transpose/blocked", "u16").bytes, 33u * 65 * 2 * 2);
    // One copy per input byte count, measured before the runs it serves.
    EXPECT_EQ(baselines,
              (std::vector<std::string>{"copy baseline 33x65 u8", "copy baseline 33x65 u16"}));
    for (const RunResult& r : record.runs) {
        EXPECT_GT(r.copy_gbps, 0) << r.type;
        EXPECT_NEAR(r.pct_of_copy, 100 * r.gbps / r.copy_gbps, 1e-9 * r.pct_of_copy) << r.type;
    }
}

TEST(TypedBytes, InputAndOutputCountTheirOwnElementSizes) {
    const Shape s{33, 65};
    const OpParams p;
    EXPECT_EQ(typed::bytes_moved(Op::copy, ElemType::u8, s, p), 2u * 33 * 65);
    EXPECT_EQ(typed::bytes_moved(Op::filter_y, ElemType::u16, s, p), 2u * 33 * 65 * 2);
    EXPECT_EQ(typed::bytes_moved(Op::row_sums, ElemType::u8, s, p), 33u * 65 + 33 * 4);
    EXPECT_EQ(typed::bytes_moved(Op::col_sums, ElemType::u16, s, p), 33u * 65 * 2 + 65 * 4);
    EXPECT_EQ(typed::bytes_moved(Op::copy, ElemType::f32, s, p), bytes_moved(Op::copy, s, p));
    // Past 65537 u16 terms a uint32 could overflow: the sums become 8 bytes each.
    EXPECT_EQ(typed::output_elem_size(Op::row_sums, ElemType::u16, {2, 65537}), 4u);
    EXPECT_EQ(typed::output_elem_size(Op::row_sums, ElemType::u16, {2, 65538}), 8u);
    EXPECT_EQ(typed::bytes_moved(Op::row_sums, ElemType::u16, {2, 65538}, p),
              2u * 65538 * 2 + 2 * 8);
    EXPECT_EQ(typed::output_elem_size(Op::col_sums, ElemType::u8, {16843010, 1}), 8u);
}

TEST(TypedRunner, AnUnwrittenOutputFailsNamingTheFirstMismatchAndThePoison) {
    Registry registry;
    registry.add(typed_host("copy/forgetful", Op::copy, {ElemType::u8}, same_shape,
                            [](const AnyImage&, AnyImage&) {}));
    Runner runner(registry);
    const RunRecord record = runner.run(typed_config({ElemType::u8}));
    ASSERT_EQ(record.runs.size(), 1u);
    const RunResult& r = record.runs[0];
    EXPECT_EQ(r.status, Status::failed);
    EXPECT_FALSE(r.verified);
    EXPECT_THAT(r.error, HasSubstr("verification failed: first mismatch at ("));
    EXPECT_THAT(r.error, HasSubstr("(output bytes poisoned with 0x"));
    EXPECT_FALSE(record.all_verified());
}

TEST(TypedRunner, AWrongElementIsNamedWithItsPositionExpectedAndGot) {
    Registry registry;
    registry.add(typed_host("copy/off-by-one", Op::copy, {ElemType::u16}, same_shape,
                            [](const AnyImage& in, AnyImage& out) {
                                out = in;
                                auto& o = std::get<TypedImage<std::uint16_t>>(out);
                                o.at(2, 3) = static_cast<std::uint16_t>(o.at(2, 3) ^ 1);
                            }));
    Runner runner(registry);
    const RunRecord record = runner.run(typed_config({ElemType::u16}));
    ASSERT_EQ(record.runs.size(), 1u);
    const auto input = std::get<TypedImage<std::uint16_t>>(
        typed::random_input(ElemType::u16, {33, 65}, RunConfig{}.seed));
    const unsigned expected = input.at(2, 3);
    EXPECT_EQ(record.runs[0].error, "verification failed: first mismatch at (2, 3): expected " +
                                        std::to_string(expected) + ", got " +
                                        std::to_string(expected ^ 1) +
                                        " (output bytes poisoned with 0x00)");
    EXPECT_EQ(record.runs[0].max_abs_error, 1);
}

TEST(TypedRunner, ARunningSumFilterMatchesTheReferenceForEveryBorder) {
    for (Border border : all_borders())
        for (int radius : {0, 1, 4, 40}) {
            Registry registry;
            registry.add(typed_host("filter_x/running", Op::filter_x, {ElemType::u8, ElemType::u16},
                                    same_shape,
                                    [radius, border](const AnyImage& in, AnyImage& out) {
                                        running_filter_x(in, out, radius, border);
                                    }));
            Runner runner(registry);
            RunConfig config = typed_config({ElemType::u8, ElemType::u16});
            config.params = OpParams{radius, border, {}};
            const RunRecord record = runner.run(config);
            for (const RunResult& r : record.runs)
                EXPECT_EQ(r.status, Status::ok)
                    << border_name(border) << " r=" << radius << " " << r.type << ": " << r.error;
        }
}

TEST(TypedRunner, LessonOperationsTakeF32OnlyAndSayWhy) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    const auto gather = parse_op("gather");
    ASSERT_TRUE(gather.has_value());
    RunConfig config = typed_config({ElemType::u8});
    config.ops = {Op::copy, *gather};
    try {
        runner.run(config);
        FAIL() << "a lesson operation ran on u8";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("gather takes f32 only, not u8"));
    }
    // With every operation, u8 lists only the six operations' variants that take u8: their
    // naive host variants (the blocked ones take f32 only and are left out).
    config.ops.clear();
    const RunRecord record = runner.run(config);
    std::size_t naive = 0;
    for (const RunResult& r : record.runs) {
        EXPECT_TRUE(typed::has_typed_semantics(*parse_op(r.op))) << r.op;
        EXPECT_TRUE(r.variant.ends_with("/cpu-naive")) << r.variant;
        ++naive;
        EXPECT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        EXPECT_TRUE(r.verified) << r.variant;
    }
    EXPECT_EQ(naive, 6u);
    // Named, a blocked host variant is skipped saying which type it takes.
    config.variants = {"copy/cpu-blocked"};
    const RunRecord blocked = runner.run(config);
    ASSERT_EQ(blocked.runs.size(), 1u);
    EXPECT_EQ(blocked.runs[0].status, Status::skipped);
    EXPECT_EQ(blocked.runs[0].error, "copy/cpu-blocked does not take u8 (it takes f32)");
    // Matched by a prefix, it is left out like an unnamed one: "copy/cpu-" runs the naive one only.
    config.variants = {"copy/cpu-"};
    const RunRecord by_prefix = runner.run(config);
    ASSERT_EQ(by_prefix.runs.size(), 1u);
    EXPECT_EQ(by_prefix.runs[0].variant, "copy/cpu-naive");
    EXPECT_EQ(by_prefix.runs[0].status, Status::ok) << by_prefix.runs[0].error;
    // Named on purpose, a lesson variant is skipped with the operation's reason.
    config.variants = {"gather/"};
    const RunRecord named = runner.run(config);
    ASSERT_FALSE(named.runs.empty());
    EXPECT_EQ(named.runs[0].status, Status::skipped);
    EXPECT_THAT(named.runs[0].error, HasSubstr("gather takes f32 only"));
}

TEST(TypedRunner, AFloatMatrixAloneRunsF32AndAtLeastOneTypeIsNeeded) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    RunConfig config = typed_config({});
    EXPECT_THROW(runner.run(config), std::invalid_argument);
    config = typed_config({ElemType::u16});
    config.input = std::make_shared<const Matrix>(Matrix(4, 4));
    try {
        runner.run(config);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("u16 does not run on a float32 matrix alone"));
    }
}

TEST(TypedRunner, SumsThatCouldOverflowAreSkippedWithTheReasonNeverRun) {
    // 2^50 u16 terms could overflow even a 64-bit sum: the shape alone decides, nothing is made.
    const Shape huge{1, std::size_t{1} << 50};
    const std::string why = typed::type_problem(Op::row_sums, ElemType::u16, huge);
    EXPECT_THAT(why, HasSubstr("row_sums: 1125899906842624 u16 terms could overflow a 64-bit sum"));
    EXPECT_EQ(typed::type_problem(Op::col_sums, ElemType::u16, huge), "");  // one row: 1 term
    VariantInfo info;
    info.id = "row_sums/any";
    info.op = Op::row_sums;
    info.gpu = false;
    info.types = {ElemType::u16};
    EXPECT_EQ(run_steps::typed_skip_reason(info, huge, ElemType::u16, OpParams{}, false), why);
    const RunResult r =
        run_steps::describe_typed_result(info, huge, ElemType::u16, OpParams{}, host_info(), 0);
    EXPECT_EQ(r.type, "u16");
    EXPECT_EQ(r.bytes, 0u);  // no model for a run that cannot be made
}

TEST(TypedInput, IsReproducibleAndCoversTheWholeRange) {
    const auto a =
        std::get<TypedImage<std::uint8_t>>(typed::random_input(ElemType::u8, {64, 64}, 7));
    const auto b =
        std::get<TypedImage<std::uint8_t>>(typed::random_input(ElemType::u8, {64, 64}, 7));
    const auto c =
        std::get<TypedImage<std::uint8_t>>(typed::random_input(ElemType::u8, {64, 64}, 8));
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    EXPECT_EQ(*std::min_element(a.data(), a.data() + a.size()), 0);
    EXPECT_EQ(*std::max_element(a.data(), a.data() + a.size()), 255);
    const auto w =
        std::get<TypedImage<std::uint16_t>>(typed::random_input(ElemType::u16, {256, 256}, 7));
    EXPECT_LT(*std::min_element(w.data(), w.data() + w.size()), 16);
    EXPECT_GT(*std::max_element(w.data(), w.data() + w.size()), 65535 - 16);
}

TEST(TypedVerify, NamesTypeShapeAndValueMismatches) {
    const TypedImage<std::uint8_t> a(2, 3, 1, 7);
    TypedImage<std::uint8_t> b = a;
    EXPECT_TRUE(typed::verify_exact(a, b).ok);
    b.at(1, 2) = 9;
    const Verification v = typed::verify_exact(a, b);
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.message, "first mismatch at (1, 2): expected 7, got 9");
    EXPECT_EQ(v.max_abs_error, 2);
    EXPECT_EQ(typed::verify_exact(a, TypedImage<std::uint8_t>(3, 2, 1, 7)).message,
              "the output is 3x2, expected 2x3");
    EXPECT_EQ(
        typed::verify_exact(TypedImage<std::uint32_t>(1, 1, 1), TypedImage<std::uint64_t>(1, 1, 1))
            .message,
        "the output holds u64 elements, expected u32");
}

TEST(ElemTypes, NamesRoundTripAndUnknownNamesAreNone) {
    for (ElemType t : all_elem_types()) EXPECT_EQ(parse_elem_type(elem_type_name(t)), t);
    EXPECT_FALSE(parse_elem_type("u32").has_value());
    EXPECT_FALSE(parse_elem_type("").has_value());
    EXPECT_EQ(elem_size(ElemType::u8), 1u);
    EXPECT_EQ(elem_size(ElemType::u16), 2u);
    EXPECT_EQ(elem_size(ElemType::f32), 4u);
}

// --------------------------------------------------------------------- an opened (typed) input

namespace {

TypedImage<std::uint8_t> ramp8(std::size_t rows, std::size_t cols) {
    TypedImage<std::uint8_t> image(rows, cols, 1);
    for (std::size_t i = 0; i < image.size(); ++i)
        image.data()[i] = static_cast<std::uint8_t>(i * 7);
    return image;
}

Registry transpose_registry() {
    Registry registry;
    registry.add(typed_host("transpose/blocked", Op::transpose, {ElemType::u8, ElemType::u16},
                            transposed_shape, blocked_transpose));
    return registry;
}

RunConfig opened_config(AnyImage image, std::vector<ElemType> types,
                        Conversion conversion = Conversion::none) {
    RunConfig config = typed_config(std::move(types));
    config.sizes.clear();
    config.typed_input = std::make_shared<const AnyImage>(std::move(image));
    config.conversion = conversion;
    config.keep_outputs = true;
    return config;
}

std::string refusal(Runner& runner, const RunConfig& config) {
    try {
        runner.run(config);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    ADD_FAILURE() << "not refused";
    return {};
}

}  // namespace

// An opened u8 image runs as u8 on its own values (its shape, not the config's sizes), and with
// keep_outputs its exact output is kept beside the float32 picture of it.
TEST(TypedInputRun, AnOpenedU8ImageRunsOnItsOwnValues) {
    const Registry registry = transpose_registry();
    Runner runner(registry);
    const TypedImage<std::uint8_t> image = ramp8(5, 7);
    const RunRecord record = runner.run(opened_config(image, {ElemType::u8}));
    ASSERT_EQ(record.runs.size(), 1u);
    const RunResult& r = record.runs[0];
    ASSERT_EQ(r.status, Status::ok) << r.error;
    EXPECT_EQ(r.type, "u8");
    EXPECT_EQ(r.rows, 5u);
    EXPECT_EQ(r.cols, 7u);
    ASSERT_TRUE(r.typed_output);
    EXPECT_EQ(std::get<TypedImage<std::uint8_t>>(*r.typed_output), typed::transpose(image));
    ASSERT_TRUE(r.output);
    EXPECT_EQ(r.output->at(6, 4), static_cast<float>(image.at(4, 6)));
    EXPECT_EQ(record.config.sizes, (std::vector<Shape>{{5, 7}}));
}

TEST(TypedInputRun, WithoutKeepOutputsNothingIsKept) {
    const Registry registry = transpose_registry();
    Runner runner(registry);
    RunConfig config = opened_config(ramp8(3, 4), {ElemType::u8});
    config.keep_outputs = false;
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 1u);
    EXPECT_FALSE(record.runs[0].typed_output);
    EXPECT_FALSE(record.runs[0].output);
}

// A 16-bit image asked to run as u8 without a conversion is refused before anything runs,
// naming both types and both conversions.
TEST(TypedInputRun, AnotherIntegerTypeNeedsAConversion) {
    const Registry registry = transpose_registry();
    Runner runner(registry);
    TypedImage<std::uint16_t> sixteen(2, 3, 1, 1000);
    const std::string why = refusal(runner, opened_config(sixteen, {ElemType::u8}));
    EXPECT_THAT(why, HasSubstr("the input is u16; running it as u8 needs a conversion"));
    EXPECT_THAT(why, HasSubstr("'values'"));
    EXPECT_THAT(why, HasSubstr("'scale'"));
    // values: 1000 does not fit u8, named with its position
    const std::string value_why =
        refusal(runner, opened_config(sixteen, {ElemType::u8}, Conversion::values));
    EXPECT_THAT(value_why, HasSubstr("value 1000 at row 0, column 0 is not within 0..255"));
}

// scale maps u8 onto u16 by 257: the run's input is the scaled image, so its output is too.
TEST(TypedInputRun, ScaleRunsU8AsU16TimesTwoFiftySeven) {
    const Registry registry = transpose_registry();
    Runner runner(registry);
    const TypedImage<std::uint8_t> image = ramp8(4, 3);
    const RunRecord record =
        runner.run(opened_config(image, {ElemType::u8, ElemType::u16}, Conversion::scale));
    ASSERT_EQ(record.runs.size(), 2u);
    const RunResult& u16 = run_of(record, "transpose/blocked", "u16");
    ASSERT_EQ(u16.status, Status::ok) << u16.error;
    const auto& out = std::get<TypedImage<std::uint16_t>>(*u16.typed_output);
    for (std::size_t r = 0; r < 4; ++r)
        for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(out.at(c, r), image.at(r, c) * 257u);
}

// f32 runs of an opened image take the float32 matrix when one is given (the float path, colour
// as unrounded luminance), else the typed values as floats; neither needs a conversion.
TEST(TypedInputRun, F32RunsTakeTheFloatPathOrTheValues) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    const TypedImage<std::uint8_t> image = ramp8(3, 5);
    RunConfig config = opened_config(image, {ElemType::f32});
    config.variants = {"copy/cpu-naive"};
    RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 1u);
    ASSERT_EQ(record.runs[0].status, Status::ok) << record.runs[0].error;
    EXPECT_EQ(record.runs[0].output->at(2, 4), static_cast<float>(image.at(2, 4)));

    Matrix unrounded(3, 5, 0.5f);
    config.input = std::make_shared<const Matrix>(unrounded);
    record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 1u);
    EXPECT_EQ(record.runs[0].output->at(2, 4), 0.5f);

    config.input = std::make_shared<const Matrix>(Matrix(2, 2));
    EXPECT_THAT(refusal(runner, config), HasSubstr("differ in shape"));
}

TEST(Conversion, ValuesKeepEveryValueOrNameTheFirstThatDoesNotFit) {
    TypedImage<float> floats(1, 3, 1);
    floats.at(0, 0) = 0;
    floats.at(0, 1) = 255;
    floats.at(0, 2) = 17;
    const auto u8 =
        std::get<TypedImage<std::uint8_t>>(convert_image(floats, ElemType::u8, Conversion::values));
    EXPECT_EQ(u8.at(0, 1), 255);
    EXPECT_EQ(u8.at(0, 2), 17);
    floats.at(0, 2) = 1.5f;
    try {
        convert_image(floats, ElemType::u8, Conversion::values);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("value 1.5 at row 0, column 2 is not an integer within"));
    }
    // to f32 needs no conversion: every u8/u16 value is exact in float32
    const auto back =
        std::get<TypedImage<float>>(convert_image(u8, ElemType::f32, Conversion::none));
    EXPECT_EQ(back.at(0, 1), 255.0f);
    EXPECT_THROW(convert_image(floats, ElemType::u16, Conversion::none), std::invalid_argument);
}

TEST(Conversion, ScaleMapsFullRangeOntoFullRange) {
    TypedImage<std::uint16_t> sixteen(1, 5, 1);
    const std::uint16_t in[] = {0, 128, 129, 257 * 200, 65535};
    std::copy(std::begin(in), std::end(in), sixteen.data());
    const auto eight =
        std::get<TypedImage<std::uint8_t>>(convert_image(sixteen, ElemType::u8, Conversion::scale));
    EXPECT_EQ(eight.at(0, 0), 0);
    EXPECT_EQ(eight.at(0, 1), 0);  // 128/257 = 0.498
    EXPECT_EQ(eight.at(0, 2), 1);  // 129/257 = 0.502
    EXPECT_EQ(eight.at(0, 3), 200);
    EXPECT_EQ(eight.at(0, 4), 255);
    // u8 -> u16 -> u8 by scale is the identity on every value
    TypedImage<std::uint8_t> all(1, 256, 1);
    for (int v = 0; v < 256; ++v)
        all.at(0, static_cast<std::size_t>(v)) = static_cast<std::uint8_t>(v);
    const AnyImage up = convert_image(all, ElemType::u16, Conversion::scale);
    EXPECT_EQ(std::get<TypedImage<std::uint16_t>>(up).at(0, 255), 65535);
    EXPECT_EQ(
        std::get<TypedImage<std::uint8_t>>(convert_image(up, ElemType::u8, Conversion::scale)),
        all);
    // f32 [0, 1] onto the integer range, rounded to nearest even and saturated like convertTo
    TypedImage<float> floats(1, 4, 1);
    const float f[] = {-0.5f, 0.5f, 1.0f, 2.0f};
    std::copy(std::begin(f), std::end(f), floats.data());
    const auto scaled =
        std::get<TypedImage<std::uint8_t>>(convert_image(floats, ElemType::u8, Conversion::scale));
    EXPECT_EQ(scaled.at(0, 0), 0);
    EXPECT_EQ(scaled.at(0, 1), 128);  // 127.5 to even
    EXPECT_EQ(scaled.at(0, 2), 255);
    EXPECT_EQ(scaled.at(0, 3), 255);
    EXPECT_EQ(parse_conversion("scale"), Conversion::scale);
    EXPECT_FALSE(parse_conversion("bogus"));
}
