// The counters pass on a GPU: the child's one launch per run with its kernels counted, and the
// whole pass under Nsight Compute measuring what the course teaches: the naive transpose's
// stores touch 32 sectors per request, the unpadded tile's column reads conflict and the padded
// one's do not, a cold copy reads its input from DRAM once, a two-kernel variant is two kernels.
#include "support/builtin_registry.hpp"
#include "coalesce/counters_pass.hpp"
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/profile_plan.hpp"
#include "coalesce/runner.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace coalesce {
namespace {

using test::builtin_registry;

const RunResult& run_of(const RunRecord& rec, const std::string& variant) {
    for (const RunResult& r : rec.runs)
        if (r.variant == variant) return r;
    throw std::runtime_error("no run of " + variant);
}

TEST(CountersChild, LaunchesEachPlannedRunOnceAndCountsItsKernels) {
    if (cuda_device_count() == 0) GTEST_SKIP() << no_device_reason();
    ProfilePlan plan;
    for (const char* id : {"copy/global", "col_sums/global-split-rows", "copy/no-such-variant"}) {
        ProfileRun run;
        run.index = plan.runs.size() + 10;
        run.variant = id;
        run.shape = {300, 257};
        plan.runs.push_back(run);
    }
    std::ostringstream out;
    EXPECT_EQ(run_profile_plan(builtin_registry(), plan, out), 2u);
    const std::vector<ProfileOutcome> outcomes = parse_outcomes(out.str());
    ASSERT_EQ(outcomes.size(), 3u) << out.str();
    EXPECT_EQ(outcomes[0].index, 10u);
    EXPECT_TRUE(outcomes[0].launched) << outcomes[0].error;
    EXPECT_EQ(outcomes[0].kernels, 1);
    EXPECT_TRUE(outcomes[1].launched) << outcomes[1].error;
    EXPECT_EQ(outcomes[1].kernels, 2) << "partial sums, then the finishing kernel";
    EXPECT_FALSE(outcomes[2].launched);
    EXPECT_NE(outcomes[2].error.find("no variant 'copy/no-such-variant'"), std::string::npos);
}

TEST(CountersPassGpu, MeasuresWhatTheLessonsTeach) {
    if (cuda_device_count() == 0) GTEST_SKIP() << no_device_reason();
    if (find_ncu().empty()) GTEST_SKIP() << "Nsight Compute's ncu is not installed here";
    RunConfig config;
    config.variants = {"copy/global", "transpose/global-naive", "transpose/shared-tile",
                       "transpose/shared-padded", "col_sums/global-split-rows"};
    config.sizes = {{2048, 2048}};
    config.reps = 2;
    config.warmups = 1;
    Runner runner(builtin_registry());
    RunRecord rec = runner.run(config);
    ASSERT_TRUE(rec.all_verified());

    CountersOptions options;
    options.bench = COALESCE_BENCH;
    const CountersSummary summary = collect_counters(rec, options);
    ASSERT_EQ(summary.measured, rec.runs.size()) << summary.problem;
    for (const RunResult& r : rec.runs) {
        ASSERT_TRUE(r.counters.has_value()) << r.variant << ": " << r.counters_status;
        EXPECT_GT(r.counters->occupancy_pct, 0.0) << r.variant;
        EXPECT_LE(r.counters->occupancy_pct, 100.0) << r.variant;
    }

    // Caches are flushed before the profiled launch: the input comes from DRAM, once.
    const Counters& copy = *run_of(rec, "copy/global").counters;
    const double input_bytes = 2048.0 * 2048.0 * 4.0;
    EXPECT_GE(static_cast<double>(copy.dram_read_bytes), 0.98 * input_bytes);
    EXPECT_LE(static_cast<double>(copy.dram_read_bytes), 1.05 * input_bytes);
    EXPECT_DOUBLE_EQ(copy.load_sectors_per_request(), 4.0) << "32 lanes x 4 bytes";
    EXPECT_DOUBLE_EQ(copy.store_sectors_per_request(), 4.0);

    const Counters& naive = *run_of(rec, "transpose/global-naive").counters;
    EXPECT_DOUBLE_EQ(naive.load_sectors_per_request(), 4.0);
    EXPECT_GE(naive.store_sectors_per_request(), 31.0) << "a lane per output row";

    const Counters& tile = *run_of(rec, "transpose/shared-tile").counters;
    const Counters& padded = *run_of(rec, "transpose/shared-padded").counters;
    EXPECT_LE(tile.store_sectors_per_request(), 4.5) << "staged: coalesced stores";
    EXPECT_GT(tile.shared_load_conflicts, 2048u * 2048u / 32 * 16)
        << "the unpadded tile's column reads: many-way conflicts";
    EXPECT_LT(padded.shared_load_conflicts * 10, tile.shared_load_conflicts);

    EXPECT_EQ(run_of(rec, "col_sums/global-split-rows").counters->kernels, 2u);
}

}  // namespace
}  // namespace coalesce
