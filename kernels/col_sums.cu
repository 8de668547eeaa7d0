// col_sums: one float sum per column (1 x cols out); for u8 and u16 an exact integer sum in the
// accumulator the typed reference uses (uint32 or uint64, sum_width), chunk sums included. A warp
// reading 32 neighbouring columns of a row is coalesced; the question is how many threads read. The
// notebook's col_sums has one thread per column; the split variants cut the rows into chunks so
// that thousands of blocks read, and add the chunk sums in a second pass in a fixed order
// (deterministic, no atomics).
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"

#include <climits>

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kThreads = 256;    // the notebook's threads_per_block
constexpr int kChunkRows = 256;  // rows per chunk of the split variants
constexpr int kTileCols = 32;    // shared-reduce: 32 columns x 8 row lanes
constexpr int kRowLanes = 8;

// The notebook's col_sums: thread c sums column c down every row; a warp's loads are 128
// contiguous bytes of one row (coalesced), but only `cols` threads exist. The walk down a column
// may pass 2^31 floats, so its pitch is a size_t.
template <class T, class Acc>
__global__ void col_sums_thread_per_col(const T* __restrict__ in, Acc* __restrict__ out, int rows,
                                        int cols, std::size_t pitch) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    Acc sum = 0;
    for (int r = 0; r < rows; ++r) sum += in[r * pitch + c];
    out[c] = sum;
}

// First pass: block (x, chunk) sums kChunkRows rows of 256 columns; partials[chunk][c] gets it.
template <class T, class Acc>
__global__ void col_sums_split_rows(const T* __restrict__ in, Acc* __restrict__ partials, int rows,
                                    int cols, int pitch) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int chunk = blockIdx.y;
    if (c >= cols) return;
    int first = chunk * kChunkRows;
    int last = min(first + kChunkRows, rows);
    Acc sum = 0;
    for (int r = first; r < last; ++r) sum += in[r * pitch + c];
    partials[chunk * cols + c] = sum;
}

// First pass with the rows of a chunk shared out: a 32x8 block covers 32 columns of a chunk, row
// lane l sums rows l, l + 8, ..., and the eight lane sums of a column meet in shared memory.
template <class T, class Acc>
__global__ void col_sums_shared_lanes(const T* __restrict__ in, Acc* __restrict__ partials,
                                      int rows, int cols, int pitch) {
    __shared__ Acc lane_sums[kRowLanes][kTileCols + 1];  // +1: the column read is conflict-free
    int c = blockIdx.x * kTileCols + threadIdx.x;
    int chunk = blockIdx.y;
    int first = chunk * kChunkRows;
    int last = min(first + kChunkRows, rows);
    Acc sum = 0;
    if (c < cols)
        for (int r = first + threadIdx.y; r < last; r += kRowLanes) sum += in[r * pitch + c];
    lane_sums[threadIdx.y][threadIdx.x] = sum;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        Acc total = 0;
        for (int l = 0; l < kRowLanes; ++l) total += lane_sums[l][threadIdx.x];
        partials[chunk * cols + c] = total;
    }
}

// Second pass: thread c adds the chunk sums of column c, chunk after chunk.
template <class Acc>
__global__ void col_sums_finish(const Acc* __restrict__ partials, Acc* __restrict__ out, int chunks,
                                int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    Acc sum = 0;
    for (int k = 0; k < chunks; ++k) sum += partials[k * cols + c];
    out[c] = sum;
}

template <class T, class Acc>
void launch_thread_per_col(gpu::View<T> in, gpu::View<Acc> out, cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    col_sums_thread_per_col<<<gpu::blocks_to_cover(cols, kThreads), kThreads, 0, stream>>>(
        in.data, out.data, static_cast<int>(in.rows), cols, in.pitch_bytes / sizeof(T));
    COALESCE_CHECK_LAUNCH("col_sums_thread_per_col");
}

// One partial sum per chunk of kChunkRows rows and column.
Shape split_scratch(Shape in, const OpParams&) {
    return {(in.rows + kChunkRows - 1) / kChunkRows, in.cols};
}

template <class T, class Acc>
using FirstPass = void (*)(const T*, Acc*, int, int, int);

// Runs the first pass over bands of whole chunks (gridDim.y and int indices permitting), then the
// second pass over all chunk sums.
template <class T, class Acc>
void launch_split(FirstPass<T, Acc> first_pass, const char* name, dim3 block, gpu::View<T> in,
                  gpu::View<Acc> out, gpu::View<Acc> partials, cudaStream_t stream) {
    const int pitch = gpu::pitch_of(in);
    const int cols = static_cast<int>(in.cols);
    const long long chunks_per_launch =
        std::max(1LL, std::min(gpu::kMaxBlocksY, gpu::kIntSpan / pitch / kChunkRows));
    gpu::for_each_band(partials.rows, chunks_per_launch, 1, [&](int chunk, int chunks) {
        const std::size_t row = static_cast<std::size_t>(chunk) * kChunkRows;
        const int rows = static_cast<int>(
            std::min<std::size_t>(in.rows - row, std::size_t{1} * chunks * kChunkRows));
        const dim3 grid(gpu::blocks_to_cover(cols, block.x), chunks);
        first_pass<<<grid, block, 0, stream>>>(
            in.data + row * pitch, partials.data + static_cast<std::size_t>(chunk) * cols, rows,
            cols, pitch);
        COALESCE_CHECK_LAUNCH(name);
    });
    col_sums_finish<<<gpu::blocks_to_cover(cols, kThreads), kThreads, 0, stream>>>(
        partials.data, out.data, static_cast<int>(partials.rows), cols);
    COALESCE_CHECK_LAUNCH("col_sums_finish");
}

// The three ways to sum by name, for floats (f32 runs) and for a typed run's element and sum types.
enum class Kind { thread_per_col, split_rows, shared_lanes };

template <class T, class Acc>
void launch_kind(Kind kind, gpu::View<T> in, gpu::View<Acc> out, gpu::View<Acc> partials,
                 cudaStream_t stream) {
    if (kind == Kind::thread_per_col)
        launch_thread_per_col(in, out, stream);
    else if (kind == Kind::split_rows)
        launch_split<T, Acc>(col_sums_split_rows<T, Acc>, "col_sums_split_rows", dim3(kThreads), in,
                             out, partials, stream);
    else
        launch_split<T, Acc>(col_sums_shared_lanes<T, Acc>, "col_sums_shared_lanes",
                             dim3(kTileCols, kRowLanes), in, out, partials, stream);
}

gpu::ScratchLauncher float_launcher(Kind kind) {
    return [kind](MatView in, MatView out, MatView partials, const OpParams&, cudaStream_t stream) {
        launch_kind(kind, gpu::view_of(in), gpu::view_of(out), gpu::view_of(partials), stream);
    };
}

gpu::TypedLauncher typed_launcher(Kind kind) {
    return [kind](ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView partials,
                  const OpParams&, cudaStream_t stream) {
        gpu::with_sum_types("col_sums", type, in.rows, [&](auto element, auto sum) {
            using T = decltype(element);
            using Acc = decltype(sum);
            launch_kind(kind, gpu::view_as<T>(in), gpu::view_as<Acc>(out),
                        gpu::view_as<Acc>(partials), stream);
        });
    };
}

gpu::DeviceVariantSpec classic(const char* id, const char* memory_space, const char* description,
                               Layout layout, const char* kernel) {
    return {id,     Op::col_sums,  memory_space, description,
            layout, Tier::classic, kernel,       gpu::classic_limits()};
}

}  // namespace

void register_col_sums(Registry& registry) {
    registry.add(gpu::make_device_variant(
        classic(
            "col_sums/global-thread-per-col", space::global,
            "The notebook's col_sums: one thread per column walks down every row; a warp's loads "
            "are 128 contiguous bytes (coalesced), so it beats thread-per-row, but only `cols` "
            "threads run, too few to keep the memory busy.",
            Layout::dense, "col_sums_thread_per_col"),
        [](MatView in, MatView out, const OpParams&, cudaStream_t stream) {
            launch_kind(Kind::thread_per_col, gpu::view_of(in), gpu::view_of(out),
                        gpu::View<float>{}, stream);
        },
        typed_launcher(Kind::thread_per_col)));
    registry.add(gpu::make_device_variant(
        classic("col_sums/global-split-rows", space::global,
                "Rows split into 256-row chunks over a 2-D grid, so "
                "thousands of blocks read coalesced; "
                "a small second pass adds the chunk sums in order "
                "(deterministic). Near copy bandwidth.",
                Layout::dense, "col_sums_split_rows + col_sums_finish"),
        split_scratch, float_launcher(Kind::split_rows), typed_launcher(Kind::split_rows)));
    registry.add(gpu::make_device_variant(
        classic("col_sums/pitched", space::pitched,
                "col_sums/global-split-rows' kernels on cudaMallocPitch rows, indexed by the "
                "pitch: only "
                "the allocation changes, so any difference is what aligned row starts buy.",
                Layout::pitched, "col_sums_split_rows + col_sums_finish"),
        split_scratch, float_launcher(Kind::split_rows), typed_launcher(Kind::split_rows)));
    registry.add(gpu::make_device_variant(
        classic(
            "col_sums/shared-reduce", space::shared,
            "32x8 blocks over 256-row chunks: eight row lanes per column meet in a padded shared "
            "array, then a second pass adds the chunks. Coalesced and parallel; the barrier costs "
            "a little.",
            Layout::dense, "col_sums_shared_lanes + col_sums_finish"),
        split_scratch, float_launcher(Kind::shared_lanes), typed_launcher(Kind::shared_lanes)));
}

}  // namespace coalesce
