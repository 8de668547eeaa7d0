// What the shared-memory tile kernels (smem_copy_tile.cu, smem_transpose_tile.cu) share: the
// round trip each thread makes through the tile, the copy that partial tiles do, the launch over a
// grid of tiles, the requests of a typical warp for the bank model, and the registration of a
// pattern from its kernels and tile layout.
#pragma once

#include "coalesce/cuda_check.hpp"
#include "coalesce/onchip.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/sector_model.hpp"
#include "device_instance.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace coalesce::gpu::smem {

inline constexpr int BDIMX = onchip::kTileCols;            // the book's names for the tile's sides
inline constexpr long long kMaxTileRowsPerLaunch = 65535;  // gridDim.y

// Padding of the book's padded kernels: one column makes the square tile's columns fall into
// 32 different banks; the 32x16 tile's column reads (two half-columns per warp) need two.
inline constexpr int kColPad = 1;  // tile[BDIMX][BDIMY + 1] of setColReadColPad
__host__ __device__ constexpr int rowcol_pad(int tile_rows) { return tile_rows == BDIMX ? 1 : 2; }

// The tile height of the parameters; throws std::invalid_argument for any but the two the
// kernels are compiled for (the operation's check refuses them before a run).
inline int checked_tile_rows(const OpParams& p) {
    const long long h = p.value("tile_rows");
    if (h != 16 && h != 32)
        throw std::invalid_argument("tile_rows must be 16 or 32, not " + std::to_string(h));
    return static_cast<int>(h);
}

// A block's tile is whole when it lies inside the matrix; a partial tile (right or bottom edge)
// copies its cells instead (block-uniform, so no thread misses a __syncthreads of the others).
__device__ __forceinline__ bool whole_tile(int rows, int cols) {
    return static_cast<int>((blockIdx.x + 1) * blockDim.x) <= cols &&
           static_cast<int>((blockIdx.y + 1) * blockDim.y) <= rows;
}

__device__ __forceinline__ void copy_cell(const float* in, float* out, int rows, int cols) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < cols && y < rows)
        out[static_cast<std::size_t>(y) * cols + x] = in[static_cast<std::size_t>(y) * cols + x];
}

// The round trip of every tile kernel: the thread's cell read from global memory, `repeat` times
// stored into the tile with store(v) and loaded back with load(), a barrier after each, then
// written out. The kernels differ only in where store and load put the value (their index
// expressions are the lesson); a partial tile copies its cells instead.
template <class Store, class Load>
__device__ __forceinline__ void round_trip(const float* in, float* out, int rows, int cols,
                                           int repeat, Store store, Load load) {
    if (!whole_tile(rows, cols)) {
        copy_cell(in, out, rows, cols);
        return;
    }
    const std::size_t g = static_cast<std::size_t>(blockIdx.y * blockDim.y + threadIdx.y) * cols +
                          blockIdx.x * blockDim.x + threadIdx.x;
    float v = in[g];
    for (int k = 0; k < repeat; ++k) {
        store(v);
        __syncthreads();
        v = load();
        __syncthreads();
    }
    out[g] = v;
}

// Launches kernel(in, out, rows, cols, repeat) over bands of at most 65535 tile rows, each with
// its pointers moved to the band's first row; `shared_bytes` of dynamic shared memory.
template <class Kernel>
void launch_tiles(Kernel kernel, const char* name, const float* in, float* out, std::size_t rows,
                  std::size_t cols, int tile_rows, int repeat, std::size_t shared_bytes,
                  cudaStream_t stream) {
    const long long band_rows = kMaxTileRowsPerLaunch * tile_rows;
    for (long long first = 0; first < static_cast<long long>(rows); first += band_rows) {
        const long long count =
            std::min<long long>(band_rows, static_cast<long long>(rows) - first);
        const dim3 block(BDIMX, static_cast<unsigned>(tile_rows));
        const dim3 grid(static_cast<unsigned>((cols + BDIMX - 1) / BDIMX),
                        static_cast<unsigned>((count + tile_rows - 1) / tile_rows));
        const std::size_t offset = static_cast<std::size_t>(first) * cols;
        kernel<<<grid, block, shared_bytes, stream>>>(
            in + offset, out + offset, static_cast<int>(count), static_cast<int>(cols), repeat);
        COALESCE_CHECK_LAUNCH(name);
    }
}

// The store and load of warp 1 of a block (tile row ty = 1, lanes tx = 0..31), each lane's
// shared-memory word given by store(ty, tx) and load(ty, tx): the requests the bank model counts.
template <class Store, class Load>
std::vector<WarpRequest> typical_warp(Store store, Load load) {
    WarpRequest st, ld;
    st.store = true;
    for (int lane = 0; lane < 32; ++lane) {
        st.offsets[static_cast<std::size_t>(lane)] = 4LL * store(1, lane);
        ld.offsets[static_cast<std::size_t>(lane)] = 4LL * load(1, lane);
    }
    return {st, ld};
}

using TileKernel = void (*)(const float* in, float* out, int rows, int cols, int repeat);

// One tile pattern as the registry shows it and as the bank model and the launch see its tile.
struct TilePattern {
    std::string id;
    const char* kernel;  // the book's kernel name
    std::string description;
    Tier tier = Tier::classic;
    TileKernel square, rect;  // built for 32 and for 16 tile rows (the same kernel when dynamic)
    bool dynamic;             // the tile is extern __shared__, sized at launch
    std::function<std::size_t(int tile_rows)> tile_words;  // floats the tile takes, padding too
    // The shared-memory word lane (ty, tx) stores to and loads from, for a tile of tile_rows rows.
    std::function<long long(int tile_rows, int ty, int tx)> store_word, load_word;
};

// Registers `pattern` as a dense shared-memory variant of `op` (parameters tile_rows, repeat).
inline void add_tile_variant(Registry& registry, Op op, TilePattern pattern) {
    DeviceVariantSpec spec;
    spec.id = pattern.id;
    spec.op = op;
    spec.memory_space = space::shared;
    spec.description = pattern.description;
    spec.layout = Layout::dense;
    spec.kernel = pattern.kernel;
    spec.tier = pattern.tier;
    spec.shared_access = [pattern](Shape, const OpParams& p) {
        const int h = static_cast<int>(p.value("tile_rows"));
        return typical_warp([&](int ty, int tx) { return pattern.store_word(h, ty, tx); },
                            [&](int ty, int tx) { return pattern.load_word(h, ty, tx); });
    };
    registry.add(make_device_variant(std::move(spec), [pattern](MatView in, MatView out,
                                                                const OpParams& p, cudaStream_t s) {
        const int h = checked_tile_rows(p);
        const std::size_t bytes = pattern.dynamic ? pattern.tile_words(h) * sizeof(float) : 0;
        launch_tiles(h == BDIMX ? pattern.square : pattern.rect, pattern.kernel, in.data, out.data,
                     in.rows, in.cols, h, static_cast<int>(p.value("repeat")), bytes, s);
    }));
}

}  // namespace coalesce::gpu::smem
