// filter X, fast, through the bulk copy engine: each warp takes every W-th row (W warps) and a ring
// of four slots; a slot holds one 1024-column output segment plus a halo of r rounded up to 4 on
// each side, filled by the copy engine (fast_bulk.cuh). Each lane computes four consecutive
// outputs from 1 + 2 * halo / 4 aligned 16-byte shared loads (consecutive lanes, consecutive
// float4: no bank conflicts, no padded layout needed) and stores them as one float4 (a warp
// writes 512 contiguous bytes). The radius is a template parameter (1..8), so the window lives in
// registers with compile-time indices; other radii, and rows that are not 16-byte aligned, are
// refused (skipped with the reason). Positions outside the row are filled into the slot through
// border_index() by the lanes, only in a row's first and last segments.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "fast_bulk.cuh"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"
#include "fast_window.cuh"

namespace coalesce {
namespace {

constexpr int kThreads = 128;  // four warps, four independent rings
constexpr int kWarps = kThreads / 32;
constexpr int kStages = 4;
constexpr int kSegment = 1024;  // output columns per slot: eight float4 per lane
constexpr int kMaxBulkRadius = 8;

template <int R>
constexpr int halo_of() {
    return (R + 3) / 4 * 4;
}
template <int R>
constexpr int slot_floats() {
    return kSegment + 2 * halo_of<R>();
}
template <int R>
constexpr std::size_t smem_bytes() {
    return std::size_t{kWarps} * kStages *
           (slot_floats<R>() * sizeof(float) + sizeof(std::uint64_t));
}

template <int R>
__global__ void __launch_bounds__(kThreads)
    fast_filter_x_bulk_kernel(MatView in, MatView out, Border border, float inv,
                              fast::WarpRows plan) {
    constexpr int H = halo_of<R>();
    constexpr int kSlot = slot_floats<R>();
    extern __shared__ __align__(128) unsigned char smem[];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    float* ring = reinterpret_cast<float*>(smem) + warp * kStages * kSlot;
    auto* bars = reinterpret_cast<std::uint64_t*>(smem + std::size_t{kWarps} * kStages * kSlot *
                                                             sizeof(float)) +
                 warp * kStages;
    const std::size_t gw = static_cast<std::size_t>(blockIdx.x) * kWarps + warp;
    if (gw >= plan.warps) return;
    // Rows gw, gw + warps, gw + 2 warps, ...: the rows in flight at any moment are one contiguous
    // window of the matrix. (A contiguous band per warp, the first version, measured within the
    // run-to-run spread of this order: bench/NOTES.md, run 9.)
    const std::size_t rows = (in.rows - gw + plan.warps - 1) / plan.warps;
    const long long cols = static_cast<long long>(in.cols);
    const unsigned per_row = static_cast<unsigned>((cols + kSegment - 1) / kSegment);

    fast::warp_bulk_stream<kStages>(
        ring, kSlot, bars, static_cast<long long>(rows * per_row),
        [&](long long j) {
            const std::size_t r = gw + static_cast<std::size_t>(j) / per_row * plan.warps;
            const long long c0 = static_cast<long long>(j % per_row) * kSegment;
            const long long lo = max(c0 - H, 0LL), hi = min(c0 + kSegment + H, cols);
            return fast::BulkChunk{gpu::pitched_row(in, r) + lo,
                                   static_cast<unsigned>(lo - (c0 - H)),
                                   static_cast<unsigned>((hi - lo) * 4)};
        },
        [&](long long j, float* slot) {
            const std::size_t r = gw + static_cast<std::size_t>(j) / per_row * plan.warps;
            const long long c0 = static_cast<long long>(j % per_row) * kSegment;
            const float* src = gpu::pitched_row(in, r);
            // Slot position p holds column c0 - H + p. Fill what lies outside the row.
            const int left = static_cast<int>(max(H - c0, 0LL));
            const int right = static_cast<int>(min(cols - c0 + H, static_cast<long long>(kSlot)));
            if (left > 0 || right < kSlot) {
                auto fill = [&](int p) {
                    const long long x = gpu::border_index(c0 - H + p, cols, border);
                    slot[p] = x < 0 ? 0.0f : src[x];
                };
                for (int p = lane; p < left; p += 32) fill(p);
                for (int p = right + lane; p < kSlot; p += 32) fill(p);
                fast::fence_proxy_async();  // the copy engine refills this slot later
                __syncwarp();
            }
            const int n4 = static_cast<int>(min(cols - c0, static_cast<long long>(kSegment))) / 4;
            float* dst = gpu::pitched_row(out, r) + c0;
#pragma unroll 2
            for (int q = lane; q < n4; q += 32)
                fast::store4(dst + 4 * q, fast::window4_from_line<R, H>(slot, q, inv));
        });
}

template <int R>
void launch_bulk(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const fast::WarpRows plan =
        fast::resident_warp_rows<fast_filter_x_bulk_kernel<R>>(kThreads, smem_bytes<R>(), in.rows);
    const float inv = static_cast<float>(1.0 / (2 * R + 1));
    fast_filter_x_bulk_kernel<R>
        <<<gpu::blocks_for(plan.warps, kWarps), kThreads, smem_bytes<R>(), stream>>>(
            in, out, params.border, inv, plan);
    COALESCE_CHECK_LAUNCH("fast_filter_x_bulk_kernel");
}

void launch_fast_filter_x_bulk(MatView in, MatView out, const OpParams& params,
                               cudaStream_t stream) {
    if (!fast::rows_are_16b_aligned(in) || !fast::rows_are_16b_aligned(out) || in.cols % 4 != 0)
        throw Unsupported("the bulk copy engine moves 16-byte aligned multiples of 16 bytes");
    const bool launched = fast::with_compiled_radius<kMaxBulkRadius>(
        params.radius, [&](auto r) { launch_bulk<decltype(r)::value>(in, out, params, stream); });
    if (!launched) throw Unsupported("filter_x/fast-bulk-ring has radii 1..8 compiled in");
}

}  // namespace

void register_fast_filter_x_bulk(Registry& registry) {
    registry.add(fast::device_variant(
        {"filter_x/fast-bulk-ring",
         Op::filter_x,
         space::shared,
         "each warp streams every W-th row (W resident warps) through a ring of four shared-memory "
         "slots (1024 output columns plus the halo) filled by the bulk copy engine "
         "(cp.async.bulk, sm_90); four outputs per lane from aligned float4 shared loads, float4 "
         "stores; radius 1-8 compiled in, columns a multiple of 4. Lost to "
         "filter_x/fast-seg4096-quad (84.6 / 82.4% of copy "
         "against 96.2 / 97.7 at r = 4, 8192x8192 / 8000x6000 on the H200; Nsight Compute: 16% "
         "occupancy, a third of the staged kernel's instructions yet 70% of the DRAM peak): one "
         "warp per ring waits, computes and refills in turn",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_filter_x_bulk_kernel<R = radius>",
         {.cols_multiple = 4, .min_radius = 1, .max_radius = kMaxBulkRadius}},
        launch_fast_filter_x_bulk));
}

}  // namespace coalesce
