// filter_y/fast-walk's run length (kernels/walk_runs.hpp): the runs cover the matrix in the
// blocks given, start on at most kMaxFronts rows, and are the shortest runs that do both.
#include "walk_runs.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace coalesce::walk_runs {
namespace {

using Ull = unsigned long long;

Ull ceil_div(Ull a, Ull b) { return (a + b - 1) / b; }

// Whether run is ceil(rows * m / n) for some n <= kMaxFronts and m >= 1.
bool has_few_fronts(Ull rows, Ull run) {
    for (Ull n = 1; n <= kMaxFronts; ++n)
        for (Ull m = 1; m <= n * run / rows + 1; ++m)
            if (ceil_div(rows * m, n) == run) return true;
    return false;
}

struct Case {
    Ull rows, strips, blocks;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> c = {
        {8192, 64, 132}, {8000, 47, 132}, {6000, 63, 132}, {4097, 9, 132},  {8192, 64, 264},
        {8000, 94, 264}, {1, 2048, 132},  {2, 64, 1},      {37, 1, 1},      {60001, 1, 132},
        {517, 9, 18},    {4500, 3, 52},   {100, 33, 12},   {3001, 25, 132}, {65536, 2, 132},
    };
    return c;
}

// A case's strip-rows and the run the rule gives them, and a trace line naming both.
struct Planned {
    Ull total, run;
    std::string trace;
};

Planned plan(const Case& c) {
    const Ull total = c.rows * c.strips;
    const Ull run = run_with_few_fronts(c.rows, total, c.blocks);
    return {total, run,
            std::to_string(c.rows) + " rows x " + std::to_string(c.strips) + " strips, " +
                std::to_string(c.blocks) + " blocks: run " + std::to_string(run)};
}

TEST(WalkRuns, CoverTheMatrixInTheBlocksGiven) {
    for (const Case& c : cases()) {
        const auto [total, run, trace] = plan(c);
        SCOPED_TRACE(trace);
        ASSERT_GT(run, 0u);
        EXPECT_LE(ceil_div(total, run), c.blocks);
    }
}

TEST(WalkRuns, BlocksStartOnAtMostFiveRowsGiveOrTakeTheRounding) {
    for (const Case& c : cases()) {
        const auto [total, run, trace] = plan(c);
        SCOPED_TRACE(trace);
        EXPECT_TRUE(has_few_fronts(c.rows, run));
        // The starting rows, rounded down to a tenth of the rows: at most kMaxFronts groups
        // (plus one where a front's drift of less than a row per block crosses a boundary).
        std::set<Ull> fronts;
        for (Ull b = 0; b * run < total; ++b) fronts.insert((b * run % c.rows) * 10 / c.rows);
        EXPECT_LE(fronts.size(), static_cast<std::size_t>(2 * kMaxFronts));
    }
}

TEST(WalkRuns, NoShorterRunWithFewFrontsFits) {
    for (const Case& c : cases()) {
        const auto [total, run, trace] = plan(c);
        SCOPED_TRACE(trace);
        for (Ull n = 1; n <= kMaxFronts; ++n)
            for (Ull m = 1; ceil_div(c.rows * m, n) < run; ++m)
                EXPECT_GT(ceil_div(total, ceil_div(c.rows * m, n)), c.blocks)
                    << "rows * " << m << " / " << n << " also fits";
    }
}

// The shapes the notes quote (H100, 132 multiprocessors, one block each at r = 64).
TEST(WalkRuns, TheMeasuredShapes) {
    // 8192x8192: 64 strips of 128 columns, two fronts, 128 blocks of half a strip.
    EXPECT_EQ(run_with_few_fronts(8192, 64 * 8192, 132), 4096u);
    // 8000 rows of 6000 columns: 47 strips; five fronts, runs of 8000 * 2 / 5 rows, 118 blocks.
    const Ull run = run_with_few_fronts(8000, 47 * 8000, 132);
    EXPECT_EQ(run, 3200u);
    EXPECT_EQ(ceil_div(47 * 8000, run), 118u);
}

}  // namespace
}  // namespace coalesce::walk_runs
