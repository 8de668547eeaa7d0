// How col_sums/fast-strip-whole (kernels/fast_col_sums.cu) cuts the columns: host arithmetic
// only, so that tests/kernels/col_sums_whole_plan_test.cpp can hold it to its promises without
// a GPU.
#pragma once

#include <algorithm>
#include <cstddef>

namespace coalesce::col_sums_whole {

// The kernel's widths in float4 lanes per strip row, widest first: 16 (64 aligned columns: 128
// strips at 8192), 12 (48: 125 at 6000), 8 and 7 (24 columns at any phase: 126 strips at 3001).
constexpr int kLanes[] = {16, 12, 8, 7};

struct Width {
    int lanes = 16;
    int strip_cols = 64;  // 4 x lanes, 4 fewer where rows start on any 4-byte phase ("shifted")
    std::size_t strips = 1;
};

inline Width width_of(int lanes, std::size_t cols, bool shifted) {
    Width w;
    w.lanes = lanes;
    w.strip_cols = 4 * lanes - (shifted ? 4 : 0);
    w.strips = (cols + static_cast<std::size_t>(w.strip_cols) - 1) /
               static_cast<std::size_t>(w.strip_cols);
    return w;
}

// The elements the busiest multiprocessor sums: a block per strip, `capacity` blocks at once, so
// waves x rows x the strip's columns that lie in the matrix.
inline std::size_t busiest(const Width& w, std::size_t rows, std::size_t cols,
                           std::size_t capacity) {
    const std::size_t waves = (w.strips + capacity - 1) / capacity;
    return waves * rows * std::min(static_cast<std::size_t>(w.strip_cols), cols);
}

// The width that leaves the busiest multiprocessor the fewest elements; the wider on a tie (a
// longer piece of each row per warp).
inline Width choose_width(std::size_t rows, std::size_t cols, bool shifted, std::size_t capacity) {
    Width best = width_of(kLanes[0], cols, shifted);
    for (int lanes : kLanes) {
        const Width w = width_of(lanes, cols, shifted);
        if (busiest(w, rows, cols, capacity) < busiest(best, rows, cols, capacity)) best = w;
    }
    return best;
}

}  // namespace coalesce::col_sums_whole
