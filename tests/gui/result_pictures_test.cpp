// The difference picture of a result: u8/u16 runs are verified exactly, so their difference is
// drawn against a zero bound (any difference fails), not against the float32 bounds.
#include "matrix_image.hpp"
#include "result_pictures.hpp"

#include "coalesce/runner.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace coalesce::gui {
namespace {

// A 4 x 5 transpose result whose output is its reference with one element changed by `delta`.
RunResult transpose_result(const std::string& type, float delta) {
    RunResult r;
    r.op = "transpose";
    r.variant = "transpose/cpu-naive";
    r.type = type;
    r.rows = 5;
    r.cols = 4;
    Matrix reference(4, 5);
    for (std::size_t i = 0; i < reference.size(); ++i) reference.data()[i] = static_cast<float>(i);
    Matrix output = reference;
    output.at(2, 3) += delta;
    r.reference = std::make_shared<const Matrix>(std::move(reference));
    r.output = std::make_shared<const Matrix>(std::move(output));
    return r;
}

ResultPictures pictures_of(const RunResult& r) {
    RunConfig config;
    return make_result_pictures(r, config, nullptr, nullptr, std::nullopt, [] { return false; });
}

TEST(ResultPictures, AU8RunsDifferenceFailsOnAnyDifference) {
    const ResultPictures p = pictures_of(transpose_result("u8", 1.0f));
    ASSERT_TRUE(p.difference.has_value()) << p.difference_message.toStdString();
    EXPECT_TRUE(p.difference->caption.contains("exact (u8): 1 element(s) differ"))
        << p.difference->caption.toStdString();
    EXPECT_EQ(p.difference->rendered.image.pixel(3, 2), kBeyondBoundColour);
    EXPECT_NE(p.difference->rendered.image.pixel(0, 0), kBeyondBoundColour);
}

TEST(ResultPictures, AnIdenticalU16RunSaysSo) {
    const ResultPictures p = pictures_of(transpose_result("u16", 0.0f));
    ASSERT_TRUE(p.difference.has_value()) << p.difference_message.toStdString();
    EXPECT_EQ(p.difference->caption, QString("identical to the CPU reference"));
}

// A float32 transpose is exact too, through its bound: the same one-element difference fails,
// and the caption says so without the u8/u16 wording.
TEST(ResultPictures, AnF32RunKeepsItsOwnBound) {
    const ResultPictures p = pictures_of(transpose_result("f32", 1.0f));
    ASSERT_TRUE(p.difference.has_value()) << p.difference_message.toStdString();
    EXPECT_FALSE(p.difference->caption.contains("exact (")) << p.difference->caption.toStdString();
    EXPECT_EQ(p.difference->rendered.image.pixel(3, 2), kBeyondBoundColour);
}

}  // namespace
}  // namespace coalesce::gui
