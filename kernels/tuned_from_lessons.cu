// Tuned variants that grew out of the lessons: each is a classic kernel plus one idea that buys
// bandwidth on current GPUs (a bigger tile, vector loads), kept apart so that the classic pitched
// twins differ from their dense lessons only in the allocation.
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"

#include <climits>
#include <cstdint>

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kWarp = 32;
constexpr int kBlockRows = 8;
constexpr int kBigTile = 64;
constexpr int kRowThreads = 256;
constexpr int kVec4InFlight = 4;

// transpose/shared-padded with four times the tile: 64x64 floats padded to 64x65, still 32x8
// threads, so each thread has 16 loads in flight before the barrier instead of 4. The memory
// system needs that many bytes in flight per SM to run near copy bandwidth.
__global__ void transpose_tile64(const float* __restrict__ in, float* __restrict__ out, int rows,
                                 int cols, int in_pitch, int out_pitch) {
    __shared__ float tile[kBigTile][kBigTile + 1];
    int x0 = blockIdx.x * kBigTile;
    int y0 = blockIdx.y * kBigTile;
#pragma unroll
    for (int j = 0; j < kBigTile; j += kBlockRows) {
#pragma unroll
        for (int i = 0; i < kBigTile; i += kWarp) {
            int x = x0 + i + threadIdx.x;
            int y = y0 + j + threadIdx.y;
            if (x < cols && y < rows) tile[j + threadIdx.y][i + threadIdx.x] = in[y * in_pitch + x];
        }
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kBigTile; j += kBlockRows) {
#pragma unroll
        for (int i = 0; i < kBigTile; i += kWarp) {
            int x = y0 + i + threadIdx.x;  // output column = input row
            int y = x0 + j + threadIdx.y;  // output row = input column
            if (x < rows && y < cols)
                out[y * out_pitch + x] = tile[i + threadIdx.x][j + threadIdx.y];
        }
    }
}

void launch_tile64(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const int in_pitch = gpu::pitch_of(in);
    const int out_pitch = gpu::pitch_of(out);
    gpu::for_each_band(in.rows, gpu::kMaxBlocksY * kBigTile, in_pitch, [&](int row, int rows) {
        gpu::for_each_band(in.cols, in.cols, out_pitch, [&](int col, int cols) {
            const dim3 grid(gpu::blocks_to_cover(cols, kBigTile),
                            gpu::blocks_to_cover(rows, kBigTile));
            transpose_tile64<<<grid, dim3(kWarp, kBlockRows), 0, stream>>>(
                in.data + static_cast<std::size_t>(row) * in_pitch + col,
                out.data + static_cast<std::size_t>(col) * out_pitch + row, rows, cols, in_pitch,
                out_pitch);
            COALESCE_CHECK_LAUNCH("transpose_tile64");
        });
    });
}

// row_sums/pitched with float4 loads: pitched rows start 16-byte aligned, so a lane loads four
// floats at once (512 contiguous bytes per warp load), four loads in flight per lane; the last
// cols % 4 floats of a row are read one by one.
__global__ void row_sums_warp_vec4(const float* __restrict__ in, float* __restrict__ out, int rows,
                                   int cols, int in_pitch, int out_pitch) {
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
    int lane = threadIdx.x % kWarp;
    if (r >= rows) return;
    const float* row = in + r * in_pitch;
    const float4* row4 = reinterpret_cast<const float4*>(row);
    int n4 = cols / 4;
    float acc[kVec4InFlight] = {};
    int i = lane;
    for (; i + (kVec4InFlight - 1) * kWarp < n4; i += kVec4InFlight * kWarp) {
        float4 v[kVec4InFlight];
#pragma unroll
        for (int k = 0; k < kVec4InFlight; ++k) v[k] = row4[i + k * kWarp];
#pragma unroll
        for (int k = 0; k < kVec4InFlight; ++k) acc[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
    for (; i < n4; i += kWarp) acc[0] += (row4[i].x + row4[i].y) + (row4[i].z + row4[i].w);
    for (int c = 4 * n4 + lane; c < cols; c += kWarp) acc[1] += row[c];
    float sum = (acc[0] + acc[1]) + (acc[2] + acc[3]);
    for (int offset = kWarp / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) out[r * out_pitch] = sum;
}

void launch_warp_vec4(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    if (reinterpret_cast<std::uintptr_t>(in.data) % 16 != 0 || in.pitch_bytes % 16 != 0)
        throw Unsupported("row_sums_warp_vec4 needs rows that start 16-byte aligned");
    const int in_pitch = gpu::pitch_of(in);
    const int out_pitch = gpu::pitch_of(out);
    const int cols = static_cast<int>(in.cols);
    gpu::for_each_band(in.rows, INT_MAX, std::max(in_pitch, out_pitch), [&](int row, int rows) {
        row_sums_warp_vec4<<<gpu::blocks_to_cover(rows, kRowThreads / kWarp), kRowThreads, 0,
                             stream>>>(in.data + static_cast<std::size_t>(row) * in_pitch,
                                       out.data + static_cast<std::size_t>(row) * out_pitch, rows,
                                       cols, in_pitch, out_pitch);
        COALESCE_CHECK_LAUNCH("row_sums_warp_vec4");
    });
}

}  // namespace

void register_tuned_from_lessons(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"transpose/tuned-tile64-pitched", Op::transpose, space::pitched,
         "transpose/pitched with a 64x65 padded tile: the same 32x8 threads keep 16 loads in "
         "flight "
         "each instead of 4, enough bytes in flight per SM to run near copy bandwidth.",
         Layout::pitched, Tier::tuned, "transpose_tile64", gpu::classic_limits()},
        launch_tile64));
    registry.add(gpu::make_device_variant(
        {"row_sums/tuned-vec4-pitched", Op::row_sums, space::pitched,
         "row_sums/pitched with float4 loads on the 16-byte aligned pitched rows: 512 contiguous "
         "bytes "
         "per warp load and four loads in flight per lane, a quarter of the load instructions.",
         Layout::pitched, Tier::tuned, "row_sums_warp_vec4", gpu::classic_limits()},
        launch_warp_vec4));
}

}  // namespace coalesce
