#include "coalesce/imageio/image_loader.hpp"

#include "decoder_messages.hpp"
#include "exif.hpp"
#include "image_header.hpp"
#include "matrix_file.hpp"
#include "memory_budget.hpp"
#include "byte_reader.hpp"
#include "refusal.hpp"
#include "regular_file.hpp"

#include "coalesce/shortened.hpp"
#include "coalesce/type_conversion.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <new>
#include <optional>

namespace coalesce::imageio {
namespace {

namespace fs = std::filesystem;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// The extension that names the kind of file, looking through ".gz" ("a.yml.gz" -> ".yml").
std::string effective_extension(const fs::path& path) {
    fs::path p = path;
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

std::string channels_text(int channels) {
    switch (channels) {
    case 1: return "1 channel";
    case 2: return "2 channels (gray + alpha)";
    case 3: return "3 channels (RGB)";
    case 4: return "4 channels (RGBA)";
    default: return std::to_string(channels) + " channels";
    }
}

std::string size_text(std::uint64_t width, std::uint64_t height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

// Refuses a size before anything that big is allocated.
void check_size(std::uint64_t width, std::uint64_t height, const LoadOptions& options) {
    if (width == 0 || height == 0)
        refuse("declares an empty image (" + size_text(width, height) + " pixels)");
    const std::uint64_t pixels = saturating_mul(width, height);
    if (pixels > options.max_pixels) {
        const auto side =
            static_cast<std::uint64_t>(std::sqrt(static_cast<double>(options.max_pixels)));
        refuse("declares " + size_text(width, height) + " pixels (" + std::to_string(pixels) +
               "); the limit is " + std::to_string(options.max_pixels) + " pixels (" +
               size_text(side, side) + ")");
    }
}

void check_memory(std::uint64_t bytes_needed, const std::string& what, const LoadOptions& options) {
    const auto budget = options.memory_budget ? options.memory_budget : memory_available();
    if (budget && bytes_needed > *budget)
        refuse("needs about " + mib_text(bytes_needed) + " of memory to " + what + "; " +
               mib_text(*budget) + " are available");
}

struct Pick {
    bool luminance = true;
    int index = 0;  // the channel taken when not luminance
};

// Which channel of a `channels`-channel image `choice` means (`bgr`: OpenCV's decoded order).
Pick pick_channel(int channels, ChannelChoice choice, bool bgr, const LoadOptions& options,
                  std::string& note, ChannelChoice& used) {
    if (channels < 1 || channels > 4)
        refuse("has " + std::to_string(channels) + " channels; 1 to 4 are supported");
    used = choice;
    const bool alpha = channels == 2 || channels == 4;
    if (choice == ChannelChoice::alpha) {
        if (alpha) return {false, channels - 1};
        const std::string missing = "has no alpha channel (" + channels_text(channels) + ")";
        if (!options.fall_back_to_luminance) refuse(missing);
        note = missing + "; luminance is shown instead";
        used = ChannelChoice::luminance;
        return {channels >= 3, 0};
    }
    if (channels <= 2) return {false, 0};  // gray: every colour is the gray
    if (choice == ChannelChoice::luminance) return {true, 0};
    if (choice == ChannelChoice::green) return {false, 1};
    const bool red = choice == ChannelChoice::red;
    return {false, red == bgr ? 2 : 0};
}

// One float32 value per pixel, row by row, so that no second full-size multi-channel float copy
// is ever held.
Matrix to_matrix(const cv::Mat& raw, Pick pick, bool bgr) {
    Matrix out(static_cast<std::size_t>(raw.rows), static_cast<std::size_t>(raw.cols));
    const int channels = raw.channels();
    cv::Mat row_floats;
    for (int r = 0; r < raw.rows; ++r) {
        cv::Mat dst(1, raw.cols, CV_32F, out.row(static_cast<std::size_t>(r)));
        raw.row(r).convertTo(row_floats, CV_MAKETYPE(CV_32F, channels));
        if (channels == 1) {
            row_floats.copyTo(dst);
        } else if (pick.luminance) {
            const int code = channels == 3 ? (bgr ? cv::COLOR_BGR2GRAY : cv::COLOR_RGB2GRAY)
                                           : (bgr ? cv::COLOR_BGRA2GRAY : cv::COLOR_RGBA2GRAY);
            cv::cvtColor(row_floats, dst, code);
        } else {
            cv::extractChannel(row_floats, dst, pick.index);
        }
    }
    return out;
}

// The element type a run of this depth keeps: 8-bit u8, 16-bit u16, float f32; else none.
std::optional<ElemType> kept_type(int depth) {
    if (depth == CV_8U) return ElemType::u8;
    if (depth == CV_16U) return ElemType::u16;
    if (depth == CV_32F) return ElemType::f32;
    return std::nullopt;
}

// The picked channel in the raw depth, row by row like to_matrix; luminance through cvtColor in
// that depth, so 8 and 16-bit values are rounded as OpenCV rounds them.
template <class T>
TypedImage<T> to_typed(const cv::Mat& raw, Pick pick, bool bgr) {
    TypedImage<T> out(static_cast<std::size_t>(raw.rows), static_cast<std::size_t>(raw.cols), 1);
    const int channels = raw.channels();
    for (int r = 0; r < raw.rows; ++r) {
        cv::Mat dst(1, raw.cols, raw.depth(), out.data() + static_cast<std::size_t>(r) * raw.cols);
        if (channels == 1) {
            raw.row(r).copyTo(dst);
        } else if (pick.luminance) {
            const int code = channels == 3 ? (bgr ? cv::COLOR_BGR2GRAY : cv::COLOR_RGB2GRAY)
                                           : (bgr ? cv::COLOR_BGRA2GRAY : cv::COLOR_RGBA2GRAY);
            cv::cvtColor(raw.row(r), dst, code);
        } else {
            cv::extractChannel(raw.row(r), dst, pick.index);
        }
    }
    return out;
}

template <class T>
TypedImage<T> upright_typed(TypedImage<T> image, int orientation) {
    if (orientation <= 1) return image;
    const int type = CV_MAKETYPE(cv::DataType<T>::depth, static_cast<int>(image.channels()));
    const cv::Mat view(static_cast<int>(image.rows()), static_cast<int>(image.cols()), type,
                       image.data());
    const cv::Mat upright = upright_copy(view, orientation);
    TypedImage<T> turned(static_cast<std::size_t>(upright.rows),
                         static_cast<std::size_t>(upright.cols), image.channels());
    upright.copyTo(cv::Mat(upright.rows, upright.cols, type, turned.data()));
    return turned;
}

// Every channel as decoded, row by row (a decoded Mat may not be continuous).
template <class T>
TypedImage<T> colour_typed(const cv::Mat& raw) {
    const auto channels = static_cast<std::size_t>(raw.channels());
    TypedImage<T> out(static_cast<std::size_t>(raw.rows), static_cast<std::size_t>(raw.cols),
                      channels);
    for (int r = 0; r < raw.rows; ++r)
        raw.row(r).copyTo(cv::Mat(1, raw.cols, raw.type(),
                                  out.data() + static_cast<std::size_t>(r) * raw.cols * channels));
    return out;
}

// The colour image of an 8 or 16-bit file of 3 or 4 channels; nothing for the others.
std::optional<AnyImage> colour_of(const cv::Mat& raw, int orientation) {
    if (raw.channels() != 3 && raw.channels() != 4) return std::nullopt;
    switch (raw.depth()) {
    case CV_8U: return upright_typed(colour_typed<std::uint8_t>(raw), orientation);
    case CV_16U: return upright_typed(colour_typed<std::uint16_t>(raw), orientation);
    default: return std::nullopt;
    }
}

// The typed image of an 8 or 16-bit file; nothing for the others, whose f32 values `matrix` holds.
std::optional<AnyImage> typed_of(const cv::Mat& raw, Pick pick, bool bgr, int orientation) {
    switch (raw.depth()) {
    case CV_8U: return upright_typed(to_typed<std::uint8_t>(raw, pick, bgr), orientation);
    case CV_16U: return upright_typed(to_typed<std::uint16_t>(raw, pick, bgr), orientation);
    default: return std::nullopt;
    }
}

// NaN or infinity in an input would be indistinguishable from an output a variant never wrote.
void check_finite(const Matrix& m) {
    const float* p = m.data();
    std::size_t first = m.size(), count = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
        if (std::isfinite(p[i])) continue;
        if (count++ == 0) first = i;
    }
    if (count == 0) return;
    const std::size_t row = first / m.cols(), col = first % m.cols();
    refuse(std::string(std::isnan(p[first]) ? "has a NaN pixel" : "has an infinite pixel") +
           " at row " + std::to_string(row) + ", column " + std::to_string(col) + " (" +
           std::to_string(count) + " of " + std::to_string(m.size()) +
           " are NaN or infinite); inputs must be finite, because every run is verified against "
           "an output poisoned with NaN");
}

struct Decoded {
    cv::Mat raw;
    std::string format;
    bool bgr = true;  // images decode as B, G, R, A; matrix files keep their own (R, G, B, A) order
    int orientation = 1;
};

Decoded decode_matrix_file(const RegularFile& file, bool packed, const LoadOptions& options) {
    std::string text =
        file.read_all(packed ? kMaxMatrixFileBytes / 4 : kMaxMatrixFileBytes, "matrix files");
    if (packed) text = gunzip(text, kMaxMatrixFileBytes);
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        refuse("has a NUL byte at byte " + std::to_string(nul) + ": not a text file");
    if (nesting_depth(text, kMaxNesting) > kMaxNesting)
        refuse("nests deeper than " + std::to_string(kMaxNesting) +
               " levels (the limit; an OpenCV matrix file needs 3)");
    check_memory(4 * text.size(), "parse it", options);  // OpenCV's tree takes a few times the text
    Decoded d;
    d.format = "OpenCV matrix file";
    d.bgr = false;
    d.raw = read_first_matrix(text, options.max_pixels);
    return d;
}

Decoded decode_image(const RegularFile& file, Kind kind, const LoadOptions& options) {
    const std::string bytes = file.read_all(kMaxImageFileBytes, "images");
    const ImageHeader header = read_image_header(bytes, kind);
    check_size(header.width, header.height, options);
    // The decoded pixels, and the float32 matrix (three of them while turning it upright).
    const std::uint64_t pixels = header.width * header.height;
    const std::uint64_t bytes_needed =
        pixels * static_cast<std::uint64_t>(header.channels * header.bytes_per_sample) +
        pixels * sizeof(float) * (header.exif_orientation > 1 ? 3 : 1) +
        (header.bytes_per_sample <= 2
             ? pixels * static_cast<std::uint64_t>(header.bytes_per_sample) *
                   (header.exif_orientation > 1 ? 2 : 1)
             : 0);  // the u8/u16 copy
    check_memory(bytes_needed, "decode " + size_text(header.width, header.height) + " pixels",
                 options);
    if (header.data_end > bytes.size())
        refuse("is a truncated " + header.format + ": its pixels end at byte " +
               std::to_string(header.data_end) + ", past its end at byte " +
               std::to_string(bytes.size()));

    Decoded d;
    d.format = header.format;
    d.orientation = header.exif_orientation;
    std::string said;
    try {
        const cv::Mat buffer(1, static_cast<int>(bytes.size()), CV_8U,
                             const_cast<char*>(bytes.data()));
        said = capture_stderr([&] { d.raw = cv::imdecode(buffer, cv::IMREAD_UNCHANGED); });
    } catch (const cv::Exception& e) {
        said += e.err;
    }
    if (d.raw.empty() || d.raw.dims != 2) {
        const std::string why = plain_decoder_text(said);
        refuse("cannot be decoded as a " + header.format +
               (why.empty() ? std::string() : " (" + why + ")"));
    }
    return d;
}

}  // namespace

std::string_view channel_name(ChannelChoice choice) {
    switch (choice) {
    case ChannelChoice::luminance: return "luminance";
    case ChannelChoice::red: return "red channel";
    case ChannelChoice::green: return "green channel";
    case ChannelChoice::blue: return "blue channel";
    case ChannelChoice::alpha: return "alpha channel";
    }
    return "?";
}

bool is_matrix_file(const fs::path& path) {
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

LoadedImage load_image(const fs::path& path, const LoadOptions& options) {
    try {
        const RegularFile file(path);
        if (file.size() > kMaxImageFileBytes)
            file.read_all(kMaxImageFileBytes, "images");  // refuses
        const Kind kind = sniff(file.read_prefix(64));
        Decoded d;
        if (kind == Kind::matrix_text || (kind == Kind::gzip && is_matrix_file(path)) ||
            (kind == Kind::unknown && is_matrix_file(path)))
            d = decode_matrix_file(file, kind == Kind::gzip, options);
        else if (kind == Kind::unknown || kind == Kind::gzip)
            refuse(
                "is not an image this program reads (PNG, JPEG, TIFF, BMP, PBM/PGM/PPM/PAM/PFM, "
                "WebP) or an OpenCV YAML/XML matrix file");
        else
            d = decode_image(file, kind, options);

        LoadedImage image;
        image.path = path;
        image.format = d.format;
        image.channels = d.raw.channels();
        image.has_alpha = image.channels == 2 || image.channels == 4;
        const Pick pick = pick_channel(image.channels, options.channel, d.bgr, options, image.note,
                                       image.channel);
        Matrix m = to_matrix(d.raw, pick, d.bgr);
        const int depth = d.raw.depth();
        // Matrix files keep the float path whatever their depth.
        std::optional<AnyImage> typed = d.format == "OpenCV matrix file"
                                            ? std::nullopt
                                            : typed_of(d.raw, pick, d.bgr, d.orientation);
        std::optional<AnyImage> colour;
        if (options.keep_colour && d.format != "OpenCV matrix file")
            colour = colour_of(d.raw, d.orientation);
        d.raw.release();
        if (d.orientation > 1) {
            const cv::Mat view(static_cast<int>(m.rows()), static_cast<int>(m.cols()), CV_32F,
                               m.data());
            const cv::Mat upright = upright_copy(view, d.orientation);
            Matrix turned(static_cast<std::size_t>(upright.rows),
                          static_cast<std::size_t>(upright.cols));
            upright.copyTo(cv::Mat(upright.rows, upright.cols, CV_32F, turned.data()));
            m = std::move(turned);
            image.exif_orientation = d.orientation;
        }
        check_finite(m);

        image.source_type =
            d.format + ", " + depth_name(depth) + ", " + channels_text(image.channels);
        if (image.channels > 1)
            image.source_type += " → " + std::string(channel_name(image.channel));
        if (!image.note.empty())
            image.source_type += " (no " + std::string(channel_name(options.channel)) + ")";
        if (image.exif_orientation > 1)
            image.source_type +=
                ", EXIF orientation " + std::to_string(image.exif_orientation) + " applied";
        std::tie(image.min_value, image.max_value) = finite_range(m);
        if (typed) {
            image.elem_type = elem_type_of(*typed).value_or(ElemType::f32);
            image.typed = std::make_shared<const AnyImage>(std::move(*typed));
        }
        if (colour) image.colour = std::make_shared<const AnyImage>(std::move(*colour));
        if (d.format != "OpenCV matrix file" && !kept_type(depth))
            image.source_type += ", runs as f32";
        image.matrix = std::make_shared<const Matrix>(std::move(m));
        return image;
    } catch (const Refusal& r) {
        throw std::runtime_error("'" + shortened(path.string(), 2 * kQuoteLimit) +
                                 "': " + r.what());
    } catch (const cv::Exception& e) {
        throw std::runtime_error("'" + shortened(path.string(), 2 * kQuoteLimit) +
                                 "': cannot be read (" + plain_decoder_text(e.err) + ")");
    } catch (const std::bad_alloc&) {
        throw std::runtime_error("'" + shortened(path.string(), 2 * kQuoteLimit) +
                                 "': not enough memory to read it");
    }
}

LoadedImage load_image(const fs::path& path, ChannelChoice channel) {
    LoadOptions options;
    options.channel = channel;
    return load_image(path, options);
}

std::shared_ptr<const AnyImage> typed_input_of(const LoadedImage& image) {
    if (image.typed) return image.typed;
    if (!image.matrix) return nullptr;
    return std::make_shared<const AnyImage>(from_matrix(*image.matrix));
}

LoadedImage describe_generated(std::shared_ptr<const Matrix> matrix, const std::string& what) {
    LoadedImage image;
    image.format = "generated";
    image.source_type = "generated " + what + ", 32-bit float";
    image.channels = 1;
    std::tie(image.min_value, image.max_value) = finite_range(*matrix);
    image.matrix = std::move(matrix);
    return image;
}

}  // namespace coalesce::imageio
