// Colour end to end on real photographs against OpenCV on the CPU: the loader keeps a colour
// image's channels as OpenCV decodes them (B, G, R, and A), in 8 and 16 bits; the runner's colour
// runs of the six operations on those images (the host variants here; the GPU variants are held
// to the same typed reference in colour_gpu_test.cpp) give what cv::transpose, cv::reduce
// (REDUCE_SUM) and cv::blur give, per channel. u8 is exact everywhere; u16 filters are exact
// except where OpenCV's float32 mean rounds a sum just below a half up (typed_reference_test.cpp
// explains it), each such element checked against that formula. Built only with OpenCV.
#include "coalesce/imageio/image_loader.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/typed_run.hpp"

#include "support/temp_dir.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "support/opencv_box_filter.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <type_traits>
#include <string>
#include <vector>

namespace coalesce {
namespace {

using coalesce::test::cv_filter;

const std::string kRoot = COALESCE_SOURCE_DIR;

// The bytes of an interleaved typed image and of a continuous cv::Mat agree.
template <class T>
bool same_bytes(const TypedImage<T>& ours, const cv::Mat& theirs) {
    const cv::Mat m = theirs.isContinuous() ? theirs : theirs.clone();
    return ours.rows() == static_cast<std::size_t>(m.rows) &&
           ours.cols() == static_cast<std::size_t>(m.cols) &&
           ours.channels() == static_cast<std::size_t>(m.channels()) &&
           ours.size() * sizeof(T) == m.total() * m.elemSize() &&
           std::memcmp(ours.data(), m.data, ours.size() * sizeof(T)) == 0;
}

imageio::LoadedImage load_colour(const std::filesystem::path& path) {
    imageio::LoadOptions options;
    options.keep_colour = true;
    return imageio::load_image(path, options);
}

TEST(ColourLoad, PhotographsKeepTheirChannelsAsOpenCvDecodesThem) {
    for (const char* file : {"images/coffee-600x400.png", "images/chelsea-451x300.png"}) {
        const imageio::LoadedImage image = load_colour(kRoot + "/" + file);
        ASSERT_TRUE(image.colour) << file;
        const cv::Mat bgr = cv::imread(kRoot + "/" + file, cv::IMREAD_COLOR);
        EXPECT_TRUE(same_bytes(std::get<TypedImage<std::uint8_t>>(*image.colour), bgr)) << file;
        // Without keep_colour nothing changes: the luminance alone.
        EXPECT_FALSE(imageio::load_image(kRoot + "/" + file).colour) << file;
    }
    // A grey image has no colour to keep.
    EXPECT_FALSE(load_colour(kRoot + "/images/noise-97x61.pgm").colour);
}

TEST(ColourLoad, SixteenBitAndAlphaImagesKeepTheirDepthAndFourChannels) {
    test::TempDir dir("colour-load");
    const cv::Mat bgr = cv::imread(kRoot + "/images/chelsea-451x300.png", cv::IMREAD_COLOR);
    cv::Mat bgr16, bgra;
    bgr.convertTo(bgr16, CV_16U, 257);
    cv::cvtColor(bgr, bgra, cv::COLOR_BGR2BGRA);
    for (int r = 0; r < bgra.rows; ++r)  // an alpha that varies
        for (int c = 0; c < bgra.cols; ++c)
            bgra.at<cv::Vec4b>(r, c)[3] = static_cast<unsigned char>((r * 7 + c) & 0xff);
    ASSERT_TRUE(cv::imwrite((dir.path() / "c16.png").string(), bgr16));
    ASSERT_TRUE(cv::imwrite((dir.path() / "c4.png").string(), bgra));
    const imageio::LoadedImage deep = load_colour(dir.path() / "c16.png");
    ASSERT_TRUE(deep.colour);
    EXPECT_TRUE(same_bytes(std::get<TypedImage<std::uint16_t>>(*deep.colour), bgr16));
    const imageio::LoadedImage alpha = load_colour(dir.path() / "c4.png");
    ASSERT_TRUE(alpha.colour);
    EXPECT_TRUE(same_bytes(std::get<TypedImage<std::uint8_t>>(*alpha.colour), bgra));
}

// ---- the runs against OpenCV ----

double cv_at(const cv::Mat& m, std::size_t i) {
    const cv::Mat c = m.isContinuous() ? m : m.clone();
    switch (c.depth()) {
    case CV_8U: return c.ptr<std::uint8_t>()[i];
    case CV_16U: return c.ptr<std::uint16_t>()[i];
    case CV_32S: return c.ptr<std::int32_t>()[i];
    case CV_64F: return c.ptr<double>()[i];
    }
    throw std::logic_error("depth");
}

cv::Mat opencv_result(Op op, const cv::Mat& in, const OpParams& p) {
    cv::Mat out;
    if (op == Op::copy) return in.clone();
    if (op == Op::transpose) {
        cv::transpose(in, out);
        return out;
    }
    if (op == Op::row_sums || op == Op::col_sums) {
        // OpenCV sums 8U into 32S; 16U only into 32F/64F (exact in 64F at these sizes).
        cv::reduce(in, out, op == Op::row_sums ? 1 : 0, cv::REDUCE_SUM,
                   in.depth() == CV_8U ? CV_32S : CV_64F);
        return out;
    }
    return cv_filter(in, p.radius, p.border, op == Op::filter_x);
}

// The window sum of one element from the definition, to judge OpenCV's 16U float rounding.
template <class T>
std::uint64_t window_sum(const TypedImage<T>& in, std::size_t r, std::size_t c, std::size_t ch,
                         const OpParams& p, bool along_x) {
    const auto n = static_cast<long long>(along_x ? in.cols() : in.rows());
    const auto i = static_cast<long long>(along_x ? c : r);
    std::uint64_t sum = 0;
    for (long long j = i - p.radius; j <= i + p.radius; ++j) {
        const long long at = border_index(j, n, p.border);
        if (at < 0) continue;
        const auto a = static_cast<std::size_t>(at);
        sum += along_x ? in.at(r, a, ch) : in.at(a, c, ch);
    }
    return sum;
}

// Every element of `ours` against OpenCV's; counts u16 filter elements OpenCV rounds up.
template <class T>
std::size_t compare(const AnyImage& ours, const cv::Mat& theirs, const TypedImage<T>& in, Op op,
                    const OpParams& p, const std::string& what) {
    std::size_t float_ups = 0;
    std::visit(
        [&](const auto& out) {
            ASSERT_EQ(out.size(), theirs.total() * theirs.channels()) << what;
            const std::size_t ch = out.channels();
            int reported = 0;
            for (std::size_t i = 0; i < out.size(); ++i) {
                const double got = static_cast<double>(out.data()[i]), want = cv_at(theirs, i);
                if (got == want) continue;
                if (std::is_same_v<T, std::uint16_t> && is_filter(op) && want == got + 1) {
                    const std::size_t r = i / ch / out.cols(), c = i / ch % out.cols();
                    const std::uint64_t s = window_sum(in, r, c, i % ch, p, op == Op::filter_x);
                    const float scale = static_cast<float>(1.0 / (2 * p.radius + 1));
                    if (std::nearbyint(static_cast<float>(s) * scale) == want) {
                        ++float_ups;
                        continue;
                    }
                }
                if (reported++ < 3)
                    ADD_FAILURE() << what << " at " << i << ": " << got << " vs " << want;
            }
        },
        ours);
    return float_ups;
}

template <class T>
void run_against_opencv(const TypedImage<T>& image, const cv::Mat& mat, const std::string& name) {
    Registry registry;
    register_cpu_variants(registry);
    Runner runner(registry);
    std::size_t float_ups = 0, elements = 0;
    for (Border border : {Border::clamp, Border::zero, Border::wrap, Border::mirror}) {
        RunConfig config;
        config.types = {ElemTraits<T>::type};
        config.channels = static_cast<int>(image.channels());
        config.typed_input = std::make_shared<const AnyImage>(image);
        config.keep_outputs = true;
        config.reps = 1;
        config.warmups = 0;
        config.include_cpu = true;
        config.params = OpParams{4, border, {}};
        config.variants = {"filter_x/cpu-naive", "filter_y/cpu-naive"};
        if (border == Border::clamp)
            for (const char* id : {"copy/cpu-naive", "transpose/cpu-naive", "row_sums/cpu-naive",
                                   "col_sums/cpu-naive"})
                config.variants.push_back(id);
        const RunRecord record = runner.run(config);
        for (const RunResult& r : record.runs) {
            const std::string what =
                name + " " + r.variant + " " + std::string(border_name(border));
            ASSERT_EQ(r.status, Status::ok) << what << ": " << r.error;
            ASSERT_TRUE(r.typed_output) << what;
            EXPECT_EQ(r.channels, static_cast<int>(image.channels()));
            const Op op = *parse_op(r.op);
            float_ups += compare(*r.typed_output, opencv_result(op, mat, config.params), image, op,
                                 config.params, what);
            std::visit([&](const auto& out) { elements += out.size(); }, *r.typed_output);
        }
    }
    if (std::is_same_v<T, std::uint8_t>) {
        EXPECT_EQ(float_ups, 0u) << name;
    }
    std::cout << name << ": " << elements << " elements compared, " << float_ups
              << " u16 filter elements where OpenCV's float32 mean rounds up\n";
}

TEST(ColourRunsAgainstOpenCv, PhotographsInEightBitsAgreeExactly) {
    for (const char* file : {"images/coffee-600x400.png", "images/chelsea-451x300.png"}) {
        const imageio::LoadedImage image = load_colour(kRoot + "/" + file);
        ASSERT_TRUE(image.colour);
        run_against_opencv(std::get<TypedImage<std::uint8_t>>(*image.colour),
                           cv::imread(kRoot + "/" + file, cv::IMREAD_COLOR), file);
    }
}

TEST(ColourRunsAgainstOpenCv, SixteenBitAndFourChannelImagesAgree) {
    test::TempDir dir("colour-runs");
    const cv::Mat bgr = cv::imread(kRoot + "/images/coffee-600x400.png", cv::IMREAD_COLOR);
    cv::Mat bgr16, bgra;
    bgr.convertTo(bgr16, CV_16U, 257);
    cv::cvtColor(bgr, bgra, cv::COLOR_BGR2BGRA);
    ASSERT_TRUE(cv::imwrite((dir.path() / "c16.png").string(), bgr16));
    ASSERT_TRUE(cv::imwrite((dir.path() / "c4.png").string(), bgra));
    const imageio::LoadedImage deep = load_colour(dir.path() / "c16.png");
    ASSERT_TRUE(deep.colour);
    run_against_opencv(std::get<TypedImage<std::uint16_t>>(*deep.colour), bgr16, "coffee 16-bit");
    const imageio::LoadedImage alpha = load_colour(dir.path() / "c4.png");
    ASSERT_TRUE(alpha.colour);
    run_against_opencv(std::get<TypedImage<std::uint8_t>>(*alpha.colour), bgra, "coffee BGRA");
}

}  // namespace
}  // namespace coalesce
