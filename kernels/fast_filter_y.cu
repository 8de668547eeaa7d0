// filter Y, fast: a block stages a tile of 64, 128 or 256 output rows (taller at larger radii)
// plus 2r halo rows, 128, 64 or 32 columns wide, in shared memory with float4 loads; each thread
// owns a float4 of columns and computes 8 consecutive output rows (fast_window.cuh) from 16-byte
// shared loads, long windows through shared chunk sums, then writes float4. Halo rows come through
// border_index() once per row, so borders cost nothing extra (under wrap the last tile row runs
// second, so the rows it shares with the first are read once: tile_row); each thread has eight
// 16-byte loads in flight while staging. Rows that do not start on 16 bytes (dense odd widths) are
// read and written a float per lane, each warp access 128 contiguous bytes: the thread owns four
// columns a tile row apart instead of a float4, so no row's phase enters the arithmetic.
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
constexpr int kBatch = 8;     // staged rows loaded per thread before the stores
constexpr int kAnyBatch = 4;  // any phase: 4 rows x 4 floats (48 registers, 5 blocks per SM)

struct YPlan {
    int log2_tx = 5;    // float4 columns per block: 32, 16 or 8 (128, 64 or 32 columns)
    int tile_rows = 0;  // output rows per block: (256 / tx) * 8
    int chunks = 0;     // long windows: sums of 8 staged rows per column (0: windows summed whole)
    unsigned gx = 1, gy = 1;
    bool last_row_second = false;  // launch order of the tile rows: see tile_row()
};

// Wider radii re-read more halo rows per tile; taller, narrower tiles keep that ratio down
// (r = 64: 256 + 128 staged rows for 256 outputs rather than 128 + 128 for 128). A warp still
// reads whole 128-byte lines (four rows of 32 columns at the narrowest).
// Rows off 16-byte boundaries are read a float per lane, so a warp access covers 4 * tx
// contiguous bytes of each of its rows: 16 across up to r = 32 keeps that at 64 rather than 32.
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

// The tile row that launch-order row `by` stages. Tile rows go top to bottom, a few at a time,
// so a tile reads the halo rows it shares with its neighbours while they are still in L2. Under
// Border::wrap the first tile row's halo is the matrix's last r rows and the last tile row's is
// its first r rows: top to bottom, both sets came from DRAM twice (2r extra rows per strip). So
// the last tile row goes second, beside the first, while those rows are still in L2. H100, r = 32,
// tile-pitched, % of copy in two A/B rounds of one call: 8000x6000 95.3 / 95.3 against 94.6 / 94.6
// top to bottom (clamp 95.9), but 8192x8192 95.7-95.8 against 95.9-96.2 (clamp 96.3): kept, as
// both stay above 95; why the order costs a little at 8192x8192 was not found.
// Under Border::mirror a partial last tile row (8000 rows in tiles of 256: 64 rows) stages up to
// 224 distinct mirrored rows past the end, where clamp re-reads one row; last in the launch, that
// staging is the kernel's tail. Launched second, it hides behind the other tiles. H100, r = 32,
// tile-pitched, three A/B rounds of one call: 8000x6000 95.4-95.5 against 94.8-95.0 (clamp
// 95.7-95.9 either way); with the full last tile row of 8192x8192 the same order lost (95.6-95.7
// against 96.0-96.2), so mirror takes it only when the last tile row is partial.
bool last_row_second(const YPlan& p, Shape s, Border border) {
    if (p.gy < 3) return false;
    return border == Border::wrap ||
           (border == Border::mirror && s.rows % static_cast<std::size_t>(p.tile_rows) != 0);
}

__device__ __forceinline__ unsigned tile_row(unsigned by, const YPlan& plan) {
    if (!plan.last_row_second || by == 0) return by;
    return by == 1 ? plan.gy - 1 : by - 1;
}

// Any phase: tile rows in floats. A warp spans 32 / tx tile rows; those stage and read rows 8
// apart, so a row stride of 2 (tx = 16) or 1 (tx = 8) floats past the width puts them on
// disjoint banks; chunk rows (1 apart) get tx floats past it.
__host__ __device__ constexpr int any_phase_stride(int log2_tx) {
    return (4 << log2_tx) + (log2_tx >= 5 ? 0 : 4 >> (5 - log2_tx));
}
__host__ __device__ constexpr int any_phase_chunk_stride(int log2_tx) {
    return (4 << log2_tx) + (log2_tx >= 5 ? 0 : 1 << log2_tx);
}

std::size_t smem_bytes(const YPlan& p, int radius, bool any_phase) {
    if (any_phase)
        return (static_cast<std::size_t>(p.tile_rows + 2 * radius) * any_phase_stride(p.log2_tx) +
                static_cast<std::size_t>(p.chunks) * any_phase_chunk_stride(p.log2_tx)) *
               sizeof(float);
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

// Stores v's first n (0..4) floats at columns c .. c + n - 1 of a row, those before cols.
__device__ __forceinline__ void store_first(float* row, int c, int cols, float4 v, int n) {
    if (n > 0 && c < cols) row[c] = v.x;
    if (n > 1 && c + 1 < cols) row[c + 1] = v.y;
    if (n > 2 && c + 2 < cols) row[c + 2] = v.z;
    if (n > 3 && c + 3 < cols) row[c + 3] = v.w;
}

// Any phase: columns c, c + Tx, c + 2 Tx, c + 3 Tx of one tile row, a float4 for the window sums.
template <int Tx>
__device__ __forceinline__ float4 columns4(const float* p) {
    return make_float4(p[0], p[Tx], p[2 * Tx], p[3 * Tx]);
}

// Rows at any 4-byte phase (dense odd widths, e.g. 4097 columns). Thread tx of a tile row owns
// columns x0 + tx + Tx * m (m = 0..3) rather than a float4, so every load, shared access and
// store is one float per lane, consecutive lanes on consecutive columns: 128 contiguous bytes per
// warp access in global memory at any row phase, and conflict-free shared accesses. The phase
// never enters the arithmetic (shifting aligned float4 across lanes cost twice the aligned
// instance's instructions). The windows and their summation order per column are the aligned
// instance's. Tx (threads across a tile row) is compiled in: shared offsets are immediates.
template <int Log2Tx>
__device__ __forceinline__ void any_phase_tile(float* tile, MatView in, MatView out, int radius,
                                               Border border, float inv, const YPlan& plan,
                                               unsigned bx, unsigned by) {
    constexpr int Tx = 1 << Log2Tx, Width = 4 * Tx, Groups = 32 / Tx;
    constexpr int S = any_phase_stride(Log2Tx), SC = any_phase_chunk_stride(Log2Tx);
    constexpr int rows_per_pass = kThreads / Tx;
    const long long rows = static_cast<long long>(in.rows);
    const int cols = static_cast<int>(in.cols);
    const int x0 = static_cast<int>(bx) * Width;
    const long long y0 = static_cast<long long>(by) * plan.tile_rows;
    const int staged = plan.tile_rows + 2 * radius;
    const int tx = threadIdx.x & (Tx - 1), ty = threadIdx.x >> Log2Tx;
    const int x = x0 + tx;
    // Blocks whose columns all lie inside the rows load and store without per-column tests.
    const bool x_inside = x0 + Width <= cols;
    const bool y_inside = y0 - radius >= 0 && y0 + plan.tile_rows + radius <= rows;

    // The Groups tile rows of a warp stage rows 8 apart, as they read them below (see
    // any_phase_stride); four staged rows per thread in flight.
    const int first = ty / Groups + 8 * (ty % Groups);
    for (int i0 = first; i0 < staged; i0 += kAnyBatch * rows_per_pass) {
        float v[kAnyBatch][4];
#pragma unroll
        for (int k = 0; k < kAnyBatch; ++k) {
            const int i = i0 + k * rows_per_pass;
#pragma unroll
            for (int m = 0; m < 4; ++m) v[k][m] = 0.0f;
            if (i >= staged) continue;
            const long long y =
                y_inside ? y0 - radius + i : gpu::border_index(y0 - radius + i, rows, border);
            if (y < 0) continue;
            const float* p = gpu::pitched_row(in, static_cast<std::size_t>(y)) + x;
#pragma unroll
            for (int m = 0; m < 4; ++m)
                if (x_inside || x + m * Tx < cols) v[k][m] = fast::load1(p + m * Tx);
        }
#pragma unroll
        for (int k = 0; k < kAnyBatch; ++k) {
            const int i = i0 + k * rows_per_pass;
            if (i >= staged) continue;
#pragma unroll
            for (int m = 0; m < 4; ++m) tile[i * S + tx + m * Tx] = v[k][m];
        }
    }
    __syncthreads();

    // Chunk k sums staged rows 7 + 8k .. 14 + 8k, so thread row ty's middle starts with chunk ty.
    float* chunk = tile + static_cast<std::size_t>(staged) * S;
    if (plan.chunks > 0) {
        for (int k = ty; k < plan.chunks; k += rows_per_pass) {
            const float* c = tile + (kN - 1 + kN * k) * S + tx;
            const float4 sum =
                fast::chunk_sum<float4, kN>([c](int j) { return columns4<Tx>(c + j * S); });
            float* d = chunk + k * SC + tx;
            d[0] = sum.x, d[Tx] = sum.y, d[2 * Tx] = sum.z, d[3 * Tx] = sum.w;
        }
        __syncthreads();
    }
    const long long ybase = y0 + static_cast<long long>(ty) * kN;
    if (ybase >= rows) return;
    const float* s = tile + ty * kN * S + tx;  // s + j * S: staged row ty*8 + j
    const auto get = [s](int j) { return columns4<Tx>(s + j * S); };
    const auto put = [&](int k, float4 v) {
        const long long y = ybase + k;
        if (y >= rows) return;
        float* o = gpu::pitched_row(out, static_cast<std::size_t>(y)) + x;
        const float e[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
        for (int m = 0; m < 4; ++m)
            if (x_inside || x + m * Tx < cols) o[m * Tx] = e[m];
    };
    if (plan.chunks > 0) {
        const float* c = chunk + ty * SC + tx;
        fast::window_means_chunked<float4, kN>(
            radius, inv, get, [c](int i) { return columns4<Tx>(c + i * SC); }, put);
    } else {
        fast::window_means<float4>(radius, inv, get, put);
    }
}

// Rows on 16-byte boundaries: a thread owns the float4 of columns x .. x + 3. AnyPhase = true
// is the specialization below.
template <bool AnyPhase>
__global__ void __launch_bounds__(kThreads)
    fast_filter_y_kernel(MatView in, MatView out, int radius, Border border, float inv,
                         YPlan plan) {
    extern __shared__ float4 tile[];  // (tile_rows + 2r) rows x tx float4, then the chunks
    unsigned bx, by;
    gpu::block_xy(plan.gx, bx, by);
    by = tile_row(by, plan);
    const int tx_count = 1 << plan.log2_tx;
    const long long rows = static_cast<long long>(in.rows);
    // Column arithmetic in 32 bits (a row holds fewer than 2^31 floats): half the instructions
    // of 64-bit compares and adds on the any-phase paths.
    const int cols = static_cast<int>(in.cols);
    const int x0 = static_cast<int>(bx) * tx_count * 4;
    const long long y0 = static_cast<long long>(by) * plan.tile_rows;
    const int staged = plan.tile_rows + 2 * radius;

    // Eight staged rows per thread in flight: all eight loads are issued before the first
    // store. Blocks whose staged rows all lie inside the matrix skip the border rule.
    const int tx = threadIdx.x & (tx_count - 1), ty = threadIdx.x >> plan.log2_tx;
    const int rows_per_pass = kThreads >> plan.log2_tx;
    const int x = x0 + 4 * tx;
    const bool y_inside = y0 - radius >= 0 && y0 + plan.tile_rows + radius <= rows;
    constexpr int batch = kBatch;
    for (int i0 = ty; i0 < staged; i0 += batch * rows_per_pass) {
        float4 v[batch];
#pragma unroll
        for (int k = 0; k < batch; ++k) {
            const int i = i0 + k * rows_per_pass;
            v[k] = make_float4(0, 0, 0, 0);
            if (i >= staged) continue;
            const long long y =
                y_inside ? y0 - radius + i : gpu::border_index(y0 - radius + i, rows, border);
            if (y < 0) continue;
            const float* p = gpu::pitched_row(in, static_cast<std::size_t>(y));
            if (x < cols) v[k] = load4_within(p, x, cols);
        }
#pragma unroll
        for (int k = 0; k < batch; ++k) {
            const int i = i0 + k * rows_per_pass;
            if (i < staged) tile[i * tx_count + tx] = v[k];
        }
    }
    __syncthreads();

    // Chunk k sums staged rows 7 + 8k .. 14 + 8k, so thread row ty's middle starts with chunk
    // ty.
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
    const auto get = [s, tx_count](int j) { return s[j * tx_count]; };
    const auto put = [&](int k, float4 v) {
        const long long y = ybase + k;
        if (y >= rows) return;
        float* o = gpu::pitched_row(out, static_cast<std::size_t>(y));
        if (x + 4 <= cols)
            fast::store4(o + x, v);
        else
            store_first(o, x, cols, v, 4);
    };
    if (plan.chunks > 0) {
        const float4* c = chunk + ty * tx_count + tx;
        fast::window_means_chunked<float4, kN>(
            radius, inv, get, [c, tx_count](int i) { return c[i * tx_count]; }, put);
    } else {
        fast::window_means<float4>(radius, inv, get, put);
    }
}

// Rows that do not all start on 16 bytes (any_phase_tile). Five blocks per multiprocessor (48
// registers; the shared tile allows five up to r = 10) overlap one block's staging with the
// others' sums.
template <>
__global__ void __launch_bounds__(kThreads, 5) fast_filter_y_kernel<true>(MatView in, MatView out,
                                                                          int radius, Border border,
                                                                          float inv, YPlan plan) {
    extern __shared__ float4 tile[];  // staged rows, then the chunks
    unsigned bx, by;
    gpu::block_xy(plan.gx, bx, by);
    by = tile_row(by, plan);
    float* t = reinterpret_cast<float*>(tile);
    switch (plan.log2_tx) {
    case 5: any_phase_tile<5>(t, in, out, radius, border, inv, plan, bx, by); break;
    case 4: any_phase_tile<4>(t, in, out, radius, border, inv, plan, bx, by); break;
    default: any_phase_tile<3>(t, in, out, radius, border, inv, plan, bx, by); break;
    }
}

template <bool AnyPhase>
void launch_instance(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    // Tiles above 48 KiB need the opt-in: the largest any radius asks for, once per process.
    static std::once_flag opt_in;
    std::call_once(opt_in, [] {
        std::size_t most = 0;
        for (int r = 0; r <= kMaxRadius; ++r)
            most = std::max(most, smem_bytes(plan_for({1, 1}, r, AnyPhase), r, AnyPhase));
        COALESCE_CUDA(cudaFuncSetAttribute(fast_filter_y_kernel<AnyPhase>,
                                           cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(most)));
    });
    YPlan plan = plan_for({in.rows, in.cols}, params.radius, AnyPhase);
    plan.last_row_second = last_row_second(plan, {in.rows, in.cols}, params.border);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    fast_filter_y_kernel<AnyPhase>
        <<<plan.gx * plan.gy, kThreads, smem_bytes(plan, params.radius, AnyPhase), stream>>>(
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
         "(odd widths) read, staged and written a float per lane, a thread owning four columns a "
         "tile row apart",
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
