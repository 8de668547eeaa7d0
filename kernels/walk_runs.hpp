// How long the runs of filter_y/fast-walk and -walk-scan are (kernels/fast_walk_runs.cuh): host
// arithmetic only, so that tests/kernels/walk_runs_test.cpp can hold it to its promises without a
// GPU.
#pragma once

#include <algorithm>
#include <climits>

namespace coalesce::walk_runs {

// Blocks that start on the same row read neighbouring pieces of the same matrix rows together
// all the way down; each further distinct starting row (a front) splits DRAM's stream. H100, r =
// 64, 8000x6000 pitched, one wave, % of copy: 14 fronts 85.2-87.4 with every multiprocessor busy,
// 5 fronts 85.3-87.8 with 118 of 132 busy, every block on its own row 85.2-85.7; 8192x8192: 2
// fronts 95.7-97.2, every block on its own row 83.0-89.3. Neither grouping the grid's blocks by
// front (0.5-1 point) nor 140-column strips in 3 fronts (129 blocks: 82.5-85.8) was kept
// (bench/results/2026-11-26-h100-s13/README.md). With 576 threads (twentieth session) fronts
// matter at both sizes: 132 blocks in 23-44 fronts 71.6-86.4 at 8000x6000 and 78.4-85.4 at
// 8192x8192, against 93.4-96.6 for two fronts on 126 / 128 blocks
// (bench/results/2026-11-27-h100-s20/README.md).
constexpr int kMaxFronts = 5;

// The shortest run of strip-rows with which at most `blocks` blocks cover `total` strip-rows
// (strips x rows), of the form ceil(rows * m / n) for n <= kMaxFronts: block b starts at b * run,
// so the blocks start on n rows of their strips (drifting by less than a row per block).
inline unsigned long long run_with_few_fronts(unsigned long long rows, unsigned long long total,
                                              unsigned long long blocks) {
    unsigned long long best = ULLONG_MAX;
    for (unsigned long long n = 1; n <= kMaxFronts; ++n) {
        const unsigned long long m =
            std::max<unsigned long long>(1, (n * total + rows * blocks - 1) / (rows * blocks));
        best = std::min(best, (rows * m + n - 1) / n);
    }
    return best;
}

}  // namespace coalesce::walk_runs
