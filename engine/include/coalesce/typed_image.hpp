// A typed host image: u8, u16 or f32 elements, 1, 3 or 4 interleaved channels, rows of
// cols * channels elements with no padding. The typed CPU references (typed_reference.hpp) take
// and return it, and the runner hands it to variants for u8 and u16 runs (typed_run.hpp); Matrix
// stays the float32 luminance type the f32 runs and everything else use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace coalesce {

enum class ElemType { u8, u16, f32 };

constexpr std::string_view elem_type_name(ElemType t) {
    switch (t) {
    case ElemType::u8: return "u8";
    case ElemType::u16: return "u16";
    case ElemType::f32: return "f32";
    }
    return "?";
}

// [bytes] of one element.
constexpr std::size_t elem_size(ElemType t) {
    return t == ElemType::u8 ? 1 : t == ElemType::u16 ? 2 : 4;
}

// Every element type, in the order users see them.
inline const std::vector<ElemType>& all_elem_types() {
    static const std::vector<ElemType> types = {ElemType::u8, ElemType::u16, ElemType::f32};
    return types;
}

// "u8", "u16", "f32"; nothing for any other name.
inline std::optional<ElemType> parse_elem_type(std::string_view name) {
    for (ElemType t : all_elem_types())
        if (elem_type_name(t) == name) return t;
    return std::nullopt;
}

template <class T>
struct ElemTraits;
template <>
struct ElemTraits<std::uint8_t> {
    static constexpr ElemType type = ElemType::u8;
};
template <>
struct ElemTraits<std::uint16_t> {
    static constexpr ElemType type = ElemType::u16;
};
template <>
struct ElemTraits<float> {
    static constexpr ElemType type = ElemType::f32;
};

// Element (r, c, ch) lives at data()[(r * cols + c) * channels + ch]. T may also be a sum type
// (uint32_t, uint64_t, double) for the sums' outputs.
template <class T>
class TypedImage {
public:
    using value_type = T;

    TypedImage() = default;
    TypedImage(std::size_t rows, std::size_t cols, std::size_t channels, T fill = T{})
        : rows_(rows), cols_(cols), channels_(channels), data_(rows * cols * channels, fill) {
        if (channels != 1 && channels != 3 && channels != 4)
            throw std::invalid_argument("TypedImage: " + std::to_string(channels) +
                                        " channels (1, 3 or 4 are supported)");
    }

    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }
    std::size_t channels() const { return channels_; }
    std::size_t size() const { return data_.size(); }
    bool empty() const { return data_.empty(); }

    T* data() { return data_.data(); }
    const T* data() const { return data_.data(); }
    T& at(std::size_t r, std::size_t c, std::size_t ch = 0) {
        return data_[(r * cols_ + c) * channels_ + ch];
    }
    const T& at(std::size_t r, std::size_t c, std::size_t ch = 0) const {
        return data_[(r * cols_ + c) * channels_ + ch];
    }

    bool operator==(const TypedImage&) const = default;

private:
    std::size_t rows_ = 0;
    std::size_t cols_ = 0;
    std::size_t channels_ = 1;
    std::vector<T> data_;
};

// A typed image of any element type a typed run takes in or gives out: the three element types,
// and the integer sums' uint32 and uint64.
using AnyImage =
    std::variant<TypedImage<std::uint8_t>, TypedImage<std::uint16_t>, TypedImage<float>,
                 TypedImage<std::uint32_t>, TypedImage<std::uint64_t>>;

}  // namespace coalesce
