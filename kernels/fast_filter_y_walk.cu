// filter Y, pipelined walk: a block of 512 threads owns a strip of 128 columns (512 bytes per
// row) and walks down a long run of rows, 64 output rows per step, with about one block per
// multiprocessor in all (at r = 64). The rows of the current step's windows sit in a
// shared-memory ring; the next two steps' rows are already on their way there (16-byte cp.async
// copies, no registers held) while the block sums the current ones, so DRAM always has loads in
// flight and the 2r halo rows are read once per walk instead of once per 256-row tile
// (fast_filter_y.cu). The sums are the tile kernel's (fast_window.cuh): each thread owns a float2
// of columns and 8 consecutive outputs, long windows through shared sums of 8 rows, so every
// output is a plain sum of its own 2r + 1 values (no subtraction) and the verification bound of a
// direct sum holds. Halo rows come through border_index() once per row, for every border and
// radius (wider than the column too). Rows must start on 16 bytes (columns a multiple of 4).
//
// Why this shape (H100, 8192x8192 and 8000x6000 pitched, r = 64, % of copy): the walk is
// limited by the bytes in flight and by the summing threads per multiprocessor, both paid for in
// shared memory (the ring keeps 2r + 3 x 64 rows). Strips of 32 columns (128-byte rows) reached
// 84-89% whatever the depth, 64 columns 93-94%; 128 columns with float4 sums (256 threads) 94-95%,
// with float2 sums (512 threads, the same ring) 95-97%. Scalar sums, shallower or deeper
// pipelines and 384- or 768-thread blocks lost (smaller rings leave too few bytes in flight,
// larger ones too few blocks). Measured with coalesce-bench (H100, r = 64, clamp / zero / wrap /
// mirror, % of the same run's copy): 8192x8192 96.1 / 96.2 / 95.9 / 95.9 against the tile's
// (pitched) 93.0 / 93.0 / 92.5 / 91.8. But 8000x6000 (8000 rows of 6000 columns) only 70.2-71.1,
// against the tile's 85.1-86.6: 47 strips x 2 walks = 94 blocks for 132 multiprocessors, a third
// of the chip idle (the trials above ran 6000 rows of 8000 columns: 63 strips, 126 blocks). So
// the plan now picks the strip width, 128, 96 or 64 columns, whose walks fill the chip best: 63
// strips of 96 columns x 2 walks at 6000 columns. On an H200 (two calls, clamp, 8000x6000) that
// took the walk from 51.7 to 59.5% of copy at r = 64, 58.8 to 84.1 at r = 32 and 62.2 to 83.2 at
// r = 16, unchanged at 8192x8192 (71.8 at r = 64); on that faster memory the walk and the tile
// are bound by their shared-memory sums at r >= 16 (the tile 80.8 at r = 64). On the H100 the
// walk went from 70.4-71.1 to 80.7-81.4 at r = 64, 8000x6000, still behind the tile's 85.1-86.2:
// a 384-thread block sums three quarters as fast as a 512-thread one.
// Since then (thirteenth session) blocks walk equal runs of strip-rows instead of whole strips
// cut into walks: a run crosses from the bottom of one strip to the top of the next without
// draining the pipeline (see Piece), so the blocks need not be a multiple of the strips (118
// blocks of 128 columns on 47 strips at 6000 columns, in at most five fronts: walk_runs.hpp). H100,
// r = 64, % of copy (old whole-strip walks in the same calls, clamp): 8000x6000 pitched 85.3-87.8
// (81.3-81.7), dense 83.1-85.7 (81.1-81.7); 8192x8192 unchanged at 95.7-97.2 (95.0-97.0). At r =
// 16 and 32 it ran 4-7 points below the old walk at 8192x8192 with the same runs (78-82 against
// 84-86) when bound to two blocks per multiprocessor (64 registers); from r = 16 to 40 it is now
// bound to one (see instances_for), 84.1-84.6 there.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_running.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"
#include "fast_walk_plan.hpp"
#include "fast_window.cuh"
#include "walk_runs.hpp"

#include <algorithm>
#include <climits>
#include <mutex>

namespace coalesce {
namespace {

// A strip is Lanes float4 columns wide (Lanes = 32: 128 columns, 512 bytes per row; 24 and 16
// where narrower strips pad narrow matrices less, see plan_for), walked by 16 * Lanes threads.
constexpr int kLoadRows = 16;  // rows per pass of 16-byte copies
constexpr int kAhead = 2;      // steps loaded ahead of the one being summed
// Summing threads own a float2 of columns: twice the threads of float4 on the same ring (the
// sums wait on shared loads), and still whole 8-byte stores.
using Vec = float2;
constexpr int kVec = 2;
constexpr int kSumRows = kLoadRows * kVec / 4;  // summing thread rows: 8
constexpr int kN = fast::kWindowOutputs;        // outputs per thread and step: 8
constexpr int kStep = kSumRows * kN;            // output rows per step: 64
// Fewest output rows per walk: its 2r halo rows and the pipeline's fill cost once per walk.
constexpr std::size_t kMinWalkRows = 4 * kStep;

template <int Lanes>
struct Strip {
    static constexpr int kLanes = Lanes;
    static constexpr int kThreads = kLoadRows * Lanes;
    static constexpr int kSumLanes = Lanes * 4 / kVec;  // summing threads per row
};

// The ring holds the current step's S + 2r rows and the kAhead next steps' S rows in flight;
// rounded to 8 rows.
int ring_rows(int radius) { return ((1 + kAhead) * kStep + 2 * radius + 7) / 8 * 8; }

// Long windows: sums of 8 rows per column, chunk k over step rows 7 + 8k .. 14 + 8k, once the
// common middle of a thread's windows holds two whole chunks (r >= 11), as in the tile kernel.
int chunk_rows(int radius) {
    const int whole = (2 * radius - kN + 2) / kN;
    return whole >= 2 ? kStep / kN + whole - 1 : 0;
}

std::size_t smem_bytes(int radius, int lanes) {
    return static_cast<std::size_t>(ring_rows(radius) + chunk_rows(radius)) * lanes *
           sizeof(float4);
}

// A block walks a run of strip-rows: [b run, (b + 1) run) in strip-major order (strip * rows +
// row), cut at strip ends into pieces, so every block of the one wave has the same number of
// output rows whatever the strip count (whole strips cut into walks left a third of the chip idle
// at 6000 columns).
struct WalkPlan {
    int lanes = fast::kWideLanes;  // float4 columns per strip
    unsigned strips = 1;
    unsigned long long run = 1;  // strip-rows per block
    int ring = 0;                // ring_rows(radius)
    int chunks = 0;              // chunk_rows(radius)
};

// One piece of a run: output rows y0 .. y0 + n - 1 of one strip. Its stream (input rows y0 - r ..
// y0 + n - 1 + r) starts at stream position q, a multiple of kStep right after the previous
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

__device__ __forceinline__ Piece make_piece(unsigned long long lin, unsigned long long lin1,
                                            long long rows, int q, int span) {
    Piece p;
    p.strip = static_cast<unsigned>(lin / rows);
    p.y0 = static_cast<long long>(lin % rows);
    const unsigned long long left = static_cast<unsigned long long>(rows - p.y0);
    p.n = static_cast<int>(min(left, lin1 - lin));
    p.q = q;
    p.last = lin + p.n >= lin1;
    p.next_q = p.last ? INT_MAX : q + (p.n + span + kStep - 1) / kStep * kStep;
    return p;
}

__device__ __forceinline__ Piece next_piece(const Piece& p, unsigned long long lin1, long long rows,
                                            int span) {
    const unsigned long long lin = static_cast<unsigned long long>(p.strip + 1) * rows;
    return make_piece(lin, lin1, rows, p.next_q, span);
}

// A run's pieces: the first, the stream positions any of them loads (past the last piece's
// stream nothing is loaded) and the output steps that cover them.
struct RunShape {
    Piece first;
    int stream = 0;
    int steps = 0;
};

__device__ __forceinline__ RunShape run_shape(unsigned long long lin0, unsigned long long lin1,
                                              long long rows, int span) {
    RunShape r;
    r.first = make_piece(lin0, lin1, rows, 0, span);
    Piece last = r.first;
    while (!last.last) last = next_piece(last, lin1, rows, span);
    r.stream = last.q + last.n + span;
    r.steps = last.q / kStep + (last.n + kStep - 1) / kStep;
    return r;
}

// The copies of a run's stream into a ring of ring_n rows of Lanes float4: a 16-byte column per
// thread (cp.async), every kLoadRows-th row. Lanes past the last column copy nothing.
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
    // multiples of kStep, a group spans at most kStep + 2r positions and every piece's stream
    // is longer than 2r); each thread takes its rows of the first, then of the second.
    __device__ __forceinline__ void load(int q0, int q1, int slot) {
        constexpr int kLanes = S::kLanes;
        const long long rows = static_cast<long long>(in.rows);
        const int span = 2 * radius;
        const int lt = threadIdx.x % kLanes;
        q1 = min(q1, run.stream);
        while (q0 >= lp.next_q) lp = next_piece(lp, lin1, rows, span);
        int i = threadIdx.x / kLanes;
        const auto rows_of = [&](Piece p, int end) {  // group rows i < end of piece p
            const std::size_t xl = static_cast<std::size_t>(p.strip) * kLanes * 4 + 4 * lt;
            const bool live = xl < in.cols;
            const long long y_of_q = p.y0 - radius - p.q;      // input row of stream position q
            const int last = min(end, p.q + p.n + span - q0);  // past it: between two pieces
            for (; i < end; i += kLoadRows) {
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
            rows_of(next_piece(lp, lin1, rows, span), q1 - q0);
        }
        fast::commit_copies();
    }
};

// One block's run of strip-rows [lin0, lin1).
template <class S>
__device__ __forceinline__ void walk_run(const MatView& in, const MatView& out, int radius,
                                         Border border, float inv, const WalkPlan& plan,
                                         float4* ring4, unsigned long long lin0,
                                         unsigned long long lin1) {
    constexpr int kLanes = S::kLanes, kSumLanes = S::kSumLanes;
    Vec* ring = reinterpret_cast<Vec*>(ring4);  // ring row s: ring[s * kSumLanes + lane]
    Vec* chunk = ring + plan.ring * kSumLanes;
    const long long rows = static_cast<long long>(in.rows);
    const int span = 2 * radius;
    const int ring_n = plan.ring;
    const RunShape run = run_shape(lin0, lin1, rows, span);
    const int steps = run.steps;
    // Sums: kVec columns per thread. Lanes past the last column store nothing but take part in
    // every barrier.
    const int tx = threadIdx.x % kSumLanes, ty = threadIdx.x / kSumLanes;
    RunLoads<S> loads{in, border, radius, lin1, run, ring_n, ring4, run.first};
    const auto load = [&](int q0, int q1, int slot) { loads.load(q0, q1, slot); };

    // Group 0: stream positions 0 .. S + 2r - 1; group t >= 1: the S positions step t adds
    // (tS + 2r .. tS + S + 2r - 1), issued at the start of step t - kAhead into the ring rows
    // step t - kAhead - 1 read last.
    load(0, kStep + span, 0);
    for (int g = 1; g < kAhead; ++g)
        load(g * kStep + span, (g + 1) * kStep + span, g * kStep + span);
    Piece sp = run.first;  // the piece whose outputs the current step computes
    int base = 0;          // ring row of stream position tS
#pragma unroll 1
    for (int t = 0; t < steps; ++t) {
        fast::wait_copies<kAhead - 1>();  // group t has landed (this thread's copies)
        __syncthreads();  // everyone's copies of group t visible; every thread done with step t - 1
        if (t + kAhead < steps) {
            const int q0 = (t + kAhead) * kStep + span;
            load(q0, q0 + kStep, q0 % ring_n);
        } else {
            fast::commit_copies();  // an empty group keeps the count behind wait_copies right
        }
        const int tq = t * kStep;
        while (tq >= sp.next_q) sp = next_piece(sp, lin1, rows, span);
        const int local = tq - sp.q;  // the step's first output row in its piece
        if (local < sp.n) {  // else a step between pieces: its rows are the next piece's halo
            const std::size_t xs = static_cast<std::size_t>(sp.strip) * kLanes * 4 + kVec * tx;
            const bool sum_live = xs < in.cols;
            // This thread's 8 outputs: step rows 8 ty .. 8 ty + 7, windows from ring row p on.
            int p = base + ty * kN;
            if (p >= ring_n) p -= ring_n;
            const auto get = [ring, p, ring_n, tx](int j) {
                const int s = p + j;
                return ring[(s < ring_n ? s : s - ring_n) * kSumLanes + tx];
            };
            const int row0 = local + ty * kN;  // in the piece
            const auto put = [&](int k, Vec v) {
                if (sum_live && row0 + k < sp.n)
                    *reinterpret_cast<Vec*>(
                        gpu::pitched_row(out, static_cast<std::size_t>(sp.y0 + row0 + k)) + xs) = v;
            };
            if (plan.chunks > 0) {
                for (int k = ty; k < plan.chunks; k += kSumRows) {
                    int s0 = base + kN - 1 + kN * k;
                    if (s0 >= ring_n) s0 -= ring_n;
                    chunk[k * kSumLanes + tx] = fast::chunk_sum<Vec, kN>([&](int j) {
                        const int s = s0 + j;
                        return ring[(s < ring_n ? s : s - ring_n) * kSumLanes + tx];
                    });
                }
                __syncthreads();
                const Vec* c = chunk + ty * kSumLanes + tx;
                fast::window_means_chunked<Vec, kN>(
                    radius, inv, get, [c](int i) { return c[i * kSumLanes]; }, put);
            } else {
                fast::window_means<Vec>(radius, inv, get, put);
            }
        }
        base += kStep;
        if (base >= ring_n) base -= ring_n;
    }
}

// The scan walk (filter_y/fast-walk-scan, r >= 32): the same runs, pieces and copies, with sums
// whose cost does not depend on the radius and that never subtract (van Herk / Gil-Werman). The
// stream is cut into blocks of kStep positions; for each block the summing threads compute, per
// column, the sums from each position to the block's end (S) and from the block's start to each
// position (P). A window of 2r + 1 > kStep positions starting at position o of block t ends in
// block t + 1 or t + 2, so its sum is S_t(o) + [the total of block t + 1] + P(its end): partial
// sums of its own values, a tree of plain additions, so the bound of a direct sum holds. A thread
// owns 8 consecutive positions of every block (its rows of the step), so S of its outputs stays in
// its registers until they are due, two blocks later; P goes back into the ring in place of the
// block's values, where other threads read it 2r positions further on.
constexpr int kScanSlots = 2 + kAhead;     // ring blocks: the one scanned, kAhead in flight, P read
constexpr int kScanMinRadius = kStep / 2;  // 2r + 1 > kStep: every window spans two blocks

std::size_t scan_smem_bytes(int /*radius*/, int lanes) {
    // the ring, then a block's segment totals: a Vec per summing thread
    return static_cast<std::size_t>(kScanSlots * kStep + kSumRows) * lanes * sizeof(float4);
}

template <class S>
__device__ __forceinline__ void scan_run(const MatView& in, const MatView& out, int radius,
                                         Border border, float inv, float4* ring4,
                                         unsigned long long lin0, unsigned long long lin1) {
    constexpr int kLanes = S::kLanes, kSumLanes = S::kSumLanes;
    Vec* ring = reinterpret_cast<Vec*>(ring4);            // ring row s: ring[s * kSumLanes + lane]
    Vec* totals = ring + kScanSlots * kStep * kSumLanes;  // the block's 8 segment totals
    const long long rows = static_cast<long long>(in.rows);
    const int span = 2 * radius;
    const RunShape run = run_shape(lin0, lin1, rows, span);
    const int tx = threadIdx.x % kSumLanes, ty = threadIdx.x / kSumLanes;
    // Block m (stream positions [m S, m S + S)) goes to ring slot m mod kScanSlots: never wraps.
    RunLoads<S> loads{in, border, radius, lin1, run, kScanSlots * kStep, ring4, run.first};
    const auto load_block = [&](int m) {
        loads.load(m * kStep, (m + 1) * kStep, m % kScanSlots * kStep);
    };
    const auto slot_of = [&](int m) { return ring + m % kScanSlots * kStep * kSumLanes + tx; };

    for (int m = 0; m < kAhead; ++m) load_block(m);
    Vec s_old[kN], s_mid[kN];  // S of blocks u - 2 and u - 1 at this thread's positions
    Vec t_mid{};               // the total of block u - 1
    Piece sp = run.first;      // the piece of the outputs being stored
    const int j0 = kN * ty + span - kStep;  // output k's window ends at j0 + k past block t + 1
    // Iteration u scans block u, then stores the outputs of step u - 2 (their windows start in
    // block u - 2 and end in u - 1 or u).
#pragma unroll 1
    for (int u = 0; u < run.steps + 2; ++u) {
        fast::wait_copies<kAhead - 1>();  // block u has landed (this thread's copies)
        __syncthreads();  // everyone's copies visible; every thread done with iteration u - 1
        load_block(u + kAhead);  // into the slot of block u - 2, whose P is no longer read
        Vec* mine = slot_of(u) + kN * ty * kSumLanes;
        Vec pre[kN], suf[kN];
#pragma unroll
        for (int k = 0; k < kN; ++k) pre[k] = mine[k * kSumLanes];
        suf[kN - 1] = pre[kN - 1];
#pragma unroll
        for (int k = kN - 2; k >= 0; --k) suf[k] = fast::vadd(pre[k], suf[k + 1]);
#pragma unroll
        for (int k = 1; k < kN; ++k) pre[k] = fast::vadd(pre[k - 1], pre[k]);
        totals[ty * kSumLanes + tx] = pre[kN - 1];
        __syncthreads();
        Vec before{}, after{};  // the totals of the segments before and after this thread's
#pragma unroll
        for (int g = 0; g < kSumRows; ++g) {
            const Vec v = totals[g * kSumLanes + tx];
            if (g < ty) before = fast::vadd(before, v);
            if (g > ty) after = fast::vadd(after, v);
        }
#pragma unroll
        for (int k = 0; k < kN; ++k) {
            mine[k * kSumLanes] = fast::vadd(before, pre[k]);  // P of block u, in place
            suf[k] = fast::vadd(suf[k], after);                // S of block u
        }
        const Vec t_new = fast::vadd(fast::vadd(before, pre[kN - 1]), after);
        __syncthreads();  // P of block u visible
        const int tq = (u - 2) * kStep;
        if (u >= 2) {
            while (tq >= sp.next_q) sp = next_piece(sp, lin1, rows, span);
        }
        const int local = tq - sp.q;   // the step's first output row in its piece
        if (u >= 2 && local < sp.n) {  // else a step between pieces (its rows are a halo)
            const std::size_t xcol = static_cast<std::size_t>(sp.strip) * kLanes * 4 + kVec * tx;
            const bool live = xcol < in.cols;
            const Vec* p1 = slot_of(u + kScanSlots - 1);  // P of block u - 1
            const Vec* p2 = slot_of(u);                   // P of block u
            const int row0 = local + kN * ty;
#pragma unroll
            for (int k = 0; k < kN; ++k) {
                const int j = j0 + k;
                const Vec sum = j < kStep ? fast::vadd(s_old[k], p1[j * kSumLanes])
                                          : fast::vadd(fast::vadd(s_old[k], t_mid),
                                                       p2[(j - kStep) * kSumLanes]);
                if (live && row0 + k < sp.n)
                    *reinterpret_cast<Vec*>(
                        gpu::pitched_row(out, static_cast<std::size_t>(sp.y0 + row0 + k)) + xcol) =
                        fast::vscale(sum, inv);
            }
        }
#pragma unroll
        for (int k = 0; k < kN; ++k) {
            s_old[k] = s_mid[k];
            s_mid[k] = suf[k];
        }
        t_mid = t_new;
    }
}

template <int Lanes>
__global__ void __launch_bounds__(Strip<Lanes>::kThreads, 1)
    fast_filter_y_walk_scan_kernel(MatView in, MatView out, int radius, Border border, float inv,
                                   WalkPlan plan) {
    extern __shared__ float4 ring[];  // kScanSlots blocks of kStep rows x Lanes float4, totals
    const unsigned long long total = static_cast<unsigned long long>(plan.strips) * in.rows;
    const unsigned long long lin0 = blockIdx.x * plan.run;
    scan_run<Strip<Lanes>>(in, out, radius, border, inv, ring, lin0, min(lin0 + plan.run, total));
}

template <int Lanes, int MinBlocks>
__global__ void __launch_bounds__(Strip<Lanes>::kThreads, MinBlocks)
    fast_filter_y_walk_kernel(MatView in, MatView out, int radius, Border border, float inv,
                              WalkPlan plan) {
    extern __shared__ float4 ring[];  // plan.ring rows x Lanes float4, then the chunk sums
    const unsigned long long total = static_cast<unsigned long long>(plan.strips) * in.rows;
    const unsigned long long lin0 = blockIdx.x * plan.run;
    walk_run<Strip<Lanes>>(in, out, radius, border, inv, plan, ring, lin0,
                           min(lin0 + plan.run, total));
}

using WalkKernel = void (*)(MatView, MatView, int, Border, float, WalkPlan);

// 128 columns; 96 and 64 for narrow matrices. Two sets: bound to two blocks per multiprocessor
// (64 registers at 512 threads) and to one (89-92 registers). The ring leaves room for one block
// of 128 columns from r = 11 on, yet the bound still decides how ptxas schedules the sums: H100,
// 8192x8192 dense, % of copy, two blocks -> one: r = 8 86.0 -> 85.3, 11 85.1 -> 84.3, 16 80.6 ->
// 84.3, 24 79.2 -> 84.6, 32 78.5 -> 84.1, 40 77.5 -> 84.2, 48 90.3 -> 87.9, 56 94.5 -> 90.1, 64
// 96.7 -> 93.9 (8000x6000 pitched gains 1.4-5.0 from r = 16 to 40, dense loses 0.5-2.2). Why
// the two-block code falls from r = 16 to 40 and recovers at 48 was not found.
using WalkInstances = fast::StripWalkKernels<WalkKernel, smem_bytes, kLoadRows>;
const WalkInstances walk_kernels_two([](auto lanes) -> WalkKernel {
    return fast_filter_y_walk_kernel<decltype(lanes)::value, 2>;
});
const WalkInstances walk_kernels_one([](auto lanes) -> WalkKernel {
    return fast_filter_y_walk_kernel<decltype(lanes)::value, 1>;
});
const WalkInstances& instances_for(int radius) {
    return radius >= 16 && radius <= 40 ? walk_kernels_one : walk_kernels_two;
}

// One wave: for each strip width, as many blocks as the device holds (fewer where runs would be
// shorter than kMinWalkRows) on runs with few fronts (walk_runs.hpp); of the widths, the one whose
// blocks finish first. A block's time is taken as run x 32 lanes at every width: a narrower block
// moves fewer bytes per row but sums no faster (a 384-thread block reached 80.7% of copy where 512
// threads reached 96), so a narrower strip wins only where it pads a narrow matrix less.
template <class Instances>
WalkPlan plan_for(Shape s, int radius, const Instances& walk_kernels,
                  std::size_t (*smem)(int, int)) {
    WalkPlan best;
    unsigned long long best_run = ULLONG_MAX;
    for (int lanes : walk_kernels.kLanes) {
        const unsigned long long strips =
            gpu::ceil_div(s.cols, static_cast<std::size_t>(lanes) * 4);
        const std::size_t resident = std::max<std::size_t>(
            1, fast::resident_blocks(walk_kernels(lanes), walk_kernels.threads(lanes),
                                     smem(radius, lanes)));
        const unsigned long long total = strips * s.rows;
        const unsigned long long blocks =
            std::clamp<unsigned long long>(total / kMinWalkRows, 1, resident);
        const unsigned long long run = walk_runs::run_with_few_fronts(s.rows, total, blocks);
        if (run < best_run) {
            best_run = run;
            best.lanes = lanes;
            best.strips = static_cast<unsigned>(strips);
            best.run = run;
        }
    }
    if (best.run > (1ull << 30))
        throw Unsupported("a block's run of rows is too long for 32-bit stream positions");
    best.ring = ring_rows(radius);
    best.chunks = chunk_rows(radius);
    return best;
}

void launch_fast_filter_y_walk(MatView in, MatView out, const OpParams& params,
                               cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || !fast::rows_are_16b_aligned(out) || in.cols % 4 != 0)
        throw Unsupported("16-byte copies need rows that start on 16 bytes");
    const WalkInstances& walk_kernels = instances_for(params.radius);
    walk_kernels.allow_smem(kMaxRadius);
    const WalkPlan plan = plan_for({in.rows, in.cols}, params.radius, walk_kernels, smem_bytes);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const unsigned long long total = static_cast<unsigned long long>(plan.strips) * in.rows;
    walk_kernels.launch_grid(plan.lanes, static_cast<unsigned>((total + plan.run - 1) / plan.run),
                             params.radius, stream, "fast_filter_y_walk_kernel", in, out,
                             params.radius, params.border, inv, plan);
}

const fast::StripWalkKernels<WalkKernel, scan_smem_bytes, kLoadRows> scan_kernels(
    [](auto lanes) -> WalkKernel {
        return fast_filter_y_walk_scan_kernel<decltype(lanes)::value>;
    });

void launch_fast_filter_y_walk_scan(MatView in, MatView out, const OpParams& params,
                                    cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || !fast::rows_are_16b_aligned(out) || in.cols % 4 != 0)
        throw Unsupported("16-byte copies need rows that start on 16 bytes");
    scan_kernels.allow_smem(kMaxRadius);
    const WalkPlan plan =
        plan_for({in.rows, in.cols}, params.radius, scan_kernels, scan_smem_bytes);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const unsigned long long total = static_cast<unsigned long long>(plan.strips) * in.rows;
    scan_kernels.launch_grid(plan.lanes, static_cast<unsigned>((total + plan.run - 1) / plan.run),
                             params.radius, stream, "fast_filter_y_walk_scan_kernel", in, out,
                             params.radius, params.border, inv, plan);
}

}  // namespace

void register_fast_filter_y_walk(Registry& registry) {
    // Row arithmetic in 32 bits within a walk; 16-byte copies need whole float4 rows.
    const Limits limits{.cols_multiple = 4, .max_rows = std::size_t{1} << 30};
    const char* what =
        "a 512-thread block walks 128-column strips down an equal run of rows (one wave of "
        "blocks; a run may go on from the bottom of one strip to the top of the next without "
        "draining its pipeline), 64 output rows per step, the windows' rows in a shared-memory "
        "ring and the next two steps' rows already in flight (16-byte cp.async), so the halo is "
        "read once per run; 8 outputs per thread on a float2 of columns, long windows from "
        "shared sums of 8 rows as in filter_y/fast-tile-float4; columns a multiple of 4. At r = "
        "64 on an H100 it beats the tile at 8192x8192 (95.7-97.2% of copy against 91.5-93.0) "
        "and at 8000x6000 (85.3-87.8 pitched, 83.1-85.7 dense, against the tile's 84.9-86.3); "
        "it loses at r <= 40";
    fast::add_dense_and_pitched(
        registry,
        {"filter_y/fast-walk", Op::filter_y, space::shared, what, gpu::Layout::dense, Tier::tuned,
         "fast_filter_y_walk_kernel", limits},
        launch_fast_filter_y_walk);
    const Limits scan_limits{
        .cols_multiple = 4, .min_radius = kScanMinRadius, .max_rows = std::size_t{1} << 30};
    const char* scan_what =
        "filter_y/fast-walk's runs and pipeline with sums that cost the same at every radius and "
        "never subtract (van Herk / Gil-Werman): per block of 64 rows, each column's sums from "
        "every row to the block's end and from the block's start to every row, so a window of 2r "
        "+ 1 > 64 rows is one of the first, at most one block total and one of the second; r >= "
        "32. Lost to filter_y/fast-walk and filter_y/fast-tile-pitched on an H100: 84-86% of copy "
        "at 8192x8192 and 75-80 at 8000x6000 at every r from 32 to 64, where the tile runs 96 at "
        "r = 32 and the walk 97 at r = 64 (8192x8192). Its sums take a fifth of the walk's "
        "instructions, and it runs at the rate every memory-bound walk here reaches on the H100; "
        "the walk at r = 64 is faster only while its sums pace it (bench/NOTES.md)";
    fast::add_dense_and_pitched(
        registry,
        {"filter_y/fast-walk-scan", Op::filter_y, space::shared, scan_what, gpu::Layout::dense,
         Tier::experiment, "fast_filter_y_walk_scan_kernel", scan_limits},
        launch_fast_filter_y_walk_scan,
        ". Lost to filter_y/fast-walk-pitched (see filter_y/fast-walk-scan)");
}

}  // namespace coalesce
