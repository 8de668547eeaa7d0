// smem_transpose_tile: the book's setRowReadCol (seed 001), its dynamic-shared-memory twin and
// their padded versions, each block repeating the round trip on its tile of a large matrix. The
// store is row-major (1-way); the load reads a column, tile[icol][irow]: 32-way on the 32x32 tile,
// 16-way on 32x16 (a warp reads two half-columns, in two banks). Padding one float per row fixes
// the square tile; the 32x16 tile needs two (with one, its two half-columns still share banks).
#include "coalesce/registry.hpp"
#include "device_instance.hpp"
#include "smem_tiles.cuh"

#include <string>

namespace coalesce {
namespace {

using gpu::smem::BDIMX;
using gpu::smem::copy_cell;
using gpu::smem::rowcol_pad;
using gpu::smem::whole_tile;

template <int BDIMY>
__global__ void setRowReadCol(const float* in, float* out, int rows, int cols, int repeat) {
    __shared__ float tile[BDIMY][BDIMX];
    if (!whole_tile(rows, cols)) {
        copy_cell(in, out, rows, cols);
        return;
    }
    const std::size_t g = static_cast<std::size_t>(blockIdx.y * BDIMY + threadIdx.y) * cols +
                          blockIdx.x * BDIMX + threadIdx.x;
    // The book's transposed coordinate of the thread's linear index.
    const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned int irow = idx / blockDim.y;
    const unsigned int icol = idx % blockDim.y;
    float v = in[g];
    for (int k = 0; k < repeat; ++k) {
        tile[threadIdx.y][threadIdx.x] = v;
        __syncthreads();
        v = tile[icol][irow];
        __syncthreads();
    }
    out[g] = v;
}

template <int BDIMY, int IPAD>
__global__ void setRowReadColPad(const float* in, float* out, int rows, int cols, int repeat) {
    __shared__ float tile[BDIMY][BDIMX + IPAD];
    if (!whole_tile(rows, cols)) {
        copy_cell(in, out, rows, cols);
        return;
    }
    const std::size_t g = static_cast<std::size_t>(blockIdx.y * BDIMY + threadIdx.y) * cols +
                          blockIdx.x * BDIMX + threadIdx.x;
    const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned int irow = idx / blockDim.y;
    const unsigned int icol = idx % blockDim.y;
    float v = in[g];
    for (int k = 0; k < repeat; ++k) {
        tile[threadIdx.y][threadIdx.x] = v;
        __syncthreads();
        v = tile[icol][irow];
        __syncthreads();
    }
    out[g] = v;
}

// The dynamic twins index a 1-D extern array by hand; `pad` floats follow each tile row.
__global__ void setRowReadColDyn(const float* in, float* out, int rows, int cols, int repeat) {
    extern __shared__ float tile[];
    if (!whole_tile(rows, cols)) {
        copy_cell(in, out, rows, cols);
        return;
    }
    const std::size_t g = static_cast<std::size_t>(blockIdx.y * blockDim.y + threadIdx.y) * cols +
                          blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned int irow = idx / blockDim.y;
    const unsigned int icol = idx % blockDim.y;
    const unsigned int col_idx = icol * blockDim.x + irow;
    float v = in[g];
    for (int k = 0; k < repeat; ++k) {
        tile[idx] = v;
        __syncthreads();
        v = tile[col_idx];
        __syncthreads();
    }
    out[g] = v;
}

__global__ void setRowReadColDynPad(const float* in, float* out, int rows, int cols, int repeat) {
    extern __shared__ float tile[];
    if (!whole_tile(rows, cols)) {
        copy_cell(in, out, rows, cols);
        return;
    }
    const std::size_t g = static_cast<std::size_t>(blockIdx.y * blockDim.y + threadIdx.y) * cols +
                          blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int pad = rowcol_pad(static_cast<int>(blockDim.y));
    const unsigned int idx = threadIdx.y * blockDim.x + threadIdx.x;
    const unsigned int irow = idx / blockDim.y;
    const unsigned int icol = idx % blockDim.y;
    const unsigned int row_idx = threadIdx.y * (blockDim.x + pad) + threadIdx.x;
    const unsigned int col_idx = icol * (blockDim.x + pad) + irow;
    float v = in[g];
    for (int k = 0; k < repeat; ++k) {
        tile[row_idx] = v;
        __syncthreads();
        v = tile[col_idx];
        __syncthreads();
    }
    out[g] = v;
}

using TileKernel = void (*)(const float*, float*, int, int, int);

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
    for (const Pattern& pattern : kPatterns) {
        gpu::DeviceVariantSpec spec;
        spec.id = std::string("smem_transpose_tile/") + pattern.name;
        spec.op = op;
        spec.memory_space = space::shared;
        spec.description = pattern.description;
        spec.layout = gpu::Layout::dense;
        spec.kernel = pattern.kernel;
        spec.tier = pattern.tier;
        spec.shared_access = [&pattern](Shape, const OpParams& p) {
            const int h = static_cast<int>(p.value("tile_rows"));
            const int width = BDIMX + pad_of(pattern.pad, h);
            const auto store = [&](int ty, int tx) { return word(ty, tx, width); };
            const auto load = [&](int ty, int tx) {
                const int idx = ty * BDIMX + tx;
                return word(idx % h, idx / h, width);  // tile[icol][irow]
            };
            return gpu::smem::typical_warp(store, load);
        };
        registry.add(gpu::make_device_variant(
            std::move(spec),
            [&pattern](MatView in, MatView out, const OpParams& p, cudaStream_t s) {
                const int h = gpu::smem::checked_tile_rows(p);
                const int width = BDIMX + pad_of(pattern.pad, h);
                const std::size_t bytes =
                    pattern.dynamic ? sizeof(float) * static_cast<std::size_t>(h * width) : 0;
                gpu::smem::launch_tiles(h == BDIMX ? pattern.square : pattern.rect, pattern.kernel,
                                        in.data, out.data, in.rows, in.cols, h,
                                        static_cast<int>(p.value("repeat")), bytes, s);
            }));
    }
}

}  // namespace coalesce
