// row_sums: one float sum per row (rows x 1 out). Who walks along a row decides coalescing.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "device_util.cuh"

#include <cstdint>

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kWarp = 32;
constexpr int kWarpsPerBlock = 8;
constexpr int kReduceThreads = 256;

constexpr int kLoadsInFlight = 8;  // independent loads per lane in the warp-per-row loop
constexpr int kVec4InFlight = 4;   // independent float4 loads per lane in the pitched loop

// Adds the accumulators in a balanced tree (their order is fixed: the result is deterministic).
template <int N>
__device__ inline float pairwise_sum(float (&acc)[N]) {
#pragma unroll
    for (int width = N / 2; width > 0; width /= 2) {
#pragma unroll
        for (int k = 0; k < width; ++k) acc[k] += acc[k + width];
    }
    return acc[0];
}

__device__ inline float warp_sum(float v) {
#pragma unroll
    for (int offset = kWarp / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// One thread per row: at each step the 32 threads of a warp read 32 addresses one row apart, so a
// warp load touches 32 sectors for 128 useful bytes (uncoalesced), and only `rows` threads exist.
__global__ void row_sums_thread_per_row_kernel(MatView in, MatView out) {
    for (std::size_t r = blockIdx.x * blockDim.x + threadIdx.x; r < in.rows; r += gridDim.x * blockDim.x) {
        const float* row = gpu::dense_row(in, r);
        float sum = 0.0f;
        for (std::size_t c = 0; c < in.cols; ++c) sum += row[c];
        out.data[r] = sum;
    }
}

void launch_thread_per_row(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    row_sums_thread_per_row_kernel<<<gpu::blocks_for(in.rows, 128), 128, 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("row_sums_thread_per_row_kernel");
}

// One warp per row: lanes read consecutive floats (128 contiguous bytes per load), eight independent
// loads in flight per lane, then a shuffle reduction across the warp.
template <bool Pitched>
__global__ void row_sums_warp_per_row_kernel(MatView in, MatView out) {
    const unsigned lane = threadIdx.x % kWarp;
    const std::size_t warp = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
    const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / kWarp;
    for (std::size_t r = warp; r < in.rows; r += warps) {
        const float* row = gpu::row_of<Pitched>(in, r);
        float acc[kLoadsInFlight] = {};
        std::size_t c = lane;
        for (; c + (kLoadsInFlight - 1) * kWarp < in.cols; c += kLoadsInFlight * kWarp) {
#pragma unroll
            for (int k = 0; k < kLoadsInFlight; ++k) acc[k] += row[c + k * kWarp];
        }
        for (; c < in.cols; c += kWarp) acc[0] += row[c];
        const float sum = warp_sum(pairwise_sum(acc));
        if (lane == 0) gpu::row_of<Pitched>(out, r)[0] = sum;
    }
}

// Pitched rows start 16-byte aligned, so lanes can load float4: 512 contiguous bytes per warp load
// and twice the bytes in flight of the scalar version with half the load instructions.
__global__ void row_sums_pitched_vec4_kernel(MatView in, MatView out) {
    const unsigned lane = threadIdx.x % kWarp;
    const std::size_t warp = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / kWarp;
    const std::size_t warps = static_cast<std::size_t>(gridDim.x) * blockDim.x / kWarp;
    const std::size_t num_vec4 = in.cols / 4;
    for (std::size_t r = warp; r < in.rows; r += warps) {
        const float* row = gpu::pitched_row(in, r);
        const float4* row4 = reinterpret_cast<const float4*>(row);
        float acc[kVec4InFlight] = {};
        std::size_t i = lane;
        for (; i + (kVec4InFlight - 1) * kWarp < num_vec4; i += kVec4InFlight * kWarp) {
            float4 v[kVec4InFlight];
#pragma unroll
            for (int k = 0; k < kVec4InFlight; ++k) v[k] = row4[i + k * kWarp];
#pragma unroll
            for (int k = 0; k < kVec4InFlight; ++k) acc[k] += (v[k].x + v[k].y) + (v[k].z + v[k].w);
        }
        for (; i < num_vec4; i += kWarp) {
            const float4 u = row4[i];
            acc[0] += (u.x + u.y) + (u.z + u.w);
        }
        for (std::size_t c = num_vec4 * 4 + lane; c < in.cols; c += kWarp) acc[1] += row[c];
        const float sum = warp_sum(pairwise_sum(acc));
        if (lane == 0) gpu::pitched_row(out, r)[0] = sum;
    }
}

unsigned warp_per_row_blocks(std::size_t rows) { return gpu::blocks_for(rows, kWarpsPerBlock); }

void launch_warp_per_row(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    row_sums_warp_per_row_kernel<false>
        <<<warp_per_row_blocks(in.rows), kWarpsPerBlock * kWarp, 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("row_sums_warp_per_row_kernel");
}

void launch_pitched(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    const bool aligned = reinterpret_cast<std::uintptr_t>(in.data) % 16 == 0 && in.pitch_bytes % 16 == 0;
    if (aligned) {
        row_sums_pitched_vec4_kernel<<<warp_per_row_blocks(in.rows), kWarpsPerBlock * kWarp, 0, stream>>>(in, out);
        COALESCE_CHECK_LAUNCH("row_sums_pitched_vec4_kernel");
    } else {
        row_sums_warp_per_row_kernel<true>
            <<<warp_per_row_blocks(in.rows), kWarpsPerBlock * kWarp, 0, stream>>>(in, out);
        COALESCE_CHECK_LAUNCH("row_sums_warp_per_row_kernel");
    }
}

// One block per row: each thread sums a strided slice (coalesced across the block), then the 256
// partial sums are halved in shared memory until one is left.
__global__ void row_sums_shared_reduce_kernel(MatView in, MatView out) {
    __shared__ float partial[kReduceThreads];
    for (std::size_t r = blockIdx.x; r < in.rows; r += gridDim.x) {
        const float* row = gpu::dense_row(in, r);
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
        std::size_t c = threadIdx.x;
        for (; c + 3 * kReduceThreads < in.cols; c += 4 * kReduceThreads) {
            a0 += row[c];
            a1 += row[c + kReduceThreads];
            a2 += row[c + 2 * kReduceThreads];
            a3 += row[c + 3 * kReduceThreads];
        }
        for (; c < in.cols; c += kReduceThreads) a0 += row[c];
        partial[threadIdx.x] = (a0 + a1) + (a2 + a3);
        __syncthreads();
        for (int half = kReduceThreads / 2; half > 0; half /= 2) {
            if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
            __syncthreads();
        }
        if (threadIdx.x == 0) out.data[r] = partial[0];
        __syncthreads();  // partial[0] is read before the next row overwrites it
    }
}

void launch_shared_reduce(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    row_sums_shared_reduce_kernel<<<gpu::blocks_for(in.rows, 1), kReduceThreads, 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("row_sums_shared_reduce_kernel");
}

}  // namespace

void register_row_sums(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"row_sums/global-thread-per-row", Op::row_sums, space::global,
         "One thread per row: neighbouring threads read addresses a whole row apart, so every warp load "
         "is 32 scattered sectors (uncoalesced) and there are only as many threads as rows. Slow.",
         Layout::dense},
        launch_thread_per_row));
    registry.add(gpu::make_device_variant(
        {"row_sums/global-warp-per-row", Op::row_sums, space::global,
         "One warp per row: lanes read consecutive floats (coalesced, eight loads in flight each) and a "
         "warp shuffle adds the 32 partial sums. Near copy bandwidth.",
         Layout::dense},
        launch_warp_per_row));
    registry.add(gpu::make_device_variant(
        {"row_sums/pitched", Op::row_sums, space::pitched,
         "Warp per row on cudaMallocPitch rows: aligned row starts allow float4 loads, so each warp "
         "load moves 512 contiguous bytes and fewer instructions keep more bytes in flight.",
         Layout::pitched},
        launch_pitched));
    registry.add(gpu::make_device_variant(
        {"row_sums/shared-reduce", Op::row_sums, space::shared,
         "One 256-thread block per row: coalesced strided partial sums, then a tree reduction in shared "
         "memory with a barrier per level; fast, the barriers cost a little on short rows.",
         Layout::dense},
        launch_shared_reduce));
}

}  // namespace coalesce
