// filter_x: box filter along each row, the mean of the 2r+1 neighbours, borders per
// coalesce::Border. The direct kernels are the memory-spaces slides' globalFilterX (one output per
// thread, the window read from global memory); the shared one is the 1-D stencil of NVIDIA's
// CUDA C introduction (a row segment and its halo staged in shared memory). The course's kernels
// skip the border pixels; here a thread near a row end applies the border rule per neighbour.
// u8 and u16 run the same kernels with an exact integer window sum, rounded as the typed
// reference rounds it (classic_typed.cuh).
#include "classic_launch.hpp"
#include "classic_typed.cuh"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"

#include <array>
#include <utility>

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kBlockX = 32;  // direct kernels: 32x8 threads, one output each
constexpr int kBlockY = 8;
constexpr int kSegment = 256;  // shared kernel: 256 outputs of one row per block

// Each thread sums its 2r+1 row neighbours straight from global memory; the windows of a warp
// overlap, so L1 serves most of the reads, but every output costs 2r+1 load instructions.
template <class T>
__global__ void filter_x_global(const T* __restrict__ in, T* __restrict__ out, int rows, int cols,
                                int in_pitch, int out_pitch, int r, Border border) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= rows) return;
    gpu::WindowSum<T> sum = 0;
    if (x >= r && x + r < cols) {
        for (int k = x - r; k <= x + r; ++k) sum += in[y * in_pitch + k];
    } else {
        for (int k = x - r; k <= x + r; ++k) {
            int j = static_cast<int>(border_index(k, cols, border));
            sum += j < 0 ? T(0) : in[y * in_pitch + j];
        }
    }
    out[y * out_pitch + x] = gpu::window_mean<T>(sum, 2 * r + 1);
}

// A block stages kSegment columns of one row plus R on each side (the border rule applied once,
// at load, and only to halo columns outside the row) in shared memory with coalesced reads; then
// every output sums 2R+1 shared floats. The radius is a compile-time constant, as RADIUS is in the
// course's 1-D stencil: the window loop unrolls into 2R+1 shared loads and adds.
template <class T, int R>
__global__ void filter_x_shared(const T* __restrict__ in, T* __restrict__ out, int cols,
                                int in_pitch, int out_pitch, Border border) {
    __shared__ T segment[kSegment + 2 * R];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    int first = blockIdx.x * blockDim.x - R;  // the column segment[0] holds
#pragma unroll
    for (int k = 0; k < (kSegment + 2 * R + kSegment - 1) / kSegment; ++k) {
        int i = threadIdx.x + k * kSegment;
        if (i < kSegment + 2 * R) {
            int c = first + i;
            int j = c >= 0 && c < cols ? c : static_cast<int>(border_index(c, cols, border));
            segment[i] = j >= 0 ? in[y * in_pitch + j] : T(0);
        }
    }
    __syncthreads();
    if (x >= cols) return;
    gpu::WindowSum<T> sum = 0;
#pragma unroll
    for (int k = 0; k <= 2 * R; ++k) sum += segment[threadIdx.x + k];
    out[y * out_pitch + x] = gpu::window_mean<T>(sum, 2 * R + 1);
}

template <class T>
using SharedKernel = void (*)(const T*, T*, int, int, int, Border);

template <class T, int... Rs>
constexpr std::array<SharedKernel<T>, sizeof...(Rs)> shared_kernels(
    std::integer_sequence<int, Rs...>) {
    return {&filter_x_shared<T, Rs>...};
}

// One instantiation per radius the operation accepts, so any radius runs the unrolled kernel.
template <class T>
constexpr auto kSharedKernels =
    shared_kernels<T>(std::make_integer_sequence<int, kMaxRadius + 1>{});

// Calls launch(in, out, rows) per band of rows, pointers moved to the band's first row.
template <class T, class Launch>
void for_each_row_band(gpu::View<T> in, gpu::View<T> out, long long rows_per_launch,
                       Launch&& launch) {
    const int in_pitch = gpu::pitch_of(in);
    const int out_pitch = gpu::pitch_of(out);
    gpu::for_each_band(
        in.rows, rows_per_launch, std::max(in_pitch, out_pitch), [&](int row, int rows) {
            launch(in.data + static_cast<std::size_t>(row) * in_pitch,
                   out.data + static_cast<std::size_t>(row) * out_pitch, rows, in_pitch, out_pitch);
        });
}

template <class T>
void launch_global(gpu::View<T> in, gpu::View<T> out, const OpParams& p, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    for_each_row_band(in, out, gpu::kMaxBlocksY * kBlockY,
                      [&](const T* d_in, T* d_out, int rows, int in_pitch, int out_pitch) {
                          const dim3 grid(gpu::blocks_to_cover(cols, kBlockX),
                                          gpu::blocks_to_cover(rows, kBlockY));
                          filter_x_global<<<grid, dim3(kBlockX, kBlockY), 0, stream>>>(
                              d_in, d_out, rows, cols, in_pitch, out_pitch, p.radius, p.border);
                          COALESCE_CHECK_LAUNCH("filter_x_global");
                      });
}

template <class T>
void launch_shared(gpu::View<T> in, gpu::View<T> out, const OpParams& p, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    const SharedKernel<T> kernel = kSharedKernels<T>.at(static_cast<std::size_t>(p.radius));
    for_each_row_band(in, out, gpu::kMaxBlocksY,
                      [&](const T* d_in, T* d_out, int rows, int in_pitch, int out_pitch) {
                          const dim3 grid(gpu::blocks_to_cover(cols, kSegment), rows);
                          kernel<<<grid, kSegment, 0, stream>>>(d_in, d_out, cols, in_pitch,
                                                                out_pitch, p.border);
                          COALESCE_CHECK_LAUNCH("filter_x_shared");
                      });
}

// The two kernels by name, for floats (f32 runs) and for a typed run's element type.
enum class Kind { global, shared };

template <class T>
void launch_kind(Kind kind, gpu::View<T> in, gpu::View<T> out, const OpParams& p,
                 cudaStream_t stream) {
    if (kind == Kind::global)
        launch_global(in, out, p, stream);
    else
        launch_shared(in, out, p, stream);
}

// One kind of kernel as a launch of any element type (gpu::same_type_variant).
auto launch_of(Kind kind) {
    return [kind](auto in, auto out, const OpParams& p, cudaStream_t stream) {
        launch_kind(kind, in, out, p, stream);
    };
}

gpu::DeviceVariantSpec classic(const char* id, const char* memory_space, const char* description,
                               Layout layout, const char* kernel) {
    return {id,     Op::filter_x,  memory_space, description,
            layout, Tier::classic, kernel,       gpu::classic_limits()};
}

}  // namespace

void register_filter_x(Registry& registry) {
    registry.add(gpu::same_type_variant(
        classic("filter_x/global", space::global,
                "The slides' globalFilterX: each thread reads its 2r+1 row neighbours from global "
                "memory. A warp's windows overlap and hit L1, but 2r+1 loads per output make it "
                "instruction-bound, below copy bandwidth.",
                Layout::dense, "filter_x_global"),
        launch_of(Kind::global)));
    registry.add(gpu::same_type_variant(
        classic("filter_x/pitched", space::pitched,
                "filter_x/global's kernel on cudaMallocPitch rows, indexed by the pitch: only the "
                "allocation changes, so any difference is what aligned row starts buy.",
                Layout::pitched, "filter_x_global"),
        launch_of(Kind::global)));
    registry.add(gpu::same_type_variant(
        classic("filter_x/shared-tile", space::shared,
                "256 outputs of a row and r halo columns each side loaded once into shared memory "
                "(coalesced, borders resolved at load), then 2r+1 shared reads per output: global "
                "traffic near one read per element.",
                Layout::dense, "filter_x_shared"),
        launch_of(Kind::shared)));
}

}  // namespace coalesce
