// u8_to_float: 8-bit pixels converted to floats in [0, 1] by hand, out = pixel / 255.0f, one
// pixel per thread: a warp reads 32 bytes (one sector) and writes 128. The texture plugin's
// variants let the texture unit do the conversion (cudaReadModeNormalizedFloat).
#include "coalesce/cuda_check.hpp"
#include "coalesce/onchip.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <cstddef>

namespace coalesce {
namespace {

constexpr int kThreads = 256;

// Untimed: the 8-bit copy of the input the variant reads (the engine's matrices are float).
__global__ void to_u8_kernel(const float* in, unsigned char* pixels, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) pixels[i] = onchip::to_u8(in[i]);
}

__global__ void u8_to_float_kernel(const unsigned char* pixels, float* out, std::size_t n) {
    const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) out[i] = pixels[i] / 255.0f;
}

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

}  // namespace

void register_u8_to_float(Registry& registry) {
    gpu::DeviceVariantSpec spec;
    spec.id = "u8_to_float/global";
    spec.op = Op("u8_to_float");
    spec.memory_space = space::global;
    spec.description =
        "8-bit pixels read from cudaMalloc memory and converted by hand (pixel / 255.0f): one byte "
        "per thread, coalesced; the texture variants get the same floats from the texture unit's "
        "normalized-float read mode.";
    spec.layout = gpu::Layout::dense;
    spec.kernel = "u8_to_float_kernel";
    spec.prepare = [](MatView in, MatView scratch) {
        const std::size_t n = in.rows * in.cols;
        to_u8_kernel<<<blocks_for(n), kThreads>>>(
            in.data, reinterpret_cast<unsigned char*>(scratch.data), n);
        COALESCE_CHECK_LAUNCH("to_u8_kernel");
    };
    registry.add(gpu::make_device_variant(
        std::move(spec),
        // Room for rows * cols bytes: a quarter of the floats, rounded up per row.
        [](Shape in, const OpParams&) {
            return Shape{in.rows, (in.cols + 3) / 4};
        },
        [](MatView, MatView out, MatView scratch, const OpParams&, cudaStream_t stream) {
            const std::size_t n = out.rows * out.cols;
            u8_to_float_kernel<<<blocks_for(n), kThreads, 0, stream>>>(
                reinterpret_cast<const unsigned char*>(scratch.data), out.data, n);
            COALESCE_CHECK_LAUNCH("u8_to_float_kernel");
        }));
}

}  // namespace coalesce
