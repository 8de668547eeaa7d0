// The GPU filters use the engine's border rule itself (coalesce::border_index in operation.hpp is
// __host__ __device__), so they read exactly the neighbours the CPU reference reads.
#pragma once

#include "coalesce/operation.hpp"

namespace coalesce::gpu {
using coalesce::border_index;

// border_index for positions within one line's length of either end (a filter's halo whenever
// the radius is at most the line's length), where wrap and mirror are one subtraction instead of
// the two 64-bit remainders of their periodic definitions (dozens of instructions per element in
// the filters' border blocks); farther out, border_index itself.
__device__ __forceinline__ long long border_index_near(long long i, long long n, Border b) {
    if (i >= -n && i < 2 * n) {
        if (b == Border::wrap) return i < 0 ? i + n : i >= n ? i - n : i;
        if (b == Border::mirror) return i < 0 ? -1 - i : i >= n ? 2 * n - 1 - i : i;
    }
    return border_index(i, n, b);
}
}  // namespace coalesce::gpu
