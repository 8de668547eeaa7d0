// The bank model against cases counted by hand: 32 banks of 4-byte words, a request's degree is
// the largest number of distinct words in one bank; the constant cache's passes are the distinct
// words of a request.
#include "coalesce/bank_model.hpp"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

// Lane i reads word word_of(i).
template <class F>
WarpRequest words(F word_of, int lanes = 32) {
    WarpRequest r;
    r.active_lanes = lanes;
    for (int lane = 0; lane < 32; ++lane)
        r.offsets[static_cast<std::size_t>(lane)] = 4LL * word_of(lane);
    return r;
}

}  // namespace

TEST(BankModel, ConsecutiveWordsAreConflictFree) {
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return i; })), 1);
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 32 + i; })), 1);  // a row of 32x32
}

TEST(BankModel, AColumnOfA32WideTileIsOneBank) {
    // tile[32][32], lanes reading tile[lane][1]: words 32 * lane + 1, all in bank 1.
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 32 * i + 1; })), 32);
}

TEST(BankModel, AColumnOfA16WideTileIsTwoBanks) {
    // setColReadCol on tile[BDIMX = 32][BDIMY = 16]: words 16 * lane + ty, banks ty and ty + 16.
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 16 * i + 1; })), 16);
}

TEST(BankModel, OnePaddingWordPerRowSpreadsAColumnOverAllBanks) {
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 33 * i + 1; })), 1);  // tile[32][33]
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 17 * i; })), 1);      // tile[32][17]
}

TEST(BankModel, TheRectangularTransposeNeedsTwoPaddingWords) {
    // setRowReadCol on tile[16][32 + pad]: lane i of warp 1 loads tile[icol][irow] with
    // idx = 32 + i, irow = idx / 16, icol = idx % 16.
    const auto load = [](int pad) {
        return words([pad](int i) { return (32 + i) % 16 * (32 + pad) + (32 + i) / 16; });
    };
    EXPECT_EQ(bank_conflict_degree(load(0)), 16);  // the book's 16-way
    EXPECT_EQ(bank_conflict_degree(load(1)), 2);   // one pad leaves the two half-columns colliding
    EXPECT_EQ(bank_conflict_degree(load(2)), 1);   // the book's two
}

TEST(BankModel, LanesOnTheSameWordShareIt) {
    EXPECT_EQ(bank_conflict_degree(words([](int) { return 7; })), 1);  // broadcast
    // Two words in one bank, each read by 16 lanes: 2-way.
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return i < 16 ? 0 : 32; })), 2);
}

TEST(BankModel, StridesOfTwoAndFourWords) {
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 2 * i; })), 2);
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 4 * i; })), 4);
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 3 * i; })), 1);  // odd strides are free
}

TEST(BankModel, WideLanesNeedSeveralPasses) {
    WarpRequest r = words([](int i) { return 2 * i; });
    r.bytes_per_lane = 8;  // float2 per lane: 64 consecutive words, two per bank
    EXPECT_EQ(bank_conflict_degree(r), 2);
}

TEST(BankModel, InactiveLanesDoNotCount) {
    EXPECT_EQ(bank_conflict_degree(words([](int i) { return 32 * i; }, 4)), 4);
    EXPECT_EQ(distinct_words(words([](int i) { return i; }, 5)), 5);
}

TEST(BankModel, ConstantSerializationIsTheDistinctWords) {
    EXPECT_EQ(distinct_words(words([](int) { return 3; })), 1);         // c[i]: uniform
    EXPECT_EQ(distinct_words(words([](int i) { return i % 4; })), 4);   // four addresses
    EXPECT_EQ(distinct_words(words([](int i) { return 5 + i; })), 32);  // c[threadIdx.x + i]
}

TEST(BankModel, WorstOfTheRequests) {
    const WarpRequest free = words([](int i) { return i; });
    const WarpRequest column = words([](int i) { return 32 * i; });
    EXPECT_EQ(worst_bank_conflict_degree({free, column}), 32);
    EXPECT_EQ(worst_bank_conflict_degree({}), 0);
    EXPECT_EQ(worst_constant_serialization({free, words([](int) { return 0; })}), 32);
}
