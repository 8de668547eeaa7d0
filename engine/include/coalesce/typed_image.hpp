// A typed host image: u8, u16 or f32 elements, 1, 3 or 4 interleaved channels, rows of
// cols * channels elements with no padding. It exists so the typed CPU references
// (typed_reference.hpp) have something to take and return before the runner learns element types;
// Matrix stays the float32 luminance type everything else uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
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

}  // namespace coalesce
