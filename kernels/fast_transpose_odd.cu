// transpose, fast, for dense rows at any 4-byte phase (cols % 4 != 0, e.g. 4097x3001): three
// alternatives to transpose/fast-tile64-float4's any-phase tile (aligned float4 from each row's
// 16-byte boundary both ways, 71-row tile), which reaches 79% of copy there against ~95% aligned.
// Measured side by side on an H100 (% of the same run's copy, 4097x3001 / 3001x4097):
// - fast-odd-scalar64-sheared (tuned): a float per lane both ways; each output row's 64-float
//   window starts on that row's 32-byte boundary (as fast-tile64-float4's), so every warp store
//   covers 4 whole sectors, at the cost of 7 halo input rows per tile (71 rows loaded, 11% more
//   loads, mostly L1/L2 hits): 102.3 / 104.0.
// - fast-odd-float4in: input as fast-tile64-float4 reads it, output a float per lane from each
//   output row's 32-byte boundary: 99.4 / 101.2.
// - fast-odd-scalar64: a float per lane both ways, fixed 64x64 windows (no halo, no phase
//   arithmetic; a warp access is 128 contiguous bytes at whatever phase, 5 sectors): 79.6 / 79.8.
// Sheared and scalar64 differ only in their store windows: stores that begin and end inside a
// sector (each such sector then written by two warps) cost over 20 points. float4in and
// fast-tile64-float4 (79.6 / 78.2) differ only in their output side (float4 stores of two rows per
// warp, gathered from the tile's columns, against a float per lane).
// All three run at every shape and alignment (aligned shapes too, for comparison).
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_transpose_phase_tile.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace coalesce {
namespace {

constexpr int kTile = 64;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
using phase_tile::kOutPhase;  // an output row's floats before its 32-byte boundary, at most
static_assert(kTile == phase_tile::kTile);

// ---- fast-odd-scalar64 (Halo 0) and fast-odd-scalar64-sheared (Halo kOutPhase) ----

// Tile row t holds input row r0 + t - Halo (Halo rows above the tile for the sheared windows);
// 65 columns, so a warp reading a tile column (32 consecutive tile rows) hits 32 banks.
template <int Halo>
struct ScalarTile {
    static constexpr int kRows = kTile + Halo;
    static constexpr int kStride = kTile + 1;
    static constexpr int kLoadRounds = (kRows + kWarps - 1) / kWarps;  // tile rows per warp
};

// Warp w loads tile rows w, w + 8, ...: each row's 64 floats as two 128-byte runs, all of a
// thread's loads issued before the first shared store (16 in flight, 18 sheared).
// Bounds in 32-bit registers relative to the tile: input rows y (= t - Halo) with
// y_lo <= y < height and columns x < width are in the matrix.
template <int Halo>
__device__ __forceinline__ void load_scalar_tile(float* tile, const MatView& in, std::size_t r0,
                                                 std::size_t c0, int y_lo, int height, int width) {
    using T = ScalarTile<Halo>;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    // One pointer stepped 8 rows per round (a row address per round spilled at 32 registers).
    const bool left = lane < width, right = lane + 32 < width;
    const long long step = kWarps * static_cast<long long>(in.pitch_bytes);
    const char* a =
        reinterpret_cast<const char*>(in.data + c0 + lane) +
        (static_cast<long long>(r0) + warp - Halo) * static_cast<long long>(in.pitch_bytes);
    float v[T::kLoadRounds][2];
#pragma unroll
    for (int k = 0; k < T::kLoadRounds; ++k, a += step) {
        const int t = warp + kWarps * k, y = t - Halo;
        v[k][0] = v[k][1] = 0.0f;
        // r0 + y >= 0 past this test (y_lo = 0 in the first block row)
        if (t >= T::kRows || y < y_lo || y >= height) continue;
        const float* f = reinterpret_cast<const float*>(a);
        if (left) v[k][0] = fast::load1(f);
        if (right) v[k][1] = fast::load1(f + 32);
    }
#pragma unroll
    for (int k = 0; k < T::kLoadRounds; ++k) {
        const int t = warp + kWarps * k, y = t - Halo;
        if (t >= T::kRows || y < y_lo || y >= height) continue;
        tile[t * T::kStride + lane] = v[k][0];
        tile[t * T::kStride + lane + 32] = v[k][1];
    }
}

// Output row c0 + j holds tile column j (tile + (y + Halo) * Stride + j: input row r0 + y). Its
// window starts q floats before output column r0 (q: the row's floats past its 32-byte boundary
// when Sheared, else 0); lane l of run h writes output column r0 - q + 32 h + l, input row
// y = 32 h + l - q. Stride is odd: a warp's 32 tile rows are on 32 banks. Warp w writes output
// rows w, w + 8, ...: one pointer stepped 8 rows per round, as the loads.
template <int Halo, int Stride, bool Sheared>
__device__ __forceinline__ void store_column_windows(const float* tile, const MatView& out,
                                                     std::size_t r0, std::size_t c0, int y_lo,
                                                     int height, int width) {
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long step = kWarps * static_cast<long long>(out.pitch_bytes);
    char* a = reinterpret_cast<char*>(out.data + r0) +
              static_cast<long long>(c0 + warp) * static_cast<long long>(out.pitch_bytes);
#pragma unroll
    for (int k = 0; k < kTile / kWarps; ++k, a += step) {
        const int j = warp + kWarps * k;
        if (j >= width) break;
        float* orow = reinterpret_cast<float*>(a);
        const int q = Sheared ? fast::floats_past_boundary<32>(orow) : 0;
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int y = 32 * h + lane - q;
            if (y >= y_lo && y < height) orow[y] = tile[(y + Halo) * Stride + j];
        }
    }
}

template <int Halo>
__device__ __forceinline__ void transpose_scalar_tile(const MatView& in, const MatView& out,
                                                      unsigned gx) {
    using T = ScalarTile<Halo>;
    __shared__ float tile[T::kRows * T::kStride];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const std::size_t r0 = static_cast<std::size_t>(by) * kTile,
                      c0 = static_cast<std::size_t>(bx) * kTile;
    // The sheared grid's last block row may start up to Halo rows past the last row: height
    // >= -Halo there, and only its halo rows (y < 0) are in the matrix.
    const int height = static_cast<int>(std::min<long long>(
                  static_cast<long long>(in.rows) - static_cast<long long>(r0), 2 * kTile)),
              width = static_cast<int>(std::min<std::size_t>(in.cols - c0, 2 * kTile)),
              y_lo = by == 0 ? 0 : -Halo;
    load_scalar_tile<Halo>(tile, in, r0, c0, y_lo, height, width);
    __syncthreads();
    store_column_windows<Halo, T::kStride, (Halo > 0)>(tile, out, r0, c0, y_lo, height, width);
}

// (kThreads, 8): 8 blocks of 16.6 KiB (18.5 KiB sheared) per multiprocessor, 2048 threads.
template <int Halo>
__global__ void __launch_bounds__(kThreads, 8)
    fast_transpose_scalar_kernel(MatView in, MatView out, unsigned gx) {
    transpose_scalar_tile<Halo>(in, out, gx);
}

// The sheared windows start up to kOutPhase rows early: the last may need one more block row.
template <int Halo>
void launch_scalar(MatView in, MatView out, cudaStream_t stream) {
    const unsigned gx = gpu::ceil_div(in.cols, kTile), gy = gpu::ceil_div(in.rows + Halo, kTile);
    fast_transpose_scalar_kernel<Halo><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    COALESCE_CHECK_LAUNCH("fast_transpose_scalar_kernel");
}

void launch_fast_transpose_scalar64(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    launch_scalar<0>(in, out, stream);
}

void launch_fast_transpose_scalar64_sheared(MatView in, MatView out, const OpParams&,
                                            cudaStream_t stream) {
    launch_scalar<kOutPhase>(in, out, stream);
}

// ---- fast-odd-float4in: fast-tile64-float4's any-phase loads, a float per lane out ----

// The input side is fast-tile64-float4's (fast_transpose_phase_tile.cuh). Only the shared stores
// depend on the stride now (the float-per-lane reads walk a column, Stride apart, odd:
// conflict-free): a warp's two half-warp rows move by Stride less the input's phase step, so 71
// (3 mod 4) unless that step is 3, then 73.
using phase_tile::kInPhase;
using phase_tile::kStride1;
using phase_tile::kStride3;

template <int Stride>
__global__ void __launch_bounds__(kThreads, 8)
    fast_transpose_float4in_kernel(MatView in, MatView out, unsigned gx) {
    __shared__ float tile[phase_tile::kPhaseRows * Stride];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const phase_tile::Bounds b = phase_tile::bounds(in, bx, by);
    const int height = b.height, width = b.width, y_lo = b.y_lo;
    const int t = threadIdx.x, tx = t & 15, ty = t >> 4;
    phase_tile::stage<Stride>(in, b, tile, tx, ty);
    __syncthreads();

    // Tile column j (input column c0 + j) sits kInPhase floats into the tile's rows. The tile's
    // origin is taken again from blockIdx, after the barrier (the empty asm keeps the compiler
    // from hoisting the output addresses into the load phase, where they spilled 8 bytes).
    asm volatile("" : "+r"(gx));
    gpu::block_xy(gx, bx, by);
    store_column_windows<kOutPhase, Stride, true>(
        tile + kInPhase, out, static_cast<std::size_t>(by) * kTile,
        static_cast<std::size_t>(bx) * kTile, y_lo, height, width);
}

void launch_fast_transpose_float4in(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const unsigned gx = gpu::ceil_div(in.cols, kTile),
                   gy = gpu::ceil_div(in.rows + kOutPhase, kTile);
    if (in.pitch_bytes / 4 % 4 == 3)
        fast_transpose_float4in_kernel<kStride1><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    else
        fast_transpose_float4in_kernel<kStride3><<<gx * gy, kThreads, 0, stream>>>(in, out, gx);
    COALESCE_CHECK_LAUNCH("fast_transpose_float4in_kernel");
}

}  // namespace

void register_fast_transpose_odd(Registry& registry) {
    registry.add(fast::device_variant(
        {"transpose/fast-odd-scalar64",
         Op::transpose,
         space::shared,
         "64x64 shared tile (padded to 65), a float per lane both ways: every warp access is 128 "
         "contiguous bytes of one row at any 4-byte phase, with no halo and no phase arithmetic; "
         "16 loads in flight per thread, conflict-free shared accesses. Lost to "
         "transpose/fast-odd-scalar64-sheared at 4097x3001 on an H100: 79.6% of copy against "
         "102.3% (3001x4097: 79.8 against 104.0); its stores begin and end inside sectors that two "
         "warps then write",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_transpose_scalar_kernel<0>",
         {}},
        launch_fast_transpose_scalar64));
    registry.add(fast::device_variant(
        {"transpose/fast-odd-scalar64-sheared",
         Op::transpose,
         space::shared,
         "transpose/fast-odd-scalar64 with each output row's 64-float window starting on that "
         "row's 32-byte boundary: whole sectors per warp store, 7 halo input rows per tile (71 "
         "loaded, 18 loads in flight per thread): 102.3% of copy at 4097x3001 and 104.0% at "
         "3001x4097 on an H100, where fast-tile64-float4 reaches 79.6 and 78.2",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_transpose_scalar_kernel<7>",
         {}},
        launch_fast_transpose_scalar64_sheared));
    registry.add(fast::device_variant(
        {"transpose/fast-odd-float4in",
         Op::transpose,
         space::shared,
         "input as transpose/fast-tile64-float4's any-phase tile (aligned float4 from each row's "
         "16-byte boundary, 71-row tile), output a float per lane from each output row's 32-byte "
         "boundary: whole sectors per warp store, conflict-free shared reads. Lost to "
         "transpose/fast-odd-scalar64-sheared on an H100: 99.4% of copy against 102.3% at "
         "4097x3001, 101.2 against 104.0 at 3001x4097",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_transpose_float4in_kernel",
         {}},
        launch_fast_transpose_float4in));
}

}  // namespace coalesce
