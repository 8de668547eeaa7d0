// The walks by runs of filter Y (filter_y/fast-walk, fast_filter_y_walk.cu, and
// filter_y/fast-walk-scan, fast_filter_y_walk_scan.cu): a block of 512 threads walks a run of
// strip-rows (128, 96 or 64 columns per strip) in steps of 64 output rows, its stream of input rows
// copied into a shared-memory ring by 16-byte cp.async two steps ahead. Here: the step's shape, a
// run's pieces (a run goes on from the bottom of one strip to the top of the next without draining
// its pipeline), the copies of its stream, and the one-wave plan. The sums are each file's own.
#pragma once

#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "fast_common.cuh"
#include "fast_running.cuh"
#include "fast_walk_plan.hpp"
#include "fast_window.cuh"
#include "walk_runs.hpp"

#include <algorithm>
#include <climits>

namespace coalesce::fast_walk {

// A strip is Lanes float4 columns wide (Lanes = 32: 128 columns, 512 bytes per row; narrower
// where they pad a matrix less or fill the multiprocessors better, see plan_for), walked by
// LoadRows * Lanes threads.
constexpr int kLoadRows = 16;  // rows per pass of 16-byte copies (the 128-column strip's)
constexpr int kAhead = 2;      // steps loaded ahead of the one being summed
// Summing threads own a float2 of columns: twice the threads of float4 on the same ring (the
// sums wait on shared loads), and still whole 8-byte stores.
using Vec = float2;
constexpr int kVec = 2;
constexpr int kN = fast::kWindowOutputs;  // outputs per thread and step: 8
// Summing thread rows of a strip copied LoadRows rows per pass: one per 4 / kVec load rows.
constexpr int sum_rows_of(int load_rows) { return load_rows * kVec / 4; }
// Output rows per step: kN per summing thread row. Host code sizes the ring with it; Strip::kStep
// is the same number.
constexpr int step_rows_of(int load_rows) { return sum_rows_of(load_rows) * kN; }
// The 128-column strip's step (and filter_y/fast-walk-scan's block of rows): 8 summing thread
// rows x kN = 64 output rows.
constexpr int kSumRows = sum_rows_of(kLoadRows);
constexpr int kStep = step_rows_of(kLoadRows);
// Fewest output rows per walk: its 2r halo rows and the pipeline's fill cost once per walk.
constexpr std::size_t kMinWalkRows = 4 * kStep;

template <int Lanes, int LoadRows = kLoadRows>
struct Strip {
    static_assert(LoadRows % 2 == 0, "two load rows per summing thread row");
    static constexpr int kLanes = Lanes;
    static constexpr int kLoadRows = LoadRows;
    static constexpr int kThreads = LoadRows * Lanes;
    static constexpr int kSumLanes = Lanes * 4 / kVec;  // summing threads per row
    static constexpr int kSumRows = sum_rows_of(LoadRows);
    static constexpr int kStep = step_rows_of(LoadRows);  // output rows per step
};

// A block walks a run of strip-rows: [b run, (b + 1) run) in strip-major order (strip * rows +
// row), cut at strip ends into pieces, so every block of the one wave has the same number of
// output rows whatever the strip count (whole strips cut into walks left a third of the chip idle
// at 6000 columns).
struct WalkPlan {
    int lanes = fast::kWideLanes;  // float4 columns per strip
    unsigned strips = 1;
    unsigned long long run = 1;  // strip-rows per block
    int ring = 0;                // filter_y/fast-walk's ring rows (ring_rows(radius))
    int chunks = 0;              // and chunk rows (chunk_rows(radius))
};

// One piece of a run: output rows y0 .. y0 + n - 1 of one strip. Its stream (input rows y0 - r ..
// y0 + n - 1 + r) starts at stream position q, a multiple of the step right after the previous
// piece's, so the steps between two pieces only load (the next piece's halo) and the pipeline
// keeps its loads in flight across the change of strip.
struct Piece {
    unsigned strip = 0;
    long long y0 = 0;
    int n = 0;
    int q = 0;
    bool last = true;  // the run ends with this piece
    int next_q = 0;    // stream position of the next piece (past every position if last)
};

// This block's run of strip-rows [lin0, lin1): block b starts at b * run, the last one ends early.
struct BlockRun {
    unsigned long long lin0 = 0;
    unsigned long long lin1 = 0;
};

__device__ __forceinline__ BlockRun block_run(const WalkPlan& plan, std::size_t rows) {
    const unsigned long long total = static_cast<unsigned long long>(plan.strips) * rows;
    const unsigned long long lin0 = blockIdx.x * plan.run;
    return {lin0, min(lin0 + plan.run, total)};
}

__device__ __forceinline__ Piece make_piece(unsigned long long lin, unsigned long long lin1,
                                            long long rows, int q, int span, int step) {
    Piece p;
    p.strip = static_cast<unsigned>(lin / rows);
    p.y0 = static_cast<long long>(lin % rows);
    const unsigned long long left = static_cast<unsigned long long>(rows - p.y0);
    p.n = static_cast<int>(min(left, lin1 - lin));
    p.q = q;
    p.last = lin + p.n >= lin1;
    p.next_q = p.last ? INT_MAX : q + (p.n + span + step - 1) / step * step;
    return p;
}

__device__ __forceinline__ Piece next_piece(const Piece& p, unsigned long long lin1, long long rows,
                                            int span, int step) {
    const unsigned long long lin = static_cast<unsigned long long>(p.strip + 1) * rows;
    return make_piece(lin, lin1, rows, p.next_q, span, step);
}

// A run's pieces: the first, the stream positions any of them loads (past the last piece's
// stream nothing is loaded) and the output steps that cover them.
struct RunShape {
    Piece first;
    int stream = 0;
    int steps = 0;
};

__device__ __forceinline__ RunShape run_shape(unsigned long long lin0, unsigned long long lin1,
                                              long long rows, int span, int step) {
    RunShape r;
    r.first = make_piece(lin0, lin1, rows, 0, span, step);
    Piece last = r.first;
    while (!last.last) last = next_piece(last, lin1, rows, span, step);
    r.stream = last.q + last.n + span;
    r.steps = last.q / step + (last.n + step - 1) / step;
    return r;
}

// The copies of a run's stream into a ring of ring_n rows of Lanes float4: a 16-byte column per
// thread (cp.async), every S::kLoadRows-th row. Lanes past the last column copy nothing.
template <class S>
struct RunLoads {
    const MatView& in;
    Border border;
    int radius;
    unsigned long long lin1;
    RunShape run;
    int ring_n;
    float4* ring4;
    Piece lp;  // the piece of the next group's first position

    // Stream positions [q0, q1) into ring rows from `slot` on (slot < ring_n, q1 - q0 <= ring_n),
    // one committed group. The positions reach into two pieces at most (pieces start on
    // multiples of the step, a group spans at most a step + 2r positions and every piece's stream
    // is longer than 2r); each thread takes its rows of the first, then of the second.
    __device__ __forceinline__ void load(int q0, int q1, int slot) {
        constexpr int kLanes = S::kLanes;
        const long long rows = static_cast<long long>(in.rows);
        const int span = 2 * radius;
        const int lt = threadIdx.x % kLanes;
        q1 = min(q1, run.stream);
        while (q0 >= lp.next_q) lp = next_piece(lp, lin1, rows, span, S::kStep);
        int i = threadIdx.x / kLanes;
        const auto rows_of = [&](Piece p, int end) {  // group rows i < end of piece p
            const std::size_t xl = static_cast<std::size_t>(p.strip) * kLanes * 4 + 4 * lt;
            const bool live = xl < in.cols;
            const long long y_of_q = p.y0 - radius - p.q;      // input row of stream position q
            const int last = min(end, p.q + p.n + span - q0);  // past it: between two pieces
            for (; i < end; i += S::kLoadRows) {
                if (!live || i >= last) continue;
                int s = slot + i;
                if (s >= ring_n) s -= ring_n;
                float4* dst = ring4 + s * kLanes + lt;
                long long y = y_of_q + q0 + i;
                if (y < 0 || y >= rows) y = gpu::border_index(y, rows, border);
                if (y < 0)
                    *dst = make_float4(0, 0, 0, 0);  // Border::zero
                else
                    fast::copy16_async(dst, gpu::pitched_row(in, static_cast<std::size_t>(y)) + xl);
            }
        };
        if (q1 <= lp.next_q) {
            rows_of(lp, q1 - q0);
        } else {
            rows_of(lp, lp.next_q - q0);
            rows_of(next_piece(lp, lin1, rows, span, S::kStep), q1 - q0);
        }
        fast::commit_copies();
    }
};

using WalkKernel = void (*)(MatView, MatView, int, Border, float, WalkPlan);

// One wave of a walk kernel's blocks: for each strip width, as many blocks as the device holds
// (fewer where runs would be shorter than kMinWalkRows) on runs with few fronts (walk_runs.hpp); of
// the widths, the one whose blocks finish first. A block's time is taken as its outputs per
// thread, run x lanes / threads: the walks are bound by their sums (a 384-thread block on 96
// columns reached 80.7% of copy where 512 threads on 128 reached 96), so a narrower strip with as
// many threads walks its rows faster, and wins where its blocks fill the chip with fewer fronts.
template <class Instances>
WalkPlan plan_for(Shape s, int radius, const Instances& walk_kernels,
                  std::size_t (*smem)(int, int)) {
    WalkPlan best;
    double best_cost = 0;
    for (int lanes : walk_kernels.kLanes) {
        const unsigned long long strips =
            gpu::ceil_div(s.cols, static_cast<std::size_t>(lanes) * 4);
        const int threads = walk_kernels.threads(lanes);
        const std::size_t resident = std::max<std::size_t>(
            1, fast::resident_blocks(walk_kernels(lanes), threads, smem(radius, lanes)));
        const unsigned long long total = strips * s.rows;
        const unsigned long long blocks =
            std::clamp<unsigned long long>(total / kMinWalkRows, 1, resident);
        const unsigned long long run = walk_runs::run_with_few_fronts(s.rows, total, blocks);
        const double cost = static_cast<double>(run) * lanes / threads;
        if (best_cost == 0 || cost < best_cost) {
            best_cost = cost;
            best.lanes = lanes;
            best.strips = static_cast<unsigned>(strips);
            best.run = run;
        }
    }
    if (best.run > (1ull << 30))
        throw Unsupported("a block's run of rows is too long for 32-bit stream positions");
    return best;
}

// Launches one wave of `kernels` on the plan for this input; `finish` completes the plan with what
// only that kernel reads (its ring and chunk rows).
template <class Instances, class Finish>
void launch_runs(const Instances& kernels, std::size_t (*smem)(int, int), MatView in, MatView out,
                 const OpParams& params, cudaStream_t stream, const char* name, Finish finish) {
    if (!fast::rows_are_16b_aligned(in) || !fast::rows_are_16b_aligned(out) || in.cols % 4 != 0)
        throw Unsupported("16-byte copies need rows that start on 16 bytes");
    kernels.allow_smem(kMaxRadius);
    WalkPlan plan = plan_for({in.rows, in.cols}, params.radius, kernels, smem);
    finish(plan);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const unsigned long long total = static_cast<unsigned long long>(plan.strips) * in.rows;
    kernels.launch_grid(plan.lanes, static_cast<unsigned>((total + plan.run - 1) / plan.run),
                        params.radius, stream, name, in, out, params.radius, params.border, inv,
                        plan);
}

}  // namespace coalesce::fast_walk
