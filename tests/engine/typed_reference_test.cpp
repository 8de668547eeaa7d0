// The typed CPU references (coalesce/typed_reference.hpp) against OpenCV 4 on the sample images in
// images/ and tests/data/: cv::transpose, cv::reduce (REDUCE_SUM) and cv::blur, exact for u8 and
// u16, per channel for colour; plus small cases with known answers. All images are small
// (at most 320x200), so nothing is cropped.
//
// What OpenCV does, found in modules/imgproc/src/box_filter.simd.hpp and confirmed here:
// - 8U: the sums go into a 16-bit accumulator and the mean is ((s + d) * m) >> 23, with
//   m ~ 2^23 / k and d ~ k / 2 from ColumnSum<ushort, uchar>'s constructor. That equals the exact
//   round-to-nearest (2s + k) / (2k) for every s <= 255 k, k odd <= 129 (OpenCvU8FixedPoint...),
//   and cv::blur equals the reference bit for bit on every image below.
// - 16U: 32-bit integer sums, and the mean is cvRound(float(s) * float(1/k)) in the SIMD lanes
//   (double in the scalar tail). float32 has 24 bits, so for large s and k the product can land
//   just past a half and round up: OpenCV is then one above the exact mean. The comparisons
//   accept exactly those elements (each checked against the float32 formula) and count them;
//   OpenCv16URoundsSomeSumsUp pins one.
// - BORDER_WRAP: cv::blur refuses it ("columnBorderType != BORDER_WRAP" in FilterEngine), in
//   either direction. Wrap is checked against cv::copyMakeBorder(BORDER_WRAP) then a blur of the
//   padded image cropped back (the padding covers every window), and against hand cases.
#include "coalesce/typed_reference.hpp"

#include "support/opencv_box_filter.hpp"
#include "support/typed_window_sum.hpp"

#include <gtest/gtest.h>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <iostream>
#include <type_traits>
#include <variant>
#include <vector>

namespace coalesce::typed {
namespace {

using coalesce::test::cv_filter;
using coalesce::test::window_sum;  // from the definition, for judging OpenCV's 16U rounding

template <class T>
constexpr int cv_depth() {
    if constexpr (std::is_same_v<T, std::uint8_t>) return CV_8U;
    if constexpr (std::is_same_v<T, std::uint16_t>) return CV_16U;
    return CV_32F;
}

template <class T>
TypedImage<T> from_cv(const cv::Mat& m) {
    EXPECT_EQ(m.depth(), cv_depth<T>());
    TypedImage<T> out(static_cast<std::size_t>(m.rows), static_cast<std::size_t>(m.cols),
                      static_cast<std::size_t>(m.channels()));
    for (int r = 0; r < m.rows; ++r) {
        const T* row = m.ptr<T>(r);
        std::copy(row, row + m.cols * m.channels(),
                  out.data() + static_cast<std::size_t>(r) * out.cols() * out.channels());
    }
    return out;
}

// Element i (row-major, channels interleaved) of a continuous Mat of any depth, as a double.
double cv_value(const cv::Mat& m, std::size_t i) {
    switch (m.depth()) {
    case CV_8U: return m.ptr<std::uint8_t>()[i];
    case CV_16U: return m.ptr<std::uint16_t>()[i];
    case CV_32S: return m.ptr<std::int32_t>()[i];
    case CV_32F: return m.ptr<float>()[i];
    case CV_64F: return m.ptr<double>()[i];
    }
    ADD_FAILURE() << "depth " << m.depth();
    return 0.0;
}

// OpenCV's 16U SIMD mean: float32 product, rounded to nearest even.
std::uint64_t opencv_float_mean(std::uint64_t sum, int k) {
    const float scale = static_cast<float>(1.0 / k);
    return static_cast<std::uint64_t>(std::nearbyint(static_cast<float>(sum) * scale));
}

struct FilterComparison {
    std::size_t elements = 0;
    std::size_t opencv_float_ups = 0;  // u16 elements where OpenCV's float32 rounds up
};

template <class T>
void compare_filter(const cv::Mat& m, int radius, Border border, bool along_x,
                    FilterComparison& tally, const std::string& what) {
    const TypedImage<T> in = from_cv<T>(m);
    const TypedImage<T> ours =
        along_x ? filter_x(in, radius, border) : filter_y(in, radius, border);
    const cv::Mat theirs = cv_filter(m, radius, border, along_x);
    ASSERT_EQ(theirs.total() * static_cast<std::size_t>(theirs.channels()), ours.size()) << what;
    const std::size_t ch = in.channels();
    std::size_t reported = 0;
    for (std::size_t i = 0; i < ours.size(); ++i) {
        const double got = static_cast<double>(ours.data()[i]), want = cv_value(theirs, i);
        ++tally.elements;
        if constexpr (std::is_same_v<T, float>) {
            ASSERT_NEAR(got, want, 1e-6 * std::max(1.0, std::abs(want))) << what << " at " << i;
            continue;
        } else {
            if (got == want) continue;
            const std::size_t r = i / ch / in.cols(), c = i / ch % in.cols(), k = i % ch;
            const std::uint64_t s = window_sum(in, r, c, k, radius, border, along_x);
            const bool float_up =
                std::is_same_v<T, std::uint16_t> && want == got + 1 &&
                opencv_float_mean(s, 2 * radius + 1) == static_cast<std::uint64_t>(want);
            if (float_up) {
                ++tally.opencv_float_ups;
                continue;
            }
            if (reported++ < 5)
                ADD_FAILURE() << what << ": (" << r << ", " << c << ", ch " << k << ") ours " << got
                              << ", OpenCV " << want << ", window sum " << s;
        }
    }
}

template <class T>
void compare_exact(const TypedImage<T>& ours, const cv::Mat& theirs, const std::string& what) {
    ASSERT_EQ(theirs.total() * static_cast<std::size_t>(theirs.channels()), ours.size()) << what;
    for (std::size_t i = 0; i < ours.size(); ++i)
        ASSERT_EQ(static_cast<double>(ours.data()[i]), cv_value(theirs, i)) << what << " at " << i;
}

template <class Sums>
void compare_sums(const Sums& ours, const cv::Mat& theirs, bool exact, const std::string& what) {
    std::visit(
        [&](const auto& img) {
            ASSERT_EQ(theirs.total() * static_cast<std::size_t>(theirs.channels()), img.size())
                << what;
            for (std::size_t i = 0; i < img.size(); ++i) {
                const double got = static_cast<double>(img.data()[i]), want = cv_value(theirs, i);
                if (exact)
                    ASSERT_EQ(got, want) << what << " at " << i;
                else
                    ASSERT_NEAR(got, want, 1e-9 * std::max(1.0, std::abs(want)))
                        << what << " at " << i;
            }
        },
        ours);
}

std::variant<TypedImage<double>> as_variant(TypedImage<double> v) { return v; }

// ---- the images -------------------------------------------------------------------------------

struct Loaded {
    std::string name;  // file and how it was loaded
    cv::Mat mat;
};

std::vector<Loaded> load_all() {
    const std::string root = COALESCE_SOURCE_DIR;
    const std::vector<std::string> files = {
        "images/noise-97x61.pgm",         "images/ramp16-128x96.png",  "images/shapes-160x120.ppm",
        "images/zoneplate-320x200.png",   "images/coffee-600x400.png", "images/chelsea-451x300.png",
        "tests/data/coffee-crop-65x1.png"};
    std::vector<Loaded> out;
    for (const std::string& f : files) {
        const cv::Mat colour = cv::imread(root + "/" + f, cv::IMREAD_COLOR);
        const cv::Mat grey = cv::imread(root + "/" + f, cv::IMREAD_GRAYSCALE);
        const cv::Mat native = cv::imread(root + "/" + f, cv::IMREAD_UNCHANGED);
        EXPECT_FALSE(colour.empty() || grey.empty() || native.empty()) << f;
        if (colour.empty() || grey.empty() || native.empty()) continue;
        cv::Mat colour16, grey16, bgra, colourf;
        colour.convertTo(colour16, CV_16U, 257);
        grey.convertTo(grey16, CV_16U, 257);
        colour.convertTo(colourf, CV_32F, 1.0 / 255);
        std::vector<cv::Mat> planes;
        cv::split(colour, planes);
        planes.push_back(grey);  // a varying fourth channel, not a constant alpha
        cv::merge(planes, bgra);
        out.push_back({f + " 8-bit grey", grey});
        out.push_back({f + " 8-bit colour", colour});
        out.push_back({f + " 8-bit BGR + grey (4 channels)", bgra});
        out.push_back({f + " 16-bit grey (x257)", grey16});
        out.push_back({f + " 16-bit colour (x257)", colour16});
        out.push_back({f + " float colour (/255)", colourf});
        if (native.depth() == CV_16U) out.push_back({f + " 16-bit as stored", native});
    }
    // a 5x7 corner, so radii 17 and 64 exceed both sides
    const cv::Mat shapes = cv::imread(root + "/images/shapes-160x120.ppm", cv::IMREAD_COLOR);
    if (!shapes.empty()) {
        cv::Mat corner16;
        shapes(cv::Rect(40, 30, 7, 5)).convertTo(corner16, CV_16U, 257);
        out.push_back({"shapes 7x5 crop 8-bit colour", shapes(cv::Rect(40, 30, 7, 5)).clone()});
        out.push_back({"shapes 7x5 crop 16-bit colour", corner16});
    }
    return out;
}

const std::vector<Loaded>& images() {
    static const std::vector<Loaded> all = load_all();
    return all;
}

template <class F>
void for_each_typed(const Loaded& img, F&& f) {
    switch (img.mat.depth()) {
    case CV_8U: f(std::uint8_t{}); break;
    case CV_16U: f(std::uint16_t{}); break;
    case CV_32F: f(float{}); break;
    default: ADD_FAILURE() << img.name << ": depth " << img.mat.depth();
    }
}

TEST(TypedReferenceOpenCv, ImagesLoad) { EXPECT_GE(images().size(), 30u); }

TEST(TypedReferenceOpenCv, CopyAndTransposeKeepTypeAndMatch) {
    for (const Loaded& img : images())
        for_each_typed(img, [&](auto tag) {
            using T = decltype(tag);
            const TypedImage<T> in = from_cv<T>(img.mat);
            EXPECT_EQ(copy(in), in) << img.name;
            cv::Mat t;
            cv::transpose(img.mat, t);
            const TypedImage<T> ours = transpose(in);
            ASSERT_EQ(ours.rows(), in.cols());
            ASSERT_EQ(ours.channels(), in.channels());
            compare_exact(ours, t, img.name + " transpose");
        });
}

TEST(TypedReferenceOpenCv, RowAndColumnSumsMatchReduce) {
    for (const Loaded& img : images())
        for_each_typed(img, [&](auto tag) {
            using T = decltype(tag);
            const TypedImage<T> in = from_cv<T>(img.mat);
            // 8U reduces into CV_32S; 16U sums need more than CV_32S can promise in general,
            // and CV_64F is exact below 2^53
            const int dtype = std::is_same_v<T, std::uint8_t> ? CV_32S : CV_64F;
            cv::Mat rows, cols;
            cv::reduce(img.mat, rows, 1, cv::REDUCE_SUM, dtype);
            cv::reduce(img.mat, cols, 0, cv::REDUCE_SUM, dtype);
            constexpr bool exact = !std::is_same_v<T, float>;
            if constexpr (exact) {
                // every sample is far below 65537 columns or rows: uint32
                EXPECT_TRUE(std::holds_alternative<TypedImage<std::uint32_t>>(row_sums(in)));
                compare_sums(row_sums(in), rows, exact, img.name + " row_sums");
                compare_sums(col_sums(in), cols, exact, img.name + " col_sums");
            } else {
                compare_sums(as_variant(row_sums(in)), rows, exact, img.name + " row_sums");
                compare_sums(as_variant(col_sums(in)), cols, exact, img.name + " col_sums");
            }
        });
}

class TypedFilterOpenCv : public ::testing::TestWithParam<bool> {};  // along X?

TEST_P(TypedFilterOpenCv, MatchesBlurAtEveryRadiusAndBorder) {
    const bool along_x = GetParam();
    FilterComparison u8, u16, f32;
    for (const Loaded& img : images())
        for (int radius : {0, 1, 4, 17, 64})
            for (Border border : all_borders())
                for_each_typed(img, [&](auto tag) {
                    using T = decltype(tag);
                    FilterComparison& tally = std::is_same_v<T, std::uint8_t>    ? u8
                                              : std::is_same_v<T, std::uint16_t> ? u16
                                                                                 : f32;
                    compare_filter<T>(img.mat, radius, border, along_x, tally,
                                      img.name + " r=" + std::to_string(radius) + " " +
                                          std::string(border_name(border)));
                });
    std::cout << (along_x ? "filter_x" : "filter_y") << ": u8 " << u8.elements
              << " elements, all equal; u16 " << u16.elements << " elements, "
              << u16.opencv_float_ups << " where OpenCV's float32 rounds up; f32 " << f32.elements
              << " within 1e-6\n";
    EXPECT_EQ(u8.opencv_float_ups, 0u);
    EXPECT_GT(u16.elements, 0u);
}

INSTANTIATE_TEST_SUITE_P(Axes, TypedFilterOpenCv, ::testing::Values(true, false),
                         [](const auto& axis) { return axis.param ? "AlongX" : "AlongY"; });

// ColumnSum<ushort, uchar>'s fixed point (box_filter.simd.hpp), restated: for every odd k up to
// 129 and every sum of k bytes it gives the exact rounded mean the reference uses.
TEST(TypedReferenceOpenCv, OpenCvU8FixedPointIsExactRounding) {
    for (int k = 3; k <= 2 * kMaxRadius + 1; k += 2) {
        const double scalef = static_cast<double>(1 << 23) / k;
        auto scale = static_cast<std::uint64_t>(std::floor(scalef));
        std::uint64_t delta = static_cast<std::uint64_t>(k / 2);
        if (scalef - static_cast<double>(scale) < 0.5)
            ++delta;
        else
            ++scale;
        for (std::uint64_t s = 0; s <= 255u * static_cast<std::uint64_t>(k); ++s)
            ASSERT_EQ(((s + delta) * scale) >> 23, rounded_mean(s, static_cast<std::uint64_t>(k)))
                << "k " << k << " s " << s;
    }
}

// The surprise, pinned: 117 values summing to 6072007 have the mean 51897.4957..., which rounds
// to 51897; OpenCV 4's 16U blur computes float(6072007) * float(1/117) = 51897.5 and gives 51898.
TEST(TypedReferenceOpenCv, OpenCv16URoundsSomeSumsUp) {
    cv::Mat row(1, 117, CV_16U, cv::Scalar(51897));
    row.at<std::uint16_t>(0, 0) = 51897 + 58;
    ASSERT_EQ(cv::sum(row)[0], 6072007.0);
    cv::Mat out;
    cv::blur(row, out, cv::Size(117, 1), cv::Point(-1, -1), cv::BORDER_REPLICATE);
    const TypedImage<std::uint16_t> ours = filter_x(from_cv<std::uint16_t>(row), 58, Border::clamp);
    EXPECT_EQ(ours.at(0, 58), 51897);
    EXPECT_EQ(out.at<std::uint16_t>(0, 58), 51898);
    EXPECT_EQ(opencv_float_mean(6072007, 117), 51898u);
}

TEST(TypedReferenceOpenCv, BlurRefusesWrap) {
    cv::Mat m(4, 4, CV_8U, cv::Scalar(1)), out;
    EXPECT_THROW(cv::blur(m, out, cv::Size(3, 1), cv::Point(-1, -1), cv::BORDER_WRAP),
                 cv::Exception);
}

// ---- small cases with known answers -----------------------------------------------------------

template <class T>
TypedImage<T> row_of(std::vector<T> v) {
    TypedImage<T> out(1, v.size(), 1);
    std::copy(v.begin(), v.end(), out.data());
    return out;
}

std::vector<std::uint8_t> values(const TypedImage<std::uint8_t>& img) {
    return {img.data(), img.data() + img.size()};
}

TEST(TypedReferenceKnown, RowOfFiveAlongXEveryBorder) {
    const auto in = row_of<std::uint8_t>({10, 20, 30, 40, 50});
    // r = 1, k = 3: clamp pads 10 | 50, zero 0 | 0, mirror 10 | 50, wrap 50 | 10
    EXPECT_EQ(values(filter_x(in, 1, Border::clamp)),
              (std::vector<std::uint8_t>{13, 20, 30, 40, 47}));  // 40/3, 140/3
    EXPECT_EQ(values(filter_x(in, 1, Border::zero)),
              (std::vector<std::uint8_t>{10, 20, 30, 40, 30}));  // 30/3, 90/3
    EXPECT_EQ(values(filter_x(in, 1, Border::mirror)),
              (std::vector<std::uint8_t>{13, 20, 30, 40, 47}));
    EXPECT_EQ(values(filter_x(in, 1, Border::wrap)),
              (std::vector<std::uint8_t>{27, 20, 30, 40, 33}));  // 80/3, 100/3
    // r = 2, mirror reflects with the edge repeated: 20 10 | 10 20 30 40 50 | 50 40
    EXPECT_EQ(values(filter_x(in, 2, Border::mirror)),
              (std::vector<std::uint8_t>{18, 22, 30, 38, 42}));  // 90/5, 110/5, ..., 210/5
    // r = 0 is the identity; along Y a single row is only its own neighbour under clamp
    EXPECT_EQ(filter_x(in, 0, Border::zero), in);
    EXPECT_EQ(filter_y(in, 3, Border::clamp), in);
    EXPECT_EQ(values(filter_y(in, 1, Border::zero)),
              (std::vector<std::uint8_t>{3, 7, 10, 13, 17}));  // v/3 rounded
}

TEST(TypedReferenceKnown, ColumnOfThree) {
    TypedImage<std::uint16_t> in(3, 1, 1);
    in.at(0, 0) = 1;
    in.at(1, 0) = 2;
    in.at(2, 0) = 65535;
    const auto y = filter_y(in, 1, Border::clamp);  // (1+1+2)/3, (1+2+65535)/3, (2+65535*2)/3
    EXPECT_EQ(y.at(0, 0), 1);
    EXPECT_EQ(y.at(1, 0), 21846);
    EXPECT_EQ(y.at(2, 0), 43691);
    const auto w = filter_y(in, 4, Border::wrap);  // 9 terms: three of each value
    EXPECT_EQ(w.at(0, 0), 21846);
    EXPECT_EQ(w.at(2, 0), 21846);
    const auto t = transpose(in);
    EXPECT_EQ(t.rows(), 1u);
    EXPECT_EQ(t.cols(), 3u);
    EXPECT_EQ(t.at(0, 2), 65535);
    const auto cs = std::get<TypedImage<std::uint32_t>>(col_sums(in));
    EXPECT_EQ(cs.at(0, 0), 65538u);
    const auto rs = std::get<TypedImage<std::uint32_t>>(row_sums(in));
    EXPECT_EQ(rs.at(2, 0), 65535u);
}

TEST(TypedReferenceKnown, ConstantImageStaysConstantExceptZeroBorder) {
    const TypedImage<std::uint8_t> in(9, 11, 3, 200);
    for (int r : {0, 1, 4, 17, 64})
        for (Border b : {Border::clamp, Border::mirror, Border::wrap}) {
            EXPECT_EQ(filter_x(in, r, b), in) << r;
            EXPECT_EQ(filter_y(in, r, b), in) << r;
        }
    // zero border, r = 1: the corner column sees 2 of 3 neighbours, 400/3 = 133.3
    EXPECT_EQ(filter_x(in, 1, Border::zero).at(4, 0, 2), 133);
    EXPECT_EQ(filter_x(in, 1, Border::zero).at(4, 5, 2), 200);
    const auto rs = std::get<TypedImage<std::uint32_t>>(row_sums(in));
    EXPECT_EQ(rs.at(8, 0, 1), 2200u);
}

TEST(TypedReferenceKnown, RadiusOutsideRangeIsRefusedByName) {
    const TypedImage<float> in(2, 2, 1);
    try {
        (void)filter_y(in, 65, Border::clamp);
        FAIL() << "no exception";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("filter_y: radius 65"), std::string::npos);
    }
    EXPECT_THROW((void)filter_x(in, -1, Border::clamp), std::invalid_argument);
}

// ---- the sum width rule -----------------------------------------------------------------------

TEST(TypedSums, WidthRuleAtItsBoundaries) {
    // 2^32 - 1 = 65537 * 65535 = 16843009 * 255
    EXPECT_EQ(sum_width("row_sums", 65537, ElemType::u16), SumWidth::u32);
    EXPECT_EQ(sum_width("row_sums", 65538, ElemType::u16), SumWidth::u64);
    EXPECT_EQ(sum_width("col_sums", 16843009, ElemType::u8), SumWidth::u32);
    EXPECT_EQ(sum_width("col_sums", 16843010, ElemType::u8), SumWidth::u64);
    EXPECT_THROW((void)sum_width("row_sums", 10, ElemType::f32), std::invalid_argument);
}

TEST(TypedSums, OverflowOfEvenUint64IsRefusedByName) {
    // unreachable with an image in memory (2^48 u16 elements); the rule is tested directly
    const std::size_t terms = (std::uint64_t{1} << 63) / 65535 * 2 + 1000;
    try {
        (void)sum_width("col_sums", terms, ElemType::u16);
        FAIL() << "no exception";
    } catch (const std::overflow_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("col_sums"), std::string::npos) << what;
        EXPECT_NE(what.find(std::to_string(terms)), std::string::npos) << what;
        EXPECT_NE(what.find("u16"), std::string::npos) << what;
    }
}

TEST(TypedSums, LongU16RowsSwitchToUint64Exactly) {
    for (std::size_t cols : {std::size_t{65537}, std::size_t{65538}}) {
        const TypedImage<std::uint16_t> in(2, cols, 1, 65535);
        const IntegerSums sums = row_sums(in);
        const std::uint64_t want = 65535ull * cols;
        if (cols == 65537) {
            ASSERT_TRUE(std::holds_alternative<TypedImage<std::uint32_t>>(sums));
            EXPECT_EQ(std::get<TypedImage<std::uint32_t>>(sums).at(1, 0), want);  // 2^32 - 1
        } else {
            ASSERT_TRUE(std::holds_alternative<TypedImage<std::uint64_t>>(sums));
            EXPECT_EQ(std::get<TypedImage<std::uint64_t>>(sums).at(1, 0), want);  // > 2^32
        }
        // and OpenCV agrees in double
        cv::Mat m(2, static_cast<int>(cols), CV_16U, cv::Scalar(65535)), r;
        cv::reduce(m, r, 1, cv::REDUCE_SUM, CV_64F);
        EXPECT_EQ(r.at<double>(1, 0), static_cast<double>(want));
    }
    // columns of 65538 u16 rows: col_sums widens the same way
    const TypedImage<std::uint16_t> tall(65538, 1, 1, 65535);
    EXPECT_TRUE(std::holds_alternative<TypedImage<std::uint64_t>>(col_sums(tall)));
}

}  // namespace
}  // namespace coalesce::typed
