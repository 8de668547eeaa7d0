// The access-pattern operations (offset_write, gather, scatter, scattered, strided_add,
// matrix_add): references against cases worked out by hand, their shapes, bytes models and
// checks, and every host variant run by the runner at odd sizes over several parameter values.
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/run_steps.hpp"
#include "coalesce/runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace coalesce;

namespace {

const Op kOffsetWrite("offset_write"), kGather("gather"), kScatter("scatter"),
    kScattered("scattered"), kStridedAdd("strided_add"), kMatrixAdd("matrix_add");

// in[i] = i + 1, so a wrong index shows as a wrong value.
Matrix counting(std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i + 1);
    return m;
}

OpParams with(std::initializer_list<std::pair<const std::string, long long>> values) {
    OpParams p;
    for (const auto& [name, value] : values) p.values[name] = value;
    return p;
}

std::vector<float> values_of(const Matrix& m) { return {m.data(), m.data() + m.size()}; }

// The source index each output took its value from (counting input: value - 1).
std::vector<long long> sources_of(const Matrix& m) {
    std::vector<long long> out;
    for (float v : values_of(m)) out.push_back(std::isnan(v) ? -1 : static_cast<long long>(v) - 1);
    return out;
}

using Sources = std::vector<long long>;

}  // namespace

TEST(AccessPatterns, OffsetWriteShiftsEachRowAndWraps) {
    const Reference ref = cpu_reference(kOffsetWrite, counting(2, 4), with({{"offset", 1}}));
    // Row 0 is 1 2 3 4; element c lands at c + 1, the last one wraps to the front.
    EXPECT_EQ(values_of(ref.value), (std::vector<float>{4, 1, 2, 3, 8, 5, 6, 7}));
    const Reference wide = cpu_reference(kOffsetWrite, counting(1, 3), with({{"offset", 32}}));
    EXPECT_EQ(values_of(wide.value), (std::vector<float>{2, 3, 1}));  // 32 mod 3 = 2
    EXPECT_EQ(values_of(cpu_reference(kOffsetWrite, counting(1, 3), {}).value),
              (std::vector<float>{1, 2, 3}));  // default offset 0: a copy
}

TEST(AccessPatterns, GatherReadsEveryStrideThFloatOfTheWholeBuffer) {
    const Matrix in = counting(2, 3);  // one line of 6 floats
    const Reference ref = cpu_reference(kGather, in, with({{"stride", 4}}));
    EXPECT_EQ(ref.value.shape(), (Shape{1, 2}));
    EXPECT_EQ(sources_of(ref.value), (Sources{0, 4}));
    EXPECT_EQ(sources_of(cpu_reference(kGather, in, with({{"stride", 6}})).value), (Sources{0}));
    EXPECT_EQ(sources_of(cpu_reference(kGather, in, {}).value), (Sources{0, 1, 2, 3, 4, 5}));
    EXPECT_EQ(output_shape(kGather, {33, 65}, with({{"stride", 2}})), (Shape{1, 1073}));
    // Useful bytes only: one read and one write per float gathered.
    EXPECT_EQ(bytes_moved(kGather, {33, 65}, with({{"stride", 2}})), 2u * 4 * 1073);
}

TEST(AccessPatterns, ScatterWritesEveryStrideThSlotAndLeavesTheRestUndefined) {
    const Reference ref = cpu_reference(kScatter, counting(2, 3), with({{"stride", 4}}));
    EXPECT_EQ(ref.value.shape(), (Shape{2, 3}));
    // in[0] -> out[0], in[1] -> out[4]; the other slots are NaN: not defined, not checked.
    EXPECT_EQ(sources_of(ref.value), (Sources{0, -1, -1, -1, 1, -1}));
    EXPECT_EQ(sources_of(cpu_reference(kScatter, counting(1, 7), with({{"stride", 3}})).value),
              (Sources{0, -1, -1, 1, -1, -1, 2}));
    EXPECT_EQ(bytes_moved(kScatter, {1, 7}, with({{"stride", 3}})), 2u * 4 * 3);

    // Verification skips the undefined slots, and still catches a defined one left unwritten.
    Matrix out(2, 3, 123.0f);
    out.data()[0] = 1;
    out.data()[4] = 2;
    EXPECT_TRUE(verify(kScatter, ref, out).ok);
    out.data()[4] = std::nanf("");
    EXPECT_FALSE(verify(kScatter, ref, out).ok);
}

TEST(AccessPatterns, ScatteredPermutesInsideEachSpanAndCopiesTheTail) {
    // Span 4, multiplier 3: p(base + j) = base + 3j mod 4 = base + {0, 3, 2, 1}; 10 floats hold
    // two whole spans, the last two are copied straight.
    const Reference ref =
        cpu_reference(kScattered, counting(1, 10), with({{"span", 4}, {"multiplier", 3}}));
    EXPECT_EQ(sources_of(ref.value), (Sources{0, 3, 2, 1, 4, 7, 6, 5, 8, 9}));
    // Span 8, multiplier 3: 3j mod 8.
    EXPECT_EQ(
        sources_of(cpu_reference(kScattered, counting(1, 8), with({{"span", 8}, {"multiplier", 3}}))
                       .value),
        (Sources{0, 3, 6, 1, 4, 7, 2, 5}));
    // testMixed: span 32, multiplier 7, lane * 7 mod 32.
    const Sources mixed = sources_of(
        cpu_reference(kScattered, counting(1, 64), with({{"span", 32}, {"multiplier", 7}})).value);
    EXPECT_EQ(mixed[1], 7);
    EXPECT_EQ(mixed[5], 3);    // 35 mod 32
    EXPECT_EQ(mixed[33], 39);  // second span: 32 + 7
}

TEST(AccessPatterns, ScatteredRaisesTheMultiplierToTheNextOddCoprime) {
    // Whole buffer of 6 floats, multiplier 2: 3 is odd but shares 3 with 6, so 5: p(j) = 5j mod 6.
    EXPECT_EQ(
        sources_of(cpu_reference(kScattered, counting(2, 3), with({{"span", 0}, {"multiplier", 2}}))
                       .value),
        (Sources{0, 5, 4, 3, 2, 1}));
    // 121 = 11^2 against 121 floats: 123 instead. A permutation either way.
    for (Shape shape : {Shape{11, 11}, Shape{33, 65}, Shape{1, 1}, Shape{37, 1}, Shape{64, 64}}) {
        Sources got =
            sources_of(cpu_reference(kScattered, counting(shape.rows, shape.cols), {}).value);
        std::sort(got.begin(), got.end());
        Sources all(shape.elements());
        for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<long long>(i);
        EXPECT_EQ(got, all) << shape.rows << "x" << shape.cols << " is not a permutation";
    }
    // The default (span 0, multiplier 121) at 11x11 reads in[123 j mod 121] = in[2j mod 121].
    const Sources whole = sources_of(cpu_reference(kScattered, counting(11, 11), {}).value);
    EXPECT_EQ(whole[1], 2);
    EXPECT_EQ(whole[61], 1);  // 122 mod 121
}

TEST(AccessPatterns, StridedAddAddsTheInputToItsRotation) {
    // a = 1..6, b = a rotated by 3 = 4 5 6 1 2 3; stride 2 adds positions 0, 2, 4.
    const Reference ref = cpu_reference(kStridedAdd, counting(2, 3), with({{"stride", 2}}));
    EXPECT_EQ(ref.value.shape(), (Shape{1, 3}));
    EXPECT_EQ(values_of(ref.value), (std::vector<float>{1 + 4, 3 + 6, 5 + 2}));
    EXPECT_EQ(values_of(ref.magnitude), (std::vector<float>{5, 9, 7}));
    EXPECT_EQ(ref.terms, 2u);
    // One float: b is the float itself.
    EXPECT_EQ(values_of(cpu_reference(kStridedAdd, counting(1, 1), {}).value),
              (std::vector<float>{2}));
    EXPECT_EQ(bytes_moved(kStridedAdd, {2, 3}, with({{"stride", 2}})), 3u * 4 * 3);
    EXPECT_FALSE(describe(kStridedAdd).exact);
}

TEST(AccessPatterns, MatrixAddAddsTheMatrixToItsRowsRotatedByHalf) {
    // 3 rows: b = rows 1, 2, 0 of a.
    const Reference ref = cpu_reference(kMatrixAdd, counting(3, 2), {});
    EXPECT_EQ(values_of(ref.value), (std::vector<float>{1 + 3, 2 + 4, 3 + 5, 4 + 6, 5 + 1, 6 + 2}));
    EXPECT_EQ(ref.terms, 2u);
    EXPECT_EQ(values_of(cpu_reference(kMatrixAdd, counting(1, 3), {}).value),
              (std::vector<float>{2, 4, 6}));  // one row: b is a
    EXPECT_EQ(bytes_moved(kMatrixAdd, {3, 2}, {}), 3u * 4 * 6);
}

TEST(AccessPatterns, ChecksRefuseWhatASizeCannotTakeNamingTheParameter) {
    EXPECT_EQ(input_problem(kGather, {2, 3}, with({{"stride", 6}})), "");
    for (Op op : {kGather, kScatter, kStridedAdd}) {
        const std::string why = input_problem(op, {2, 3}, with({{"stride", 7}}));
        EXPECT_NE(why.find("stride=7"), std::string::npos) << op_name(op) << ": " << why;
        EXPECT_NE(why.find("longer than the buffer"), std::string::npos) << why;
    }
    EXPECT_EQ(input_problem(kScattered, {2, 3}, with({{"span", 0}})), "");
    EXPECT_EQ(input_problem(kScattered, {2, 3}, with({{"span", 4}})), "");
    EXPECT_NE(input_problem(kScattered, {64, 64}, with({{"span", 48}})).find("span=48"),
              std::string::npos);
    EXPECT_NE(input_problem(kScattered, {2, 3}, with({{"span", 8}})).find("span=8"),
              std::string::npos);
    // Out of the declared range: refused with the parameter named, whatever the size.
    EXPECT_THROW(resolved_params(kOffsetWrite, with({{"offset", 33}})), std::invalid_argument);
    EXPECT_THROW(resolved_params(kGather, with({{"stride", 0}})), std::invalid_argument);
    EXPECT_THROW(resolved_params(kScattered, with({{"span", 1 << 25}})), std::invalid_argument);
}

namespace {

const std::vector<Op>& pattern_ops() {
    static const std::vector<Op> ops = {kOffsetWrite, kGather,     kScatter,
                                        kScattered,   kStridedAdd, kMatrixAdd};
    return ops;
}

// Sweep values each parameter takes in the host runs; those a size cannot take are left out.
std::vector<ParamAxis> sweep_for(Shape shape) {
    const auto fitting = [&](std::vector<long long> values) {
        std::erase_if(values,
                      [&](long long v) { return static_cast<std::size_t>(v) > shape.elements(); });
        return values;
    };
    return {{"offset", {0, 1, 7, 8, 31, 32}},
            {"stride", fitting({1, 2, 3, 8, 33, 1024})},
            {"span", fitting({0, 1, 2, 32, 1024})},
            {"multiplier", {121, 7, 2}}};
}

}  // namespace

TEST(AccessPatterns, HostVariantsVerifyInTheRunnerAtOddSizesOverTheirParameters) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    for (Shape shape : {Shape{1, 1}, Shape{37, 1}, Shape{1, 37}, Shape{33, 65}}) {
        RunConfig config;
        config.ops = pattern_ops();
        config.sizes = {shape};
        config.sweep = sweep_for(shape);
        config.reps = 1;
        config.warmups = 0;
        config.include_cpu = true;
        const RunRecord record = runner.run(config);
        std::size_t expected = 0;
        for (Op op : pattern_ops())
            expected += describe(op).host.size() * param_combinations(op, config.sweep).size();
        ASSERT_EQ(record.runs.size(), expected);
        for (const RunResult& r : record.runs) {
            std::string params;
            for (const auto& [name, value] : r.params)
                params += " " + name + "=" + std::to_string(value);
            EXPECT_EQ(r.status, Status::ok)
                << r.variant << params << " " << shape.rows << "x" << shape.cols << ": " << r.error;
            EXPECT_TRUE(r.verified) << r.variant << params;
        }
    }
}

TEST(AccessPatterns, TheRunnerRefusesAStrideLongerThanTheBufferBeforeRunning) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    RunConfig config;
    config.ops = {kGather, kOffsetWrite};
    config.sizes = {{33, 65}, {1, 37}};
    config.sweep = {{"stride", {1, 64}}};
    config.include_cpu = true;
    try {
        run_steps::validate(runner, config);
        FAIL() << "a stride of 64 over 37 floats was accepted";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("gather at 1x37"), std::string::npos) << what;
        EXPECT_NE(what.find("stride=64"), std::string::npos) << what;
    }
    config.sizes = {{33, 65}};
    EXPECT_NO_THROW(run_steps::validate(runner, config));
    config.sweep = {{"span", {24}}};
    config.ops = {kScattered};
    EXPECT_THROW(run_steps::validate(runner, config), std::invalid_argument);
}

TEST(AccessPatterns, EachRunOfASweepKeepsTheReferenceOfItsOwnParameters) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    RunConfig config;
    config.ops = {kOffsetWrite, kGather};
    config.sizes = {{5, 7}};
    config.sweep = {{"offset", {0, 1, 3}}, {"stride", {1, 4}}};
    config.include_cpu = true;
    config.keep_outputs = true;
    config.reps = 1;
    const Matrix input = Matrix::random(5, 7, config.seed);
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 5u);
    for (const RunResult& r : record.runs) {
        ASSERT_TRUE(r.reference && r.output) << r.variant;
        OpParams p;
        p.values = r.params;
        const Op op = *parse_op(r.op);
        EXPECT_EQ(values_of(*r.reference), values_of(cpu_reference(op, input, p).value))
            << r.variant << " " << r.params.begin()->first << "=" << r.params.begin()->second;
        EXPECT_EQ(values_of(*r.output), values_of(*r.reference)) << r.variant;
    }
}
