// What the two shared-memory tile operations share: their parameters, the whole tiles of an
// input, the bytes model (shared-memory bytes, not DRAM bytes) and the CPU reference, which
// applies a per-tile permutation `repeat` times.
#pragma once

#include "coalesce/onchip.hpp"
#include "op_support.hpp"

#include <string>
#include <vector>

namespace coalesce::ops::smem {

inline std::vector<ParamSpec> tile_params() {
    return {{"tile_rows", 16, 32, 32,
             "rows of the 32-wide tile: 32 (square) or 16 (the book's 32x16 rectangle)"},
            {"repeat", 1, 4096, 65,
             "shared-memory store/load rounds per tile (65: odd, so a square tile comes out "
             "transposed, and not a multiple of 9, the order of the 32x16 permutation)"}};
}

inline std::string check_tile_rows(Shape, const OpParams& p) {
    const long long h = p.value("tile_rows");
    if (h == 16 || h == 32) return {};
    return "tile_rows must be 16 or 32 (the book's tiles), not " + std::to_string(h);
}

// Elements inside whole tiles: those run the pattern.
inline std::size_t tiled_elements(Shape in, long long tile_rows) {
    return (in.rows / static_cast<std::size_t>(tile_rows) * static_cast<std::size_t>(tile_rows)) *
           (in.cols / onchip::kTileCols * onchip::kTileCols);
}

// Shared-memory bytes moved: every element of a whole tile stored and loaded once per round.
inline std::size_t shared_bytes(Shape in, const OpParams& p) {
    return tiled_elements(in, p.value("tile_rows")) * 2 * sizeof(float) *
           static_cast<std::size_t>(p.value("repeat"));
}

// out = in with each whole tile's cells permuted: after `repeat` rounds, the thread at tile
// position t holds the value that started at position source[t].
inline void permute_tiles(const Matrix& in, Matrix& out, int tile_rows,
                          const std::vector<int>& source) {
    const std::size_t h = static_cast<std::size_t>(tile_rows);
    const std::size_t w = onchip::kTileCols;
    const std::size_t full_rows = in.rows() / h * h;
    const std::size_t full_cols = in.cols() / w * w;
    for (std::size_t r = 0; r < in.rows(); ++r)
        for (std::size_t c = 0; c < in.cols(); ++c) {
            if (r >= full_rows || c >= full_cols) {
                out.at(r, c) = in.at(r, c);
                continue;
            }
            const std::size_t t = (r % h) * w + c % w;
            const std::size_t s = static_cast<std::size_t>(source[t]);
            out.at(r, c) = in.at(r - r % h + s / w, c - c % w + s % w);
        }
}

// The host's version of the kernels: every whole tile's values go through a tile buffer `repeat`
// times, stored at each cell's own position and loaded from load_position(t); partial tiles are
// copied. What it moves through the buffer is what the bytes model counts.
template <class LoadPosition>
void round_trips(const Matrix& in, Matrix& out, const OpParams& p, LoadPosition load_position) {
    const std::size_t h = static_cast<std::size_t>(p.value("tile_rows"));
    const long long repeat = p.value("repeat");
    const std::size_t w = onchip::kTileCols;
    out = in;
    std::vector<float> tile(h * w), v(h * w);
    for (std::size_t r0 = 0; r0 + h <= in.rows(); r0 += h)
        for (std::size_t c0 = 0; c0 + w <= in.cols(); c0 += w) {
            for (std::size_t t = 0; t < h * w; ++t) v[t] = in.at(r0 + t / w, c0 + t % w);
            for (long long k = 0; k < repeat; ++k) {
                for (std::size_t t = 0; t < h * w; ++t) tile[t] = v[t];
                for (std::size_t t = 0; t < h * w; ++t) v[t] = tile[load_position(t, h)];
            }
            for (std::size_t t = 0; t < h * w; ++t) out.at(r0 + t / w, c0 + t % w) = v[t];
        }
}

}  // namespace coalesce::ops::smem
