// The mean of one filter window of 8-bit or 16-bit texels read as normalized floats, rounded to
// the integer the typed reference gives (unorm_mean.hpp has the arithmetic and why it is exact).
#pragma once

#include "tex_fetch.cuh"
#include "unorm_mean.hpp"

#include <cstdint>

namespace coalesce::textures {

// Along a row (AlongX) or a column, centred on (x, y); the texture's address mode resolves the
// reads past the edges.
template <class T, bool Normalized, bool AlongX>
__device__ __forceinline__ T unorm_window_mean(const TexInput& in, int x, int y, int radius) {
    const int k = 2 * radius + 1;
    if constexpr (sizeof(T) == 1) {
        float sum = 0.0f;  // one FADD per texel, as the float filter; s is recovered once
        for (int i = -radius; i <= radius; ++i)
            sum += AlongX ? fetch<Normalized>(in, x + i, y) : fetch<Normalized>(in, x, y + i);
        return unorm8_mean(sum, k);
    } else {
        std::uint32_t s = 0;  // each texel back to its integer: a float sum would lose units
        for (int i = -radius; i <= radius; ++i)
            s += unorm16_value(AlongX ? fetch<Normalized>(in, x + i, y)
                                      : fetch<Normalized>(in, x, y + i));
        return static_cast<T>(unorm_rounded_mean(s, static_cast<std::uint32_t>(k)));
    }
}

}  // namespace coalesce::textures
