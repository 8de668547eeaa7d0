// Streaming through shared memory with Hopper's bulk copy engine (cp.async.bulk, sm_90): one warp
// owns a ring of shared-memory slots, its lane 0 asks the copy engine for the next chunks and
// every lane consumes the chunk that has landed. The bytes in flight are the ring's, not the
// registers': the register-staged kernels got only as many loads in flight as ptxas's schedule
// kept together (three of four or eight, bench/NOTES.md runs 4-5), and capping registers to fit
// more warps cost spills. Each slot has an mbarrier that completes when its bytes have arrived.
#pragma once

#include <cuda_runtime.h>

#include "coalesce/cuda_check.hpp"

#include <cstddef>
#include <cstdint>
#include <mutex>

namespace coalesce::fast {

__device__ __forceinline__ unsigned shared_addr(const void* p) {
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void mbarrier_init(std::uint64_t* bar, unsigned arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_addr(bar)), "r"(arrivals)
                 : "memory");
}

// Makes freshly initialised barriers visible to the copy engine (the async proxy).
__device__ __forceinline__ void fence_barrier_init() {
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// Orders this thread's ordinary shared-memory writes before later copy-engine writes to the same
// bytes (a slot the consumers wrote into, then refilled).
__device__ __forceinline__ void fence_proxy_async() {
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// One arrival that also announces `bytes` still to come from the copy engine.
__device__ __forceinline__ void mbarrier_expect_bytes(std::uint64_t* bar, unsigned bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_addr(bar)),
                 "r"(bytes)
                 : "memory");
}

// Global -> shared, `bytes` a multiple of 16, both addresses 16-byte aligned; completes on `bar`.
__device__ __forceinline__ void bulk_copy_to_shared(void* dst, const void* src, unsigned bytes,
                                                    std::uint64_t* bar) {
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
            "r"(shared_addr(dst)),
        "l"(src), "r"(bytes), "r"(shared_addr(bar))
        : "memory");
}

// Returns once the barrier's phase of the given parity (0 for its first use, 1 for the second, ...)
// has completed.
__device__ __forceinline__ void mbarrier_wait(std::uint64_t* bar, unsigned parity) {
    unsigned done = 0;
    do {
        asm volatile(
            "{\n\t.reg .pred p;\n\t"
            "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
            "selp.u32 %0, 1, 0, p;\n\t}"
            : "=r"(done)
            : "r"(shared_addr(bar)), "r"(parity)
            : "memory");
    } while (!done);
}

// One chunk: `bytes` from `src` land at float `dst_offset` of a slot.
struct BulkChunk {
    const float* src;
    unsigned dst_offset;
    unsigned bytes;
};

// Streams a warp's chunks 0 .. n-1 through its ring of Stages slots of slot_floats floats each
// (`bars`: Stages barriers, initialised here). chunk_of(j) says where chunk j comes from;
// consume(j, slot) runs on every lane once chunk j has landed. Lane 0 keeps Stages chunks
// requested ahead of the consumers. A consume() that writes into its slot (border values) must
// fence_proxy_async() after writing: the copy engine refills the slot later.
template <int Stages, class ChunkOf, class Consume>
__device__ __forceinline__ void warp_bulk_stream(float* ring, unsigned slot_floats,
                                                 std::uint64_t* bars, long long n, ChunkOf chunk_of,
                                                 Consume consume) {
    const int lane = threadIdx.x & 31;
    auto request = [&](long long j) {
        const int s = static_cast<int>(j % Stages);
        const BulkChunk c = chunk_of(j);
        mbarrier_expect_bytes(&bars[s], c.bytes);
        bulk_copy_to_shared(ring + s * slot_floats + c.dst_offset, c.src, c.bytes, &bars[s]);
    };
    if (lane == 0) {
        for (int s = 0; s < Stages; ++s) mbarrier_init(&bars[s], 1);
        fence_barrier_init();
        for (long long j = 0; j < Stages && j < n; ++j) request(j);
    }
    __syncwarp();
    for (long long j = 0; j < n; ++j) {
        const int s = static_cast<int>(j % Stages);
        mbarrier_wait(&bars[s], static_cast<unsigned>((j / Stages) & 1));
        consume(j, ring + s * slot_floats);
        __syncwarp();  // every lane is done with slot s before it is refilled
        if (lane == 0 && j + Stages < n) request(j + Stages);
    }
}

// Rows per warp for a persistent grid: whole rows, as evenly as the resident warps allow (8192
// rows on 2112 warps: 4 rows each on 2048 warps, rather than 3.9 with a quarter of them a row
// short). Warp w takes rows w, w + warps, w + 2 warps, ...
struct WarpRows {
    unsigned rows_per_warp = 1;
    unsigned warps = 1;
};

inline WarpRows warp_rows(std::size_t rows, std::size_t resident_warps) {
    WarpRows w;
    const std::size_t per = (rows + resident_warps - 1) / resident_warps;
    w.rows_per_warp = static_cast<unsigned>(per < 1 ? 1 : per);
    w.warps = static_cast<unsigned>((rows + w.rows_per_warp - 1) / w.rows_per_warp);
    return w;
}

// The persistent grid of a ring kernel (Threads threads, smem bytes of dynamic shared memory,
// above 48 KiB by opt-in) over `rows` rows: the opt-in and the occupancy it allows are asked once
// per process, because host calls between the timing events would count as kernel time.
template <auto Kernel>
WarpRows resident_warp_rows(int threads, std::size_t smem, std::size_t rows) {
    static std::once_flag once;
    static int blocks_per_sm = 0;
    std::call_once(once, [&] {
        COALESCE_CUDA(cudaFuncSetAttribute(Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(smem)));
        COALESCE_CUDA(
            cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, Kernel, threads, smem));
    });
    int device = 0, sms = 0;
    COALESCE_CUDA(cudaGetDevice(&device));
    COALESCE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    return warp_rows(rows, std::size_t{1} * sms * blocks_per_sm * (threads / 32));
}

}  // namespace coalesce::fast
