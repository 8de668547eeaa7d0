// The sector model against cases counted by hand (32-byte sectors, 128-byte lines).
#include "coalesce/sector_model.hpp"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(SectorModel, AlignedFloatsTouchFourSectorsOfOneLine) {
    const RequestCost c = request_cost(affine_request(false, 0, 4));
    EXPECT_EQ(c.sectors, 4);
    EXPECT_EQ(c.lines, 1);
    EXPECT_EQ(c.useful_bytes, 128);
}

TEST(SectorModel, AnOffsetOfOneFloatTouchesFiveSectorsOfTwoLines) {
    const RequestCost c = request_cost(affine_request(false, 4, 4));
    EXPECT_EQ(c.sectors, 5);
    EXPECT_EQ(c.lines, 2);
}

TEST(SectorModel, AnOffsetOfEightFloatsIsSectorAlignedAgain) {
    // 32 bytes in: four whole sectors, but they straddle two lines.
    const RequestCost c = request_cost(affine_request(false, 32, 4));
    EXPECT_EQ(c.sectors, 4);
    EXPECT_EQ(c.lines, 2);
}

TEST(SectorModel, StridesSpreadTheWarpOverMoreSectors) {
    EXPECT_EQ(request_cost(affine_request(false, 0, 8)).sectors, 8);     // stride 2 floats
    EXPECT_EQ(request_cost(affine_request(false, 0, 16)).sectors, 16);   // stride 4
    EXPECT_EQ(request_cost(affine_request(false, 0, 32)).sectors, 32);   // stride 8: a sector each
    EXPECT_EQ(request_cost(affine_request(false, 0, 128)).sectors, 32);  // stride 32
    EXPECT_EQ(request_cost(affine_request(false, 0, 128)).lines, 32);
}

TEST(SectorModel, AColumnOfAWideMatrixIsOneSectorPerLane) {
    const RequestCost c = request_cost(affine_request(true, 0, 8192 * 4));
    EXPECT_EQ(c.sectors, 32);
    EXPECT_EQ(c.lines, 32);
}

TEST(SectorModel, AllLanesOnOneAddressAreOneSector) {
    EXPECT_EQ(request_cost(affine_request(false, 64, 0)).sectors, 1);
}

TEST(SectorModel, PartialWarpsCountOnlyTheirLanes) {
    const RequestCost c = request_cost(affine_request(false, 0, 4, 4, 5));  // 5 lanes, 20 bytes
    EXPECT_EQ(c.sectors, 1);
    EXPECT_EQ(c.useful_bytes, 20);
}

TEST(SectorModel, EfficiencyIsUsefulOverMovedBytes) {
    // A coalesced load and a stride-32 store: (128 + 128) / ((4 + 32) * 32).
    const AccessModel m = model_of({affine_request(false, 0, 4), affine_request(true, 0, 128)});
    EXPECT_DOUBLE_EQ(m.load_sectors, 4.0);
    EXPECT_DOUBLE_EQ(m.store_sectors, 32.0);
    EXPECT_DOUBLE_EQ(m.efficiency, 256.0 / (36.0 * 32.0));
    EXPECT_DOUBLE_EQ(model_of({affine_request(false, 0, 4)}).efficiency, 1.0);
}
