// What the classic filter kernels need to run u8 and u16 as they run float: the window's
// accumulator and its mean, rounded as the typed references round it (typed_reference.hpp).
#pragma once

#include <type_traits>

namespace coalesce::gpu {

// float sums floats, as the float kernels always did; integers sum exactly in 32 bits: a window
// of at most 2 * kMaxRadius + 1 = 129 values of at most 65535 stays below 2^24.
template <class T>
using WindowSum = std::conditional_t<std::is_same_v<T, float>, float, unsigned int>;

// The mean of k = 2r+1 neighbours: float divides; integers round to nearest, (2 s + k) / (2 k)
// (k is odd, so there are no ties), which is below 2^25 for any window.
template <class T>
__device__ __forceinline__ T window_mean(WindowSum<T> sum, int k) {
    if constexpr (std::is_same_v<T, float>)
        return sum / k;
    else
        return static_cast<T>((2u * sum + static_cast<unsigned int>(k)) /
                              (2u * static_cast<unsigned int>(k)));
}

}  // namespace coalesce::gpu
