// Device indexing and launch geometry, one vocabulary for every kernel file: row addressing
// through a MatView, counts and grid sizes within CUDA's limits (gridDim.y <= 65535), the 2-D
// tile coordinates of a one-dimensional grid, and the warp-wide sum.
#pragma once

#include "coalesce/matrix.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

namespace coalesce::gpu {

inline constexpr unsigned kMaxGridY = 65535;
inline constexpr unsigned kMaxGridX = 0x7fffffffu;

// ceil(n / d) for counts of tiles, segments, chunks and strips.
__host__ __device__ inline unsigned ceil_div(std::size_t n, std::size_t d) {
    return static_cast<unsigned>((n + d - 1) / d);
}

// Blocks needed to cover n items at per_block each, at least 1 and at most cap; kernels whose
// grid may be capped loop (grid-stride) over the rest.
inline unsigned blocks_for(std::size_t n, std::size_t per_block, unsigned cap = kMaxGridX) {
    const std::size_t blocks = (n + per_block - 1) / per_block;
    return static_cast<unsigned>(std::clamp<std::size_t>(blocks, 1, cap));
}

// Row r of a view through its pitch, which is in bytes (dense views have pitch = cols * 4), so
// the step is taken on a byte pointer.
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

// Grids are one-dimensional (blockIdx.x has 2^31 - 1 blocks, gridDim.y only 65535): a kernel with
// gx blocks per row of tiles recovers its tile coordinates (bx, by) from blockIdx.x.
__device__ __forceinline__ void block_xy(unsigned gx, unsigned& bx, unsigned& by) {
    by = blockIdx.x / gx;
    bx = blockIdx.x - by * gx;
}

// The sum of v over the 32 lanes of a full warp, in every lane (a butterfly of shuffles).
__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

}  // namespace coalesce::gpu
