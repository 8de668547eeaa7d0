// Small pieces every kernel file shares: row addressing through a MatView and grid sizing that
// respects CUDA's limits (gridDim.y <= 65535), so tall and wide shapes launch.
#pragma once

#include "coalesce/matrix.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

namespace coalesce::gpu {

inline constexpr unsigned kMaxGridY = 65535;
inline constexpr unsigned kMaxGridX = 0x7fffffffu;

// Blocks needed to cover n items at per_block each, at least 1 and at most cap; kernels whose
// grid may be capped loop (grid-stride) over the rest.
inline unsigned blocks_for(std::size_t n, std::size_t per_block, unsigned cap = kMaxGridX) {
    const std::size_t blocks = (n + per_block - 1) / per_block;
    return static_cast<unsigned>(std::clamp<std::size_t>(blocks, 1, cap));
}

// Row r of a pitched view: the pitch is in bytes, so the step is taken on a byte pointer.
__host__ __device__ inline float* pitched_row(const MatView& v, std::size_t r) {
    return reinterpret_cast<float*>(reinterpret_cast<char*>(v.data) + r * v.pitch_bytes);
}

// Row r of a dense view (cudaMalloc, pitch = cols * 4): plain linear indexing.
__host__ __device__ inline float* dense_row(const MatView& v, std::size_t r) {
    return v.data + r * v.cols;
}

// Chooses the addressing at compile time, so one kernel template serves both allocation paths.
template <bool Pitched>
__host__ __device__ inline float* row_of(const MatView& v, std::size_t r) {
    if constexpr (Pitched)
        return pitched_row(v, r);
    else
        return dense_row(v, r);
}

}  // namespace coalesce::gpu
