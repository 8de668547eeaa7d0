// coalesce-bench --param, run as a user runs it: a parameter it cannot take exits 2 with one line
// naming the parameter; a sweep runs each value once and writes the values into JSON and CSV.
#include "support/temp_dir.hpp"
#include "coalesce/results_io.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Outcome {
    int exit_code = -1;
    std::string err;  // stderr; stdout goes to a file of the test's folder
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

class CliParams : public ::testing::Test {
protected:
    // A parameterized test's name holds a '/': TempDir keeps the folder one level deep, so
    // removing it leaves nothing behind.
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        temp_.emplace(std::string("cli-params-") + info->name());
        dir_ = temp_->path();
    }
    void TearDown() override { temp_.reset(); }

    Outcome bench(const std::string& args) const {
        const std::string command = std::string("'") + COALESCE_BENCH + "' " + args + " 2>&1 >'" +
                                    (dir_ / "stdout.txt").string() + "' </dev/null";
        Outcome o;
        FILE* pipe = ::popen(command.c_str(), "r");
        if (!pipe) return o;
        char buffer[4096];
        std::size_t n = 0;
        while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) o.err.append(buffer, n);
        const int status = ::pclose(pipe);
        if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
        return o;
    }

    std::optional<test::TempDir> temp_;
    fs::path dir_;
};

struct Refusal {
    std::string args;
    std::vector<std::string> message_parts;  // each in the one line on stderr
};

void PrintTo(const Refusal& r, std::ostream* os) { *os << r.args; }

class CliParamRefusal : public CliParams, public ::testing::WithParamInterface<Refusal> {};

TEST_P(CliParamRefusal, ExitsTwoWithOneLineNamingTheParameter) {
    const Outcome o =
        bench(GetParam().args + " --reps 1 --json '" + (dir_ / "r.json").string() + "'");
    EXPECT_EQ(o.exit_code, 2) << o.err;
    // The no-device notice may come first on a machine without a GPU; the refusal is the last line.
    const std::string last = o.err.substr(o.err.rfind('\n', o.err.size() - 2) + 1);
    EXPECT_THAT(o.err.empty() ? "" : last, StartsWith("coalesce-bench: ")) << o.err;
    for (const std::string& part : GetParam().message_parts) EXPECT_THAT(last, HasSubstr(part));
    EXPECT_FALSE(fs::exists(dir_ / "r.json")) << "a refused run wrote results";
}

INSTANTIATE_TEST_SUITE_P(
    Cli, CliParamRefusal,
    ::testing::Values(
        Refusal{"--ops offset_read --param offset=33 --sizes 8x8", {"offset=33", "0..32"}},
        Refusal{"--ops gather --param stride=0 --sizes 8x8", {"stride=0", "1..1024"}},
        Refusal{"--ops gather --param stride=1:2000:500 --sizes 8x8", {"stride=1501"}},
        Refusal{"--ops gather --param warp=3 --sizes 8x8", {"'warp'", "not taken"}},
        Refusal{"--ops transpose --param stride=2 --sizes 8x8", {"'stride'", "not taken"}},
        Refusal{"--ops gather --param stride=64 --sizes 1x37", {"stride=64", "1x37", "buffer"}},
        Refusal{"--ops scatter,offset_read --param stride=2,70 --sizes 64x2,8x8",
                {"scatter at 8x8", "stride=70", "longer than the buffer"}},
        Refusal{"--ops strided_add --param stride=1024 --sizes 33x31", {"stride=1024"}},
        Refusal{"--ops scattered --param span=48 --sizes 64x64", {"span=48", "power of two"}},
        Refusal{"--ops scattered --param span=4096 --sizes 33x65", {"span=4096", "buffer"}},
        Refusal{"--ops scattered --param multiplier=1024 --sizes 33x65", {"multiplier=1024"}},
        Refusal{"--ops gather --param stride=two --sizes 8x8", {"--param", "'stride'"}}));

TEST_F(CliParams, ASweepRunsEachValueAndWritesItIntoJsonAndCsv) {
    const fs::path json_path = dir_ / "r.json", csv = dir_ / "r.csv";
    const Outcome o = bench(
        "--ops gather,scattered,matrix_add --param stride=1,2,8 "
        "--param span=32,0 --sizes 33x65 --reps 2 --warmups 0 --cpu --json '" +
        json_path.string() + "' --csv '" + csv.string() + "'");
    ASSERT_EQ(o.exit_code, 0) << o.err << read_file(dir_ / "stdout.txt");
    const std::string table = read_file(dir_ / "stdout.txt");
    EXPECT_THAT(table, HasSubstr("stride=8"));
    EXPECT_THAT(table, HasSubstr("multiplier=121 span=32"));

    // Host variants everywhere, GPU variants too where there is a device: count per variant.
    const auto j = nlohmann::json::parse(read_file(json_path));
    std::map<std::string, std::vector<nlohmann::json>> params_by_variant;
    for (const auto& r : j.at("runs")) {
        EXPECT_EQ(r.at("status"), "ok") << r.at("variant") << ": " << r.at("error");
        params_by_variant[r.at("variant").get<std::string>()].push_back(r.at("params"));
    }
    using nlohmann::json;
    EXPECT_EQ(params_by_variant["gather/cpu-naive"],
              (std::vector<json>{{{"stride", 1}}, {{"stride", 2}}, {{"stride", 8}}}));
    EXPECT_EQ(params_by_variant["scattered/cpu-naive"],
              (std::vector<json>{{{"multiplier", 121}, {"span", 32}},
                                 {{"multiplier", 121}, {"span", 0}}}));
    EXPECT_EQ(params_by_variant["matrix_add/cpu-naive"], (std::vector<json>{json::object()}));
    EXPECT_EQ(j.at("config").at("sweep").size(), 2u);

    // The CSV carries the same values, run for run.
    const RunRecord from_csv = load_results(csv);
    const RunRecord from_json = load_results(json_path);
    ASSERT_EQ(from_csv.runs.size(), from_json.runs.size());
    for (std::size_t i = 0; i < from_csv.runs.size(); ++i) {
        EXPECT_EQ(from_csv.runs[i].variant, from_json.runs[i].variant);
        EXPECT_EQ(from_csv.runs[i].params, from_json.runs[i].params) << from_csv.runs[i].variant;
    }
    EXPECT_THAT(read_file(csv), HasSubstr("stride=8"));
}

}  // namespace
}  // namespace coalesce
