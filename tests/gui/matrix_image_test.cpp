// Pictures of matrices: grey levels over the value range, the difference heat map.
#include "matrix_image.hpp"

#include <gtest/gtest.h>

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

TEST(MatrixImage, HeatMapIsBlackWhereEqualAndWhiteAtTheLargestDifference) {
    Matrix out(2, 2, 1.0f), ref(2, 2, 1.0f);
    out.at(1, 0) = 1.5f;
    out.at(1, 1) = 0.0f;  // |diff| = 1, the largest
    const Matrix diff = absolute_difference(out, ref);
    ASSERT_EQ(diff.shape(), out.shape());
    EXPECT_FLOAT_EQ(diff.at(1, 0), 0.5f);
    const Rendered heat = render_heat(diff);
    EXPECT_EQ(heat.image.pixel(0, 0), qRgb(0, 0, 0));
    EXPECT_EQ(heat.image.pixel(1, 1), qRgb(255, 255, 255));
    EXPECT_FLOAT_EQ(heat.hi, 1.0f);
    EXPECT_TRUE(absolute_difference(out, Matrix(2, 3)).empty());  // shapes differ: no picture
}
