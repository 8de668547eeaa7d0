// filter X, fast: a block stages row segments (plus a halo rounded up to 4) in shared memory with
// float4 loads, each thread computes 8 consecutive outputs (fast_window.cuh) and writes them as two
// float4 stores. Border columns take a scalar path through border_index(); the interior never does.
// Threads 8 elements apart would read one bank 8 at a time (stride 8 words): the shared line skips
// one word after every 32, which spreads a warp's reads over (nearly) all 32 banks.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variants.hpp"
#include "fast_window.cuh"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr int kN = fast::kWindowOutputs;

struct XPlan {
    int tx = 256;       // threads along a row segment (power of two, 32..256)
    int ty = 1;         // row segments per block
    int halo = 0;       // radius rounded up to 4 [elements]
    int line = 0;       // tx * 8 + 2 * halo [elements]
    int padded = 0;     // line + line / 32 + 1: the line's length in shared memory [floats]
    unsigned gx = 1, gy = 1;
};

XPlan plan_for(const MatView& in, int radius) {
    XPlan p;
    const std::size_t need = (in.cols + kN - 1) / kN;  // threads one row would use
    p.tx = 32;
    while (p.tx < kThreads && static_cast<std::size_t>(p.tx) < need) p.tx *= 2;
    p.ty = kThreads / p.tx;
    p.halo = (radius + 3) / 4 * 4;
    p.line = p.tx * kN + 2 * p.halo;
    p.padded = p.line + p.line / 32 + 1;
    p.gx = fast::ceil_div(in.cols, static_cast<std::size_t>(p.tx) * kN);
    p.gy = fast::ceil_div(in.rows, p.ty);
    return p;
}

// Shared-memory position of element i of a staged line: one skipped word per 32.
__device__ __forceinline__ int padded_index(int i) { return i + (i >> 5); }

__global__ void __launch_bounds__(kThreads) fast_filter_x_kernel(MatView in, MatView out, int radius, Border border,
                                                                 float inv, XPlan plan, bool vec) {
    extern __shared__ float sh[];
    unsigned bx, by;
    fast::block_xy(plan.gx, bx, by);
    const long long cols = static_cast<long long>(in.cols);
    const long long c0 = static_cast<long long>(bx) * plan.tx * kN;
    const std::size_t row0 = static_cast<std::size_t>(by) * plan.ty;

    // Stage ty rows of [c0 - halo, c0 + tx*8 + halo): float4 where the 4 columns lie inside the
    // row, the border rule element by element elsewhere.
    const int line4 = plan.line / 4;
#pragma unroll 2
    for (int q = threadIdx.x; q < plan.ty * line4; q += kThreads) {
        const int t = q / line4, i4 = q - t * line4;
        const std::size_t row = row0 + t;
        float4 v = make_float4(0, 0, 0, 0);
        if (row < in.rows) {
            const float* p = fast::row_ptr(in, row);
            const long long x = c0 - plan.halo + 4LL * i4;
            if (vec && x >= 0 && x + 4 <= cols) {
                v = fast::load4(p + x);
            } else {
                float e[4];
#pragma unroll
                for (int k = 0; k < 4; ++k) {
                    const long long j = gpu::border_index(x + k, cols, border);
                    e[k] = j < 0 ? 0.0f : p[j];
                }
                v = make_float4(e[0], e[1], e[2], e[3]);
            }
        }
        // Four contiguous words (a group of 4 never straddles a skipped word), not 16-byte aligned.
        float* d = sh + t * plan.padded + padded_index(4 * i4);
        d[0] = v.x; d[1] = v.y; d[2] = v.z; d[3] = v.w;
    }
    __syncthreads();

    const int tx = threadIdx.x % plan.tx, ty = threadIdx.x / plan.tx;
    const std::size_t row = row0 + ty;
    const long long x = c0 + static_cast<long long>(tx) * kN;
    if (row >= in.rows || x >= cols) return;
    const float* s = sh + ty * plan.padded;
    const int base = tx * kN + plan.halo - radius;  // line index of output 0's first tap
    const auto get = [s, base](int j) { return s[padded_index(base + j)]; };
    float* o = fast::row_ptr(out, row) + x;
    if (vec && x + kN <= cols) {
        float r[kN];
        fast::window_means<float>(radius, inv, get, [&r](int k, float v) { r[k] = v; });
        fast::store4(o, make_float4(r[0], r[1], r[2], r[3]));
        fast::store4(o + 4, make_float4(r[4], r[5], r[6], r[7]));
    } else {
        const long long n = cols - x;
        fast::window_means<float>(radius, inv, get, [o, n](int k, float v) { if (k < n) o[k] = v; });
    }
}

void launch_fast_filter_x(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const XPlan plan = plan_for(in, params.radius);
    const bool vec = fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const std::size_t smem = static_cast<std::size_t>(plan.ty) * plan.padded * sizeof(float);  // <= 13 KiB
    fast_filter_x_kernel<<<plan.gx * plan.gy, kThreads, smem, stream>>>(in, out, params.radius, params.border, inv,
                                                                        plan, vec);
    COALESCE_CHECK_LAUNCH("fast_filter_x_kernel");
}

}  // namespace

void register_fast_filter_x(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"filter_x/fast-seg2048-float4", Op::filter_x, space::shared,
         "row segments of up to 2048 columns staged with float4 loads, 8 outputs per thread sharing "
         "the windows' common middle, float4 stores; borders through border_index()",
         gpu::Layout::dense},
        launch_fast_filter_x));
}

}  // namespace coalesce
