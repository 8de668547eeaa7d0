// gather: each thread copies one float from `stride` floats along the input. The course's lesson
// (seed 003 testOffset<k>, seed 004 strided_access): a warp asks for 128 useful bytes but they lie
// in min(32, 4 * stride) sectors, so from stride 8 on every float costs a sector of its own.
#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kThreads = 256;

// As the course writes it: one thread per output, i from the 1-D grid.
__global__ void gather_kernel(const float* __restrict__ in, float* __restrict__ out,
                              std::size_t outputs, std::size_t stride) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < outputs) out[i] = in[i * stride];
}

void launch_gather(MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
    const std::size_t outputs = out.cols;  // output is 1 x ceil(N / stride), input dense
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    const auto blocks = static_cast<unsigned>((outputs + kThreads - 1) / kThreads);
    gather_kernel<<<blocks, kThreads, 0, stream>>>(in.data, out.data, outputs, stride);
    COALESCE_CHECK_LAUNCH("gather_kernel");
}

// Warp 1 (warp 0 when there is only one): loads `stride` floats apart, stores contiguous.
std::vector<WarpRequest> gather_access(Shape in, const OpParams& p) {
    const long long stride = p.value("stride");
    const long long outputs = (static_cast<long long>(in.elements()) + stride - 1) / stride;
    const long long warp = outputs > 32 ? 1 : 0;
    const int lanes = static_cast<int>(std::min(32ll, outputs - 32 * warp));
    return {affine_request(false, 32 * warp * stride * 4, stride * 4, 4, lanes),
            affine_request(true, 32 * warp * 4, 4, 4, lanes)};
}

}  // namespace

void register_gather(Registry& registry) {
    gpu::DeviceVariantSpec spec;
    spec.id = "gather/global";
    spec.op = Op("gather");
    spec.memory_space = space::global;
    spec.description =
        "One thread per output reading in[i * stride]: 4 sectors per warp at stride 1, 8 at 2, "
        "16 at 4, 32 from 8 on, so bandwidth falls as 1/stride until each float has a sector.";
    spec.layout = gpu::Layout::dense;
    spec.kernel = "gather_kernel";
    spec.access = gather_access;
    registry.add(gpu::make_device_variant(std::move(spec), launch_gather));
}

}  // namespace coalesce
