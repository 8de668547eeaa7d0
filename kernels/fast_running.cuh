// Pieces of the running-sum box filters (fast_filter_x_running.cu, fast_filter_y_running.cu): a
// window sum that slides at a cost independent of the radius, and asynchronous copies from global
// to shared memory (cp.async, sm_80+), which cost no registers while in flight: 4 bytes, at any
// alignment, and 16 bytes (the filter Y walks, fast_filter_y_walk*.cu).
//
// Accuracy. A float running sum (add the entering sample, subtract the leaving one) carries every
// rounding error forward: after n steps its error grows like sqrt(n) u |S| and can reach n u |S|
// (u = 2^-24), far outside the verification bound of a (2r+1)-term sum, and relative to the
// largest window met, not to the current one. Here the sum is an unevaluated pair hi + lo: each
// addition's rounding error is computed exactly (Knuth's TwoSum) and collected in lo, and the pair
// is renormalised every G steps (the kernels use G = 8 and 32), so |lo| stays below G u M, M the
// largest sum of |values| of a window met since the seed. The only errors left are the roundings
// of the lo additions, at most G u^2 M per step:
//   |hi + lo - S| <= n G u^2 M  after n steps.
// mean() divides hi + lo by 2r+1 to about half an ulp, so an output is within
// (u + n G u^2 M / A) A / (2r+1) of the exact mean, A the current window's sum of |values|; the
// verifier allows at least 4 u A / (2r+1). With n G <= 32768 (filter Y: walks of at most 4096
// rows, G = 8; filter X: at most 129 outputs, G = 32) that holds unless the walk met, since its
// seed, a window over 1500 times larger (in sum of |values|) than the current one. Data whose
// values span less than about 2^20 in magnitude (8-bit and 16-bit images among them) make every lo
// addition exact: a window of zeros after bright pixels then sums to exactly 0. About 15 float
// adds and 3 multiplies per output, no FP64: the same code is fast on GPUs with slow doubles too.
#pragma once

#include <cuda_runtime.h>

namespace coalesce::fast {

// a + b = s + e exactly (Knuth's TwoSum: no assumption on the magnitudes).
__device__ __forceinline__ void two_sum(float a, float b, float& s, float& e) {
    s = a + b;
    const float bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

// The window sum as the unevaluated pair hi + lo.
struct RunningSum {
    float hi = 0.0f;
    float lo = 0.0f;

    // Seeding: adds one sample.
    __device__ __forceinline__ void add(float v) {
        float e;
        two_sum(hi, v, hi, e);
        lo += e;
    }
    // One step of the window: `enter` comes in, `leave` goes out.
    __device__ __forceinline__ void slide(float enter, float leave) {
        float s, e1, e2;
        two_sum(hi, enter, s, e1);
        two_sum(s, -leave, hi, e2);
        lo += e1 + e2;
    }
    // Moves what lo holds into hi, leaving |lo| <= ulp(hi) / 2 (exact when |hi| >= |lo|;
    // otherwise off by about u |lo|).
    __device__ __forceinline__ void renormalise() {
        const float s = hi;
        hi = s + lo;
        lo -= hi - s;
    }
    // (hi + lo) / width, to about half an ulp: q = hi * inv misses by up to an ulp through the
    // rounding of inv = 1/width; the remainder hi - q * width is exact in one fma, and one more
    // fma adds its share (with lo) back.
    __device__ __forceinline__ float mean(float width, float inv) const {
        const float q = hi * inv;
        const float rem = fmaf(-q, width, hi) + lo;
        return fmaf(rem, inv, q);
    }
};

__device__ __forceinline__ unsigned smem_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// 4 bytes global -> shared, asynchronously (completes with the thread's next committed group).
__device__ __forceinline__ void copy4_async(float* dst, const float* src) {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_addr(dst)), "l"(src)
                 : "memory");
}

// 16 bytes global -> shared, asynchronously, bypassing L1 (cg); both addresses 16-byte aligned.
__device__ __forceinline__ void copy16_async(float4* dst, const float* src) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_addr(dst)), "l"(src)
                 : "memory");
}

// Closes the group of copies issued since the last commit (an empty group is allowed).
__device__ __forceinline__ void commit_copies() {
    asm volatile("cp.async.commit_group;" ::: "memory");
}

// Waits until at most Pending of this thread's groups are still in flight; the others' bytes are
// then visible to this thread (to other threads after a barrier).
template <int Pending>
__device__ __forceinline__ void wait_copies() {
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

}  // namespace coalesce::fast
