// The mean of 2r+1 neighbours for N (8 or 16) consecutive outputs at once, shared by the fast
// filters. Outputs k = 0..N-1 read window positions [k, k + 2r] of one line (get(j), j =
// 0..2r+N-1). When the windows overlap in a common middle [N-1, 2r], that middle is summed once;
// each output then adds its left part (a suffix sum over [k, N-2]) and its right part (a prefix sum
// over [2r+1, 2r+k]). Every output is still a plain sum of its own 2r+1 values (no subtraction, so
// no cancellation), in a tree order: the verification bound holds as for a straight loop.
#pragma once

#include "fast_common.cuh"

namespace coalesce::fast {

inline constexpr int kWindowOutputs = 8;

__device__ __forceinline__ float vadd(float a, float b) { return a + b; }
__device__ __forceinline__ float4 vadd(float4 a, float4 b) { return add4(a, b); }
__device__ __forceinline__ float2 vadd(float2 a, float2 b) {
    return make_float2(a.x + b.x, a.y + b.y);
}
__device__ __forceinline__ float vscale(float a, float s) { return a * s; }
__device__ __forceinline__ float2 vscale(float2 a, float s) {
    return make_float2(a.x * s, a.y * s);
}
__device__ __forceinline__ float4 vscale(float4 a, float s) { return scale4(a, s); }

// The N outputs of windows [k, k + span] (k = 0..N-1) from the sum of their common middle
// [N - 1, span]: each adds its left part (a suffix sum over [k, N - 2]) and its right part (a
// prefix sum over [span + 1, span + k]).
template <class T, int N, class Get, class Put>
__device__ __forceinline__ void finish_windows(T common, int span, float inv, Get get, Put put) {
    T left[N - 1];
    left[N - 2] = get(N - 2);
#pragma unroll
    for (int k = N - 3; k >= 0; --k) left[k] = vadd(get(k), left[k + 1]);
    put(0, vscale(vadd(common, left[0]), inv));
    T right = get(span + 1);
#pragma unroll
    for (int k = 1; k < N; ++k) {
        if (k > 1) right = vadd(right, get(span + k));
        const T sum = k < N - 1 ? vadd(vadd(common, left[k]), right) : vadd(common, right);
        put(k, vscale(sum, inv));
    }
}

// N outputs (8 or 16). The common middle is summed in four interleaved chains: a single chain of
// up to 2r - N + 2 terms rounds like n * eps when the values repeat (a clamped border repeats one
// value up to r times), four chains keep it near the sqrt(n) * eps the verification allows, and
// give the adder four independent dependency chains.
template <class T, int N = kWindowOutputs, class Get, class Put>
__device__ __forceinline__ void window_means(int radius, float inv, Get get, Put put) {
    const int span = 2 * radius;
    if (span >= N - 1) {
        T acc0 = get(N - 1), acc1{}, acc2{}, acc3{};
        int j = N;
#pragma unroll 2
        for (; j + 3 <= span; j += 4) {
            acc0 = vadd(acc0, get(j));
            acc1 = vadd(acc1, get(j + 1));
            acc2 = vadd(acc2, get(j + 2));
            acc3 = vadd(acc3, get(j + 3));
        }
        for (; j <= span; ++j) acc0 = vadd(acc0, get(j));
        finish_windows<T, N>(vadd(vadd(acc0, acc1), vadd(acc2, acc3)), span, inv, get, put);
    } else {
        // Windows too short to share a middle (2r < N - 1): sum each directly.
#pragma unroll
        for (int k = 0; k < N; ++k) {
            T acc = get(k);
            for (int j = 1; j <= span; ++j) acc = vadd(acc, get(k + j));
            put(k, vscale(acc, inv));
        }
    }
}

// Long windows at a cost that hardly grows with the radius: window_means with the common middle
// read as sums of N consecutive values computed once per block and shared by the N - 1
// neighbouring threads whose middles contain them. chunk(i) must be the plain sum of get(N - 1 +
// N * i) .. get(N - 1 + N * i + N - 1). An output is still a sum of its own 2r + 1 values, only
// in another tree order (no subtraction), so the bound of a direct sum holds (Higham: any tree
// of n - 1 additions stays within gamma(n - 1) of sum |x|). Needs 2r >= 3N - 2 (two whole chunks).
template <class T, int N, class Get, class Chunk, class Put>
__device__ __forceinline__ void window_means_chunked(int radius, float inv, Get get, Chunk chunk,
                                                     Put put) {
    const int middle = 2 * radius - N + 2;  // positions N - 1 .. 2r
    const int whole = middle / N;
    T acc0 = chunk(0), acc1 = chunk(1);
    int i = 2;
    for (; i + 1 < whole; i += 2) {
        acc0 = vadd(acc0, chunk(i));
        acc1 = vadd(acc1, chunk(i + 1));
    }
    if (i < whole) acc0 = vadd(acc0, chunk(i));
    for (int j = N - 1 + N * whole; j <= 2 * radius; ++j) acc1 = vadd(acc1, get(j));
    finish_windows<T, N>(vadd(acc0, acc1), 2 * radius, inv, get, put);
}

// The plain sum of N consecutive values get(0) .. get(N - 1) in two chains: one chunk of
// window_means_chunked.
template <class T, int N, class Get>
__device__ __forceinline__ T chunk_sum(Get get) {
    T a = get(0), b = get(1);
#pragma unroll
    for (int j = 2; j < N; j += 2) {
        a = vadd(a, get(j));
        b = vadd(b, get(j + 1));
    }
    return vadd(a, b);
}

// Four outputs k = 0..3 at window centres H + k of v: out_k = sum of v[H + k - R .. H + k + R]. The
// part common to all four, [H + 3 - R, H + R], is summed once (two chains); each output adds its
// own left suffix and right prefix. Plain sums of each output's 2R + 1 values: no subtraction.
template <int R, int H, int N>
__device__ __forceinline__ float4 window4(const float (&v)[N], float inv) {
    float o[4];
    if constexpr (2 * R < 3) {
#pragma unroll
        for (int k = 0; k < 4; ++k) {
            float s = v[H + k - R];
#pragma unroll
            for (int d = 1 - R; d <= R; ++d) s += v[H + k + d];
            o[k] = s;
        }
    } else {
        float c0 = v[H + 3 - R], c1 = 0.0f;
#pragma unroll
        for (int i = H + 4 - R; i <= H + R; ++i) {
            if ((i - (H + 3 - R)) % 2)
                c1 += v[i];
            else
                c0 += v[i];
        }
        const float common = c0 + c1;
        const float s2 = v[H + 2 - R], s1 = v[H + 1 - R] + s2, s0 = v[H - R] + s1;
        const float p1 = v[H + R + 1], p2 = p1 + v[H + R + 2], p3 = p2 + v[H + R + 3];
        o[0] = common + s0;
        o[1] = (common + s1) + p1;
        o[2] = (common + s2) + p2;
        o[3] = common + p3;
    }
    return make_float4(o[0] * inv, o[1] * inv, o[2] * inv, o[3] * inv);
}

// Outputs 4q .. 4q + 3 of a line in shared memory whose element H + i is the input under output i
// (H = the radius rounded up to 4): the window's 4 + 2H values come in as 1 + 2H/4 aligned float4
// loads (consecutive q on consecutive lanes: conflict-free) and stay in registers.
template <int R, int H>
__device__ __forceinline__ float4 window4_from_line(const float* line, int q, float inv) {
    float w[4 + 2 * H];
    const float4* s = reinterpret_cast<const float4*>(line) + q;
#pragma unroll
    for (int i = 0; i < 1 + 2 * H / 4; ++i) {
        const float4 t = s[i];
        w[4 * i] = t.x;
        w[4 * i + 1] = t.y;
        w[4 * i + 2] = t.z;
        w[4 * i + 3] = t.w;
    }
    return window4<R, H>(w, inv);
}

}  // namespace coalesce::fast
