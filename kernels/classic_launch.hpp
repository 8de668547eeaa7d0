// What the launchers of the classic kernels share. Those kernels index as the course does: int
// coordinates from a 2-D grid (x = blockIdx.x * blockDim.x + threadIdx.x), int indices
// (in[y * pitch + x]), one tile or output per thread, no loop over the grid. Two limits follow,
// handled here on the host so that the kernel bodies stay the course's: a grid has at most 65535
// blocks along y, and an int index must stay below 2^31. A matrix past either is launched in
// bands, each band's pointers moved to its first row (or column) on the host.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/typed_reference.hpp"
#include "coalesce/variant.hpp"
#include "device_instance.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace coalesce::gpu {

inline constexpr long long kMaxBlocksY = 65535;

// The largest index span one launch may cover: 2^29 floats, so that a band's index plus a row
// of columns, or a filter's halo of kMaxRadius rows, still fits in an int.
inline constexpr long long kIntSpan = 1LL << 29;

// Rows and columns the classic variants accept (larger inputs are skipped with this reason):
// every coordinate and pitch is an int, and a 256-row chunk or a halo of kMaxRadius rows on each
// side of a band still fits beside kIntSpan.
inline Limits classic_limits() {
    Limits limits;
    limits.max_rows = std::size_t{1} << 30;
    limits.max_cols = std::size_t{1} << 22;
    return limits;
}

// Distance between row starts in floats: cols for a dense view, pitch_bytes / 4 for a pitched one.
inline int pitch_of(const MatView& v) { return static_cast<int>(v.pitch_bytes / sizeof(float)); }

// MatView for any element type: the classic launchers are templates over it, so that the same
// kernels run float (the f32 runs, View<float>) and u8 or u16 (the typed runs).
template <class T>
struct View {
    T* data = nullptr;
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t pitch_bytes = 0;  // [bytes] distance between row starts
};

inline View<float> view_of(MatView v) { return {v.data, v.rows, v.cols, v.pitch_bytes}; }

template <class T>
View<T> view_as(RawView v) {
    return {static_cast<T*>(v.data), v.rows, v.cols, v.pitch_bytes};
}

// Distance between row starts in elements.
template <class T>
int pitch_of(const View<T>& v) {
    return static_cast<int>(v.pitch_bytes / sizeof(T));
}

// Calls f(T{}) with T the typed run's element type, std::uint8_t or std::uint16_t.
template <class F>
void with_integer_type(ElemType type, F&& f) {
    if (type == ElemType::u8) return f(std::uint8_t{});
    if (type == ElemType::u16) return f(std::uint16_t{});
    throw std::invalid_argument("typed launch: " + std::string(elem_type_name(type)) +
                                " is not an integer element type");
}

// A classic variant whose output keeps the input's element type, from its spec and a generic
// launch(View<T> in, View<T> out, params, stream): the f32 runs call it with T = float, the typed
// runs with std::uint8_t or std::uint16_t.
template <class Launch>
Variant same_type_variant(DeviceVariantSpec spec, Launch launch) {
    return make_device_variant(
        std::move(spec),
        [launch](MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
            launch(view_of(in), view_of(out), p, stream);
        },
        [launch](ElemType type, RawView in, RawView out, RawView, const OpParams& p,
                 cudaStream_t stream) {
            with_integer_type(type, [&](auto element) {
                using T = decltype(element);
                launch(view_as<T>(in), view_as<T>(out), p, stream);
            });
        });
}

// Calls f(T{}, Acc{}) with T the element type and Acc the accumulator the typed reference sums
// `terms` of them in (sum_width: std::uint32_t or std::uint64_t), so the device sums exactly
// what the reference sums.
template <class F>
void with_sum_types(std::string_view op, ElemType type, std::size_t terms, F&& f) {
    with_integer_type(type, [&](auto element) {
        if (typed::sum_width(op, terms, type) == typed::SumWidth::u32)
            f(element, std::uint32_t{});
        else
            f(element, std::uint64_t{});
    });
}

// Calls launch(first, count) for consecutive bands covering `extent` rows (or columns), each at
// most max_count long and short enough that count * stride stays within kIntSpan: one launch for
// any matrix of up to 2^29 floats.
template <class Launch>
void for_each_band(std::size_t extent, long long max_count, long long stride, Launch&& launch) {
    const long long band = std::max(1LL, std::min(max_count, kIntSpan / std::max(stride, 1LL)));
    const long long total = static_cast<long long>(extent);
    for (long long first = 0; first < total; first += band)
        launch(static_cast<int>(first), static_cast<int>(std::min(band, total - first)));
}

// Blocks of per_block items needed to cover n items.
inline unsigned int blocks_to_cover(long long n, long long per_block) {
    return static_cast<unsigned int>((n + per_block - 1) / per_block);
}

}  // namespace coalesce::gpu
