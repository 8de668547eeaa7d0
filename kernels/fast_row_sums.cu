// row sums, fast: one warp or one block per row, float4 loads with four in flight per lane, a
// shuffle reduction at the end. No shared tile: every byte is read once.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <cstdint>

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

// WarpsPerRow warps share a row (1: a block sums 8 rows; 8: a block sums one row). Each row is
// split into a scalar head up to the first 16-byte boundary, a float4 body and a scalar tail, so
// any row start (dense matrices with cols % 4 != 0) still takes 16-byte loads for the body.
// Four float4 loads per lane and batch, four accumulators.
template <int WarpsPerRow>
__global__ void __launch_bounds__(kThreads) fast_row_sums_kernel(MatView in, MatView out) {
    constexpr int Batch = 4;
    constexpr int kRowsPerBlock = kWarps / WarpsPerRow;
    constexpr int kLanes = 32 * WarpsPerRow;  // threads that share a row
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int sub = warp % WarpsPerRow;  // this warp's part of its row
    const int t = sub * 32 + lane;       // thread index within the row's group
    const std::size_t row =
        static_cast<std::size_t>(blockIdx.x) * kRowsPerBlock + warp / WarpsPerRow;
    const bool active = row < in.rows;

    float acc = 0.0f;
    if (active) {
        const float* p = gpu::pitched_row(in, row);
        const std::size_t cols = in.cols;
        std::size_t head = ((16 - (reinterpret_cast<std::uintptr_t>(p) & 15)) & 15) / 4;
        if (head > cols) head = cols;
        if (static_cast<std::size_t>(t) < head) acc = fast::load1(p + t);
        const float* body = p + head;
        const std::size_t n4 = (cols - head) / 4;
        float4 a0 = make_float4(0, 0, 0, 0), a1 = a0, a2 = a0, a3 = a0;
        // The last batch is guarded, not a serial remainder loop: a row whose length is not a
        // multiple of 4 * kLanes float4 (6000 columns: 46.9 per lane) would otherwise end with up
        // to three loads one after another, each a full memory latency.
        const float4 zero = make_float4(0, 0, 0, 0);
        for (std::size_t i = t; i < n4; i += Batch * kLanes) {
            float4 v[Batch];
#pragma unroll
            for (int k = 0; k < Batch; ++k)
                v[k] = i + k * kLanes < n4 ? fast::load4(body + 4 * (i + k * kLanes)) : zero;
            a0 = fast::add4(a0, v[0]);
            a1 = fast::add4(a1, v[1]);
            a2 = fast::add4(a2, v[2]);
            a3 = fast::add4(a3, v[3]);
        }
        const std::size_t tail = head + 4 * n4 + t;
        if (tail < cols) acc += fast::load1(p + tail);
        a0 = fast::add4(fast::add4(a0, a1), fast::add4(a2, a3));
        acc += (a0.x + a0.y) + (a0.z + a0.w);
    }
    acc = gpu::warp_sum(acc);
    if constexpr (WarpsPerRow == 1) {
        if (active && lane == 0) gpu::pitched_row(out, row)[0] = acc;
    } else {
        __shared__ float partial[kWarps];
        if (lane == 0) partial[warp] = acc;
        __syncthreads();
        if (active && sub == 0 && lane == 0) {
            float s = partial[warp];
            for (int w = 1; w < WarpsPerRow; ++w)
                s += partial[warp + w];  // fixed order: deterministic
            gpu::pitched_row(out, row)[0] = s;
        }
    }
}

// A block per row at 64 warps per multiprocessor, the shape of CUB's fixed-size segmented reduce
// that CuPy's x.sum(axis=1) runs (Nsight Compute: 95% achieved occupancy, against 47% for the
// warp-per-row kernel above). Four unguarded float4 per thread and batch, then one guarded batch,
// one accumulator, so the whole kernel fits 32 registers. A row that does not start on 16 bytes
// (dense rows with cols % 4 != 0) peels its head up to the first 16-byte boundary and its tail
// (at most three floats each) in the same kernel; the float4 body is the same loop.
__global__ void __launch_bounds__(kThreads, 8)
    fast_row_sums_block_occ8_kernel(MatView in, MatView out) {
    const float* row = gpu::pitched_row(in, blockIdx.x);
    const unsigned cols = static_cast<unsigned>(in.cols);
    const auto misalign = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(row) & 15);
    const unsigned head = min(cols, ((16 - misalign) & 15) / 4);
    const float4* p = reinterpret_cast<const float4*>(row + head);
    const unsigned n4 = (cols - head) / 4;
    const unsigned tail = head + 4 * n4 + threadIdx.x;  // the peeled floats: threads 0..2 at most
    float edge = threadIdx.x < head ? __ldg(row + threadIdx.x) : 0.0f;
    if (tail < cols) edge += __ldg(row + tail);
    const float4 zero = make_float4(0, 0, 0, 0);
    float4 acc = zero;
    unsigned i = threadIdx.x;
    for (; i + 3 * kThreads < n4; i += 4 * kThreads) {
        const float4 v0 = __ldg(p + i), v1 = __ldg(p + i + kThreads),
                     v2 = __ldg(p + i + 2 * kThreads), v3 = __ldg(p + i + 3 * kThreads);
        acc = fast::add4(acc, fast::add4(fast::add4(v0, v1), fast::add4(v2, v3)));
    }
    if (i < n4) {
        const float4 v0 = __ldg(p + i), v1 = i + kThreads < n4 ? __ldg(p + i + kThreads) : zero,
                     v2 = i + 2 * kThreads < n4 ? __ldg(p + i + 2 * kThreads) : zero;
        acc = fast::add4(acc, fast::add4(fast::add4(v0, v1), v2));
    }
    float sum = gpu::warp_sum(((acc.x + acc.y) + (acc.z + acc.w)) + edge);
    __shared__ float partial[kWarps];
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
        sum = partial[0];
        for (int w = 1; w < kWarps; ++w) sum += partial[w];  // fixed order: deterministic
        gpu::pitched_row(out, blockIdx.x)[0] = sum;
    }
}

void launch_fast_row_sums_block_occ8(MatView in, MatView out, const OpParams&,
                                     cudaStream_t stream) {
    fast_row_sums_block_occ8_kernel<<<static_cast<unsigned>(in.rows), kThreads, 0, stream>>>(in,
                                                                                             out);
    COALESCE_CHECK_LAUNCH("fast_row_sums_block_occ8_kernel");
}

// Always a block per row (the way CUB's segmented reductions go): short blocks, many waves.
void launch_fast_row_sums_block(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    fast_row_sums_kernel<kWarps><<<static_cast<unsigned>(in.rows), kThreads, 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("fast_row_sums_kernel");
}

void launch_fast_row_sums_warp(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    fast_row_sums_kernel<1><<<gpu::blocks_for(in.rows, kWarps), kThreads, 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("fast_row_sums_kernel");
}

}  // namespace

void register_fast_row_sums(Registry& registry) {
    registry.add(fast::device_variant(
        {"row_sums/fast-warp-float4",
         Op::row_sums,
         space::global,
         "one warp per row, float4 loads from the first 16-byte boundary (a scalar head and tail "
         "in the same kernel), 4 loads in flight per lane, shuffle reduction; with few rows "
         "(under ~4096) the chip is partly idle, where a block per row is the better shape",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_row_sums_kernel<1>",
         {}},
        launch_fast_row_sums_warp));
    registry.add(fast::device_variant(
        {"row_sums/fast-block-float4",
         Op::row_sums,
         space::shared,
         "one 256-thread block per row at every size, float4 loads from the first 16-byte "
         "boundary, 4 loads in flight per thread, shuffles then 8 partials in shared memory. "
         "Lost to row_sums/fast-block-occ8 (94.3 / 89.4% of copy against 101.1 / 101.2 at "
         "8192x8192 / 8000x6000 on the H200): at 56 registers a multiprocessor holds 32 of its "
         "warps, the capped kernel 64, and a block-per-row sum lives on the loads those warps "
         "keep in flight",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_row_sums_kernel<8>",
         {.max_rows = gpu::kMaxGridX}},
        launch_fast_row_sums_block));
    registry.add(fast::device_variant(
        {"row_sums/fast-block-occ8",
         Op::row_sums,
         space::shared,
         "a 256-thread block per row with registers capped at 32, so 64 warps per multiprocessor "
         "(the shape of CUB's fixed-size segmented reduce): four float4 loads per thread and "
         "batch, shuffles then 8 partials in shared memory; rows that do not start on 16 bytes "
         "peel a head and a tail of at most three floats in the same kernel",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_row_sums_block_occ8_kernel",
         {.max_rows = gpu::kMaxGridX}},
        launch_fast_row_sums_block_occ8));
}

}  // namespace coalesce
