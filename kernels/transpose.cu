// transpose: rows x cols in, cols x rows out. The classic lesson in coalescing and bank conflicts.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "device_util.cuh"

namespace coalesce {
namespace {

using gpu::Layout;

// The 32x32-tile variants use 32x8 threads, each thread handling four elements eight rows apart
// (four loads in flight). Tiles along y are visited grid-stride: gridDim.y <= 65535.
constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// Reads in[r][c] along rows (coalesced) and writes out[c][r] straight to global memory: each warp's
// store touches 32 different rows of the output, 32 separate sectors for 128 useful bytes.
__global__ void transpose_naive_kernel(MatView in, MatView out) {
    const std::size_t c = blockIdx.x * kTile + threadIdx.x;
    const std::size_t tiles_y = (in.rows + kTile - 1) / kTile;
    if (c >= in.cols) return;
    for (std::size_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
#pragma unroll
        for (int k = 0; k < kTile; k += kBlockRows) {
            const std::size_t r = ty * kTile + threadIdx.y + k;
            if (r < in.rows) gpu::dense_row(out, c)[r] = gpu::dense_row(in, r)[c];
        }
    }
}

// Stages a tile in shared memory so both the read and the write are coalesced. Pad = 0: the
// column-wise read of the tile hits one bank 32 times (a 32-way conflict); Pad = 1 (32x33) spreads
// a column over all 32 banks.
template <int Pad, bool Pitched>
__global__ void transpose_tiled_kernel(MatView in, MatView out) {
    __shared__ float tile[kTile][kTile + Pad];
    const std::size_t c0 = static_cast<std::size_t>(blockIdx.x) * kTile;
    const std::size_t tiles_y = (in.rows + kTile - 1) / kTile;
    for (std::size_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
        const std::size_t r0 = ty * kTile;
        const std::size_t c = c0 + threadIdx.x;
#pragma unroll
        for (int k = 0; k < kTile; k += kBlockRows) {
            const std::size_t r = r0 + threadIdx.y + k;
            if (r < in.rows && c < in.cols) tile[threadIdx.y + k][threadIdx.x] = gpu::row_of<Pitched>(in, r)[c];
        }
        __syncthreads();
        // Output row = input column, output column = input row.
        const std::size_t out_c = r0 + threadIdx.x;
#pragma unroll
        for (int k = 0; k < kTile; k += kBlockRows) {
            const std::size_t out_r = c0 + threadIdx.y + k;
            if (out_r < in.cols && out_c < in.rows)
                gpu::row_of<Pitched>(out, out_r)[out_c] = tile[threadIdx.x][threadIdx.y + k];
        }
        __syncthreads();  // the tile is refilled by the next iteration
    }
}

// The same conflict-free idea with four times the tile: 64x64 floats padded to 64x65, still
// 32x8 threads, so each thread has 16 loads in flight before the barrier instead of 4. The
// memory system needs that many bytes in flight per SM to run near copy bandwidth.
constexpr int kBigTile = 64;

template <bool Pitched>
__global__ void transpose_big_tile_kernel(MatView in, MatView out) {
    __shared__ float tile[kBigTile][kBigTile + 1];
    const std::size_t c0 = static_cast<std::size_t>(blockIdx.x) * kBigTile;
    const std::size_t tiles_y = (in.rows + kBigTile - 1) / kBigTile;
    for (std::size_t ty = blockIdx.y; ty < tiles_y; ty += gridDim.y) {
        const std::size_t r0 = ty * kBigTile;
#pragma unroll
        for (int k = 0; k < kBigTile; k += kBlockRows) {
            const std::size_t r = r0 + threadIdx.y + k;
#pragma unroll
            for (int half = 0; half < kBigTile; half += kTile) {
                const std::size_t c = c0 + half + threadIdx.x;
                if (r < in.rows && c < in.cols) tile[threadIdx.y + k][half + threadIdx.x] = gpu::row_of<Pitched>(in, r)[c];
            }
        }
        __syncthreads();
#pragma unroll
        for (int k = 0; k < kBigTile; k += kBlockRows) {
            const std::size_t out_r = c0 + threadIdx.y + k;
#pragma unroll
            for (int half = 0; half < kBigTile; half += kTile) {
                const std::size_t out_c = r0 + half + threadIdx.x;
                if (out_r < in.cols && out_c < in.rows)
                    gpu::row_of<Pitched>(out, out_r)[out_c] = tile[half + threadIdx.x][threadIdx.y + k];
            }
        }
        __syncthreads();  // the tile is refilled by the next iteration
    }
}

template <bool Pitched>
void launch_transpose_big_tile(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kBigTile), gpu::blocks_for(in.rows, kBigTile, gpu::kMaxGridY));
    transpose_big_tile_kernel<Pitched><<<grid, dim3(kTile, kBlockRows), 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("transpose_big_tile_kernel");
}

dim3 transpose_grid(const MatView& in) {
    return dim3(gpu::blocks_for(in.cols, kTile), gpu::blocks_for(in.rows, kTile, gpu::kMaxGridY));
}

void launch_transpose_naive(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    transpose_naive_kernel<<<transpose_grid(in), dim3(kTile, kBlockRows), 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("transpose_naive_kernel");
}

template <int Pad, bool Pitched>
void launch_transpose_tiled(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    transpose_tiled_kernel<Pad, Pitched><<<transpose_grid(in), dim3(kTile, kBlockRows), 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("transpose_tiled_kernel");
}

}  // namespace

void register_transpose(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"transpose/global-naive", Op::transpose, space::global,
         "Reads rows coalesced but writes columns straight to global memory: every warp store scatters "
         "over 32 output rows, so most of each 32-byte sector written is wasted. Slow.",
         Layout::dense},
        launch_transpose_naive));
    registry.add(gpu::make_device_variant(
        {"transpose/pitched", Op::transpose, space::pitched,
         "A padded 64x65 shared tile on cudaMallocPitch rows indexed by pitch: coalesced, conflict-free, "
         "and 16 loads in flight per thread (the 32x33 tile has 4), enough to run near copy bandwidth.",
         Layout::pitched},
        launch_transpose_big_tile<true>));
    registry.add(gpu::make_device_variant(
        {"transpose/shared-tile", Op::transpose, space::shared,
         "A 32x32 shared tile makes both global accesses coalesced, but reading a tile column hits one "
         "bank 32 times (32-way bank conflict): faster than naive, slower than padded.",
         Layout::dense},
        launch_transpose_tiled<0, false>));
    registry.add(gpu::make_device_variant(
        {"transpose/shared-padded", Op::transpose, space::shared,
         "The 32x32 tile padded to 32x33 floats: a tile column now spans all 32 banks, so the shared "
         "reads are conflict-free; only four loads in flight per thread keep it below copy bandwidth.",
         Layout::dense},
        launch_transpose_tiled<1, false>));
}

}  // namespace coalesce
