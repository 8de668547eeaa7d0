// copy: the baseline every other operation is compared with, written as NVIDIA's transpose
// example writes its copy (the yardstick of its transposes): 32x32 tiles, 32x8 threads, each
// thread four rows eight apart. The dense and pitched variants run the same kernel.
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// out[y][x] = in[y][x]: every warp reads and writes 128 contiguous bytes of floats (32 of u8,
// 64 of u16: the course's pattern with smaller elements).
template <class T>
__global__ void copy_2d(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                        int in_pitch, int out_pitch) {
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    if (x >= cols) return;
    for (int j = 0; j < kTile; j += kBlockRows)
        if (y + j < rows) out[(y + j) * out_pitch + x] = in[(y + j) * in_pitch + x];
}

template <class T>
void launch_copy_of(gpu::View<T> in, gpu::View<T> out, cudaStream_t stream) {
    const int in_pitch = gpu::pitch_of(in);
    const int out_pitch = gpu::pitch_of(out);
    const int cols = static_cast<int>(in.cols);
    const long long stride = std::max(in_pitch, out_pitch);
    gpu::for_each_band(in.rows, gpu::kMaxBlocksY * kTile, stride, [&](int row, int rows) {
        const dim3 grid(gpu::blocks_to_cover(cols, kTile), gpu::blocks_to_cover(rows, kTile));
        copy_2d<<<grid, dim3(kTile, kBlockRows), 0, stream>>>(
            in.data + static_cast<std::size_t>(row) * in_pitch,
            out.data + static_cast<std::size_t>(row) * out_pitch, rows, cols, in_pitch, out_pitch);
        COALESCE_CHECK_LAUNCH("copy_2d");
    });
}

void launch_copy(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    launch_copy_of(gpu::view_of(in), gpu::view_of(out), stream);
}

void launch_copy_typed(ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView,
                       const OpParams&, cudaStream_t stream) {
    gpu::with_integer_type(type, [&](auto element) {
        using T = decltype(element);
        launch_copy_of(gpu::view_as<T>(in), gpu::view_as<T>(out), stream);
    });
}

}  // namespace

void register_copy(Registry& registry) {
    registry.add(
        gpu::make_device_variant({"copy/global", Op::copy, space::global,
                                  "A cudaMalloc matrix copied in 32x32 tiles by 32x8 threads: "
                                  "every warp reads and writes 128 "
                                  "contiguous bytes, the most a plain kernel can hope for.",
                                  Layout::dense, Tier::classic, "copy_2d", gpu::classic_limits()},
                                 launch_copy, launch_copy_typed));
    registry.add(
        gpu::make_device_variant({"copy/pitched", Op::copy, space::pitched,
                                  "copy/global's kernel on cudaMallocPitch rows, indexed by the "
                                  "pitch: aligned row starts cost "
                                  "nothing when every warp still reads 128 contiguous bytes.",
                                  Layout::pitched, Tier::classic, "copy_2d", gpu::classic_limits()},
                                 launch_copy, launch_copy_typed));
}

}  // namespace coalesce
