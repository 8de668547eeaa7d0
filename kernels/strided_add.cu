// strided_add: each thread adds one pair read `stride` floats along a and b (seed 002's
// add_experiment). At stride 1 a warp's three requests are 4 sectors each; at stride 16, the
// notebook's uncoalesced case, its two loads are 32 sectors each for the same 256 useful bytes.
#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kThreads = 256;

// As the notebook writes it: i = cuda.grid(1); out[i] = a[stride * i] + b[stride * i].
__global__ void strided_add_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                   float* __restrict__ out, std::size_t outputs,
                                   std::size_t stride) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < outputs) out[i] = a[stride * i] + b[stride * i];
}

// b = the input rotated by half the buffer (b[j] = a[(j + N/2) mod N]), in the scratch matrix:
// a buffer of its own, so b's reads never hit lines a's reads brought in.
void prepare_second_operand(MatView in, MatView b) {
    const std::size_t n = in.rows * in.cols;  // dense
    const std::size_t half = n / 2;
    COALESCE_CUDA(
        cudaMemcpy(b.data, in.data + half, (n - half) * sizeof(float), cudaMemcpyDeviceToDevice));
    if (half > 0)
        COALESCE_CUDA(cudaMemcpy(b.data + (n - half), in.data, half * sizeof(float),
                                 cudaMemcpyDeviceToDevice));
}

void launch_strided_add(MatView in, MatView out, MatView b, const OpParams& p,
                        cudaStream_t stream) {
    const std::size_t outputs = out.cols;  // output is 1 x ceil(N / stride)
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    const auto blocks = static_cast<unsigned>((outputs + kThreads - 1) / kThreads);
    strided_add_kernel<<<blocks, kThreads, 0, stream>>>(in.data, b.data, out.data, outputs, stride);
    COALESCE_CHECK_LAUNCH("strided_add_kernel");
}

// Warp 1 (warp 0 when there is only one): a and b loaded `stride` floats apart, out contiguous.
std::vector<WarpRequest> strided_add_access(Shape in, const OpParams& p) {
    const long long stride = p.value("stride");
    const long long outputs = (static_cast<long long>(in.elements()) + stride - 1) / stride;
    const long long warp = outputs > 32 ? 1 : 0;
    const int lanes = static_cast<int>(std::min(32ll, outputs - 32 * warp));
    const WarpRequest load = affine_request(false, 32 * warp * stride * 4, stride * 4, 4, lanes);
    return {load, load, affine_request(true, 32 * warp * 4, 4, 4, lanes)};
}

}  // namespace

void register_strided_add(Registry& registry) {
    gpu::DeviceVariantSpec spec;
    spec.id = "strided_add/global";
    spec.op = Op("strided_add");
    spec.memory_space = space::global;
    spec.description =
        "One thread per sum, a[stride * i] + b[stride * i] as in the notebook: stride 1 is its "
        "coalesced case (4 sectors per load), stride 16 its uncoalesced one (32 per load).";
    spec.layout = gpu::Layout::dense;
    spec.kernel = "strided_add_kernel";
    spec.access = strided_add_access;
    spec.chain = [](Shape, std::size_t) { return std::size_t{1}; };
    spec.prepare = prepare_second_operand;
    registry.add(gpu::make_device_variant(
        std::move(spec), [](Shape in, const OpParams&) { return in; }, launch_strided_add));
}

}  // namespace coalesce
