// What the on-chip variants declare, without a device: the bank-conflict degree each shared-memory
// pattern predicts (the book's figures, counted from the kernels' index expressions), the constant
// cache's serialization, the time per access the runner derives, and the results files' new fields.
#include "support/builtin_registry.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/results_io.hpp"
#include "coalesce/run_steps.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>

namespace coalesce {
namespace {

OpParams with(std::initializer_list<std::pair<const char*, long long>> values) {
    OpParams p;
    for (const auto& [name, value] : values) p.values[name] = value;
    return p;
}

DeviceInfo h100_like() {
    DeviceInfo d;
    d.gpu = true;
    d.name = "a GPU of 132 SMs";
    d.sm_count = 132;
    d.l2_bytes = 50u << 20;
    return d;
}

RunResult described(const std::string& id, const OpParams& params, Shape shape = {4096, 4096}) {
    const Variant* v = test::builtin_registry().find(id);
    if (v == nullptr) throw std::runtime_error("no variant " + id);
    return run_steps::describe_result(v->info, shape, params, h100_like(), 3000.0);
}

double degree(const std::string& id, long long tile_rows) {
    return described(id, with({{"tile_rows", tile_rows}})).model_bank_conflict_degree;
}

}  // namespace

// The worst request of each pattern, 32x32 tile then 32x16 (4-byte banks, as on every GPU since
// Maxwell; the book's Kepler figures in 8-byte mode are halved for the column patterns).
TEST(OnchipModels, SharedMemoryPatternsPredictTheBooksConflictDegrees) {
    const std::map<std::string, std::pair<double, double>> expected = {
        {"smem_copy_tile/set-row-read-row", {1, 1}},
        {"smem_copy_tile/set-row-read-row-dyn", {1, 1}},
        {"smem_copy_tile/set-col-read-col", {32, 16}},
        {"smem_copy_tile/set-col-read-col-dyn", {32, 16}},
        {"smem_copy_tile/set-col-read-col-pad", {1, 1}},
        {"smem_copy_tile/set-col-read-col-dyn-pad", {1, 1}},
        {"smem_transpose_tile/set-row-read-col", {32, 16}},
        {"smem_transpose_tile/set-row-read-col-dyn", {32, 16}},
        {"smem_transpose_tile/set-row-read-col-pad", {1, 1}},
        {"smem_transpose_tile/set-row-read-col-dyn-pad", {1, 1}},
        {"smem_transpose_tile/set-row-read-col-pad1", {1, 2}},  // the experiment: one pad on 32x16
    };
    for (const auto& [id, degrees] : expected) {
        EXPECT_EQ(degree(id, 32), degrees.first) << id << " on 32x32";
        EXPECT_EQ(degree(id, 16), degrees.second) << id << " on 32x16";
    }
    // Every shared-memory variant of the two operations is in the table above.
    std::size_t count = 0;
    for (const char* op : {"smem_copy_tile", "smem_transpose_tile"})
        for (const Variant* v : test::builtin_registry().for_op(*parse_op(op)))
            if (v->info.gpu) {
                ++count;
                EXPECT_TRUE(expected.count(v->info.id)) << v->info.id;
                EXPECT_EQ(v->info.memory_space, space::shared);
            }
    EXPECT_EQ(count, expected.size());
}

TEST(OnchipModels, TheSharedBytesModelIsWhatGbpsCounts) {
    const RunResult r =
        described("smem_copy_tile/set-row-read-row", with({{"repeat", 10}}), {64, 96});
    EXPECT_EQ(r.bytes, 64u * 96 * 2 * 4 * 10);
    EXPECT_EQ(r.params.at("tile_rows"), 32);
    EXPECT_TRUE(std::isnan(r.model_efficiency));  // no global-memory model for these
}

TEST(OnchipModels, TheConstantCacheSerializesDistinctAddresses) {
    for (long long distinct : {0, 1, 2, 8, 32}) {
        const RunResult r = described("constant_read/constant", with({{"distinct", distinct}}));
        EXPECT_EQ(r.model_constant_serialization,
                  distinct == 0 ? 1.0 : static_cast<double>(distinct));
    }
    // Global memory has no such model: the table's reads there are ordinary requests.
    EXPECT_TRUE(std::isnan(described("constant_read/global", {}).model_constant_serialization));
    EXPECT_TRUE(std::isnan(described("constant_read/global-ldg", {}).model_constant_serialization));
}

TEST(OnchipModels, AccessesAreWarpLoadsPerSmAndGiveTheTimePerAccess) {
    RunResult r = described("constant_read/global", with({{"repeat", 64}}), {8192, 8192});
    EXPECT_DOUBLE_EQ(r.accesses, 8192.0 * 8192 * 64 / 32 / 132);
    run_steps::record_timing(r, {2.0, 2.0, 2.0});
    EXPECT_DOUBLE_EQ(r.ns_per_access, 2.0e6 / r.accesses);
    RunResult bandwidth_only = described("random_sample/global", {});
    EXPECT_EQ(bandwidth_only.accesses, 0.0);
    run_steps::record_timing(bandwidth_only, {1.0});
    EXPECT_TRUE(std::isnan(bandwidth_only.ns_per_access));
}

TEST(OnchipModels, RandomSamplingIsScatteredForTheSectorModel) {
    // Area 32: a warp's 32 samples fall in 32 rows of the window, nearly a sector each.
    const RunResult wide = described("random_sample/global", with({{"area", 32}}));
    const RunResult narrow = described("random_sample/global", with({{"area", 1}}));
    EXPECT_GT(wide.model_load_sectors, 16.0);
    EXPECT_EQ(narrow.model_load_sectors, 4.0);  // area 1 reads the warp's own 32 pixels
}

TEST(OnchipModels, EveryOnchipVariantNamesItsKernelAndOnlyTheLosingPadIsAnExperiment) {
    for (const char* op : {"smem_copy_tile", "smem_transpose_tile", "constant_read",
                           "random_sample", "resample", "u8_to_float"}) {
        std::size_t gpu = 0;
        for (const Variant* v : test::builtin_registry().for_op(*parse_op(op))) {
            if (!v->info.gpu) continue;
            ++gpu;
            EXPECT_EQ(v->info.tier, v->info.id == "smem_transpose_tile/set-row-read-col-pad1"
                                        ? Tier::experiment
                                        : Tier::classic)
                << v->info.id;
            EXPECT_FALSE(v->info.kernel.empty()) << v->info.id;
            EXPECT_GE(v->info.description.size(), 60u) << v->info.id;
        }
        EXPECT_GE(gpu, 1u) << op;
    }
}

TEST(OnchipModels, ResultsFilesKeepTheNewFields) {
    RunRecord record;
    record.device = h100_like();
    record.started_at = "2026-11-23T00:00:00Z";
    RunResult r = described("smem_transpose_tile/set-row-read-col", with({{"tile_rows", 16}}));
    r.status = Status::ok;
    r.verified = true;
    RunResult c = described("constant_read/constant", with({{"distinct", 32}}));
    run_steps::record_timing(c, {1.5});
    c.status = Status::ok;
    c.verified = true;
    record.runs = {r, c};
    for (const RunRecord& back : {from_json(to_json(record)), from_csv(to_csv(record))}) {
        ASSERT_EQ(back.runs.size(), 2u);
        EXPECT_EQ(back.runs[0].model_bank_conflict_degree, 16.0);
        EXPECT_TRUE(std::isnan(back.runs[0].model_constant_serialization));
        EXPECT_EQ(back.runs[0].accesses, 0.0);
        EXPECT_TRUE(std::isnan(back.runs[0].ns_per_access));
        EXPECT_EQ(back.runs[1].model_constant_serialization, 32.0);
        EXPECT_TRUE(std::isnan(back.runs[1].model_bank_conflict_degree));
        EXPECT_DOUBLE_EQ(back.runs[1].accesses, c.accesses);
        EXPECT_DOUBLE_EQ(back.runs[1].ns_per_access, c.ns_per_access);
    }
}

}  // namespace coalesce
