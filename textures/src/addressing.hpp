// How a texture variant addresses its input: which CUDA address mode a border maps onto, whether
// that needs normalized coordinates, and a proof (per size) that normalized float coordinates
// still land on the right texel.
#pragma once

#include <cuda_runtime_api.h>

namespace coalesce::textures {

enum class Family { array, pitched };

struct Addressing {
    cudaTextureAddressMode mode = cudaAddressModeClamp;
    // Wrap and mirror exist only for normalized coordinates, and the driver documents border as
    // normalized-only too; clamp (and every operation that never reads outside) stays unnormalized,
    // where integer + 0.5 coordinates are exact.
    bool normalized = false;
};

// op: enum coalesce_op; border: enum coalesce_border. Throws TextureError for an unknown border.
Addressing addressing_for(int op, int border);
const char* border_word(int border);

// The element a filter reads at index i along an axis of n elements (-1: zero), the same contract
// as coalesce::border_index; the plugin carries its own copy because it links no engine code.
long long reference_index(long long i, long long n, int border);

// Replays, in float exactly as the kernels compute it, the normalized coordinate of every index a
// filter of `radius` reads along an axis of n texels, applies the address mode, and throws
// TextureError naming the axis and size if any coordinate would fetch another texel than
// reference_index, or would sit closer than 1/256 texel to a texel edge (the texture unit's
// sub-texel resolution).
void check_normalized_precision(long long n, int radius, int border, const char* axis);

}  // namespace coalesce::textures
