// Results files: JSON and CSV round trips keep every field, awkward strings survive, and damaged
// or foreign files are refused with a reason that names what is wrong.
#include "coalesce/results_io.hpp"

#include "support/temp_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace coalesce {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

RunResult sample_run(std::string variant, Status status) {
    RunResult r;
    r.op = "transpose";
    r.variant = std::move(variant);
    r.memory_space = space::shared;
    r.origin = "built-in";
    r.tier = "tuned";
    r.kernel = "transpose_shared_padded";
    r.params = {{"offset", 3}, {"stride", 32}};
    r.model_load_sectors = 5;
    r.model_store_sectors = 4;
    r.model_efficiency = 256.0 / 288.0;
    r.rows = 8192;
    r.cols = 6000;
    r.radius = 4;
    r.border = "clamp";
    r.status = status;
    r.verified = status == Status::ok;
    r.max_abs_error = 0.0;
    r.median_ms = 0.1234567890123;
    r.min_ms = 0.1;
    r.max_ms = 1.0e-300;  // extremes of the double range must survive the text form
    r.reps = 20;
    r.bytes = 393216000;
    r.gbps = 3185.123456789;
    r.copy_gbps = 3999.5;
    r.pct_of_copy = 79.63;
    r.cache_resident = false;
    r.gpu = true;
    return r;
}

// Counters as an H200 measured them for a transpose at 8192x6000, one rate left unmeasured.
Counters sample_counters() {
    Counters c;
    c.kernels = 2;
    c.dram_read_bytes = 196608128;
    c.dram_write_bytes = 171966464;
    c.global_load_sectors = 6144000;
    c.global_load_requests = 1536000;
    c.global_store_sectors = 49152000;
    c.global_store_requests = 1536000;
    c.shared_load_conflicts = 16352644;
    c.shared_store_conflicts = 0;
    c.shared_load_wavefronts = 16876932;
    c.shared_store_wavefronts = 524288;
    c.l1_hit_rate_pct = std::numeric_limits<double>::quiet_NaN();
    c.l2_hit_rate_pct = 49.96;
    c.occupancy_pct = 72.70125;
    return c;
}

RunRecord sample_record() {
    RunRecord rec;
    rec.device.index = 0;
    rec.device.name = "NVIDIA H200, \"test\" unit";
    rec.device.gpu = true;
    rec.device.sm_count = 132;
    rec.device.cc_major = 9;
    rec.device.cc_minor = 0;
    rec.device.l2_bytes = 60ull << 20;
    rec.device.memory_bytes = 150754820096ull;
    rec.device.memory_bus_bits = 6144;
    rec.device.memory_clock_khz = 3201000.0;
    rec.device.theoretical_gbps = 4915.2;
    rec.device.texture_pitch_alignment = 32;
    rec.config.ops = {Op::transpose, Op::filter_y};
    rec.config.variants = {"transpose/", "filter_y/global"};
    rec.config.sizes = {{8192, 6000}, {1, 37}};
    rec.config.params = OpParams{7, Border::mirror};
    rec.config.reps = 20;
    rec.config.warmups = 2;
    rec.config.seed = std::numeric_limits<std::uint64_t>::max();
    rec.config.device = 0;
    rec.config.include_cpu = true;
    rec.config.sweep = {ParamAxis{"offset", {0, 1, 32}}};
    rec.config.tiers = {Tier::classic, Tier::tuned};
    rec.config.types = {ElemType::u16, ElemType::f32};
    rec.started_at = "2026-11-21T23:45:00Z";
    rec.cancelled = true;

    rec.runs.push_back(sample_run("transpose/shared-padded", Status::ok));
    rec.runs.back().counters = sample_counters();
    RunResult failed = sample_run("transpose/naive, with \"quotes\"", Status::failed);
    failed.error = "element (3, 4): got nan, expected 1.5\nsecond line,\r\nthird \"line\"";
    failed.max_abs_error = std::numeric_limits<double>::infinity();
    failed.origin = "/opt/plugins/lib,odd.so";
    failed.border = "mirror";
    failed.radius = 64;
    failed.cache_resident = true;
    failed.gpu = false;
    failed.type = "u16";
    failed.channels = 3;
    failed.rows = 1;
    failed.cols = 37;
    failed.counters_status = "not profiled: the run did not verify";
    rec.runs.push_back(failed);
    RunResult skipped = sample_run("filter_y/global", Status::skipped);
    skipped.op = "filter_y";
    skipped.error = "border mode wrap not supported";
    skipped.median_ms = skipped.min_ms = skipped.max_ms = 0;
    skipped.gbps = skipped.pct_of_copy = 0;
    skipped.counters_status = "ncu: \"quoted\", with commas,\nand a second line";
    rec.runs.push_back(skipped);
    RunResult cancelled = sample_run("filter_y/pitched", Status::cancelled);
    cancelled.op = "filter_y";
    rec.runs.push_back(cancelled);
    return rec;
}

void expect_same_number(double a, double b, const char* what) {
    if (std::isnan(a))
        EXPECT_TRUE(std::isnan(b)) << what;
    else
        EXPECT_EQ(a, b) << what;  // exact: the text form is the shortest round-trip one
}

void expect_same_run(const RunResult& a, const RunResult& b) {
    SCOPED_TRACE(a.variant);
    EXPECT_EQ(a.op, b.op);
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.memory_space, b.memory_space);
    EXPECT_EQ(a.origin, b.origin);
    EXPECT_EQ(a.tier, b.tier);
    EXPECT_EQ(a.kernel, b.kernel);
    EXPECT_EQ(a.type, b.type);
    EXPECT_EQ(a.channels, b.channels);
    EXPECT_EQ(a.params, b.params);
    EXPECT_EQ(a.model_load_sectors, b.model_load_sectors);
    EXPECT_EQ(a.model_store_sectors, b.model_store_sectors);
    EXPECT_EQ(a.model_efficiency, b.model_efficiency);
    EXPECT_EQ(a.rows, b.rows);
    EXPECT_EQ(a.cols, b.cols);
    EXPECT_EQ(a.radius, b.radius);
    EXPECT_EQ(a.border, b.border);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.error, b.error);
    EXPECT_EQ(a.verified, b.verified);
    expect_same_number(a.max_abs_error, b.max_abs_error, "max_abs_error");
    expect_same_number(a.median_ms, b.median_ms, "median_ms");
    expect_same_number(a.min_ms, b.min_ms, "min_ms");
    expect_same_number(a.max_ms, b.max_ms, "max_ms");
    EXPECT_EQ(a.reps, b.reps);
    EXPECT_EQ(a.bytes, b.bytes);
    expect_same_number(a.gbps, b.gbps, "gbps");
    expect_same_number(a.copy_gbps, b.copy_gbps, "copy_gbps");
    expect_same_number(a.pct_of_copy, b.pct_of_copy, "pct_of_copy");
    EXPECT_EQ(a.cache_resident, b.cache_resident);
    EXPECT_EQ(a.gpu, b.gpu);
    EXPECT_EQ(a.counters.has_value(), b.counters.has_value());
    if (a.counters && b.counters) {
        EXPECT_TRUE(*a.counters == *b.counters);
    }
    EXPECT_EQ(a.counters_status, b.counters_status);
}

void expect_same_runs(const RunRecord& a, const RunRecord& b) {
    ASSERT_EQ(a.runs.size(), b.runs.size());
    for (std::size_t i = 0; i < a.runs.size(); ++i) expect_same_run(a.runs[i], b.runs[i]);
}

// Runs `f`, expects a std::runtime_error whose message contains `part`.
void expect_refused(const std::function<void()>& f, const std::string& part) {
    try {
        f();
        ADD_FAILURE() << "no exception; expected one containing \"" << part << "\"";
    } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), HasSubstr(part));
    }
}

// ----------------------------------------------------------------------------------------------
// JSON

TEST(ResultsJson, RoundTripKeepsEveryField) {
    const RunRecord rec = sample_record();
    const RunRecord back = from_json(to_json(rec));

    EXPECT_EQ(back.started_at, rec.started_at);
    EXPECT_EQ(back.cancelled, rec.cancelled);
    EXPECT_EQ(back.device.index, rec.device.index);
    EXPECT_EQ(back.device.name, rec.device.name);
    EXPECT_EQ(back.device.gpu, rec.device.gpu);
    EXPECT_EQ(back.device.sm_count, rec.device.sm_count);
    EXPECT_EQ(back.device.cc_major, rec.device.cc_major);
    EXPECT_EQ(back.device.cc_minor, rec.device.cc_minor);
    EXPECT_EQ(back.device.l2_bytes, rec.device.l2_bytes);
    EXPECT_EQ(back.device.memory_bytes, rec.device.memory_bytes);
    EXPECT_EQ(back.device.memory_bus_bits, rec.device.memory_bus_bits);
    EXPECT_EQ(back.device.memory_clock_khz, rec.device.memory_clock_khz);
    EXPECT_EQ(back.device.theoretical_gbps, rec.device.theoretical_gbps);
    EXPECT_EQ(back.device.texture_pitch_alignment, rec.device.texture_pitch_alignment);

    EXPECT_EQ(back.config.ops, rec.config.ops);
    EXPECT_EQ(back.config.variants, rec.config.variants);
    EXPECT_EQ(back.config.sizes, rec.config.sizes);
    EXPECT_EQ(back.config.params.radius, 7);
    EXPECT_EQ(back.config.params.border, Border::mirror);
    EXPECT_EQ(back.config.reps, rec.config.reps);
    EXPECT_EQ(back.config.warmups, rec.config.warmups);
    EXPECT_EQ(back.config.seed, rec.config.seed);
    EXPECT_EQ(back.config.device, rec.config.device);
    EXPECT_EQ(back.config.include_cpu, rec.config.include_cpu);
    ASSERT_EQ(back.config.sweep.size(), 1u);
    EXPECT_EQ(back.config.sweep[0].name, "offset");
    EXPECT_EQ(back.config.sweep[0].values, (std::vector<long long>{0, 1, 32}));
    EXPECT_EQ(back.config.tiers, (std::vector<Tier>{Tier::classic, Tier::tuned}));
    EXPECT_EQ(back.config.types, (std::vector<ElemType>{ElemType::u16, ElemType::f32}));

    expect_same_runs(rec, back);
}

TEST(ResultsJson, UsesTheDesignFieldNamesAndRecordsTheFormula) {
    RunRecord rec = sample_record();
    rec.config.input = std::make_shared<const Matrix>(3, 5);
    rec.config.input_file = "photos/coffee.png";
    const auto j = nlohmann::json::parse(to_json(rec));
    EXPECT_EQ(j.at("schema"), kResultsSchema);
    EXPECT_EQ(j.at("config").at("input_file"),
              "photos/coffee.png");  // which image, not only its size
    EXPECT_EQ(from_json(to_json(rec)).config.input_file, "photos/coffee.png");
    rec.config.input_file = "\xff\xfe-image.png";  // a name that is not UTF-8 is still written
    EXPECT_EQ(from_json(to_json(rec)).config.input_file, "\xEF\xBF\xBD\xEF\xBF\xBD-image.png");
    EXPECT_EQ(j.at("config").at("formula"), kBandwidthFormula);
    EXPECT_EQ(j.at("config").at("input").at("cols"), 5);
    EXPECT_EQ(j.at("device").at("name"), rec.device.name);
    ASSERT_EQ(j.at("runs").size(), rec.runs.size());
    const auto& run = j.at("runs").at(0);
    for (const char* name : {"op", "variant", "memory_space", "rows", "cols", "median_ms", "min_ms",
                             "max_ms", "gbps", "pct_of_copy", "max_abs_error", "verified"})
        EXPECT_TRUE(run.contains(name)) << name;
    EXPECT_EQ(run.at("verified"), true);
    EXPECT_EQ(run.at("rows"), 8192);
    EXPECT_EQ(j.at("runs").at(1).at("max_abs_error"), "inf");  // JSON has no literal for it
}

TEST(ResultsJson, KeepsNonFiniteNumbers) {
    RunRecord rec = sample_record();
    rec.runs[0].max_abs_error = std::numeric_limits<double>::quiet_NaN();
    rec.runs[0].gbps = -std::numeric_limits<double>::infinity();
    const RunRecord back = from_json(to_json(rec));
    EXPECT_TRUE(std::isnan(back.runs[0].max_abs_error));
    EXPECT_EQ(back.runs[0].gbps, -std::numeric_limits<double>::infinity());
}

TEST(ResultsJson, EmptyRecordRoundTrips) {
    const RunRecord back = from_json(to_json(RunRecord{}));
    EXPECT_TRUE(back.runs.empty());
    EXPECT_TRUE(back.config.ops.empty());
}

// Edits one field of a valid file and expects the reader to refuse it with `part` in the reason.
void expect_json_refused(const std::function<void(nlohmann::ordered_json&)>& edit,
                         const std::string& part) {
    auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
    edit(j);
    expect_refused([&] { from_json(j.dump()); }, part);
}

TEST(ResultsJson, RefusesWhatItCannotRead) {
    expect_refused([] { from_json("{ not json"); }, "results JSON: ");
    expect_refused([] { from_json(""); }, "results JSON: ");
    expect_refused([] { from_json("[1, 2]"); }, "not a coalesce results file");
    expect_refused([] { from_json(R"({"runs": []})"); },
                   "not a coalesce results file (no 'schema' field)");
    expect_json_refused([](auto& j) { j["schema"] = "vega-lite/5"; },
                        "not a coalesce results file (schema 'vega-lite/5')");
    expect_json_refused([](auto& j) { j["schema"] = "coalesce-results/2"; },
                        "unsupported results schema 'coalesce-results/2'");
    expect_json_refused([](auto& j) { j.erase("runs"); }, "results JSON: missing field 'runs'");
    expect_json_refused([](auto& j) { j["device"].erase("name"); },
                        "results JSON: missing field 'device.name'");
    expect_json_refused([](auto& j) { j["runs"][1].erase("verified"); },
                        "results JSON: missing field 'runs[1].verified'");
    expect_json_refused([](auto& j) { j["runs"][0]["rows"] = -1; },
                        "field 'runs[0].rows' must be a non-negative integer");
    expect_json_refused([](auto& j) { j["runs"][0]["rows"] = 2.5; },
                        "field 'runs[0].rows' must be a non-negative integer");
    expect_json_refused([](auto& j) { j["runs"][0]["gbps"] = "fast"; },
                        "field 'runs[0].gbps' must be a number");
    expect_json_refused([](auto& j) { j["runs"][0]["verified"] = 1; },
                        "field 'runs[0].verified' must be true or false");
    expect_json_refused([](auto& j) { j["runs"][0]["status"] = "great"; },
                        "unknown status 'great'");
    expect_json_refused([](auto& j) { j["config"]["ops"][0] = "blur"; },
                        "unknown operation 'blur'");
    expect_json_refused([](auto& j) { j["config"]["border"] = "reflect101"; },
                        "unknown border mode 'reflect101'");
    expect_json_refused([](auto& j) { j["config"]["radius"] = 1e12; },
                        "field 'config.radius' must be an integer");
    expect_json_refused([](auto& j) { j["runs"] = nlohmann::ordered_json::object(); },
                        "field 'runs' must be an array");
    expect_json_refused([](auto& j) { j["runs"][0] = 3; }, "field 'runs[0]' is not an object");
}

// -----------------------------------------------------------------------------------------------
// CSV

TEST(ResultsCsv, RoundTripKeepsEveryRunAndTheRecordFacts) {
    const RunRecord rec = sample_record();
    const RunRecord back = from_csv(to_csv(rec));
    expect_same_runs(rec, back);
    EXPECT_EQ(back.device.name, rec.device.name);
    EXPECT_EQ(back.device.index, rec.device.index);
    EXPECT_EQ(back.device.gpu, rec.device.gpu);
    EXPECT_EQ(back.started_at, rec.started_at);
    EXPECT_EQ(back.config.warmups, rec.config.warmups);
    EXPECT_EQ(back.config.seed, rec.config.seed);
    EXPECT_EQ(back.config.ops, (std::vector<Op>{Op::transpose, Op::filter_y}));
    EXPECT_EQ(back.config.sizes, (std::vector<Shape>{{8192, 6000}, {1, 37}}));
    EXPECT_EQ(back.config.variants.size(), 4u);
    EXPECT_EQ(back.config.params.radius, 4);  // from the first row
    EXPECT_TRUE(back.cancelled);              // a row says so
}

TEST(ResultsCsv, HeaderNamesTheColumnsAndOneRowPerRun) {
    const std::string csv = to_csv(sample_record());
    EXPECT_THAT(csv, StartsWith("op,variant,memory_space,rows,cols,median_ms,min_ms,max_ms,gbps,"
                                "pct_of_copy,max_abs_error,verified,"));
    EXPECT_THAT(csv, HasSubstr(",device,"));
    EXPECT_THAT(csv, HasSubstr(",copy_gbps,"));
    // Commas, quotes and newlines are quoted, quotes doubled.
    EXPECT_THAT(csv, HasSubstr("\"transpose/naive, with \"\"quotes\"\"\""));
    EXPECT_THAT(csv, HasSubstr("\"NVIDIA H200, \"\"test\"\" unit\""));
    EXPECT_THAT(
        csv,
        HasSubstr("\"element (3, 4): got nan, expected 1.5\nsecond line,\r\nthird \"\"line\"\"\""));
}

TEST(ResultsCsv, ReadsCrlfLineEndingsAndNoFinalNewline) {
    const RunRecord rec = sample_record();
    std::string csv = to_csv(rec);
    // Turn every record separator (not the newlines inside quoted fields) into CRLF.
    std::string crlf;
    bool quoted = false;
    for (char ch : csv) {
        if (ch == '"') quoted = !quoted;
        if (ch == '\n' && !quoted) crlf += '\r';
        crlf += ch;
    }
    crlf.pop_back();
    crlf.pop_back();
    expect_same_runs(rec, from_csv(crlf));
}

TEST(ResultsCsv, HeaderOnlyIsAnEmptyRecord) {
    const RunRecord back = from_csv(to_csv(RunRecord{}));
    EXPECT_TRUE(back.runs.empty());
}

TEST(ResultsJson, FieldsAddedByALaterWriterOfTheSameSchemaArePassedOver) {
    auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
    j["host"] = "gpu-server-7";
    j["runs"][0]["power_watts"] = 512;
    j["device"]["clock_mhz"] = 1980;
    const RunRecord back = from_json(j.dump());
    const RunRecord want = sample_record();
    ASSERT_EQ(back.runs.size(), want.runs.size());
    EXPECT_EQ(back.runs[0].variant, want.runs[0].variant);
    EXPECT_EQ(back.runs[0].gbps, want.runs[0].gbps);
    EXPECT_EQ(back.device.name, want.device.name);
}

TEST(ResultsCsv, ColumnsAddedByALaterWriterOfTheSameSchemaArePassedOver) {
    const std::string good = to_csv(sample_record());
    // One more column at the end of every record (records may hold quoted line breaks).
    std::string wider;
    bool quoted = false, header = true;
    for (char ch : good) {
        if (ch == '"') quoted = !quoted;
        if (ch == '\n' && !quoted) {
            wider += header ? ",power_watts" : ",512";
            header = false;
        }
        wider += ch;
    }
    const RunRecord back = from_csv(wider);
    const RunRecord want = sample_record();
    ASSERT_EQ(back.runs.size(), want.runs.size());
    EXPECT_EQ(back.runs.back().variant, want.runs.back().variant);
    EXPECT_EQ(back.runs.back().median_ms, want.runs.back().median_ms);
}

TEST(ResultsCsv, RefusesWhatItCannotRead) {
    const std::string good = to_csv(sample_record());
    const std::string header = good.substr(0, good.find('\n'));
    const auto replace_once = [&](std::string from, std::string to) {
        std::string s = good;
        const auto at = s.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return s.replace(at, from.size(), to);
    };

    expect_refused([] { from_csv(""); }, "results CSV: empty file");
    expect_refused([] { from_csv("name,age\nbob,3\n"); },
                   "not a coalesce results file (CSV header starts with 'name')");
    expect_refused([&] { from_csv(replace_once(",seed,", ",")); },
                   "results CSV: missing column 'seed'");
    expect_refused([&] { from_csv(header + "\ntranspose,x,global\n"); },
                   "results CSV: line 2 has 3 fields, expected 58");
    expect_refused([&] { from_csv(replace_once(",8192,6000,", ",8192,-6,")); },
                   "column 'cols': '-6' is not a non-negative integer");
    expect_refused([&] { from_csv(replace_once(",3185.123456789,", ",fast,")); },
                   "line 2, column 'gbps': 'fast' is not a number");
    expect_refused([&] { from_csv(replace_once(",true,ok,", ",yes,ok,")); },
                   "column 'verified': 'yes' is not true or false");
    expect_refused([&] { from_csv(replace_once(",ok,", ",great,")); },
                   "column 'status': 'great' is not a status");
    expect_refused([&] { from_csv(header + "\n\"transpose,unclosed\n"); },
                   "line 2: quoted field never closed");
    expect_refused([&] { from_csv(header + "\ntrans\"pose\n"); },
                   "line 2: a quote inside an unquoted field");
    // Two runs pasted into one file: the record-level columns disagree.
    const std::string first_row =
        good.substr(header.size() + 1, good.find('\n', header.size() + 1) - header.size() - 1);
    std::string other = first_row;
    other.replace(other.find("2026-11-21T23:45:00Z"), 20, "2026-11-22T00:00:00Z");
    expect_refused([&] { from_csv(header + "\n" + first_row + "\n" + other + "\n"); },
                   "line 3 comes from another run");
}

// ------------------------------------------------------------------------------------------- files

class ResultsFiles : public ::testing::Test {
protected:
    void SetUp() override {
        temp_.emplace(std::string("results-io-") +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        dir_ = temp_->path();
    }
    void TearDown() override { temp_.reset(); }

    // Files in the folder other than `keep`: a temporary left behind would show up here.
    std::vector<std::string> others(const std::string& keep) const {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(dir_))
            if (e.path().filename() != keep) names.push_back(e.path().filename().string());
        return names;
    }

    std::optional<test::TempDir> temp_;
    fs::path dir_;
};

TEST_F(ResultsFiles, WriteReplacesTheFileAndLeavesNoTemporary) {
    const fs::path file = dir_ / "out.json";
    write_file_atomically(file, "first");
    write_file_atomically(file, "second, longer contents");
    EXPECT_EQ(read_text_file(file), "second, longer contents");
    EXPECT_TRUE(others("out.json").empty());
}

TEST_F(ResultsFiles, WriteIntoAMissingFolderNamesThePathAndTheReason) {
    const fs::path file = dir_ / "no-such-folder" / "out.json";
    expect_refused([&] { write_file_atomically(file, "x"); },
                   "cannot write '" + file.string() + "': No such file or directory");
}

TEST_F(ResultsFiles, WriteOverAFolderFailsAndRemovesTheTemporary) {
    fs::create_directory(dir_ / "taken");
    expect_refused([&] { write_file_atomically(dir_ / "taken", "x"); },
                   "cannot write '" + (dir_ / "taken").string() + "'");
    EXPECT_TRUE(others("taken").empty());
}

TEST_F(ResultsFiles, ReadingAMissingFileNamesIt) {
    expect_refused([&] { read_text_file(dir_ / "absent.csv"); },
                   "cannot read '" + (dir_ / "absent.csv").string() + "'");
}

TEST_F(ResultsFiles, SaveAndLoadPickTheFormatFromTheExtension) {
    const RunRecord rec = sample_record();
    save_results(dir_ / "r.json", rec);
    save_results(dir_ / "r.CSV", rec);
    EXPECT_THAT(read_text_file(dir_ / "r.json"), HasSubstr("\"schema\": \"coalesce-results/1\""));
    EXPECT_THAT(read_text_file(dir_ / "r.CSV"), StartsWith("op,variant,"));
    expect_same_runs(rec, load_results(dir_ / "r.json"));
    expect_same_runs(rec, load_results(dir_ / "r.CSV"));
    expect_refused([&] { save_results(dir_ / "r.txt", rec); }, "must end in .json or .csv");
    expect_refused([&] { load_results(dir_ / "r.txt"); }, "must end in .json or .csv");

    std::ofstream(dir_ / "bad.json") << R"({"schema": "coalesce-results/1"})";
    expect_refused([&] { load_results(dir_ / "bad.json"); },
                   (dir_ / "bad.json").string() + ": results JSON: missing field 'started_at'");
}

}  // namespace
}  // namespace coalesce

namespace coalesce {

TEST(ResultsJson, FilesWrittenBeforeTiersReadAsClassicWithNoKernel) {
    nlohmann::json j = nlohmann::json::parse(to_json(sample_record()));
    for (auto& run : j["runs"]) {
        for (const char* key :
             {"tier", "kernel", "params", "model_load_sectors", "model_store_sectors",
              "model_efficiency", "counters", "counters_status"})
            run.erase(key);
    }
    const RunRecord back = from_json(j.dump());
    ASSERT_FALSE(back.runs.empty());
    EXPECT_EQ(back.runs[0].tier, "classic");
    EXPECT_EQ(back.runs[0].kernel, "");
    EXPECT_TRUE(back.runs[0].params.empty());
    EXPECT_TRUE(std::isnan(back.runs[0].model_efficiency));
    for (const RunResult& r : back.runs) {
        EXPECT_FALSE(r.counters.has_value()) << r.variant;
        EXPECT_EQ(r.counters_status, "") << r.variant;
    }
}

TEST(ResultsCsv, FilesWrittenBeforeTiersReadAsClassicWithNoKernel) {
    RunRecord plain = sample_record();  // plain strings: the lines can be cut at their last commas
    plain.device.name = "NVIDIA H200";
    plain.runs = {sample_run("transpose/shared-padded", Status::ok)};
    std::string csv = to_csv(plain);
    // Drop every optional column (tier ... the counters) from every line, as an older writer did.
    std::string older;
    std::size_t begin = 0;
    while (begin < csv.size()) {
        const std::size_t end = csv.find('\n', begin);
        std::string line = csv.substr(begin, end - begin);
        for (int i = 0; i < 30; ++i) line = line.substr(0, line.rfind(','));
        older += line + "\n";
        begin = end + 1;
    }
    ASSERT_EQ(older.find("tier"), std::string::npos);
    ASSERT_EQ(older.find("counters"), std::string::npos);
    const RunRecord back = from_csv(older);
    ASSERT_FALSE(back.runs.empty());
    EXPECT_EQ(back.runs[0].tier, "classic");
    EXPECT_EQ(back.runs[0].kernel, "");
    EXPECT_FALSE(back.runs[0].counters.has_value());
    EXPECT_EQ(back.runs[0].counters_status, "");
    EXPECT_EQ(back.runs[0].type, "f32");
    EXPECT_EQ(back.config.types, std::vector<ElemType>{ElemType::f32});
    EXPECT_EQ(back.runs[0].channels, 1);
    EXPECT_EQ(back.config.channels, 1);
}

// ---------------------------------------------------------------------------------- element types

TEST(ResultsCsv, TypesRoundTripAndRebuildTheConfigsTypes) {
    const RunRecord rec = sample_record();
    const RunRecord back = from_csv(to_csv(rec));
    expect_same_runs(rec, back);
    // In order of first appearance: the sample's runs are f32, then u16.
    EXPECT_EQ(back.config.types, (std::vector<ElemType>{ElemType::f32, ElemType::u16}));
}

TEST(ResultsJson, FilesWrittenBeforeTypesReadAsF32) {
    nlohmann::json j = nlohmann::json::parse(to_json(sample_record()));
    j["config"].erase("types");
    for (auto& run : j["runs"]) run.erase("type");
    const RunRecord back = from_json(j.dump());
    EXPECT_EQ(back.config.types, std::vector<ElemType>{ElemType::f32});
    for (const RunResult& r : back.runs) EXPECT_EQ(r.type, "f32") << r.variant;
}

// An opened image's conversion is recorded with the config; files without it read as none, and
// an unknown one is refused by name. The typed input's shape is recorded as `input`.
TEST(ResultsJson, TheConversionRoundTripsAndIsOptional) {
    RunRecord rec = sample_record();
    rec.config.conversion = Conversion::scale;
    rec.config.typed_input = std::make_shared<const AnyImage>(TypedImage<std::uint8_t>(3, 5, 1));
    nlohmann::json j = nlohmann::json::parse(to_json(rec));
    EXPECT_EQ(j["config"]["conversion"], "scale");
    EXPECT_EQ(j["config"]["input"]["rows"], 3);
    EXPECT_EQ(from_json(j.dump()).config.conversion, Conversion::scale);
    j["config"].erase("conversion");
    EXPECT_EQ(from_json(j.dump()).config.conversion, Conversion::none);
    j["config"]["conversion"] = "stretch";
    expect_refused([&] { from_json(j.dump()); }, "unknown conversion 'stretch'");
}

TEST(ResultsJson, AnUnknownTypeIsRefusedByName) {
    nlohmann::json j = nlohmann::json::parse(to_json(sample_record()));
    j["runs"][0]["type"] = "u32";
    expect_refused([&] { from_json(j.dump()); }, "field 'runs[0].type': unknown element type");
    j = nlohmann::json::parse(to_json(sample_record()));
    j["config"]["types"] = {"u8", "f64"};
    expect_refused([&] { from_json(j.dump()); }, "element types (u8, u16, f32)");
}

TEST(ResultsCsv, AnUnknownTypeIsRefusedByName) {
    RunRecord rec = sample_record();
    rec.device.name = "NVIDIA H200";
    rec.runs = {sample_run("transpose/shared-padded", Status::ok)};
    std::string csv = to_csv(rec);
    const auto at = csv.rfind(",f32,1\n");
    ASSERT_NE(at, std::string::npos);
    csv.replace(at, 7, ",i8,1\n");
    expect_refused([&] { from_csv(csv); }, "type");
}

// -------------------------------------------------------------------------------------- channels

// A colour run records its channel count, in the run and in the config; files written before
// colour runs read as one channel; a count no image has is refused by name.
TEST(ResultsJson, ChannelsRoundTripAndAreOptional) {
    RunRecord rec = sample_record();
    rec.config.channels = 4;
    rec.runs[0].channels = 4;
    const RunRecord back = from_json(to_json(rec));
    expect_same_runs(rec, back);
    EXPECT_EQ(back.config.channels, 4);
    nlohmann::json j = nlohmann::json::parse(to_json(rec));
    EXPECT_EQ(j["runs"][0]["channels"], 4);
    j["config"].erase("channels");
    for (auto& run : j["runs"]) run.erase("channels");
    const RunRecord older = from_json(j.dump());
    EXPECT_EQ(older.config.channels, 1);
    for (const RunResult& r : older.runs) EXPECT_EQ(r.channels, 1) << r.variant;
    j["runs"][1]["channels"] = 2;
    expect_refused([&] { from_json(j.dump()); }, "field 'runs[1].channels'");
}

TEST(ResultsCsv, ChannelsRoundTripAndABadCountIsRefused) {
    RunRecord rec = sample_record();
    const RunRecord back = from_csv(to_csv(rec));
    expect_same_runs(rec, back);  // the u16 run has 3 channels
    EXPECT_EQ(back.config.channels, 3);
    rec.device.name = "NVIDIA H200";
    rec.runs = {sample_run("transpose/shared-padded", Status::ok)};
    std::string csv = to_csv(rec);
    const auto at = csv.rfind(",f32,1\n");
    ASSERT_NE(at, std::string::npos);
    csv.replace(at, 7, ",f32,5\n");
    expect_refused([&] { from_csv(csv); }, "column 'channels'");
}

// ------------------------------------------------------------------------------------- counters

TEST(ResultsCounters, JsonWritesTheCountsAndTheRatiosReadersWant) {
    const auto j = nlohmann::json::parse(to_json(sample_record()));
    const auto& c = j["runs"][0]["counters"];
    EXPECT_EQ(c["dram_read_bytes"], 196608128u);
    EXPECT_EQ(c["shared_load_conflicts"], 16352644u);
    EXPECT_EQ(c["l1_hit_rate_pct"], "nan");
    EXPECT_DOUBLE_EQ(c["store_sectors_per_request"].get<double>(), 32.0);
    EXPECT_DOUBLE_EQ(c["load_sectors_per_request"].get<double>(), 4.0);
    EXPECT_DOUBLE_EQ(c["dram_bytes_per_model_byte"].get<double>(),
                     (196608128.0 + 171966464.0) / 393216000.0);
    EXPECT_TRUE(j["runs"][1]["counters"].is_null());
    EXPECT_EQ(j["runs"][1]["counters_status"], "not profiled: the run did not verify");
}

TEST(ResultsCounters, CsvLeavesTheCountersCellsEmptyWithoutCounters) {
    RunRecord rec = sample_record();
    rec.runs.resize(2);  // one with counters, one without
    const std::string csv = to_csv(rec);
    EXPECT_THAT(csv, HasSubstr(",counters_status,profiled_kernels,dram_read_bytes,"));
    EXPECT_THAT(csv, HasSubstr(",2,196608128,171966464,6144000,1536000,49152000,1536000,"
                               "16352644,0,16876932,524288,nan,49.96,72.70125,"));
    EXPECT_THAT(csv, HasSubstr("not profiled: the run did not verify,,,,,,,,,,,,,,,,,,u16,3\n"));
    const RunRecord back = from_csv(csv);
    ASSERT_EQ(back.runs.size(), 2u);
    EXPECT_TRUE(back.runs[0].counters.has_value());
    EXPECT_FALSE(back.runs[1].counters.has_value());
}

TEST(ResultsCounters, DamagedCountersAreRefusedByName) {
    auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
    j["runs"][0]["counters"]["dram_write_bytes"] = -5;
    expect_refused([&] { from_json(j.dump()); },
                   "field 'runs[0].counters.dram_write_bytes' must be a non-negative integer");
    j["runs"][0]["counters"].erase("dram_write_bytes");
    expect_refused([&] { from_json(j.dump()); },
                   "missing field 'runs[0].counters.dram_write_bytes'");
    j["runs"][0]["counters"] = "lots";
    expect_refused([&] { from_json(j.dump()); }, "field 'runs[0].counters' is not an object");

    RunRecord rec = sample_record();
    rec.runs.resize(1);
    const std::string csv = to_csv(rec);
    std::string no_rate = csv;
    no_rate.replace(no_rate.find(",49.96,"), 7, ",high,");
    expect_refused([&] { from_csv(no_rate); }, "column 'l2_hit_rate_pct': 'high' is not a number");
    // Counters present (profiled_kernels set) in a file that lacks one of their columns.
    std::string narrower = csv;
    narrower.replace(narrower.find(",occupancy_pct,"), 15, ",occupancy,");
    expect_refused([&] { from_csv(narrower); },
                   "missing column 'occupancy_pct' beside profiled_kernels");
}

}  // namespace coalesce

// ------------------------------------------------------------------------------- hostile input

namespace coalesce {
namespace {

// Runs `f`, expects a std::runtime_error and returns its message.
std::string refusal(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    ADD_FAILURE() << "no exception";
    return {};
}

// A message quotes at most about 200 characters of what it found, marked as cut.
void expect_short_quote(const std::string& message, const std::string& part) {
    EXPECT_THAT(message, HasSubstr(part));
    EXPECT_LT(message.size(), 400u) << message.substr(0, 400);
    EXPECT_THAT(message, HasSubstr("…"));
}

TEST(ResultsJson, ANulByteAndWhatFollowsIsRefused) {
    const std::string good = to_json(sample_record());
    EXPECT_THAT(refusal([&] { from_json(good + std::string(1, '\0') + "garbage"); }),
                HasSubstr("NUL byte"));
    std::string inside = good;
    inside[inside.find("shared-padded")] = '\0';
    EXPECT_THAT(refusal([&] { from_json(inside); }), HasSubstr("NUL byte"));
}

TEST(ResultsCsv, ANulByteIsRefused) {
    const std::string good = to_csv(sample_record());
    EXPECT_THAT(refusal([&] { from_csv(good + std::string(1, '\0') + "x,y\n"); }),
                HasSubstr("NUL byte"));
}

TEST(ResultsJson, OffendingTextIsQuotedShort) {
    const std::string huge(1 << 20, 'x');
    expect_json_refused([&](auto& j) { j["schema"] = huge; }, "not a coalesce results file");
    expect_short_quote(refusal([&] {
                           auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
                           j["schema"] = huge;
                           from_json(j.dump());
                       }),
                       "schema 'xxxx");
    expect_short_quote(refusal([&] {
                           auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
                           j["schema"] = "coalesce-results/" + huge;
                           from_json(j.dump());
                       }),
                       "unsupported results schema");
    expect_short_quote(refusal([&] {
                           auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
                           j["config"]["border"] = std::string(kMaxResultsNameBytes, 'b');
                           from_json(j.dump());
                       }),
                       "unknown border mode");
    // The parser's own message quotes the token it stopped at: a string never closed.
    expect_short_quote(refusal([&] { from_json("{\"schema\": \"" + huge); }), "results JSON: ");
}

TEST(ResultsCsv, OffendingTextIsQuotedShort) {
    const std::string huge(1 << 20, 'y');
    const std::string good = to_csv(sample_record());
    const std::string header = good.substr(0, good.find('\n'));
    expect_short_quote(refusal([&] { from_csv(huge + "," + header + "\n"); }),
                       "CSV header starts with 'yyy");
    std::string row = good;
    row.replace(row.find(",3185.123456789,"), 16, "," + huge + ",");
    expect_short_quote(refusal([&] { from_csv(row); }), "column 'gbps': 'yyy");
    // A run of quotes: one field that never closes.
    const std::string quotes =
        refusal([&] { from_csv(header + "\n" + std::string(1 << 20, '"')); });
    EXPECT_THAT(quotes, HasSubstr("line 2"));
    EXPECT_LT(quotes.size(), 400u);
}

TEST(ResultsJson, StringsLongerThanTheLimitAreRefusedNamingTheField) {
    const std::string name(kMaxResultsNameBytes + 1, 'v');
    expect_json_refused(
        [&](auto& j) { j["runs"][0]["variant"] = name; },
        "field 'runs[0].variant' is " + std::to_string(name.size()) + " bytes long");
    expect_json_refused([&](auto& j) { j["device"]["name"] = name; }, "field 'device.name' is");
    expect_json_refused(
        [&](auto& j) { j["runs"][1]["error"] = std::string(kMaxResultsErrorBytes + 1, 'e'); },
        "field 'runs[1].error' is");
    // Within the limits everything reads back.
    auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
    j["runs"][0]["variant"] = std::string(kMaxResultsNameBytes, 'v');
    EXPECT_EQ(from_json(j.dump()).runs[0].variant.size(), kMaxResultsNameBytes);
}

TEST(ResultsCsv, StringsLongerThanTheLimitAreRefusedNamingTheColumn) {
    RunRecord rec = sample_record();
    rec.runs[2].variant = std::string(kMaxResultsNameBytes + 1, 'v');
    // Line 6: the error text of the run before it holds two line breaks.
    EXPECT_THAT(refusal([&] { from_csv(to_csv(rec)); }), HasSubstr("line 6, column 'variant' is"));
}

TEST(ResultsJson, ListsLongerThanTheLimitAreRefused) {
    expect_json_refused([](auto& j) { j["config"]["ops"] = std::vector<std::string>(2, "copy"); },
                        "field 'config.ops[1]': operation 'copy' appears twice");
    expect_json_refused(
        [](auto& j) {
            j["config"]["variants"] = std::vector<std::string>(kMaxResultsListItems + 1, "v");
        },
        "field 'config.variants' has " + std::to_string(kMaxResultsListItems + 1) + " items");
}

TEST(ResultsJson, NestingDeeperThanTheSchemaIsRefusedWhileParsing) {
    const std::string deep = std::string(100000, '[') + std::string(100000, ']');
    EXPECT_THAT(refusal([&] { from_json(deep); }), HasSubstr("nested deeper than"));
    auto j = nlohmann::ordered_json::parse(to_json(sample_record()));
    j["extra"] = nlohmann::ordered_json::parse(std::string(40, '[') + std::string(40, ']'));
    EXPECT_THAT(refusal([&] { from_json(j.dump()); }), HasSubstr("nested deeper than"));
}

TEST(ResultsCsv, RowsWiderThanTheLimitAreRefusedWhileParsing) {
    EXPECT_THAT(refusal([] { from_csv(std::string(1 << 20, ',')); }),
                HasSubstr("line 1 has more than"));
}

}  // namespace

class ResultsFileKinds : public ::testing::Test {
protected:
    void SetUp() override {
        temp_.emplace(std::string("results-kinds-") +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        dir_ = temp_->path();
    }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_))
            out.push_back(e.path().filename().string());
        std::sort(out.begin(), out.end());
        return out;
    }
    // A character device of our own (1,3 is /dev/null, 1,7 /dev/full): never the system's.
    bool make_device(const fs::path& path, unsigned minor) {
        return ::mknod(path.c_str(), S_IFCHR | 0666, ::makedev(1, minor)) == 0;
    }
    std::optional<test::TempDir> temp_;
    fs::path dir_;
};

TEST_F(ResultsFileKinds, AFolderIsNotAResultsFile) {
    fs::create_directory(dir_ / "r.json");
    EXPECT_THAT(refusal([&] { load_results(dir_ / "r.json"); }),
                HasSubstr("not a regular file (a folder)"));
}

TEST_F(ResultsFileKinds, AFileLargerThanTheLimitIsRefusedBeforeReading) {
    const fs::path big = dir_ / "big.json";
    std::ofstream(big) << "{";
    fs::resize_file(big, kMaxResultsFileBytes + 1);  // sparse: no disk used
    EXPECT_THAT(refusal([&] { load_results(big); }), HasSubstr("larger than the limit of 64 MiB"));
}

TEST_F(ResultsFileKinds, WritesThroughASymlinkAndKeepsIt) {
    const fs::path target = dir_ / "real.json";
    fs::create_symlink("real.json", dir_ / "link.json");
    save_results(dir_ / "link.json", sample_record());
    EXPECT_TRUE(fs::is_symlink(dir_ / "link.json"));
    expect_same_runs(sample_record(), load_results(target));
    EXPECT_EQ(names(), (std::vector<std::string>{"link.json", "real.json"}));
}

TEST_F(ResultsFileKinds, WritesThroughACharacterDeviceAndLeavesItOne) {
    if (!make_device(dir_ / "null", 3)) GTEST_SKIP() << "cannot make a device node here (not root)";
    write_file_atomically(dir_ / "null", "results");
    EXPECT_TRUE(fs::is_character_file(dir_ / "null"));
    EXPECT_EQ(names(), std::vector<std::string>{"null"});
}

TEST_F(ResultsFileKinds, AFullDeviceFailsWithTheReasonAndStaysADevice) {
    if (!make_device(dir_ / "full", 7)) GTEST_SKIP() << "cannot make a device node here (not root)";
    EXPECT_THAT(refusal([&] { write_file_atomically(dir_ / "full", "results"); }),
                HasSubstr("No space left on device"));
    EXPECT_TRUE(fs::is_character_file(dir_ / "full"));
    EXPECT_EQ(names(), std::vector<std::string>{"full"});
}

TEST_F(ResultsFileKinds, ANamedPipeIsNeitherWrittenNorReplaced) {
    ASSERT_EQ(::mkfifo((dir_ / "pipe.json").c_str(), 0666), 0);
    EXPECT_THAT(refusal([&] { write_file_atomically(dir_ / "pipe.json", "x"); }),
                HasSubstr("named pipe"));
    EXPECT_TRUE(fs::is_fifo(dir_ / "pipe.json"));
    EXPECT_EQ(names(), std::vector<std::string>{"pipe.json"});
}

TEST_F(ResultsFileKinds, TemporariesOfDeadProcessesAreRemovedOnTheNextSave) {
    // A child that has exited: its pid names no process (until the kernel reuses it).
    const pid_t dead = ::fork();
    if (dead == 0) ::_exit(0);
    ::waitpid(dead, nullptr, 0);
    const std::string stale = "old.json.tmp-" + std::to_string(dead);
    const std::string live = "old.json.tmp-" + std::to_string(::getpid());
    const std::string foreign = "notes.txt.tmp-" + std::to_string(dead);  // not ours to remove
    for (const std::string& name : {stale, live, foreign}) {
        std::ofstream(dir_ / name) << "half";
        fs::last_write_time(dir_ / name, fs::file_time_type::clock::now() - std::chrono::hours(1));
    }
    save_results(dir_ / "r.json", sample_record());
    EXPECT_EQ(names(), (std::vector<std::string>{foreign, live, "r.json"}));
}

TEST_F(ResultsFileKinds, AKilledSaveLeavesNoTemporary) {
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t child = ::fork();
    if (child == 0) {
        const std::string contents(512u << 20, 'x');  // long enough to be killed while writing
        const char go = 1;
        if (::write(ready[1], &go, 1) != 1) ::_exit(3);
        write_file_atomically(dir_ / "big.json", contents);
        ::_exit(0);
    }
    char go = 0;
    ASSERT_EQ(::read(ready[0], &go, 1), 1);
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ::kill(child, SIGKILL);
    int status = 0;
    ::waitpid(child, &status, 0);
    ::close(ready[0]);
    ::close(ready[1]);
    // Killed mid-write: nothing is left. Had the write finished first, only the whole file is.
    for (const std::string& name : names()) EXPECT_EQ(name, "big.json");
    if (fs::exists(dir_ / "big.json")) {
        EXPECT_EQ(fs::file_size(dir_ / "big.json"), 512u << 20);
    }
}

}  // namespace coalesce
