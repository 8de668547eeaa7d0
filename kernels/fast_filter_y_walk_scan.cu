// filter Y, scan walk (filter_y/fast-walk-scan, r >= 32): filter_y/fast-walk's runs, pieces and
// copies (fast_walk_runs.cuh), with sums whose cost does not depend on the radius and that never
// subtract (van Herk / Gil-Werman). The stream is cut into blocks of kStep positions; for each
// block the summing threads compute, per column, the sums from each position to the block's end (S)
// and from the block's start to each position (P). A window of 2r + 1 > kStep positions starting at
// position o of block t ends in block t + 1 or t + 2, so its sum is S_t(o) + [the total of block t
// + 1] + P(its end): partial sums of its own values, a tree of plain additions, so the bound of a
// direct sum holds. A thread owns 8 consecutive positions of every block (its rows of the step), so
// S of its outputs stays in its registers until they are due, two blocks later; P goes back into
// the ring in place of the block's values, where other threads read it 2r positions further on.
//
// Measured (H100, bench/results/2026-11-26-h100-s14): 84-86% of copy at 8192x8192 and 75-80 at
// 8000x6000 for every r from 32 to 64, the rate of every walk here that waits on memory; see
// bench/NOTES.md, fourteenth round, for what did not move it. On an H200 (sixteenth session) it is
// the fastest filter Y at 8192x8192 for r = 32 and 64: 94.5-95.5% of copy, where the walk runs 72
// and the prefix walk 89-91 (bench/results/2026-11-26-h100-s16).
#include "fast_variant.hpp"
#include "fast_variants.hpp"
#include "fast_walk_runs.cuh"

namespace coalesce {
namespace {

using namespace fast_walk;

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
    const RunShape run = run_shape(lin0, lin1, rows, span, S::kStep);
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
            while (tq >= sp.next_q) sp = next_piece(sp, lin1, rows, span, S::kStep);
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
    const BlockRun b = block_run(plan, in.rows);
    scan_run<Strip<Lanes>>(in, out, radius, border, inv, ring, b.lin0, b.lin1);
}

const fast::StripWalkKernels<WalkKernel, scan_smem_bytes, fast::threads_per_lane<kLoadRows>>
    scan_kernels([](auto lanes) -> WalkKernel {
        return fast_filter_y_walk_scan_kernel<decltype(lanes)::value>;
    });

void launch_fast_filter_y_walk_scan(MatView in, MatView out, const OpParams& params,
                                    cudaStream_t stream) {
    launch_runs(scan_kernels, scan_smem_bytes, in, out, params, stream,
                "fast_filter_y_walk_scan_kernel", [](WalkPlan&) {});
}

}  // namespace

void register_fast_filter_y_walk_scan(Registry& registry) {
    const Limits scan_limits{
        .cols_multiple = 4, .min_radius = kScanMinRadius, .max_rows = std::size_t{1} << 30};
    const char* scan_what =
        "filter_y/fast-walk's runs and pipeline with sums that cost the same at every radius and "
        "never subtract (van Herk / Gil-Werman): per block of 64 rows, each column's sums from "
        "every row to the block's end and from the block's start to every row, so a window of 2r "
        "+ 1 > 64 rows is one of the first, at most one block total and one of the second; r >= "
        "32. Lost to filter_y/fast-walk and filter_y/fast-tile-pitched on an H100: 84-86% of copy "
        "at 8192x8192 and 75-80 at 8000x6000 at every r from 32 to 64, where the tile runs 96 at "
        "r = 32 and the walk 97 at r = 64 (8192x8192). Its sums take a third of the walk's "
        "instructions, and it runs at the rate every memory-bound walk here reaches on the H100; "
        "the walk at r = 64 is faster only while its sums pace it (bench/NOTES.md). On an H200 it "
        "is the fastest filter Y at 8192x8192 for r = 32 and 64 (94.5-95.5, the walk 72)";
    fast::add_dense_and_pitched(
        registry,
        {"filter_y/fast-walk-scan", Op::filter_y, space::shared, scan_what, gpu::Layout::dense,
         Tier::experiment, "fast_filter_y_walk_scan_kernel", scan_limits},
        launch_fast_filter_y_walk_scan,
        ". Lost to filter_y/fast-walk-pitched (see filter_y/fast-walk-scan)");
}

}  // namespace coalesce
