// row_sums: one float sum per row (rows x 1 out); for u8 and u16 an exact integer sum in the
// accumulator the typed reference uses (uint32 or uint64, sum_width). Who walks along a row decides
// coalescing: one thread per row as the notebook's row_sums does (uncoalesced), or a warp or a
// block per row (coalesced). Every block has 256 threads, the notebook's threads_per_block.
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"

#include <climits>

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kThreads = 256;
constexpr int kWarp = 32;

// The notebook's row_sums: thread r sums row r. At each step the 32 threads of a warp read 32
// addresses a row apart: 32 sectors for 128 useful bytes.
template <class T, class Acc>
__global__ void row_sums_thread_per_row(const T* __restrict__ in, Acc* __restrict__ out, int rows,
                                        int cols, int in_pitch, int out_pitch) {
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    Acc sum = 0;
    for (int c = 0; c < cols; ++c) sum += in[r * in_pitch + c];
    out[r * out_pitch] = sum;
}

// One warp per row: lane i reads columns i, i + 32, ... (each warp load is 128 contiguous bytes),
// then the 32 partial sums meet through warp shuffles.
template <class T, class Acc>
__global__ void row_sums_warp_per_row(const T* __restrict__ in, Acc* __restrict__ out, int rows,
                                      int cols, int in_pitch, int out_pitch) {
    int r = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
    int lane = threadIdx.x % kWarp;
    if (r >= rows) return;  // whole warps: blockDim.x is a multiple of 32
    Acc sum = 0;
    for (int c = lane; c < cols; c += kWarp) sum += in[r * in_pitch + c];
    for (int offset = kWarp / 2; offset > 0; offset /= 2)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) out[r * out_pitch] = sum;
}

// One block per row: thread t sums columns t, t + 256, ... (coalesced across the block), then the
// 256 partial sums are halved in shared memory, a barrier per level, until one is left.
template <class T, class Acc>
__global__ void row_sums_block_per_row(const T* __restrict__ in, Acc* __restrict__ out, int cols,
                                       int in_pitch, int out_pitch) {
    __shared__ Acc partial[kThreads];
    int r = blockIdx.x;
    Acc sum = 0;
    for (int c = threadIdx.x; c < cols; c += kThreads) sum += in[r * in_pitch + c];
    partial[threadIdx.x] = sum;
    __syncthreads();
    for (int s = kThreads / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[r * out_pitch] = partial[0];
}

// Calls launch(in, out, rows) per band of rows, pointers moved to the band's first row.
template <class T, class Acc, class Launch>
void for_each_row_band(gpu::View<T> in, gpu::View<Acc> out, Launch&& launch) {
    const int in_pitch = gpu::pitch_of(in);
    const int out_pitch = gpu::pitch_of(out);
    gpu::for_each_band(in.rows, INT_MAX, std::max(in_pitch, out_pitch), [&](int row, int rows) {
        launch(in.data + static_cast<std::size_t>(row) * in_pitch,
               out.data + static_cast<std::size_t>(row) * out_pitch, rows, in_pitch, out_pitch);
    });
}

template <class T, class Acc>
void launch_thread_per_row(gpu::View<T> in, gpu::View<Acc> out, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    for_each_row_band(
        in, out, [&](const T* d_in, Acc* d_out, int rows, int in_pitch, int out_pitch) {
            row_sums_thread_per_row<<<gpu::blocks_to_cover(rows, kThreads), kThreads, 0, stream>>>(
                d_in, d_out, rows, cols, in_pitch, out_pitch);
            COALESCE_CHECK_LAUNCH("row_sums_thread_per_row");
        });
}

template <class T, class Acc>
void launch_warp_per_row(gpu::View<T> in, gpu::View<Acc> out, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    for_each_row_band(
        in, out, [&](const T* d_in, Acc* d_out, int rows, int in_pitch, int out_pitch) {
            row_sums_warp_per_row<<<gpu::blocks_to_cover(rows, kThreads / kWarp), kThreads, 0,
                                    stream>>>(d_in, d_out, rows, cols, in_pitch, out_pitch);
            COALESCE_CHECK_LAUNCH("row_sums_warp_per_row");
        });
}

template <class T, class Acc>
void launch_block_per_row(gpu::View<T> in, gpu::View<Acc> out, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    for_each_row_band(in, out,
                      [&](const T* d_in, Acc* d_out, int rows, int in_pitch, int out_pitch) {
                          row_sums_block_per_row<<<rows, kThreads, 0, stream>>>(
                              d_in, d_out, cols, in_pitch, out_pitch);
                          COALESCE_CHECK_LAUNCH("row_sums_block_per_row");
                      });
}

// The three kernels by name, for floats (f32 runs) and for a typed run's element and sum types.
enum class Kind { thread_per_row, warp_per_row, block_per_row };

template <class T, class Acc>
void launch_kind(Kind kind, gpu::View<T> in, gpu::View<Acc> out, cudaStream_t stream) {
    if (kind == Kind::thread_per_row)
        launch_thread_per_row(in, out, stream);
    else if (kind == Kind::warp_per_row)
        launch_warp_per_row(in, out, stream);
    else
        launch_block_per_row(in, out, stream);
}

gpu::Launcher float_launcher(Kind kind) {
    return [kind](MatView in, MatView out, const OpParams&, cudaStream_t stream) {
        launch_kind(kind, gpu::view_of(in), gpu::view_of(out), stream);
    };
}

gpu::TypedLauncher typed_launcher(Kind kind) {
    return [kind](ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView, const OpParams&,
                  cudaStream_t stream) {
        gpu::with_sum_types("row_sums", type, in.cols, [&](auto element, auto sum) {
            using T = decltype(element);
            using Acc = decltype(sum);
            launch_kind(kind, gpu::view_as<T>(in), gpu::view_as<Acc>(out), stream);
        });
    };
}

gpu::DeviceVariantSpec classic(const char* id, const char* memory_space, const char* description,
                               Layout layout, const char* kernel) {
    return {id,     Op::row_sums,  memory_space, description,
            layout, Tier::classic, kernel,       gpu::classic_limits()};
}

}  // namespace

void register_row_sums(Registry& registry) {
    registry.add(gpu::make_device_variant(
        classic("row_sums/global-thread-per-row", space::global,
                "The notebook's row_sums: one thread walks each row, so at every step a warp's 32 "
                "loads "
                "are a whole row apart, 32 sectors for 128 useful bytes (uncoalesced). Slow.",
                Layout::dense, "row_sums_thread_per_row"),
        float_launcher(Kind::thread_per_row), typed_launcher(Kind::thread_per_row)));
    registry.add(gpu::make_device_variant(
        classic(
            "row_sums/global-warp-per-row", space::global,
            "One warp per row: lanes read consecutive floats, so every warp load is 128 contiguous "
            "bytes (coalesced), and warp shuffles add the 32 partial sums. Near copy bandwidth.",
            Layout::dense, "row_sums_warp_per_row"),
        float_launcher(Kind::warp_per_row), typed_launcher(Kind::warp_per_row)));
    registry.add(gpu::make_device_variant(
        classic(
            "row_sums/pitched", space::pitched,
            "row_sums/global-warp-per-row's kernel on cudaMallocPitch rows, indexed by the pitch: "
            "only the allocation changes, so any difference is what aligned row starts buy.",
            Layout::pitched, "row_sums_warp_per_row"),
        float_launcher(Kind::warp_per_row), typed_launcher(Kind::warp_per_row)));
    registry.add(gpu::make_device_variant(
        classic(
            "row_sums/shared-reduce", space::shared,
            "One 256-thread block per row: coalesced strided partial sums, then the classic tree "
            "reduction in shared memory with a barrier per level; the barriers cost on short rows.",
            Layout::dense, "row_sums_block_per_row"),
        float_launcher(Kind::block_per_row), typed_launcher(Kind::block_per_row)));
}

}  // namespace coalesce
