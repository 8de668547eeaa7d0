// filter X, fast: each thread owns 16 consecutive outputs of a row. It stages its own 16 inputs
// with four independent float4 loads (plus one float4 of the segment's halo for the first r/2
// threads), all issued before the first shared-memory store; after one barrier it computes its
// outputs from shared memory (fast_window.cuh) and writes four float4. Positions outside the row
// go through border_index(), element by element; the interior never does.
// Threads 16 elements apart would read one bank 16 at a time (stride 16 words): the shared line
// skips one word after every 32, which spreads a warp's reads over (nearly) all 32 banks.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variants.hpp"
#include "fast_window.cuh"

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr int kPer = 16;  // outputs (and staged inputs) per thread

struct XPlan {
    int tx = 256;       // threads along a row segment (power of two, 32..256)
    int ty = 1;         // row segments per block
    int halo = 0;       // radius rounded up to 4 [elements]
    int line = 0;       // tx * 16 + 2 * halo [elements]
    int padded = 0;     // line + line / 32 + 1: the line's length in shared memory [floats]
    unsigned gx = 1, gy = 1;
};

// The widest segment that wastes little of its last block (6000 columns: 3 x 2048, not 2 x 4096).
XPlan plan_for(const MatView& in, int radius) {
    XPlan p;
    int best = 32;
    double best_use = 0;
    for (int tx = kThreads; tx >= 32; tx /= 2) {
        const std::size_t w = static_cast<std::size_t>(tx) * kPer;
        const double use = static_cast<double>(in.cols) / static_cast<double>(fast::ceil_div(in.cols, w) * w);
        if (use >= 0.9) { best = tx; break; }
        if (use > best_use + 1e-9) { best_use = use; best = tx; }
    }
    p.tx = best;
    p.ty = kThreads / p.tx;
    p.halo = (radius + 3) / 4 * 4;
    p.line = p.tx * kPer + 2 * p.halo;
    p.padded = p.line + p.line / 32 + 1;
    p.gx = fast::ceil_div(in.cols, static_cast<std::size_t>(p.tx) * kPer);
    p.gy = fast::ceil_div(in.rows, p.ty);
    return p;
}

// Shared-memory position of element i of a staged line: one skipped word per 32.
__device__ __forceinline__ int padded_index(int i) { return i + (i >> 5); }

// Four words at line position pos (a multiple of 4: the group never straddles a skipped word).
__device__ __forceinline__ void stage4(float* line, int pos, float4 v) {
    float* d = line + padded_index(pos);
    d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
}

// Elements x .. x+3 of a row through the border rule (positions outside [0, cols) included).
__device__ __forceinline__ float4 load4_border(const float* row, long long x, long long cols, Border border) {
    float e[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
        const long long j = gpu::border_index(x + k, cols, border);
        e[k] = j < 0 ? 0.0f : row[j];
    }
    return make_float4(e[0], e[1], e[2], e[3]);
}

__global__ void __launch_bounds__(kThreads) fast_filter_x_kernel(MatView in, MatView out, int radius, Border border,
                                                                 float inv, XPlan plan, bool vec) {
    extern __shared__ float sh[];
    unsigned bx, by;
    fast::block_xy(plan.gx, bx, by);
    const long long cols = static_cast<long long>(in.cols);
    const int width = plan.tx * kPer;
    const long long c0 = static_cast<long long>(bx) * width;
    const int tx = threadIdx.x % plan.tx, ty = threadIdx.x / plan.tx;
    const std::size_t row = static_cast<std::size_t>(by) * plan.ty + ty;
    const long long x = c0 + static_cast<long long>(tx) * kPer;  // this thread's first output
    float* line = sh + ty * plan.padded;

    if (row < in.rows) {
        const float* p = fast::row_ptr(in, row);
        // Loads first (five independent 16-byte loads in flight), shared-memory stores after.
        float4 v[4];
        if (vec && x + kPer <= cols) {
#pragma unroll
            for (int m = 0; m < 4; ++m) v[m] = fast::load4(p + x + 4 * m);
        } else {
#pragma unroll
            for (int m = 0; m < 4; ++m) v[m] = load4_border(p, x + 4 * m, cols, border);
        }
        const int halo4 = plan.halo / 4;  // float4 per side
        int hpos = -1;
        float4 h = make_float4(0, 0, 0, 0);
        if (tx < 2 * halo4) {
            hpos = tx < halo4 ? 4 * tx : plan.halo + width + 4 * (tx - halo4);
            const long long hx = c0 - plan.halo + hpos;
            h = vec && hx >= 0 && hx + 4 <= cols ? fast::load4(p + hx) : load4_border(p, hx, cols, border);
        }
#pragma unroll
        for (int m = 0; m < 4; ++m) stage4(line, plan.halo + tx * kPer + 4 * m, v[m]);
        if (hpos >= 0) stage4(line, hpos, h);
    }
    __syncthreads();
    if (row >= in.rows || x >= cols) return;

    const int base = tx * kPer + plan.halo - radius;  // line position of output 0's first tap
    float r[kPer];
    if (2 * radius >= kPer - 1) {
        fast::window_means<float, kPer>(radius, inv, [line, base](int j) { return line[padded_index(base + j)]; },
                                        [&r](int k, float s) { r[k] = s; });
    } else {
        // Short windows: two groups of 8 share their middles better than one of 16.
        fast::window_means<float, 8>(radius, inv, [line, base](int j) { return line[padded_index(base + j)]; },
                                     [&r](int k, float s) { r[k] = s; });
        fast::window_means<float, 8>(radius, inv, [line, base](int j) { return line[padded_index(base + 8 + j)]; },
                                     [&r](int k, float s) { r[8 + k] = s; });
    }
    float* o = fast::row_ptr(out, row) + x;
    if (vec && x + kPer <= cols) {
#pragma unroll
        for (int m = 0; m < 4; ++m) fast::store4(o + 4 * m, make_float4(r[4 * m], r[4 * m + 1], r[4 * m + 2], r[4 * m + 3]));
    } else {
        const long long n = cols - x;
#pragma unroll
        for (int k = 0; k < kPer; ++k)
            if (k < n) o[k] = r[k];
    }
}

void launch_fast_filter_x(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const XPlan plan = plan_for(in, params.radius);
    const bool vec = fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const std::size_t smem = static_cast<std::size_t>(plan.ty) * plan.padded * sizeof(float);  // <= 18 KiB
    fast_filter_x_kernel<<<plan.gx * plan.gy, kThreads, smem, stream>>>(in, out, params.radius, params.border, inv,
                                                                        plan, vec);
    COALESCE_CHECK_LAUNCH("fast_filter_x_kernel");
}

}  // namespace

void register_fast_filter_x(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"filter_x/fast-seg4096-float4", Op::filter_x, space::shared,
         "16 outputs per thread: four float4 loads (+ one halo float4) in flight before the shared "
         "stores, windows sharing their common middle, float4 stores; borders through border_index()",
         gpu::Layout::dense},
        launch_fast_filter_x));
}

}  // namespace coalesce
