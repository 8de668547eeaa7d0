// What the launchers of the classic kernels share. Those kernels index as the course does: int
// coordinates from a 2-D grid (x = blockIdx.x * blockDim.x + threadIdx.x), int indices
// (in[y * pitch + x]), one tile or output per thread, no loop over the grid. Two limits follow,
// handled here on the host so that the kernel bodies stay the course's: a grid has at most 65535
// blocks along y, and an int index must stay below 2^31. A matrix past either is launched in
// bands, each band's pointers moved to its first row (or column) on the host.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/variant.hpp"

#include <algorithm>
#include <cstddef>

namespace coalesce::gpu {

inline constexpr long long kMaxBlocksY = 65535;

// The largest index span one launch may cover: 2^29 floats, so that a band's index plus a row
// of columns, or a filter's halo of kMaxRadius rows, still fits in an int.
inline constexpr long long kIntSpan = 1LL << 29;

// Rows and columns the classic variants accept (larger inputs are skipped with this reason):
// every coordinate and pitch is an int, and a 256-row chunk or a halo of kMaxRadius rows on each
// side of a band still fits beside kIntSpan.
inline Limits classic_limits() {
    Limits limits;
    limits.max_rows = std::size_t{1} << 30;
    limits.max_cols = std::size_t{1} << 22;
    return limits;
}

// Distance between row starts in floats: cols for a dense view, pitch_bytes / 4 for a pitched one.
inline int pitch_of(const MatView& v) { return static_cast<int>(v.pitch_bytes / sizeof(float)); }

// Calls launch(first, count) for consecutive bands covering `extent` rows (or columns), each at
// most max_count long and short enough that count * stride stays within kIntSpan: one launch for
// any matrix of up to 2^29 floats.
template <class Launch>
void for_each_band(std::size_t extent, long long max_count, long long stride, Launch&& launch) {
    const long long band = std::max(1LL, std::min(max_count, kIntSpan / std::max(stride, 1LL)));
    const long long total = static_cast<long long>(extent);
    for (long long first = 0; first < total; first += band)
        launch(static_cast<int>(first), static_cast<int>(std::min(band, total - first)));
}

// Blocks of per_block items needed to cover n items.
inline unsigned int blocks_to_cover(long long n, long long per_block) {
    return static_cast<unsigned int>((n + per_block - 1) / per_block);
}

}  // namespace coalesce::gpu
