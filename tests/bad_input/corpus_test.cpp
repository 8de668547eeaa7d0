// Every case of the bad-input corpus ends in a clear message and the documented exit status
// (0 ran and verified, 1 a run or a late save failed, 2 bad usage or input: nothing ran), leaves
// nothing half-written, and stays within its memory and time.
#include "corpus.hpp"

#include "../support/temp_dir.hpp"
#include "coalesce/results_io.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

namespace coalesce::bad_input {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

#ifdef COALESCE_HAVE_OPENCV
constexpr bool kHaveOpenCv = true;
#else
constexpr bool kHaveOpenCv = false;
#endif

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (auto list :
         {argument_cases, output_path_cases, image_cases, matrix_file_cases, results_file_cases})
        for (Case& c : list()) cases.push_back(std::move(c));
    return cases;
}

// Every path below `dir`, relative, without following links.
std::set<std::string> listing(const fs::path& dir) {
    std::set<std::string> names;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec))
        names.insert(it->path().lexically_relative(dir).string());
    return names;
}

bool can_make_devices(const fs::path& dir) {
    const fs::path probe = dir / "device-probe";
    const bool ok = make_device(probe, 1, 3);
    fs::remove(probe);
    return ok;
}

class BadInput : public ::testing::TestWithParam<Case> {};

TEST_P(BadInput, EndsWithAClearMessageAndTheDocumentedStatus) {
    const Case& c = GetParam();
    if (c.needs_opencv && !kHaveOpenCv) GTEST_SKIP() << "coalesce-bench was built without OpenCV";
    test::TempDir temp("bad-input-" + c.name);
    const fs::path dir = temp.path() / "work";
    fs::create_directory(dir);
    if (c.needs_devices && !can_make_devices(dir)) GTEST_SKIP() << "cannot make device nodes here";
    if (c.setup) c.setup(dir);
    const std::set<std::string> before = listing(dir);

    const Outcome o = run_case(c, dir);

    ASSERT_FALSE(o.timed_out) << "still running after " << kChildSeconds << " s";
    ASSERT_EQ(o.signal, 0) << "ended by signal " << o.signal << "\n" << o.err.substr(0, 2000);
    EXPECT_EQ(o.exit_code, c.exit_status)
        << "stderr: " << o.err.substr(0, 2000) << "\nstdout: " << o.out.substr(0, 2000);
    EXPECT_THAT(c.exit_status == 0 ? o.out : o.err, HasSubstr(c.message));

    // Problems are a line each, in the program's own words, quoting little of the input.
    std::istringstream lines(o.err);
    for (std::string line; std::getline(lines, line);)
        EXPECT_LE(line.size(), 600u) << line.substr(0, 700);
    EXPECT_THAT(o.err, Not(HasSubstr("OpenCV(")));
    EXPECT_THAT(o.err, Not(HasSubstr("libpng")));
    EXPECT_THAT(o.err, Not(HasSubstr("[ WARN")));
    if (c.exit_status == 2 && !c.body) {
        EXPECT_EQ(o.out, "") << "bad usage, yet something ran";
    }
    EXPECT_LT(o.max_rss_kib, static_cast<long>(kMemoryLimit >> 10));

    // Nothing half-written: only the declared outputs appear, each complete.
    for (const std::string& name : listing(dir)) {
        if (before.count(name)) continue;
        EXPECT_THAT(c.outputs, ::testing::Contains(name)) << "left behind: " << name;
        EXPECT_THAT(name, Not(HasSubstr(".tmp-")));
    }
    for (const std::string& name : c.outputs) {
        const fs::path file = dir / name;
        const bool results = name.ends_with(".json") || name.ends_with(".csv");
        if (!results || !fs::is_regular_file(file)) continue;
        EXPECT_NO_THROW(load_results(file)) << name << " is not a complete results file";
    }
    if (c.check) c.check(dir, o);
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Corpus, BadInput, ::testing::ValuesIn(all_cases()), case_name);

TEST(BadInputCorpus, HasAtLeast120UniquelyNamedCasesWithMessages) {
    const std::vector<Case> cases = all_cases();
    EXPECT_GE(cases.size(), 120u);
    std::set<std::string> names;
    for (const Case& c : cases) {
        EXPECT_TRUE(names.insert(c.name).second) << "two cases are called " << c.name;
        EXPECT_FALSE(c.message.empty()) << c.name;
        EXPECT_TRUE(c.args.empty() != !c.body) << c.name << ": arguments or a body, not both";
    }
}

}  // namespace
}  // namespace coalesce::bad_input
