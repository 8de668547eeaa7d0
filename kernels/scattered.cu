// scattered: each thread copies one float from its permuted place (seed 003's testScattered,
// index * 121 mod n, confined to spans). Inside a 128-byte span (span 32) the warp still reads 4
// sectors, as testMixed shows; a 4 KiB span spreads it over 32 sectors that the span's other 31
// warps read again; the whole buffer spreads it over 32 sectors no warp nearby shares.
#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>
#include <numeric>

namespace coalesce {
namespace {

constexpr int kThreads = 256;

// The span, the floats in whole spans, and the multiplier made coprime with the span.
struct Permutation {
    std::size_t span = 1;
    std::size_t whole = 0;
    std::size_t multiplier = 1;
    std::size_t mask = 0;  // span - 1 when the span is a power of two, else 0
};

Permutation permutation(Shape in, const OpParams& p) {
    Permutation perm;
    const std::size_t n = in.elements();
    const auto span = static_cast<std::size_t>(p.value("span"));
    perm.span = span == 0 ? n : span;
    perm.whole = n / perm.span * perm.span;
    std::size_t m = static_cast<std::size_t>(p.value("multiplier"));
    if (m % 2 == 0) ++m;
    while (std::gcd(m, perm.span) != 1) m += 2;
    perm.multiplier = m;
    if ((perm.span & (perm.span - 1)) == 0) perm.mask = perm.span - 1;
    return perm;
}

// Where output i reads from. With a power-of-two span the remainders are masks: a 64-bit `%` is
// a software routine of tens of instructions on the GPU, which would make the kernel measure
// division instead of the access pattern.
__host__ __device__ inline std::size_t scattered_source(std::size_t i, const Permutation& perm) {
    if (i >= perm.whole) return i;
    const std::size_t j = perm.mask ? (i & perm.mask) : i % perm.span;
    const std::size_t jm = j * perm.multiplier;
    return i - j + (perm.mask ? (jm & perm.mask) : jm % perm.span);
}

// As the course writes it: one thread per element, the index computed, then out[i] = in[p(i)].
__global__ void scattered_kernel(const float* __restrict__ in, float* __restrict__ out,
                                 std::size_t n, Permutation perm) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = in[scattered_source(i, perm)];
}

void launch_scattered(MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
    const Shape shape{in.rows, in.cols};
    const std::size_t n = shape.elements();  // dense buffers
    const auto blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
    scattered_kernel<<<blocks, kThreads, 0, stream>>>(in.data, out.data, n, permutation(shape, p));
    COALESCE_CHECK_LAUNCH("scattered_kernel");
}

// Warp 1 (warp 0 when there is only one): loads from the permuted places, stores contiguous.
std::vector<WarpRequest> scattered_access(Shape in, const OpParams& p) {
    const Permutation perm = permutation(in, p);
    const std::size_t n = in.elements();
    const std::size_t warp = n > 32 ? 1 : 0;
    const int lanes = static_cast<int>(std::min<std::size_t>(32, n - 32 * warp));
    WarpRequest load = affine_request(false, 0, 0, 4, lanes);
    for (int lane = 0; lane < lanes; ++lane)
        load.offsets[static_cast<std::size_t>(lane)] =
            static_cast<long long>(scattered_source(32 * warp + lane, perm) * 4);
    return {load, affine_request(true, static_cast<long long>(32 * warp * 4), 4, 4, lanes)};
}

}  // namespace

void register_scattered(Registry& registry) {
    gpu::DeviceVariantSpec spec;
    spec.id = "scattered/global";
    spec.op = Op("scattered");
    spec.memory_space = space::global;
    spec.description =
        "One thread per output reading in[p(i)]: span 32 keeps a warp in one line (4 sectors; "
        "multiplier 7 is testMixed), span 1024 over 32 sectors of 4 KiB that the span's other "
        "warps read again, span 0 over 32 sectors of the whole buffer (testScattered).";
    spec.layout = gpu::Layout::dense;
    spec.kernel = "scattered_kernel";
    spec.access = scattered_access;
    registry.add(gpu::make_device_variant(std::move(spec), launch_scattered));
}

}  // namespace coalesce
