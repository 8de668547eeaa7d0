// The border rule of coalesce::border_index() (engine/src/operation.cpp), as a __host__ __device__
// twin, so GPU filters read exactly the neighbours the CPU reference reads.
#pragma once

#include "coalesce/operation.hpp"

#include <cuda_runtime.h>

namespace coalesce::gpu {

// Index of the element read at position i of a line of n elements; -1 means "reads zero".
// clamp repeats the edge; wrap is periodic with period n; mirror reflects with the edge repeated,
// periodic with period 2n, so radii wider than the line still land inside it.
__host__ __device__ inline long long border_index(long long i, long long n, Border border) {
    if (i >= 0 && i < n) return i;
    switch (border) {
    case Border::clamp: return i < 0 ? 0 : n - 1;
    case Border::zero: return -1;
    case Border::wrap: return ((i % n) + n) % n;
    case Border::mirror: {
        const long long period = 2 * n;
        const long long m = ((i % period) + period) % period;
        return m < n ? m : period - 1 - m;
    }
    }
    return -1;
}

}  // namespace coalesce::gpu
