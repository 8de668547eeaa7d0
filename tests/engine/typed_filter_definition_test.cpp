// The u8/u16 box filters of the typed CPU reference slide one sum along each line; every output
// must still be the rounded mean of its own window as the border rule defines it. Checked here
// against that definition, summed window by window, on random images at odd shapes, one and three
// channels, every border mode, radii up to 64 (larger than the line at these shapes).
#include "coalesce/typed_reference.hpp"

#include "support/typed_window_sum.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

using namespace coalesce;
using namespace coalesce::typed;

namespace {

template <class T>
TypedImage<T> random_image(std::size_t rows, std::size_t cols, std::size_t channels,
                           std::uint32_t seed) {
    TypedImage<T> img(rows, cols, channels);
    std::mt19937 gen(seed);
    std::uniform_int_distribution<std::uint32_t> dist(0, std::numeric_limits<T>::max());
    for (std::size_t i = 0; i < img.size(); ++i) img.data()[i] = static_cast<T>(dist(gen));
    return img;
}

// Output (r, c, ch) from the definition: its window's sum rounded to nearest.
template <class T>
T defined_mean(const TypedImage<T>& in, std::size_t r, std::size_t c, std::size_t ch, int radius,
               Border border, bool along_x) {
    const std::uint64_t sum = test::window_sum(in, r, c, ch, radius, border, along_x);
    return static_cast<T>(rounded_mean(sum, static_cast<std::uint64_t>(2 * radius + 1)));
}

template <class T>
void expect_definition(std::size_t rows, std::size_t cols, std::size_t channels) {
    const TypedImage<T> in =
        random_image<T>(rows, cols, channels, static_cast<std::uint32_t>(7 * rows + cols));
    for (bool along_x : {true, false})
        for (Border border : {Border::clamp, Border::zero, Border::wrap, Border::mirror})
            for (int radius : {0, 1, 2, 5, 17, 64}) {
                const TypedImage<T> out =
                    along_x ? filter_x(in, radius, border) : filter_y(in, radius, border);
                std::size_t wrong = 0;
                for (std::size_t r = 0; r < rows; ++r)
                    for (std::size_t c = 0; c < cols; ++c)
                        for (std::size_t ch = 0; ch < channels; ++ch)
                            wrong += out.at(r, c, ch) !=
                                     defined_mean(in, r, c, ch, radius, border, along_x);
                EXPECT_EQ(wrong, 0u)
                    << (along_x ? "filter_x" : "filter_y") << " " << rows << "x" << cols << "x"
                    << channels << " r=" << radius << " border " << static_cast<int>(border);
            }
}

}  // namespace

TEST(TypedFilterDefinition, U8SlidingSumsEqualEachWindowsOwnSum) {
    expect_definition<std::uint8_t>(37, 29, 1);
    expect_definition<std::uint8_t>(1, 131, 3);
    expect_definition<std::uint8_t>(131, 1, 3);
}

TEST(TypedFilterDefinition, U16SlidingSumsEqualEachWindowsOwnSum) {
    expect_definition<std::uint16_t>(29, 37, 3);
    expect_definition<std::uint16_t>(2, 3, 1);
}

TEST(TypedFilterDefinition, EmptyLinesGiveEmptyOutputsAtEveryBorder) {
    for (Border border : {Border::clamp, Border::zero, Border::wrap, Border::mirror}) {
        const TypedImage<std::uint8_t> no_rows(0, 5, 3), no_cols(4, 0, 1);
        EXPECT_EQ(filter_y(no_rows, 3, border), no_rows);
        EXPECT_EQ(filter_x(no_cols, 3, border), no_cols);
        EXPECT_EQ(filter_x(no_rows, 3, border), no_rows);
        EXPECT_EQ(filter_y(no_cols, 3, border), no_cols);
    }
}
