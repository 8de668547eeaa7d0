// filter Y, fast: a block stages a tile of 64, 128 or 256 output rows (taller at larger radii)
// plus 2r halo rows, 128, 64 or 32 columns wide, in shared memory with float4 loads; each thread
// owns a float4 of columns and computes 8 consecutive output rows (fast_window.cuh) from 16-byte
// shared loads, long windows through shared chunk sums, then writes float4. Halo rows come through
// border_index() once per row, so borders cost nothing extra; each thread has eight 16-byte loads
// in flight while staging. Rows that do not start on 16 bytes are read and written in aligned
// float4 too, shifted across lanes by shuffles.
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

struct YPlan {
    int log2_tx = 5;    // float4 columns per block: 32, 16 or 8 (128, 64 or 32 columns)
    int tile_rows = 0;  // output rows per block: (256 / tx) * 8
    int chunks = 0;     // long windows: sums of 8 staged rows per column (0: windows summed whole)
    unsigned gx = 1, gy = 1;
};

// Wider radii re-read more halo rows per tile; taller, narrower tiles keep that ratio down
// (r = 64: 256 + 128 staged rows for 256 outputs rather than 128 + 128 for 128). A warp still
// reads whole 128-byte lines (four rows of 32 columns at the narrowest).
// Rows off 16-byte boundaries shift every float4 across the lanes of a tile row, and the row's
// last lane loads one more: wider tile rows spread that over more lanes.
YPlan plan_for(Shape s, int radius, bool any_phase) {
    YPlan p;
    p.log2_tx = radius <= 16 ? 5 : any_phase && radius <= 32 ? 4 : 3;
    const int tx = 1 << p.log2_tx;
    p.tile_rows = (kThreads / tx) * kN;
    p.gx = gpu::ceil_div(s.cols, static_cast<std::size_t>(tx) * 4);
    p.gy = gpu::ceil_div(s.rows, p.tile_rows);
    // Chunked middles pay once a thread's common middle holds two whole chunks (r >= 11).
    const int whole = (2 * radius - kN + 2) / kN;
    p.chunks = whole >= 2 ? p.tile_rows / kN + whole - 1 : 0;
    return p;
}

std::size_t smem_bytes(const YPlan& p, int radius) {
    return static_cast<std::size_t>(p.tile_rows + 2 * radius + p.chunks) *
           (std::size_t{1} << p.log2_tx) * sizeof(float4);
}

// The float4 of a row's columns c .. c + 3 (c on a 16-byte boundary of the row), zeros outside
// [0, cols): one aligned load inside the row, single floats across either end.
__device__ __forceinline__ float4 load4_within(const float* row, int c, int cols) {
    if (c >= 0 && c + 4 <= cols) return fast::load4(row + c);
    float e[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) e[k] = c + k >= 0 && c + k < cols ? row[c + k] : 0.0f;
    return make_float4(e[0], e[1], e[2], e[3]);
}

// Floats shift .. shift + 3 of the pair (a, b) read as one run of eight.
__device__ __forceinline__ float4 funnel(float4 a, float4 b, int shift) {
    switch (shift) {
    case 0: return a;
    case 1: return make_float4(a.y, a.z, a.w, b.x);
    case 2: return make_float4(a.z, a.w, b.x, b.y);
    default: return make_float4(a.w, b.x, b.y, b.z);
    }
}

__device__ __forceinline__ float4 shfl_down4(float4 v, int width) {
    constexpr unsigned all = 0xffffffffu;
    return make_float4(__shfl_down_sync(all, v.x, 1, width), __shfl_down_sync(all, v.y, 1, width),
                       __shfl_down_sync(all, v.z, 1, width), __shfl_down_sync(all, v.w, 1, width));
}

// Stores v's first n (0..4) floats at columns c .. c + n - 1 of a row, those before cols.
__device__ __forceinline__ void store_first(float* row, int c, int cols, float4 v, int n) {
    if (n > 0 && c < cols) row[c] = v.x;
    if (n > 1 && c + 1 < cols) row[c + 1] = v.y;
    if (n > 2 && c + 2 < cols) row[c + 2] = v.z;
    if (n > 3 && c + 3 < cols) row[c + 3] = v.w;
}

// AnyPhase (dense rows that do not start on 16 bytes, e.g. 4097 columns): every row is read and
// written in aligned float4 from its own 16-byte boundary, and the lanes of a tile row shift the
// values by the row's phase through one shuffle each way, so the tile in shared memory and the
// windows are exactly those of aligned rows. Scalar access (four 4-byte loads or stores 16 bytes
// apart per lane) cost 2.4x the L2 write sectors and a third more instructions. No early exit
// there: every lane of a tile row takes part in the shuffles.
template <bool AnyPhase>
__global__ void __launch_bounds__(kThreads)
    fast_filter_y_kernel(MatView in, MatView out, int radius, Border border, float inv,
                         YPlan plan) {
    extern __shared__ float4 tile[];  // (tile_rows + 2r) rows x tx float4, then the chunks
    unsigned bx, by;
    gpu::block_xy(plan.gx, bx, by);
    const int tx_count = 1 << plan.log2_tx;
    const long long rows = static_cast<long long>(in.rows);
    // Column arithmetic in 32 bits (a row holds fewer than 2^31 floats): half the instructions
    // of 64-bit compares and adds on the any-phase paths.
    const int cols = static_cast<int>(in.cols);
    const int x0 = static_cast<int>(bx) * tx_count * 4;
    const long long y0 = static_cast<long long>(by) * plan.tile_rows;
    const int staged = plan.tile_rows + 2 * radius;

    // Eight staged rows per thread in flight: all eight loads are issued before the first store.
    // Blocks whose staged rows all lie inside the matrix skip the border rule.
    const int tx = threadIdx.x & (tx_count - 1), ty = threadIdx.x >> plan.log2_tx;
    const int rows_per_pass = kThreads >> plan.log2_tx;
    const int x = x0 + 4 * tx;
    const bool last_lane = tx == tx_count - 1;
    const bool y_inside = y0 - radius >= 0 && y0 + plan.tile_rows + radius <= rows;
    // Any phase: four rows in flight (plus the last lanes' second float4), as many registers.
    constexpr int batch = AnyPhase ? kBatch / 2 : kBatch;
    for (int i0 = ty; i0 < staged; i0 += batch * rows_per_pass) {
        float4 v[batch], tail[AnyPhase ? batch : 1];
        int shift[AnyPhase ? batch : 1];
#pragma unroll
        for (int k = 0; k < batch; ++k) {
            const int i = i0 + k * rows_per_pass;
            v[k] = make_float4(0, 0, 0, 0);
            if constexpr (AnyPhase) tail[k] = v[k], shift[k] = 0;
            if (i >= staged) continue;
            const long long y =
                y_inside ? y0 - radius + i : gpu::border_index(y0 - radius + i, rows, border);
            if (y < 0) continue;
            const float* p = gpu::pitched_row(in, static_cast<std::size_t>(y));
            if constexpr (AnyPhase) {
                // The aligned float4 at or below x (columns x - phase ..), and for the tile row's
                // last lane the next one too (the others get theirs from the lane to the right).
                shift[k] = fast::floats_past_boundary<16>(p);
                v[k] = load4_within(p, x - shift[k], cols);
                if (last_lane && shift[k] != 0) tail[k] = load4_within(p, x + 4 - shift[k], cols);
            } else if (x < cols) {
                v[k] = load4_within(p, x, cols);
            }
        }
#pragma unroll
        for (int k = 0; k < batch; ++k) {
            const int i = i0 + k * rows_per_pass;
            float4 t = v[k];
            if constexpr (AnyPhase) {
                const float4 next = shfl_down4(v[k], tx_count);
                t = funnel(v[k], last_lane ? tail[k] : next, shift[k]);
            }
            if (i < staged) tile[i * tx_count + tx] = t;
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
    if (!AnyPhase && (x >= cols || ybase >= rows)) return;
    const float4* s = tile + static_cast<std::size_t>(ty) * kN * tx_count +
                      tx;  // s[j * tx_count]: staged row ty*8 + j
    const auto get = [s, tx_count](int j) { return s[j * tx_count]; };
    const auto put = [&](int k, float4 v) {
        const long long y = ybase + k;
        if constexpr (AnyPhase) {
            // Aligned float4 from the row's first 16-byte boundary at or after x0 (h columns
            // in): lane l writes columns x + h .. x + h + 3 (its own and its right neighbour's
            // values); lane 0 also the h columns before, the last lane only its own.
            const float4 next = shfl_down4(v, tx_count);
            if (y >= rows) return;
            float* o = gpu::pitched_row(out, static_cast<std::size_t>(y));
            const int h = (4 - fast::floats_past_boundary<16>(o)) & 3;
            if (tx == 0) store_first(o, x, cols, v, h);  // columns x0 .. x0 + h - 1
            const float4 w = funnel(v, next, h);
            if (!last_lane && x + h + 4 <= cols)
                fast::store4(o + x + h, w);
            else
                store_first(o, x + h, cols, w, last_lane ? 4 - h : 4);
        } else {
            if (y >= rows) return;
            float* o = gpu::pitched_row(out, static_cast<std::size_t>(y));
            if (x + 4 <= cols)
                fast::store4(o + x, v);
            else
                store_first(o, x, cols, v, 4);
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

template <bool AnyPhase>
void launch_instance(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    // Tiles above 48 KiB need the opt-in: the largest any radius asks for, once per process.
    static std::once_flag opt_in;
    std::call_once(opt_in, [] {
        std::size_t most = 0;
        for (int r = 0; r <= kMaxRadius; ++r)
            most = std::max(most, smem_bytes(plan_for({1, 1}, r, AnyPhase), r));
        COALESCE_CUDA(cudaFuncSetAttribute(fast_filter_y_kernel<AnyPhase>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(most)));
    });
    const YPlan plan = plan_for({in.rows, in.cols}, params.radius, AnyPhase);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    fast_filter_y_kernel<AnyPhase>
        <<<plan.gx * plan.gy, kThreads, smem_bytes(plan, params.radius), stream>>>(
            in, out, params.radius, params.border, inv, plan);
    COALESCE_CHECK_LAUNCH("fast_filter_y_kernel");
}

void launch_fast_filter_y(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    if (fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out))
        launch_instance<false>(in, out, params, stream);
    else
        launch_instance<true>(in, out, params, stream);
}

}  // namespace

void register_fast_filter_y(Registry& registry) {
    // The kernel's column arithmetic is 32-bit.
    const Limits limits{.max_cols = std::size_t{1} << 30};
    registry.add(fast::device_variant(
        {"filter_y/fast-tile-float4", Op::filter_y, space::shared,
         "64 (r > 16: 256) output rows + 2r halo rows staged with float4 loads, a "
         "thread per float4 of columns computes 8 rows sharing the windows' common middle (long "
         "windows from shared sums of 8 rows), float4 stores; rows off 16-byte boundaries "
         "(odd widths) read and written as aligned float4 shifted by warp shuffles",
         gpu::Layout::dense, Tier::tuned, "fast_filter_y_kernel", limits},
        launch_fast_filter_y));
    registry.add(fast::device_variant(
        {"filter_y/fast-tile-pitched", Op::filter_y, space::pitched,
         "filter_y/fast-tile-float4 on cudaMallocPitch rows: every row starts on a 512-byte "
         "boundary "
         "(dense 6000-column rows start 64 bytes into a 128-byte line on every other row)",
         gpu::Layout::pitched, Tier::tuned, "fast_filter_y_kernel", limits},
        launch_fast_filter_y));
}

}  // namespace coalesce
