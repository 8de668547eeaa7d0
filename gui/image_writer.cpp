#include "image_writer.hpp"

#include "image_loader.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "coalesce/typed_run.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <random>
#include <type_traits>
#include <variant>
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

cv::Mat encode(const Matrix& matrix, int channels, ImageEncoding encoding) {
    // The Matrix is dense row-major float32, so it can be viewed without a copy; a colour one
    // holds its channels interleaved along each row, as OpenCV does.
    const cv::Mat view(static_cast<int>(matrix.rows()), static_cast<int>(matrix.cols()) / channels,
                       CV_32FC(channels), const_cast<float*>(matrix.data()));
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
    default: break;  // typed encodings go through encode_typed
    }
    return out;
}

// The typed output's own values, viewed (dense rows, its channels interleaved as OpenCV keeps
// them: B, G, R(, A)), without a copy.
template <class T>
cv::Mat view_of(const TypedImage<T>& image) {
    return cv::Mat(static_cast<int>(image.rows()), static_cast<int>(image.cols()),
                   CV_MAKETYPE(cv::DataType<T>::depth, static_cast<int>(image.channels())),
                   const_cast<T*>(image.data()));
}

// The lossless encoding of a u8/u16 output for this path; nothing for other element types.
std::optional<ImageEncoding> typed_encoding(const std::filesystem::path& path,
                                            const AnyImage& typed) {
    const std::string ext = lower_extension(path);
    const bool png = ext == ".png", tiff = ext == ".tif" || ext == ".tiff";
    if (!png && !tiff) fail(path, "unsupported extension \"" + ext + "\" (use .png or .tif)");
    if (std::holds_alternative<TypedImage<std::uint8_t>>(typed))
        return png ? ImageEncoding::png8_exact : ImageEncoding::tiff8_exact;
    if (std::holds_alternative<TypedImage<std::uint16_t>>(typed))
        return png ? ImageEncoding::png16_exact : ImageEncoding::tiff16_exact;
    return std::nullopt;
}

// Writes `pixels` to a temporary beside `path` and renames it into place.
void write_atomically(const std::filesystem::path& path, const cv::Mat& pixels) {
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
    case ImageEncoding::png8_exact: return "PNG 8-bit, the u8 output's values";
    case ImageEncoding::tiff8_exact: return "TIFF 8-bit unsigned, the u8 output's values";
    case ImageEncoding::png16_exact: return "PNG 16-bit, the u16 output's values";
    case ImageEncoding::tiff16_exact: return "TIFF 16-bit unsigned, the u16 output's values";
    }
    return "?";
}

ImageEncoding save_image(const std::filesystem::path& path, const Matrix& matrix, int channels) {
    if (matrix.empty()) fail(path, "nothing to save (empty matrix)");
    if (channels != 1 && channels != 3 && channels != 4)
        fail(path, std::to_string(channels) + " channels (an image has 1, 3 or 4)");
    if (matrix.cols() % static_cast<std::size_t>(channels) != 0)
        fail(path, "a row of " + std::to_string(matrix.cols()) + " values is not whole pixels of " +
                       std::to_string(channels) + " channels");
    const ImageEncoding encoding = choose_encoding(path, matrix);
    write_atomically(path, encode(matrix, channels, encoding));
    return encoding;
}

ImageEncoding save_output_image(const std::filesystem::path& path, const Matrix& shown,
                                const AnyImage* typed) {
    const std::optional<ImageEncoding> encoding =
        typed ? typed_encoding(path, *typed) : std::nullopt;
    // Sums of a colour image keep their channels too, through the float path.
    if (!encoding) return save_image(path, shown, typed ? typed::channels_of(*typed) : 1);
    if (typed::shape_of(*typed).elements() == 0) fail(path, "nothing to save (empty output)");
    std::visit(
        [&](const auto& image) {
            using T = typename std::decay_t<decltype(image)>::value_type;
            if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t>)
                write_atomically(path, view_of(image));
        },
        *typed);
    return *encoding;
}

}  // namespace coalesce::gui
