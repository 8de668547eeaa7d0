// filter_y: box filter down each column, the mean of the 2r+1 neighbours, borders per
// coalesce::Border. The direct kernels are the memory-spaces slides' globalFilterY (one output per
// thread, the window read from global memory); the shared one stages a block's rows and their
// halo in shared memory. The course's kernels skip the border pixels; here a thread near the top
// or bottom applies the border rule per neighbour.
//
// A matrix taller than one launch is filtered in bands of rows (classic_launch.hpp): `in` and `out`
// point at the band's first row, first_row says where the band lies in the matrix and rows how
// tall the matrix is, for the halo and the border rule. A border row may lie anywhere in the matrix
// (wrap, mirror), so only that rare path indexes in 64 bits.
//
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

constexpr int kBlockX = 32;    // a warp spans 32 adjacent columns: every read is coalesced
constexpr int kBlockY = 8;     // direct kernels: 32x8 threads, one output each
constexpr int kTileRows = 16;  // shared kernel: 32x16 threads, a tile of 16 + 2r rows

// Row k of the band (k may lie in the halo above or below it) after the border rule; 0 for a
// row outside the matrix under Border::zero.
template <class T>
__device__ inline T read_row(const T* __restrict__ in, int k, int x, int in_pitch, Border border,
                             int first_row, int rows) {
    int g = first_row + k;
    if (g >= 0 && g < rows) return in[k * in_pitch + x];
    long long i = border_index(g, rows, border);
    return i < 0 ? T(0) : in[(i - first_row) * in_pitch + x];
}

// Each thread sums its 2r+1 column neighbours straight from global memory, rows apart; a warp
// still reads 128 contiguous bytes per neighbour, and L1/L2 serve the rows neighbours share.
// The launch bounds keep the rarely taken wrap/mirror arithmetic from costing registers: at most
// 32 a thread, so that a full SM of 2048 threads fits, as with the course's clamp-only kernel.
template <class T>
__global__ void __launch_bounds__(kBlockX* kBlockY, 2048 / (kBlockX * kBlockY))
    filter_y_global(const T* __restrict__ in, T* __restrict__ out, int band_rows, int cols,
                    int in_pitch, int out_pitch, int r, Border border, int first_row, int rows) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= cols || y >= band_rows) return;
    gpu::WindowSum<T> sum = 0;
    if (first_row + y >= r && first_row + y + r < rows) {
        for (int k = y - r; k <= y + r; ++k) sum += in[k * in_pitch + x];
    } else {
        for (int k = y - r; k <= y + r; ++k)
            sum += read_row(in, k, x, in_pitch, border, first_row, rows);
    }
    out[y * out_pitch + x] = gpu::window_mean<T>(sum, 2 * r + 1);
}

// A 32x16 block stages 16 + 2R rows of its 32 columns in shared memory (coalesced, the border rule
// applied once, at load), then every output sums 2R+1 conflict-free shared floats down a column.
// The radius is a compile-time constant, as in the course's stencils: the window loop unrolls.
template <class T, int R>
__global__ void __launch_bounds__(kBlockX* kTileRows, 2048 / (kBlockX * kTileRows))
    filter_y_shared(const T* __restrict__ in, T* __restrict__ out, int band_rows, int cols,
                    int in_pitch, int out_pitch, int /* r: R, compiled in */, Border border,
                    int first_row, int rows) {
    __shared__ T tile[kTileRows + 2 * R][kBlockX];
    int x = blockIdx.x * kBlockX + threadIdx.x;
    int y = blockIdx.y * kTileRows + threadIdx.y;
    int top = blockIdx.y * kTileRows - R;  // the band row tile row 0 holds
    // The rows to stage are known at compile time: the loads issue back to back, each row index
    // resolved first (the border rule only for rows outside the matrix), then one load.
#pragma unroll
    for (int k = 0; k < (kTileRows + 2 * R + kTileRows - 1) / kTileRows; ++k) {
        int i = threadIdx.y + k * kTileRows;
        if (i < kTileRows + 2 * R) {
            int g = first_row + top + i;
            int j = g >= 0 && g < rows ? g : static_cast<int>(border_index(g, rows, border));
            // A border row (wrap, mirror) may lie outside the band: a 64-bit offset.
            tile[i][threadIdx.x] = x < cols && j >= 0
                                       ? in[static_cast<long long>(j - first_row) * in_pitch + x]
                                       : T(0);
        }
    }
    __syncthreads();
    if (x >= cols || y >= band_rows) return;
    gpu::WindowSum<T> sum = 0;
#pragma unroll
    for (int k = 0; k <= 2 * R; ++k) sum += tile[threadIdx.y + k][threadIdx.x];
    out[y * out_pitch + x] = gpu::window_mean<T>(sum, 2 * R + 1);
}

template <class T>
using FilterYKernel = void (*)(const T*, T*, int, int, int, int, int, Border, int, int);

template <class T, int... Rs>
constexpr std::array<FilterYKernel<T>, sizeof...(Rs)> shared_kernels(
    std::integer_sequence<int, Rs...>) {
    return {&filter_y_shared<T, Rs>...};
}

// One instantiation per radius the operation accepts, so any radius runs the unrolled kernel.
template <class T>
constexpr auto kSharedKernels =
    shared_kernels<T>(std::make_integer_sequence<int, kMaxRadius + 1>{});

template <class T>
void launch_bands(FilterYKernel<T> kernel, const char* name, dim3 block, int rows_per_block,
                  std::size_t shared_bytes, gpu::View<T> in, gpu::View<T> out, const OpParams& p,
                  cudaStream_t stream) {
    const int in_pitch = gpu::pitch_of(in);
    const int out_pitch = gpu::pitch_of(out);
    const int cols = static_cast<int>(in.cols);
    const int rows = static_cast<int>(in.rows);
    gpu::for_each_band(in.rows, gpu::kMaxBlocksY * rows_per_block, std::max(in_pitch, out_pitch),
                       [&](int first_row, int band_rows) {
                           const dim3 grid(gpu::blocks_to_cover(cols, kBlockX),
                                           gpu::blocks_to_cover(band_rows, rows_per_block));
                           kernel<<<grid, block, shared_bytes, stream>>>(
                               in.data + static_cast<std::size_t>(first_row) * in_pitch,
                               out.data + static_cast<std::size_t>(first_row) * out_pitch,
                               band_rows, cols, in_pitch, out_pitch, p.radius, p.border, first_row,
                               rows);
                           COALESCE_CHECK_LAUNCH(name);
                       });
}

// The two kernels by name, for floats (f32 runs) and for a typed run's element type.
enum class Kind { global, shared };

template <class T>
void launch_kind(Kind kind, gpu::View<T> in, gpu::View<T> out, const OpParams& p,
                 cudaStream_t stream) {
    if (kind == Kind::global)
        launch_bands<T>(filter_y_global<T>, "filter_y_global", dim3(kBlockX, kBlockY), kBlockY, 0,
                        in, out, p, stream);
    else
        launch_bands<T>(kSharedKernels<T>.at(static_cast<std::size_t>(p.radius)), "filter_y_shared",
                        dim3(kBlockX, kTileRows), kTileRows, 0, in, out, p, stream);
}

// One kind of kernel as a launch of any element type (gpu::same_type_variant).
auto launch_of(Kind kind) {
    return [kind](auto in, auto out, const OpParams& p, cudaStream_t stream) {
        launch_kind(kind, in, out, p, stream);
    };
}

gpu::DeviceVariantSpec classic(const char* id, const char* memory_space, const char* description,
                               Layout layout, const char* kernel) {
    return {id,     Op::filter_y,  memory_space, description,
            layout, Tier::classic, kernel,       gpu::classic_limits()};
}

}  // namespace

void register_filter_y(Registry& registry) {
    registry.add(gpu::same_type_variant(
        classic(
            "filter_y/global", space::global,
            "The slides' globalFilterY: each thread reads its 2r+1 column neighbours from global "
            "memory. Warps read whole rows (coalesced) and the caches absorb the 2r+1-fold "
            "re-reading, but the loads cost instructions.",
            Layout::dense, "filter_y_global"),
        launch_of(Kind::global)));
    registry.add(gpu::same_type_variant(
        classic("filter_y/pitched", space::pitched,
                "filter_y/global's kernel on cudaMallocPitch rows, indexed by the pitch: only the "
                "allocation changes, so any difference is what aligned row starts buy.",
                Layout::pitched, "filter_y_global"),
        launch_of(Kind::global)));
    registry.add(gpu::same_type_variant(
        classic(
            "filter_y/shared-tile", space::shared,
            "32 columns of 16 rows plus r halo rows each side loaded once into shared memory, then "
            "2r+1 shared reads per output: global traffic is (16+2r)/16 reads per element, not "
            "2r+1.",
            Layout::dense, "filter_y_shared"),
        launch_of(Kind::shared)));
}

}  // namespace coalesce
