// smem_transpose_tile: the book's setRowReadCol (seed 001), its dynamic-shared-memory twin and
// their padded versions, each block repeating the round trip on its tile of a large matrix. The
// store is row-major (1-way); the load reads a column, tile[icol][irow]: 32-way on the 32x32 tile,
// 16-way on 32x16 (a warp reads two half-columns, in two banks). Padding one float per row fixes
// the square tile; the 32x16 tile needs two (with one, its two half-columns still share banks).
#include "smem_tiles.cuh"

#include <string>

namespace coalesce {
namespace {

using gpu::smem::BDIMX;
using gpu::smem::round_trip;
using gpu::smem::rowcol_pad;
using gpu::smem::TileKernel;

// The book's transposed coordinate of the thread's linear index: irow, icol.
__device__ __forceinline__ uint2 transposed_lane() {
    const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    return make_uint2(idx / blockDim.y, idx % blockDim.y);
}

template <int BDIMY>
__global__ void setRowReadCol(const float* in, float* out, int rows, int cols, int repeat) {
    __shared__ float tile[BDIMY][BDIMX];
    const uint2 t = transposed_lane();
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[threadIdx.y][threadIdx.x] = v; },
        [&] { return tile[t.y][t.x]; });  // tile[icol][irow]
}

template <int BDIMY, int IPAD>
__global__ void setRowReadColPad(const float* in, float* out, int rows, int cols, int repeat) {
    __shared__ float tile[BDIMY][BDIMX + IPAD];
    const uint2 t = transposed_lane();
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[threadIdx.y][threadIdx.x] = v; },
        [&] { return tile[t.y][t.x]; });  // tile[icol][irow]
}

// The dynamic twins index a 1-D extern array by hand; `pad` floats follow each tile row.
__global__ void setRowReadColDyn(const float* in, float* out, int rows, int cols, int repeat) {
    extern __shared__ float tile[];
    const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    const uint2 t = transposed_lane();
    const unsigned int col_idx = t.y * blockDim.x + t.x;
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[idx] = v; },
        [&] { return tile[col_idx]; });
}

__global__ void setRowReadColDynPad(const float* in, float* out, int rows, int cols, int repeat) {
    extern __shared__ float tile[];
    const unsigned int pad = rowcol_pad(static_cast<int>(blockDim.y));
    const uint2 t = transposed_lane();
    const unsigned int row_idx = threadIdx.y * (blockDim.x + pad) + threadIdx.x;
    const unsigned int col_idx = t.y * (blockDim.x + pad) + t.x;
    round_trip(
        in, out, rows, cols, repeat, [&](float v) { tile[row_idx] = v; },
        [&] { return tile[col_idx]; });
}

// Floats after each tile row: none, the book's (rowcol_pad), or one whatever the tile.
enum class Pad { none, book, one };

int pad_of(Pad pad, int tile_rows) {
    return pad == Pad::none ? 0 : (pad == Pad::one ? 1 : rowcol_pad(tile_rows));
}

struct Pattern {
    const char* name;
    const char* kernel;
    TileKernel square, rect;  // BDIMY = 32 and 16
    Pad pad;
    bool dynamic;
    Tier tier;
    const char* description;
};

const Pattern kPatterns[] = {
    {"set-row-read-col", "setRowReadCol", setRowReadCol<32>, setRowReadCol<16>, Pad::none, false,
     Tier::classic,
     "The book's setRowReadCol over a whole matrix: stored by rows (1-way), loaded by columns, "
     "tile[icol][irow]: 32-way conflicts on the 32x32 tile, 16-way on 32x16."},
    {"set-row-read-col-pad", "setRowReadColPad", setRowReadColPad<32, 1>, setRowReadColPad<16, 2>,
     Pad::book, false, Tier::classic,
     "setRowReadCol on a padded tile[BDIMY][BDIMX + pad] (pad 1 on 32x32, 2 on 32x16, as the "
     "book): every column read lands in 32 different banks, conflict-free (1-way)."},
    {"set-row-read-col-dyn", "setRowReadColDyn", setRowReadColDyn, setRowReadColDyn, Pad::none,
     true, Tier::classic,
     "setRowReadCol in dynamic shared memory, col_idx = icol * blockDim.x + irow: the static "
     "version's 32-way (32x32) or 16-way (32x16) conflicts on the load."},
    {"set-row-read-col-dyn-pad", "setRowReadColDynPad", setRowReadColDynPad, setRowReadColDynPad,
     Pad::book, true, Tier::classic,
     "setRowReadCol in dynamic shared memory with the book's padding per tile row: "
     "conflict-free, as the padded static tile."},
    {"set-row-read-col-pad1", "setRowReadColPad", setRowReadColPad<32, 1>, setRowReadColPad<16, 1>,
     Pad::one, false, Tier::experiment,
     "The square tile's one-float pad used on the 32x16 tile too: a warp loads two half-columns "
     "(irow and irow + 1) whose words still pair up in 16 banks, 2-way; the book's two floats "
     "make it 1-way (on 32x32 this is set-row-read-col-pad)."},
};

// Row ty, column tx of a tile of `width` floats per row, as a word index.
long long word(int ty, int tx, int width) { return static_cast<long long>(ty) * width + tx; }

}  // namespace

void register_smem_transpose_tile(Registry& registry) {
    const Op op("smem_transpose_tile");
    for (const Pattern& p : kPatterns) {
        const auto width = [p](int tile_rows) { return BDIMX + pad_of(p.pad, tile_rows); };
        gpu::smem::add_tile_variant(
            registry, op,
            {std::string("smem_transpose_tile/") + p.name, p.kernel, p.description, p.tier,
             p.square, p.rect, p.dynamic,
             [width](int h) { return static_cast<std::size_t>(h) * width(h); },
             [width](int h, int ty, int tx) { return word(ty, tx, width(h)); },
             [width](int h, int ty, int tx) {
                 const int idx = ty * BDIMX + tx;
                 return word(idx % h, idx / h, width(h));  // tile[icol][irow]
             }});
    }
}

}  // namespace coalesce
