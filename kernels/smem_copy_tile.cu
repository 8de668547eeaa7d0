// smem_copy_tile: the book's setRowReadRow and setColReadCol (seed 001), their dynamic-shared-
// memory twins and the padded column version, each block repeating the round trip on its tile of
// a large matrix. Row-major order puts a warp's 32 floats in 32 banks (1-way); column-major order
// on tile[BDIMX][BDIMY] puts them BDIMY words apart: all in one bank on the 32x32 tile (32-way),
// in two banks on the 32x16 tile (16-way); one column of padding spreads them over 32 banks again.
#include "smem_tiles.cuh"

#include <string>

namespace coalesce {
namespace {

using gpu::smem::BDIMX;
using gpu::smem::kColPad;
using gpu::smem::round_trip;
using gpu::smem::TileKernel;

template <int BDIMY>
__global__ void setRowReadRow(const float* in, float* out, int rows, int cols, int repeat) {
    __shared__ float tile[BDIMY][BDIMX];
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[threadIdx.y][threadIdx.x] = v; },
        [&] { return tile[threadIdx.y][threadIdx.x]; });
}

template <int BDIMY>
__global__ void setColReadCol(const float* in, float* out, int rows, int cols, int repeat) {
    __shared__ float tile[BDIMX][BDIMY];
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[threadIdx.x][threadIdx.y] = v; },
        [&] { return tile[threadIdx.x][threadIdx.y]; });
}

template <int BDIMY>
__global__ void setColReadColPad(const float* in, float* out, int rows, int cols, int repeat) {
    __shared__ float tile[BDIMX][BDIMY + kColPad];
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[threadIdx.x][threadIdx.y] = v; },
        [&] { return tile[threadIdx.x][threadIdx.y]; });
}

// The dynamic twins: a 1-D extern array indexed by hand, the tile's height known only at run time.
__global__ void setRowReadRowDyn(const float* in, float* out, int rows, int cols, int repeat) {
    extern __shared__ float tile[];
    const unsigned int row_idx = threadIdx.y * blockDim.x + threadIdx.x;
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[row_idx] = v; },
        [&] { return tile[row_idx]; });
}

__global__ void setColReadColDyn(const float* in, float* out, int rows, int cols, int repeat) {
    extern __shared__ float tile[];
    const unsigned int col_idx = threadIdx.x * blockDim.y + threadIdx.y;
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[col_idx] = v; },
        [&] { return tile[col_idx]; });
}

__global__ void setColReadColDynPad(const float* in, float* out, int rows, int cols, int repeat) {
    extern __shared__ float tile[];
    const unsigned int col_idx = threadIdx.x * (blockDim.y + kColPad) + threadIdx.y;
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[col_idx] = v; },
        [&] { return tile[col_idx]; });
}

struct Pattern {
    const char* name;         // the id's suffix
    const char* kernel;       // the book's kernel name
    TileKernel square, rect;  // compiled for BDIMY = 32 and 16 (the same kernel when dynamic)
    int pad;                  // extra floats per tile row in the layout (dynamic size too)
    bool column_major;        // tile[x][y] (stored and read by columns) rather than tile[y][x]
    bool dynamic;
    const char* description;
};

const Pattern kPatterns[] = {
    {"set-row-read-row", "setRowReadRow", setRowReadRow<32>, setRowReadRow<16>, 0, false, false,
     "The book's setRowReadRow over a whole matrix: tile[threadIdx.y][threadIdx.x] stored and "
     "loaded, a warp's 32 floats in 32 banks: conflict-free (1-way), the reference bandwidth."},
    {"set-col-read-col", "setColReadCol", setColReadCol<32>, setColReadCol<16>, 0, true, false,
     "The book's setColReadCol: tile[threadIdx.x][threadIdx.y] of a tile[BDIMX][BDIMY], so a "
     "warp's floats lie BDIMY words apart: 32-way conflicts on the 32x32 tile, 16-way on 32x16."},
    {"set-col-read-col-pad", "setColReadColPad", setColReadColPad<32>, setColReadColPad<16>,
     kColPad, true, false,
     "setColReadCol on tile[BDIMX][BDIMY + 1]: the padding column shifts each tile column by one "
     "bank, so the column-major round trip is conflict-free again (1-way)."},
    {"set-row-read-row-dyn", "setRowReadRowDyn", setRowReadRowDyn, setRowReadRowDyn, 0, false, true,
     "setRowReadRow in dynamic shared memory (extern __shared__, size given at launch, index "
     "computed by hand): the same banks as the static tile, so the same 1-way figure."},
    {"set-col-read-col-dyn", "setColReadColDyn", setColReadColDyn, setColReadColDyn, 0, true, true,
     "setColReadCol in dynamic shared memory, col_idx = threadIdx.x * blockDim.y + threadIdx.y: "
     "the static version's 32-way (32x32) or 16-way (32x16) conflicts."},
    {"set-col-read-col-dyn-pad", "setColReadColDynPad", setColReadColDynPad, setColReadColDynPad,
     kColPad, true, true,
     "setColReadCol in dynamic shared memory with one padding float per tile column: "
     "conflict-free, as the padded static tile."},
};

// The word of tile row ty, column tx in the pattern's layout.
long long word_of(const Pattern& p, int tile_rows, int ty, int tx) {
    return p.column_major ? static_cast<long long>(tx) * (tile_rows + p.pad) + ty
                          : static_cast<long long>(ty) * (BDIMX + p.pad) + tx;
}

}  // namespace

void register_smem_copy_tile(Registry& registry) {
    const Op op("smem_copy_tile");
    for (const Pattern& p : kPatterns) {
        const auto word = [p](int tile_rows, int ty, int tx) {
            return word_of(p, tile_rows, ty, tx);
        };
        gpu::smem::add_tile_variant(
            registry, op,
            {std::string("smem_copy_tile/") + p.name, p.kernel, p.description, Tier::classic,
             p.square, p.rect, p.dynamic,
             [p](int tile_rows) {
                 return p.column_major ? static_cast<std::size_t>(BDIMX) * (tile_rows + p.pad)
                                       : static_cast<std::size_t>(tile_rows) * (BDIMX + p.pad);
             },
             word, word});
    }
}

}  // namespace coalesce
