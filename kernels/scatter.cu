// scatter: each thread copies one float to `stride` floats along the output. The store side of
// the strided lesson (seed 004, strided_access): 32 stores in min(32, 4 * stride) sectors, each
// sector written only in part while the rest of it must reach memory unchanged.
#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>

namespace coalesce {
namespace {

constexpr int kThreads = 256;

// As the course writes it: one thread per input element, i from the 1-D grid.
__global__ void scatter_kernel(const float* __restrict__ in, float* __restrict__ out,
                               std::size_t count, std::size_t stride) {
    const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
    if (i < count) out[i * stride] = in[i];
}

void launch_scatter(MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
    const auto stride = static_cast<std::size_t>(p.value("stride"));
    const std::size_t count = (in.rows * in.cols + stride - 1) / stride;  // dense buffers
    const auto blocks = static_cast<unsigned>((count + kThreads - 1) / kThreads);
    scatter_kernel<<<blocks, kThreads, 0, stream>>>(in.data, out.data, count, stride);
    COALESCE_CHECK_LAUNCH("scatter_kernel");
}

// Warp 1 (warp 0 when there is only one): loads contiguous, stores `stride` floats apart.
std::vector<WarpRequest> scatter_access(Shape in, const OpParams& p) {
    const long long stride = p.value("stride");
    const long long count = (static_cast<long long>(in.elements()) + stride - 1) / stride;
    const long long warp = count > 32 ? 1 : 0;
    const int lanes = static_cast<int>(std::min(32ll, count - 32 * warp));
    return {affine_request(false, 32 * warp * 4, 4, 4, lanes),
            affine_request(true, 32 * warp * stride * 4, stride * 4, 4, lanes)};
}

}  // namespace

void register_scatter(Registry& registry) {
    gpu::DeviceVariantSpec spec;
    spec.id = "scatter/global";
    spec.op = Op("scatter");
    spec.memory_space = space::global;
    spec.description =
        "One thread per input writing out[i * stride]: the stores take 4 sectors per warp at "
        "stride 1 and 32 from stride 8 on, each sector only partly written.";
    spec.layout = gpu::Layout::dense;
    spec.kernel = "scatter_kernel";
    spec.access = scatter_access;
    registry.add(gpu::make_device_variant(std::move(spec), launch_scatter));
}

}  // namespace coalesce
