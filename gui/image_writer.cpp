#include "image_writer.hpp"

#include "image_loader.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <random>
#include <stdexcept>

namespace coalesce::gui {
namespace {

std::string lower_extension(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext;
}

bool fits_uint16_exactly(const Matrix& matrix) {
    const float* p = matrix.data();
    for (std::size_t i = 0; i < matrix.size(); ++i) {
        const float v = p[i];
        if (!(v >= 0.0f && v <= 65535.0f) || v != std::floor(v)) return false;
    }
    return true;
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why) {
    throw std::runtime_error(path.string() + ": " + why);
}

cv::Mat encode(const Matrix& matrix, ImageEncoding encoding) {
    // The Matrix is dense row-major float32, so it can be viewed without a copy.
    const cv::Mat view(static_cast<int>(matrix.rows()), static_cast<int>(matrix.cols()), CV_32F,
                       const_cast<float*>(matrix.data()));
    cv::Mat out;
    switch (encoding) {
    case ImageEncoding::png8_normalized: {
        const auto [lo, hi] = finite_range(matrix);
        const double scale = hi > lo ? 255.0 / (static_cast<double>(hi) - lo) : 0.0;
        view.convertTo(out, CV_8U, scale, -lo * scale);  // saturates; NaN becomes 0
        break;
    }
    case ImageEncoding::tiff16: view.convertTo(out, CV_16U); break;
    case ImageEncoding::tiff_float: out = view.clone(); break;
    }
    return out;
}

}  // namespace

ImageEncoding choose_encoding(const std::filesystem::path& path, const Matrix& matrix) {
    const std::string ext = lower_extension(path);
    if (ext == ".png") return ImageEncoding::png8_normalized;
    if (ext == ".tif" || ext == ".tiff")
        return fits_uint16_exactly(matrix) ? ImageEncoding::tiff16 : ImageEncoding::tiff_float;
    fail(path, "unsupported extension \"" + ext + "\" (use .png or .tif)");
}

std::string encoding_name(ImageEncoding encoding) {
    switch (encoding) {
    case ImageEncoding::png8_normalized: return "PNG 8-bit, normalized to the value range";
    case ImageEncoding::tiff16: return "TIFF 16-bit unsigned, exact values";
    case ImageEncoding::tiff_float: return "TIFF 32-bit float, exact values";
    }
    return "?";
}

ImageEncoding save_image(const std::filesystem::path& path, const Matrix& matrix) {
    if (matrix.empty()) fail(path, "nothing to save (empty matrix)");
    const ImageEncoding encoding = choose_encoding(path, matrix);
    const cv::Mat pixels = encode(matrix, encoding);

    // The temporary keeps the extension: OpenCV picks the encoder from it.
    std::random_device entropy;
    const std::filesystem::path tmp =
        path.parent_path() / ("." + path.stem().string() + ".tmp-" + std::to_string(entropy()) +
                              path.extension().string());
    bool written = false;
    std::string reason = "the encoder refused the image";
    try {
        written = cv::imwrite(tmp.string(), pixels);
    } catch (const cv::Exception& e) {
        reason = e.msg;
    }
    std::error_code ec;
    if (!written) {
        std::filesystem::remove(tmp, ec);
        fail(path, "cannot write (" + reason + ")");
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        fail(path, "cannot move the written file into place (" + ec.message() + ")");
    }
    return encoding;
}

}  // namespace coalesce::gui
