// How a strip walk (filter_y/fast-walk, filter_y/fast-walk-prefix) covers a matrix: the strip
// width, 128, 96 or 64 columns (32, 24 or 16 float4 lanes), and the rows each block walks. About
// one wave: each strip cut into as many walks as the resident blocks hold, of at least min_rows
// output rows (a walk's halo and pipeline fill cost once per walk) and at most max_rows (0: no
// limit). Of the
// widths, the one whose walks keep the most of the resident blocks busy, the wider unless a
// narrower one does 2% better (a wider strip reads longer runs of each row); blocks idle in a
// last partial wave count against a width. At 6000 columns and r = 64, 47 strips of 128 x 2
// walks fill 94 of 132 blocks, 63 strips of 96 x 2 walks 126.
#pragma once

#include "coalesce/kernels.hpp"
#include "device_index.cuh"

#include <algorithm>
#include <cstddef>

namespace coalesce::fast {

struct WalkShape {
    int lanes = 32;  // float4 columns per strip
    unsigned strips = 1;
    std::size_t walk_rows = 1;  // output rows per block
};

// resident_of(lanes): the blocks of that width's kernel the device holds at once.
template <class ResidentOf>
WalkShape walk_shape(Shape s, ResidentOf resident_of, std::size_t min_rows,
                     std::size_t max_rows = 0) {
    WalkShape best;
    double best_busy = -1;
    for (int lanes : {32, 24, 16}) {
        WalkShape p;
        p.lanes = lanes;
        p.strips =
            static_cast<unsigned>(gpu::ceil_div(s.cols, static_cast<std::size_t>(lanes) * 4));
        const std::size_t resident = std::max<std::size_t>(1, resident_of(lanes));
        const std::size_t most = std::max<std::size_t>(1, s.rows / min_rows);
        const std::size_t fewest =
            max_rows == 0 ? 1 : s.rows / max_rows + (s.rows % max_rows != 0 ? 1 : 0);
        const std::size_t walks =
            std::max(fewest, std::clamp<std::size_t>(resident / p.strips, 1, most));
        p.walk_rows = gpu::ceil_div(s.rows, walks);
        const std::size_t blocks = p.strips * gpu::ceil_div(s.rows, p.walk_rows);
        const std::size_t waves = gpu::ceil_div(blocks, resident);
        const double busy = static_cast<double>(blocks) / static_cast<double>(waves * resident);
        if (busy > best_busy + 0.02) {
            best = p;
            best_busy = busy;
        }
    }
    return best;
}

}  // namespace coalesce::fast
