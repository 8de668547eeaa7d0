#include "coalesce/typed_run.hpp"

#include "coalesce/typed_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <type_traits>

namespace coalesce::typed {
namespace {

bool is_sum(Op op) { return op == Op::row_sums || op == Op::col_sums; }

std::size_t sum_terms(Op op, Shape input) { return op == Op::row_sums ? input.cols : input.rows; }

template <class T>
TypedImage<T> random_of(Shape shape, std::uint64_t seed, int channels) {
    TypedImage<T> image(shape.rows, shape.cols, static_cast<std::size_t>(channels));
    std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;  // Matrix::random's xorshift
    T* data = image.data();
    for (std::size_t i = 0; i < image.size(); ++i) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        data[i] = static_cast<T>(state >> (64 - 8 * sizeof(T)));  // the top bits, full range
    }
    return image;
}

AnyImage from_sums(IntegerSums sums) {
    return std::visit([](auto&& image) { return AnyImage(std::move(image)); }, std::move(sums));
}

template <class T>
AnyImage reference_of(Op op, const TypedImage<T>& in, const OpParams& params) {
    if (op == Op::copy) return copy(in);
    if (op == Op::transpose) return transpose(in);
    if (op == Op::row_sums) return from_sums(row_sums(in));
    if (op == Op::col_sums) return from_sums(col_sums(in));
    if (op == Op::filter_x) return filter_x(in, params.radius, params.border);
    if (op == Op::filter_y) return filter_y(in, params.radius, params.border);
    throw std::invalid_argument(std::string(op.name()) + " has no typed reference");
}

template <class T>
std::string value_text(T v) {
    if constexpr (std::is_floating_point_v<T>) {
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", static_cast<double>(v));
        return text;
    } else {
        return std::to_string(v);
    }
}

template <class T>
Verification compare(const TypedImage<T>& expected, const TypedImage<T>& got) {
    Verification v;
    v.ok = true;
    const std::size_t channels = expected.channels();
    for (std::size_t r = 0; r < expected.rows(); ++r)
        for (std::size_t c = 0; c < expected.cols(); ++c)
            for (std::size_t ch = 0; ch < channels; ++ch) {
                const T e = expected.at(r, c, ch);
                const T g = got.at(r, c, ch);
                if (e == g) continue;
                const double diff = std::fabs(static_cast<double>(e) - static_cast<double>(g));
                v.max_abs_error = std::isnan(diff) ? diff : std::max(v.max_abs_error, diff);
                if (v.ok)
                    v.message = "first mismatch at (" + std::to_string(r) + ", " +
                                std::to_string(c) +
                                (channels > 1 ? ", channel " + std::to_string(ch) : "") +
                                "): expected " + value_text(e) + ", got " + value_text(g);
                v.ok = false;
            }
    return v;
}

}  // namespace

bool has_typed_semantics(Op op) {
    return op == Op::copy || op == Op::transpose || op == Op::row_sums || op == Op::col_sums ||
           op == Op::filter_x || op == Op::filter_y;
}

std::string type_problem(Op op, ElemType type, Shape input) {
    if (type == ElemType::f32) return {};
    if (!has_typed_semantics(op))
        return std::string(op.name()) + " takes f32 only (" + std::string(elem_type_name(type)) +
               " runs copy, transpose, row_sums, col_sums, filter_x and filter_y)";
    if (is_sum(op)) {
        try {
            sum_width(op.name(), sum_terms(op, input), type);
        } catch (const std::overflow_error& e) {
            return e.what();
        }
    }
    return {};
}

AnyImage random_input(ElemType type, Shape shape, std::uint64_t seed, int channels) {
    switch (type) {
    case ElemType::u8: return random_of<std::uint8_t>(shape, seed, channels);
    case ElemType::u16: return random_of<std::uint16_t>(shape, seed, channels);
    case ElemType::f32: break;
    }
    if (channels != 1)
        throw std::invalid_argument("f32 inputs have one channel, not " + std::to_string(channels));
    const Matrix m = Matrix::random(shape.rows, shape.cols, seed);
    TypedImage<float> image(shape.rows, shape.cols, 1);
    std::copy(m.data(), m.data() + m.size(), image.data());
    return image;
}

std::size_t output_elem_size(Op op, ElemType type, Shape input) {
    if (type == ElemType::f32 || !is_sum(op)) return elem_size(type);
    return sum_width(op.name(), sum_terms(op, input), type) == SumWidth::u32 ? 4 : 8;
}

std::size_t bytes_moved(Op op, ElemType type, Shape input, const OpParams& params, int channels) {
    if (type == ElemType::f32) return coalesce::bytes_moved(op, input, params);
    const auto per_pixel = static_cast<std::size_t>(channels);
    return per_pixel *
           (input.elements() * elem_size(type) +
            output_shape(op, input, params).elements() * output_elem_size(op, type, input));
}

AnyImage reference(Op op, const AnyImage& input, const OpParams& params) {
    if (!has_typed_semantics(op))
        throw std::invalid_argument(std::string(op.name()) + " has no typed reference");
    return std::visit(
        [&](const auto& in) -> AnyImage {
            using T = typename std::decay_t<decltype(in)>::value_type;
            if constexpr (std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>)
                throw std::invalid_argument("typed reference: a sum image is not an input");
            else if constexpr (std::is_same_v<T, float>)
                // Sums of f32 are doubles here, which AnyImage does not hold: f32 runs take the
                // float32 path (cpu_reference) instead.
                throw std::invalid_argument("typed reference: f32 runs use cpu_reference");
            else
                return reference_of(op, in, params);
        },
        input);
}

Shape shape_of(const AnyImage& image) {
    return std::visit([](const auto& i) { return Shape{i.rows(), i.cols()}; }, image);
}

int channels_of(const AnyImage& image) {
    return std::visit([](const auto& i) { return static_cast<int>(i.channels()); }, image);
}

std::string_view type_name_of(const AnyImage& image) {
    static constexpr std::string_view names[] = {"u8", "u16", "f32", "u32", "u64"};
    return names[image.index()];
}

Verification verify_exact(const AnyImage& expected, const AnyImage& got) {
    if (expected.index() != got.index()) {
        Verification v;
        v.message = "the output holds " + std::string(type_name_of(got)) + " elements, expected " +
                    std::string(type_name_of(expected));
        return v;
    }
    const Shape e = shape_of(expected), g = shape_of(got);
    if (e != g) {
        Verification v;
        v.message = "the output is " + std::to_string(g.rows) + "x" + std::to_string(g.cols) +
                    ", expected " + std::to_string(e.rows) + "x" + std::to_string(e.cols);
        return v;
    }
    if (channels_of(expected) != channels_of(got)) {
        Verification v;
        v.message = "the output has " + std::to_string(channels_of(got)) +
                    " channel(s), expected " + std::to_string(channels_of(expected));
        return v;
    }
    return std::visit(
        [&](const auto& exp) {
            using Image = std::decay_t<decltype(exp)>;
            return compare(exp, std::get<Image>(got));
        },
        expected);
}

}  // namespace coalesce::typed
