// col_sums: one float sum per column (1 x cols out). Rows are the long way round: the question is
// how to get enough threads reading, and how to combine their partial sums deterministically.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "device_util.cuh"

namespace coalesce {
namespace {

using gpu::Layout;

constexpr int kColThreads = 256;
constexpr std::size_t kSplitRowsPerChunk = 256;  // global-split-rows and pitched
constexpr int kLoadsInFlight = 8;                // independent loads per thread in the split pass
constexpr int kTileCols = 32;                    // shared-reduce: 32 columns x 8 row lanes
constexpr int kRowLanes = 8;
constexpr std::size_t kSharedRowsPerChunk = 256;

std::size_t chunks_of(std::size_t rows, std::size_t rows_per_chunk) {
    return (rows + rows_per_chunk - 1) / rows_per_chunk;
}

// One thread per column, down all rows: a warp reads 128 contiguous bytes per step (coalesced),
// but only `cols` threads exist: a few warps per SM cannot keep enough loads in flight.
__global__ void col_sums_thread_per_col_kernel(MatView in, MatView out) {
    for (std::size_t c = blockIdx.x * blockDim.x + threadIdx.x; c < in.cols; c += gridDim.x * blockDim.x) {
        float sum = 0.0f;
        for (std::size_t r = 0; r < in.rows; ++r) sum += gpu::dense_row(in, r)[c];
        out.data[c] = sum;
    }
}

void launch_thread_per_col(MatView in, MatView out, const OpParams&, cudaStream_t stream) {
    col_sums_thread_per_col_kernel<<<gpu::blocks_for(in.cols, 128), 128, 0, stream>>>(in, out);
    COALESCE_CHECK_LAUNCH("col_sums_thread_per_col_kernel");
}

// Second pass of every split variant: adds the per-chunk partial sums of each column in a fixed
// order, so the result does not depend on scheduling (no atomics).
__global__ void col_sums_finish_kernel(MatView partials, MatView out) {
    for (std::size_t c = blockIdx.x * blockDim.x + threadIdx.x; c < partials.cols; c += gridDim.x * blockDim.x) {
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;  // four loads in flight
        std::size_t k = 0;
        for (; k + 4 <= partials.rows; k += 4) {
            a0 += gpu::dense_row(partials, k)[c];
            a1 += gpu::dense_row(partials, k + 1)[c];
            a2 += gpu::dense_row(partials, k + 2)[c];
            a3 += gpu::dense_row(partials, k + 3)[c];
        }
        for (; k < partials.rows; ++k) a0 += gpu::dense_row(partials, k)[c];
        out.data[c] = (a0 + a1) + (a2 + a3);  // row 0 of the output, dense or pitched alike
    }
}

void launch_finish(MatView partials, MatView out, cudaStream_t stream) {
    col_sums_finish_kernel<<<gpu::blocks_for(partials.cols, kColThreads), kColThreads, 0, stream>>>(partials, out);
    COALESCE_CHECK_LAUNCH("col_sums_finish_kernel");
}

// First pass, split over row chunks: block (x, chunk) sums rows of one chunk for kColThreads
// columns, eight independent loads in flight per thread; partials[chunk][c] receives the sum.
template <bool Pitched>
__global__ void col_sums_split_rows_kernel(MatView in, MatView partials) {
    const std::size_t c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= in.cols) return;
    for (std::size_t chunk = blockIdx.y; chunk < partials.rows; chunk += gridDim.y) {
        const std::size_t r0 = chunk * kSplitRowsPerChunk;
        const std::size_t r1 = r0 + kSplitRowsPerChunk < in.rows ? r0 + kSplitRowsPerChunk : in.rows;
        float acc[kLoadsInFlight] = {};
        std::size_t r = r0;
        for (; r + kLoadsInFlight <= r1; r += kLoadsInFlight) {
#pragma unroll
            for (int k = 0; k < kLoadsInFlight; ++k) acc[k] += gpu::row_of<Pitched>(in, r + k)[c];
        }
        for (; r < r1; ++r) acc[0] += gpu::row_of<Pitched>(in, r)[c];
#pragma unroll
        for (int width = kLoadsInFlight / 2; width > 0; width /= 2) {
#pragma unroll
            for (int k = 0; k < width; ++k) acc[k] += acc[k + width];
        }
        gpu::dense_row(partials, chunk)[c] = acc[0];
    }
}

Shape split_rows_scratch(Shape in, const OpParams&) { return {chunks_of(in.rows, kSplitRowsPerChunk), in.cols}; }

template <bool Pitched>
void launch_split_rows(MatView in, MatView out, MatView partials, const OpParams&, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kColThreads), gpu::blocks_for(partials.rows, 1, gpu::kMaxGridY));
    col_sums_split_rows_kernel<Pitched><<<grid, kColThreads, 0, stream>>>(in, partials);
    COALESCE_CHECK_LAUNCH("col_sums_split_rows_kernel");
    launch_finish(partials, out, stream);
}

// First pass with a shared-memory reduction: a 32x8 block covers 32 columns of a 256-row chunk,
// each row lane sums every eighth row, and the eight lane sums of a column meet in shared memory.
__global__ void col_sums_shared_reduce_kernel(MatView in, MatView partials) {
    __shared__ float lane_sums[kRowLanes][kTileCols + 1];  // +1: the column-wise read is conflict-free
    const std::size_t c = static_cast<std::size_t>(blockIdx.x) * kTileCols + threadIdx.x;
    for (std::size_t chunk = blockIdx.y; chunk < partials.rows; chunk += gridDim.y) {
        const std::size_t r0 = chunk * kSharedRowsPerChunk;
        const std::size_t r1 = r0 + kSharedRowsPerChunk < in.rows ? r0 + kSharedRowsPerChunk : in.rows;
        float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
        if (c < in.cols) {
            std::size_t r = r0 + threadIdx.y;
            for (; r + 3 * kRowLanes < r1; r += 4 * kRowLanes) {
                a0 += gpu::dense_row(in, r)[c];
                a1 += gpu::dense_row(in, r + kRowLanes)[c];
                a2 += gpu::dense_row(in, r + 2 * kRowLanes)[c];
                a3 += gpu::dense_row(in, r + 3 * kRowLanes)[c];
            }
            for (; r < r1; r += kRowLanes) a0 += gpu::dense_row(in, r)[c];
        }
        lane_sums[threadIdx.y][threadIdx.x] = (a0 + a1) + (a2 + a3);
        __syncthreads();
        if (threadIdx.y == 0 && c < in.cols) {
            float sum = 0.0f;
#pragma unroll
            for (int lane = 0; lane < kRowLanes; ++lane) sum += lane_sums[lane][threadIdx.x];
            gpu::dense_row(partials, chunk)[c] = sum;
        }
        __syncthreads();  // lane_sums is refilled by the next chunk
    }
}

Shape shared_reduce_scratch(Shape in, const OpParams&) { return {chunks_of(in.rows, kSharedRowsPerChunk), in.cols}; }

void launch_shared_reduce(MatView in, MatView out, MatView partials, const OpParams&, cudaStream_t stream) {
    const dim3 grid(gpu::blocks_for(in.cols, kTileCols), gpu::blocks_for(partials.rows, 1, gpu::kMaxGridY));
    col_sums_shared_reduce_kernel<<<grid, dim3(kTileCols, kRowLanes), 0, stream>>>(in, partials);
    COALESCE_CHECK_LAUNCH("col_sums_shared_reduce_kernel");
    launch_finish(partials, out, stream);
}

}  // namespace

void register_col_sums(Registry& registry) {
    registry.add(gpu::make_device_variant(
        {"col_sums/global-thread-per-col", Op::col_sums, space::global,
         "One thread per column down every row: reads are coalesced, but only `cols` threads run, a few "
         "warps per SM, far too few bytes in flight to keep the memory busy. Slow.",
         Layout::dense},
        launch_thread_per_col));
    registry.add(gpu::make_device_variant(
        {"col_sums/global-split-rows", Op::col_sums, space::global,
         "Rows split into 256-row chunks over a 2-D grid (a thousand blocks, eight loads in flight per "
         "thread); a small second pass adds the chunk sums in order, deterministic. Near copy bandwidth.",
         Layout::dense},
        split_rows_scratch, launch_split_rows<false>));
    registry.add(gpu::make_device_variant(
        {"col_sums/pitched", Op::col_sums, space::pitched,
         "The split-rows scheme on cudaMallocPitch rows indexed by pitch in bytes: aligned row starts "
         "keep every warp's 128-byte read within whole sectors for any width.",
         Layout::pitched},
        split_rows_scratch, launch_split_rows<true>));
    registry.add(gpu::make_device_variant(
        {"col_sums/shared-reduce", Op::col_sums, space::shared,
         "32x8 blocks over 256-row chunks: eight row lanes per column meet in a padded shared array, "
         "then a second pass adds the chunks. Coalesced and parallel; the barriers cost a little.",
         Layout::dense},
        shared_reduce_scratch, launch_shared_reduce));
}

}  // namespace coalesce
