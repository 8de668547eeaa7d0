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

#include <algorithm>
#include <mutex>

namespace coalesce {
namespace {

// A strip is Lanes float4 columns wide (Lanes = 32: 128 columns, 512 bytes per row; 24 and 16
// where narrower strips fill the chip better, see plan_for), walked by 16 * Lanes threads.
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

// Blocks side by side across the strips walk the same rows at about the same time, so DRAM
// sees whole matrix rows read together (runs that started each at its own row, to balance the
// work, read scattered 256-byte pieces and lost a tenth of the bandwidth on an H100).
struct WalkPlan {
    int lanes = fast::kWalkLanes[0];  // float4 columns per strip
    unsigned strips = 1;
    std::size_t walk_rows = 1;  // output rows per block
    int ring = 0;               // ring_rows(radius)
    int chunks = 0;             // chunk_rows(radius)
};

// One walk: output rows y0 .. y0 + n_out - 1 of the strip starting at column x0.
template <class S>
__device__ __forceinline__ void walk_strip(const MatView& in, const MatView& out, int radius,
                                           Border border, float inv, const WalkPlan& plan,
                                           float4* ring4, std::size_t x0, long long y0, int n_out) {
    constexpr int kLanes = S::kLanes, kSumLanes = S::kSumLanes;
    Vec* ring = reinterpret_cast<Vec*>(ring4);  // ring row s: ring[s * kSumLanes + lane]
    Vec* chunk = ring + plan.ring * kSumLanes;
    const long long rows = static_cast<long long>(in.rows);
    const int span = 2 * radius;
    const int stream = n_out + span;  // stream position q: input row y0 - r + q
    const int ring_n = plan.ring;
    // Copies: a 16-byte column per thread; sums: kVec columns per thread. Lanes past the last
    // column copy and store nothing but take part in every barrier.
    const int lt = threadIdx.x % kLanes, lr = threadIdx.x / kLanes;
    const std::size_t xl = x0 + 4 * lt;
    const bool load_live = xl < in.cols;
    const int tx = threadIdx.x % kSumLanes, ty = threadIdx.x / kSumLanes;
    const std::size_t xs = x0 + kVec * tx;
    const bool sum_live = xs < in.cols;

    // Stream positions [q0, q1) into ring rows from `slot` on (slot < ring_n, q1 - q0 <= ring_n),
    // one committed group.
    auto load = [&](int q0, int q1, int slot) {
        q1 = min(q1, stream);
        for (int i = lr; i < q1 - q0; i += kLoadRows) {
            int s = slot + i;
            if (s >= ring_n) s -= ring_n;
            float4* dst = ring4 + s * kLanes + lt;
            long long y = y0 - radius + q0 + i;
            if (y < 0 || y >= rows) y = gpu::border_index(y, rows, border);
            if (!load_live) continue;
            if (y < 0)
                *dst = make_float4(0, 0, 0, 0);  // Border::zero
            else
                fast::copy16_async(dst, gpu::pitched_row(in, static_cast<std::size_t>(y)) + xl);
        }
        fast::commit_copies();
    };

    // Group 0: step 0's S + 2r rows; group t >= 1: the S rows step t adds (stream positions
    // tS + 2r .. tS + S + 2r - 1), issued at the start of step t - kAhead into the ring rows
    // step t - kAhead - 1 read last.
    const int steps = (n_out + kStep - 1) / kStep;
    load(0, kStep + span, 0);
    for (int g = 1; g < kAhead; ++g)
        load(g * kStep + span, (g + 1) * kStep + span, g * kStep + span);
    int base = 0;  // ring row of stream position tS
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
        // This thread's 8 outputs: step rows 8 ty .. 8 ty + 7, windows from ring row p on.
        int p = base + ty * kN;
        if (p >= ring_n) p -= ring_n;
        const auto get = [ring, p, ring_n, tx](int j) {
            const int s = p + j;
            return ring[(s < ring_n ? s : s - ring_n) * kSumLanes + tx];
        };
        const long long ybase = y0 + static_cast<long long>(t) * kStep + ty * kN;
        const auto put = [&](int k, Vec v) {
            const long long y = ybase + k;
            if (sum_live && y < y0 + n_out)
                *reinterpret_cast<Vec*>(gpu::pitched_row(out, static_cast<std::size_t>(y)) + xs) =
                    v;
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
        base += kStep;
        if (base >= ring_n) base -= ring_n;
    }
}

template <int Lanes>
__global__ void __launch_bounds__(Strip<Lanes>::kThreads)
    fast_filter_y_walk_kernel(MatView in, MatView out, int radius, Border border, float inv,
                              WalkPlan plan) {
    extern __shared__ float4 ring[];  // plan.ring rows x Lanes float4, then the chunk sums
    const unsigned strip = blockIdx.x % plan.strips;
    const std::size_t y0 = blockIdx.x / plan.strips * plan.walk_rows;
    const int n_out = static_cast<int>(min(plan.walk_rows, in.rows - y0));
    walk_strip<Strip<Lanes>>(in, out, radius, border, inv, plan, ring,
                             static_cast<std::size_t>(strip) * Lanes * 4,
                             static_cast<long long>(y0), n_out);
}

using WalkKernel = void (*)(MatView, MatView, int, Border, float, WalkPlan);

const fast::WalkKernels<WalkKernel, smem_bytes, kLoadRows> walk_kernels(
    [](auto lanes) -> WalkKernel { return fast_filter_y_walk_kernel<decltype(lanes)::value>; });

// About one wave of walks, the strip width that fills the chip best (fast_walk_plan.hpp).
WalkPlan plan_for(Shape s, int radius) {
    const fast::WalkShape w = walk_kernels.shape(s, radius, kMinWalkRows);
    WalkPlan p;
    p.lanes = w.lanes;
    p.strips = w.strips;
    p.walk_rows = w.walk_rows;
    p.ring = ring_rows(radius);
    p.chunks = chunk_rows(radius);
    return p;
}

void launch_fast_filter_y_walk(MatView in, MatView out, const OpParams& params,
                               cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || !fast::rows_are_16b_aligned(out) || in.cols % 4 != 0)
        throw Unsupported("16-byte copies need rows that start on 16 bytes");
    walk_kernels.allow_smem(kMaxRadius);
    const WalkPlan plan = plan_for({in.rows, in.cols}, params.radius);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    walk_kernels.launch(plan, in.rows, params.radius, stream, "fast_filter_y_walk_kernel", in, out,
                        params.radius, params.border, inv, plan);
}

}  // namespace

void register_fast_filter_y_walk(Registry& registry) {
    // Row arithmetic in 32 bits within a walk; 16-byte copies need whole float4 rows.
    const Limits limits{.cols_multiple = 4, .max_rows = std::size_t{1} << 30};
    const char* what =
        "a 512-thread block walks a 128-column strip down a long run of rows (one wave of "
        "blocks), 64 output rows per step, the windows' rows in a shared-memory ring and the "
        "next two steps' rows already in flight (16-byte cp.async), so the halo is read once per "
        "walk; 8 outputs per thread on a float2 of columns, long windows from shared sums of 8 "
        "rows as in filter_y/fast-tile-float4; columns a multiple of 4. At r = 64 on an H100 it "
        "beats the tile at 8192x8192 (95.9-96.2% of copy against 91.8-93.0) but not at "
        "8000x6000 (70-71% against 85-87: 47 strips x 2 walks of 128 columns left a third of the "
        "chip idle, so strips are now 96 or 64 columns wide where that fills the chip better: "
        "80.7-81.4% there since, the tile 85.1-86.2); "
        "it loses at r <= 40";
    registry.add(
        fast::device_variant({"filter_y/fast-walk", Op::filter_y, space::shared, what,
                              gpu::Layout::dense, Tier::tuned, "fast_filter_y_walk_kernel", limits},
                             launch_fast_filter_y_walk));
    registry.add(
        fast::device_variant({"filter_y/fast-walk-pitched", Op::filter_y, space::pitched,
                              "filter_y/fast-walk on cudaMallocPitch rows", gpu::Layout::pitched,
                              Tier::tuned, "fast_filter_y_walk_kernel", limits},
                             launch_fast_filter_y_walk));
}

}  // namespace coalesce
