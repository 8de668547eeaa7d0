// Pictures of matrices: grey levels over the value range, the difference heat map scaled against
// the verification bound, the reduced copies a view paints large matrices from.
#include "matrix_image.hpp"
#include "verification_bound.hpp"

#include "coalesce/type_conversion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace coalesce;
using namespace coalesce::gui;

TEST(MatrixImage, GreyMapsTheRangeToBlackAndWhiteAndMarksNaN) {
    Matrix m(1, 4);
    m.at(0, 0) = 2.0f;
    m.at(0, 1) = 4.0f;
    m.at(0, 2) = 6.0f;
    m.at(0, 3) = std::numeric_limits<float>::quiet_NaN();
    const Rendered r = render_grey(m);
    ASSERT_EQ(r.image.width(), 4);
    ASSERT_EQ(r.image.height(), 1);
    EXPECT_FLOAT_EQ(r.lo, 2.0f);
    EXPECT_FLOAT_EQ(r.hi, 6.0f);
    EXPECT_EQ(r.image.pixel(0, 0), qRgb(0, 0, 0));
    EXPECT_EQ(r.image.pixel(1, 0), qRgb(128, 128, 128));
    EXPECT_EQ(r.image.pixel(2, 0), qRgb(255, 255, 255));
    EXPECT_EQ(r.image.pixel(3, 0), qRgb(255, 0, 255));
}

// A colour image is drawn in its colours: channels B, G, R as OpenCV stores them become the
// pixel's blue, green and red; u8 over 0..255 and u16 over 0..65535 (not stretched), alpha unseen.
TEST(MatrixImage, ColourIsDrawnInItsColoursOverTheTypesRange) {
    TypedImage<std::uint8_t> bgr(1, 2, 3);
    const std::uint8_t values[] = {10, 20, 30, 200, 100, 0};  // (B, G, R) twice
    std::copy(std::begin(values), std::end(values), bgr.data());
    const Rendered eight = render_colour(AnyImage(bgr));
    EXPECT_EQ(eight.channels, 3);
    ASSERT_EQ(eight.image.size(), QSize(2, 1));
    EXPECT_EQ(eight.image.pixel(0, 0), qRgb(30, 20, 10));
    EXPECT_EQ(eight.image.pixel(1, 0), qRgb(0, 100, 200));
    EXPECT_FLOAT_EQ(eight.lo, 0.0f);
    EXPECT_FLOAT_EQ(eight.hi, 255.0f);

    TypedImage<std::uint16_t> bgra(1, 1, 4);
    const std::uint16_t wide[] = {65535, 257 * 128, 0, 7};
    std::copy(std::begin(wide), std::end(wide), bgra.data());
    const Rendered sixteen = render_colour(AnyImage(bgra));
    EXPECT_EQ(sixteen.channels, 4);
    EXPECT_EQ(sixteen.image.pixel(0, 0), qRgb(0, 128, 255));
    EXPECT_FLOAT_EQ(sixteen.hi, 65535.0f);

    // Sums share one scale over all channels, so their balance stays.
    TypedImage<std::uint32_t> sums(1, 2, 3);
    const std::uint32_t totals[] = {1000, 3000, 5000, 9000, 1000, 1000};
    std::copy(std::begin(totals), std::end(totals), sums.data());
    const Rendered summed = render_colour(AnyImage(sums));
    EXPECT_FLOAT_EQ(summed.lo, 1000.0f);
    EXPECT_FLOAT_EQ(summed.hi, 9000.0f);
    EXPECT_EQ(summed.image.pixel(0, 0), qRgb(128, 64, 0));
    EXPECT_EQ(summed.image.pixel(1, 0), qRgb(0, 0, 255));

    // One channel is drawn as grey, stretched as ever.
    const Rendered grey = render_colour(AnyImage(TypedImage<std::uint8_t>(1, 2, 1, 9)));
    EXPECT_EQ(grey.channels, 1);
    EXPECT_EQ(grey.image.pixel(0, 0), qRgb(0, 0, 0));
}

// A colour difference becomes one value per pixel: the largest over its channels, NaN kept.
TEST(MatrixImage, ChannelMaximumIsPerPixel) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    Matrix interleaved(1, 6);
    const float values[] = {0.0f, 3.0f, 1.0f, 2.0f, nan, 0.0f};
    std::copy(std::begin(values), std::end(values), interleaved.data());
    const Matrix max = channel_maximum(interleaved, 3);
    ASSERT_EQ(max.shape(), (Shape{1, 2}));
    EXPECT_FLOAT_EQ(max.at(0, 0), 3.0f);
    EXPECT_TRUE(std::isnan(max.at(0, 1)));
}

TEST(MatrixImage, HeatMapIsScaledAgainstTheBoundNotTheLargestDifference) {
    Matrix out(2, 2, 1.0f), ref(2, 2, 1.0f), bound(2, 2, 1.0f);
    out.at(0, 1) = 1.25f;  // a quarter of its bound: the largest difference, yet dark
    out.at(1, 1) = 4.0f;   // three times its bound: fails
    bound.at(1, 0) = 0.0f;
    out.at(1, 0) = 1.0f;  // equal where the bound is 0 (exact): black
    const Matrix diff = absolute_difference(out, ref);
    ASSERT_EQ(diff.shape(), out.shape());
    EXPECT_FLOAT_EQ(diff.at(0, 1), 0.25f);
    HeatStats stats;
    const Rendered heat = render_heat(diff, bound, &stats);
    // QImage::pixel takes (x = column, y = row).
    EXPECT_EQ(heat.image.pixel(0, 0), qRgb(0, 0, 0));
    EXPECT_EQ(heat.image.pixel(0, 1), qRgb(0, 0, 0));
    EXPECT_EQ(heat.image.pixel(1, 1), kBeyondBoundColour);
    EXPECT_EQ(heat.image.pixel(1, 0), heat_colour(0.25f));  // a dark red, not white
    EXPECT_LT(qRed(heat.image.pixel(1, 0)), 255);
    EXPECT_EQ(stats.beyond, 1u);
    EXPECT_FLOAT_EQ(stats.largest_ratio, 3.0f);
    EXPECT_TRUE(absolute_difference(out, Matrix(2, 3)).empty());  // shapes differ: no picture
}

TEST(MatrixImage, AnyDifferenceBeyondAZeroBoundAndNaNAreMarked) {
    Matrix diff(1, 3, 0.0f), bound(1, 3, 0.0f);
    diff.at(0, 1) = 1e-30f;
    diff.at(0, 2) = std::numeric_limits<float>::quiet_NaN();
    HeatStats stats;
    const Rendered heat = render_heat(diff, bound, &stats);
    EXPECT_EQ(heat.image.pixel(0, 0), qRgb(0, 0, 0));
    EXPECT_EQ(heat.image.pixel(1, 0), kBeyondBoundColour);
    EXPECT_EQ(heat.image.pixel(2, 0), kNonFiniteColour);
    EXPECT_EQ(stats.beyond, 1u);
    EXPECT_EQ(stats.non_finite, 1u);
}

TEST(MatrixImage, LargePicturesCarryHalvedCopiesDownToAFewHundredPixels) {
    const Matrix m = Matrix::random(3000, 1100, 7);
    const Rendered r = render_grey(m);
    ASSERT_FALSE(r.reduced.empty());
    QSize previous = r.image.size();
    for (const QImage& level : r.reduced) {
        EXPECT_EQ(level.width(), previous.width() / 2);
        EXPECT_EQ(level.height(), previous.height() / 2);
        previous = level.size();
    }
    EXPECT_LE(std::max(previous.width(), previous.height()), 512);
    EXPECT_TRUE(render_grey(Matrix(64, 64)).reduced.empty());
}

// The heat map's bound is the one verify() applies: an output just inside it verifies, one just
// outside fails, for every operation (exact ones have none).
TEST(VerificationBound, IsTheBoundVerifyApplies) {
    const Matrix in = Matrix::random(37, 29, 3);
    OpParams params;
    params.radius = 5;
    for (Op op : all_ops()) {
        const Reference ref = cpu_reference(op, in, params);
        const Matrix bounds = verification_bounds(op, ref);
        ASSERT_EQ(bounds.shape(), ref.value.shape()) << op_name(op);
        if (describe(op).exact) {
            EXPECT_EQ(bound_factor(op, ref.terms), 0.0) << op_name(op);
            continue;
        }
        // The element with the largest magnitude, pushed to 75 % and 130 % of its bound (float32
        // rounding of the output moves it by a few per cent of the bound).
        std::size_t at = 0;
        for (std::size_t i = 0; i < bounds.size(); ++i)
            if (bounds.data()[i] > bounds.data()[at]) at = i;
        ASSERT_GT(bounds.data()[at], 0.0f) << op_name(op);
        for (const auto& [share, passes] : {std::pair{0.75, true}, std::pair{1.3, false}}) {
            Matrix out = ref.value;
            out.data()[at] = static_cast<float>(static_cast<double>(ref.value.data()[at]) +
                                                share * static_cast<double>(bounds.data()[at]));
            EXPECT_EQ(verify(op, ref, out).ok, passes) << op_name(op) << " at " << share;
        }
    }
}
