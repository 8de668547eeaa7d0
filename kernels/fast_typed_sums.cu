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
// Column sums: each thread owns 16 bytes of columns (16 u8 as packed 16-bit lanes, or 8 u16) and
// walks its chunk's rows with eight 16-byte loads in flight; the eight warps of a block meet in
// shared memory. Chunks interleave: chunk c takes every chunks-th group of eight rows, so the grid
// reads one band of rows at a time, as a plain stream does. The chunks of a column strip meet in
// the output itself within the launch: the first block of the strip to start stores its sums and
// raises a flag, the others atomicAdd theirs after it (integer sums are exact, so the order does
// not matter), and every output is written in every launch. Rows that do not all start on 16
// bytes (dense rows whose bytes are not a multiple of 16) take the same kernel with one element
// per thread: exact, slower. The kernels are in fast_typed_sums.cuh.
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/typed_run.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_typed_sums.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>

namespace coalesce {
namespace {

using gpu::Layout;
using gpu::RawView;
using namespace typed_sums;

// Multiprocessors of the current device, asked once per device and process (launch() runs between
// the timing events).
std::size_t multiprocessors() {
    int device = 0;
    COALESCE_CUDA(cudaGetDevice(&device));
    static std::mutex m;
    static std::map<int, int> known;
    std::lock_guard<std::mutex> lock(m);
    int& n = known[device];
    if (n == 0) COALESCE_CUDA(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
    return static_cast<std::size_t>(n);
}

// Blocks per multiprocessor in one wave at most: measured on an H200 at 8192^2 and 8000x6000, four
// 256-thread blocks beat the five or six that fit (row sums u8 89.6-90.1 % of copy against
// 86.6-88.3; column sums u16 93-95 against 89-94), and fewer leave bandwidth idle.
constexpr std::size_t kWaveBlocksPerSm = 4;

// Loads in flight per lane (row sums): u8 rows take 8 (2 KiB per warp), u16 rows 16 (4 KiB); the
// same H200 runs put u8 at 89.6-90.1 % of copy with 8 against 86.3 with 16, and u16 at 92.6-95.7
// with 16 against 90.0-94.4 with 8 and 89.7-92.6 with the block kernel's 4.
template <class T>
constexpr int kRowLoads = sizeof(T) == 1 ? 8 : 16;

template <class T, class Acc>
void launch_row_sums(RawView in, RawView out, cudaStream_t stream) {
    auto warp_kernel = typed_row_sums_warp_kernel<T, Acc, kRowLoads<T>>;
    auto block_kernel = typed_row_sums_block_kernel<T, Acc>;
    const std::size_t resident = std::min(fast::resident_blocks(warp_kernel, kThreads, 0, 0),
                                          kWaveBlocksPerSm * multiprocessors());
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

template <class T, class Acc, bool Vector, bool Interleaved>
auto col_sums_kernel() {
    return typed_col_sums_kernel < T, Vector ? static_cast<int>(16 / sizeof(T)) : 1, Acc,
           kColUnroll, Interleaved > ;
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

// An instance of its own rather than make_typed_device_variant: the strips' tickets and flags are
// sized by the plan and must start at zero (set at upload; the tickets wrap back to zero in every
// launch), and each launch passes a number of its own for the flags.
class TypedColSumsInstance final : public Instance {
public:
    TypedColSumsInstance(Shape shape, Layout layout, bool interleaved)
        : shape_(shape), layout_(layout), interleaved_(interleaved) {}

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
        with_kernel([&](auto kernel, auto, unsigned cols_per_thread) {
            plan_ = col_plan(shape_, cols_per_thread,
                             std::min(fast::resident_blocks(kernel, kThreads, 0, 0),
                                      kWaveBlocksPerSm * multiprocessors()));
        });
        tickets_ = DeviceBuffer();
        flags_ = DeviceBuffer();
        epoch_ = 0;
        if (plan_.chunks > 1) {
            tickets_ = DeviceBuffer(plan_.strips * sizeof(unsigned));
            flags_ = DeviceBuffer(plan_.strips * sizeof(unsigned));
            COALESCE_CUDA(cudaMemset(tickets_.get(), 0, tickets_.bytes()));
            COALESCE_CUDA(cudaMemset(flags_.get(), 0, flags_.bytes()));
        }
        COALESCE_CUDA(cudaDeviceSynchronize());  // the runner's stream does not wait for these
    }

    void poison_bytes(std::uint8_t byte) override {
        out_.fill_bytes(byte);
        COALESCE_CUDA(cudaDeviceSynchronize());
    }

    void launch(cudaStream_t stream) override {
        const RawView in{in_.data(), shape_.rows, shape_.cols, in_.pitch_bytes()};
        auto* tickets = static_cast<unsigned*>(tickets_.get());
        auto* flags = static_cast<unsigned*>(flags_.get());
        if (++epoch_ == 0) epoch_ = 1;  // the flags start at 0: no launch may match them
        const unsigned blocks = plan_.strips * plan_.chunks;
        with_kernel([&](auto kernel, auto acc, unsigned) {
            using Acc = decltype(acc);
            kernel<<<blocks, kThreads, 0, stream>>>(in, static_cast<Acc*>(out_.data()), tickets,
                                                    flags, plan_, epoch_);
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

    // Calls f(kernel, Acc{}, columns per thread) with the kernel for this run.
    template <class F>
    void with_kernel(F&& f) const {
        with_col_types(type_, out_bytes_, vector_, [&](auto element, auto acc, auto vector) {
            using T = decltype(element);
            using Acc = decltype(acc);
            constexpr bool kVector = decltype(vector)::value;
            const unsigned cols_per_thread = kVector ? 16 / sizeof(T) : 1;
            if (interleaved_)
                f(col_sums_kernel<T, Acc, kVector, true>(), acc, cols_per_thread);
            else
                f(col_sums_kernel<T, Acc, kVector, false>(), acc, cols_per_thread);
        });
    }

    Shape shape_;
    Layout layout_;
    bool interleaved_ = true;
    ElemType type_ = ElemType::u8;
    std::size_t out_bytes_ = 4;
    bool vector_ = false;
    DeviceImage in_, out_;
    DeviceBuffer tickets_, flags_;
    ColPlan plan_;
    unsigned epoch_ = 0;  // this instance's launches, numbered from 1
};

Variant col_sums_variant(const char* id, Layout layout, bool interleaved, Tier tier,
                         const char* description) {
    Variant v;
    v.info.id = id;
    v.info.op = Op::col_sums;
    v.info.memory_space = layout == Layout::pitched ? space::pitched : space::global;
    v.info.description = description;
    v.info.gpu = true;
    v.info.tier = tier;
    v.info.types = {ElemType::u8, ElemType::u16};
    v.info.limits.max_rows =
        0x7fffffffu;  // 32-bit row numbers (and a chunk past them) in the kernel
    v.info.kernel = "typed_col_sums_kernel";
    v.make = [layout, interleaved](Shape input, const OpParams&) -> std::unique_ptr<Instance> {
        return std::make_unique<TypedColSumsInstance>(input, layout, interleaved);
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
        "col_sums/fast-typed-strip", Layout::dense, true, Tier::tuned,
        "a thread per 16 bytes of columns (16 u8 as packed 16-bit lanes, or 8 u16) walks every "
        "chunks-th group of eight rows, eight 16-byte loads in flight, so the whole grid reads one "
        "band of rows at a time; warps meet in shared memory, a strip's chunks in the output "
        "(the first block stores, the others atomicAdd after its flag; no zeroing). Rows not on "
        "16 bytes: one element per thread, exact but slower"));
    registry.add(col_sums_variant(
        "col_sums/fast-typed-strip-pitched", Layout::pitched, true, Tier::tuned,
        "col_sums/fast-typed-strip on cudaMallocPitch rows: every row starts on 512 bytes, so any "
        "width takes the 16-byte path (the last vector of a row reads into its padding, never "
        "stored)"));
    registry.add(col_sums_variant(
        "col_sums/fast-typed-strip-runs", Layout::dense, false, Tier::experiment,
        "col_sums/fast-typed-strip with each chunk a contiguous run of rows (the grid reads as "
        "many bands as there are chunks)"));
}

}  // namespace coalesce
