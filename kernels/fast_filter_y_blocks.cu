// filter Y, window blocks, an experiment: each thread owns one column and walks a segment of rows;
// it keeps the suffix sums of the current block of 2r + 1 rows in its own column of shared memory
// (no barrier anywhere), reads the next block row by row straight from global memory, emits one
// output per row and turns the block into suffix sums with one backward pass. Sixteen rows are
// loaded ahead of the one being summed. Segments fill one wave of resident blocks; odd segments
// walk upwards, so two neighbouring segments start (and end) on the rows they share and read those
// halo rows at the same time, from the L2.
//
// Why it lost (H100, 8192x8192, % of copy; bench/NOTES.md): the cost per output is flat, but
// flat at 73-83% (r = 4: 78.9, 32: 83.4, 64: 72.9) against the staged tile's 98.3 / 94.9 / 77.0.
// A warp reads one 128-byte line per row, and 2r + 1 slots per column leave room for few
// columns per multiprocessor at large radii: too few bytes in flight. Four columns per thread
// (16-byte loads) reached 88% at r <= 16 but fell to 55% at r = 64 (three 32-thread blocks per
// multiprocessor).
//
// A line is cut into blocks of w = 2r + 1 samples. A window of w samples that starts at offset j
// of block k is the suffix of block k from j on plus the prefix of block k + 1 before j: with the
// suffix sums of block k stored, a walk along block k + 1 that keeps its running prefix emits one
// window per step, and one backward pass then turns block k + 1 into suffix sums for the next
// block. Every output costs the same at every radius (a load, a store, a few additions), and no
// sum ever holds more than the window's own w terms: the error is that of a direct sum of w terms
// (its longest chain of additions is w - 1), with no drift along the line and nothing to
// compensate, so the verification bound of the direct filters holds unchanged.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_index.cuh"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"

#include <algorithm>
#include <mutex>

namespace coalesce {
namespace {

// Turns w raw samples, slot s at slots[s * stride], into suffix sums: slots[s] becomes the sum of
// samples s .. w - 1, added from the end.
__device__ __forceinline__ void suffix_sums(float* slots, int w, int stride) {
    float acc = 0.0f;
#pragma unroll 4
    for (int s = w - 1; s >= 0; --s) {
        acc = slots[s * stride] + acc;
        slots[s * stride] = acc;
    }
}

constexpr int kThreads = 128;  // columns per block, one per thread
constexpr int kAhead = 16;     // rows loaded ahead of the one being summed

std::size_t smem_bytes(int radius) {
    return static_cast<std::size_t>(2 * radius + 1) * kThreads * sizeof(float);
}

struct YBlocksPlan {
    unsigned bands = 1;        // blocks across the columns
    std::size_t seg_rows = 1;  // output rows per segment
};

__global__ void __launch_bounds__(kThreads)
    fast_filter_y_blocks_kernel(MatView in, MatView out, int radius, Border border, float inv,
                                YBlocksPlan plan) {
    extern __shared__ float slots_all[];  // (2r + 1) slots x kThreads
    const unsigned band = blockIdx.x % plan.bands;
    const unsigned seg = blockIdx.x / plan.bands;
    const std::size_t col = static_cast<std::size_t>(band) * kThreads + threadIdx.x;
    if (col >= in.cols) return;
    const long long rows = static_cast<long long>(in.rows);
    const long long first = static_cast<long long>(seg) * static_cast<long long>(plan.seg_rows);
    const int n_out =
        static_cast<int>(std::min<long long>(static_cast<long long>(plan.seg_rows), rows - first));
    const int w = 2 * radius + 1;
    const int stream = n_out + 2 * radius;  // input rows the segment reads
    // Stream position q is input row base + step * q; output o is row obase + step * o.
    const bool up = (seg & 1u) != 0;
    const long long step = up ? -1 : 1;
    const long long base = up ? first + n_out - 1 + radius : first - radius;
    const long long obase = up ? first + n_out - 1 : first;
    const char* src = reinterpret_cast<const char*>(in.data + col);
    char* dst = reinterpret_cast<char*>(out.data + col);
    float* slots = slots_all + threadIdx.x;  // slot s: slots[s * kThreads]

    auto load = [&](int q) -> float {
        if (q >= stream) return 0.0f;
        long long y = base + step * q;
        if (y < 0 || y >= rows) {
            y = gpu::border_index(y, rows, border);
            if (y < 0) return 0.0f;  // Border::zero
        }
        return __ldg(reinterpret_cast<const float*>(src + y * in.pitch_bytes));
    };

    // Block 0 (stream rows 0 .. w - 1) into suffix sums.
#pragma unroll 1
    for (int s0 = 0; s0 < w; s0 += kAhead) {
        float v[kAhead];
#pragma unroll
        for (int u = 0; u < kAhead; ++u) v[u] = s0 + u < w ? load(s0 + u) : 0.0f;
#pragma unroll
        for (int u = 0; u < kAhead; ++u)
            if (s0 + u < w) slots[(s0 + u) * kThreads] = v[u];
    }
    // The first rows to enter are loaded before the suffix pass, to overlap it.
    float cur[kAhead], next[kAhead];
#pragma unroll
    for (int u = 0; u < kAhead; ++u) cur[u] = load(w + u);
    suffix_sums(slots, w, kThreads);

    // Output o is the window of stream rows o .. o + w - 1: the suffix of the block holding o,
    // from o's slot j, plus the prefix `pre` of the next block before j. Row o + w enters next.
    float pre = 0.0f;
    int j = 0;
#pragma unroll 1
    for (int o0 = 0; o0 < n_out; o0 += kAhead) {
#pragma unroll
        for (int u = 0; u < kAhead; ++u) next[u] = load(o0 + kAhead + w + u);
#pragma unroll
        for (int u = 0; u < kAhead; ++u) {
            const int o = o0 + u;
            if (o >= n_out) break;
            const float sum = slots[j * kThreads] + pre;
            *reinterpret_cast<float*>(dst + (obase + step * o) * out.pitch_bytes) = sum * inv;
            pre += cur[u];
            slots[j * kThreads] = cur[u];
            if (++j == w) {  // the next block is complete (rows past the stream read as 0)
                suffix_sums(slots, w, kThreads);
                j = 0;
                pre = 0.0f;
            }
        }
#pragma unroll
        for (int u = 0; u < kAhead; ++u) cur[u] = next[u];
    }
}

// One wave: as many row segments per band as the resident blocks allow, but no segment shorter
// than four blocks of 2r + 1 rows (each segment reads one block of halo rows twice).
YBlocksPlan plan_for(Shape s, int radius) {
    YBlocksPlan p;
    p.bands = gpu::ceil_div(s.cols, kThreads);
    const std::size_t resident =
        fast::resident_blocks(fast_filter_y_blocks_kernel, kThreads, smem_bytes(radius));
    const std::size_t shortest = std::max<std::size_t>(4 * (2 * radius + 1), 64);
    const std::size_t most = std::max<std::size_t>(s.rows / shortest, 1);
    const std::size_t segs = std::clamp<std::size_t>(resident / p.bands, 1, most);
    p.seg_rows = gpu::ceil_div(s.rows, segs);
    return p;
}

void launch_fast_filter_y_blocks(MatView in, MatView out, const OpParams& params,
                                 cudaStream_t stream) {
    static std::once_flag opt_in;  // slots above 48 KiB need the opt-in
    std::call_once(opt_in, [] {
        COALESCE_CUDA(cudaFuncSetAttribute(fast_filter_y_blocks_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem_bytes(kMaxRadius))));
    });
    const YBlocksPlan plan = plan_for({in.rows, in.cols}, params.radius);
    const unsigned segs = gpu::ceil_div(in.rows, plan.seg_rows);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    fast_filter_y_blocks_kernel<<<plan.bands * segs, kThreads, smem_bytes(params.radius), stream>>>(
        in, out, params.radius, params.border, inv, plan);
    COALESCE_CHECK_LAUNCH("fast_filter_y_blocks_kernel");
}

// The grid is one-dimensional: bands x segments must fit blockIdx.x.
std::string grid_refusal(Shape input, const OpParams&) {
    const std::size_t blocks = static_cast<std::size_t>(gpu::ceil_div(input.cols, kThreads)) *
                               std::max<std::size_t>(input.rows / 64, 1);
    if (blocks <= gpu::kMaxGridX) return {};
    return "more 128-column bands times row segments than a grid holds";
}

}  // namespace

void register_fast_filter_y_blocks(Registry& registry) {
    registry.add(fast::device_variant(
        {"filter_y/fast-window-blocks",
         Op::filter_y,
         space::shared,
         "each window is the suffix of one block of 2r + 1 rows plus the prefix of the next, so "
         "an output costs one load, one store and a few additions at every radius, and no sum "
         "holds more than the window's own terms. Lost to filter_y/fast-tile-float4 at every "
         "radius on an H100: flat at 73-84% of copy, because a thread per column walking rows "
         "moves one 128-byte line per warp and row, and 2r + 1 shared slots per column leave few "
         "columns in flight",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_filter_y_blocks_kernel",
         {}},
        launch_fast_filter_y_blocks, grid_refusal));
}

}  // namespace coalesce
