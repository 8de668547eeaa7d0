// Pieces of the running-sum box filters (fast_filter_x_running.cu, fast_filter_y_running.cu): a
// window sum that slides at a cost independent of the radius, and 4-byte asynchronous copies
// from global to shared memory (cp.async, sm_80+), which take any alignment and cost no
// registers while in flight.
//
// Accuracy. A float running sum (add the entering sample, subtract the leaving one) carries every
// rounding error forward: after n steps its error grows like sqrt(n) u |S| and can reach n u |S|
// (u = 2^-24), far outside the verification bound of a (2r+1)-term sum, and it is relative to the
// largest window met, not to the current one. Here the sum is kept as an unevaluated pair
// hi + lo: each addition's rounding error is computed exactly (Knuth's TwoSum) and collected in
// lo, and the pair is renormalised after every step (|lo| <= ulp(hi) / 2). The only errors left
// are the roundings of the small lo additions, about 2 u^2 M per step, so after n steps
//   |hi - S| <= u/2 |S| + 2 n u^2 M,
// M the largest sum of |values| of a window met since the last seed. The output, (hi + lo) / (2r+1)
// through one correction step (mean()), is then within (u + 2 n u^2 M / A) A / (2r+1) of the
// mean, A the current window's sum of |values|. The verifier allows at least 4 u A / (2r+1): with
// walks of at most 4096 outputs that holds unless the walk met, since its seed, a window more than
// 10000 times larger (in sum of |values|) than the current one. Data whose values span less than about 2^20
// in magnitude (8-bit and 16-bit images among them) make every lo addition exact, so a window of
// zeros after bright pixels sums to exactly 0. 18 float adds and 3 multiplies per output, no FP64: the same code
// is fast on GPUs with slow double precision too.
#pragma once

#include <cuda_runtime.h>

namespace coalesce::fast {

// a + b = s + e exactly (Knuth's TwoSum: no assumption on the magnitudes).
__device__ __forceinline__ void two_sum(float a, float b, float& s, float& e) {
    s = a + b;
    const float bb = s - a;
    e = (a - (s - bb)) + (b - bb);
}

// The window sum as hi + lo, renormalised after every step.
struct RunningSum {
    float hi = 0.0f;
    float lo = 0.0f;

    __device__ __forceinline__ void renormalise(float s, float c) {
        hi = s + c;
        lo = c - (hi - s);  // exact when |s| >= |c|; otherwise off by about u |c|, i.e. u^2 |S|
    }
    // Seeding: adds one sample.
    __device__ __forceinline__ void add(float v) {
        float s, e;
        two_sum(hi, v, s, e);
        renormalise(s, lo + e);
    }
    // One step of the window: `enter` comes in, `leave` goes out.
    __device__ __forceinline__ void slide(float enter, float leave) {
        float s1, e1, s2, e2;
        two_sum(hi, enter, s1, e1);
        two_sum(s1, -leave, s2, e2);
        renormalise(s2, lo + (e1 + e2));
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
