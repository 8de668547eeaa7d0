// Pieces the fast variants (kernels/fast_*.cu) share besides device_index.cuh: 16-byte access
// helpers, the alignment test for 16-byte access, and the compiled-radius dispatch.
#pragma once

#include "coalesce/cuda_check.hpp"
#include "coalesce/matrix.hpp"
#include "device_index.cuh"

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <type_traits>
#include <utility>

namespace coalesce::fast {

// A view can be read and written in float4 steps when every row starts on 16 bytes: the base
// pointer and the pitch are both multiples of 16. Dense matrices with cols % 4 != 0 are not.
inline bool rows_are_16b_aligned(const MatView& v) {
    return reinterpret_cast<std::uintptr_t>(v.data) % 16 == 0 && v.pitch_bytes % 16 == 0;
}

// Read-only loads through the non-coherent path (LDG.E.128.CONSTANT): the input never changes
// during a launch.
__device__ __forceinline__ float4 load4(const float* p) {
    return __ldg(reinterpret_cast<const float4*>(p));
}
__device__ __forceinline__ float load1(const float* p) { return __ldg(p); }
__device__ __forceinline__ void store4(float* p, float4 v) { *reinterpret_cast<float4*>(p) = v; }

// How far, in floats, p lies past the Bytes-byte boundary below it: a row's phase (16: the float4
// it starts in; 32: its sector). Dense rows with cols % 4 != 0 start on every phase.
template <int Bytes = 16>
__device__ __forceinline__ int floats_past_boundary(const float* p) {
    return static_cast<int>((reinterpret_cast<std::uintptr_t>(p) >> 2) & (Bytes / 4 - 1));
}

__device__ __forceinline__ float4 add4(float4 a, float4 b) {
    return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
__device__ __forceinline__ float4 scale4(float4 a, float s) {
    return make_float4(a.x * s, a.y * s, a.z * s, a.w * s);
}

// Calls f(std::integral_constant<int, r>{}) for a run-time radius r in 1..Max, for kernels with the
// radius compiled in (the window in registers, indexed by constants). Returns false for other r.
template <int Max, class F>
bool with_compiled_radius(int r, F&& f) {
    return [&]<int... Rs>(std::integer_sequence<int, Rs...>) {
        return ((r == Rs + 1 ? (f(std::integral_constant<int, Rs + 1>{}), true) : false) || ...);
    }
    (std::make_integer_sequence<int, Max>{});
}

// How many blocks of a kernel the current device holds at once: per multiprocessor at `threads`
// threads and `smem` bytes of dynamic shared memory (at least 1), and the multiprocessors.
struct Residency {
    std::size_t per_sm = 1;
    std::size_t sms = 1;
    std::size_t blocks() const { return per_sm * sms; }
};

// Asked once per kernel, block shape, device and process: host calls between the timing events
// would count as kernel time.
template <class Kernel>
Residency residency(Kernel kernel, int threads, std::size_t smem) {
    int device = 0;
    COALESCE_CUDA(cudaGetDevice(&device));
    static std::mutex m;
    static std::map<std::tuple<const void*, int, std::size_t, int>, Residency> known;
    std::lock_guard<std::mutex> lock(m);
    const auto key = std::make_tuple(reinterpret_cast<const void*>(kernel), threads, smem, device);
    if (const auto it = known.find(key); it != known.end()) return it->second;
    int sms = 0, per_sm = 0;
    COALESCE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    COALESCE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    Residency r;
    r.per_sm = static_cast<std::size_t>(per_sm > 0 ? per_sm : 1);
    r.sms = static_cast<std::size_t>(sms > 0 ? sms : 1);
    return known[key] = r;
}

// Blocks of `kernel` the current device holds at once.
template <class Kernel>
std::size_t resident_blocks(Kernel kernel, int threads, std::size_t smem) {
    return residency(kernel, threads, smem).blocks();
}

}  // namespace coalesce::fast
