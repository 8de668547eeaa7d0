// The loader both front ends share (engine/imageio): channels and alpha as the file has them, a
// choice that falls back instead of failing, EXIF orientation exactly as OpenCV's imread applies
// it, NaN named, sizes and memory checked before decoding, and nothing on stderr.
#include "coalesce/imageio/image_loader.hpp"

#include "support/temp_dir.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <string>

namespace coalesce::imageio {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ImageLoader : public ::testing::Test {
protected:
    void SetUp() override {
        temp_.emplace(std::string("imageio-") +
                      ::testing::UnitTest::GetInstance()->current_test_info()->name());
        dir_ = temp_->path();
    }
    void TearDown() override { temp_.reset(); }

    std::string refusal(const std::function<void()>& f) {
        try {
            f();
        } catch (const std::runtime_error& e) {
            return e.what();
        }
        ADD_FAILURE() << "not refused";
        return {};
    }

    std::optional<test::TempDir> temp_;
    fs::path dir_;
};

// A BGRA image whose four channels differ everywhere.
cv::Mat bgra(int rows, int cols) {
    cv::Mat m(rows, cols, CV_8UC4);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            m.at<cv::Vec4b>(r, c) =
                cv::Vec4b(static_cast<uchar>(10 + c), static_cast<uchar>(100 + r),
                          static_cast<uchar>(200 - c), static_cast<uchar>(40 + r + c));
    return m;
}

template <class T>
const TypedImage<T>& typed_as(const LoadedImage& image) {
    EXPECT_TRUE(image.typed);
    return std::get<TypedImage<T>>(*image.typed);
}

// Every value of a single-channel cv::Mat equals the typed image's, bit for bit.
template <class T>
void expect_same_values(const cv::Mat& expected, const TypedImage<T>& got) {
    ASSERT_EQ(got.rows(), static_cast<std::size_t>(expected.rows));
    ASSERT_EQ(got.cols(), static_cast<std::size_t>(expected.cols));
    ASSERT_EQ(got.channels(), 1u);
    for (int r = 0; r < expected.rows; ++r)
        for (int c = 0; c < expected.cols; ++c)
            ASSERT_EQ(got.at(static_cast<std::size_t>(r), static_cast<std::size_t>(c)),
                      expected.at<T>(r, c))
                << "at (" << r << ", " << c << ")";
}

TEST_F(ImageLoader, AlphaIsKeptReportedAndReadable) {
    const fs::path png = dir_ / "rgba.png";
    ASSERT_TRUE(cv::imwrite(png.string(), bgra(5, 7)));
    const LoadedImage lum = load_image(png);
    EXPECT_EQ(lum.channels, 4);
    EXPECT_TRUE(lum.has_alpha);
    EXPECT_THAT(lum.source_type, HasSubstr("PNG, 8-bit unsigned, 4 channels (RGBA) → luminance"));
    const LoadedImage alpha = load_image(png, ChannelChoice::alpha);
    EXPECT_EQ(alpha.channel, ChannelChoice::alpha);
    EXPECT_EQ(alpha.matrix->at(2, 3), 40.0f + 2 + 3);
    const LoadedImage red = load_image(png, ChannelChoice::red);
    EXPECT_EQ(red.matrix->at(2, 3), 200.0f - 3);
    EXPECT_NEAR(lum.matrix->at(2, 3), 0.299f * 197 + 0.587f * 102 + 0.114f * 13, 0.01f);
}

TEST_F(ImageLoader, AMissingChannelFailsOrFallsBackAsAsked) {
    const fs::path png = dir_ / "rgb.png";
    cv::Mat rgb;
    cv::cvtColor(bgra(4, 4), rgb, cv::COLOR_BGRA2BGR);
    ASSERT_TRUE(cv::imwrite(png.string(), rgb));
    EXPECT_THAT(refusal([&] { load_image(png, ChannelChoice::alpha); }),
                HasSubstr("has no alpha channel (3 channels (RGB))"));

    LoadOptions fallback;
    fallback.channel = ChannelChoice::alpha;
    fallback.fall_back_to_luminance = true;
    const LoadedImage image = load_image(png, fallback);
    EXPECT_EQ(image.channel, ChannelChoice::luminance);
    EXPECT_THAT(image.note, HasSubstr("has no alpha channel"));
    EXPECT_THAT(image.source_type, HasSubstr("→ luminance (no alpha channel)"));
    EXPECT_EQ(image.matrix->data()[0], load_image(png).matrix->data()[0]);
}

// The window used to read with OpenCV's default orientation handling and the CLI without it;
// now both use this loader, which must turn every orientation exactly as imread does.
TEST_F(ImageLoader, ExifOrientationMatchesOpenCvForAllEight) {
    std::vector<uchar> jpeg;
    cv::Mat gray(6, 10, CV_8UC1);
    for (int r = 0; r < 6; ++r)
        for (int c = 0; c < 10; ++c) gray.at<uchar>(r, c) = static_cast<uchar>(r * 40 + c * 3);
    ASSERT_TRUE(cv::imencode(".jpg", gray, jpeg, {cv::IMWRITE_JPEG_QUALITY, 100}));
    for (int orientation = 1; orientation <= 8; ++orientation) {
        SCOPED_TRACE(orientation);
        const std::string tiff("MM\0*\0\0\0\x08\0\x01\x01\x12\0\x03\0\0\0\x01\0", 19);
        std::string entry = tiff;
        entry.push_back(static_cast<char>(orientation));
        entry.append(6, '\0');
        const std::string payload = std::string("Exif\0\0", 6) + entry;
        std::string app1("\xFF\xE1\0", 3);  // APP1, then its length (big-endian, < 256)
        app1.push_back(static_cast<char>(payload.size() + 2));
        app1.append(payload);
        std::string name = "o";
        name += static_cast<char>('0' + orientation);
        const fs::path file = dir_ / (name + ".jpg");
        std::ofstream(file, std::ios::binary) << std::string(jpeg.begin(), jpeg.begin() + 2) << app1
                                              << std::string(jpeg.begin() + 2, jpeg.end());
        const cv::Mat expected =
            cv::imread(file.string(), cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR);
        ASSERT_FALSE(expected.empty());
        const LoadedImage image = load_image(file);
        ASSERT_EQ(image.matrix->rows(), static_cast<std::size_t>(expected.rows));
        ASSERT_EQ(image.matrix->cols(), static_cast<std::size_t>(expected.cols));
        for (int r = 0; r < expected.rows; ++r)
            for (int c = 0; c < expected.cols; ++c)
                ASSERT_EQ(
                    image.matrix->at(static_cast<std::size_t>(r), static_cast<std::size_t>(c)),
                    expected.at<uchar>(r, c))
                    << r << "," << c;
        expect_same_values(expected, typed_as<std::uint8_t>(image));  // turned upright too
        EXPECT_EQ(image.exif_orientation, orientation);
    }
}

TEST_F(ImageLoader, TheFirstNanIsNamed) {
    cv::Mat floats(3, 4, CV_32F, cv::Scalar(1.5f));
    floats.at<float>(2, 1) = std::numeric_limits<float>::quiet_NaN();
    floats.at<float>(2, 3) = std::numeric_limits<float>::infinity();
    const fs::path tif = dir_ / "nan.tif";
    ASSERT_TRUE(cv::imwrite(tif.string(), floats));
    const std::string why = refusal([&] { load_image(tif); });
    EXPECT_THAT(why, HasSubstr("has a NaN pixel at row 2, column 1 (2 of 12 are NaN or infinite)"));
    EXPECT_THAT(why, HasSubstr("inputs must be finite"));
}

TEST_F(ImageLoader, SizeAndMemoryAreCheckedBeforeDecoding) {
    const fs::path png = dir_ / "big.png";
    ASSERT_TRUE(cv::imwrite(png.string(), cv::Mat(300, 200, CV_8UC1, cv::Scalar(7))));
    LoadOptions few_pixels;
    few_pixels.max_pixels = 1000;
    EXPECT_THAT(refusal([&] { load_image(png, few_pixels); }),
                HasSubstr("declares 200x300 pixels (60000); the limit is 1000 pixels (31x31)"));
    LoadOptions little_memory;
    little_memory.memory_budget = 1000;
    // 60000 decoded bytes + 240000 for the float32 matrix + 60000 for the u8 copy
    EXPECT_THAT(
        refusal([&] { load_image(png, little_memory); }),
        HasSubstr("needs about 352 KiB of memory to decode 200x300 pixels; 1 KiB are available"));
    EXPECT_EQ(load_image(png).matrix->rows(), 300u);
}

// What libpng and OpenCV print while failing stays out of stderr; the message says it instead.
TEST_F(ImageLoader, DecoderTextGoesIntoTheMessageNotToStderr) {
    // A PNG whose structure is whole but whose pixel data is too short for its declared size.
    std::vector<uchar> png;
    ASSERT_TRUE(cv::imencode(".png", cv::Mat(8, 8, CV_8UC1, cv::Scalar(3)), png));
    std::string bytes(png.begin(), png.end());
    bytes[16 + 3] = 100;  // width 8 -> 100: no longer matches the data (the CRC is fixed below)
    const auto crc_of = [&](std::size_t at, std::size_t n) {
        std::uint32_t c = 0xFFFFFFFFu;
        for (std::size_t i = at; i < at + n; ++i) {
            c ^= static_cast<unsigned char>(bytes[i]);
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        }
        return c ^ 0xFFFFFFFFu;
    };
    const std::uint32_t crc = crc_of(12, 17);
    for (int i = 0; i < 4; ++i)
        bytes[29 + static_cast<std::size_t>(i)] = static_cast<char>(crc >> (24 - 8 * i));
    const fs::path file = dir_ / "short.png";
    std::ofstream(file, std::ios::binary) << bytes;

    const fs::path err = dir_ / "stderr.txt";
    const int saved = ::dup(2);
    const int capture = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(capture, 2);
    const std::string why = refusal([&] { load_image(file); });
    ::dup2(saved, 2);
    ::close(saved);
    ::close(capture);
    EXPECT_THAT(why, HasSubstr("cannot be decoded as a PNG (Not enough image data)"));
    EXPECT_EQ(fs::file_size(err), 0u) << std::ifstream(err).rdbuf();
}

TEST_F(ImageLoader, MatrixFilesAreReadAndCheckedBeforeOpenCvParsesThem) {
    cv::Mat m(2, 3, CV_64F);
    for (int i = 0; i < 6; ++i) m.at<double>(i / 3, i % 3) = i + 0.25;
    for (const char* name : {"m.yml", "m.xml", "m.yml.gz"}) {
        SCOPED_TRACE(name);
        const fs::path file = dir_ / name;
        {
            cv::FileStorage out(file.string(), cv::FileStorage::WRITE);
            out << "comment"
                << "not a matrix";
            out << "values" << m;
        }
        const LoadedImage image = load_image(file);
        EXPECT_EQ(image.matrix->at(1, 2), 5.25f);
        EXPECT_THAT(image.source_type, HasSubstr("OpenCV matrix file, 64-bit float, 1 channel"));
    }
    std::ofstream(dir_ / "few.yml")
        << "%YAML:1.0\n---\nv: !!opencv-matrix\n   rows: 2\n   cols: 3\n"
           "   dt: f\n   data: [ 1, 2, 3, 4, 5 ]\n";
    EXPECT_THAT(refusal([&] { load_image(dir_ / "few.yml"); }),
                HasSubstr("matrix 'v' declares 6 values (2x3, 1 channel) but holds 5"));
    std::ofstream(dir_ / "deep.yml")
        << "%YAML:1.0\n---\na: " << std::string(100000, '[') << std::string(100000, ']') << "\n";
    EXPECT_THAT(refusal([&] { load_image(dir_ / "deep.yml"); }),
                HasSubstr("nests deeper than 64 levels"));
}

TEST_F(ImageLoader, OnlyRegularFilesAreOpened) {
    ASSERT_EQ(::mkfifo((dir_ / "pipe.png").c_str(), 0666), 0);
    fs::create_symlink("/dev/zero", dir_ / "zero.png");
    fs::create_directory(dir_ / "folder.png");
    EXPECT_THAT(refusal([&] { load_image(dir_ / "pipe.png"); }),
                HasSubstr("is a named pipe, not a regular file"));
    EXPECT_THAT(refusal([&] { load_image(dir_ / "zero.png"); }),
                HasSubstr("is a character device, not a regular file"));
    EXPECT_THAT(refusal([&] { load_image(dir_ / "folder.png"); }), HasSubstr("is a folder"));
    EXPECT_THAT(refusal([&] { load_image(dir_ / "none.png"); }),
                HasSubstr("none.png': no such file"));
}

// ------------------------------------------------------------------------------- typed loading

TEST_F(ImageLoader, An8BitPngRoundTripsAsU8) {
    cv::Mat gray(13, 17, CV_8U);
    cv::randu(gray, 0, 256);
    gray.at<uchar>(0, 0) = 0;
    gray.at<uchar>(12, 16) = 255;
    const fs::path png = dir_ / "gray8.png";
    ASSERT_TRUE(cv::imwrite(png.string(), gray));
    const LoadedImage image = load_image(png);
    EXPECT_EQ(image.elem_type, ElemType::u8);
    expect_same_values(gray, typed_as<std::uint8_t>(image));
    EXPECT_EQ(image.matrix->at(12, 16), 255.0f);  // the float path is as it was
}

TEST_F(ImageLoader, A16BitPngRoundTripsAsU16) {
    cv::Mat gray(9, 11, CV_16U);
    cv::randu(gray, 0, 65536);
    gray.at<std::uint16_t>(0, 0) = 65535;
    gray.at<std::uint16_t>(8, 10) = 257;
    const fs::path png = dir_ / "gray16.png";
    ASSERT_TRUE(cv::imwrite(png.string(), gray));
    const LoadedImage image = load_image(png);
    EXPECT_EQ(image.elem_type, ElemType::u16);
    expect_same_values(gray, typed_as<std::uint16_t>(image));
    EXPECT_EQ(image.matrix->at(0, 0), 65535.0f);
}

// Colour becomes luminance in the file's own depth, rounded as cv::cvtColor rounds it there.
TEST_F(ImageLoader, ColourLuminanceInItsDepthIsOpenCvsCvtColor) {
    const cv::Mat colour8 = bgra(6, 9);
    cv::Mat bgr8;
    cv::cvtColor(colour8, bgr8, cv::COLOR_BGRA2BGR);
    const fs::path png8 = dir_ / "rgb8.png";
    ASSERT_TRUE(cv::imwrite(png8.string(), bgr8));
    cv::Mat lum8;
    cv::cvtColor(bgr8, lum8, cv::COLOR_BGR2GRAY);
    const LoadedImage eight = load_image(png8);
    EXPECT_EQ(eight.elem_type, ElemType::u8);
    expect_same_values(lum8, typed_as<std::uint8_t>(eight));

    cv::Mat bgr16;
    bgr8.convertTo(bgr16, CV_16U, 257.0);
    bgr16.at<cv::Vec3w>(1, 2) = cv::Vec3w(1, 60000, 3);  // values an 8-bit image cannot hold
    const fs::path png16 = dir_ / "rgb16.png";
    ASSERT_TRUE(cv::imwrite(png16.string(), bgr16));
    cv::Mat lum16;
    cv::cvtColor(bgr16, lum16, cv::COLOR_BGR2GRAY);
    const LoadedImage sixteen = load_image(png16);
    EXPECT_EQ(sixteen.elem_type, ElemType::u16);
    expect_same_values(lum16, typed_as<std::uint16_t>(sixteen));

    // With alpha (RGBA), and a single channel picked: the same depth, the channel's own values.
    const fs::path rgba = dir_ / "rgba8.png";
    ASSERT_TRUE(cv::imwrite(rgba.string(), colour8));
    cv::Mat lum_rgba;
    cv::cvtColor(colour8, lum_rgba, cv::COLOR_BGRA2GRAY);
    expect_same_values(lum_rgba, typed_as<std::uint8_t>(load_image(rgba)));
    cv::Mat red;
    cv::extractChannel(colour8, red, 2);
    expect_same_values(red, typed_as<std::uint8_t>(load_image(rgba, ChannelChoice::red)));
}

// Float files and matrix files stay on the float path: f32, with no second copy.
TEST_F(ImageLoader, FloatAndMatrixFilesRunAsF32) {
    cv::Mat floats(3, 4, CV_32F, cv::Scalar(0.25f));
    const fs::path tif = dir_ / "f.tif";
    ASSERT_TRUE(cv::imwrite(tif.string(), floats));
    const LoadedImage tiff = load_image(tif);
    EXPECT_EQ(tiff.elem_type, ElemType::f32);
    EXPECT_FALSE(tiff.typed);
    const std::shared_ptr<const AnyImage> made = typed_input_of(tiff);
    ASSERT_TRUE(made);
    EXPECT_EQ(std::get<TypedImage<float>>(*made).at(2, 3), 0.25f);

    std::ofstream(dir_ / "m.yml") << "%YAML:1.0\n---\nm: !!opencv-matrix\n   rows: 1\n   cols: 2\n"
                                     "   dt: u\n   data: [ 1, 2 ]\n";
    const LoadedImage yml = load_image(dir_ / "m.yml");
    EXPECT_EQ(yml.elem_type, ElemType::f32);
    EXPECT_FALSE(yml.typed);
}

}  // namespace
}  // namespace coalesce::imageio
