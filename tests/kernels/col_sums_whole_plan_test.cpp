// col_sums/fast-strip-whole's strip width (kernels/col_sums_whole_plan.hpp): the strips cover the
// columns, fit in one wave whenever a width allows, and leave the busiest multiprocessor no more
// elements than any other width would.
#include "col_sums_whole_plan.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace coalesce::col_sums_whole {
namespace {

struct Case {
    std::size_t rows, cols;
    bool shifted;
    std::size_t capacity;
};

const std::vector<Case>& cases() {
    static const std::vector<Case> c = {
        {4097, 3001, true, 132},  {3001, 4097, true, 132},  {8192, 8192, false, 132},
        {8000, 6000, false, 132}, {6000, 8000, false, 132}, {1, 1, true, 132},
        {37, 1, true, 132},       {2200000, 1, true, 132},  {100, 65536, false, 132},
        {9, 100003, true, 114},   {64, 60, false, 1},       {5, 24, true, 7},
    };
    return c;
}

std::string trace(const Case& c) {
    return std::to_string(c.rows) + "x" + std::to_string(c.cols) +
           (c.shifted ? " shifted" : " aligned") + ", " + std::to_string(c.capacity) + " blocks";
}

TEST(ColSumsWholePlan, StripsCoverTheColumnsOnce) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(trace(c));
        const Width w = choose_width(c.rows, c.cols, c.shifted, c.capacity);
        EXPECT_EQ(w.strip_cols, 4 * w.lanes - (c.shifted ? 4 : 0));
        EXPECT_GE(w.strips * static_cast<std::size_t>(w.strip_cols), c.cols);
        EXPECT_LT((w.strips - 1) * static_cast<std::size_t>(w.strip_cols), c.cols);
    }
}

TEST(ColSumsWholePlan, OneWaveWheneverAWidthAllowsIt) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(trace(c));
        bool some_width_fits = false;
        for (int lanes : kLanes)
            some_width_fits |= width_of(lanes, c.cols, c.shifted).strips <= c.capacity;
        const Width w = choose_width(c.rows, c.cols, c.shifted, c.capacity);
        if (some_width_fits) {
            EXPECT_LE(w.strips, c.capacity);
        }
    }
}

TEST(ColSumsWholePlan, NoOtherWidthLeavesTheBusiestMultiprocessorLess) {
    for (const Case& c : cases()) {
        SCOPED_TRACE(trace(c));
        const Width w = choose_width(c.rows, c.cols, c.shifted, c.capacity);
        for (int lanes : kLanes) {
            const Width other = width_of(lanes, c.cols, c.shifted);
            EXPECT_LE(busiest(w, c.rows, c.cols, c.capacity),
                      busiest(other, c.rows, c.cols, c.capacity))
                << lanes << " lanes";
            if (busiest(other, c.rows, c.cols, c.capacity) ==
                busiest(w, c.rows, c.cols, c.capacity)) {
                EXPECT_GE(w.lanes, lanes) << "a tie goes to the wider strip";
            }
        }
    }
}

// The shapes the notes quote (H100: 132 multiprocessors, one block each).
TEST(ColSumsWholePlan, TheMeasuredShapes) {
    const Width odd = choose_width(4097, 3001, true, 132);  // rows start on every 4-byte phase
    EXPECT_EQ(odd.strip_cols, 24);
    EXPECT_EQ(odd.strips, 126u);
    const Width square = choose_width(8192, 8192, false, 132);
    EXPECT_EQ(square.strip_cols, 64);
    EXPECT_EQ(square.strips, 128u);
    const Width wide = choose_width(8000, 6000, false, 132);
    EXPECT_EQ(wide.strip_cols, 48);
    EXPECT_EQ(wide.strips, 125u);
}

}  // namespace
}  // namespace coalesce::col_sums_whole
