#include "support/host_copy.hpp"
#include "coalesce/runner.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace coalesce;

namespace {

Variant host_variant(std::string id, std::function<std::unique_ptr<Instance>()> make) {
    Variant v;
    v.info.id = std::move(id);
    v.info.op = Op::copy;
    v.info.memory_space = space::host;
    v.info.gpu = false;
    v.make = [make](Shape, const OpParams&) { return make(); };
    return v;
}

RunConfig small_config() {
    RunConfig config;
    config.sizes = {{33, 65}};
    config.reps = 3;
    config.warmups = 1;
    config.include_cpu = true;
    return config;
}

}  // namespace

TEST(ParseSizes, AcceptsAListOfShapes) {
    const auto sizes = parse_sizes("4096x4096,8000X6000,1x1");
    ASSERT_EQ(sizes.size(), 3u);
    EXPECT_EQ(sizes[1], (Shape{8000, 6000}));
    EXPECT_EQ(sizes[2], (Shape{1, 1}));
}

TEST(ParseSizes, RejectsZeroNegativeAndMalformed) {
    for (const char* bad :
         {"0x5", "5x0", "-3x4", "4x", "x4", "4*4", "abc", "", "4x4,", "99999999999x2"}) {
        try {
            parse_sizes(bad);
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("size"), std::string::npos) << e.what();
        }
    }
}

TEST(Runner, HostSuiteVerifiesEveryOperationAndReportsBandwidth) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    std::size_t results_seen = 0;
    runner.on_result = [&](const RunResult&) { ++results_seen; };
    const RunRecord record = runner.run(small_config());
    ASSERT_EQ(record.runs.size(), registry.size());
    EXPECT_EQ(results_seen, record.runs.size());
    EXPECT_TRUE(record.all_verified());
    for (const RunResult& r : record.runs) {
        EXPECT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        EXPECT_GT(r.median_ms, 0) << r.variant;
        EXPECT_LE(r.min_ms, r.median_ms);
        EXPECT_LE(r.median_ms, r.max_ms);
        EXPECT_GT(r.copy_gbps, 0);
        EXPECT_NEAR(r.gbps, static_cast<double>(r.bytes) / (r.median_ms * 1e-3) / 1e9,
                    1e-9 * r.gbps);
        EXPECT_NEAR(r.pct_of_copy, 100 * r.gbps / r.copy_gbps, 1e-9 * r.pct_of_copy);
    }
}

TEST(Runner, AFailingVariantIsReportedWithoutBandwidthAndTheRunGoesOn) {
    Registry registry;
    registry.add(host_variant("copy/forgetful",
                              [] { return std::make_unique<test::HostCopy>(nullptr, true); }));
    registry.add(host_variant("copy/throws", []() -> std::unique_ptr<Instance> {
        throw std::runtime_error("cudaMalloc failed: out of memory");
    }));
    register_cpu_variants(registry);
    RunConfig config = small_config();
    config.ops = {Op::copy};
    Runner runner(registry);
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 4u);
    EXPECT_EQ(record.runs[0].status, Status::failed);
    EXPECT_NE(record.runs[0].error.find("verification failed: element (32, 64)"), std::string::npos)
        << record.runs[0].error;
    EXPECT_EQ(record.runs[0].gbps, 0);
    EXPECT_EQ(record.runs[1].status, Status::failed);
    EXPECT_EQ(record.runs[1].error, "cudaMalloc failed: out of memory");
    EXPECT_EQ(record.runs[2].status, Status::ok);
    EXPECT_EQ(record.runs[3].status, Status::ok);
    EXPECT_FALSE(record.all_verified());
}

TEST(Runner, CancelMarksTheRestCancelled) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    runner.on_result = [&](const RunResult&) { runner.cancel(); };
    const RunRecord record = runner.run(small_config());
    EXPECT_TRUE(record.cancelled);
    ASSERT_EQ(record.runs.size(), registry.size());
    EXPECT_EQ(record.runs[0].status, Status::ok);
    for (std::size_t i = 1; i < record.runs.size(); ++i)
        EXPECT_EQ(record.runs[i].status, Status::cancelled);
}

TEST(Runner, RejectsBadConfigurationsWithAReason) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    RunConfig config = small_config();
    config.params.radius = -1;
    EXPECT_THROW(runner.run(config), std::invalid_argument);
    config.params.radius = kMaxRadius + 1;
    EXPECT_THROW(runner.run(config), std::invalid_argument);
    config = small_config();
    config.variants = {"transpose/does-not-exist"};
    try {
        runner.run(config);
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("unknown variant 'transpose/does-not-exist'"),
                  std::string::npos);
    }
    config = small_config();
    config.reps = 0;
    EXPECT_THROW(runner.run(config), std::invalid_argument);
}

TEST(Runner, SelectsByIdPrefixAndKeepsOutputs) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    RunConfig config = small_config();
    config.variants = {"filter_y/"};
    config.keep_outputs = true;
    config.params = {3, Border::mirror};
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 2u);
    for (const RunResult& r : record.runs) {
        EXPECT_EQ(r.op, "filter_y");
        EXPECT_EQ(r.border, "mirror");
        ASSERT_TRUE(r.output && r.reference);
        EXPECT_EQ(r.output->shape(), (Shape{33, 65}));
        EXPECT_TRUE(
            verify(Op::filter_y,
                   cpu_reference(Op::filter_y, Matrix::random(33, 65, config.seed), config.params),
                   *r.output)
                .ok);
    }
}

// --save-output's hook: each verified run's output with its input, then dropped (one at a time).
TEST(Runner, HandsEachVerifiedOutputToOnOutputAndDropsIt) {
    Registry registry;
    registry.add(host_variant("copy/forgetful",
                              [] { return std::make_unique<test::HostCopy>(nullptr, true); }));
    register_cpu_variants(registry);
    Runner runner(registry);
    RunConfig config = small_config();
    config.ops = {Op::copy, Op::transpose};
    config.sizes = {{7, 5}, {3, 4}};
    std::vector<std::string> seen;
    runner.on_output = [&](const RunResult& r, const Matrix& input) {
        ASSERT_TRUE(r.output);
        EXPECT_TRUE(r.verified);
        EXPECT_EQ(input.shape(), (Shape{r.rows, r.cols}));
        EXPECT_EQ(input.at(r.rows - 1, 0), Matrix::random(r.rows, r.cols, 42).at(r.rows - 1, 0));
        const Matrix expected = cpu_reference(parse_op(r.op).value(), input, {}).value;
        ASSERT_EQ(r.output->shape(), expected.shape());
        for (std::size_t i = 0; i < expected.size(); ++i)
            ASSERT_EQ(r.output->data()[i], expected.data()[i]) << r.variant << " " << i;
        seen.push_back(r.variant + " " + std::to_string(r.rows));
    };
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 10u);  // (3 copies + 2 transposes) x 2 sizes
    EXPECT_EQ(seen.size(), 8u);          // not the forgetful copy's failed runs
    EXPECT_EQ(std::count(seen.begin(), seen.end(), "copy/forgetful 7"), 0);
    for (const RunResult& r : record.runs) EXPECT_FALSE(r.output || r.reference) << r.variant;
}

TEST(Runner, RunsOnAGivenInputMatrix) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    RunConfig config = small_config();
    config.input = std::make_shared<Matrix>(Matrix::gradient(17, 9));
    config.ops = {Op::transpose};
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 2u);
    EXPECT_EQ(record.runs[0].rows, 17u);
    EXPECT_EQ(record.runs[0].cols, 9u);
    EXPECT_TRUE(record.all_verified());
}

TEST(Runner, SkipsInputsOutsideAVariantsLimitsWithTheReason) {
    Registry registry;
    Variant v = host_variant("copy/vec4", [] { return std::make_unique<test::HostCopy>(); });
    v.info.limits.cols_multiple = 4;
    v.info.tier = Tier::tuned;
    v.info.kernel = "copy_vec4";
    registry.add(v);
    RunConfig config = small_config();
    config.sizes = {{33, 65}, {33, 64}};
    const RunRecord record = Runner(registry).run(config);
    ASSERT_EQ(record.runs.size(), 2u);
    EXPECT_EQ(record.runs[0].status, Status::skipped);
    EXPECT_NE(record.runs[0].error.find("multiple of 4"), std::string::npos)
        << record.runs[0].error;
    EXPECT_NE(record.runs[0].error.find("65"), std::string::npos) << record.runs[0].error;
    EXPECT_EQ(record.runs[1].status, Status::ok);
    EXPECT_TRUE(record.runs[1].verified);
    EXPECT_EQ(record.runs[1].tier, "tuned");
    EXPECT_EQ(record.runs[1].kernel, "copy_vec4");
    EXPECT_TRUE(record.all_verified());  // a skip is not a failure
}

TEST(Runner, AnUnsupportedThrownAtRunTimeIsASkipNotAFailure) {
    Registry registry;
    registry.add(host_variant("copy/limited", []() -> std::unique_ptr<Instance> {
        throw Unsupported("wider than the device's largest 2-D texture (65536)");
    }));
    const RunRecord record = Runner(registry).run(small_config());
    ASSERT_EQ(record.runs.size(), 1u);
    EXPECT_EQ(record.runs[0].status, Status::skipped);
    EXPECT_EQ(record.runs[0].error, "wider than the device's largest 2-D texture (65536)");
    EXPECT_TRUE(record.all_verified());
}

TEST(Limits, NameTheRadiusRangeAndShapeLimits) {
    Limits limits;
    limits.min_radius = 1;
    limits.max_radius = 8;
    EXPECT_EQ(limits.unsupported_reason(Op::filter_x, {8, 8}, {4, Border::clamp}), "");
    EXPECT_NE(limits.unsupported_reason(Op::filter_x, {8, 8}, {32, Border::clamp}).find("1..8"),
              std::string::npos);
    EXPECT_EQ(limits.unsupported_reason(Op::transpose, {8, 8}, {32, Border::clamp}), "")
        << "the radius matters only to filters";
    limits.max_cols = 100;
    EXPECT_NE(limits.unsupported_reason(Op::copy, {1, 101}, {}).find("at most 100 columns"),
              std::string::npos);
}

TEST(Tiers, NamesRoundTrip) {
    for (Tier t : all_tiers()) EXPECT_EQ(parse_tier(tier_name(t)), t);
    EXPECT_FALSE(parse_tier("fast").has_value());
}
