// resample: bilinear scale-and-rotate done by hand from global memory, the interpolation the
// texture plugin's variants get from the texture unit (cudaFilterModeLinear). Each output pixel
// maps back to input coordinates, reads its four neighbours (clamped at the edges, as the
// texture's clamp address mode) and weights them with the texture unit's 1/256-step weights
// (onchip::bilinear_tap).
#include "coalesce/cuda_check.hpp"
#include "coalesce/onchip.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>
#include <cstddef>

namespace coalesce {
namespace {

constexpr int kBlockX = 32;
constexpr int kBlockY = 8;
constexpr long long kMaxBlockRows = 65535;  // gridDim.y

__global__ void resample_kernel(const float* in, int in_cols, int in_rows, float* out, int out_cols,
                                int out_rows, int row0, onchip::ResampleMap map) {
    const int ox = blockIdx.x * blockDim.x + threadIdx.x;
    const int oy = row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (ox >= out_cols || oy >= out_rows) return;
    float sx, sy;
    onchip::resample_source(map, ox, oy, sx, sy);
    const onchip::BilinearTap t = onchip::bilinear_tap(sx, sy, in_cols, in_rows);
    const float* top = in + static_cast<std::size_t>(t.y0) * in_cols;
    const float* bottom = in + static_cast<std::size_t>(t.y1) * in_cols;
    out[static_cast<std::size_t>(oy) * out_cols + ox] =
        t.w00 * top[t.x0] + t.w10 * top[t.x1] + t.w01 * bottom[t.x0] + t.w11 * bottom[t.x1];
}

void launch_resample(MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
    const onchip::ResampleMap map =
        onchip::resample_map({in.rows, in.cols}, p.value("scale"), p.value("angle"));
    const long long out_rows = static_cast<long long>(out.rows);
    const long long band = kMaxBlockRows * kBlockY;
    for (long long row0 = 0; row0 < out_rows; row0 += band) {
        const long long rows = std::min(band, out_rows - row0);
        const dim3 block(kBlockX, kBlockY);
        const dim3 grid(static_cast<unsigned>((out.cols + kBlockX - 1) / kBlockX),
                        static_cast<unsigned>((rows + kBlockY - 1) / kBlockY));
        resample_kernel<<<grid, block, 0, stream>>>(
            in.data, static_cast<int>(in.cols), static_cast<int>(in.rows), out.data,
            static_cast<int>(out.cols), static_cast<int>(out_rows), static_cast<int>(row0), map);
        COALESCE_CHECK_LAUNCH("resample_kernel");
    }
}

}  // namespace

void register_resample(Registry& registry) {
    gpu::DeviceVariantSpec spec;
    spec.id = "resample/global";
    spec.op = Op("resample");
    spec.memory_space = space::global;
    spec.description =
        "Bilinear interpolation by hand from cudaMalloc memory: coordinates, floor, the 1/256 "
        "weights, four clamped loads and the weighted sum per pixel, all of which the texture "
        "unit does in one fetch (resample/texture-*).";
    spec.layout = gpu::Layout::dense;
    spec.kernel = "resample_kernel";
    registry.add(gpu::make_device_variant(std::move(spec), launch_resample));
}

}  // namespace coalesce
