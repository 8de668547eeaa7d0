// row sums, fast, through the bulk copy engine: each warp takes every W-th row (W warps) and owns a
// ring of four 4 KiB shared-memory slots that the copy engine fills (fast_bulk.cuh); the lanes
// sum each landed chunk with 16-byte shared loads. A persistent grid, as many warps as fit.
// Rows that are not 16-byte aligned, or whose length is not a multiple of 16 bytes, cannot be
// bulk-copied: the variant declares cols % 4 == 0 and refuses other matrices.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_bulk.cuh"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

namespace coalesce {
namespace {

constexpr int kThreads = 128;  // four warps, four independent rings
constexpr int kWarps = kThreads / 32;
constexpr int kStages = 4;
constexpr int kChunkFloats = 1024;  // 4 KiB: eight float4 per lane
constexpr std::size_t kSmem = std::size_t{kWarps} * kStages * kChunkFloats * sizeof(float) +
                              std::size_t{kWarps} * kStages * sizeof(std::uint64_t);

__global__ void __launch_bounds__(kThreads)
    fast_row_sums_bulk_kernel(MatView in, MatView out, fast::WarpRows plan) {
    extern __shared__ __align__(128) unsigned char smem[];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    float* ring = reinterpret_cast<float*>(smem) + warp * kStages * kChunkFloats;
    auto* bars = reinterpret_cast<std::uint64_t*>(smem + std::size_t{kWarps} * kStages *
                                                             kChunkFloats * sizeof(float)) +
                 warp * kStages;
    const std::size_t gw = static_cast<std::size_t>(blockIdx.x) * kWarps + warp;
    if (gw >= plan.warps) return;  // whole warps only: the ring is per warp
    // Rows gw, gw + warps, gw + 2 warps, ...: the rows in flight at any moment are one contiguous
    // window of the matrix. (A contiguous band per warp, the first version, measured within the
    // run-to-run spread of this order: bench/NOTES.md, run 9.)
    const std::size_t rows = (in.rows - gw + plan.warps - 1) / plan.warps;
    const unsigned row_bytes = static_cast<unsigned>(in.cols * sizeof(float));
    const unsigned per_row = (row_bytes + kChunkFloats * 4 - 1) / (kChunkFloats * 4);

    float4 a0 = make_float4(0, 0, 0, 0), a1 = a0;
    fast::warp_bulk_stream<kStages>(
        ring, kChunkFloats, bars, static_cast<long long>(rows * per_row),
        [&](long long j) {
            const std::size_t r = gw + static_cast<std::size_t>(j) / per_row * plan.warps;
            const unsigned part = static_cast<unsigned>(j % per_row);
            const unsigned offset = part * kChunkFloats;
            const unsigned bytes = min(row_bytes - offset * 4u, unsigned{kChunkFloats * 4});
            return fast::BulkChunk{gpu::pitched_row(in, r) + offset, 0u, bytes};
        },
        [&](long long j, const float* slot) {
            const unsigned part = static_cast<unsigned>(j % per_row);
            const unsigned n4 =
                min(row_bytes - part * kChunkFloats * 4u, unsigned{kChunkFloats * 4}) / 16;
            const float4* s = reinterpret_cast<const float4*>(slot);
#pragma unroll
            for (int k = 0; k < kChunkFloats / 4 / 32; k += 2) {
                const unsigned i = lane + 32u * k;
                if (i < n4) a0 = fast::add4(a0, s[i]);
                if (i + 32 < n4) a1 = fast::add4(a1, s[i + 32]);
            }
            if (part + 1 == per_row) {  // the row is complete
                a0 = fast::add4(a0, a1);
                const float sum = gpu::warp_sum((a0.x + a0.y) + (a0.z + a0.w));
                if (lane == 0)
                    gpu::pitched_row(
                        out, gw + static_cast<std::size_t>(j) / per_row * plan.warps)[0] = sum;
                a0 = make_float4(0, 0, 0, 0);
                a1 = a0;
            }
        });
}

void launch_fast_row_sums_bulk(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || in.cols % 4 != 0)
        throw Unsupported("the bulk copy engine moves 16-byte aligned multiples of 16 bytes");
    const fast::WarpRows plan =
        fast::resident_warp_rows<fast_row_sums_bulk_kernel>(kThreads, kSmem, in.rows);
    fast_row_sums_bulk_kernel<<<gpu::blocks_for(plan.warps, kWarps), kThreads, kSmem, stream>>>(
        in, out, plan);
    COALESCE_CHECK_LAUNCH("fast_row_sums_bulk_kernel");
}

}  // namespace

void register_fast_row_sums_bulk(Registry& registry) {
    registry.add(fast::device_variant(
        {"row_sums/fast-bulk-ring",
         Op::row_sums,
         space::shared,
         "each warp streams every W-th row (W resident warps) through a ring of four 4 KiB "
         "shared-memory slots filled by the bulk copy engine (cp.async.bulk, sm_90), so the bytes "
         "in flight cost no registers; persistent grid; 16-byte aligned rows only. Lost to "
         "row_sums/fast-block-occ8 (96.9 / 92.8% of copy "
         "against 101.1 / 101.2 at 8192x8192 / 8000x6000 on the H200; Nsight Compute: 16% "
         "occupancy): each ring has one warp that waits, sums and refills in turn, so fewer "
         "bytes are in flight than the four slots promise",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_row_sums_bulk_kernel",
         {.cols_multiple = 4}},
        launch_fast_row_sums_bulk));
}

}  // namespace coalesce
