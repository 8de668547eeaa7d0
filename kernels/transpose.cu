// transpose: rows x cols in, cols x rows out. The course's lesson in coalescing and bank conflicts,
// written as the slides and the notebook write it, with the tile shape of NVIDIA's transpose
// example (32x32 tiles, 32x8 threads, each thread four rows eight apart). Naive, tiled and padded
// differ by one change each: staging through shared memory, then one column of padding.
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// out[x][y] = in[y][x]: a warp reads 32 neighbours of one input row (coalesced) and writes them
// down one output column, 32 rows apart: 32 sectors written for 128 useful bytes (for u8 and
// u16, 32 sectors for 32 or 64 useful bytes).
template <class T>
__global__ void transpose_naive(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                                int in_pitch, int out_pitch) {
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    if (x >= cols) return;
    for (int j = 0; j < kTile; j += kBlockRows)
        if (y + j < rows) out[x * out_pitch + (y + j)] = in[(y + j) * in_pitch + x];
}

// The block reads its tile row by row (coalesced) into shared memory, then writes the mirrored
// tile row by row (coalesced), reading the shared tile down a column. Pad = 0: a column of a
// 32x32 float tile lies in one bank, a 32-way conflict; Pad = 1: it spans all 32 banks.
// (u8 and u16 tiles pack 4 or 2 elements a bank: the course's pattern with smaller elements.)
template <class T, int Pad>
__global__ void transpose_tiled(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                                int in_pitch, int out_pitch) {
    __shared__ T tile[kTile][kTile + Pad];
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows)
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * in_pitch + x];
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;  // blockIdx swapped: the tile's place in the output
    y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kBlockRows)
        if (x < rows && y + j < cols)
            out[(y + j) * out_pitch + x] = tile[threadIdx.x][threadIdx.y + j];
}

template <class T>
using TransposeKernel = void (*)(const T*, T*, int, int, int, int);

// One 32x8 block per 32x32 tile. A band of input rows is a band of output columns and the other
// way round, so both pointers move to the band's corner.
template <class T>
void launch_tiles(TransposeKernel<T> kernel, const char* name, gpu::View<T> in, gpu::View<T> out,
                  cudaStream_t stream) {
    const int in_pitch = gpu::pitch_of(in);
    const int out_pitch = gpu::pitch_of(out);
    gpu::for_each_band(in.rows, gpu::kMaxBlocksY * kTile, in_pitch, [&](int row, int rows) {
        gpu::for_each_band(in.cols, in.cols, out_pitch, [&](int col, int cols) {
            const dim3 grid(gpu::blocks_to_cover(cols, kTile), gpu::blocks_to_cover(rows, kTile));
            const T* band_in = in.data + static_cast<std::size_t>(row) * in_pitch + col;
            T* band_out = out.data + static_cast<std::size_t>(col) * out_pitch + row;
            kernel<<<grid, dim3(kTile, kBlockRows), 0, stream>>>(band_in, band_out, rows, cols,
                                                                 in_pitch, out_pitch);
            COALESCE_CHECK_LAUNCH(name);
        });
    });
}

// The three kernels by name, for floats (f32 runs) and for a typed run's element type.
enum class Kind { naive, tile, padded };

template <class T>
void launch_kind(Kind kind, gpu::View<T> in, gpu::View<T> out, cudaStream_t stream) {
    if (kind == Kind::naive)
        launch_tiles<T>(transpose_naive<T>, "transpose_naive", in, out, stream);
    else if (kind == Kind::tile)
        launch_tiles<T>(transpose_tiled<T, 0>, "transpose_tiled<0>", in, out, stream);
    else
        launch_tiles<T>(transpose_tiled<T, 1>, "transpose_tiled<1>", in, out, stream);
}

// One kind of kernel as a launch of any element type (gpu::same_type_variant).
auto launch_of(Kind kind) {
    return [kind](auto in, auto out, const OpParams&, cudaStream_t stream) {
        launch_kind(kind, in, out, stream);
    };
}

gpu::DeviceVariantSpec classic(const char* id, const char* memory_space, const char* description,
                               Layout layout, const char* kernel) {
    return {id,     Op::transpose, memory_space, description,
            layout, Tier::classic, kernel,       gpu::classic_limits()};
}

}  // namespace

void register_transpose(Registry& registry) {
    registry.add(gpu::same_type_variant(
        classic("transpose/global-naive", space::global,
                "out[x][y] = in[y][x] straight from global memory (32x8 threads, four rows each): "
                "reads are coalesced, but each warp writes down a column, 32 scattered sectors for "
                "128 useful bytes. Slow.",
                Layout::dense, "transpose_naive"),
        launch_of(Kind::naive)));
    registry.add(gpu::same_type_variant(
        classic("transpose/shared-tile", space::shared,
                "The naive kernel staged through a 32x32 shared tile: both global accesses are "
                "coalesced, but reading a tile column hits one bank 32 times (a 32-way bank "
                "conflict). Faster than naive, slower than padded.",
                Layout::dense, "transpose_tiled<0>"),
        launch_of(Kind::tile)));
    registry.add(gpu::same_type_variant(
        classic(
            "transpose/shared-padded", space::shared,
            "The same tile padded to 32x33 floats: a tile column now spans all 32 banks, so the "
            "shared reads are conflict-free and the kernel runs near copy bandwidth.",
            Layout::dense, "transpose_tiled<1>"),
        launch_of(Kind::padded)));
    registry.add(gpu::same_type_variant(
        classic(
            "transpose/pitched", space::pitched,
            "transpose/shared-padded's kernel on cudaMallocPitch rows, indexed by the pitch: only "
            "the allocation changes, so any difference is what aligned row starts buy.",
            Layout::pitched, "transpose_tiled<1>"),
        launch_of(Kind::padded)));
}

}  // namespace coalesce
