// Row and column sums of u8 and u16 images, tuned: exact integer sums (uint32 or uint64 per
// sum_width, as the typed reference) at the bandwidth of a read of the image.
//
// Row sums: a warp per row (a block per row when rows are too few to fill the chip) reads the row
// in 16-byte loads, four in flight per lane, and reduces each load with integer SIMD dot products
// (__dp4a against 0x01010101 adds four bytes, __dp2a_lo against 0x0101 two u16 halves): one
// instruction per 32-bit word. A row that starts off a 16-byte boundary (dense rows of any width)
// has its head elements and its tail peeled, one element per lane, so every row runs the vector
// loop. The grid is one wave of resident blocks walking the rows.
//
// Column sums: each thread owns 16 bytes of columns (16 u8 or 8 u16 columns) as uint32
// accumulators and walks a chunk of rows with eight 16-byte loads in flight; the eight warps of a
// block split the chunk and meet in shared memory. Chunks of one column strip meet in the same
// launch: each block writes its chunk's uint32 sums once, the last block of the strip (an atomic
// ticket) adds them in the output's type and writes each output once, so no zeroing is needed
// inside the timed launch. Integer addition is associative: the result does not depend on which
// block is last. Rows that do not all start on 16 bytes (dense rows whose bytes are not a multiple
// of 16) take the same kernel with one element per thread: exact, slower.
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/typed_run.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>

namespace coalesce {
namespace {

using gpu::Layout;
using gpu::RawView;

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRowUnroll = 4;  // 16-byte loads in flight per lane (row sums)
constexpr int kColUnroll = 8;  // rows in flight per thread (column sums)

__device__ __forceinline__ uint4 load16(const unsigned char* p) {
    return __ldg(reinterpret_cast<const uint4*>(p));
}

// The sum of the 16 / sizeof(T) elements of a 16-byte vector plus s, exactly (at most 16 * 255 or
// 8 * 65535 per vector, far below 2^32 for the few vectors summed before widening).
__device__ __forceinline__ unsigned add_vec(unsigned s, uint4 v, std::uint8_t) {
    s = __dp4a(v.x, 0x01010101u, s);
    s = __dp4a(v.y, 0x01010101u, s);
    s = __dp4a(v.z, 0x01010101u, s);
    return __dp4a(v.w, 0x01010101u, s);
}
__device__ __forceinline__ unsigned add_vec(unsigned s, uint4 v, std::uint16_t) {
    s = __dp2a_lo(v.x, 0x0101u, s);
    s = __dp2a_lo(v.y, 0x0101u, s);
    s = __dp2a_lo(v.z, 0x0101u, s);
    return __dp2a_lo(v.w, 0x0101u, s);
}

// ---- Row sums -----------------------------------------------------------------------------------

// Thread t of a team of `team` threads (>= 32, so more than the elements of a vector) sums its
// share of a row of `cols` elements starting at `row` (on a multiple of sizeof(T), at any 16-byte
// phase): the head up to the first 16-byte boundary and the tail after the last one element by
// element, the vectors between in batches of kRowUnroll loads issued before their adds. Each
// batch is summed in 32 bits and widened into Acc, so uint64 rows of any length stay exact.
template <class T, class Acc>
__device__ __forceinline__ Acc row_share(const unsigned char* row, unsigned long long cols,
                                         unsigned t, unsigned team) {
    constexpr unsigned kPerVec = 16 / sizeof(T);
    const T* elems = reinterpret_cast<const T*>(row);
    const unsigned misalign = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(row) & 15);
    const unsigned long long head =
        min(static_cast<unsigned long long>(((16 - misalign) & 15) / sizeof(T)), cols);
    const unsigned long long nvec = (cols - head) / kPerVec;
    const unsigned char* vecs = row + head * sizeof(T);  // on a 16-byte boundary
    Acc sum = t < head ? static_cast<Acc>(elems[t]) : Acc{0};
    unsigned long long i = t;
    for (; i + (kRowUnroll - 1) * static_cast<unsigned long long>(team) < nvec;
         i += kRowUnroll * team) {
        uint4 v[kRowUnroll];
#pragma unroll
        for (int k = 0; k < kRowUnroll; ++k) v[k] = load16(vecs + (i + k * team) * 16);
        unsigned s = 0;
#pragma unroll
        for (int k = 0; k < kRowUnroll; ++k) s = add_vec(s, v[k], T{});
        sum += s;
    }
    if (i < nvec) {  // the last, partial batch: guarded loads, still all issued before the adds
        uint4 v[kRowUnroll];
#pragma unroll
        for (int k = 0; k < kRowUnroll; ++k)
            v[k] =
                i + k * team < nvec ? load16(vecs + (i + k * team) * 16) : make_uint4(0, 0, 0, 0);
        unsigned s = 0;
#pragma unroll
        for (int k = 0; k < kRowUnroll; ++k) s = add_vec(s, v[k], T{});
        sum += s;
    }
    const unsigned long long done = head + nvec * kPerVec;  // the tail: fewer than kPerVec
    if (done + t < cols) sum += elems[done + t];
    return sum;
}

template <class Acc>
__device__ __forceinline__ Acc warp_total(Acc s) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
    return s;  // in lane 0
}

template <class Acc>
__device__ __forceinline__ void store_row_sum(RawView out, unsigned long long r, Acc s) {
    *reinterpret_cast<Acc*>(static_cast<unsigned char*>(out.data) + r * out.pitch_bytes) = s;
}

// A warp per row; the grid's warps walk the rows (one wave, so each warp usually takes one row).
template <class T, class Acc>
__global__ void __launch_bounds__(kThreads) typed_row_sums_warp_kernel(RawView in, RawView out) {
    const unsigned lane = threadIdx.x & 31;
    const unsigned long long warps = static_cast<unsigned long long>(gridDim.x) * kWarps;
    for (unsigned long long r =
             (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
         r < in.rows; r += warps) {
        const auto* row = static_cast<const unsigned char*>(in.data) + r * in.pitch_bytes;
        const Acc s = warp_total(row_share<T, Acc>(row, in.cols, lane, 32));
        if (lane == 0) store_row_sum(out, r, s);
    }
}

// A block per row, for few long rows: the eight warps' totals meet in shared memory.
template <class T, class Acc>
__global__ void __launch_bounds__(kThreads) typed_row_sums_block_kernel(RawView in, RawView out) {
    __shared__ Acc part[kWarps];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (unsigned long long r = blockIdx.x; r < in.rows; r += gridDim.x) {
        const auto* row = static_cast<const unsigned char*>(in.data) + r * in.pitch_bytes;
        const Acc s = warp_total(row_share<T, Acc>(row, in.cols, threadIdx.x, kThreads));
        if (lane == 0) part[warp] = s;
        __syncthreads();
        if (threadIdx.x == 0) {
            Acc total = part[0];
#pragma unroll
            for (int k = 1; k < kWarps; ++k) total += part[k];
            store_row_sum(out, r, total);
        }
        __syncthreads();  // part is rewritten for the next row
    }
}

template <class T, class Acc>
void launch_row_sums(RawView in, RawView out, cudaStream_t stream) {
    auto warp_kernel = typed_row_sums_warp_kernel<T, Acc>;
    auto block_kernel = typed_row_sums_block_kernel<T, Acc>;
    const std::size_t resident = fast::resident_blocks(warp_kernel, kThreads, 0, 0);
    // A warp per row while the rows fill at least a quarter of the chip's warps or are short (a
    // block would leave most lanes idle); otherwise a block per row.
    const bool per_warp = in.rows * 4 >= resident * kWarps || in.cols * sizeof(T) <= 2048;
    if (per_warp) {
        const std::size_t blocks = std::min(resident, (in.rows + kWarps - 1) / kWarps);
        warp_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, out);
        COALESCE_CHECK_LAUNCH("typed_row_sums_warp_kernel");
    } else {
        const std::size_t blocks =
            std::min(fast::resident_blocks(block_kernel, kThreads, 0, 0), in.rows);
        block_kernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(in, out);
        COALESCE_CHECK_LAUNCH("typed_row_sums_block_kernel");
    }
}

void typed_row_sums(ElemType type, RawView in, RawView out, RawView, const OpParams&,
                    cudaStream_t stream) {
    gpu::with_sum_types("row_sums", type, in.cols, [&](auto element, auto sum) {
        launch_row_sums<decltype(element), decltype(sum)>(in, out, stream);
    });
}

// ---- Column sums --------------------------------------------------------------------------------

// Rows per chunk at most: a chunk's uint32 column sums stay exact (65536 * 65535 < 2^32).
constexpr unsigned kMaxChunkRows = 65536;

struct ColPlan {
    unsigned strips = 1;             // column strips of strip_cols, one warp wide
    unsigned chunks = 1;             // row chunks per strip
    unsigned chunk_rows = kWarps;    // a multiple of kWarps, at most kMaxChunkRows
    unsigned strip_cols = 32;        // 32 threads x columns per thread
    std::size_t partial_stride = 0;  // uint32 per chunk of partial sums: strips * strip_cols
};

// One wave: as many row chunks as fit next to the strips in the blocks the chip holds at once
// (`capacity`), so every block starts at once. One chunk (no partials, no ticket) when the strips
// alone fill the chip, unless the rows exceed kMaxChunkRows.
ColPlan col_plan(Shape s, unsigned cols_per_thread, std::size_t capacity) {
    ColPlan p;
    p.strip_cols = 32 * cols_per_thread;
    p.strips = static_cast<unsigned>((s.cols + p.strip_cols - 1) / p.strip_cols);
    p.partial_stride = static_cast<std::size_t>(p.strips) * p.strip_cols;
    const std::size_t max_chunks = (s.rows + kWarps - 1) / kWarps;
    const std::size_t chunks = std::clamp<std::size_t>(capacity / p.strips, 1, max_chunks);
    std::size_t rows = (s.rows + chunks - 1) / chunks;
    rows = std::min<std::size_t>((rows + kWarps - 1) / kWarps * kWarps, kMaxChunkRows);
    p.chunk_rows = static_cast<unsigned>(rows);
    p.chunks = static_cast<unsigned>((s.rows + rows - 1) / rows);
    return p;
}

// Adds the rows of a batch, loaded first so that all kColUnroll loads are in flight together.
template <class T, int V>
__device__ __forceinline__ void accumulate_batch(unsigned (&acc)[V], const unsigned char* p,
                                                 std::size_t step, unsigned valid) {
    if constexpr (V == 1) {
        T v[kColUnroll];
#pragma unroll
        for (int k = 0; k < kColUnroll; ++k)
            v[k] = k < static_cast<int>(valid) ? __ldg(reinterpret_cast<const T*>(p + k * step))
                                               : T{0};
#pragma unroll
        for (int k = 0; k < kColUnroll; ++k) acc[0] += v[k];
    } else {
        uint4 v[kColUnroll];
#pragma unroll
        for (int k = 0; k < kColUnroll; ++k)
            v[k] = k < static_cast<int>(valid) ? load16(p + k * step) : make_uint4(0, 0, 0, 0);
        constexpr int kPerWord = V / 4;
        constexpr unsigned kMask = (1u << (8 * sizeof(T))) - 1;
#pragma unroll
        for (int k = 0; k < kColUnroll; ++k) {
            const unsigned w[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
            for (int q = 0; q < 4; ++q)
#pragma unroll
                for (int e = 0; e < kPerWord; ++e)
                    acc[q * kPerWord + e] += (w[q] >> (e * 8 * sizeof(T))) & kMask;
        }
    }
}

// Block (strip, chunk): thread `lane` of warp w owns columns strip * strip_cols + lane * V ..
// + V - 1 and rows r_begin + w, + 8, + 16, ... of the chunk. V == 16 / sizeof(T) needs every row
// to start on 16 bytes (its vector may reach past the last column into the row's padding, whose
// sums are never stored); V == 1 reads any layout.
template <class T, int V, class Acc>
__global__ void __launch_bounds__(kThreads)
    typed_col_sums_kernel(RawView in, Acc* __restrict__ out, unsigned* __restrict__ partials,
                          unsigned* __restrict__ tickets, ColPlan plan) {
    __shared__ unsigned part[kWarps][32 * V];
    __shared__ bool last;
    const unsigned strip = blockIdx.x % plan.strips, chunk = blockIdx.x / plan.strips;
    const unsigned chunks = plan.chunks;
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const unsigned long long cols = in.cols;
    const unsigned long long strip_col = static_cast<unsigned long long>(strip) * plan.strip_cols;
    const unsigned long long col = strip_col + lane * V;
    const unsigned rows = static_cast<unsigned>(in.rows);
    const unsigned r_begin = chunk * plan.chunk_rows;
    const unsigned r_end = min(r_begin + plan.chunk_rows, rows);

    unsigned acc[V];
#pragma unroll
    for (int e = 0; e < V; ++e) acc[e] = 0;
    unsigned r = r_begin + warp;
    if (col < cols && r < r_end) {
        const std::size_t step = kWarps * in.pitch_bytes;
        const unsigned char* p = static_cast<const unsigned char*>(in.data) +
                                 r * static_cast<std::size_t>(in.pitch_bytes) + col * sizeof(T);
        for (; r + (kColUnroll - 1) * kWarps < r_end; r += kColUnroll * kWarps) {
            accumulate_batch<T, V>(acc, p, step, kColUnroll);
            p += kColUnroll * step;
        }
        if (r < r_end) accumulate_batch<T, V>(acc, p, step, (r_end - r + kWarps - 1) / kWarps);
    }
#pragma unroll
    for (int e = 0; e < V; ++e) part[warp][lane * V + e] = acc[e];
    __syncthreads();

    // The eight warps' sums per column (uint32: a chunk has at most kMaxChunkRows rows), written
    // once: the output itself with one chunk, else this chunk's row of partial sums.
    for (unsigned c = threadIdx.x; c < 32 * V; c += kThreads) {
        unsigned s = part[0][c];
#pragma unroll
        for (int k = 1; k < kWarps; ++k) s += part[k][c];
        if (strip_col + c < cols) {
            if (chunks == 1)
                out[strip_col + c] = s;
            else
                partials[static_cast<std::size_t>(chunk) * plan.partial_stride + strip_col + c] = s;
        }
    }
    if (chunks == 1) return;  // uniform across the grid
    __threadfence();          // this thread's partials, before the ticket below
    __syncthreads();
    if (threadIdx.x == 0) last = atomicAdd(&tickets[strip], 1u) == chunks - 1;
    __syncthreads();
    if (!last) return;  // uniform across the block
    __threadfence();
    // The last block of the strip adds the chunks' sums in Acc, read through L2 (L1 is not
    // coherent between blocks) as uint4s of columns: the strip's kVecs uint4s per chunk, and
    // kGroups threads per uint4 taking every kGroups-th chunk, so each thread has a few
    // independent loads rather than one dependent chain over all chunks. The groups then meet in
    // shared memory in group order.
    constexpr unsigned kVecs = 32 * V / 4;
    constexpr unsigned kGroups = kThreads / kVecs;
    __shared__ Acc by_group[kGroups][32 * V];
    {
        const unsigned vec = threadIdx.x % kVecs, group = threadIdx.x / kVecs;
        const unsigned* q = partials + strip_col + 4 * vec;
        Acc t[4] = {0, 0, 0, 0};
#pragma unroll 8
        for (unsigned k = group; k < chunks; k += kGroups) {
            const uint4 v = __ldcg(reinterpret_cast<const uint4*>(q + k * plan.partial_stride));
            t[0] += v.x;
            t[1] += v.y;
            t[2] += v.z;
            t[3] += v.w;
        }
#pragma unroll
        for (int e = 0; e < 4; ++e) by_group[group][4 * vec + e] = t[e];
    }
    __syncthreads();
    for (unsigned c = threadIdx.x; c < 32 * V && strip_col + c < cols; c += kThreads) {
        Acc total = by_group[0][c];
#pragma unroll
        for (unsigned g = 1; g < kGroups; ++g) total += by_group[g][c];
        out[strip_col + c] = total;
    }
    if (threadIdx.x == 0) tickets[strip] = 0;  // ready for the next launch on this stream
}

// The kernel for an element type, an output type and whether rows start on 16 bytes.
template <class T, class Acc, bool Vector>
auto col_sums_kernel() {
    return typed_col_sums_kernel < T, Vector ? static_cast<int>(16 / sizeof(T)) : 1, Acc > ;
}

// Calls f(T{}, Acc{}, bool_constant<Vector>) for a run's element type, output size and rows.
template <class F>
void with_col_types(ElemType type, std::size_t out_bytes, bool vector, F&& f) {
    gpu::with_integer_type(type, [&](auto element) {
        const auto with_acc = [&](auto acc) {
            if (vector)
                f(element, acc, std::true_type{});
            else
                f(element, acc, std::false_type{});
        };
        if (out_bytes == 8)
            with_acc(std::uint64_t{});
        else
            with_acc(std::uint32_t{});
    });
}

// The empty host image of a column-sums output of `out_bytes` elements.
AnyImage sums_image(std::size_t out_bytes, Shape shape) {
    if (out_bytes == 8) return TypedImage<std::uint64_t>(shape.rows, shape.cols, 1);
    return TypedImage<std::uint32_t>(shape.rows, shape.cols, 1);
}

// An instance of its own rather than make_typed_device_variant: the chunks' partial sums and the
// strips' tickets are sized by the plan, and the tickets must start at zero (set at upload, then
// each launch's last blocks reset them).
class TypedColSumsInstance final : public Instance {
public:
    TypedColSumsInstance(Shape shape, Layout layout) : shape_(shape), layout_(layout) {}

    void upload(const Matrix&) override { throw std::logic_error(kF32); }
    void poison() override { throw std::logic_error(kF32); }
    Matrix download() override { throw std::logic_error(kF32); }

    void upload_typed(const AnyImage& input) override {
        if (typed::shape_of(input) != shape_)
            throw std::invalid_argument("upload: input shape differs from the instance's shape");
        if (std::holds_alternative<TypedImage<std::uint8_t>>(input))
            type_ = ElemType::u8;
        else if (std::holds_alternative<TypedImage<std::uint16_t>>(input))
            type_ = ElemType::u16;
        else
            throw std::invalid_argument("upload_typed: this variant takes u8 and u16");
        out_bytes_ = typed::output_elem_size(Op::col_sums, type_, shape_);
        in_ = DeviceImage(shape_, elem_size(type_), layout_);
        out_ = DeviceImage(output_shape(Op::col_sums, shape_), out_bytes_, layout_);
        std::visit([&](const auto& image) { in_.upload(image.data()); }, input);
        vector_ =
            reinterpret_cast<std::uintptr_t>(in_.data()) % 16 == 0 && in_.pitch_bytes() % 16 == 0;
        with_col_types(type_, out_bytes_, vector_, [&](auto element, auto acc, auto vector) {
            using T = decltype(element);
            auto kernel = col_sums_kernel<T, decltype(acc), decltype(vector)::value>();
            plan_ = col_plan(shape_, vector ? 16 / sizeof(T) : 1,
                             fast::resident_blocks(kernel, kThreads, 0, 0));
        });
        partials_ = DeviceBuffer();
        tickets_ = DeviceBuffer();
        if (plan_.chunks > 1) {
            partials_ = DeviceBuffer(plan_.chunks * plan_.partial_stride * sizeof(unsigned));
            tickets_ = DeviceBuffer(plan_.strips * sizeof(unsigned));
            COALESCE_CUDA(cudaMemset(tickets_.get(), 0, tickets_.bytes()));
        }
        COALESCE_CUDA(cudaDeviceSynchronize());  // the runner's stream does not wait for these
    }

    void poison_bytes(std::uint8_t byte) override {
        out_.fill_bytes(byte);
        COALESCE_CUDA(cudaDeviceSynchronize());
    }

    void launch(cudaStream_t stream) override {
        const RawView in{in_.data(), shape_.rows, shape_.cols, in_.pitch_bytes()};
        auto* partials = static_cast<unsigned*>(partials_.get());
        auto* tickets = static_cast<unsigned*>(tickets_.get());
        const unsigned blocks = plan_.strips * plan_.chunks;
        with_col_types(type_, out_bytes_, vector_, [&](auto element, auto acc, auto vector) {
            using Acc = decltype(acc);
            auto kernel = col_sums_kernel<decltype(element), Acc, decltype(vector)::value>();
            kernel<<<blocks, kThreads, 0, stream>>>(in, static_cast<Acc*>(out_.data()), partials,
                                                    tickets, plan_);
            COALESCE_CHECK_LAUNCH("typed_col_sums_kernel");
        });
    }

    AnyImage download_typed() override {
        COALESCE_CUDA(cudaDeviceSynchronize());
        AnyImage out = sums_image(out_bytes_, out_.shape());
        std::visit([&](auto& image) { out_.download(image.data()); }, out);
        return out;
    }

private:
    static constexpr const char* kF32 = "this variant takes u8 and u16 only";
    Shape shape_;
    Layout layout_;
    ElemType type_ = ElemType::u8;
    std::size_t out_bytes_ = 4;
    bool vector_ = false;
    DeviceImage in_, out_;
    DeviceBuffer partials_, tickets_;
    ColPlan plan_;
};

Variant col_sums_variant(const char* id, Layout layout, const char* description) {
    Variant v;
    v.info.id = id;
    v.info.op = Op::col_sums;
    v.info.memory_space = layout == Layout::pitched ? space::pitched : space::global;
    v.info.description = description;
    v.info.gpu = true;
    v.info.tier = Tier::tuned;
    v.info.types = {ElemType::u8, ElemType::u16};
    v.info.limits.max_rows =
        0x7fffffffu;  // 32-bit row numbers (and a chunk past them) in the kernel
    v.info.kernel = "typed_col_sums_kernel";
    v.make = [layout](Shape input, const OpParams&) -> std::unique_ptr<Instance> {
        return std::make_unique<TypedColSumsInstance>(input, layout);
    };
    return fast::refusing_unsupported(std::move(v));
}

gpu::DeviceVariantSpec row_sums_spec(const char* id, Layout layout, const char* description) {
    gpu::DeviceVariantSpec spec;
    spec.id = id;
    spec.op = Op::row_sums;
    spec.memory_space = layout == Layout::pitched ? space::pitched : space::global;
    spec.description = description;
    spec.layout = layout;
    spec.tier = Tier::tuned;
    spec.kernel = "typed_row_sums_warp_kernel";
    return spec;
}

}  // namespace

void register_fast_typed_sums(Registry& registry) {
    registry.add(gpu::make_typed_device_variant(
        row_sums_spec("row_sums/fast-typed-dp4a", Layout::dense,
                      "u8/u16 rows in 16-byte loads, four in flight per lane, each 32-bit word "
                      "summed by one __dp4a (u8) or __dp2a_lo (u16); a warp per row, one wave of "
                      "blocks; heads and tails peeled so rows at any byte phase run the vector "
                      "loop. Exact uint32/uint64 sums at read bandwidth"),
        typed_row_sums));
    registry.add(gpu::make_typed_device_variant(
        row_sums_spec("row_sums/fast-typed-dp4a-pitched", Layout::pitched,
                      "row_sums/fast-typed-dp4a on cudaMallocPitch rows: every row starts on 512 "
                      "bytes, so nothing is peeled"),
        typed_row_sums));
    registry.add(col_sums_variant(
        "col_sums/fast-typed-strip", Layout::dense,
        "a thread per 16 bytes of columns (16 u8 or 8 u16) as uint32 accumulators walks a chunk "
        "of rows, eight 16-byte loads in flight; warps meet in shared memory, chunks in one launch "
        "through a last-block ticket, every output written once (no zeroing in the launch). Rows "
        "not on 16 bytes: one element per thread, exact but slower"));
    registry.add(col_sums_variant(
        "col_sums/fast-typed-strip-pitched", Layout::pitched,
        "col_sums/fast-typed-strip on cudaMallocPitch rows: every row starts on 512 bytes, so any "
        "width takes the 16-byte path (the last vector of a row reads into its padding, never "
        "stored)"));
}

}  // namespace coalesce
