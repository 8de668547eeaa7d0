// The sector model of each access-pattern variant's typical warp against sectors counted by hand
// (32-byte sectors; a warp of 32 floats is 128 bytes), and what the registry says about the
// variants. Needs no device: the models are host functions of the shape and the parameters.
#include "support/builtin_registry.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/sector_model.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace coalesce {
namespace {

// The model of `id` at `shape` with one named parameter set (the others at their defaults).
AccessModel model(const std::string& id, Shape shape, const std::string& name = "",
                  long long value = 0) {
    const Variant* v = test::builtin_registry().find(id);
    if (!v) throw std::invalid_argument("no variant " + id);
    OpParams p;
    if (!name.empty()) p.values[name] = value;
    return model_of(v->info.access(shape, resolved_params(v->info.op, p)));
}

const Shape kLarge{8192, 8192};

TEST(PatternModels, OffsetReadCostsAFifthSectorOffTheMultiplesOfEight) {
    for (long long k : {0, 8, 16, 32}) {
        EXPECT_DOUBLE_EQ(model("offset_read/global", kLarge, "offset", k).load_sectors, 4) << k;
        EXPECT_DOUBLE_EQ(model("offset_read/pitched", kLarge, "offset", k).load_sectors, 4) << k;
    }
    for (long long k : {1, 2, 7, 9, 31}) {
        EXPECT_DOUBLE_EQ(model("offset_read/global", kLarge, "offset", k).load_sectors, 5) << k;
    }
    const AccessModel one = model("offset_read/global", kLarge, "offset", 1);
    EXPECT_DOUBLE_EQ(one.store_sectors, 4);
    EXPECT_DOUBLE_EQ(one.efficiency, 256.0 / (9 * 32));
}

TEST(PatternModels, OffsetWriteCostsTheFifthSectorOnTheStore) {
    EXPECT_DOUBLE_EQ(model("offset_write/global", kLarge, "offset", 0).store_sectors, 4);
    EXPECT_DOUBLE_EQ(model("offset_write/global", kLarge, "offset", 8).store_sectors, 4);
    const AccessModel one = model("offset_write/global", kLarge, "offset", 1);
    EXPECT_DOUBLE_EQ(one.load_sectors, 4);
    EXPECT_DOUBLE_EQ(one.store_sectors, 5);
    EXPECT_DOUBLE_EQ(model("offset_write/pitched", kLarge, "offset", 3).store_sectors, 5);
    // 1001 dense columns: row 1 starts 4004 bytes in, 4 bytes past a sector, so even offset 0
    // touches 5 sectors; pitched rows start on 512-byte boundaries whatever the width.
    EXPECT_DOUBLE_EQ(model("offset_write/global", {1000, 1001}, "offset", 0).store_sectors, 5);
    EXPECT_DOUBLE_EQ(model("offset_write/pitched", {1000, 1001}, "offset", 0).store_sectors, 4);
    EXPECT_DOUBLE_EQ(model("offset_write/global", {1000, 1000}, "offset", 0).store_sectors, 4);
}

TEST(PatternModels, GatherSpreadsItsLoadsOverStrideTimesTheSectorsUpToOneEach) {
    const std::vector<std::pair<long long, double>> sectors = {
        {1, 4}, {2, 8}, {3, 12}, {4, 16}, {8, 32}, {16, 32}, {32, 32}, {1024, 32}};
    for (const auto& [stride, expected] : sectors) {
        const AccessModel m = model("gather/global", kLarge, "stride", stride);
        EXPECT_DOUBLE_EQ(m.load_sectors, expected) << "stride " << stride;
        EXPECT_DOUBLE_EQ(m.store_sectors, 4) << "stride " << stride;
    }
    EXPECT_DOUBLE_EQ(model("gather/global", kLarge, "stride", 2).efficiency, 256.0 / (12 * 32));
    EXPECT_DOUBLE_EQ(model("gather/global", kLarge, "stride", 1).efficiency, 1.0);
}

TEST(PatternModels, ScatterSpreadsItsStores) {
    const AccessModel two = model("scatter/global", kLarge, "stride", 2);
    EXPECT_DOUBLE_EQ(two.load_sectors, 4);
    EXPECT_DOUBLE_EQ(two.store_sectors, 8);
    EXPECT_DOUBLE_EQ(model("scatter/global", kLarge, "stride", 8).store_sectors, 32);
    EXPECT_DOUBLE_EQ(model("scatter/global", kLarge, "stride", 1).store_sectors, 4);
}

TEST(PatternModels, ScatteredStaysInOneLineForSpan32AndTakesASectorPerLaneBeyond) {
    const auto scattered = [](Shape shape, long long span, long long multiplier) {
        const Variant* v = test::builtin_registry().find("scattered/global");
        OpParams p;
        p.values = {{"span", span}, {"multiplier", multiplier}};
        return model_of(v->info.access(shape, resolved_params(v->info.op, p)));
    };
    EXPECT_DOUBLE_EQ(scattered(kLarge, 32, 121).load_sectors, 4);     // one 128-byte line
    EXPECT_DOUBLE_EQ(scattered(kLarge, 32, 7).load_sectors, 4);       // testMixed
    EXPECT_DOUBLE_EQ(scattered(kLarge, 1024, 121).load_sectors, 32);  // 484 bytes apart
    EXPECT_DOUBLE_EQ(scattered(kLarge, 0, 121).load_sectors, 32);     // testScattered
    EXPECT_DOUBLE_EQ(scattered(kLarge, 0, 1).load_sectors, 4);        // multiplier 1: a copy
    EXPECT_DOUBLE_EQ(scattered(kLarge, 0, 121).store_sectors, 4);
    // Span 1024, multiplier 3: lanes 12 bytes apart, 32 of them over 12 sectors.
    EXPECT_DOUBLE_EQ(scattered(kLarge, 1024, 3).load_sectors, 12);
}

TEST(PatternModels, StridedAddPaysTheStrideOnBothLoads) {
    const AccessModel one = model("strided_add/global", kLarge, "stride", 1);
    EXPECT_DOUBLE_EQ(one.load_sectors, 4);
    EXPECT_DOUBLE_EQ(one.store_sectors, 4);
    EXPECT_DOUBLE_EQ(one.efficiency, 1.0);
    const AccessModel sixteen = model("strided_add/global", kLarge, "stride", 16);
    EXPECT_DOUBLE_EQ(sixteen.load_sectors, 32);
    EXPECT_DOUBLE_EQ(sixteen.store_sectors, 4);
    EXPECT_DOUBLE_EQ(sixteen.efficiency, 3 * 128.0 / ((32 + 32 + 4) * 32));
}

TEST(PatternModels, MatrixAddUncoalescedTakesASectorPerLane) {
    const AccessModel coalesced = model("matrix_add/coalesced", kLarge);
    EXPECT_DOUBLE_EQ(coalesced.load_sectors, 4);
    EXPECT_DOUBLE_EQ(coalesced.store_sectors, 4);
    const AccessModel uncoalesced = model("matrix_add/uncoalesced", kLarge);
    EXPECT_DOUBLE_EQ(uncoalesced.load_sectors, 32);
    EXPECT_DOUBLE_EQ(uncoalesced.store_sectors, 32);
    EXPECT_DOUBLE_EQ(uncoalesced.efficiency, 4.0 / 32);
    EXPECT_DOUBLE_EQ(model("matrix_add/uncoalesced", {1000, 1001}).load_sectors, 32);
    // Odd widths: dense rows start off the sector grid, pitched rows do not.
    EXPECT_DOUBLE_EQ(model("matrix_add/coalesced", {1000, 1001}).load_sectors, 5);
    EXPECT_DOUBLE_EQ(model("matrix_add/pitched", {1000, 1001}).load_sectors, 4);
}

TEST(PatternModels, SmallShapesModelTheWarpThatExists) {
    // 37 floats at stride 2: 19 outputs, one partial warp of 19 lanes over 76 + 4 bytes.
    const AccessModel m = model("gather/global", {37, 1}, "stride", 2);
    EXPECT_DOUBLE_EQ(m.load_sectors, 5);   // bytes 0..147 step 8: sectors 0..4
    EXPECT_DOUBLE_EQ(m.store_sectors, 3);  // 76 bytes from 0
    EXPECT_DOUBLE_EQ(model("matrix_add/uncoalesced", {1, 1}).load_sectors, 1);
}

TEST(PatternVariants, EachIsClassicNamesItsKernelAndModelsItsAccess) {
    const std::vector<std::string> ids = {
        "offset_write/global",  "offset_write/pitched",   "gather/global",
        "scatter/global",       "scattered/global",       "strided_add/global",
        "matrix_add/coalesced", "matrix_add/uncoalesced", "matrix_add/pitched"};
    for (const std::string& id : ids) {
        const Variant* v = test::builtin_registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        EXPECT_EQ(v->info.tier, Tier::classic) << id;
        EXPECT_FALSE(v->info.kernel.empty()) << id;
        EXPECT_TRUE(static_cast<bool>(v->info.access)) << id;
        EXPECT_TRUE(v->info.gpu) << id;
    }
    EXPECT_EQ(test::builtin_registry().find("matrix_add/pitched")->info.kernel,
              test::builtin_registry().find("matrix_add/coalesced")->info.kernel);
    EXPECT_EQ(test::builtin_registry().find("matrix_add/pitched")->info.memory_space,
              space::pitched);
}

}  // namespace
}  // namespace coalesce
