// filter Y, prefix walk: filter_y/fast-walk's pipeline (fast_filter_y_walk.cu: a block walks a
// strip of 128, 96 or 64 columns down a long run of rows, 64 rows per step, the rows in a
// shared-memory ring, the next two steps' rows in flight as 16-byte cp.async copies) with sums
// whose cost does not depend on the radius. The window sum of output row y is the one of y - 1
// plus d(y) = x(y + r) - x(y - r - 1); a step's 64 sums are the previous step's last one plus
// prefix sums of d. Eight threads per pair of columns share a step, 8 rows each: each sums its
// own d's (two 8-byte shared loads per pair of outputs), the eight totals meet in shared memory,
// and each thread adds the totals before its rows to the carried sums. The ring's first 8 rows
// are copied again past its end, so a thread's rows never wrap (one pointer, constant offsets).
//
// Sums in double: a float converts exactly, d(y) is exact unless its two samples differ by more
// than 2^29 in magnitude, and the carried sum errs by at most about n 2^-53 M after n rows (M the
// largest window sum of |values| met), far inside the verification bound of a (2r+1)-term float
// sum for any walk here; the prefix sums need no compensation and each row's chain is one
// double add. Hopper adds 64 doubles per clock and multiprocessor and converts 16 floats to or
// from double; three conversions per output are the most stalled instructions (Nsight Compute's
// source counters). On GPUs with slow doubles this variant is not the one to pick.
//
// Measured (coalesce-bench, 20 reps, % of the same call's copy, clamp; 8192x8192 / 8000x6000):
//   H200 r = 1 92.1 / 90.2 (pitched 92.7 / 92.0), 16 91.0 / 89.9, 32 90.3 / 89.5, 64 88.7 / 88.5
//        (pitched 90.0): where filter_y/fast-walk ran 85-88 at r = 1 and 72 / 59 at r = 64, and
//        the tile 97 at r = 1 but 81 / 77 at r = 64.
//   H100 86-88 / 84-87 at every radius: below the tile (95-99) at r <= 32 and the walk (95.7) at
//        r = 64 on 8192x8192, level with the tile (86) at r = 64 on 8000x6000.
// Trials that lost (H200, same sizes, r = 16 unless said): one thread per column carrying a
// running sum down the walk, 71 / 53% (43 / 33 at r = 64): four warps per multiprocessor leave
// each row's dependent sum exposed, and a double instead of the compensated float pair changed
// nothing; four threads per column (one column, 16 rows each, 4-byte shared loads), 91.0 / 84.1
// (29 instructions per output; the copies about 4 of them); the copies through the bulk copy
// engine instead (one lane per row, cp.async.bulk), 54 / 76; eight threads per column of 8 rows,
// 70 / 69; three steps in flight instead of two, 91.5 / 86.7.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_running.cuh"  // cp.async helpers
#include "fast_variant.hpp"
#include "fast_variants.hpp"
#include "fast_walk_plan.hpp"

#include <algorithm>
#include <mutex>

namespace coalesce {
namespace {

constexpr int kStep = 64;  // output rows per step
constexpr int kAhead = 2;  // steps loaded ahead of the one being summed
constexpr int kSegs = 8;   // threads per column pair, each summing kSegRows rows of a step
constexpr int kSegRows = kStep / kSegs;
constexpr int kThreadsPerLane = 2 * kSegs;  // a float4 lane's 2 column pairs x kSegs threads
constexpr int kOverhang = kSegRows;         // ring rows repeated past its end
constexpr std::size_t kMaxWalkRows = std::size_t{1} << 16;  // the error bound above
constexpr std::size_t kMinWalkRows = 4 * kStep;  // a walk's seed and halo cost once per walk

// The ring holds the current step's window rows (S + 2r + 1: the row leaving the first output's
// window too) and the kAhead next steps' S rows in flight.
int ring_rows(int radius) { return (1 + kAhead) * kStep + 2 * radius + 1; }

// The ring, its first kSegRows rows again past its end (so a thread's rows never wrap: their
// addresses are one pointer plus constant offsets), then the segment totals per column.
std::size_t smem_bytes(int radius, int lanes) {
    return static_cast<std::size_t>(ring_rows(radius) + kOverhang) * lanes * sizeof(float4) +
           static_cast<std::size_t>(kSegs) * 4 * lanes * sizeof(double);
}

struct RunWalkPlan {
    // float4 columns per strip; the block has kThreadsPerLane * lanes threads
    int lanes = fast::kWideLanes;
    unsigned strips = 1;
    std::size_t walk_rows = 1;  // output rows per block
    int ring = 0;               // ring_rows(radius)
};

template <int Lanes>
__global__ void __launch_bounds__(kThreadsPerLane* Lanes, 1)
    fast_filter_y_walk_prefix_kernel(MatView in, MatView out, int radius, Border border, double inv,
                                     RunWalkPlan plan) {
    constexpr int kCols = 4 * Lanes;   // columns of the strip
    extern __shared__ float4 ring4[];  // plan.ring + kOverhang rows x Lanes float4, then totals
    double* totals = reinterpret_cast<double*>(ring4 + (plan.ring + kOverhang) * Lanes);
    const unsigned strip = blockIdx.x % plan.strips;
    const long long y0 = static_cast<long long>(blockIdx.x / plan.strips * plan.walk_rows);
    const std::size_t x0 = static_cast<std::size_t>(strip) * kCols;
    const long long rows = static_cast<long long>(in.rows);
    const int n_out = static_cast<int>(min(static_cast<long long>(plan.walk_rows), rows - y0));
    const int span = 2 * radius + 1;  // window rows
    // Stream position q is input row y0 - radius - 1 + q: output i leaves q = i, enters i + span.
    const int stream = n_out + span;
    const int ring_n = plan.ring;

    // Copies: a 16-byte column per thread, every kThreadsPerLane-th row (cp.async). Stream
    // positions [q0, q1) into ring rows from `slot` on (slot = q0 mod ring_n), one committed
    // group; rows of the first kOverhang ring rows go to their twin past the end too.
    const int lt = threadIdx.x % Lanes, lr = threadIdx.x / Lanes;
    const std::size_t xl = x0 + 4 * lt;
    const bool load_live = xl < in.cols;
    auto load = [&](int q0, int q1, int slot) {
        q1 = min(q1, stream);
        int s = slot + lr;
        if (s >= ring_n) s -= ring_n;
        const long long y_first = y0 - radius - 1 + q0;
        if (load_live && y_first >= 0 && y_first + (q1 - q0) <= rows) {
            // Inside the matrix (all but a walk's first and last groups at the borders): one
            // pointer stepped by kThreadsPerLane rows.
            const char* src = reinterpret_cast<const char*>(
                gpu::pitched_row(in, static_cast<std::size_t>(y_first + lr)) + xl);
            const std::size_t stride = kThreadsPerLane * in.pitch_bytes;
            for (int q = q0 + lr; q < q1; q += kThreadsPerLane) {
                const float* f = reinterpret_cast<const float*>(src);
                fast::copy16_async(ring4 + s * Lanes + lt, f);
                if (s < kOverhang) fast::copy16_async(ring4 + (s + ring_n) * Lanes + lt, f);
                src += stride;
                s += kThreadsPerLane;
                if (s >= ring_n) s -= ring_n;
            }
        } else if (load_live) {
            for (int q = q0 + lr; q < q1; q += kThreadsPerLane) {
                long long y = y0 - radius - 1 + q;
                if (y < 0 || y >= rows) y = gpu::border_index(y, rows, border);
                float4* dst = ring4 + s * Lanes + lt;
                float4* twin = s < kOverhang ? dst + ring_n * Lanes : nullptr;
                if (y < 0) {  // Border::zero
                    *dst = make_float4(0, 0, 0, 0);
                    if (twin) *twin = *dst;
                } else {
                    const float* f = gpu::pitched_row(in, static_cast<std::size_t>(y)) + xl;
                    fast::copy16_async(dst, f);
                    if (twin) fast::copy16_async(twin, f);
                }
                s += kThreadsPerLane;
                if (s >= ring_n) s -= ring_n;
            }
        }
        fast::commit_copies();
    };

    // Group 0: the seed's rows and step 0's (q < S + span); group t >= 1: the S rows step t
    // adds, issued at the start of step t - kAhead into the rows step t - kAhead - 1 read last.
    const int steps = (n_out + kStep - 1) / kStep;
    load(0, kStep + span, 0);
    for (int g = 1; g < kAhead; ++g)
        load(g * kStep + span, (g + 1) * kStep + span, g * kStep + span);
    int load_slot = kAhead * kStep + span;  // ring row of the next group's first row

    // Sums: columns 2 cp and 2 cp + 1 of the strip (a float2: 8-byte shared loads and global
    // stores), rows seg * 8 .. seg * 8 + 7 of each step. Rows past the walk's end are summed too
    // (from stale ring rows: their sums reach only outputs that are not stored).
    const int cp = threadIdx.x % (kCols / 2), seg = threadIdx.x / (kCols / 2);
    const std::size_t x = x0 + 2 * cp;
    const bool live = x < in.cols;  // both columns: the columns are a multiple of 4
    const std::size_t out_pitch = out.pitch_bytes / sizeof(float);
    const float2* ring2 = reinterpret_cast<const float2*>(ring4);  // row s: ring2[s * kCols / 2]
    double2* totals2 = reinterpret_cast<double2*>(totals);
    double2 carried{0.0, 0.0};   // the window sums before the step (every segment's thread agrees)
    int leave = seg * kSegRows;  // ring row of this thread's first leaving row in the step
    int enter = leave + span;    // and of its first entering row
    if (enter >= ring_n) enter -= ring_n;
#pragma unroll 1
    for (int t = 0; t < steps; ++t) {
        fast::wait_copies<kAhead - 1>();  // group t has landed (this thread's copies)
        __syncthreads();  // everyone's copies of group t visible; every thread done with step t - 1
        if (t + kAhead < steps) {
            const int q0 = (t + kAhead) * kStep + span;
            load(q0, q0 + kStep, load_slot);
            load_slot += kStep;
            if (load_slot >= ring_n) load_slot -= ring_n;
        } else {
            fast::commit_copies();  // an empty group keeps the count behind wait_copies right
        }
        if (t == 0) {  // the windows of output -1: stream positions 0 .. span - 1
            for (int q = 0; q < span; ++q) {
                const float2 v = ring2[q * (kCols / 2) + cp];
                carried.x += static_cast<double>(v.x);
                carried.y += static_cast<double>(v.y);
            }
        }
        const float2* pl = ring2 + leave * (kCols / 2) + cp;
        const float2* pe = ring2 + enter * (kCols / 2) + cp;
        double2 prefix[kSegRows];
        double2 run{0.0, 0.0};
#pragma unroll
        for (int k = 0; k < kSegRows; ++k) {
            const float2 e = pe[k * (kCols / 2)], l = pl[k * (kCols / 2)];
            run.x += static_cast<double>(e.x) - static_cast<double>(l.x);
            run.y += static_cast<double>(e.y) - static_cast<double>(l.y);
            prefix[k] = run;
        }
        totals2[seg * (kCols / 2) + cp] = run;
        __syncthreads();
        double2 base{0.0, 0.0};
#pragma unroll
        for (int j = 0; j < kSegs; ++j) {  // the same additions, in the same order, in all
            if (j == seg) base = carried;
            const double2 tj = totals2[j * (kCols / 2) + cp];
            carried.x += tj.x;
            carried.y += tj.y;
        }
        const int i0 = t * kStep + seg * kSegRows;  // this thread's first output of the step
        const int n = min(kSegRows, n_out - i0);
        if (live && n > 0) {
            float2* dst = reinterpret_cast<float2*>(
                gpu::pitched_row(out, static_cast<std::size_t>(y0 + i0)) + x);
            const double bx = base.x * inv, by = base.y * inv;
#pragma unroll
            for (int k = 0; k < kSegRows; ++k) {
                if (k < n)
                    __stcs(dst, make_float2(static_cast<float>(fma(prefix[k].x, inv, bx)),
                                            static_cast<float>(fma(prefix[k].y, inv, by))));
                dst = reinterpret_cast<float2*>(reinterpret_cast<float*>(dst) + out_pitch);
            }
        }
        leave += kStep;
        if (leave >= ring_n) leave -= ring_n;
        enter += kStep;
        if (enter >= ring_n) enter -= ring_n;
    }
}

using RunWalkKernel = void (*)(MatView, MatView, int, Border, double, RunWalkPlan);

const fast::StripWalkKernels<RunWalkKernel, smem_bytes, fast::threads_per_lane<kThreadsPerLane>>
    walk_kernels([](auto lanes) -> RunWalkKernel {
        return fast_filter_y_walk_prefix_kernel<decltype(lanes)::value>;
    });

// As filter_y/fast-walk plans (fast_walk_plan.hpp), with walks of at most kMaxWalkRows rows.
RunWalkPlan plan_for(Shape s, int radius) {
    const fast::WalkShape w = walk_kernels.shape(s, radius, kMinWalkRows, kMaxWalkRows);
    RunWalkPlan p;
    p.lanes = w.lanes;
    p.strips = w.strips;
    p.walk_rows = w.walk_rows;
    p.ring = ring_rows(radius);
    return p;
}

void launch_fast_filter_y_walk_prefix(MatView in, MatView out, const OpParams& params,
                                      cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || in.cols % 4 != 0)
        throw Unsupported("16-byte copies need rows that start on 16 bytes");
    walk_kernels.allow_smem(kMaxRadius);
    const RunWalkPlan plan = plan_for({in.rows, in.cols}, params.radius);
    const double inv = 1.0 / (2 * params.radius + 1);
    walk_kernels.launch(plan, in.rows, params.radius, stream, "fast_filter_y_walk_prefix_kernel",
                        in, out, params.radius, params.border, inv, plan);
}

}  // namespace

void register_fast_filter_y_walk_prefix(Registry& registry) {
    // Row arithmetic in 32 bits within a walk; 16-byte copies need whole float4 rows.
    const Limits limits{.cols_multiple = 4, .max_rows = std::size_t{1} << 30};
    const char* what =
        "filter_y/fast-walk's pipeline (a 512-thread block walks a 128-column strip down a long "
        "run of rows, the rows in a shared-memory ring, the next two steps' rows in flight) with "
        "sums that cost the same at every radius: each output's window sum is the previous one "
        "plus the row entering minus the row leaving, as prefix sums in double, eight threads "
        "per pair of columns per 64-row step; columns a multiple of 4. On an H200 87.6-92.6% of "
        "copy "
        "at every radius (the tile 97 at r = 1, 77-81 at r = 64); on an H100 84-88";
    fast::add_dense_and_pitched(
        registry,
        {"filter_y/fast-walk-prefix", Op::filter_y, space::shared, what, gpu::Layout::dense,
         Tier::tuned, "fast_filter_y_walk_prefix_kernel", limits},
        launch_fast_filter_y_walk_prefix);
}

}  // namespace coalesce
