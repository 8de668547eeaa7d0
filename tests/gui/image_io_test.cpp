// Reading images and matrix files into float32 matrices, and writing outputs back safely.
#include "image_loader.hpp"
#include "image_writer.hpp"

#include "coalesce/type_conversion.hpp"

#include "../support/temp_dir.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <fstream>
#include <limits>

using namespace coalesce;
using namespace coalesce::gui;
namespace fs = std::filesystem;

namespace {

// The environment may say where the samples are (the GPU check runs far from the source tree).
const fs::path kSamples = [] {
    const char* given = std::getenv("COALESCE_TEST_SAMPLES_DIR");
    return fs::path(given && *given ? given : COALESCE_SAMPLES_DIR);
}();

// A fresh folder per test, removed afterwards.
class ImageIo : public ::testing::Test {
protected:
    void SetUp() override {
        temp_.emplace(std::string("gui-io-") +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        dir_ = temp_->path();
    }
    void TearDown() override { temp_.reset(); }
    std::optional<test::TempDir> temp_;
    fs::path dir_;
};

std::size_t files_in(const fs::path& dir) {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_F(ImageIo, ReadsAn8BitPngWithItsValuesAndShape) {
    const LoadedImage image = load_image(kSamples / "zoneplate-320x200.png");
    ASSERT_TRUE(image.matrix);
    EXPECT_EQ(image.matrix->rows(), 200u);
    EXPECT_EQ(image.matrix->cols(), 320u);
    EXPECT_FLOAT_EQ(image.min_value, 0.0f);
    EXPECT_FLOAT_EQ(image.max_value, 255.0f);
    EXPECT_NE(image.source_type.find("PNG"), std::string::npos);
    EXPECT_NE(image.source_type.find("8-bit unsigned"), std::string::npos);
}

TEST_F(ImageIo, Keeps16BitValues) {
    const LoadedImage image = load_image(kSamples / "ramp16-128x96.png");
    EXPECT_EQ(image.matrix->rows(), 96u);
    EXPECT_EQ(image.matrix->cols(), 128u);
    EXPECT_FLOAT_EQ(image.matrix->at(0, 0), 0.0f);
    EXPECT_FLOAT_EQ(image.matrix->at(95, 127), 65535.0f);
    EXPECT_NE(image.source_type.find("16-bit unsigned"), std::string::npos);
}

TEST_F(ImageIo, ColourBecomesLuminanceOrOneChannel) {
    // shapes-160x120.ppm: pixel (60, 50) is in the red disc only: r = 230, g = b = 24.
    const LoadedImage red = load_image(kSamples / "shapes-160x120.ppm", ChannelChoice::red);
    const LoadedImage green = load_image(kSamples / "shapes-160x120.ppm", ChannelChoice::green);
    const LoadedImage lum = load_image(kSamples / "shapes-160x120.ppm", ChannelChoice::luminance);
    EXPECT_FLOAT_EQ(red.matrix->at(60, 50), 230.0f);
    EXPECT_FLOAT_EQ(green.matrix->at(60, 50), 24.0f);
    EXPECT_NEAR(lum.matrix->at(60, 50), 0.299f * 230 + 0.587f * 24 + 0.114f * 24, 0.01f);
    EXPECT_NE(lum.source_type.find("3 channels"), std::string::npos);
    EXPECT_NE(lum.source_type.find("luminance"), std::string::npos);
    EXPECT_THROW(load_image(kSamples / "shapes-160x120.ppm", ChannelChoice::alpha),
                 std::runtime_error);
}

TEST_F(ImageIo, ReadsTheFirstMatrixOfAnOpenCvYamlFile) {
    const fs::path path = dir_ / "m.yml";
    cv::Mat m(3, 5, CV_64F);
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 5; ++c) m.at<double>(r, c) = r * 10 + c + 0.5;
    {
        cv::FileStorage fs_out(path.string(), cv::FileStorage::WRITE);
        fs_out << "note"
               << "not a matrix";
        fs_out << "values" << m;
        fs_out << "second" << cv::Mat::zeros(2, 2, CV_32F);
    }
    const LoadedImage image = load_image(path);
    ASSERT_EQ(image.matrix->rows(), 3u);
    ASSERT_EQ(image.matrix->cols(), 5u);
    EXPECT_FLOAT_EQ(image.matrix->at(2, 4), 24.5f);
    EXPECT_FLOAT_EQ(image.min_value, 0.5f);
    EXPECT_NE(image.source_type.find("64-bit float"), std::string::npos);
}

TEST_F(ImageIo, AYamlFileWithoutAMatrixIsRefused) {
    const fs::path path = dir_ / "none.yml";
    {
        cv::FileStorage fs_out(path.string(), cv::FileStorage::WRITE);
        fs_out << "answer" << 42;
    }
    EXPECT_THROW(load_image(path), std::runtime_error);
}

TEST_F(ImageIo, ACorruptImageIsRefusedWithTheFileNamed) {
    const fs::path path = dir_ / "broken.png";
    {
        // A PNG signature followed by garbage: looks like a PNG, decodes to nothing.
        std::ofstream out(path, std::ios::binary);
        out << "\x89PNG\r\n\x1a\n" << std::string(200, 'x');
    }
    try {
        load_image(path);
        FAIL() << "a corrupt PNG was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("broken.png"), std::string::npos) << e.what();
    }
    EXPECT_THROW(load_image(dir_ / "missing.png"), std::runtime_error);
}

TEST_F(ImageIo, PngIsNormalizedTo8BitAndWrittenWithoutLeftovers) {
    Matrix m(4, 6);
    for (std::size_t i = 0; i < m.size(); ++i)
        m.data()[i] = -3.0f + static_cast<float>(i);  // -3 .. 20
    const fs::path path = dir_ / "out.png";
    EXPECT_EQ(save_image(path, m), ImageEncoding::png8_normalized);
    const cv::Mat back = cv::imread(path.string(), cv::IMREAD_UNCHANGED);
    ASSERT_EQ(back.type(), CV_8UC1);
    EXPECT_EQ(back.at<unsigned char>(0, 0), 0);
    EXPECT_EQ(back.at<unsigned char>(3, 5), 255);
    EXPECT_EQ(files_in(dir_), 1u);  // no temporary file left behind
}

TEST_F(ImageIo, TiffIs16BitForIntegersAndFloatOtherwiseBothExact) {
    const LoadedImage ramp = load_image(kSamples / "ramp16-128x96.png");
    const fs::path ints = dir_ / "ramp.tif";
    EXPECT_EQ(save_image(ints, *ramp.matrix), ImageEncoding::tiff16);
    const LoadedImage ramp_back = load_image(ints);
    EXPECT_NE(ramp_back.source_type.find("16-bit unsigned"), std::string::npos);
    EXPECT_EQ(std::memcmp(ramp_back.matrix->data(), ramp.matrix->data(),
                          ramp.matrix->size() * sizeof(float)),
              0);

    Matrix fractions = Matrix::random(7, 9, 3);
    const fs::path floats = dir_ / "random.tiff";
    EXPECT_EQ(save_image(floats, fractions), ImageEncoding::tiff_float);
    const LoadedImage back = load_image(floats);
    ASSERT_EQ(back.matrix->shape(), fractions.shape());
    EXPECT_EQ(std::memcmp(back.matrix->data(), fractions.data(), fractions.size() * sizeof(float)),
              0);
}

// Saving keeps the run's element type: a u8 output is an 8-bit PNG whose values, read back
// through the typed loader, are the output bit for bit; u16 is 16-bit PNG or TIFF.
TEST_F(ImageIo, AU8OutputSavesAsAn8BitPngBitForBit) {
    TypedImage<std::uint8_t> out(13, 7, 1);
    for (std::size_t i = 0; i < out.size(); ++i) out.data()[i] = static_cast<std::uint8_t>(i * 37);
    const AnyImage typed = out;
    const Matrix shown = to_matrix(typed);
    const fs::path path = dir_ / "out8.png";
    EXPECT_EQ(save_output_image(path, shown, &typed), ImageEncoding::png8_exact);
    const LoadedImage back = load_image(path);
    EXPECT_EQ(back.elem_type, ElemType::u8);
    ASSERT_TRUE(back.typed);
    EXPECT_EQ(std::get<TypedImage<std::uint8_t>>(*back.typed), out);
    EXPECT_EQ(cv::imread(path.string(), cv::IMREAD_UNCHANGED).type(), CV_8UC1);
    EXPECT_EQ(files_in(dir_), 1u);
}

TEST_F(ImageIo, AU16OutputSavesAs16BitPngOrTiff) {
    TypedImage<std::uint16_t> out(5, 9, 1);
    for (std::size_t i = 0; i < out.size(); ++i)
        out.data()[i] = static_cast<std::uint16_t>(i * 1499);
    const AnyImage typed = out;
    const Matrix shown = to_matrix(typed);
    for (const char* name : {"out16.png", "out16.tif"}) {
        SCOPED_TRACE(name);
        const fs::path path = dir_ / name;
        const ImageEncoding used = save_output_image(path, shown, &typed);
        EXPECT_EQ(used, std::string(name).ends_with(".png") ? ImageEncoding::png16_exact
                                                            : ImageEncoding::tiff16_exact);
        const LoadedImage back = load_image(path);
        EXPECT_EQ(back.elem_type, ElemType::u16);
        EXPECT_EQ(std::get<TypedImage<std::uint16_t>>(*back.typed), out);
    }
}

// A colour output keeps its channels and its type: an 8-bit colour PNG stays 8-bit colour and
// reads back byte for byte (B, G, R as OpenCV stores them); 16-bit with alpha stays 16-bit RGBA.
TEST_F(ImageIo, AColourOutputSavesAsColourInItsOwnTypeByteForByte) {
    TypedImage<std::uint8_t> bgr(11, 6, 3);
    for (std::size_t i = 0; i < bgr.size(); ++i) bgr.data()[i] = static_cast<std::uint8_t>(i * 53);
    const AnyImage eight = bgr;
    const fs::path png = dir_ / "colour8.png";
    EXPECT_EQ(save_output_image(png, to_matrix(eight), &eight), ImageEncoding::png8_exact);
    EXPECT_EQ(cv::imread(png.string(), cv::IMREAD_UNCHANGED).type(), CV_8UC3);
    LoadOptions colour;
    colour.keep_colour = true;
    const LoadedImage back = load_image(png, colour);
    ASSERT_TRUE(back.colour);
    EXPECT_EQ(std::get<TypedImage<std::uint8_t>>(*back.colour), bgr);

    TypedImage<std::uint16_t> bgra(4, 5, 4);
    for (std::size_t i = 0; i < bgra.size(); ++i)
        bgra.data()[i] = static_cast<std::uint16_t>(i * 1601 + 3);
    const AnyImage sixteen = bgra;
    for (const char* name : {"colour16.png", "colour16.tif"}) {
        SCOPED_TRACE(name);
        const fs::path path = dir_ / name;
        save_output_image(path, to_matrix(sixteen), &sixteen);
        EXPECT_EQ(cv::imread(path.string(), cv::IMREAD_UNCHANGED).type(), CV_16UC4);
        const LoadedImage wide = load_image(path, colour);
        ASSERT_TRUE(wide.colour);
        EXPECT_EQ(std::get<TypedImage<std::uint16_t>>(*wide.colour), bgra);
    }

    // A colour image's sums keep their channels through the float path.
    const AnyImage sums = TypedImage<std::uint32_t>(3, 1, 3, 70000u);
    EXPECT_EQ(save_output_image(dir_ / "sums.tif", to_matrix(sums), &sums),
              ImageEncoding::tiff_float);
    const cv::Mat read = cv::imread((dir_ / "sums.tif").string(), cv::IMREAD_UNCHANGED);
    EXPECT_EQ(read.type(), CV_32FC3);
    EXPECT_EQ(read.rows, 3);
    EXPECT_EQ(read.cols, 1);
    EXPECT_EQ(files_in(dir_), 4u);
}

// f32 outputs and the sums' u32/u64 save as the float matrix always did.
TEST_F(ImageIo, F32AndSumsOutputsSaveAsBefore) {
    const AnyImage sums = TypedImage<std::uint32_t>(2, 1, 1, 70000u);
    const Matrix shown = to_matrix(sums);
    EXPECT_EQ(save_output_image(dir_ / "sums.png", shown, &sums), ImageEncoding::png8_normalized);
    EXPECT_EQ(save_output_image(dir_ / "sums.tif", shown, &sums), ImageEncoding::tiff_float);
    EXPECT_EQ(save_output_image(dir_ / "f.png", Matrix(2, 2, 1.0f), nullptr),
              ImageEncoding::png8_normalized);
    const AnyImage eight = TypedImage<std::uint8_t>(1, 1, 1, 3);
    EXPECT_THROW(save_output_image(dir_ / "out.bmpx", to_matrix(eight), &eight),
                 std::runtime_error);
}

TEST_F(ImageIo, RefusedSavesLeaveNoFile) {
    const Matrix m(2, 2, 1.0f);
    EXPECT_THROW(save_image(dir_ / "out.bmpx", m), std::runtime_error);
    EXPECT_THROW(save_image(dir_ / "empty.png", Matrix()), std::runtime_error);
    EXPECT_THROW(save_image(dir_ / "no-such-folder" / "out.png", m), std::runtime_error);
    EXPECT_EQ(files_in(dir_), 0u);
}
