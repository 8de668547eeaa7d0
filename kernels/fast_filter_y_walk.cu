// filter Y, pipelined walk: a block of 576 threads owns a strip of 128 columns (512 bytes per
// row; 96 or 64 where they fit the matrix better, see load_rows) and walks down a long run of
// rows, 72 output rows per step, with about one block per multiprocessor in all (at r = 64). The
// rows of the current step's windows sit in a shared-memory ring; the next two steps' rows are
// already on their way there (16-byte cp.async copies, no registers held) while the block sums the
// current ones, so DRAM always has loads in flight and the 2r halo rows are read once per walk
// instead of once per 256-row tile (fast_filter_y.cu). The sums are the tile kernel's
// (fast_window.cuh): each thread owns a float2 of columns and 8 consecutive outputs, long windows
// through shared sums of 8 rows, so every output is a plain sum of its own 2r + 1 values (no
// subtraction) and the verification bound of a direct sum holds. Halo rows come through
// border_index() once per row, for every border and radius (wider than the column too). Rows must
// start on 16 bytes (columns a multiple of 4).
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
// Sixteenth session: every width walks with 576 threads (load_rows), and the plan weighs a block's
// outputs per thread, so 96-column strips in two fronts (126 blocks) beat 128 columns in five at
// 6000 columns. H100, r = 64, % of copy: 8000x6000 94.1-94.2 dense and pitched (before: 87.3
// pitched in two calls of that session, 83.1-85.7 dense in the thirteenth), 8192x8192 95.7-96.4
// (96.4 pitched before).
// Twenty-fourth session, every block timed at 8000x6000, r = 64: the last strip's two blocks (48
// of its 96 columns inside the image) end last, 2-3 us after the median of 133-135, whichever
// multiprocessors run them. Reading that strip whole (moved left to end at the last column,
// storing only its own columns) took them off the end but left the figure level (91.0-92.7
// against 91.4-92.3 in the same call), and runs a few rows longer than 4000 spread the fronts
// (+1 row: 90.3-90.6 against 93.1-94.1; bench/results/2026-11-27-h100-s24/).
// Twenty-seventh session: walking each strip's lower run bottom-up, so that both runs read the
// rows around their meeting row at the same time, cut the DRAM bytes read at 8000x6000, r = 64
// from 195.2 to 192.1 MB (the matrix itself) and did not shorten the launch (143.2 against 142.6
// us; 93.2-93.5% of copy against 93.9-94.4). More threads per block (624, 672 at 56 registers)
// lost 5-10 points. So there fewer bytes, fewer instructions per step (nineteenth session) and
// more threads have each failed to make the walk faster (bench/results/2026-11-28-h100-s27/).
// Twenty-eighth session, every block timed from its entry at 8000x6000, r = 64: its steps run
// at the copy's rate (3.05 us for 9.2 MB, 3020 GB/s). What the launch loses against the copy is
// at its ends: the 4.4-6.8 us before step 0, while group 0's 224 rows land, and the last block's
// end 1.7-3.3 us after the median. Shorter runs in several waves paid that prologue per block and
// lost 5-10 points (bench/results/2026-11-28-h100-s28/).
// Twenty-ninth session: a smaller group 0 (the stream started at the last step's slack) and a last
// step whose idle thread rows skip their sums took 8000x6000 to 95.2 at clamp and zero but left
// wrap and mirror at 94.5-94.7, and cost 0.6-2.0 points at 8192x8192 with PTX that differs from
// this by one branch; halo rows through L1 lost 6-8 (bench/results/2026-12-07-h100-s29/).
#include "fast_variant.hpp"
#include "fast_variants.hpp"
#include "fast_walk_runs.cuh"
#include "fast_walk_widths.hpp"

namespace coalesce {
namespace {

using namespace fast_walk;

// Every strip width walks with 576 threads (its sums set the pace, see plan_for): 18 load rows at
// 128 columns (a step of 72 output rows), 24 at 96 (96), 36 at 64 (144). H100, r = 64, pitched,
// % of copy (sixteenth round): 96 columns at 8000x6000 (63 strips x 2 walks, 126 blocks) 91.0 with
// 480 threads, 94.2 with 576, 86-87 with 624 and 90.5-90.9 with 672 (their registers, bound to two
// blocks, fall to 48 and 40); 128 columns at 8192x8192 96.1 with 512 and 96.3 with 576. Strips
// whose rows are not whole 32-byte sectors lose outright: 92 columns (368 bytes, 66 strips that
// would fill 132 multiprocessors in two fronts) 81 at 8000x6000 and 58 at 8192x8192.
constexpr int load_rows(int lanes) { return 576 / lanes / 2 * 2; }
int threads(int lanes) { return load_rows(lanes) * lanes; }
int step_rows(int lanes) { return step_rows_of(load_rows(lanes)); }

// The ring holds the current step's S + 2r rows and the kAhead next steps' S rows in flight;
// rounded to 8 rows.
int ring_rows(int radius, int step) { return ((1 + kAhead) * step + 2 * radius + 7) / 8 * 8; }

// Long windows: sums of 8 rows per column, chunk k over step rows 7 + 8k .. 14 + 8k, once the
// common middle of a thread's windows holds two whole chunks (r >= 11), as in the tile kernel.
int chunk_rows(int radius, int step) {
    const int whole = (2 * radius - kN + 2) / kN;
    return whole >= 2 ? step / kN + whole - 1 : 0;
}

std::size_t smem_bytes(int radius, int lanes) {
    const int step = step_rows(lanes);
    return static_cast<std::size_t>(ring_rows(radius, step) + chunk_rows(radius, step)) * lanes *
           sizeof(float4);
}

// One block's run of strip-rows [lin0, lin1).
//
// The walk must stay paced by its sums. Cheaper steps run slower: without the modulo per step
// (about 3% of its instructions) 8000x6000 at r = 64 fell from 94 to 85% of copy, and with the
// ring's wrap tests, the row loop and the stores trimmed as well (about a third) to 80, 8192x8192
// to 84. A walk that outruns the memory waits, its blocks drift apart and its fronts no longer
// read the matrix rows together (H100, nineteenth session: bench/NOTES.md). Holding every block
// of that lean walk within two steps of the slowest (a lab sync on a global step count) took it
// back to 90-91 and 93-94 (twentieth session). So the modulo and the per-row wrap tests below stay.
template <class S>
__device__ __forceinline__ void walk_run(const MatView& in, const MatView& out, int radius,
                                         Border border, float inv, const WalkPlan& plan,
                                         float4* ring4, unsigned long long lin0,
                                         unsigned long long lin1) {
    constexpr int kLanes = S::kLanes, kSumLanes = S::kSumLanes, kStep = S::kStep;
    Vec* ring = reinterpret_cast<Vec*>(ring4);  // ring row s: ring[s * kSumLanes + lane]
    Vec* chunk = ring + plan.ring * kSumLanes;
    const long long rows = static_cast<long long>(in.rows);
    const int span = 2 * radius;
    const int ring_n = plan.ring;
    const RunShape run = run_shape(lin0, lin1, rows, span, S::kStep);
    const int steps = run.steps;
    // Sums: kVec columns per thread. Lanes past the last column store nothing but take part in
    // every barrier.
    const int tx = threadIdx.x % kSumLanes, ty = threadIdx.x / kSumLanes;
    RunLoads<S> loads{in, border, radius, lin1, run, ring_n, ring4, run.first};

    // Group 0: stream positions 0 .. S + 2r - 1; group t >= 1: the S positions step t adds
    // (tS + 2r .. tS + S + 2r - 1), issued at the start of step t - kAhead into the ring rows
    // step t - kAhead - 1 read last.
    loads.load(0, kStep + span, 0);
    for (int g = 1; g < kAhead; ++g)
        loads.load(g * kStep + span, (g + 1) * kStep + span, g * kStep + span);
    Piece sp = run.first;  // the piece whose outputs the current step computes
    int base = 0;          // ring row of stream position tS
#pragma unroll 1
    for (int t = 0; t < steps; ++t) {
        fast::wait_copies<kAhead - 1>();  // group t has landed (this thread's copies)
        __syncthreads();  // everyone's copies of group t visible; every thread done with step t - 1
        if (t + kAhead < steps) {
            const int q0 = (t + kAhead) * kStep + span;
            loads.load(q0, q0 + kStep, q0 % ring_n);
        } else {
            fast::commit_copies();  // an empty group keeps the count behind wait_copies right
        }
        const int tq = t * kStep;
        while (tq >= sp.next_q) sp = next_piece(sp, lin1, rows, span, S::kStep);
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
                for (int k = ty; k < plan.chunks; k += S::kSumRows) {
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

template <int Lanes>
using WalkStrip = Strip<Lanes, load_rows(Lanes)>;

template <int Lanes, int MinBlocks>
__global__ void __launch_bounds__(WalkStrip<Lanes>::kThreads, MinBlocks)
    fast_filter_y_walk_kernel(MatView in, MatView out, int radius, Border border, float inv,
                              WalkPlan plan) {
    extern __shared__ float4 ring[];  // plan.ring rows x Lanes float4, then the chunk sums
    const BlockRun b = block_run(plan, in.rows);
    walk_run<WalkStrip<Lanes>>(in, out, radius, border, inv, plan, ring, b.lin0, b.lin1);
}

// Two sets: bound to two blocks per multiprocessor (56 registers at 576 threads; 64 at the 512
// threads of the figures below) and to one (89-92 registers). The ring leaves room for one block
// of 128 columns from r = 11 on, yet the bound still decides how ptxas schedules the sums: H100,
// 8192x8192 dense, % of copy, two blocks -> one: r = 8 86.0 -> 85.3, 11 85.1 -> 84.3, 16 80.6 ->
// 84.3, 24 79.2 -> 84.6, 32 78.5 -> 84.1, 40 77.5 -> 84.2, 48 90.3 -> 87.9, 56 94.5 -> 90.1, 64
// 96.7 -> 93.9 (8000x6000 pitched gains 1.4-5.0 from r = 16 to 40, dense loses 0.5-2.2). Why
// the two-block code falls from r = 16 to 40 and recovers at 48 was not found.
// 128, 96 and 64 columns, widest first. At 6000 columns 96 (63 strips) fills 126 multiprocessors
// in two fronts, where 128 (47 strips) fills 118 in five.
using WalkInstances = fast::StripWalkKernels<WalkKernel, smem_bytes, threads>;
const WalkInstances walk_kernels_two([](auto lanes) -> WalkKernel {
    return fast_filter_y_walk_kernel<decltype(lanes)::value, 2>;
});
const WalkInstances walk_kernels_one([](auto lanes) -> WalkKernel {
    return fast_filter_y_walk_kernel<decltype(lanes)::value, 1>;
});
const WalkInstances& instances_for(int radius) {
    return radius >= 16 && radius <= 40 ? walk_kernels_one : walk_kernels_two;
}

void launch_fast_filter_y_walk(MatView in, MatView out, const OpParams& params,
                               cudaStream_t stream) {
    launch_runs(instances_for(params.radius), smem_bytes, in, out, params, stream,
                "fast_filter_y_walk_kernel", [&](WalkPlan& plan) {
                    const int step = step_rows(plan.lanes);
                    plan.ring = ring_rows(params.radius, step);
                    plan.chunks = chunk_rows(params.radius, step);
                });
}

}  // namespace

int fast_walk_strip_columns(Shape shape, int radius) {
    const WalkInstances& kernels = instances_for(radius);
    kernels.allow_smem(kMaxRadius);
    return 4 * fast_walk::plan_for(shape, radius, kernels, smem_bytes).lanes;
}

void register_fast_filter_y_walk(Registry& registry) {
    // Row arithmetic in 32 bits within a walk; 16-byte copies need whole float4 rows.
    const Limits limits{.cols_multiple = 4, .max_rows = std::size_t{1} << 30};
    const char* what =
        "a 576-thread block walks 128-column strips (96 or 64 where they fill the chip in fewer "
        "fronts) down an equal run of rows (one wave of blocks; a run may go on from the bottom "
        "of one strip to the top of the next without draining its pipeline), 72 output rows per "
        "step at 128 columns, the windows' rows in a shared-memory ring and the next two steps' "
        "rows already in flight (16-byte cp.async), so the halo is read once per run; 8 outputs "
        "per thread on a float2 of columns, long windows from shared sums of 8 rows as in "
        "filter_y/fast-tile-float4; columns a multiple of 4. At r = 64 on an H100 it beats the "
        "tile at 8192x8192 (95.7-96.4% of copy against 93.0) and at 8000x6000 (94.1-94.2, "
        "96-column strips, against the tile's 85.9-86.3); it loses at r <= 40";
    fast::add_dense_and_pitched(
        registry,
        {"filter_y/fast-walk", Op::filter_y, space::shared, what, gpu::Layout::dense, Tier::tuned,
         "fast_filter_y_walk_kernel", limits},
        launch_fast_filter_y_walk);
}

}  // namespace coalesce
