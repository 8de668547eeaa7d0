// column sums, fast: each thread owns a float4 of columns and walks a chunk of rows (a warp reads
// 512 contiguous bytes per row, eight rows per batch as written; ptxas keeps three or four of the
// loads in flight); the eight warps of a block split the chunk and meet in shared memory. The grid
// is one wave of resident blocks (no tail). Chunks of one column strip meet in a single launch:
// the last block to finish a strip (an atomic ticket) adds the strip's partial sums, its eight
// warps each a fixed subset of the chunks in chunk order, then in warp order, so the result does
// not depend on which block finished last.
#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kUnroll = 8;                        // rows in flight per thread

template <int Vec> struct VecOf;
template <> struct VecOf<4> { using type = float4; };
template <> struct VecOf<1> { using type = float; };

__device__ __forceinline__ float4 vadd(float4 a, float4 b) { return fast::add4(a, b); }
__device__ __forceinline__ void vzero(float4& a) { a = make_float4(0, 0, 0, 0); }
template <int Vec>
__device__ __forceinline__ typename VecOf<Vec>::type vload(const float* p) {
    if constexpr (Vec == 4) return fast::load4(p); else return fast::load1(p);
}
// Partials of other blocks are read through L2 (ld.global.cg): L1 is not coherent between blocks.
template <int Vec>
__device__ __forceinline__ typename VecOf<Vec>::type vload_l2(const float* p) {
    if constexpr (Vec == 4) return __ldcg(reinterpret_cast<const float4*>(p)); else return __ldcg(p);
}
template <int Vec>
__device__ __forceinline__ void vstore(float* p, typename VecOf<Vec>::type v) {
    if constexpr (Vec == 4) fast::store4(p, v); else *p = v;
}

struct ColPlan {
    unsigned strips = 1;       // column strips of 32 * Vec * Wide columns (one warp wide)
    unsigned chunks = 1;       // row chunks per strip
    std::size_t chunk_rows = 0;
};

// One wave: as many row chunks as fit next to the strips in the blocks the chip holds at once
// (`capacity`), so every block starts at once and none waits for a second wave; chunks are
// multiples of kWarps rows. One chunk (no partials, no ticket) when the strips alone fill the chip.
ColPlan plan_for(Shape s, int vec, int wide, std::size_t capacity) {
    ColPlan p;
    p.strips = gpu::ceil_div(gpu::ceil_div(s.cols, vec), 32 * static_cast<std::size_t>(wide));
    const std::size_t max_chunks = std::max<std::size_t>(1, (s.rows + kWarps - 1) / kWarps);
    const std::size_t chunks = std::clamp<std::size_t>(capacity / p.strips, 1, max_chunks);
    std::size_t rows = (s.rows + chunks - 1) / chunks;
    rows = (rows + kWarps - 1) / kWarps * kWarps;
    p.chunk_rows = rows;
    p.chunks = gpu::ceil_div(s.rows, rows);
    return p;
}

// Vec = 4 needs 16-byte aligned rows; Vec = 1 serves any layout (a warp then reads 128 bytes per row).
// Wide: vectors per lane and row, lanes contiguous per instruction (Wide = 2: a warp reads 1 KiB of
// a row in two 512-byte instructions); 8 / Wide rows in flight, so 8 loads per thread either way.
template <int Vec, int Wide>
__device__ __forceinline__ void col_sums_body(MatView in, MatView out, float* partials, unsigned* tickets,
                                              unsigned strips, std::size_t chunk_rows) {
    using V = typename VecOf<Vec>::type;
    constexpr int kRows = kUnroll / Wide;  // rows in flight per thread
    __shared__ V part[kWarps][32 * Wide];
    __shared__ bool last;
    const unsigned strip = blockIdx.x % strips, chunk = blockIdx.x / strips;
    const unsigned chunks = gridDim.x / strips;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    std::size_t col[Wide];
    bool has_col[Wide];
#pragma unroll
    for (int w = 0; w < Wide; ++w) {
        col[w] = (static_cast<std::size_t>(strip) * 32 * Wide + 32 * w + lane) * Vec;
        has_col[w] = col[w] < in.cols;  // Vec = 4 only runs when cols % 4 == 0
    }
    const std::size_t r_begin = static_cast<std::size_t>(chunk) * chunk_rows;
    const std::size_t r_end = r_begin + chunk_rows < in.rows ? r_begin + chunk_rows : in.rows;

    V acc[Wide];
#pragma unroll
    for (int w = 0; w < Wide; ++w) vzero(acc[w]);
    if (has_col[0]) {
        // A lane's second vector past the matrix (the last strip, Wide = 2) re-reads its first:
        // the loads stay unconditional, and that sum is never stored.
        const float* base[Wide];
#pragma unroll
        for (int w = 0; w < Wide; ++w) base[w] = in.data + (has_col[w] ? col[w] : col[0]);
        const auto at = [&](std::size_t rr, int w) {
            return reinterpret_cast<const float*>(reinterpret_cast<const char*>(base[w]) + rr * in.pitch_bytes);
        };
        // Full batches unguarded, so all kRows * Wide loads are issued before the first add; then
        // one guarded batch (zeros past the chunk change no sum): no serial remainder of
        // full-latency loads.
        std::size_t r = r_begin + warp;
        for (; r + (kRows - 1) * kWarps < r_end; r += kRows * kWarps) {
            V v[kRows][Wide];
#pragma unroll
            for (int k = 0; k < kRows; ++k)
#pragma unroll
                for (int w = 0; w < Wide; ++w) v[k][w] = vload<Vec>(at(r + k * kWarps, w));
#pragma unroll
            for (int k = 0; k < kRows; ++k)
#pragma unroll
                for (int w = 0; w < Wide; ++w) acc[w] = vadd(acc[w], v[k][w]);
        }
        if (r < r_end) {
            V v[kRows][Wide];
#pragma unroll
            for (int k = 0; k < kRows; ++k)
#pragma unroll
                for (int w = 0; w < Wide; ++w) {
                    if (r + k * kWarps < r_end) v[k][w] = vload<Vec>(at(r + k * kWarps, w)); else vzero(v[k][w]);
                }
#pragma unroll
            for (int k = 0; k < kRows; ++k)
#pragma unroll
                for (int w = 0; w < Wide; ++w) acc[w] = vadd(acc[w], v[k][w]);
        }
    }
#pragma unroll
    for (int w = 0; w < Wide; ++w) part[warp][32 * w + lane] = acc[w];
    __syncthreads();
    // Warp 0 adds the eight warps' sums (fixed order) and, with several chunks, publishes them and
    // takes the strip's ticket; the other warps wait at the barrier below, since the last block
    // of a strip uses all eight for the final sum.
    if (warp == 0) {
#pragma unroll
        for (int w = 0; w < Wide; ++w) {
            V sum = part[0][32 * w + lane];
#pragma unroll
            for (int k = 1; k < kWarps; ++k) sum = vadd(sum, part[k][32 * w + lane]);
            if (!has_col[w]) continue;
            if (chunks == 1) vstore<Vec>(gpu::pitched_row(out, 0) + col[w], sum);
            else vstore<Vec>(partials + static_cast<std::size_t>(chunk) * in.cols + col[w], sum);
        }
        if (chunks > 1) {
            __threadfence();
            __syncwarp();
            if (lane == 0) last = atomicAdd(&tickets[strip], 1u) == chunks - 1;
            __syncwarp();
        }
    }
    if (chunks == 1) return;  // uniform across the block
    __syncthreads();
    if (!last) return;  // uniform across the block
    __threadfence();
    // The last block: warp k adds chunks k, k + 8, k + 16, ... in order, then warp 0 adds the
    // eight results in warp order. The order depends only on the chunk count: deterministic, and
    // about chunks / 8 dependent L2 loads instead of chunks.
#pragma unroll
    for (int w = 0; w < Wide; ++w) {
        V total;
        vzero(total);
        if (has_col[w])
            for (unsigned k = warp; k < chunks; k += kWarps)
                total = vadd(total, vload_l2<Vec>(partials + static_cast<std::size_t>(k) * in.cols + col[w]));
        part[warp][32 * w + lane] = total;
    }
    __syncthreads();
    if (warp != 0) return;
#pragma unroll
    for (int w = 0; w < Wide; ++w) {
        V total = part[0][32 * w + lane];
#pragma unroll
        for (int k = 1; k < kWarps; ++k) total = vadd(total, part[k][32 * w + lane]);
        if (has_col[w]) vstore<Vec>(gpu::pitched_row(out, 0) + col[w], total);
    }
    if (lane == 0) tickets[strip] = 0;  // ready for the next launch (launches on one stream are ordered)
}

template <int Vec, int Wide>
__global__ void __launch_bounds__(kThreads) fast_col_sums_kernel(MatView in, MatView out, float* partials,
                                                                 unsigned* tickets, unsigned strips,
                                                                 std::size_t chunk_rows) {
    col_sums_body<Vec, Wide>(in, out, partials, tickets, strips, chunk_rows);
}

// Registers capped at 32: eight blocks per multiprocessor instead of six (a separate kernel, since
// __launch_bounds__(256, 1) is not the same as none to ptxas).
__global__ void __launch_bounds__(kThreads, 8) fast_col_sums_occ8_kernel(MatView in, MatView out, float* partials,
                                                                         unsigned* tickets, unsigned strips,
                                                                         std::size_t chunk_rows) {
    col_sums_body<4, 1>(in, out, partials, tickets, strips, chunk_rows);
}

// One kernel per variant: Occ8 picks the capped one. Rows must be 16-byte aligned and hold whole
// float4 (the partials are dense, cols floats per chunk): cols % 4 == 0 on either layout.
template <bool Occ8>
class FastColSumsInstance final : public Instance {
public:
    FastColSumsInstance(Shape shape, DeviceMatrix::Layout layout) : shape_(shape), layout_(layout) {}

    void upload(const Matrix& input) override {
        if (input.shape() != shape_) throw std::invalid_argument("upload: input shape differs from the instance's shape");
        in_ = DeviceMatrix(shape_, layout_);
        out_ = DeviceMatrix(output_shape(Op::col_sums, shape_), layout_);
        in_.upload(input);
        if (!fast::rows_are_16b_aligned(in_.view()) || !fast::rows_are_16b_aligned(out_.view()) || shape_.cols % 4 != 0)
            throw Unsupported("the float4 strips need 16-byte aligned rows of whole float4");
        int device = 0, sms = 0, per_sm = 0;
        COALESCE_CUDA(cudaGetDevice(&device));
        COALESCE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        if constexpr (Occ8)
            COALESCE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fast_col_sums_occ8_kernel, kThreads, 0));
        else
            COALESCE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fast_col_sums_kernel<4, 1>, kThreads, 0));
        plan_ = plan_for(shape_, 4, 1, static_cast<std::size_t>(std::max(1, sms * per_sm)));
        if (plan_.chunks > 1) {
            partials_ = DeviceBuffer(static_cast<std::size_t>(plan_.chunks) * shape_.cols * sizeof(float));
            tickets_ = DeviceBuffer(plan_.strips * sizeof(unsigned));
            COALESCE_CUDA(cudaMemset(tickets_.get(), 0, tickets_.bytes()));
        }
        COALESCE_CUDA(cudaDeviceSynchronize());  // the runner's stream does not wait for the default stream
    }

    void poison() override {
        out_.fill_nan();
        COALESCE_CUDA(cudaDeviceSynchronize());
    }

    void launch(cudaStream_t stream) override {
        const unsigned blocks = plan_.strips * plan_.chunks;
        auto* partials = static_cast<float*>(partials_.get());
        auto* tickets = static_cast<unsigned*>(tickets_.get());
        if constexpr (Occ8)
            fast_col_sums_occ8_kernel<<<blocks, kThreads, 0, stream>>>(in_.view(), out_.view(), partials, tickets,
                                                                       plan_.strips, plan_.chunk_rows);
        else
            fast_col_sums_kernel<4, 1><<<blocks, kThreads, 0, stream>>>(in_.view(), out_.view(), partials, tickets,
                                                                        plan_.strips, plan_.chunk_rows);
        COALESCE_CHECK_LAUNCH("fast_col_sums_kernel");
    }

    Matrix download() override {
        COALESCE_CUDA(cudaDeviceSynchronize());
        return out_.download();
    }

private:
    Shape shape_;
    DeviceMatrix::Layout layout_;
    DeviceMatrix in_, out_;
    DeviceBuffer partials_, tickets_;
    ColPlan plan_;
};

template <bool Occ8, DeviceMatrix::Layout Layout = DeviceMatrix::Layout::dense>
Variant make_col_sums_variant(const char* id, const char* description, const char* kernel) {
    Variant v;
    v.info.id = id;
    v.info.op = Op::col_sums;
    v.info.memory_space = Layout == DeviceMatrix::Layout::pitched ? space::pitched : space::global;
    v.info.description = description;
    v.info.gpu = true;
    v.info.tier = Tier::tuned;
    v.info.kernel = kernel;
    v.info.limits.cols_multiple = 4;
    v.make = [](Shape input, const OpParams&) -> std::unique_ptr<Instance> {
        return std::make_unique<FastColSumsInstance<Occ8>>(input, Layout);
    };
    return fast::refusing_unsupported(std::move(v));
}

}  // namespace

void register_fast_col_sums(Registry& registry) {
    registry.add(make_col_sums_variant<false>(
        "col_sums/fast-strip-float4",
        "a thread per float4 of columns walks a chunk of rows, 8 loads in flight; warps meet in "
        "shared memory, chunks in one launch through a last-block ticket (deterministic order, all "
        "eight warps of the last block add the partials); columns a multiple of 4",
        "fast_col_sums_kernel<4, 1>"));
    registry.add(make_col_sums_variant<true>(
        "col_sums/fast-strip-occ8",
        "col_sums/fast-strip-float4 with registers capped at 32 (no spill): eight blocks per "
        "multiprocessor instead of six, a wave of 1056 blocks",
        "fast_col_sums_occ8_kernel"));
    registry.add(make_col_sums_variant<false, DeviceMatrix::Layout::pitched>(
        "col_sums/fast-strip-pitched",
        "col_sums/fast-strip-float4 on cudaMallocPitch rows: every row starts on a 512-byte "
        "boundary (dense 6000-column rows start 64 bytes into a 128-byte line on every other row)",
        "fast_col_sums_kernel<4, 1>"));
}

}  // namespace coalesce
