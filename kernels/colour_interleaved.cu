// Colour kernels on interleaved pixels (RGB/RGBA as stored, u8 and u16): the operations whose
// interleaved form is not a grey operation on wider rows (colour_wrappers.cu has those).
//   transpose   32 x 32 pixel tiles: 4-byte words of whole tile rows in, words of whole output
//               rows out, pixels of 3..8 bytes regrouped byte by byte in shared memory.
//   row_sums    a warp per row, 16-byte loads of 48 (or 16) bytes, a whole number of pixels, so
//               each byte's channel is fixed at compile time: dp4a with a per-channel byte mask
//               (u8) or half-word adds (u16) into one sum per channel.
//   filter_x    a block per 1024-pixel row segment staged in shared memory with its halo as
//               words; each thread slides a running sum per channel over 8 pixels, so an output
//               costs the same at every radius (the mean one multiply-high); words back out.
// plus the course's naive filter X over pixels (filter_x/global-interleaved), the twin of
// filter_x/global-planar. The per-thread work is in colour_interleaved.cuh, run on the host by
// tests/kernels/colour_emulation_test.cpp.
#include "classic_launch.hpp"
#include "classic_typed.cuh"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "colour_interleaved.cuh"
#include "device_border.cuh"
#include "device_index.cuh"
#include "device_instance.hpp"
#include "fast_variant.hpp"

#include <cuda_runtime.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace coalesce {
namespace {

namespace ck = colour_kernels;

ck::Img img_of(const gpu::RawView& v) {
    return {static_cast<unsigned char*>(v.data), static_cast<long long>(v.rows),
            static_cast<long long>(v.cols), static_cast<long long>(v.pitch_bytes)};
}

// Calls f(T{}, std::integral_constant<int, CH>{}) for the run's element type and channels.
template <class F>
void with_pixel(ElemType type, std::size_t channels, F&& f) {
    gpu::with_integer_type(type, [&](auto element) {
        if (channels == 3) return f(element, std::integral_constant<int, 3>{});
        if (channels == 4) return f(element, std::integral_constant<int, 4>{});
        throw std::invalid_argument("colour kernel: " + std::to_string(channels) +
                                    " channels (3 or 4 are supported)");
    });
}

unsigned grid_of(std::size_t blocks, const char* what) {
    if (blocks > gpu::kMaxGridX)
        throw Unsupported(std::string(what) + ": more than 2^31 - 1 blocks");
    return static_cast<unsigned>(blocks);
}

// ---- transpose ----

template <int P>
__global__ void __launch_bounds__(ck::kTThreads)
    colour_transpose_kernel(ck::Img in, ck::Img out, unsigned tiles_x) {
    __shared__ __align__(16) unsigned char tile[ck::TransposeTile<P>::bytes];
    const long long r0 = static_cast<long long>(blockIdx.x / tiles_x) * ck::kTile;
    const long long c0 = static_cast<long long>(blockIdx.x % tiles_x) * ck::kTile;
    const bool words = ck::transpose_words(in, out, r0, c0);
    ck::transpose_load<P>(in, tile, r0, c0, words, threadIdx.x);
    __syncthreads();
    ck::transpose_store<P>(out, tile, r0, c0, words, threadIdx.x);
}

void launch_transpose(ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView,
                      const OpParams&, cudaStream_t stream) {
    with_pixel(type, in.channels, [&](auto element, auto ch) {
        constexpr int P = decltype(ch)::value * static_cast<int>(sizeof(element));
        const std::size_t tx = (in.cols + ck::kTile - 1) / ck::kTile;
        const std::size_t ty = (in.rows + ck::kTile - 1) / ck::kTile;
        colour_transpose_kernel<P>
            <<<grid_of(tx * ty, "colour transpose"), ck::kTThreads, 0, stream>>>(
                img_of(in), img_of(out), static_cast<unsigned>(tx));
        COALESCE_CHECK_LAUNCH("colour_transpose_kernel");
    });
}

// ---- row sums ----

template <class T, int CH, class Acc>
__global__ void __launch_bounds__(ck::kRThreads) colour_row_sums_kernel(ck::Img in, ck::Img out) {
    const long long row =
        static_cast<long long>(blockIdx.x) * (ck::kRThreads / 32) + threadIdx.x / 32;
    if (row >= in.rows) return;
    const int lane = threadIdx.x % 32;
    Acc acc[CH];
    const int head = ck::row_sums_lane<T, CH, Acc>(in.data + row * in.pitch, in.cols, lane, acc);
#pragma unroll
    for (int s = 0; s < CH; ++s)
#pragma unroll
        for (int o = 16; o > 0; o /= 2) acc[s] += __shfl_down_sync(0xffffffffu, acc[s], o);
    if (lane == 0) {
        Acc* dst = reinterpret_cast<Acc*>(out.data + row * out.pitch);
#pragma unroll
        for (int s = 0; s < CH; ++s) dst[(s + head) % CH] = acc[s];
    }
}

void launch_row_sums(ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView,
                     const OpParams&, cudaStream_t stream) {
    with_pixel(type, in.channels, [&](auto element, auto ch) {
        using T = decltype(element);
        constexpr int CH = decltype(ch)::value;
        const unsigned blocks =
            grid_of((in.rows + ck::kRThreads / 32 - 1) / (ck::kRThreads / 32), "colour row sums");
        gpu::with_sum_types("row_sums", type, in.cols, [&](auto, auto acc) {
            colour_row_sums_kernel<T, CH, decltype(acc)>
                <<<blocks, ck::kRThreads, 0, stream>>>(img_of(in), img_of(out));
            COALESCE_CHECK_LAUNCH("colour_row_sums_kernel");
        });
    });
}

// ---- filter X ----

template <class T, int CH>
__global__ void __launch_bounds__(ck::kXThreads)
    colour_filter_x_kernel(ck::Img in, ck::Img out, int r, std::uint32_t m, Border border,
                           long long segments, long long in_bytes) {
    extern __shared__ uint4 smem[];
    unsigned char* sin = reinterpret_cast<unsigned char*>(smem);
    unsigned char* sout = sin + in_bytes;
    const long long row = blockIdx.x / segments;
    const ck::XSegment g = ck::x_segment<T, CH>(in.cols, r, blockIdx.x % segments);
    const unsigned char* src = in.data + row * in.pitch;
    unsigned char* dst = out.data + row * out.pitch;
    const bool words = ck::aligned4(src) && ck::aligned4(dst);
    ck::x_load<T, CH>(src, in.cols, border, g, words, sin, threadIdx.x);
    __syncthreads();
    ck::x_compute<T, CH>(g, r, m, sin, sout, threadIdx.x);
    __syncthreads();
    ck::x_store<T, CH>(dst, g, words, sout, threadIdx.x);
}

void launch_filter_x(ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView,
                     const OpParams& p, cudaStream_t stream) {
    with_pixel(type, in.channels, [&](auto element, auto ch) {
        using T = decltype(element);
        constexpr int CH = decltype(ch)::value, P = CH * static_cast<int>(sizeof(T));
        const long long segments =
            (static_cast<long long>(in.cols) + ck::kXSegment - 1) / ck::kXSegment;
        const long long in_bytes = ck::x_in_bytes<P>(p.radius);
        const auto shared = static_cast<std::size_t>(in_bytes + ck::x_out_bytes<P>());
        colour_filter_x_kernel<T, CH>
            <<<grid_of(in.rows * static_cast<std::size_t>(segments), "colour filter X"),
               ck::kXThreads, shared, stream>>>(img_of(in), img_of(out), p.radius,
                                                ck::x_reciprocal(p.radius), p.border, segments,
                                                in_bytes);
        COALESCE_CHECK_LAUNCH("colour_filter_x_kernel");
    });
}

// ---- the course's naive filter X over pixels ----

constexpr int kNaiveThreads = 256;

// A thread per pixel, as a pixel struct would be written on a CPU: each of its 2r+1 taps loads
// the pixel's CH channels, so a warp's load instruction spans CH * 32 elements of which it uses
// 32 (the other channels' loads come after, from L1).
template <class T, int CH>
__global__ void __launch_bounds__(kNaiveThreads)
    filter_x_interleaved_global(ck::Img in, ck::Img out, int r, Border border, unsigned blocks_x) {
    const long long row = blockIdx.x / blocks_x;
    const long long c = static_cast<long long>(blockIdx.x % blocks_x) * kNaiveThreads + threadIdx.x;
    if (c >= in.cols) return;
    const T* src = reinterpret_cast<const T*>(in.data + row * in.pitch);
    gpu::WindowSum<T> s[CH] = {};
    for (int d = -r; d <= r; ++d) {
        const long long i = gpu::border_index_near(c + d, in.cols, border);
        if (i < 0) continue;
#pragma unroll
        for (int k = 0; k < CH; ++k) s[k] += src[i * CH + k];
    }
    T* dst = reinterpret_cast<T*>(out.data + row * out.pitch);
#pragma unroll
    for (int k = 0; k < CH; ++k) dst[c * CH + k] = gpu::window_mean<T>(s[k], 2 * r + 1);
}

void launch_naive_filter_x(ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView,
                           const OpParams& p, cudaStream_t stream) {
    with_pixel(type, in.channels, [&](auto element, auto ch) {
        const std::size_t bx = (in.cols + kNaiveThreads - 1) / kNaiveThreads;
        filter_x_interleaved_global<decltype(element), decltype(ch)::value>
            <<<grid_of(bx * in.rows, "filter X over pixels"), kNaiveThreads, 0, stream>>>(
                img_of(in), img_of(out), p.radius, p.border, static_cast<unsigned>(bx));
        COALESCE_CHECK_LAUNCH("filter_x_interleaved_global");
    });
}

Variant colour_variant(const char* id, Op op, Tier tier, const char* memory_space,
                       const char* kernel, const char* description, gpu::TypedLauncher launcher) {
    gpu::DeviceVariantSpec spec;
    spec.id = id;
    spec.op = op;
    spec.memory_space = memory_space;
    spec.description = description;
    spec.layout = gpu::Layout::dense;
    spec.tier = tier;
    spec.kernel = kernel;
    spec.limits = gpu::classic_limits();
    spec.channels = {3, 4};
    return fast::refusing_unsupported(
        gpu::make_typed_device_variant(std::move(spec), std::move(launcher)));
}

}  // namespace

void register_colour_interleaved(Registry& registry) {
    registry.add(colour_variant(
        "transpose/fast-interleaved", Op::transpose, Tier::experiment, space::shared,
        "colour_transpose_kernel",
        "colour transpose of interleaved pixels (3..8 bytes each) in 32 x 32 pixel tiles: each "
        "tile row read as 4-byte words (96..256 contiguous bytes per warp), pixels regrouped "
        "byte by byte in a padded shared tile, output rows written as words; images whose rows "
        "do not start on 4 bytes, and edge tiles, move byte by byte. Lost to "
        "transpose/fast-planar on an H200 at 8000x6000 x 3: 47.8% of copy against 84.1 (u8), "
        "54.6 against 86.0 (u16): the byte-by-byte regrouping costs more than the planes' "
        "untimed split, and is the next thing to tune",
        launch_transpose));
    registry.add(colour_variant(
        "row_sums/fast-interleaved", Op::row_sums, Tier::tuned, space::global,
        "colour_row_sums_kernel",
        "one sum per channel of interleaved rows: a warp per row reads groups of 48 bytes (RGB: "
        "16 u8 or 8 u16 pixels) or 16 (RGBA) as 16-byte vectors, four groups in flight per "
        "lane, so each byte's channel is known at compile time; dp4a with a per-channel byte "
        "mask (u8) or half-word adds (u16) sum them, and the head peeled to reach 16 bytes only "
        "rotates which sum is which channel",
        launch_row_sums));
    registry.add(colour_variant(
        "filter_x/fast-interleaved", Op::filter_x, Tier::experiment, space::shared,
        "colour_filter_x_kernel",
        "box filter along interleaved rows, each channel on its own (the window steps by a "
        "whole pixel): a block stages 1024 pixels and their halo in shared memory as 4-byte "
        "words, each thread slides one exact running sum per channel over 8 pixels (an output "
        "costs the same at every radius, the rounded mean one multiply-high; RGBA pixels read "
        "and written as whole words), and words go back out. Shared runs are padded so threads "
        "fall on different banks. Lost to filter_x/fast-planar on an H200 at 8000x6000 x 3: u8 "
        "26.2 / 23.4 / 7.2% of copy at r = 1 / 4 / 64 against 85.0 / 83.8 / 70.6, u16 37.5 / "
        "34.5 / 12.6 against 91.3 / 91.4 / 90.5; that it falls with r says the per-thread seed "
        "of 2r + 1 pixels over only 8 outputs dominates: the next thing to tune",
        launch_filter_x));
    registry.add(colour_variant(
        "filter_x/global-interleaved", Op::filter_x, Tier::classic, space::global,
        "filter_x_interleaved_global",
        "The slides' globalFilterX written over pixels, as a pixel struct is on a CPU: a thread "
        "per pixel loads all its channels at each of the 2r+1 taps, so each warp load "
        "instruction spans 3 or 4 times the bytes it uses (the other channels' loads hit L1). "
        "Beside filter_x/global-planar (the same kernel idea on one plane per channel) the "
        "figure shows what strided, pixel-wise access costs in load instructions and L1 "
        "traffic; DRAM moves the same bytes in both",
        launch_naive_filter_x));
}

}  // namespace coalesce
