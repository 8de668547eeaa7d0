// Pieces of the window-block box filter (fast_filter_y_blocks.cu).
//
// A line is cut into blocks of w = 2r + 1 samples. A window of w samples that starts at offset j
// of block k is the suffix of block k from j on plus the prefix of block k + 1 before j: with the
// suffix sums of block k stored, a walk along block k + 1 that keeps its running prefix emits one
// window per step, and one backward pass then turns block k + 1 into suffix sums for the next
// block. Every output costs the same at every radius (a load, a store, a few additions), and no
// sum ever holds more than the window's own w terms: the error is that of a direct sum of w terms
// (its longest chain of additions is w - 1), with no drift along the line and nothing to
// compensate, so the verification bound of the direct filters holds unchanged.
#pragma once

#include <cuda_runtime.h>

namespace coalesce::fast {

// Turns w raw samples, slot s at slots[s * stride], into suffix sums: slots[s] becomes the sum of
// samples s .. w - 1, added from the end.
__device__ __forceinline__ void suffix_sums(float* slots, int w, int stride) {
    float acc = 0.0f;
#pragma unroll 4
    for (int s = w - 1; s >= 0; --s) {
        acc = slots[s * stride] + acc;
        slots[s * stride] = acc;
    }
}

}  // namespace coalesce::fast
