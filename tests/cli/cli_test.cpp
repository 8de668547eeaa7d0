// coalesce-bench as a user meets it: the built binary, run with arguments, judged by its exit
// status, its stdout and stderr, and the files it writes.
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/npy.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/results_io.hpp"
#include "coalesce/typed_run.hpp"

#include "support/temp_dir.hpp"

#ifdef COALESCE_HAVE_OPENCV
#include "image_input.hpp"
#endif

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace coalesce {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

struct Outcome {
    int exit_code = -1;  // -1 when it ended by a signal
    std::string out, err;
};

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

std::size_t count_lines(const std::string& text) {
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class CliTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        temp_.emplace(std::string("cli-") + info->test_suite_name() + "-" + info->name());
        dir_ = temp_->path();
    }
    void TearDown() override { temp_.reset(); }

    // Starts coalesce-bench with stdout and stderr going to files in the test's folder.
    pid_t start(const std::vector<std::string>& args) {
        std::vector<std::string> argv_text{COALESCE_BENCH};
        argv_text.insert(argv_text.end(), args.begin(), args.end());
        std::vector<char*> argv;
        for (std::string& a : argv_text) argv.push_back(a.data());
        argv.push_back(nullptr);

        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, out_path().c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, err_path().c_str(),
                                         O_WRONLY | O_CREAT | O_TRUNC, 0644);
        pid_t pid = -1;
        const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        EXPECT_EQ(rc, 0) << "cannot start " << COALESCE_BENCH;
        return pid;
    }

    Outcome finish(pid_t pid) {
        Outcome o;
        int status = 0;
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
        if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
        o.out = read_file(out_path());
        o.err = read_file(err_path());
        return o;
    }

    Outcome run(const std::vector<std::string>& args) { return finish(start(args)); }

    fs::path out_path() const { return dir_ / "stdout.txt"; }
    fs::path err_path() const { return dir_ / "stderr.txt"; }
    std::optional<test::TempDir> temp_;
    fs::path dir_;
};

// ------------------------------------------------------------------------------------------ --list

TEST_F(CliTest, ListShowsEveryBuiltInVariantWithItsOperationSpaceAndOrigin) {
    const Outcome o = run({"--list"});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_THAT(o.out, AllOf(HasSubstr("id"), HasSubstr("operation"), HasSubstr("memory space"),
                             HasSubstr("origin"), HasSubstr("description")));

    Registry registry;
    register_builtin_variants(registry);
    ASSERT_GT(registry.size(), 0u);
    for (const Variant& v : registry.variants()) {
        // One line per variant: its id, then operation, memory space and origin in that order.
        const auto at = o.out.find("\n" + v.info.id + " ");
        ASSERT_NE(at, std::string::npos) << v.info.id;
        const std::string line = o.out.substr(at + 1, o.out.find('\n', at + 1) - at - 1);
        const auto op_at = line.find(" " + std::string(op_name(v.info.op)) + " ");
        const auto space_at = line.find(" " + v.info.memory_space + " ", op_at + 1);
        const auto origin_at = line.find(" " + v.info.origin + " ", space_at + 1);
        EXPECT_NE(op_at, std::string::npos) << line;
        EXPECT_NE(space_at, std::string::npos) << line;
        EXPECT_NE(origin_at, std::string::npos) << line;
        EXPECT_THAT(line, HasSubstr(v.info.description.substr(0, 20)));
    }
    EXPECT_THAT(o.out, HasSubstr("transpose/shared-padded"));
    EXPECT_THAT(o.out, HasSubstr("copy/cpu-naive"));
}

TEST_F(CliTest, RefusedPluginsAreOneLineEachAndTheGoodOnesAreListedWithTheirFile) {
    const Outcome o = run({"--list", "--plugins", COALESCE_TEST_PLUGIN_DIR});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const fs::path plugins =
        fs::weakly_canonical(COALESCE_TEST_PLUGIN_DIR);  // the loader names files canonically
    const fs::path good = plugins / "good_plugin.so";
    EXPECT_THAT(o.out, HasSubstr("copy/test-host-copy"));
    EXPECT_THAT(o.out, HasSubstr(good.string()));  // the origin column names the file
    const std::string refused = "coalesce-bench: plugin refused: ";
    EXPECT_THAT(o.err, HasSubstr(refused + (plugins / "wrong_abi.so").string() + ": "));
    EXPECT_THAT(o.err, HasSubstr(refused + (plugins / "not_a_library.so").string() + ": "));
    std::size_t refusals = 0;
    for (std::size_t at = 0; (at = o.err.find(refused, at)) != std::string::npos;
         at += refused.size())
        ++refusals;
    EXPECT_EQ(count_lines(o.err), refusals) << o.err;
}

// ------------------------------------------------------------------------------------- a real run

TEST_F(CliTest, SmallRunVerifiesEverythingAndWritesJsonAndCsv) {
    const fs::path json = dir_ / "r.json", csv = dir_ / "r.csv";
    const Outcome o = run({"--sizes", "33x65", "--reps", "2", "--warmups", "1", "--radius", "3",
                           "--border", "wrap", "--json", json.string(), "--csv", csv.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;

    EXPECT_THAT(o.out, StartsWith("device: "));
    if (cuda_device_count() == 0) {
        EXPECT_THAT(o.err, HasSubstr("; running CPU variants\n"));
    }
    EXPECT_THAT(o.out, AllOf(HasSubstr("op"), HasSubstr("variant"), HasSubstr("GB/s"),
                             HasSubstr("% of copy")));
    EXPECT_THAT(o.out, Not(HasSubstr("FAILED")));

    const auto j = nlohmann::json::parse(read_file(json));
    EXPECT_EQ(j.at("schema"), kResultsSchema);
    EXPECT_FALSE(j.at("device").at("name").get<std::string>().empty());
    EXPECT_EQ(j.at("config").at("formula"), kBandwidthFormula);
    EXPECT_EQ(j.at("config").at("radius"), 3);
    EXPECT_EQ(j.at("config").at("border"), "wrap");
    EXPECT_EQ(j.at("config").at("warmups"), 1);
    ASSERT_FALSE(j.at("runs").empty());
    std::size_t verified = 0;
    for (const auto& r : j.at("runs")) {
        for (const char* name : {"op", "variant", "memory_space", "rows", "cols", "median_ms",
                                 "min_ms", "max_ms", "gbps", "pct_of_copy", "max_abs_error",
                                 "verified", "status", "error", "copy_gbps", "bytes"})
            ASSERT_TRUE(r.contains(name)) << name;
        EXPECT_EQ(r.at("rows"), 33);
        EXPECT_EQ(r.at("cols"), 65);
        if (r.at("status") == "skipped") continue;
        EXPECT_EQ(r.at("status"), "ok") << r.at("variant") << ": " << r.at("error");
        EXPECT_EQ(r.at("verified"), true) << r.at("variant");
        EXPECT_GT(r.at("median_ms").get<double>(), 0.0);
        EXPECT_THAT(o.out, HasSubstr(r.at("variant").get<std::string>()));
        ++verified;
    }
    EXPECT_GT(verified, 0u);

    // The CSV says the same, row for row, and names the device itself.
    const RunRecord from_csv_file = load_results(csv);
    const RunRecord from_json_file = load_results(json);
    ASSERT_EQ(from_csv_file.runs.size(), from_json_file.runs.size());
    EXPECT_EQ(from_csv_file.device.name, from_json_file.device.name);
    for (std::size_t i = 0; i < from_csv_file.runs.size(); ++i) {
        EXPECT_EQ(from_csv_file.runs[i].variant, from_json_file.runs[i].variant);
        EXPECT_EQ(from_csv_file.runs[i].median_ms, from_json_file.runs[i].median_ms);
        EXPECT_EQ(from_csv_file.runs[i].copy_gbps, from_json_file.runs[i].copy_gbps);
    }
}

TEST_F(CliTest, OpsAndVariantsNarrowTheRun) {
    const fs::path json = dir_ / "r.json";
    const Outcome o =
        run({"--ops", "transpose,row-sums", "--variants", "transpose/cpu-,row_sums/cpu-naive",
             "--sizes", "1x37,37x1", "--reps", "1", "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const RunRecord rec = load_results(json);
    ASSERT_EQ(rec.runs.size(), 6u);  // (2 transposes + 1 row sums) x 2 sizes
    for (const RunResult& r : rec.runs) {
        EXPECT_THAT(r.variant, ::testing::AnyOf(StartsWith("transpose/cpu-"),
                                                ::testing::Eq("row_sums/cpu-naive")));
        EXPECT_TRUE(r.verified) << r.variant << ": " << r.error;
    }
}

// --type: each element type is a run of every chosen variant that takes it; the blocked host
// variants take f32 only, so their u8 runs are skipped, naming the variant and the type, and the
// table and both results files say which type each run had.
TEST_F(CliTest, TypesAreRunsAndSkippedWhereAVariantDoesNotTakeThem) {
    const fs::path json = dir_ / "r.json";
    const fs::path csv = dir_ / "r.csv";
    const Outcome o =
        run({"--ops", "copy", "--variants", "copy/cpu-blocked", "--type", "u8,f32", "--sizes",
             "33x65", "--reps", "1", "--json", json.string(), "--csv", csv.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;  // skipped runs do not fail the run
    EXPECT_THAT(o.out, HasSubstr(" type "));
    EXPECT_THAT(o.out, HasSubstr("copy/cpu-blocked does not take u8 (it takes f32)"));
    for (const RunRecord& rec : {load_results(json), load_results(csv)}) {
        ASSERT_EQ(rec.runs.size(), 2u);
        EXPECT_EQ(rec.runs[0].type, "u8");
        EXPECT_EQ(rec.runs[0].status, Status::skipped);
        EXPECT_EQ(rec.runs[1].type, "f32");
        EXPECT_TRUE(rec.runs[1].verified) << rec.runs[1].error;
    }
    EXPECT_EQ(load_results(json).config.types,
              (std::vector<ElemType>{ElemType::u8, ElemType::f32}));
}

// Bad input: a 16-bit image for a plugin variant that takes 8-bit only is skipped with a line
// naming the variant and the type; nothing crashes and the run still exits 0.
TEST_F(CliTest, AU16RunOfAU8OnlyPluginVariantIsSkippedNamingIt) {
    const Outcome o =
        run({"--plugins", COALESCE_TEST_PLUGIN_DIR, "--variants", "filter_x/test-u8-only", "--type",
             "u16", "--radius", "0", "--sizes", "8x8", "--reps", "1"});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_THAT(o.out, HasSubstr("skipped: filter_x/test-u8-only does not take u16 (it takes u8)"));
}

// --channels 3: colour runs of the six operations on interleaved random data, u8 and u16, each
// verified per channel; the table says u8x3, the results files record the channels.
TEST_F(CliTest, ChannelsRunColourAndTheResultsSaySo) {
    const fs::path json = dir_ / "r.json";
    const fs::path csv = dir_ / "r.csv";
    const Outcome o = run({"--variants",
                           "copy/cpu-naive,transpose/cpu-naive,row_sums/cpu-naive,col_sums/"
                           "cpu-naive,filter_x/cpu-naive,filter_y/cpu-naive",
                           "--type", "u8,u16", "--channels", "3", "--sizes", "33x65", "--reps", "1",
                           "--json", json.string(), "--csv", csv.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_THAT(o.out, HasSubstr(" u8x3 "));
    EXPECT_THAT(o.out, HasSubstr(" u16x3 "));
    for (const RunRecord& rec : {load_results(json), load_results(csv)}) {
        ASSERT_EQ(rec.runs.size(), 12u);
        EXPECT_EQ(rec.config.channels, 3);
        for (const RunResult& r : rec.runs) {
            EXPECT_EQ(r.channels, 3) << r.variant;
            EXPECT_TRUE(r.verified) << r.variant << ": " << r.error;
        }
    }
}

TEST_F(CliTest, F32OnlyTablesHaveNoTypeColumn) {
    const Outcome o = run({"--variants", "copy/cpu-naive", "--sizes", "8x8", "--reps", "1"});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_THAT(o.out, Not(HasSubstr(" type ")));
}

TEST_F(CliTest, HelpAndVersionExitZero) {
    const Outcome help = run({"--help"});
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_THAT(help.out, AllOf(HasSubstr("--sizes"), HasSubstr("--type"), HasSubstr("--json"),
                                HasSubstr("Exit status"), HasSubstr("--save-output DIR"),
                                HasSubstr("input__8192x8192__seed42.npy")));
    const Outcome version = run({"--version"});
    EXPECT_EQ(version.exit_code, 0);
    EXPECT_THAT(version.out, HasSubstr("coalesce-bench "));
}

// The first Ctrl-C stops the run; what ran is printed and saved.
TEST_F(CliTest, InterruptCancelsTheRestPrintsWhatRanAndExitsOne) {
    const fs::path json = dir_ / "r.json";
    // Host variants at this size take a second or more each: the run is still going when the signal
    // comes.
    const pid_t pid = start({"--cpu", "--ops", "filter_x,filter_y,transpose", "--sizes",
                             "2048x2048", "--reps", "1", "--json", json.string()});
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (read_file(err_path()).find("] ") == std::string::npos &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    const Outcome o = finish(pid);

    ASSERT_EQ(o.exit_code, 1) << o.err;
    EXPECT_THAT(o.err, HasSubstr("cancelled"));
    EXPECT_THAT(o.out, HasSubstr("cancelled"));
    const RunRecord rec = load_results(json);
    EXPECT_TRUE(rec.cancelled);
    EXPECT_TRUE(std::any_of(rec.runs.begin(), rec.runs.end(),
                            [](const RunResult& r) { return r.status == Status::cancelled; }));
}

// A variant whose launch fails is a failed run: exit 1, the reason in the table.
TEST_F(CliTest, AFailedRunExitsOne) {
    if (cuda_device_count() == 0)
        GTEST_SKIP() << "plugin variants run only on a GPU: " << no_device_reason();
    const Outcome o = run({"--plugins", COALESCE_TEST_PLUGIN_DIR, "--variants",
                           "copy/test-launch-fails", "--sizes", "8x8", "--reps", "1"});
    EXPECT_EQ(o.exit_code, 1) << o.err;
    EXPECT_THAT(o.out, HasSubstr("FAILED: "));
    EXPECT_THAT(o.out, HasSubstr("launch refused on purpose"));
}

// --------------------------------------------------------------------------------------- bad input

struct BadInput {
    std::vector<std::string> args;
    std::string message;  // part of the one line on stderr
};

// Failure messages show the arguments, not the struct's bytes.
void PrintTo(const BadInput& bad, std::ostream* os) {
    for (const std::string& a : bad.args) *os << a << ' ';
    *os << "-> \"" << bad.message << '"';
}

class CliBadInput : public CliTest, public ::testing::WithParamInterface<BadInput> {};

TEST_P(CliBadInput, ExitsTwoWithOneLineAndRunsNothing) {
    std::vector<std::string> args = GetParam().args;
    for (std::string& a : args)
        if (a.rfind("@DIR@", 0) == 0) a = (dir_ / a.substr(5)).string();
    std::ofstream(dir_ / "notes.txt") << "not an image\n";
    fs::create_directory(dir_ / "folder");
    ::mkfifo((dir_ / "pipe.png").c_str(), 0666);

    // Parameterized tests have '/' in their names: the folder must still be one level deep, or
    // removing it leaves its parent behind in the temporary folder.
    EXPECT_EQ(dir_.parent_path(), fs::temp_directory_path());

    const Outcome o = run(args);
    EXPECT_EQ(o.exit_code, 2) << o.out << o.err;
    EXPECT_THAT(o.err, StartsWith("coalesce-bench: "));
    EXPECT_THAT(o.err, HasSubstr(GetParam().message));
    EXPECT_EQ(count_lines(o.err), 1u) << o.err;
    EXPECT_EQ(o.out, "");  // nothing ran, not even the device line
    EXPECT_FALSE(fs::exists(dir_ / "r.json"));
}

const std::string kRadiusTooLarge = std::to_string(kMaxRadius + 1);

std::vector<BadInput> bad_inputs() {
    return {
        BadInput{{"--ops", "blur"}, "--ops: unknown operation 'blur'"},
        BadInput{{"--ops", "copy,bl ur"}, "--ops: unknown operation 'bl ur'"},
        BadInput{{"--variants", "transpose/nonexistent"},
                 "--variants: no variant is called or starts with 'transpose/nonexistent'"},
        BadInput{{"--ops", "copy", "--variants", "transpose/"}, "no variant matches"},
        BadInput{{"--sizes", "0x5"}, "--sizes: bad size '0x5'"},
        BadInput{{"--sizes", "5x0"}, "--sizes: bad size '5x0'"},
        BadInput{{"--sizes", "-3x5"}, "--sizes: bad size '-3x5'"},
        BadInput{{"--sizes", "12"}, "--sizes: bad size '12'"},
        BadInput{{"--sizes", "4x4,x9"}, "--sizes: bad size 'x9'"},
        BadInput{{"--sizes", "1.5x2"}, "--sizes: bad size '1.5x2'"},
        BadInput{{"--sizes", "100000x100000", "--reps", "1"},
                 "needs about"},  // larger than any machine here
        BadInput{{"--radius", "-1"}, "--radius -1: must be between 0 and"},
        BadInput{{"--radius", kRadiusTooLarge},
                 "--radius " + kRadiusTooLarge + ": must be between 0 and"},
        BadInput{{"--radius", "wide"}, "--radius"},
        BadInput{{"--border", "bounce"}, "--border: unknown mode 'bounce'"},
        BadInput{{"--reps", "0"}, "--reps 0: must be between 1 and 1000"},
        BadInput{{"--reps", "2147483647"}, "--reps 2147483647: must be between 1 and 1000"},
        BadInput{{"--warmups", "-2"}, "--warmups -2: must be between 0 and 100"},
        BadInput{{"--warmups", "2147483647"}, "--warmups 2147483647: must be between 0 and 100"},
        BadInput{{"--seed", "-1"},
                 "--seed -1: must be a whole number from 0 to 18446744073709551615"},
        BadInput{{"--ops", "copy,,transpose"}, "--ops: unknown operation ''"},
        BadInput{{"--sizes", "4x4", "--json", ""}, "--json: the file name is empty"},
        BadInput{{"--sizes", "4x4", "--json", "@DIR@r.out", "--csv", "@DIR@r.out"},
                 "--json and --csv name the same file"},
        BadInput{{"--type", "u32"}, "--type: unknown element type 'u32' (u8, u16 or f32)"},
        BadInput{{"--type", "u8,,f32"}, "--type: unknown element type '' (u8, u16 or f32)"},
        BadInput{{"--type", "u8", "--ops", "copy,gather"},
                 "--type u8: gather takes f32 only (u8 runs copy, transpose, row_sums, col_sums, "
                 "filter_x and filter_y)"},
        BadInput{{"--type", "u16", "--convert", "values"},
                 "--convert values: converts an --input image; random inputs are made in each "
                 "type"},
        BadInput{{"--channels", "2", "--type", "u8"},
                 "--channels 2: an image has 1, 3 or 4 channels"},
        BadInput{{"--channels", "3"},
                 "--channels 3: colour runs u8 and u16; name them with --type u8, u16 or u8,u16 "
                 "(f32 runs take one channel)"},
        BadInput{{"--channels", "4", "--type", "u8,f32"},
                 "--channels 4: f32 runs take one channel (a float32 matrix); colour runs u8 and "
                 "u16, so leave f32 out of --type"},
        BadInput{{"--convert", "stretch", "--input", "@DIR@notes.txt"},
                 "--convert: unknown conversion 'stretch' (values or scale)"},
        BadInput{{"--device", "99"}, "--device 99: "},
        BadInput{{"--device", "-1"}, "--device -1: "},
#ifdef COALESCE_HAVE_OPENCV
        BadInput{{"--input", "@DIR@missing.png"}, "--input: '"},
        BadInput{{"--input", "@DIR@missing.png"}, "missing.png': no such file"},
        BadInput{{"--input", "@DIR@folder"}, "is a folder"},
        BadInput{{"--input", "@DIR@notes.txt"}, "notes.txt': is not an image this program reads"},
        BadInput{{"--input", "@DIR@pipe.png"}, "pipe.png': is a named pipe, not a regular file"},
#else
        BadInput{{"--input", "@DIR@notes.txt"}, "built without OpenCV"},
#endif
        BadInput{{"--input", "@DIR@notes.txt", "--sizes", "4x4"}, "excludes"},
        BadInput{{"--sizes", "4x4", "--json", "@DIR@no-such-folder/r.json"}, "--json /"},
        BadInput{{"--sizes", "4x4", "--json", "@DIR@no-such-folder/r.json"},
                 "no-such-folder' does not exist"},
        BadInput{{"--sizes", "4x4", "--csv", "@DIR@folder"}, "is a folder"},
        BadInput{{"--sizes", "4x4", "--csv", "@DIR@notes.txt/r.csv"}, "is not a folder"},
        BadInput{{"--sizes", "4x4", "--save-output", ""},
                 "--save-output: the folder name is empty"},
        BadInput{{"--sizes", "4x4", "--save-output", "@DIR@notes.txt/out"}, "notes.txt/out: '"},
        BadInput{{"--sizes", "4x4", "--save-output", "@DIR@notes.txt/out"},
                 "notes.txt' is not a folder"},
        BadInput{{"--sizes", "4x4", "--save-output", "@DIR@notes.txt"}, "is not a folder"},
        BadInput{{"--sizes", "4x4", "--save-output", "/proc/coalesce-no-such/out"},
                 "--save-output /proc/coalesce-no-such/out: cannot make the folder ("},
        BadInput{{"--sizes", "4x4", "--ops", "blur", "--save-output", "@DIR@out"},
                 "--ops: unknown operation 'blur'"},
        BadInput{{"--plugins", "@DIR@no-such-folder"}, "--plugins"},
        BadInput{{"--frobnicate"}, "--frobnicate"},
        BadInput{{"stray"}, "stray"}};
}

INSTANTIATE_TEST_SUITE_P(Cli, CliBadInput, ::testing::ValuesIn(bad_inputs()));

// ------------------------------------------------------------------------------- --save-output

// The raw header as numpy.lib.format specifies version 1.0, read without the engine's parser.
void expect_npy_header(const fs::path& path, Shape shape) {
    const std::string bytes = read_file(path);
    ASSERT_GE(bytes.size(), 10u) << path;
    EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8)) << path;
    const std::size_t length =
        static_cast<unsigned char>(bytes[8]) + 256u * static_cast<unsigned char>(bytes[9]);
    ASSERT_LE(10 + length, bytes.size()) << path;
    EXPECT_EQ((10 + length) % 64, 0u) << path;
    const std::string dict = bytes.substr(10, length);
    EXPECT_EQ(dict.back(), '\n');
    EXPECT_THAT(dict, AllOf(StartsWith("{"), HasSubstr("'descr': '<f4'"),
                            HasSubstr("'fortran_order': False"),
                            HasSubstr("'shape': (" + std::to_string(shape.rows) + ", " +
                                      std::to_string(shape.cols) + ")")));
    EXPECT_EQ(bytes.size(), 10 + length + shape.elements() * sizeof(float)) << path;
}

void expect_same_bits(const Matrix& got, const Matrix& want, const std::string& what) {
    ASSERT_EQ(got.shape(), want.shape()) << what;
    for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_EQ(std::bit_cast<std::uint32_t>(got.data()[i]),
                  std::bit_cast<std::uint32_t>(want.data()[i]))
            << what << " element " << i;
}

std::vector<std::string> file_names(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir)) names.push_back(entry.path().filename());
    std::sort(names.begin(), names.end());
    return names;
}

TEST_F(CliTest, SaveOutputWritesEachVerifiedOutputAndEachInputAsNpy) {
    const fs::path out = dir_ / "made" / "by" / "it";  // missing folders are made
    const fs::path json = dir_ / "r.json";
    const Outcome o =
        run({"--variants", "copy/cpu-naive,transpose/cpu-naive", "--sizes", "7x5,1x3", "--reps",
             "1", "--seed", "9", "--save-output", out.string(), "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_THAT(o.err, HasSubstr("saved 6 .npy file(s) to " + out.string()));
    EXPECT_THAT(
        file_names(out),
        ::testing::ElementsAre("copy__cpu-naive__1x3.npy", "copy__cpu-naive__7x5.npy",
                               "input__1x3__seed9.npy", "input__7x5__seed9.npy",
                               "transpose__cpu-naive__1x3.npy", "transpose__cpu-naive__7x5.npy"));
    for (const Shape shape : {Shape{7, 5}, Shape{1, 3}}) {
        const std::string size = std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
        const Matrix input = Matrix::random(shape.rows, shape.cols, 9);
        expect_npy_header(out / ("input__" + size + "__seed9.npy"), shape);
        expect_npy_header(out / ("copy__cpu-naive__" + size + ".npy"), shape);
        expect_npy_header(out / ("transpose__cpu-naive__" + size + ".npy"),
                          Shape{shape.cols, shape.rows});
        expect_same_bits(read_npy(out / ("input__" + size + "__seed9.npy")), input, "input");
        for (Op op : {Op::copy, Op::transpose}) {
            const std::string name = std::string(op_name(op)) + "__cpu-naive__" + size + ".npy";
            expect_same_bits(read_npy(out / name), cpu_reference(op, input, {}).value, name);
        }
    }
    EXPECT_EQ(load_results(json).runs.size(), 4u);
}

TEST_F(CliTest, SaveOutputWritesU8RunsInTheirOwnTypes) {
    const fs::path out = dir_ / "out";
    const Outcome o =
        run({"--variants", "transpose/cpu-naive,row_sums/cpu-naive", "--type", "u8", "--sizes",
             "7x5", "--reps", "1", "--seed", "3", "--save-output", out.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_THAT(file_names(out), ::testing::ElementsAre("input__7x5__u8__seed3.npy",
                                                        "row_sums__cpu-naive__7x5__u8.npy",
                                                        "transpose__cpu-naive__7x5__u8.npy"));
    const AnyImage input = typed::random_input(ElemType::u8, Shape{7, 5}, 3);
    const auto expect_file = [&](const std::string& name, const AnyImage& want) {
        const std::string bytes = read_file(out / name);
        const NpyHeader h = parse_npy_header(bytes);
        EXPECT_EQ(h.descr, npy_descr(want)) << name;
        std::visit(
            [&](const auto& i) {
                EXPECT_EQ(h.shape, (std::vector<std::size_t>{i.rows(), i.cols()})) << name;
                const std::size_t n = i.size() * sizeof(i.data()[0]);
                ASSERT_EQ(bytes.size(), h.data_offset + n) << name;
                EXPECT_EQ(std::memcmp(bytes.data() + h.data_offset, i.data(), n), 0) << name;
            },
            want);
    };
    expect_file("input__7x5__u8__seed3.npy", input);
    expect_file("transpose__cpu-naive__7x5__u8.npy", typed::reference(Op::transpose, input, {}));
    expect_file("row_sums__cpu-naive__7x5__u8.npy", typed::reference(Op::row_sums, input, {}));
}

// --save-output keeps a colour run's channels: (rows, cols, channels), "u8x3" in the names.
TEST_F(CliTest, SaveOutputWritesColourAsRowsColsChannels) {
    const fs::path out = dir_ / "out";
    const Outcome o =
        run({"--variants", "transpose/cpu-naive", "--type", "u8", "--channels", "4", "--sizes",
             "7x5", "--reps", "1", "--seed", "3", "--save-output", out.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_THAT(file_names(out), ::testing::ElementsAre("input__7x5__u8x4__seed3.npy",
                                                        "transpose__cpu-naive__7x5__u8x4.npy"));
    const AnyImage input = typed::random_input(ElemType::u8, Shape{7, 5}, 3, 4);
    const AnyImage want = typed::reference(Op::transpose, input, {});
    const std::string bytes = read_file(out / "transpose__cpu-naive__7x5__u8x4.npy");
    const NpyHeader h = parse_npy_header(bytes);
    EXPECT_EQ(h.shape, (std::vector<std::size_t>{5, 7, 4}));
    const auto& t = std::get<TypedImage<std::uint8_t>>(want);
    ASSERT_EQ(bytes.size(), h.data_offset + t.size());
    EXPECT_EQ(std::memcmp(bytes.data() + h.data_offset, t.data(), t.size()), 0);
}

TEST_F(CliTest, SaveOutputNamesCarryTheFilterAndSweptParameters) {
    const fs::path out = dir_ / "out";
    const Outcome o = run({"--variants", "filter_y/cpu-naive,gather/cpu-naive", "--param",
                           "stride=1,2", "--radius", "2", "--border", "wrap", "--sizes", "7x5",
                           "--reps", "1", "--save-output", out.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_THAT(file_names(out), ::testing::ElementsAre("filter_y__cpu-naive__7x5__r2-wrap.npy",
                                                        "gather__cpu-naive__7x5__stride1.npy",
                                                        "gather__cpu-naive__7x5__stride2.npy",
                                                        "input__7x5__seed42.npy"));
    OpParams filter{2, Border::wrap};
    const Reference ref = cpu_reference(Op::filter_y, Matrix::random(7, 5, 42), filter);
    const Matrix got = read_npy(out / "filter_y__cpu-naive__7x5__r2-wrap.npy");
    EXPECT_TRUE(verify(Op::filter_y, ref, got).ok);
}

// A write that fails once the runs are under way loses neither the runs nor the results file.
TEST_F(CliTest, SaveOutputFailingAfterTheRunsStartedKeepsTheJsonAndExitsOne) {
    const fs::path out = dir_ / "out";
    const fs::path json = dir_ / "r.json";
    fs::create_directories(out / "transpose__cpu-naive__7x5.npy" / "in-the-way");
    const Outcome o = run({"--variants", "copy/cpu-naive,transpose/cpu-naive", "--sizes", "7x5",
                           "--reps", "1", "--save-output", out.string(), "--json", json.string()});
    EXPECT_EQ(o.exit_code, 1) << o.out << o.err;
    EXPECT_THAT(o.err, HasSubstr("coalesce-bench: --save-output: cannot write '" +
                                 (out / "transpose__cpu-naive__7x5.npy").string() + "': "));
    EXPECT_THAT(o.err, HasSubstr("2 file(s) were saved"));
    const RunRecord rec = load_results(json);
    ASSERT_EQ(rec.runs.size(), 2u);
    EXPECT_TRUE(rec.all_verified());
    EXPECT_THAT(file_names(out),
                ::testing::ElementsAre("copy__cpu-naive__7x5.npy", "input__7x5__seed42.npy",
                                       "transpose__cpu-naive__7x5.npy"));
}

TEST_F(CliTest, SaveOutputRefusesAFolderItCannotWriteBeforeRunning) {
    if (::geteuid() == 0) GTEST_SKIP() << "root writes anywhere; permissions cannot refuse it";
    fs::create_directory(dir_ / "locked");
    fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    for (const fs::path& out : {dir_ / "locked", dir_ / "locked" / "new"}) {
        const Outcome o = run({"--sizes", "4x4", "--save-output", out.string()});
        EXPECT_EQ(o.exit_code, 2);
        EXPECT_THAT(o.err, HasSubstr("--save-output " + out.string() + ": "));
        EXPECT_THAT(o.err, HasSubstr("Permission denied"));
        EXPECT_EQ(o.out, "");
    }
}

TEST_F(CliTest, UnwritableFolderIsRefusedBeforeRunning) {
    if (::geteuid() == 0) GTEST_SKIP() << "root writes anywhere; permissions cannot refuse it";
    fs::create_directory(dir_ / "locked");
    fs::permissions(dir_ / "locked", fs::perms::owner_read | fs::perms::owner_exec);
    const Outcome o = run({"--sizes", "4x4", "--json", (dir_ / "locked" / "r.json").string()});
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_THAT(o.err, HasSubstr("does not take new files"));
    EXPECT_EQ(o.out, "");
}

// ------------------------------------------------------------------------------------------ images

// Netpbm files are simple enough to write by hand and every OpenCV build reads them. (Unused where
// the tests that read images skip: built without OpenCV.)
[[maybe_unused]] void write_pgm(const fs::path& path, int cols, int rows, int maxval,
                                const std::vector<int>& pixels) {
    std::ofstream out(path, std::ios::binary);
    out << "P5\n" << cols << ' ' << rows << '\n' << maxval << '\n';
    for (int p : pixels) {
        if (maxval > 255) out.put(static_cast<char>(p >> 8));  // 16-bit samples are big-endian
        out.put(static_cast<char>(p & 0xFF));
    }
}

TEST_F(CliTest, RunsOnAnImageOfItsOwnShape) {
#ifndef COALESCE_HAVE_OPENCV
    GTEST_SKIP() << "built without OpenCV";
#else
    write_pgm(dir_ / "in.pgm", 7, 5, 255, std::vector<int>(35, 200));
    const fs::path json = dir_ / "r.json";
    const Outcome o = run({"--input", (dir_ / "in.pgm").string(), "--ops", "copy,filter_y",
                           "--reps", "1", "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    const RunRecord rec = load_results(json);
    ASSERT_FALSE(rec.runs.empty());
    for (const RunResult& r : rec.runs) {
        EXPECT_EQ(r.rows, 5u);
        EXPECT_EQ(r.cols, 7u);
    }
#endif
}

#ifdef COALESCE_HAVE_OPENCV
TEST_F(CliTest, ImagesKeepTheirOwnScaleAndColourBecomesLuminance) {
    write_pgm(dir_ / "8.pgm", 2, 1, 255, {0, 200});
    const Matrix eight = *cli::load_input_image(dir_ / "8.pgm").matrix;
    ASSERT_EQ(eight.shape(), (Shape{1, 2}));
    EXPECT_EQ(eight.at(0, 0), 0.0f);
    EXPECT_EQ(eight.at(0, 1), 200.0f);

    write_pgm(dir_ / "16.pgm", 1, 2, 65535, {40000, 65535});
    const Matrix sixteen = *cli::load_input_image(dir_ / "16.pgm").matrix;
    ASSERT_EQ(sixteen.shape(), (Shape{2, 1}));
    EXPECT_EQ(sixteen.at(0, 0), 40000.0f);
    EXPECT_EQ(sixteen.at(1, 0), 65535.0f);

    std::ofstream ppm(dir_ / "rgb.ppm", std::ios::binary);  // one pixel, R=100 G=50 B=200
    ppm << "P6\n1 1\n255\n"
        << static_cast<char>(100) << static_cast<char>(50) << static_cast<char>(200);
    ppm.close();
    const cli::InputImage colour = cli::load_input_image(dir_ / "rgb.ppm");
    EXPECT_NEAR(colour.matrix->at(0, 0), 0.299f * 100 + 0.587f * 50 + 0.114f * 200, 0.01f);
    EXPECT_THAT(colour.description, HasSubstr("3 channels (RGB)"));

    std::ofstream(dir_ / "text.png") << "not a png";
    EXPECT_THROW(cli::load_input_image(dir_ / "text.png"), std::runtime_error);
}

// --channels 3 with --input keeps a colour image's channels (as stored, B G R) instead of its
// luminance; a grey image, or another channel count, is refused naming the file.
TEST_F(CliTest, ChannelsKeepAColourInputsChannels) {
    std::ofstream ppm(dir_ / "rgb.ppm", std::ios::binary);  // 3 x 2 pixels
    ppm << "P6\n3 2\n255\n";
    for (int i = 0; i < 18; ++i) ppm << static_cast<char>(i * 13);
    ppm.close();
    const fs::path json = dir_ / "r.json";
    Outcome o = run({"--input", (dir_ / "rgb.ppm").string(), "--channels", "3", "--variants",
                     "copy/cpu-naive,filter_x/cpu-naive", "--reps", "1", "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.out << o.err;
    EXPECT_THAT(o.out, HasSubstr(" u8x3 "));
    const RunRecord rec = load_results(json);
    ASSERT_EQ(rec.runs.size(), 2u);
    for (const RunResult& r : rec.runs) {
        EXPECT_EQ(r.channels, 3);
        EXPECT_EQ(r.rows, 2u);
        EXPECT_EQ(r.cols, 3u);
        EXPECT_TRUE(r.verified) << r.error;
    }
    o = run({"--input", (dir_ / "rgb.ppm").string(), "--channels", "4", "--ops", "copy"});
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_THAT(o.err, HasSubstr("--channels 4: '"));
    EXPECT_THAT(o.err, HasSubstr("has 3 channels"));
    write_pgm(dir_ / "grey.pgm", 3, 2, 255, std::vector<int>(6, 9));
    o = run({"--input", (dir_ / "grey.pgm").string(), "--channels", "3", "--ops", "copy"});
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_THAT(o.err, HasSubstr("colour runs take an 8 or 16-bit image of 3 or 4 channels"));
}

// --input keeps the file's element type: an 8-bit image runs as u8, a 16-bit one as u16.
TEST_F(CliTest, AnInputKeepsItsTypeUnlessTypeSaysOtherwise) {
    write_pgm(dir_ / "8.pgm", 7, 5, 255, std::vector<int>(35, 200));
    const fs::path json = dir_ / "r.json";
    Outcome o = run({"--input", (dir_ / "8.pgm").string(), "--ops", "copy", "--reps", "1", "--json",
                     json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    RunRecord rec = load_results(json);
    EXPECT_EQ(rec.config.types, (std::vector<ElemType>{ElemType::u8}));
    ASSERT_FALSE(rec.runs.empty());
    for (const RunResult& r : rec.runs) {
        EXPECT_EQ(r.type, "u8");
        EXPECT_EQ(r.rows, 5u);
        // a variant that takes u8 verifies; the host variants take f32 only and say so
        if (r.status == Status::skipped) {
            EXPECT_THAT(r.error, HasSubstr("does not take u8"));
        }
    }

    // --type f32: the values, no --convert needed
    o = run({"--input", (dir_ / "8.pgm").string(), "--type", "f32", "--ops", "copy", "--reps", "1",
             "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    rec = load_results(json);
    for (const RunResult& r : rec.runs) {
        EXPECT_EQ(r.type, "f32");
        EXPECT_EQ(r.status, Status::ok) << r.error;
    }

    // --type u16 needs --convert; with it, both types run
    o = run({"--input", (dir_ / "8.pgm").string(), "--type", "u8,u16", "--ops", "copy"});
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_THAT(o.err, HasSubstr("--type u16: '"));
    EXPECT_THAT(o.err, HasSubstr("8.pgm' is u8 (PGM"));
    EXPECT_THAT(o.err, HasSubstr("needs --convert values"));
    o = run({"--input", (dir_ / "8.pgm").string(), "--type", "u8,u16", "--convert", "scale",
             "--ops", "copy", "--reps", "1", "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    rec = load_results(json);
    EXPECT_EQ(rec.config.conversion, Conversion::scale);
    EXPECT_EQ(rec.config.types, (std::vector<ElemType>{ElemType::u8, ElemType::u16}));
}

// A 16-bit image asked to run as u8: refused without --convert, refused by --convert values when
// a value does not fit (named), run by --convert scale.
TEST_F(CliTest, A16BitInputRunsAsU8OnlyWithAConversion) {
    write_pgm(dir_ / "16.pgm", 2, 1, 65535, {40000, 255});
    const std::string input = (dir_ / "16.pgm").string();
    Outcome o = run({"--input", input, "--type", "u8", "--ops", "copy"});
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_THAT(o.err, HasSubstr("16.pgm' is u16"));
    EXPECT_THAT(o.err, HasSubstr("running it as u8 needs --convert values"));
    EXPECT_EQ(o.out, "");
    o = run({"--input", input, "--type", "u8", "--convert", "values", "--ops", "copy"});
    EXPECT_NE(o.exit_code, 0);
    EXPECT_THAT(o.err, HasSubstr("value 40000 at row 0, column 0 is not within 0..255"));
    o = run(
        {"--input", input, "--type", "u8", "--convert", "scale", "--ops", "copy", "--reps", "1"});
    EXPECT_EQ(o.exit_code, 0) << o.err;
    // --save-output keeps the image's own type: its 16-bit values, input and output.
    o = run({"--input", input, "--ops", "copy", "--reps", "1", "--save-output",
             (dir_ / "out").string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    for (const std::string name :
         {"input__1x2__u16__16.pgm.npy", "copy__cpu-naive__1x2__u16.npy"}) {
        const std::string bytes = read_file(dir_ / "out" / name);
        const NpyHeader h = parse_npy_header(bytes);
        EXPECT_EQ(h.descr, "<u2") << name;
        ASSERT_EQ(bytes.size(), h.data_offset + 4) << name;
        std::uint16_t values[2];
        std::memcpy(values, bytes.data() + h.data_offset, sizeof values);
        EXPECT_EQ(values[0], 40000) << name;
        EXPECT_EQ(values[1], 255) << name;
    }
}

// Operations that take f32 only run an 8-bit image on the float path when named alone; beside
// the six matrix operations they need --type f32.
TEST_F(CliTest, F32OnlyOperationsRunAnInputAsF32) {
    write_pgm(dir_ / "8.pgm", 8, 4, 255, std::vector<int>(32, 9));
    const std::string input = (dir_ / "8.pgm").string();
    const fs::path json = dir_ / "r.json";
    Outcome o = run({"--input", input, "--ops", "gather", "--variants", "gather/cpu-naive",
                     "--reps", "1", "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    for (const RunResult& r : load_results(json).runs) EXPECT_EQ(r.type, "f32");
    o = run({"--input", input, "--ops", "copy,gather"});
    EXPECT_EQ(o.exit_code, 2);
    EXPECT_THAT(o.err, HasSubstr("8.pgm' is u8, and gather takes f32 only: name it alone, or add "
                                 "--type f32"));
}

TEST_F(CliTest, TypedLoadKeepsTheFilesDepth) {
    write_pgm(dir_ / "8.pgm", 2, 1, 255, {0, 200});
    const cli::InputImage eight = cli::load_input_image(dir_ / "8.pgm");
    EXPECT_EQ(eight.type, ElemType::u8);
    ASSERT_TRUE(eight.typed);
    EXPECT_EQ(std::get<TypedImage<std::uint8_t>>(*eight.typed).at(0, 1), 200);
    write_pgm(dir_ / "16.pgm", 1, 1, 65535, {40000});
    const cli::InputImage sixteen = cli::load_input_image(dir_ / "16.pgm");
    EXPECT_EQ(sixteen.type, ElemType::u16);
    EXPECT_EQ(std::get<TypedImage<std::uint16_t>>(*sixteen.typed).at(0, 0), 40000);
}

// The window opens OpenCV matrix files; so does the CLI, through the same loader.
TEST_F(CliTest, RunsOnAnOpenCvYamlMatrix) {
    std::ofstream(dir_ / "m.yml") << "%YAML:1.0\n---\nm: !!opencv-matrix\n   rows: 2\n   cols: 3\n"
                                     "   dt: f\n   data: [ 1, 2, 3, 4, 5, 6 ]\n";
    const fs::path json = dir_ / "r.json";
    const Outcome o = run({"--input", (dir_ / "m.yml").string(), "--variants", "copy/cpu-naive",
                           "--reps", "1", "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_THAT(o.out, HasSubstr("(OpenCV matrix file, 32-bit float, 1 channel, 2x3)"));
    EXPECT_EQ(load_results(json).runs.at(0).cols, 3u);
    EXPECT_EQ(load_results(json).config.input_file, (dir_ / "m.yml").string());
}
#endif

// ------------------------------------------------------------------------------------ --counters

// Without a GPU there is nothing to profile: the run and its exit status are as without
// --counters, stderr says why there are no counters, and every run says it in the results.
TEST_F(CliTest, CountersWithoutAGpuSayWhyThereAreNone) {
    if (cuda_device_count() > 0) GTEST_SKIP() << "this machine has a CUDA device";
    const fs::path json = dir_ / "r.json";
    const Outcome o = run({"--ops", "copy", "--sizes", "16x16", "--reps", "1", "--counters",
                           "--json", json.string()});
    ASSERT_EQ(o.exit_code, 0) << o.err;
    EXPECT_THAT(o.err, HasSubstr("coalesce-bench: counters: none: no CUDA device"));
    EXPECT_THAT(o.err, HasSubstr("hardware counters need GPU runs"));
    EXPECT_THAT(o.out, HasSubstr("no counters for 2 runs: host variant"));
    EXPECT_THAT(o.out, Not(HasSubstr("DRAM/model")));  // no column of dashes
    const RunRecord rec = load_results(json);
    ASSERT_EQ(rec.runs.size(), 2u);
    for (const RunResult& r : rec.runs) {
        EXPECT_FALSE(r.counters.has_value());
        EXPECT_THAT(r.counters_status, StartsWith("host variant")) << r.variant;
    }
    // A GPU variant asked for by name is skipped here, and so not profiled.
    const Outcome named = run({"--variants", "copy/global", "--sizes", "16x16", "--counters"});
    ASSERT_EQ(named.exit_code, 0) << named.err;
    EXPECT_THAT(named.out, HasSubstr("no counters for 1 run: not profiled: the run was skipped"));
}

TEST_F(CliTest, CountersOptionsAreDocumentedAndTheChildModeIsNot) {
    const Outcome help = run({"--help"});
    EXPECT_THAT(help.out, AllOf(HasSubstr("--counters"), HasSubstr("--ncu")));
    EXPECT_THAT(help.out, Not(HasSubstr("--profile-plan")));
    const Outcome bad = run({"--profile-plan", (dir_ / "missing.json").string()});
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_THAT(bad.err, HasSubstr("--profile-plan: cannot read"));
}

}  // namespace
}  // namespace coalesce
