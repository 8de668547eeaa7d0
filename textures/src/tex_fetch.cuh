// One texel by integer index, through unnormalized or normalized coordinates. The texel centre is
// used (index + 0.5) so point sampling never sits on an edge; the normalized form uses
// round-to-nearest intrinsics so nvcc cannot contract it into an FMA that the host-side precision
// check (addressing.cpp) would not replay.
#pragma once

#include "texture_ops.hpp"

namespace coalesce::textures {

template <bool Normalized>
__device__ __forceinline__ float fetch(const TexInput& in, int x, int y) {
    if constexpr (Normalized) {
        return tex2D<float>(in.texture,
                            __fmul_rn(__fadd_rn(static_cast<float>(x), 0.5f), in.inv_cols),
                            __fmul_rn(__fadd_rn(static_cast<float>(y), 0.5f), in.inv_rows));
    } else {
        return tex2D<float>(in.texture, static_cast<float>(x) + 0.5f, static_cast<float>(y) + 0.5f);
    }
}

inline unsigned int blocks_for(long long items, unsigned int per_block) {
    return static_cast<unsigned int>((items + per_block - 1) / per_block);
}

}  // namespace coalesce::textures
