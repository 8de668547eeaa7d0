// coalesce-bench --lessons and --lesson ID, run as a user runs them: exit status and output.
#include "coalesce/lessons.hpp"
#include "coalesce/results_io.hpp"
#include "coalesce/runner.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace coalesce {
namespace {

using ::testing::HasSubstr;

struct Outcome {
    int exit_code = -1;
    std::string output;  // stdout and stderr together
};

Outcome bench(const std::string& args) {
    const std::string command = std::string("'") + COALESCE_BENCH + "' " + args + " 2>&1";
    Outcome o;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return o;
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) o.output.append(buffer, n);
    const int status = ::pclose(pipe);
    if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
    return o;
}

TEST(CliLessons, ListsEveryLessonAndExits) {
    const Outcome o = bench("--lessons");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    for (const Lesson& l : lessons()) EXPECT_THAT(o.output, HasSubstr(l.id));
    EXPECT_THAT(o.output, HasSubstr(std::to_string(lessons().size()) + " lessons"));
}

TEST(CliLessons, RunsTheLessonsVariantsAtTheGivenSize) {
    const Outcome o = bench("--lesson col-sums-beat-row-sums --sizes 64x64 --reps 2 --warmups 0");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    EXPECT_THAT(o.output, HasSubstr("row_sums/global-thread-per-row"));
    EXPECT_THAT(o.output, HasSubstr("col_sums/global-thread-per-col"));
    EXPECT_THAT(o.output, HasSubstr("64x64"));
    EXPECT_THAT(o.output, ::testing::Not(HasSubstr("transpose/")));
}

TEST(CliLessons, RunsTextureLessonsFromThePlugin) {
    const Outcome o = bench("--lesson texture-filter-x --sizes 33x65 --radius 2 --reps 2");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    EXPECT_THAT(o.output, HasSubstr("filter_x/global"));
    EXPECT_THAT(o.output, HasSubstr("filter_x/texture-array"));
    EXPECT_THAT(o.output, HasSubstr("filter_x/texture-pitched"));
}

TEST(CliLessons, RefusesAnUnknownLesson) {
    const Outcome o = bench("--lesson no-such-lesson");
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_THAT(o.output, HasSubstr("no lesson is called 'no-such-lesson'"));
}

TEST(CliLessons, SaysWhatANonRunnableLessonMisses) {
    const Lesson* lesson = find_lesson("device-malloc");
    ASSERT_NE(lesson, nullptr);
    ASSERT_FALSE(lesson->runnable);
    const Outcome o = bench("--lesson device-malloc");
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_THAT(o.output, HasSubstr("does not run this experiment yet"));
    EXPECT_THAT(o.output, HasSubstr(lesson->missing));
}

// A folder of its own per test, removed with it.
class CliLessonFiles : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("coalesce-cli-lessons-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // The runs of `variant` in `record`, by the value of `param`.
    static std::map<long long, const RunResult*> runs_by(const RunRecord& record,
                                                         const std::string& variant,
                                                         const std::string& param) {
        std::map<long long, const RunResult*> out;
        for (const RunResult& r : record.runs)
            if (r.variant == variant && r.params.count(param)) out[r.params.at(param)] = &r;
        return out;
    }

    std::filesystem::path dir_;
};

// Without a CUDA device the lesson's host variants run, one run per value of its sweep, each
// verified and recorded with its parameter; with one, its GPU variants do the same.
TEST_F(CliLessonFiles, ALessonWithASweepRunsOncePerValue) {
    const Lesson* lesson = find_lesson("offset-two-transactions");
    ASSERT_NE(lesson, nullptr);
    ASSERT_EQ(lesson->sweep.size(), 1u);
    const std::vector<long long>& offsets = lesson->sweep[0].values;
    const auto json = dir_ / "offset.json";
    const Outcome o = bench(
        "--lesson offset-two-transactions --sizes 8x64 --reps 1 --warmups 0 "
        "--json '" +
        json.string() + "'");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    const RunRecord record = load_results(json);
    ASSERT_EQ(record.config.sweep.size(), 1u);
    EXPECT_EQ(record.config.sweep[0].values, offsets);
    const bool gpu = record.device.gpu;
    for (const char* variant :
         gpu ? std::vector<const char*>{"offset_read/global", "offset_write/global"}
             : std::vector<const char*>{"offset_read/cpu-naive", "offset_write/cpu-naive"}) {
        const auto runs = runs_by(record, variant, "offset");
        ASSERT_EQ(runs.size(), offsets.size()) << variant;
        for (long long offset : offsets) {
            ASSERT_EQ(runs.count(offset), 1u) << variant << " offset " << offset;
            EXPECT_EQ(runs.at(offset)->status, Status::ok) << variant << " offset " << offset;
            EXPECT_TRUE(runs.at(offset)->verified) << variant << " offset " << offset;
        }
    }
    for (const RunResult& r : record.runs)
        EXPECT_TRUE(r.op == "offset_read" || r.op == "offset_write") << r.variant;
}

TEST_F(CliLessonFiles, ParamReplacesTheLessonsAxisOfThatName) {
    const auto json = dir_ / "gather.json";
    const Outcome o = bench(
        "--lesson granularity-offset --param stride=3,5 --sizes 4x96 --reps 1 "
        "--warmups 0 --cpu --json '" +
        json.string() + "'");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    const RunRecord record = load_results(json);
    const auto runs = runs_by(record, "gather/cpu-naive", "stride");
    ASSERT_EQ(runs.size(), 2u) << o.output;
    EXPECT_EQ(runs.count(3), 1u);
    EXPECT_EQ(runs.count(5), 1u);
}

// A lesson that names an experiment runs it although experiments are left out by default; the
// fixed parameters of its sweep (one value each) reach every run.
TEST_F(CliLessonFiles, ALessonRunsTheExperimentItNamesWithItsFixedParameters) {
    const auto json = dir_ / "smem.json";
    const Outcome o = bench(
        "--lesson shared-rectangular-padding --sizes 32x64 --reps 1 "
        "--warmups 0 --json '" +
        json.string() + "'");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    const RunRecord record = load_results(json);
    bool experiment = false, host = false;
    for (const RunResult& r : record.runs) {
        experiment = experiment || r.variant == "smem_transpose_tile/set-row-read-col-pad1";
        host = host || r.variant == "smem_transpose_tile/cpu-naive";
        EXPECT_EQ(r.params.at("tile_rows"), 16) << r.variant;
        EXPECT_EQ(r.params.at("repeat"), 65) << r.variant;
    }
    EXPECT_TRUE(experiment) << o.output;
    EXPECT_TRUE(host || record.device.gpu) << o.output;
}

TEST(CliLessons, RefusesABadValueForALessonsParameterNamingIt) {
    const Outcome o = bench("--lesson granularity-offset --param stride=0 --sizes 4x64");
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_THAT(o.output, HasSubstr("stride"));
}

TEST(CliLessons, ListsTheSweepOfASweptLesson) {
    const Outcome o = bench("--lessons");
    EXPECT_EQ(o.exit_code, 0) << o.output;
    EXPECT_THAT(o.output, HasSubstr("[offset = 0..32]"));
    EXPECT_THAT(o.output, HasSubstr("stride = 1,2,4,8,32"));
}

TEST(CliLessons, RefusesVariantsOrOperationsBesideALesson) {
    for (const char* extra : {"--variants copy/global", "--ops copy"}) {
        const Outcome o = bench(std::string("--lesson transpose-padding ") + extra);
        EXPECT_EQ(o.exit_code, 2) << extra << ": " << o.output;
        EXPECT_THAT(o.output, HasSubstr("--lesson chooses the variants itself")) << extra;
    }
}

}  // namespace
}  // namespace coalesce
