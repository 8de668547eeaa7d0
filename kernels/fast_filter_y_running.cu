// filter Y, running sum: each lane owns one column and walks down a segment of rows, adding the
// row entering the window and subtracting the one leaving it (fast_running.cuh), so an output
// costs the same at every radius. A warp covers 32 adjacent columns (128 contiguous bytes per
// row); each lane streams its column through its own ring of 2r + 1 + 40 rows in shared memory,
// filled by 4-byte cp.async copies 32 rows ahead of the window, so every input byte comes from
// DRAM once (plus 2r halo rows per segment, from L2) and the loads take any row alignment. The
// ring is private to the lane: no barrier anywhere, idle lanes past the last column just leave.
// Rows outside the matrix come through border_index(), once per row.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_index.cuh"
#include "device_instance.hpp"
#include "fast_running.cuh"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kLanes = 32;                    // one warp per block, one column per lane
constexpr int kGroup = 8;                     // rows per committed group of copies (a power of two)
constexpr int kAhead = 4;                     // groups in flight beyond the one being read
constexpr std::size_t kMinSegmentRows = 512;  // seeds and halo rows cost 2r per segment
constexpr std::size_t kMaxSegmentRows = 4096;  // longest walk (the error bound of fast_running.cuh)

// Ring rows: the window (2r + 1), the group being read and the kAhead groups in flight.
int ring_rows(int radius) { return 2 * radius + 1 + (kAhead + 1) * kGroup; }
std::size_t smem_bytes(int radius) {
    return static_cast<std::size_t>(ring_rows(radius)) * kLanes * sizeof(float);
}

struct YRunPlan {
    unsigned bands = 1;        // 32-column bands
    std::size_t seg_rows = 1;  // output rows per warp
    int ring = 0;              // ring rows (ring_rows(radius))
};

__global__ void __launch_bounds__(kLanes)
    fast_filter_y_running_kernel(MatView in, MatView out, int radius, Border border, float inv,
                                 YRunPlan plan) {
    extern __shared__ float ring_all[];
    const int lane = threadIdx.x;
    const unsigned band = blockIdx.x % plan.bands;
    const std::size_t seg = blockIdx.x / plan.bands;
    const std::size_t col = static_cast<std::size_t>(band) * kLanes + lane;
    if (col >= in.cols) return;
    const long long rows = static_cast<long long>(in.rows);
    const long long y0 = static_cast<long long>(seg * plan.seg_rows);
    const int n_out =
        static_cast<int>(std::min<long long>(static_cast<long long>(plan.seg_rows), rows - y0));
    const int span = 2 * radius;  // the window is span + 1 rows
    const float taps = static_cast<float>(span + 1);
    const int stream = n_out + span;  // stream position q is input row y0 - radius + q
    const int ring = plan.ring;
    float* mine = ring_all + lane;  // ring row s of this lane: mine[s * kLanes]
    const char* src = reinterpret_cast<const char*>(in.data + col);

    int q_issue = 0, s_issue = 0;
    // One group of copies: stream positions q_issue .. q_issue + kGroup - 1 (those that exist).
    auto issue_group = [&] {
        const long long y_first = y0 - radius + q_issue;
        if (y_first >= 0 && y_first + kGroup <= rows && q_issue + kGroup <= stream) {
            // Inside the matrix (warp-uniform): consecutive rows, no border rule.
            const char* p = src + y_first * in.pitch_bytes;
#pragma unroll
            for (int i = 0; i < kGroup; ++i) {
                fast::copy4_async(mine + s_issue * kLanes, reinterpret_cast<const float*>(p));
                p += in.pitch_bytes;
                if (++s_issue == ring) s_issue = 0;
            }
            q_issue += kGroup;
            fast::commit_copies();
            return;
        }
#pragma unroll
        for (int i = 0; i < kGroup; ++i) {
            if (q_issue < stream) {
                float* dst = mine + s_issue * kLanes;
                long long y = y0 - radius + q_issue;
                if (y < 0 || y >= rows) y = gpu::border_index(y, rows, border);
                if (y < 0)
                    *dst = 0.0f;  // Border::zero
                else
                    fast::copy4_async(dst,
                                      reinterpret_cast<const float*>(src + y * in.pitch_bytes));
            }
            ++q_issue;
            if (++s_issue == ring) s_issue = 0;
        }
        fast::commit_copies();
    };

    // Groups 0 .. kAhead in flight; group g is complete once group g + kAhead is issued and at
    // most kAhead groups are pending.
#pragma unroll 1
    for (int g = 0; g <= kAhead; ++g) issue_group();
    fast::wait_copies<kAhead>();

    fast::RunningSum sum;
    char* dst = reinterpret_cast<char*>(out.data + col) + y0 * out.pitch_bytes;
    int s_in = 0, s_out = 0;  // ring rows of the entering and the leaving stream position
#pragma unroll 1
    for (int q = 0; q < stream; ++q) {
        if (q > 0 && (q & (kGroup - 1)) == 0) {
            issue_group();
            fast::wait_copies<kAhead>();
            sum.renormalise();
        }
        const float enter = mine[s_in * kLanes];
        if (++s_in == ring) s_in = 0;
        if (q <= span) {
            sum.add(enter);  // the first window, rows y0 - r .. y0 + r
        } else {
            sum.slide(enter, mine[s_out * kLanes]);
            if (++s_out == ring) s_out = 0;
        }
        if (q >= span) {
            *reinterpret_cast<float*>(dst) = sum.mean(taps, inv);
            dst += out.pitch_bytes;
        }
    }
}

// One wave where the shape allows: as many row segments per band as the resident warps hold, but
// segments of at least kMinSegmentRows (seeding and halo cost 2r rows each) and at most
// kMaxSegmentRows.
YRunPlan plan_for(Shape s, int radius) {
    YRunPlan p;
    p.bands = gpu::ceil_div(s.cols, kLanes);
    p.ring = ring_rows(radius);
    const std::size_t resident =
        fast::resident_blocks(fast_filter_y_running_kernel, kLanes, smem_bytes(radius));
    const std::size_t fewest = gpu::ceil_div(s.rows, kMaxSegmentRows);
    const std::size_t most = std::max<std::size_t>(fewest, s.rows / kMinSegmentRows);
    const std::size_t segs =
        std::clamp<std::size_t>(resident / p.bands, fewest, std::max<std::size_t>(most, 1));
    p.seg_rows = gpu::ceil_div(s.rows, segs);
    return p;
}

void launch_fast_filter_y_running(MatView in, MatView out, const OpParams& params,
                                  cudaStream_t stream) {
    const YRunPlan plan = plan_for({in.rows, in.cols}, params.radius);
    const unsigned segs = gpu::ceil_div(in.rows, plan.seg_rows);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    fast_filter_y_running_kernel<<<plan.bands * segs, kLanes, smem_bytes(params.radius), stream>>>(
        in, out, params.radius, params.border, inv, plan);
    COALESCE_CHECK_LAUNCH("fast_filter_y_running_kernel");
}

// Grids are one-dimensional: bands x segments must fit blockIdx.x.
std::string grid_refusal(Shape input, const OpParams&) {
    const std::size_t blocks = static_cast<std::size_t>(gpu::ceil_div(input.cols, kLanes)) *
                               gpu::ceil_div(input.rows, kMaxSegmentRows);
    if (blocks <= gpu::kMaxGridX) return {};
    return "more 32-column bands times 4096-row segments than a grid holds";
}

}  // namespace

void register_fast_filter_y_running(Registry& registry) {
    registry.add(fast::device_variant(
        {"filter_y/fast-running-sum",
         Op::filter_y,
         space::shared,
         "a running sum down each column (add the entering row, subtract the "
         "leaving one, the "
         "pair hi + lo keeping every rounding error), so an output costs the same at every radius; "
         "a lane per column streams it through its own ring in shared memory, filled by 4-byte "
         "cp.async copies 32 rows ahead (any width and alignment, no barrier). Lost to "
         "filter_y/fast-tile-float4 at every radius on an H100: 63-82% of copy against 98% at "
         "r = 4 and 77% at r = 64 (one 128-byte line per warp and row, 32-thread blocks)",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_filter_y_running_kernel",
         {}},
        launch_fast_filter_y_running, grid_refusal));
}

}  // namespace coalesce
