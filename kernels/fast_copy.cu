// copy, fast: the kernel twin of cudaMemcpy, so the report can tell the copy engine's figure from
// what an ordinary kernel reaches. float4 grid-stride, four loads in flight per thread.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr int kUnroll = 4;

// The variant allocates dense matrices (pitch = cols * 4), so the rows form one flat range of n
// floats.
__global__ void __launch_bounds__(kThreads)
    fast_copy_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
    const std::size_t n4 = n / 4;
    const std::size_t stride = static_cast<std::size_t>(gridDim.x) * kThreads;
    std::size_t i = static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    for (; i + (kUnroll - 1) * stride < n4; i += kUnroll * stride) {
        float4 v[kUnroll];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) v[k] = fast::load4(in + 4 * (i + k * stride));
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) fast::store4(out + 4 * (i + k * stride), v[k]);
    }
    for (; i < n4; i += stride) fast::store4(out + 4 * i, fast::load4(in + 4 * i));
    const std::size_t t = 4 * n4 + static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x;
    if (t < n) out[t] = in[t];
}

void launch_fast_copy(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    // Dense views (pitch = cols * 4) from cudaMalloc: 256-byte aligned, one flat range.
    const std::size_t n = in.rows * in.cols;
    const unsigned blocks = gpu::blocks_for((n / 4 + kUnroll - 1) / kUnroll, kThreads);
    fast_copy_kernel<<<blocks, kThreads, 0, stream>>>(in.data, out.data, n);
    COALESCE_CHECK_LAUNCH("fast_copy_kernel");
}

}  // namespace

void register_fast_copy(Registry& registry) {
    registry.add(fast::device_variant(
        {"copy/fast-float4",
         Op::copy,
         space::global,
         "float4 loads and stores, 4 in flight per thread: what a plain kernel reaches next to "
         "cudaMemcpy",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_copy_kernel",
         {}},
        launch_fast_copy));
}

}  // namespace coalesce
