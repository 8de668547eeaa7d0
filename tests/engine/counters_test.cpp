// The counters pass without a GPU: ncu's CSV read from a sample written in the format ncu 2025.3
// prints (tests/data/ncu-raw-sample.csv), rows mapped to runs by NVTX range, kernels combined,
// the plan and the child's outcome lines, the model check, and the whole parent side driven
// through stand-ins for ncu (shell scripts) that answer as ncu does.
#include "support/temp_dir.hpp"
#include "coalesce/counters.hpp"
#include "coalesce/counters_pass.hpp"
#include "coalesce/device.hpp"
#include "coalesce/ncu_csv.hpp"
#include "coalesce/profile_plan.hpp"
#include "coalesce/results_io.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

namespace coalesce {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string sample_log() { return read_text_file(COALESCE_TEST_DATA_DIR "/ncu-raw-sample.csv"); }

void expect_refused(const std::function<void()>& f, const std::string& part) {
    try {
        f();
        ADD_FAILURE() << "no exception; expected one containing \"" << part << "\"";
    } catch (const std::exception& e) {
        EXPECT_THAT(e.what(), HasSubstr(part));
    }
}

// A record as Runner::run leaves it: three verified GPU runs (the sample's runs 0, 2, 5 at
// indexes 0, 2 and 5), a host run, a skipped and a failed GPU run.
RunRecord sample_record() {
    RunRecord rec;
    rec.device.gpu = true;
    rec.device.index = 0;
    rec.device.name = "NVIDIA H100 80GB HBM3";
    rec.config.seed = 7;
    const auto run = [](std::string variant, Status status, bool gpu) {
        RunResult r;
        r.variant = std::move(variant);
        r.op = r.variant.substr(0, r.variant.find('/'));
        r.rows = r.cols = 2048;
        r.bytes = 2 * 2048 * 2048 * 4;
        r.border = "clamp";
        r.radius = 4;
        r.status = status;
        r.verified = status == Status::ok;
        r.gpu = gpu;
        return r;
    };
    rec.runs = {run("transpose/global-naive", Status::ok, true),
                run("transpose/cpu-naive", Status::ok, false),
                run("col_sums/global-split-rows", Status::ok, true),
                run("filter_x/fast-bulk-ring", Status::skipped, true),
                run("transpose/pitched", Status::failed, true),
                run("transpose/shared-tile", Status::ok, true)};
    rec.runs[2].bytes = 2048 * 2048 * 4 + 2048 * 4;
    rec.runs[2].params = {{"chunks", 8}};
    rec.runs[5].border = "mirror";
    return rec;
}

// ------------------------------------------------------------------------------ ncu's CSV

TEST(NcuCsv, ReadsEveryKernelRowWithItsRunAndPlainNumbers) {
    const std::vector<ncu::KernelRow> rows = ncu::parse_raw_csv(sample_log());
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0].run, std::optional<std::size_t>(0));
    EXPECT_EQ(rows[1].run, std::optional<std::size_t>(2));
    EXPECT_EQ(rows[2].run, std::optional<std::size_t>(2));
    EXPECT_EQ(rows[3].run, std::nullopt) << "a kernel outside every run's range";
    EXPECT_EQ(rows[4].run, std::optional<std::size_t>(5));
    // Kernel names keep their commas; thousands separators are gone from the numbers.
    EXPECT_EQ(rows[4].kernel,
              "void transpose_shared_tile_kernel<32, 0>(coalesce::MatView, coalesce::MatView)");
    EXPECT_EQ(rows[0].metrics.at("dram__bytes_read.sum"), 16781312.0);
    EXPECT_EQ(rows[0].metrics.at("lts__t_sector_hit_rate.pct"), 89.61);
    EXPECT_EQ(rows[0].metrics.size(), ncu::metric_names().size());
}

TEST(NcuCsv, OneKernelGivesItsOwnCounters) {
    const std::vector<ncu::KernelRow> rows = ncu::parse_raw_csv(sample_log());
    const Counters c = ncu::combine({&rows[0]});
    EXPECT_EQ(c.kernels, 1u);
    EXPECT_EQ(c.dram_read_bytes, 16781312u);
    EXPECT_EQ(c.dram_write_bytes, 16769024u);
    EXPECT_DOUBLE_EQ(c.load_sectors_per_request(), 4.0);
    EXPECT_DOUBLE_EQ(c.store_sectors_per_request(), 32.0) << "the naive transpose's stores";
    EXPECT_DOUBLE_EQ(c.l1_hit_rate_pct, 5.18);
    EXPECT_DOUBLE_EQ(c.l2_hit_rate_pct, 89.61);
    EXPECT_DOUBLE_EQ(c.occupancy_pct, 80.24);
    const Counters tile = ncu::combine({&rows[4]});
    EXPECT_EQ(tile.shared_load_conflicts, 3932160u);
    EXPECT_EQ(tile.shared_load_wavefronts, 4063232u);
    EXPECT_EQ(tile.shared_store_conflicts, 0u);
}

TEST(NcuCsv, AVariantsKernelsAreSummedAndItsRatesWeighted) {
    const std::vector<ncu::KernelRow> rows = ncu::parse_raw_csv(sample_log());
    const Counters c = ncu::combine({&rows[1], &rows[2]});
    EXPECT_EQ(c.kernels, 2u);
    EXPECT_EQ(c.dram_read_bytes, 16777216u + 524288u);
    EXPECT_EQ(c.dram_write_bytes, 524288u + 8192u);
    EXPECT_EQ(c.global_load_sectors, 524288u + 16384u);
    EXPECT_EQ(c.global_load_requests, 131072u + 4096u);
    EXPECT_EQ(c.global_store_sectors, 16384u + 256u);
    EXPECT_EQ(c.global_store_requests, 4096u + 64u);
    // Rates of the whole launch: weighted by L2 sectors and active cycles, not averaged per
    // launch (37.5%) and not the largest kernel's (62.5%).
    EXPECT_DOUBLE_EQ(c.l2_hit_rate_pct, (3.12 * 557056 + 50.0 * 16640) / (557056 + 16640));
    EXPECT_DOUBLE_EQ(c.occupancy_pct, (62.5 * 6e6 + 12.5 * 1e6) / 7e6);
    EXPECT_DOUBLE_EQ(c.l1_hit_rate_pct, 0.0);
}

TEST(NcuCsv, RefusesOutputItCannotTrust) {
    const std::string log = sample_log();
    const auto changed = [&](const std::string& from, const std::string& to) {
        std::string s = log;
        const auto at = s.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return s.replace(at, from.size(), to);
    };
    expect_refused([] { ncu::parse_raw_csv("==PROF== Disconnected from process 1\n"); },
                   "ncu printed no CSV table");
    expect_refused([&] { ncu::parse_raw_csv(changed("\"lts__t_sectors.sum\"", "\"lts__x.sum\"")); },
                   "no column for metric lts__t_sectors.sum");
    // Without --print-units base ncu scales: a table in Mbyte would be read as bytes.
    std::string scaled = log;  // every byte unit of the units row
    const std::string byte = "\"byte\"";
    for (auto at = scaled.find(byte); at != std::string::npos; at = scaled.find(byte, at))
        scaled.replace(at, byte.size(), "\"Mbyte\"");
    expect_refused([&] { ncu::parse_raw_csv(scaled); }, "in 'Mbyte', not in base units");
    expect_refused([&] { ncu::parse_raw_csv(changed("\"16,781,312\"", "\"n/a\"")); },
                   "dram__bytes_read.sum for kernel 'transpose_naive_kernel");
    const std::string header_and_units = log.substr(0, log.find("\"0\",\"4711\""));
    EXPECT_TRUE(ncu::parse_raw_csv(header_and_units).empty()) << "no kernel rows: no kernels";
}

TEST(NcuCsv, RangeNamesAndTheFilterAgree) {
    EXPECT_EQ(ncu::range_name(12), "coalesce-run-12");
    EXPECT_EQ(ncu::range_name(12).find('/'), std::string::npos) << "'/' nests ranges in ncu";
    EXPECT_THAT(ncu::kRangeFilter, StartsWith("regex:coalesce-run-"));
    EXPECT_EQ(ncu::metrics_argument().find(' '), std::string::npos);
    EXPECT_THAT(ncu::metrics_argument(), HasSubstr("dram__bytes_read.sum,dram__bytes_write.sum"));
}

TEST(NcuCsv, KnownProblemsAreNamed) {
    EXPECT_THAT(ncu::known_problem("==PROF== Connected to process 9\n==ERROR== ERR_NVGPUCTRPERM - "
                                   "The user does not have permission to access NVIDIA GPU "
                                   "Performance Counters on the target device 0.\n"),
                HasSubstr("no permission to read the GPU's performance counters"));
    EXPECT_EQ(ncu::known_problem("==ERROR== Failed to find metric bogus__x.sum\r\n"),
              "ncu: Failed to find metric bogus__x.sum");
    EXPECT_THAT(ncu::known_problem("==WARNING== No kernels were profiled.\n"),
                HasSubstr("ncu profiled no kernel"));
    EXPECT_EQ(ncu::known_problem(sample_log()), "");
}

// ---------------------------------------------------------------------------- the model check

TEST(Counters, DramAgainstTheModelIsMarkedPastTenPercent) {
    Counters c;
    c.dram_read_bytes = 500;
    c.dram_write_bytes = 400;
    EXPECT_DOUBLE_EQ(dram_model_ratio(c, 1000), 0.9);
    EXPECT_FALSE(dram_differs_from_model(c, 1000)) << "exactly 10% off is not past it";
    EXPECT_TRUE(dram_differs_from_model(c, 1001));
    c.dram_write_bytes = 600;
    EXPECT_FALSE(dram_differs_from_model(c, 1000));
    c.dram_write_bytes = 611;
    EXPECT_TRUE(dram_differs_from_model(c, 1000)) << "more than the model: re-reads";
    EXPECT_TRUE(std::isnan(dram_model_ratio(c, 0)));
    EXPECT_FALSE(dram_differs_from_model(c, 0)) << "no model, no mark";
}

TEST(Counters, SectorsPerRequestNeedRequests) {
    Counters c;
    c.global_load_sectors = 64;
    c.global_load_requests = 16;
    EXPECT_DOUBLE_EQ(c.load_sectors_per_request(), 4.0);
    EXPECT_TRUE(std::isnan(c.store_sectors_per_request())) << "texture fetches: no LSU requests";
}

// ---------------------------------------------------------------- the plan and the child's lines

TEST(ProfilePlan, JsonRoundTripKeepsEveryRun) {
    ProfilePlan plan;
    plan.device = 1;
    plan.seed = 18446744073709551615ull;
    plan.plugin_dirs = {"/opt/plugins, odd"};
    ProfileRun run;
    run.index = 41;
    run.variant = "offset_read/global";
    run.shape = {8192, 6000};
    run.params.radius = 32;
    run.params.border = Border::mirror;
    run.params.values = {{"offset", 3}, {"stride", -2}};
    plan.runs = {run};
    const ProfilePlan back = plan_from_json(plan_to_json(plan));
    EXPECT_EQ(back.device, 1);
    EXPECT_EQ(back.seed, plan.seed);
    EXPECT_EQ(back.plugin_dirs, plan.plugin_dirs);
    ASSERT_EQ(back.runs.size(), 1u);
    EXPECT_EQ(back.runs[0].index, 41u);
    EXPECT_EQ(back.runs[0].variant, run.variant);
    EXPECT_EQ(back.runs[0].shape, run.shape);
    EXPECT_EQ(back.runs[0].params.radius, 32);
    EXPECT_EQ(back.runs[0].params.border, Border::mirror);
    EXPECT_EQ(back.runs[0].params.values, run.params.values);
    expect_refused([] { plan_from_json("{\"schema\": \"coalesce-results/1\"}"); }, "not a plan");
    expect_refused([] { plan_from_json("{"); }, "profile plan:");
}

TEST(ProfilePlan, OutcomeLinesAreFoundAmongOtherOutput) {
    const ProfileOutcome a{3, "copy/global", true, 1, ""};
    const ProfileOutcome b{4, "col_sums/global-split-rows", false, -1, "out of memory, \"big\""};
    const std::string out =
        "a plugin's chatter\n" + outcome_line(a) + "\n" + outcome_line(b) + "\n";
    EXPECT_THAT(parse_outcomes(out), ElementsAre(a, b));
    expect_refused([] { parse_outcomes(std::string(kOutcomePrefix) + "{\"index\": 1}\n"); },
                   "damaged profiling outcome");
}

// --------------------------------------------------------------------- the parent's steps

TEST(CountersSteps, PlanTakesVerifiedGpuRunsAndSaysWhyNotForTheRest) {
    RunRecord rec = sample_record();
    rec.runs[0].counters = Counters{};  // from an earlier pass: dropped
    const ProfilePlan plan = counters_steps::plan(rec, {"/plugins"});
    EXPECT_EQ(plan.seed, 7u);
    EXPECT_EQ(plan.plugin_dirs, std::vector<std::string>{"/plugins"});
    ASSERT_EQ(plan.runs.size(), 3u);
    EXPECT_EQ(plan.runs[0].index, 0u);
    EXPECT_EQ(plan.runs[1].index, 2u);
    EXPECT_EQ(plan.runs[1].params.values.at("chunks"), 8);
    EXPECT_EQ(plan.runs[2].index, 5u);
    EXPECT_EQ(plan.runs[2].params.border, Border::mirror);
    EXPECT_FALSE(rec.runs[0].counters.has_value());
    EXPECT_THAT(rec.runs[1].counters_status, StartsWith("host variant"));
    EXPECT_EQ(rec.runs[3].counters_status, "not profiled: the run was skipped");
    EXPECT_EQ(rec.runs[4].counters_status, "not profiled: the run did not verify");
}

TEST(CountersSteps, ApplyGivesCountersOnlyWhereEveryKernelWasReported) {
    RunRecord rec = sample_record();
    const ProfilePlan plan = counters_steps::plan(rec, {});
    const std::vector<ncu::KernelRow> rows = ncu::parse_raw_csv(sample_log());
    const std::vector<ProfileOutcome> outcomes = {{0, "transpose/global-naive", true, 1, ""},
                                                  {2, "col_sums/global-split-rows", true, 2, ""},
                                                  {5, "transpose/shared-tile", true, 1, ""}};
    EXPECT_EQ(counters_steps::apply(rec, plan, outcomes, rows, ""), 3u);
    ASSERT_TRUE(rec.runs[2].counters.has_value());
    EXPECT_EQ(rec.runs[2].counters->kernels, 2u);
    EXPECT_EQ(rec.runs[5].counters->shared_load_conflicts, 3932160u);
    EXPECT_EQ(rec.runs[0].counters_status, "");

    // The launch counted three kernels (a graph capture), ncu reported two: no counters.
    std::vector<ProfileOutcome> more = outcomes;
    more[1].kernels = 3;
    EXPECT_EQ(counters_steps::apply(rec, plan, more, rows, ""), 2u);
    EXPECT_FALSE(rec.runs[2].counters.has_value());
    EXPECT_EQ(rec.runs[2].counters_status, "ncu reported 2 kernels for a launch that runs 3");
    // A count the capture could not make (-1) takes ncu's rows as they are.
    more[1].kernels = -1;
    EXPECT_EQ(counters_steps::apply(rec, plan, more, rows, ""), 3u);

    std::vector<ProfileOutcome> failed = outcomes;
    failed[2] = {5, "transpose/shared-tile", false, -1, "cudaErrorMemoryAllocation"};
    failed.erase(failed.begin());  // the child never reported run 0
    EXPECT_EQ(counters_steps::apply(rec, plan, failed, rows, ""), 1u);
    EXPECT_EQ(rec.runs[0].counters_status, "the profiling process ended before this run");
    EXPECT_EQ(rec.runs[5].counters_status, "the profiled launch failed: cudaErrorMemoryAllocation");
}

TEST(CountersSteps, NcusProblemExplainsRunsItReportedNothingFor) {
    RunRecord rec = sample_record();
    const ProfilePlan plan = counters_steps::plan(rec, {});
    const std::vector<ProfileOutcome> outcomes = {{0, "transpose/global-naive", true, 1, ""},
                                                  {2, "col_sums/global-split-rows", true, 2, ""},
                                                  {5, "transpose/shared-tile", true, 1, ""}};
    EXPECT_EQ(counters_steps::apply(rec, plan, outcomes, {}, "ncu: no permission"), 0u);
    for (std::size_t i : {0u, 2u, 5u}) EXPECT_EQ(rec.runs[i].counters_status, "ncu: no permission");
    EXPECT_EQ(counters_steps::apply(rec, plan, outcomes, {}, ""), 0u);
    EXPECT_EQ(rec.runs[0].counters_status, "ncu reported no kernel in this run's range");
}

TEST(CountersSteps, NcuCommandProfilesOnlyTheRangesInBaseUnits) {
    const std::vector<std::string> cmd = counters_steps::ncu_command(
        "/cuda/bin/ncu", "/b/coalesce-bench", "/t/plan.json", "/t/ncu.csv");
    const auto after = [&](const std::string& option) {
        const auto it = std::find(cmd.begin(), cmd.end(), option);
        return it == cmd.end() || it + 1 == cmd.end() ? std::string("(absent)") : *(it + 1);
    };
    EXPECT_EQ(cmd.front(), "/cuda/bin/ncu");
    EXPECT_EQ(after("--nvtx-include"), ncu::kRangeFilter);
    EXPECT_NE(std::find(cmd.begin(), cmd.end(), "--nvtx"), cmd.end());
    EXPECT_EQ(after("--metrics"), ncu::metrics_argument());
    EXPECT_EQ(after("--page"), "raw");
    EXPECT_EQ(after("--print-units"), "base");
    EXPECT_EQ(after("--clock-control"), "none");
    EXPECT_EQ(after("--log-file"), "/t/ncu.csv");
    EXPECT_EQ(after("--target-processes"), "application-only");
    // The profiled program comes last: coalesce-bench in its child mode.
    EXPECT_THAT(std::vector<std::string>(cmd.end() - 3, cmd.end()),
                ElementsAre("/b/coalesce-bench", "--profile-plan", "/t/plan.json"));
}

// -------------------------------------------------------- the pass through stand-ins for ncu

class CountersPass : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        temp_.emplace(std::string("counters-") + info->name());
        dir_ = temp_->path();
    }
    void TearDown() override { temp_.reset(); }

    // An executable shell script standing in for ncu: `body` runs with $log set to the path
    // after --log-file and $plan to the path after --profile-plan.
    fs::path fake_ncu(const std::string& body) {
        const fs::path path = dir_ / "ncu";
        std::ofstream(path) << "#!/bin/sh\nlog=; plan=\n"
                            << "while [ $# -gt 0 ]; do\n"
                            << "  case \"$1\" in --log-file) log=$2;; --profile-plan) plan=$2;; "
                               "esac\n  shift\ndone\n"
                            << body << "\n";
        fs::permissions(path, fs::perms::owner_all);
        return path;
    }

    CountersOptions options(const fs::path& ncu) const {
        CountersOptions o;
        o.ncu = ncu;
        o.bench = "/bin/true";
        return o;
    }

    std::optional<test::TempDir> temp_;
    fs::path dir_;
};

TEST_F(CountersPass, MapsWhatNcuReportsOntoTheRuns) {
    std::ofstream(dir_ / "outcomes.txt")
        << outcome_line({0, "transpose/global-naive", true, 1, ""}) << "\n"
        << outcome_line({2, "col_sums/global-split-rows", true, 2, ""}) << "\n"
        << outcome_line({5, "transpose/shared-tile", true, 1, ""}) << "\n";
    // Like ncu: its table to --log-file, the program's stdout on stdout; the plan must be there.
    const fs::path ncu = fake_ncu("test -s \"$plan\" || exit 3\ncp '" COALESCE_TEST_DATA_DIR
                                  "/ncu-raw-sample.csv' \"$log\"\ncat '" +
                                  (dir_ / "outcomes.txt").string() + "'");
    RunRecord rec = sample_record();
    const ProfilePlan plan = counters_steps::plan(rec, {});
    const CountersSummary s = counters_steps::profile(rec, plan, ncu, options(ncu));
    EXPECT_EQ(s.planned, 3u);
    EXPECT_EQ(s.measured, 3u) << s.problem;
    ASSERT_TRUE(rec.runs[0].counters.has_value()) << rec.runs[0].counters_status;
    EXPECT_DOUBLE_EQ(rec.runs[0].counters->store_sectors_per_request(), 32.0);
    EXPECT_EQ(rec.runs[2].counters->kernels, 2u);
    EXPECT_FALSE(rec.runs[1].counters.has_value());
    // The record with counters survives its results file.
    const RunRecord back = from_json(to_json(rec));
    ASSERT_TRUE(back.runs[5].counters.has_value());
    EXPECT_TRUE(*back.runs[5].counters == *rec.runs[5].counters);
}

TEST_F(CountersPass, NcuWithoutPermissionLeavesEveryRunWithTheReason) {
    const fs::path ncu = fake_ncu(
        "echo '==PROF== Connected to process 99' > \"$log\"\n"
        "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA "
        "GPU Performance Counters on the target device 0.' >> \"$log\"\nexit 1");
    RunRecord rec = sample_record();
    const CountersSummary s =
        counters_steps::profile(rec, counters_steps::plan(rec, {}), ncu, options(ncu));
    EXPECT_EQ(s.measured, 0u);
    EXPECT_THAT(s.problem, HasSubstr("ERR_NVGPUCTRPERM"));
    for (std::size_t i : {0u, 2u, 5u}) {
        EXPECT_FALSE(rec.runs[i].counters.has_value());
        EXPECT_THAT(rec.runs[i].counters_status, HasSubstr("no permission")) << i;
    }
}

TEST_F(CountersPass, ANcuThatDiesSaysHow) {
    const fs::path ncu =
        fake_ncu("echo 'Segmentation fault in the injection library' >&2\nexit 139");
    RunRecord rec = sample_record();
    const CountersSummary s =
        counters_steps::profile(rec, counters_steps::plan(rec, {}), ncu, options(ncu));
    EXPECT_EQ(s.problem,
              "ncu ended with exit status 139: Segmentation fault in the injection library");
    EXPECT_EQ(rec.runs[0].counters_status, s.problem);
}

TEST_F(CountersPass, CancellingStopsNcuAtOnce) {
    const fs::path ncu = fake_ncu("sleep 30");
    RunRecord rec = sample_record();
    CountersOptions o = options(ncu);
    const auto start = std::chrono::steady_clock::now();
    o.cancelled = [&] {
        return std::chrono::steady_clock::now() - start > std::chrono::milliseconds(200);
    };
    const CountersSummary s = counters_steps::profile(rec, counters_steps::plan(rec, {}), ncu, o);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
    EXPECT_EQ(s.problem, "cancelled");
    EXPECT_EQ(rec.runs[5].counters_status, "cancelled");
}

TEST_F(CountersPass, FindsNcuWhereItWasToldOrOnThePath) {
    const fs::path ncu = fake_ncu("exit 0");
    EXPECT_EQ(find_ncu(ncu), ncu);
    EXPECT_EQ(find_ncu(dir_ / "no-such-ncu"), fs::path());
    std::ofstream(dir_ / "not-executable") << "#!/bin/sh\n";
    EXPECT_EQ(find_ncu(dir_ / "not-executable"), fs::path());
    const char* old = std::getenv("PATH");
    const std::string saved = old ? old : "";
    ::setenv("PATH", ("/nonexistent:" + dir_.string()).c_str(), 1);
    EXPECT_EQ(find_ncu(), dir_ / "ncu");
    ::setenv("PATH", saved.c_str(), 1);
}

// The results file docs/counters.md is written from opens here, counters and all (the window
// opens such files from GPU servers).
TEST(CountersFiles, TheCommittedH100FileLoadsWithEveryRunsCounters) {
    const RunRecord rec = load_results(COALESCE_SOURCE_DIR "/docs/h100-counters-8192.json");
    ASSERT_FALSE(rec.runs.empty());
    for (const RunResult& r : rec.runs) {
        ASSERT_TRUE(r.counters.has_value()) << r.variant << ": " << r.counters_status;
        EXPECT_GE(r.counters->kernels, 1u) << r.variant;
    }
    const auto naive = std::find_if(rec.runs.begin(), rec.runs.end(), [](const RunResult& r) {
        return r.variant == "transpose/global-naive";
    });
    ASSERT_NE(naive, rec.runs.end());
    EXPECT_DOUBLE_EQ(naive->counters->store_sectors_per_request(), 32.0);
    EXPECT_TRUE(dram_differs_from_model(*naive->counters, naive->bytes));
}

TEST(CountersPassHere, WithoutAGpuEveryRunSaysWhyItHasNoCounters) {
    if (cuda_device_count() > 0) GTEST_SKIP() << "this machine has a CUDA device";
    RunRecord rec = sample_record();  // as a results file from a GPU server opened here
    CountersOptions o;
    o.bench = "/bin/true";
    const CountersSummary s = collect_counters(rec, o);
    EXPECT_EQ(s.measured, 0u);
    EXPECT_THAT(s.problem, HasSubstr("counters need the GPU the runs ran on"));
    EXPECT_EQ(rec.runs[0].counters_status, s.problem);
    EXPECT_THAT(rec.runs[1].counters_status, StartsWith("host variant"));
}

}  // namespace
}  // namespace coalesce
