#include "image_input.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>
#include <system_error>

namespace coalesce::cli {
namespace {

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& why) {
    throw std::runtime_error("'" + path.string() + "': " + why);
}

// OpenCV's decoders say little when a file is missing or unreadable; find out first.
void check_readable(const std::filesystem::path& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!std::filesystem::exists(status)) refuse(path, "no such file");
    if (std::filesystem::is_directory(status)) refuse(path, "is a folder, not an image");
    if (::access(path.c_str(), R_OK) != 0) refuse(path, std::error_code(errno, std::generic_category()).message());
}

cv::Mat luminance(const cv::Mat& image, const std::filesystem::path& path) {
    cv::Mat floats;
    image.convertTo(floats, CV_MAKETYPE(CV_32F, image.channels()));  // same values, float type
    cv::Mat gray;
    switch (image.channels()) {
    case 1: gray = floats; break;
    case 2: cv::extractChannel(floats, gray, 0); break;  // gray + alpha
    case 3: cv::cvtColor(floats, gray, cv::COLOR_BGR2GRAY); break;
    case 4: cv::cvtColor(floats, gray, cv::COLOR_BGRA2GRAY); break;
    default: refuse(path, "has " + std::to_string(image.channels()) + " channels; 1 to 4 are supported");
    }
    return gray;
}

}  // namespace

Matrix load_image_matrix(const std::filesystem::path& path) {
    check_readable(path);
    cv::Mat image;
    try {
        image = cv::imread(path.string(), cv::IMREAD_UNCHANGED);
    } catch (const cv::Exception& e) {
        refuse(path, "cannot be decoded (" + e.msg + ")");
    }
    if (image.empty()) refuse(path, "not an image OpenCV can read");
    if (image.dims != 2) refuse(path, "not a 2-D image");

    cv::Mat gray;
    try {
        gray = luminance(image, path);
    } catch (const cv::Exception& e) {
        refuse(path, "cannot be converted to grayscale (" + e.msg + ")");
    }
    if (!cv::checkRange(gray)) refuse(path, "contains NaN or infinite pixels");

    Matrix m(static_cast<std::size_t>(gray.rows), static_cast<std::size_t>(gray.cols));
    for (int r = 0; r < gray.rows; ++r)
        std::memcpy(m.row(static_cast<std::size_t>(r)), gray.ptr<float>(r), m.cols() * sizeof(float));
    return m;
}

}  // namespace coalesce::cli
