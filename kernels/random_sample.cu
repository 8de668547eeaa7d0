// random_sample: seed 003's RandomSample<Area> from global memory, linear (cudaMalloc) and 2-D
// (cudaMallocPitch), as the seed's globalRandomSample reads data[x + y * pitch]. Each warp's
// reads land anywhere in a band of `area` rows: up to 32 different sectors per request, most of
// them fetched again by the neighbouring outputs, whose windows overlap; the L1 and L2 catch what
// they can. The texture plugin's variants read the same samples through the texture cache.
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

__global__ void random_sample_kernel(const float* data, int pitch, int width, int height, int row0,
                                     float* out, int out_pitch, int area, int samples) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = row0 + blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int x0 = onchip::window_start(x, width, area);
    const int y0 = onchip::window_start(y, height, area);
    const int wx = onchip::window_size(width, area);
    const int wy = onchip::window_size(height, area);
    float sum = 0.0f;
    for (int k = 0; k < samples; ++k) {
        const unsigned h = onchip::sample_hash(x, y, k);
        const int sx = x0 + onchip::sample_dx(h, wx);
        const int sy = y0 + onchip::sample_dy(h, wy);
        sum += data[sx + static_cast<std::size_t>(sy) * pitch];
    }
    out[x + static_cast<std::size_t>(y) * out_pitch] = sum / samples;
}

void launch_random_sample(MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
    const int width = static_cast<int>(in.cols);
    const int height = static_cast<int>(in.rows);
    const int pitch = static_cast<int>(in.pitch_bytes / sizeof(float));
    const int out_pitch = static_cast<int>(out.pitch_bytes / sizeof(float));
    const long long band = kMaxBlockRows * kBlockY;
    for (long long row0 = 0; row0 < height; row0 += band) {
        const long long rows = std::min(band, height - row0);
        const dim3 block(kBlockX, kBlockY);
        const dim3 grid(static_cast<unsigned>((width + kBlockX - 1) / kBlockX),
                        static_cast<unsigned>((rows + kBlockY - 1) / kBlockY));
        random_sample_kernel<<<grid, block, 0, stream>>>(
            in.data, pitch, width, height, static_cast<int>(row0), out.data, out_pitch,
            static_cast<int>(p.value("area")), static_cast<int>(p.value("samples")));
        COALESCE_CHECK_LAUNCH("random_sample_kernel");
    }
}

// Sample 0 of warp 0 of the block at (32, 32): the sector model of one scattered request.
std::vector<WarpRequest> sample_access(Shape in, const OpParams& p, bool pitched) {
    const long long row_bytes = gpu::row_bytes_of(in.cols, pitched);
    const int area = static_cast<int>(p.value("area"));
    const int width = static_cast<int>(in.cols), height = static_cast<int>(in.rows);
    WarpRequest r;
    const int y = std::min(32, height - 1);
    for (int lane = 0; lane < 32; ++lane) {
        const int x = std::min(32 + lane, width - 1);
        const unsigned h =
            onchip::sample_hash(static_cast<unsigned>(x), static_cast<unsigned>(y), 0);
        const int sx = onchip::window_start(x, width, area) +
                       onchip::sample_dx(h, onchip::window_size(width, area));
        const int sy = onchip::window_start(y, height, area) +
                       onchip::sample_dy(h, onchip::window_size(height, area));
        r.offsets[static_cast<std::size_t>(lane)] = sy * row_bytes + 4LL * sx;
    }
    return {r};
}

}  // namespace

void register_random_sample(Registry& registry) {
    const Op op("random_sample");
    for (const bool pitched : {false, true}) {
        gpu::DeviceVariantSpec spec;
        spec.id = pitched ? "random_sample/pitched" : "random_sample/global";
        spec.op = op;
        spec.memory_space = pitched ? space::pitched : space::global;
        spec.description =
            pitched ? "The seed's global2DRandomSample: samples from cudaMallocPitch memory, rows "
                      "on 512-byte boundaries; the same scattered sectors as linear memory (the "
                      "seed: 112 GB/s, as linear)."
                    : "The seed's globalLinRandomSample: each thread sums `samples` reads at "
                      "hashed places of its area x area window from cudaMalloc memory, every warp "
                      "request scattered over up to 32 sectors (the seed: 112 GB/s against 355 "
                      "through textures).";
        spec.layout = pitched ? gpu::Layout::pitched : gpu::Layout::dense;
        spec.kernel = "random_sample_kernel";
        spec.access = [pitched](Shape in, const OpParams& p) {
            return sample_access(in, p, pitched);
        };
        registry.add(gpu::make_device_variant(std::move(spec), launch_random_sample));
    }
}

}  // namespace coalesce
