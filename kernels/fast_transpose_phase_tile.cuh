// The input side of the any-phase transposes, shared by fast_transpose.cu (fast-tile64-float4 on
// rows of any 4-byte phase) and fast_transpose_odd.cu (fast-odd-float4in): a block of 256 threads
// stages input rows r0 - 7 .. r0 + 63, columns c0 - 3 .. c0 + 66, into a shared tile whose row
// y + kOutPhase holds input row r0 + y and whose column x + kInPhase holds input column c0 + x.
// Each row is read as 17 aligned float4 from its own 16-byte boundary (slots 0..15, and slot 16
// for the at most 3 floats past the 16th); the shift by the row's phase p is in the shared
// address, so the tile has kInPhase columns of margin on each side (the margins are never read).
// Why the rows above the tile and windows from the output's 32-byte boundary: fast_transpose.cu.
#pragma once

#include "fast_common.cuh"

#include <algorithm>
#include <cstddef>

namespace coalesce::phase_tile {

constexpr int kTile = 64;
constexpr int kPasses = kTile / 16;  // float4 rows a thread stages, 16 tile rows apart
constexpr int kInPhase = 3;          // an input row's floats before its 16-byte boundary, at most
constexpr int kOutPhase = 7;         // an output row's floats before its 32-byte boundary, at most
constexpr int kPhaseRows = kTile + kOutPhase;
// Rows of kTile + 2 kInPhase floats, padded to the two odd strides, one of each residue mod 4 (the
// banks of consecutive rows move by it). 71 x 73 floats: 20.3 KiB, 8 blocks in 170 KiB with the
// 1 KiB each reserves.
constexpr int kStride3 = kTile + 2 * kInPhase + 1;  // 71 = 3 mod 4
constexpr int kStride1 = kTile + 2 * kInPhase + 3;  // 73 = 1 mod 4

// The aligned float4 at tile column x of a row (a: its address; x >= -kInPhase) in a tile whose
// row has `width` columns left in the matrix. Whole where it ends inside the row: before column 0
// it holds the previous row's last floats (in the allocation: only a row that starts past a
// 16-byte boundary has them, and row 0 of a cudaMalloc allocation does not; never read back).
// Past the row's end only the row's own floats, zeros for the rest.
__device__ __forceinline__ float4 load_slot(const float* a, int x, int width) {
    if (x + 3 < width) return fast::load4(a);
    float4 v = make_float4(0, 0, 0, 0);
    if (x < width) v.x = a[0];
    if (x + 1 < width) v.y = a[1];
    if (x + 2 < width) v.z = a[2];
    return v;
}

__device__ __forceinline__ void put4(float* s, float4 v) {
    s[0] = v.x;
    s[1] = v.y;
    s[2] = v.z;
    s[3] = v.w;
}

// A block's tile: its first input row and column, and its bounds relative to the tile in 32-bit
// registers: tile rows y with y_lo <= y < height and tile columns x < width are in the matrix
// (r0 <= rows + 6: the grid's last block row).
struct Bounds {
    std::size_t r0 = 0, c0 = 0;
    int height = 0, width = 0, y_lo = 0;
};

__device__ __forceinline__ Bounds bounds(const MatView& in, unsigned bx, unsigned by) {
    Bounds b;
    b.r0 = static_cast<std::size_t>(by) * kTile;
    b.c0 = static_cast<std::size_t>(bx) * kTile;
    b.height = static_cast<int>(std::min<long long>(
        static_cast<long long>(in.rows) - static_cast<long long>(b.r0), 2 * kTile));
    b.width = static_cast<int>(std::min<std::size_t>(in.cols - b.c0, 2 * kTile));
    b.y_lo = by == 0 ? 0 : -kOutPhase;
    return b;
}

// Stages the block's tile (kPhaseRows rows of Stride floats). Four passes take tile rows 0..63,
// slots 0..15. The rest, one float4 per thread in flight with them: threads 0..111 the rows above
// the tile (y = -7..-1, slots 0..15), threads 112..182 slot 16 of rows -7..63, which only rows of
// phase p > 0 need. Issued first: its address arithmetic is then done before the passes' (issued
// last, 4 bytes spilled at 32 registers). The caller's barrier follows. tx = threadIdx.x & 15,
// ty = threadIdx.x >> 4, as the caller has them (its own expressions keep its code as it was).
template <int Stride>
__device__ __forceinline__ void stage(const MatView& in, const Bounds& b, float* tile, int tx,
                                      int ty) {
    const int t = threadIdx.x;
    const bool above = t < kOutPhase * 16;
    const int extra_y = above ? (t >> 4) - kOutPhase : t - kOutPhase * 16 - kOutPhase;
    float4 extra = make_float4(0, 0, 0, 0);
    int extra_at = -1;  // where extra.x goes in the tile; none: -1
    if (extra_y >= b.y_lo && extra_y < min(b.height, kTile)) {
        const float* row = gpu::pitched_row(in, b.r0 + extra_y) + b.c0;
        const int x = 4 * (above ? tx : 16) - fast::floats_past_boundary<16>(row);
        if (x < kTile) {
            extra = load_slot(row + x, x, b.width);
            extra_at = (extra_y + kOutPhase) * Stride + kInPhase + x;
        }
    }
    float4 v[kPasses];
    int phases = 0;  // pass k's row phase in bits 2k, 2k + 1 (one register, not four)
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int y = ty + 16 * k;
        v[k] = make_float4(0, 0, 0, 0);
        if (y >= b.height) continue;
        const float* row = gpu::pitched_row(in, b.r0 + y) + b.c0;
        const int p = fast::floats_past_boundary<16>(row);
        phases |= p << (2 * k);
        v[k] = load_slot(row - p + 4 * tx, 4 * tx - p, b.width);
    }
#pragma unroll
    for (int k = 0; k < kPasses; ++k) {
        const int y = ty + 16 * k;
        if (y >= b.height) continue;
        const int p = (phases >> (2 * k)) & 3;
        put4(&tile[(y + kOutPhase) * Stride + kInPhase + 4 * tx - p], v[k]);
    }
    // Slot 16's floats past the tile's last column go to the right margin.
    if (extra_at >= 0) put4(&tile[extra_at], extra);
}

}  // namespace coalesce::phase_tile
