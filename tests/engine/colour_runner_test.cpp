// Colour runs through the runner: the channel count travels from the config to the random input,
// the reference, the bytes model, the copy baseline and the result; variants declare the counts
// they take and are skipped, by name, for the others; f32 and bad counts are refused.
#include "coalesce/registry.hpp"
#include "coalesce/run_steps.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/typed_reference.hpp"
#include "coalesce/typed_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

using namespace coalesce;
using ::testing::HasSubstr;

namespace {

RunConfig colour_config(int channels) {
    RunConfig config;
    config.sizes = {{33, 65}, {1, 37}, {37, 1}};
    config.reps = 1;
    config.warmups = 0;
    config.include_cpu = true;
    config.types = {ElemType::u8, ElemType::u16};
    config.channels = channels;
    config.params = OpParams{3, Border::mirror, {}};
    config.variants = {"copy/cpu-naive",     "transpose/cpu-naive", "row_sums/cpu-naive",
                       "col_sums/cpu-naive", "filter_x/cpu-naive",  "filter_y/cpu-naive"};
    return config;
}

// A grey-only host variant: what every variant is unless it declares colour.
Variant grey_copy() {
    Variant v;
    v.info.id = "copy/grey-only";
    v.info.op = Op::copy;
    v.info.memory_space = space::host;
    v.info.gpu = false;
    v.info.types = {ElemType::u8, ElemType::u16};
    v.make = [](Shape, const OpParams&) -> std::unique_ptr<Instance> {
        throw std::logic_error("a grey-only variant must not run on colour");
    };
    return v;
}

void expect_refused(const RunConfig& config, const Registry& registry, const std::string& part) {
    Runner runner(registry);
    try {
        runner.run(config);
        ADD_FAILURE() << "not refused; expected \"" << part << "\"";
    } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr(part));
    }
}

}  // namespace

TEST(ColourRunner, HostLoopsRunEveryOperationPerChannelAndVerifyExactly) {
    Registry registry;
    register_cpu_variants(registry);
    for (int channels : {3, 4}) {
        Runner runner(registry);
        const RunRecord record = runner.run(colour_config(channels));
        ASSERT_EQ(record.runs.size(), 6u * 2 * 3) << channels;
        for (const RunResult& r : record.runs) {
            SCOPED_TRACE(r.variant + " " + r.type + " " + std::to_string(r.rows) + "x" +
                         std::to_string(r.cols) + " x" + std::to_string(channels));
            EXPECT_EQ(r.status, Status::ok) << r.error;
            EXPECT_TRUE(r.verified);
            EXPECT_EQ(r.channels, channels);
            const ElemType t = *parse_elem_type(r.type);
            const Op op = *parse_op(r.op);
            const Shape shape{r.rows, r.cols};
            EXPECT_EQ(r.bytes,
                      static_cast<std::size_t>(channels) *
                          typed::bytes_moved(op, t, shape, OpParams{3, Border::mirror, {}}));
        }
        EXPECT_TRUE(record.all_verified());
    }
}

TEST(ColourRunner, KeptOutputsHoldEveryChannelAndEqualTheReference) {
    Registry registry;
    register_cpu_variants(registry);
    RunConfig config = colour_config(3);
    config.keep_outputs = true;
    config.sizes = {{7, 5}};
    Runner runner(registry);
    const RunRecord record = runner.run(config);
    const AnyImage input = typed::random_input(ElemType::u16, {7, 5}, config.seed, 3);
    for (const RunResult& r : record.runs) {
        if (r.type != "u16") continue;
        ASSERT_TRUE(r.typed_output) << r.variant;
        EXPECT_EQ(typed::channels_of(*r.typed_output), 3) << r.variant;
        const AnyImage want = typed::reference(*parse_op(r.op), input, config.params);
        EXPECT_TRUE(typed::verify_exact(want, *r.typed_output).ok) << r.variant;
    }
}

TEST(ColourRunner, GreyVariantsAreLeftOutOrSkippedNamingTheChannelCount) {
    Registry registry;
    register_cpu_variants(registry);
    registry.add(grey_copy());
    Runner runner(registry);
    RunConfig config = colour_config(3);
    config.variants = {};
    config.ops = {Op::copy};
    const std::vector<const Variant*> chosen = runner.select(config, false);
    for (const Variant* v : chosen) EXPECT_NE(v->info.id, "copy/grey-only");
    config.variants = {"copy/grey-only", "copy/cpu-naive"};
    config.sizes = {{4, 4}};
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 4u);
    for (const RunResult& r : record.runs) {
        if (r.variant != "copy/grey-only") continue;
        EXPECT_EQ(r.status, Status::skipped);
        EXPECT_EQ(r.error, "copy/grey-only does not take 3 channels (it takes 1)");
    }
    // A grey run of the same variant is not skipped for its channels.
    VariantInfo colour_only;
    colour_only.id = "copy/colour-only";
    colour_only.channels = {3, 4};
    EXPECT_EQ(run_steps::channel_refusal(colour_only, 1),
              "copy/colour-only does not take 1 channel (it takes 3, 4)");
    EXPECT_EQ(run_steps::channel_refusal(colour_only, 4), "");
}

TEST(ColourRunner, F32AndCountsNoImageHasAreRefusedByName) {
    Registry registry;
    register_cpu_variants(registry);
    RunConfig config = colour_config(3);
    config.types = {ElemType::u8, ElemType::f32};
    expect_refused(config, registry, "f32 runs take 1 channel, not 3");
    config = colour_config(2);
    expect_refused(config, registry, "2 channels: an image has 1, 3 or 4 channels");
    config = colour_config(4);
    config.typed_input = std::make_shared<const AnyImage>(TypedImage<std::uint8_t>(5, 6, 3));
    config.types = {ElemType::u8};
    expect_refused(config, registry, "the input image has 3 channel(s); the run asks for 4");
}

TEST(ColourRunner, AnOpenedColourImageRunsAsItIs) {
    Registry registry;
    register_cpu_variants(registry);
    TypedImage<std::uint8_t> image(9, 11, 4);
    for (std::size_t i = 0; i < image.size(); ++i)
        image.data()[i] = static_cast<std::uint8_t>(i * 37 + 5);
    RunConfig config = colour_config(4);
    config.types = {ElemType::u8};
    config.typed_input = std::make_shared<const AnyImage>(image);
    config.keep_outputs = true;
    Runner runner(registry);
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 6u);
    for (const RunResult& r : record.runs) {
        EXPECT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        EXPECT_EQ(r.rows, 9u);
        EXPECT_EQ(r.cols, 11u);
        ASSERT_TRUE(r.typed_output);
        const AnyImage want = typed::reference(*parse_op(r.op), AnyImage(image), config.params);
        EXPECT_TRUE(typed::verify_exact(want, *r.typed_output).ok) << r.variant;
    }
}

TEST(ColourInput, RandomColourIsReproducibleInterleavedAndF32IsGrey) {
    const AnyImage a = typed::random_input(ElemType::u8, {3, 5}, 7, 3);
    const AnyImage b = typed::random_input(ElemType::u8, {3, 5}, 7, 3);
    EXPECT_EQ(a, b);
    EXPECT_EQ(typed::channels_of(a), 3);
    EXPECT_EQ(std::get<TypedImage<std::uint8_t>>(a).size(), 45u);
    // The same generator in memory order: the grey image of 3x15 holds the same bytes.
    const AnyImage grey = typed::random_input(ElemType::u8, {3, 15}, 7, 1);
    EXPECT_EQ(std::memcmp(std::get<TypedImage<std::uint8_t>>(a).data(),
                          std::get<TypedImage<std::uint8_t>>(grey).data(), 45),
              0);
    EXPECT_THROW(typed::random_input(ElemType::f32, {3, 5}, 7, 3), std::invalid_argument);
}

TEST(ColourBytes, EveryChannelCountsInAndOut) {
    const OpParams p;
    EXPECT_EQ(typed::bytes_moved(Op::copy, ElemType::u16, {10, 20}, p, 3), 3u * 2 * 200 * 2);
    EXPECT_EQ(typed::bytes_moved(Op::row_sums, ElemType::u8, {10, 20}, p, 4), 4u * (200 + 10 * 4));
    EXPECT_EQ(typed::bytes_moved(Op::col_sums, ElemType::u8, {10, 20}, p, 1), 200u + 20 * 4);
}

TEST(ColourVerify, AMismatchNamesItsChannelAndChannelCountsMustAgree) {
    TypedImage<std::uint16_t> want(2, 3, 3, 7);
    TypedImage<std::uint16_t> got = want;
    got.at(1, 2, 2) = 9;
    const Verification v = typed::verify_exact(AnyImage(want), AnyImage(got));
    EXPECT_FALSE(v.ok);
    EXPECT_EQ(v.message, "first mismatch at (1, 2, channel 2): expected 7, got 9");
    EXPECT_EQ(v.max_abs_error, 2);
    const Verification grey =
        typed::verify_exact(AnyImage(want), AnyImage(TypedImage<std::uint16_t>(2, 3, 1, 7)));
    EXPECT_EQ(grey.message, "the output has 1 channel(s), expected 3");
}
