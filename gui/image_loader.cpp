#include "image_loader.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace coalesce::gui {
namespace {

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// The extension that decides the reader, looking through a trailing ".gz" ("a.yml.gz" → ".yml").
std::string effective_extension(const std::filesystem::path& path) {
    std::filesystem::path p = path;
    if (lower(p.extension().string()) == ".gz") p = p.stem();
    return lower(p.extension().string());
}

std::string depth_name(int depth) {
    switch (depth) {
        case CV_8U: return "8-bit unsigned";
        case CV_8S: return "8-bit signed";
        case CV_16U: return "16-bit unsigned";
        case CV_16S: return "16-bit signed";
        case CV_32S: return "32-bit signed";
        case CV_32F: return "32-bit float";
        case CV_64F: return "64-bit float";
        default: return "depth " + std::to_string(depth);
    }
}

std::string channel_name(ChannelChoice c) {
    switch (c) {
        case ChannelChoice::luminance: return "luminance";
        case ChannelChoice::red: return "red channel";
        case ChannelChoice::green: return "green channel";
        case ChannelChoice::blue: return "blue channel";
        case ChannelChoice::alpha: return "alpha channel";
    }
    return "?";
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
    throw std::runtime_error(path.string() + ": " + why);
}

// First node below the root that reads as a non-empty matrix.
cv::Mat first_matrix_node(const std::filesystem::path& path) {
    cv::FileStorage storage;
    try {
        if (!storage.open(path.string(), cv::FileStorage::READ)) fail(path, "not a readable OpenCV YAML/XML file");
    } catch (const cv::Exception& e) {
        fail(path, "not a readable OpenCV YAML/XML file (" + e.msg + ")");
    }
    const cv::FileNode root = storage.root();
    for (cv::FileNodeIterator it = root.begin(); it != root.end(); ++it) {
        const cv::FileNode node = *it;
        if (!node.isMap()) continue;
        cv::Mat m;
        try {
            node >> m;
        } catch (const cv::Exception&) {
            continue;  // a map that is not a matrix
        }
        if (!m.empty()) return m;
    }
    fail(path, "no matrix node found (expected an opencv-matrix entry)");
}

// Reduces any depth and channel count to one float32 channel.
cv::Mat to_single_float(const cv::Mat& in, ChannelChoice choice, const std::filesystem::path& path,
                        bool bgr_order) {
    cv::Mat floats;
    in.convertTo(floats, CV_MAKETYPE(CV_32F, in.channels()));
    const int channels = floats.channels();
    if (channels == 1) return floats;
    if (choice == ChannelChoice::luminance) {
        cv::Mat grey;
        if (channels == 3)
            cv::cvtColor(floats, grey, bgr_order ? cv::COLOR_BGR2GRAY : cv::COLOR_RGB2GRAY);
        else if (channels == 4)
            cv::cvtColor(floats, grey, bgr_order ? cv::COLOR_BGRA2GRAY : cv::COLOR_RGBA2GRAY);
        else
            fail(path, std::to_string(channels) + " channels: choose one channel, luminance needs 3 or 4");
        return grey;
    }
    // OpenCV decodes images as B, G, R, A; matrix files keep their own order (R, G, B, A assumed).
    int index = 0;
    switch (choice) {
        case ChannelChoice::red: index = bgr_order ? 2 : 0; break;
        case ChannelChoice::green: index = 1; break;
        case ChannelChoice::blue: index = bgr_order ? 0 : 2; break;
        case ChannelChoice::alpha: index = 3; break;
        case ChannelChoice::luminance: break;
    }
    if (index >= channels) fail(path, "has no " + channel_name(choice) + " (" + std::to_string(channels) + " channels)");
    cv::Mat one;
    cv::extractChannel(floats, one, index);
    return one;
}

std::shared_ptr<const Matrix> to_matrix(const cv::Mat& single) {
    auto matrix = std::make_shared<Matrix>(static_cast<std::size_t>(single.rows), static_cast<std::size_t>(single.cols));
    for (int r = 0; r < single.rows; ++r) {
        const float* src = single.ptr<float>(r);
        std::copy(src, src + single.cols, matrix->row(static_cast<std::size_t>(r)));
    }
    return matrix;
}

}  // namespace

bool is_matrix_file(const std::filesystem::path& path) {
    const std::string ext = effective_extension(path);
    return ext == ".yml" || ext == ".yaml" || ext == ".xml";
}

std::pair<float, float> finite_range(const Matrix& matrix) {
    float lo = std::numeric_limits<float>::infinity();
    float hi = -std::numeric_limits<float>::infinity();
    const float* p = matrix.data();
    for (std::size_t i = 0; i < matrix.size(); ++i) {
        if (!std::isfinite(p[i])) continue;
        lo = std::min(lo, p[i]);
        hi = std::max(hi, p[i]);
    }
    if (lo > hi) return {0.0f, 0.0f};
    return {lo, hi};
}

LoadedImage load_image(const std::filesystem::path& path, ChannelChoice channel) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) fail(path, "no such file");

    cv::Mat raw;
    std::string format;
    const bool matrix_file = is_matrix_file(path);
    if (matrix_file) {
        raw = first_matrix_node(path);
        format = "OpenCV matrix file";
    } else {
        try {
            raw = cv::imread(path.string(), cv::IMREAD_ANYDEPTH | cv::IMREAD_ANYCOLOR);
        } catch (const cv::Exception& e) {
            fail(path, "cannot decode the image (" + e.msg + ")");
        }
        if (raw.empty()) fail(path, "cannot decode the image (corrupt, truncated or an unknown format)");
        std::string ext = effective_extension(path);
        if (!ext.empty()) ext.erase(0, 1);
        std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
        format = ext.empty() ? "image" : ext;
    }
    if (raw.dims != 2 || raw.rows <= 0 || raw.cols <= 0) fail(path, "is empty or not two-dimensional");

    LoadedImage image;
    image.path = path;
    image.source_type = format + ", " + depth_name(raw.depth()) + ", " + std::to_string(raw.channels()) +
                        (raw.channels() == 1 ? " channel" : " channels");
    if (raw.channels() > 1) image.source_type += " → " + channel_name(channel);
    image.matrix = to_matrix(to_single_float(raw, channel, path, !matrix_file));
    std::tie(image.min_value, image.max_value) = finite_range(*image.matrix);
    return image;
}

LoadedImage describe_generated(std::shared_ptr<const Matrix> matrix, const std::string& what) {
    LoadedImage image;
    image.source_type = "generated " + what + ", 32-bit float";
    std::tie(image.min_value, image.max_value) = finite_range(*matrix);
    image.matrix = std::move(matrix);
    return image;
}

}  // namespace coalesce::gui
