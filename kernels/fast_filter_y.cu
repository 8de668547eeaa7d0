// filter Y, fast: a block stages a tile of 64 (or 128) output rows plus 2r halo rows, 128 (or 64)
// columns wide, in shared memory with float4 loads; each thread owns a float4 of columns and
// computes 8 consecutive output rows (fast_window.cuh) from 16-byte shared loads, then writes
// float4. Halo rows come through border_index() once per row, so borders cost nothing extra; each
// thread has eight 16-byte loads in flight while staging.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"
#include "fast_window.cuh"

#include <mutex>

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr int kN = fast::kWindowOutputs;
constexpr int kBatch = 8;  // staged rows loaded per thread before the stores
// r = 64: 128 + 128 staged rows and 16 + 14 chunk rows, x 16 float4 [bytes]
constexpr std::size_t kMaxSmem =
    (128 + 2 * kMaxRadius + 16 + (2 * kMaxRadius - 6) / 8 - 1) * 16 * sizeof(float4);

struct YPlan {
    int log2_tx = 5;    // float4 columns per block: 32 (128 columns) or 16 (64 columns)
    int tile_rows = 0;  // output rows per block: (256 / tx) * 8
    int chunks = 0;     // long windows: sums of 8 staged rows per column (0: windows summed whole)
    unsigned gx = 1, gy = 1;
};

// Wider radii re-read more halo rows per tile; taller, narrower tiles keep that ratio down
// (r = 32: 128 + 64 staged rows for 128 outputs rather than 64 + 64 for 64).
YPlan plan_for(const MatView& in, int radius) {
    YPlan p;
    p.log2_tx = radius > 16 ? 4 : 5;
    const int tx = 1 << p.log2_tx;
    p.tile_rows = (kThreads / tx) * kN;
    p.gx = gpu::ceil_div(in.cols, static_cast<std::size_t>(tx) * 4);
    p.gy = gpu::ceil_div(in.rows, p.tile_rows);
    // Chunked middles pay once a thread's common middle holds two whole chunks (r >= 11).
    const int whole = (2 * radius - kN + 2) / kN;
    p.chunks = whole >= 2 ? p.tile_rows / kN + whole - 1 : 0;
    return p;
}

__global__ void __launch_bounds__(kThreads)
    fast_filter_y_kernel(MatView in, MatView out, int radius, Border border, float inv, YPlan plan,
                         bool vec) {
    extern __shared__ float4 tile[];  // (tile_rows + 2r) rows x tx float4
    unsigned bx, by;
    gpu::block_xy(plan.gx, bx, by);
    const int tx_count = 1 << plan.log2_tx;
    const long long rows = static_cast<long long>(in.rows);
    const std::size_t cols = in.cols;
    const std::size_t x0 = static_cast<std::size_t>(bx) * tx_count * 4;
    const long long y0 = static_cast<long long>(by) * plan.tile_rows;
    const int staged = plan.tile_rows + 2 * radius;

    // Eight staged rows per thread in flight: all eight loads are issued before the first store.
    // Blocks whose staged rows all lie inside the matrix skip the border rule.
    const int tx = threadIdx.x & (tx_count - 1), ty = threadIdx.x >> plan.log2_tx;
    const int rows_per_pass = kThreads >> plan.log2_tx;
    const std::size_t x = x0 + 4 * tx;
    const bool x_full = vec && x + 4 <= cols;
    const bool y_inside = y0 - radius >= 0 && y0 + plan.tile_rows + radius <= rows;
    for (int i0 = ty; i0 < staged; i0 += kBatch * rows_per_pass) {
        float4 v[kBatch];
#pragma unroll
        for (int k = 0; k < kBatch; ++k) {
            const int i = i0 + k * rows_per_pass;
            v[k] = make_float4(0, 0, 0, 0);
            if (i >= staged || x >= cols) continue;
            const long long y =
                y_inside ? y0 - radius + i : gpu::border_index(y0 - radius + i, rows, border);
            if (y < 0) continue;
            const float* p = gpu::pitched_row(in, static_cast<std::size_t>(y)) + x;
            if (x_full) {
                v[k] = fast::load4(p);
            } else {
                v[k].x = p[0];
                if (x + 1 < cols) v[k].y = p[1];
                if (x + 2 < cols) v[k].z = p[2];
                if (x + 3 < cols) v[k].w = p[3];
            }
        }
#pragma unroll
        for (int k = 0; k < kBatch; ++k) {
            const int i = i0 + k * rows_per_pass;
            if (i < staged) tile[i * tx_count + tx] = v[k];
        }
    }
    __syncthreads();

    // Chunk k sums staged rows 7 + 8k .. 14 + 8k, so thread row ty's middle starts with chunk ty.
    float4* chunk = tile + static_cast<std::size_t>(staged) * tx_count;
    if (plan.chunks > 0) {
        for (int k = ty; k < plan.chunks; k += rows_per_pass) {
            const float4* c = tile + static_cast<std::size_t>(kN - 1 + kN * k) * tx_count + tx;
            chunk[k * tx_count + tx] =
                fast::chunk_sum<float4, kN>([c, tx_count](int j) { return c[j * tx_count]; });
        }
        __syncthreads();
    }
    const long long ybase = y0 + static_cast<long long>(ty) * kN;
    if (x >= cols || ybase >= rows) return;
    const float4* s = tile + static_cast<std::size_t>(ty) * kN * tx_count +
                      tx;  // s[j * tx_count]: staged row ty*8 + j
    const bool full4 = vec && x + 4 <= cols;
    const auto get = [s, tx_count](int j) { return s[j * tx_count]; };
    const auto put = [&](int k, float4 v) {
        const long long y = ybase + k;
        if (y >= rows) return;
        float* o = gpu::pitched_row(out, static_cast<std::size_t>(y)) + x;
        if (full4) {
            fast::store4(o, v);
        } else {
            o[0] = v.x;
            if (x + 1 < cols) o[1] = v.y;
            if (x + 2 < cols) o[2] = v.z;
            if (x + 3 < cols) o[3] = v.w;
        }
    };
    if (plan.chunks > 0) {
        const float4* c = chunk + ty * tx_count + tx;
        fast::window_means_chunked<float4, kN>(
            radius, inv, get, [c, tx_count](int i) { return c[i * tx_count]; }, put);
    } else {
        fast::window_means<float4>(radius, inv, get, put);
    }
}

void launch_fast_filter_y(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    // Tiles above 48 KiB need the opt-in; once per process is enough.
    static std::once_flag opt_in;
    std::call_once(opt_in, [] {
        COALESCE_CUDA(cudaFuncSetAttribute(fast_filter_y_kernel,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(kMaxSmem)));
    });
    const YPlan plan = plan_for(in, params.radius);
    const bool vec = fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const std::size_t smem =
        static_cast<std::size_t>(plan.tile_rows + 2 * params.radius + plan.chunks) *
        (std::size_t{1} << plan.log2_tx) * sizeof(float4);
    fast_filter_y_kernel<<<plan.gx * plan.gy, kThreads, smem, stream>>>(
        in, out, params.radius, params.border, inv, plan, vec);
    COALESCE_CHECK_LAUNCH("fast_filter_y_kernel");
}

}  // namespace

void register_fast_filter_y(Registry& registry) {
    registry.add(fast::device_variant(
        {"filter_y/fast-tile-float4",
         Op::filter_y,
         space::shared,
         "64 (r > 16: 128) output rows + 2r halo rows staged with float4 loads, a thread per "
         "float4 of "
         "columns computes 8 rows sharing the windows' common middle, float4 stores",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_filter_y_kernel",
         {}},
        launch_fast_filter_y));
    registry.add(fast::device_variant(
        {"filter_y/fast-tile-pitched",
         Op::filter_y,
         space::pitched,
         "filter_y/fast-tile-float4 on cudaMallocPitch rows: every row starts on a 512-byte "
         "boundary "
         "(dense 6000-column rows start 64 bytes into a 128-byte line on every other row)",
         gpu::Layout::pitched,
         Tier::tuned,
         "fast_filter_y_kernel",
         {}},
        launch_fast_filter_y));
}

}  // namespace coalesce
