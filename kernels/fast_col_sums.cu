// column sums, fast: each thread owns a float4 of columns and walks a chunk of rows (a warp reads
// 512 contiguous bytes per row, eight rows in flight per thread); the eight warps of a block split
// the chunk and meet in shared memory. The grid is one wave of resident blocks (no tail). Chunks of one column strip meet in a single launch: the
// last block to finish a strip (an atomic ticket) adds the strip's partial sums in chunk order, so
// the result does not depend on which block finished last.
#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
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
__device__ __forceinline__ float vadd(float a, float b) { return a + b; }
__device__ __forceinline__ void vzero(float4& a) { a = make_float4(0, 0, 0, 0); }
__device__ __forceinline__ void vzero(float& a) { a = 0.0f; }
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
    unsigned strips = 1;       // column strips of 32 * Vec columns (one warp wide)
    unsigned chunks = 1;       // row chunks per strip
    std::size_t chunk_rows = 0;
};

// One wave: as many row chunks as fit next to the strips in the blocks the chip holds at once
// (`capacity`), so every block starts at once and none waits for a second wave; chunks are
// multiples of kWarps rows. One chunk (no partials, no ticket) when the strips alone fill the chip.
ColPlan plan_for(Shape s, int vec, std::size_t capacity) {
    ColPlan p;
    p.strips = fast::ceil_div(fast::ceil_div(s.cols, vec), 32);
    const std::size_t max_chunks = std::max<std::size_t>(1, (s.rows + kWarps - 1) / kWarps);
    const std::size_t chunks = std::clamp<std::size_t>(capacity / p.strips, 1, max_chunks);
    std::size_t rows = (s.rows + chunks - 1) / chunks;
    rows = (rows + kWarps - 1) / kWarps * kWarps;
    p.chunk_rows = rows;
    p.chunks = fast::ceil_div(s.rows, rows);
    return p;
}

// Vec = 4 needs 16-byte aligned rows; Vec = 1 serves any layout (a warp then reads 128 bytes per row).
template <int Vec>
__global__ void __launch_bounds__(kThreads) fast_col_sums_kernel(MatView in, MatView out, float* partials,
                                                                 unsigned* tickets, unsigned strips,
                                                                 std::size_t chunk_rows) {
    using V = typename VecOf<Vec>::type;
    __shared__ V part[kWarps][32];
    __shared__ bool last;
    const unsigned strip = blockIdx.x % strips, chunk = blockIdx.x / strips;
    const unsigned chunks = gridDim.x / strips;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const std::size_t col = (static_cast<std::size_t>(strip) * 32 + lane) * Vec;
    const bool has_col = col < in.cols;  // Vec = 4 only runs when cols % 4 == 0
    const std::size_t r_begin = static_cast<std::size_t>(chunk) * chunk_rows;
    const std::size_t r_end = r_begin + chunk_rows < in.rows ? r_begin + chunk_rows : in.rows;

    V acc;
    vzero(acc);
    if (has_col) {
        // Every batch issues its kUnroll loads together, the last one guarded (adding the zeros
        // of rows past the chunk changes no sum): no serial remainder of full-latency loads.
        for (std::size_t r = r_begin + warp; r < r_end; r += kUnroll * kWarps) {
            V v[kUnroll];
#pragma unroll
            for (int k = 0; k < kUnroll; ++k) {
                const std::size_t rr = r + k * kWarps;
                if (rr < r_end) v[k] = vload<Vec>(fast::row_ptr(in, rr) + col); else vzero(v[k]);
            }
#pragma unroll
            for (int k = 0; k < kUnroll; ++k) acc = vadd(acc, v[k]);
        }
    }
    part[warp][lane] = acc;
    __syncthreads();
    if (warp != 0) return;
    V sum = part[0][lane];
#pragma unroll
    for (int w = 1; w < kWarps; ++w) sum = vadd(sum, part[w][lane]);
    if (chunks == 1) {
        if (has_col) vstore<Vec>(fast::row_ptr(out, 0) + col, sum);
        return;
    }
    // Publish this chunk's partial, then take a ticket; the last of the strip's chunks finishes it.
    if (has_col) vstore<Vec>(partials + static_cast<std::size_t>(chunk) * in.cols + col, sum);
    __threadfence();
    __syncwarp();
    if (lane == 0) last = atomicAdd(&tickets[strip], 1u) == chunks - 1;
    __syncwarp();
    if (!last) return;
    __threadfence();
    if (has_col) {
        V total = vload_l2<Vec>(partials + col);
        for (unsigned k = 1; k < chunks; ++k)
            total = vadd(total, vload_l2<Vec>(partials + static_cast<std::size_t>(k) * in.cols + col));
        vstore<Vec>(fast::row_ptr(out, 0) + col, total);
    }
    if (lane == 0) tickets[strip] = 0;  // ready for the next launch (launches on one stream are ordered)
}

class FastColSumsInstance final : public Instance {
public:
    explicit FastColSumsInstance(Shape shape) : shape_(shape) {}

    void upload(const Matrix& input) override {
        if (input.shape() != shape_) throw std::invalid_argument("upload: input shape differs from the instance's shape");
        in_ = DeviceMatrix(shape_, DeviceMatrix::Layout::dense);
        out_ = DeviceMatrix(output_shape(Op::col_sums, shape_), DeviceMatrix::Layout::dense);
        in_.upload(input);
        vec_ = fast::rows_are_16b_aligned(in_.view()) && fast::rows_are_16b_aligned(out_.view());
        int device = 0, sms = 0, per_sm = 0;
        COALESCE_CUDA(cudaGetDevice(&device));
        COALESCE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        if (vec_)
            COALESCE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fast_col_sums_kernel<4>, kThreads, 0));
        else
            COALESCE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fast_col_sums_kernel<1>, kThreads, 0));
        plan_ = plan_for(shape_, vec_ ? 4 : 1, static_cast<std::size_t>(std::max(1, sms * per_sm)));
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
        if (vec_)
            fast_col_sums_kernel<4><<<blocks, kThreads, 0, stream>>>(in_.view(), out_.view(), partials, tickets,
                                                                     plan_.strips, plan_.chunk_rows);
        else
            fast_col_sums_kernel<1><<<blocks, kThreads, 0, stream>>>(in_.view(), out_.view(), partials, tickets,
                                                                     plan_.strips, plan_.chunk_rows);
        COALESCE_CHECK_LAUNCH("fast_col_sums_kernel");
    }

    Matrix download() override {
        COALESCE_CUDA(cudaDeviceSynchronize());
        return out_.download();
    }

private:
    Shape shape_;
    DeviceMatrix in_, out_;
    DeviceBuffer partials_, tickets_;
    ColPlan plan_;
    bool vec_ = false;
};

}  // namespace

void register_fast_col_sums(Registry& registry) {
    Variant v;
    v.info.id = "col_sums/fast-strip-float4";
    v.info.op = Op::col_sums;
    v.info.memory_space = space::global;
    v.info.description =
        "a thread per float4 of columns walks a chunk of rows, 8 loads in flight; warps meet in shared "
        "memory, chunks in one launch through a last-block ticket (deterministic order)";
    v.info.gpu = true;
    v.make = [](Shape input, const OpParams& params) -> std::unique_ptr<Instance> {
        gpu::check_device_args(Op::col_sums, input, params);
        return std::make_unique<FastColSumsInstance>(input);
    };
    registry.add(std::move(v));
}

}  // namespace coalesce
