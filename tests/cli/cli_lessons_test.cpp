// coalesce-bench --lessons and --lesson ID, run as a user runs them: exit status and output.
#include "coalesce/lessons.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <cstdio>
#include <string>

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
    const Lesson* lesson = find_lesson("granularity-offset");
    ASSERT_NE(lesson, nullptr);
    ASSERT_FALSE(lesson->runnable);
    const Outcome o = bench("--lesson granularity-offset");
    EXPECT_EQ(o.exit_code, 2) << o.output;
    EXPECT_THAT(o.output, HasSubstr("does not run this experiment yet"));
    EXPECT_THAT(o.output, HasSubstr(lesson->missing));
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
