// The steps of Runner::run, one at a time.
#include "support/host_copy.hpp"
#include "coalesce/run_steps.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

using namespace coalesce;
using namespace coalesce::run_steps;

namespace {

Registry host_registry() {
    Registry registry;
    register_cpu_variants(registry);
    return registry;
}

}  // namespace

TEST(RunSteps, ValidateNamesWhatCannotRun) {
    const Registry registry = host_registry();
    const Runner runner(registry);
    RunConfig config;
    config.sizes = {{8, 8}};
    config.params.radius = kMaxRadius + 1;
    config.ops = {Op::filter_x};
    try {
        validate(runner, config);
        FAIL() << "radius 65 accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("radius 65"), std::string::npos) << e.what();
    }
    config.params.radius = 1;
    config.variants = {"transpose/no-such"};
    EXPECT_THROW(validate(runner, config), std::invalid_argument);
    config.variants = {};
    config.sizes = {{0, 8}};
    EXPECT_THROW(validate(runner, config), std::invalid_argument);
    config.sizes = {{8, 8}};
    config.reps = 0;
    EXPECT_THROW(validate(runner, config), std::invalid_argument);
}

TEST(RunSteps, ValidateSelectsByTier) {
    Registry registry = host_registry();
    const Runner runner(registry);
    RunConfig config;
    config.sizes = {{8, 8}};
    config.include_cpu = true;
    config.tiers = {Tier::tuned};
    EXPECT_TRUE(validate(runner, config).variants.empty()) << "host variants are classic";
    config.tiers = {Tier::classic};
    EXPECT_EQ(validate(runner, config).variants.size(), registry.size());
}

TEST(RunSteps, DescribeResultCarriesTheModelAndTheVariant) {
    VariantInfo info;
    info.id = "transpose/x";
    info.op = Op::transpose;
    info.memory_space = space::shared;
    info.tier = Tier::tuned;
    info.kernel = "transpose_x";
    info.gpu = true;
    DeviceInfo device;
    device.gpu = true;
    device.l2_bytes = 1 << 20;
    RunConfig config;
    const RunResult r = describe_result(info, {1024, 512}, config.params, device, 3000.0);
    EXPECT_EQ(r.bytes, 2u * 1024 * 512 * 4);
    EXPECT_EQ(r.tier, "tuned");
    EXPECT_EQ(r.kernel, "transpose_x");
    EXPECT_EQ(r.copy_gbps, 3000.0);
    EXPECT_FALSE(r.cache_resident);  // 4 MiB against a 1 MiB cache
    const RunResult small = describe_result(info, {64, 64}, config.params, device, 3000.0);
    EXPECT_TRUE(small.cache_resident);
    info.gpu = false;  // a host variant is judged against the host's cache, not the device's
    EXPECT_FALSE(describe_result(info, {64, 64}, config.params, device, 3000.0).cache_resident);
    DeviceInfo host;  // a machine without a GPU: its last-level cache
    host.gpu = false;
    host.l2_bytes = 32u << 20;
    EXPECT_TRUE(describe_result(info, {256, 256}, config.params, host, 30.0).cache_resident);
    EXPECT_FALSE(describe_result(info, {4096, 4096}, config.params, host, 30.0).cache_resident);
}

TEST(RunSteps, SkipReasonSaysWhy) {
    VariantInfo info;
    info.id = "filter_x/x";
    info.op = Op::filter_x;
    info.borders = {Border::clamp};
    info.gpu = false;
    EXPECT_EQ(skip_reason(info, {4, 4}, {1, Border::clamp}, false), "");
    EXPECT_NE(skip_reason(info, {4, 4}, {1, Border::wrap}, false).find("'wrap'"),
              std::string::npos);
    info.limits.max_radius = 8;
    EXPECT_NE(skip_reason(info, {4, 4}, {9, Border::clamp}, false).find("0..8"), std::string::npos);
    info.gpu = true;
    EXPECT_FALSE(skip_reason(info, {4, 4}, {1, Border::clamp}, false).empty());
}

TEST(RunSteps, SummarizeTakesTheMedian) {
    const Timing odd = summarize({3.0, 1.0, 2.0});
    EXPECT_EQ(odd.median_ms, 2.0);
    EXPECT_EQ(odd.min_ms, 1.0);
    EXPECT_EQ(odd.max_ms, 3.0);
    EXPECT_EQ(summarize({4.0, 1.0, 2.0, 3.0}).median_ms, 2.5);
}

TEST(RunSteps, RecordTimingComputesBandwidthAndShareOfCopy) {
    RunResult r;
    r.bytes = 2'000'000'000;
    r.copy_gbps = 4000.0;
    record_timing(r, {1.0, 1.0, 0.5, 2.0, 1.0});
    EXPECT_EQ(r.reps, 5);
    EXPECT_EQ(r.median_ms, 1.0);
    EXPECT_DOUBLE_EQ(r.gbps, 2000.0);
    EXPECT_DOUBLE_EQ(r.pct_of_copy, 50.0);
}

TEST(RunSteps, VerifyOneLaunchCatchesAnOutputLeftUnwritten) {
    class Lazy final : public Instance {
    public:
        void upload(const Matrix& in) override { out_ = Matrix(in.rows(), in.cols(), 0.0f); }
        void poison() override { std::fill(out_.data(), out_.data() + out_.size(), std::nanf("")); }
        void launch(cudaStream_t) override {}
        Matrix download() override { return out_; }

    private:
        Matrix out_;
    } lazy;
    const Matrix input(3, 3, 1.0f);
    lazy.upload(input);
    VariantInfo info;
    info.op = Op::copy;
    const Reference ref = cpu_reference(Op::copy, input, {});
    const Checked c = verify_one_launch(lazy, nullptr, false, ref, info, input.shape());
    EXPECT_FALSE(c.verification.ok);
    EXPECT_NE(c.verification.message.find("NaN"), std::string::npos);
}

TEST(RunSteps, HostCopyBaselineIsMeasured) {
    EXPECT_GT(measure_host_copy(1 << 20, 1, 5), 0.0);
    EXPECT_GT(measure_host_copy(4, 1, 5), 0.0);  // tiny copies are batched, never a zero time
}

TEST(RunSteps, RunUnlessCancelledStopsBeforeTheNextIteration) {
    std::atomic<bool> flag{false};
    int seen = 0;
    EXPECT_EQ(run_unless_cancelled(100, &flag,
                                   [&](int i) {
                                       seen = i + 1;
                                       if (i == 6) flag = true;
                                   }),
              7);
    EXPECT_EQ(seen, 7);
    EXPECT_EQ(run_unless_cancelled(100, &flag, [](int) { FAIL() << "ran after the cancel"; }), 0);
    EXPECT_EQ(run_unless_cancelled(3, nullptr, [](int) {}), 3);
}

// The flag set after the fifth timed launch (one warm-up before it) stops a thousand-launch loop
// at once; the launches timed so far come back, marked cancelled.
TEST(RunSteps, TimeLaunchesStopsWithinALaunchOfACancel) {
    std::atomic<bool> flag{false};
    test::HostCopy instance([&](int n) {
        if (n == 6) flag = true;
    });
    instance.upload(Matrix(4, 4, 1.0f));
    const Launches timed = time_launches(instance, nullptr, false, 3, 1000, 0.0, &flag);
    EXPECT_TRUE(timed.cancelled);
    EXPECT_EQ(instance.launches, 6);
    EXPECT_EQ(timed.ms.size(), 5u);

    test::HostCopy never;
    never.upload(Matrix(4, 4, 1.0f));
    const Launches none = time_launches(never, nullptr, false, 3, 1000, 0.0, &flag);
    EXPECT_TRUE(none.cancelled) << "a flag already set stops it before the warm-up";
    EXPECT_EQ(never.launches, 0);

    std::atomic<bool> clear{false};
    const Launches all = time_launches(never, nullptr, false, 1, 9, 0.0, &clear);
    EXPECT_FALSE(all.cancelled);
    EXPECT_EQ(all.ms.size(), 9u);
}

TEST(RunSteps, CopyBaselineStopsOnACancel) {
    std::atomic<bool> flag{true};
    EXPECT_EQ(measure_host_copy(1 << 20, 1, 1000, &flag), 0.0);
}

// Through the Runner: the variant whose timing is interrupted is marked cancelled (verified, no
// figures), the one before it keeps its figures and the one after it never runs.
TEST(RunSteps, ACancelWhileTimingMarksThatRunAndTheRestCancelled) {
    Registry registry;
    Runner* runner_ptr = nullptr;
    auto add = [&](const std::string& id, int stop_after) {
        Variant v;
        v.info.id = id;
        v.info.op = Op::copy;
        v.info.memory_space = space::host;
        v.info.gpu = false;
        v.make = [&, stop_after](Shape, const OpParams&) -> std::unique_ptr<Instance> {
            return std::make_unique<test::HostCopy>([&, stop_after](int n) {
                if (n == stop_after) runner_ptr->cancel();
            });
        };
        registry.add(v);
    };
    add("copy/whole", -1);
    add("copy/interrupted", 4);  // verification launch, warm-up, two timed launches, then cancel
    add("copy/after", -1);
    Runner runner(registry);
    runner_ptr = &runner;
    RunConfig config;
    config.sizes = {{3, 5}};
    config.reps = 50;
    config.warmups = 1;
    config.include_cpu = true;
    config.variants = {"copy/whole", "copy/interrupted", "copy/after"};
    const RunRecord record = runner.run(config);
    ASSERT_EQ(record.runs.size(), 3u);
    EXPECT_TRUE(record.cancelled);
    EXPECT_EQ(record.runs[0].status, Status::ok);
    EXPECT_GT(record.runs[0].reps, 0);
    EXPECT_EQ(record.runs[1].status, Status::cancelled);
    EXPECT_TRUE(record.runs[1].verified);
    EXPECT_EQ(record.runs[1].reps, 0);
    EXPECT_NE(record.runs[1].error.find("after 2 timed"), std::string::npos)
        << record.runs[1].error;
    EXPECT_EQ(record.runs[2].status, Status::cancelled);
    EXPECT_FALSE(record.all_verified());
}
