// What the on-chip experiments (shared-memory tiles, the constant table, random sampling,
// resampling, 8-bit conversion) define once for their CPU references, the built-in kernels and
// the texture plugin: header-only, host and device, so every side computes the same indices,
// samples and weights.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"  // COALESCE_HOST_DEVICE

#include <cmath>

namespace coalesce::onchip {

// ---- shared-memory tiles (smem_copy_tile, smem_transpose_tile) ------------------------------

// A tile is kTileCols wide (a warp per tile row, the book's BDIMX) and tile_rows tall (BDIMY:
// 32 for the square tile, 16 for the book's rectangular one). Only whole tiles run the pattern;
// the cells of a partial tile at the right or bottom edge are copied as they are.
inline constexpr int kTileCols = 32;

// One round of the transposing patterns (setRowReadCol): thread t = ty * 32 + tx stores its value
// at tile position t (row-major), then loads position (t % tile_rows) * 32 + t / tile_rows, the
// book's tile[icol][irow] with irow = t / BDIMY, icol = t % BDIMY.
COALESCE_HOST_DEVICE inline int transposed_position(int t, int tile_rows) {
    return (t % tile_rows) * kTileCols + t / tile_rows;
}

// ---- the constant table (constant_read) -----------------------------------------------------

// The table every variant reads: entry k is element k mod n of the input (row-major, n elements),
// so inputs smaller than the table still fill it.
inline constexpr int kTableSize = 1024;

// The table index of read i by the thread of output (row, col): the seed's c[i] (distinct = 0:
// one address for the whole grid), c[blockIdx.x + i] (distinct = 1: one per row, which is one per
// block) or `distinct` different addresses across a warp's lanes, c[row + col % distinct + i].
COALESCE_HOST_DEVICE inline int table_base(long long row, long long col, int distinct) {
    if (distinct == 0) return 0;
    return static_cast<int>((row + col % distinct) & (kTableSize - 1));
}
COALESCE_HOST_DEVICE inline int table_index(int base, int i) {
    return (base + i) & (kTableSize - 1);
}

// ---- random sampling in a neighbourhood (random_sample) -------------------------------------

// A 32-bit hash of (x, y, k): the k-th sample of output (x, y). Integer arithmetic only, so CPU and
// GPU draw the same samples.
COALESCE_HOST_DEVICE inline unsigned sample_hash(unsigned x, unsigned y, unsigned k) {
    unsigned h = x * 0x8da6b343u + y * 0xd8163841u + k * 0xcb1ab31fu + 0x165667b1u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

// The window along one axis of n cells: `area` cells (all n when n < area) centred on i as far as
// the axis allows, shifted to stay inside it.
COALESCE_HOST_DEVICE inline int window_size(int n, int area) { return area < n ? area : n; }
COALESCE_HOST_DEVICE inline int window_start(int i, int n, int area) {
    int start = i - area / 2;
    const int last = n - window_size(n, area);
    if (start > last) start = last;
    return start < 0 ? 0 : start;
}

// The sample's offsets inside a window of wx x wy cells: the hash's low and high halves scaled to
// the window (a multiply and a shift; every offset < its window).
COALESCE_HOST_DEVICE inline int sample_dx(unsigned h, int wx) {
    return static_cast<int>(((h & 0xffffu) * static_cast<unsigned>(wx)) >> 16);
}
COALESCE_HOST_DEVICE inline int sample_dy(unsigned h, int wy) {
    return static_cast<int>(((h >> 16) * static_cast<unsigned>(wy)) >> 16);
}

// ---- resampling (resample) ------------------------------------------------------------------

// Output size for a scale in percent: each side rounded, at least 1.
inline Shape resample_shape(Shape in, long long scale_percent) {
    const auto side = [&](std::size_t n) {
        const long long s =
            std::llround(static_cast<double>(n) * static_cast<double>(scale_percent) / 100.0);
        return static_cast<std::size_t>(s < 1 ? 1 : s);
    };
    return {side(in.rows), side(in.cols)};
}

// The inverse mapping from an output pixel to input coordinates, in floats computed once on the
// host: rotate about the output's centre by -angle, scale by 100 / scale, move to the input's
// centre. Coordinates are texel units with texel i covering [i, i + 1), as tex2D takes them.
struct ResampleMap {
    float cos_a = 1.0f, sin_a = 0.0f;
    float inv_scale = 1.0f;  // input texels per output pixel
    float in_cx = 0.0f, in_cy = 0.0f;
    float out_cx = 0.0f, out_cy = 0.0f;
};

inline ResampleMap resample_map(Shape in, long long scale_percent, long long angle_degrees) {
    const Shape out = resample_shape(in, scale_percent);
    const double radians = static_cast<double>(angle_degrees) * 3.14159265358979323846 / 180.0;
    ResampleMap m;
    m.cos_a = static_cast<float>(std::cos(radians));
    m.sin_a = static_cast<float>(std::sin(radians));
    m.inv_scale = static_cast<float>(100.0 / static_cast<double>(scale_percent));
    m.in_cx = 0.5f * static_cast<float>(in.cols);
    m.in_cy = 0.5f * static_cast<float>(in.rows);
    m.out_cx = 0.5f * static_cast<float>(out.cols);
    m.out_cy = 0.5f * static_cast<float>(out.rows);
    return m;
}

// Float arithmetic that host and device round alike: nvcc contracts a * b + c into an FMA, the
// host compiler does not (x86-64 without -mfma), so the coordinates are written with explicit
// single roundings (fmul, fadd) and fused multiply-adds (fma) on both sides, bit for bit equal.
COALESCE_HOST_DEVICE inline float fmul(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}
COALESCE_HOST_DEVICE inline float fadd(float a, float b) {
#if defined(__CUDA_ARCH__)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}
COALESCE_HOST_DEVICE inline float fma(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
    return __fmaf_rn(a, b, c);
#else
    return std::fma(a, b, c);
#endif
}

// Input coordinates (sx, sy) of output pixel (ox, oy)'s centre, the same bits on host and device.
COALESCE_HOST_DEVICE inline void resample_source(const ResampleMap& m, int ox, int oy, float& sx,
                                                 float& sy) {
    const float u = fadd(fadd(static_cast<float>(ox), 0.5f), -m.out_cx);
    const float v = fadd(fadd(static_cast<float>(oy), 0.5f), -m.out_cy);
    sx = fma(fma(m.cos_a, u, fmul(m.sin_a, v)), m.inv_scale, m.in_cx);
    sy = fma(fma(m.cos_a, v, -fmul(m.sin_a, u)), m.inv_scale, m.in_cy);
}

// A fraction as the texture unit holds it: rounded to the nearest 1/256, halves upwards (9-bit
// fixed point with 8 fractional bits: CUDA programming guide, "Texture Fetching", linear
// filtering; the rounding measured on an H100). Exact in float: scaling by 256 is exact.
COALESCE_HOST_DEVICE inline float quantized_weight(float fraction) {
    const float scaled = fraction * 256.0f;
    const float whole = floorf(scaled);
    return (whole + (scaled - whole >= 0.5f ? 1.0f : 0.0f)) * (1.0f / 256.0f);
}

// The four texels and four weights of a bilinear fetch at (sx, sy). The guide defines xB = x - 0.5,
// i = floor(xB), alpha = frac(xB) (likewise beta along y), both in 1/256 steps, and weights
// (1 - alpha)(1 - beta), alpha(1 - beta), (1 - alpha) beta, alpha beta; the unit also holds those
// in 1/256 steps: measured on an H100, alpha beta is rounded like a fraction and the other three
// are what remains of alpha, beta and 1, so they still sum to 1 (bit for bit on integer texels).
// Indices are clamped to the image (the clamp address mode). Every weight is exact in float.
struct BilinearTap {
    int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    float a = 0.0f, b = 0.0f;                              // alpha, beta: multiples of 1/256
    float w00 = 1.0f, w10 = 0.0f, w01 = 0.0f, w11 = 0.0f;  // of (x0,y0) (x1,y0) (x0,y1) (x1,y1)
};

COALESCE_HOST_DEVICE inline int clamp_index(int i, int n) {
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

COALESCE_HOST_DEVICE inline BilinearTap bilinear_tap(float sx, float sy, int cols, int rows) {
    const float xb = sx - 0.5f;  // exact below 2^23
    const float yb = sy - 0.5f;
    const float fx = floorf(xb);
    const float fy = floorf(yb);
    BilinearTap t;
    t.a = quantized_weight(xb - fx);
    t.b = quantized_weight(yb - fy);
    t.w11 = quantized_weight(t.a * t.b);  // the product of two 1/256 steps is exact
    t.w10 = t.a - t.w11;
    t.w01 = t.b - t.w11;
    t.w00 = (1.0f - t.a - t.b) + t.w11;  // exact: every term is a multiple of 1/256 below 2
    const int ix = static_cast<int>(fx);
    const int iy = static_cast<int>(fy);
    t.x0 = clamp_index(ix, cols);
    t.x1 = clamp_index(ix + 1, cols);
    t.y0 = clamp_index(iy, rows);
    t.y1 = clamp_index(iy + 1, rows);
    return t;
}

// ---- 8-bit input (u8_to_float) --------------------------------------------------------------

// The 8-bit pixel an input value becomes: rounded to nearest, saturated to 0..255 (NaN: 0).
COALESCE_HOST_DEVICE inline unsigned char to_u8(float v) {
    if (!(v > 0.0f)) return 0;
    if (v >= 255.0f) return 255;
    return static_cast<unsigned char>(rintf(v));
}

}  // namespace coalesce::onchip
