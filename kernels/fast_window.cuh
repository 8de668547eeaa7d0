// The mean of 2r+1 neighbours for N = 8 consecutive outputs at once, shared by the fast filters.
// Outputs k = 0..7 read window positions [k, k + 2r] of one line (get(j), j = 0..2r+7). When the
// windows overlap in a common middle [7, 2r], that middle is summed once; each output then adds its
// left part (a suffix sum over [k, 6]) and its right part (a prefix sum over [2r+1, 2r+k]). Every
// output is still a plain sum of its own 2r+1 values (no subtraction, so no cancellation), in a
// tree order: the verification bound holds as for a straight loop.
#pragma once

#include "fast_common.cuh"

namespace coalesce::fast {

inline constexpr int kWindowOutputs = 8;

__device__ __forceinline__ float vadd(float a, float b) { return a + b; }
__device__ __forceinline__ float4 vadd(float4 a, float4 b) { return add4(a, b); }
__device__ __forceinline__ float vscale(float a, float s) { return a * s; }
__device__ __forceinline__ float4 vscale(float4 a, float s) { return scale4(a, s); }

template <class T, class Get, class Put>
__device__ __forceinline__ void window_means(int radius, float inv, Get get, Put put) {
    constexpr int N = kWindowOutputs;
    const int span = 2 * radius;
    if (span >= N - 1) {
        T common = get(N - 1);
#pragma unroll 4
        for (int j = N; j <= span; ++j) common = vadd(common, get(j));
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
    } else {
        // r <= 3: windows too short to share a middle; sum each directly.
#pragma unroll
        for (int k = 0; k < N; ++k) {
            T acc = get(k);
            for (int j = 1; j <= span; ++j) acc = vadd(acc, get(k + j));
            put(k, vscale(acc, inv));
        }
    }
}

}  // namespace coalesce::fast
