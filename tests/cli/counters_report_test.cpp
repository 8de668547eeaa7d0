// coalesce-bench's table with counters: the compact columns, the mark where measured DRAM
// bytes stray from the bytes model by more than 10%, and the footnotes that say why runs
// have no counters.
#include "report.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace coalesce::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

RunResult gpu_run(std::string variant, std::size_t bytes) {
    RunResult r;
    r.op = variant.substr(0, variant.find('/'));
    r.variant = std::move(variant);
    r.memory_space = "global";
    r.rows = r.cols = 8192;
    r.bytes = bytes;
    r.status = Status::ok;
    r.verified = true;
    r.median_ms = 0.1;
    r.gbps = 1000;
    return r;
}

Counters measured(std::uint64_t read, std::uint64_t write) {
    Counters c;
    c.kernels = 1;
    c.dram_read_bytes = read;
    c.dram_write_bytes = write;
    c.global_load_sectors = 4 * 1000;
    c.global_load_requests = 1000;
    c.global_store_sectors = 32 * 1000;
    c.global_store_requests = 1000;
    c.shared_load_conflicts = 3932160;
    return c;
}

std::string line_of(const std::string& table, const std::string& variant) {
    const auto at = table.find(variant + " ");
    if (at == std::string::npos) return "(no line for " + variant + ")";
    const auto begin = table.rfind('\n', at) + 1;
    return table.substr(begin, table.find('\n', at) - begin);
}

TEST(CountersTable, MarksDramBytesFarFromTheModelAndSaysWhySomeHaveNone) {
    RunRecord rec;
    rec.device.gpu = true;
    rec.device.name = "NVIDIA H100";
    rec.runs = {gpu_run("copy/global", 1000000), gpu_run("filter_x/global", 1000000),
                gpu_run("transpose/global-naive", 1000000),
                gpu_run("transpose/shared-padded", 1000000)};
    rec.runs[0].counters = measured(500000, 460000);  // 0.96: within 10%
    rec.runs[1].counters = measured(800000, 450000);  // 1.25: halo re-reads, marked
    rec.runs[2].counters = measured(400000, 500000);  // 0.90: exactly 10% off, not past it
    rec.runs[3].counters_status = "ncu: no permission";
    std::ostringstream out;
    print_results(out, rec);
    const std::string table = out.str();

    EXPECT_THAT(table, HasSubstr("DRAM/model"));
    EXPECT_THAT(line_of(table, "copy/global"), HasSubstr(" 0.96 "));
    EXPECT_THAT(line_of(table, "filter_x/global"), HasSubstr(" 1.25! "));
    EXPECT_THAT(line_of(table, "transpose/global-naive"), HasSubstr(" 0.90 "));
    EXPECT_THAT(line_of(table, "copy/global"), HasSubstr(" 4.0/32.0 "));
    EXPECT_THAT(line_of(table, "copy/global"), HasSubstr(" 3.9M/0 "));
    EXPECT_THAT(line_of(table, "transpose/shared-padded"), HasSubstr(" - "));
    EXPECT_THAT(table, HasSubstr("\n! measured DRAM bytes differ from the bytes model by more "
                                 "than 10%: see docs/counters.md"));
    EXPECT_THAT(table, HasSubstr("\nno counters for 1 run: ncu: no permission\n"));
}

TEST(CountersTable, WithoutACountersPassTheTableIsAsBefore) {
    RunRecord rec;
    rec.device.gpu = true;
    rec.runs = {gpu_run("copy/global", 1000000)};
    std::ostringstream out;
    print_results(out, rec);
    EXPECT_THAT(out.str(), Not(HasSubstr("DRAM/model")));
    EXPECT_THAT(out.str(), Not(HasSubstr("counters")));
}

}  // namespace
}  // namespace coalesce::cli
