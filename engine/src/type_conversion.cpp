#include "coalesce/type_conversion.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace coalesce {
namespace {

template <class T>
constexpr double max_of() {
    return static_cast<double>(std::numeric_limits<T>::max());
}

std::string position(std::size_t index, std::size_t cols) {
    return "row " + std::to_string(index / cols) + ", column " + std::to_string(index % cols);
}

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", v);
    return text;
}

// u16 -> u8 by /257 rounded to nearest: (v + 128) / 257 in integers.
std::uint8_t scale_down(std::uint16_t v) { return static_cast<std::uint8_t>((v + 128u) / 257u); }

// f32 in [0, 1] onto 0..max(To), rounded to nearest even and saturated (cv::saturate_cast).
template <class To>
To scale_from_float(float v) {
    const double scaled = std::nearbyint(static_cast<double>(v) * max_of<To>());
    if (!(scaled > 0)) return 0;  // NaN too
    if (scaled >= max_of<To>()) return std::numeric_limits<To>::max();
    return static_cast<To>(scaled);
}

template <class To, class From>
To keep_value(From v, std::size_t index, std::size_t cols, std::string_view from_name) {
    const double d = static_cast<double>(v);
    if (d >= 0 && d <= max_of<To>() && d == std::floor(d)) return static_cast<To>(d);
    throw std::invalid_argument(
        "the input's value " + number(d) + " at " + position(index, cols) + " is not " +
        (d == std::floor(d) ? "within " : "an integer within ") + "0.." + number(max_of<To>()) +
        ", so it cannot run as " + std::string(elem_type_name(ElemTraits<To>::type)) +
        " with its values kept (" + std::string(from_name) + " -> " +
        std::string(elem_type_name(ElemTraits<To>::type)) +
        "); choose the scale conversion, or another type");
}

template <class To, class From>
To convert_one(From v, Conversion how, std::size_t index, std::size_t cols) {
    constexpr std::string_view from_name = elem_type_name(ElemTraits<From>::type);
    if constexpr (std::is_same_v<To, float>) {
        return static_cast<float>(v);  // exact: u16 < 2^24
    } else if (how == Conversion::scale) {
        if constexpr (std::is_same_v<From, float>)
            return scale_from_float<To>(v);
        else if constexpr (sizeof(To) > sizeof(From))
            return static_cast<To>(v * 257u);
        else if constexpr (sizeof(To) < sizeof(From))
            return scale_down(v);
        else
            return v;
    } else {
        return keep_value<To>(v, index, cols, from_name);
    }
}

template <class To, class From>
TypedImage<To> convert_typed(const TypedImage<From>& in, Conversion how) {
    if (in.channels() != 1 && std::is_same_v<To, float>)
        throw std::invalid_argument("f32 runs take one channel; this image has " +
                                    std::to_string(in.channels()));
    TypedImage<To> out(in.rows(), in.cols(), in.channels());
    const From* src = in.data();
    To* dst = out.data();
    // Colour converts element by element; a refused value is named by its element position.
    const std::size_t row_elements = in.cols() * in.channels();
    for (std::size_t i = 0; i < in.size(); ++i)
        dst[i] = convert_one<To>(src[i], how, i, row_elements);
    return out;
}

template <class From>
AnyImage convert_to(const TypedImage<From>& in, ElemType to, Conversion how) {
    switch (to) {
    case ElemType::u8: return convert_typed<std::uint8_t>(in, how);
    case ElemType::u16: return convert_typed<std::uint16_t>(in, how);
    case ElemType::f32: return convert_typed<float>(in, how);
    }
    throw std::invalid_argument("unknown element type");
}

}  // namespace

std::string_view conversion_name(Conversion c) {
    switch (c) {
    case Conversion::none: return "none";
    case Conversion::values: return "values";
    case Conversion::scale: return "scale";
    }
    return "?";
}

std::optional<Conversion> parse_conversion(std::string_view name) {
    for (Conversion c : {Conversion::none, Conversion::values, Conversion::scale})
        if (conversion_name(c) == name) return c;
    return std::nullopt;
}

std::optional<ElemType> elem_type_of(const AnyImage& image) {
    return std::visit(
        [](const auto& typed) -> std::optional<ElemType> {
            using T = typename std::decay_t<decltype(typed)>::value_type;
            if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> ||
                          std::is_same_v<T, float>)
                return ElemTraits<T>::type;
            else
                return std::nullopt;
        },
        image);
}

AnyImage convert_image(const AnyImage& image, ElemType to, Conversion how) {
    const std::optional<ElemType> from = elem_type_of(image);
    if (!from) throw std::invalid_argument("a sums image is not an input a run takes");
    if (*from == to) return image;
    const std::string from_name(elem_type_name(*from)), to_name(elem_type_name(to));
    if (how == Conversion::none && to != ElemType::f32)
        throw std::invalid_argument(
            "the input is " + from_name + "; running it as " + to_name +
            " needs a conversion: 'values' (each value kept; refused where one does not fit " +
            to_name + ") or 'scale' (full range onto full range)");
    return std::visit(
        [&](const auto& typed) -> AnyImage {
            using T = typename std::decay_t<decltype(typed)>::value_type;
            if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t> ||
                          std::is_same_v<T, float>)
                return convert_to(typed, to, how);
            else
                throw std::invalid_argument("a sums image is not an input a run takes");
        },
        image);
}

Matrix to_matrix(const AnyImage& image) {
    return std::visit(
        [](const auto& typed) {
            Matrix m(typed.rows(), typed.cols() * typed.channels());
            for (std::size_t i = 0; i < typed.size(); ++i)
                m.data()[i] = static_cast<float>(typed.data()[i]);
            return m;
        },
        image);
}

AnyImage from_matrix(const Matrix& matrix) {
    TypedImage<float> out(matrix.rows(), matrix.cols(), 1);
    std::copy(matrix.data(), matrix.data() + matrix.size(), out.data());
    return out;
}

}  // namespace coalesce
