// One loader for images and OpenCV matrix files, shared by coalesce-bench and the window, so the
// two read the same files the same way (OpenCV, no Qt; built only with COALESCE_WITH_OPENCV).
//
// A file is checked before any decoder sees it: it must be a regular file (a named pipe or a link
// to /dev/zero is refused before it is opened); an image's header must declare a size within
// kMaxPixels and within the memory left to the process, and its structure must be complete (a
// truncated PNG, JPEG, TIFF, BMP, PNM or WebP is refused by name); a YAML/XML matrix file must
// nest no deeper than kMaxNesting (OpenCV's parser recurses) and its matrix must hold exactly the
// values it declares. Whatever the image libraries print goes into the message, in plain words,
// never to stderr. Messages say what is wrong and, where one applies, the limit.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/typed_image.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace coalesce::imageio {

// How a colour image becomes one float32 channel.
enum class ChannelChoice { luminance, red, green, blue, alpha };
std::string_view channel_name(ChannelChoice choice);  // "luminance", "alpha channel", ...

inline constexpr std::size_t kMaxPixels = std::size_t{1} << 28;             // 16384 x 16384
inline constexpr std::size_t kMaxImageFileBytes = std::size_t{1} << 30;     // [bytes]
inline constexpr std::size_t kMaxMatrixFileBytes = std::size_t{128} << 20;  // [bytes] unpacked
inline constexpr int kMaxNesting = 64;  // levels; an OpenCV matrix file needs 3

struct LoadOptions {
    ChannelChoice channel = ChannelChoice::luminance;
    // When the file lacks the chosen channel (alpha of an RGB image, say): true reads luminance
    // instead and says why in LoadedImage::note; false refuses the file. A saved choice should
    // fall back, so that it never makes every later file unopenable.
    bool fall_back_to_luminance = false;
    // Also keep a colour image's channels as they are (LoadedImage::colour): the 8 or 16-bit
    // pixels, 3 (B, G, R) or 4 (B, G, R, A) interleaved, for colour runs.
    bool keep_colour = false;
    std::size_t max_pixels = kMaxPixels;
    // [bytes] memory decoding may take; unset: what MemAvailable and the process's limits leave.
    std::optional<std::size_t> memory_budget;
};

struct LoadedImage {
    std::shared_ptr<const Matrix> matrix;  // float32, the file's values unscaled (8-bit: 0..255)
    std::filesystem::path path;
    std::string format;       // "PNG", "JPEG", "TIFF", ..., "OpenCV matrix file"
    std::string source_type;  // "PNG, 8-bit unsigned, 4 channels (RGBA) → luminance"
    int channels = 0;         // as decoded: 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
    bool has_alpha = false;
    ChannelChoice channel = ChannelChoice::luminance;  // what `matrix` holds
    std::string note;          // why the chosen channel fell back to luminance; else empty
    int exif_orientation = 1;  // the EXIF orientation applied (1: stored upright)
    float min_value = 0.0f;
    float max_value = 0.0f;
    // The chosen channel in the file's own depth, single channel, turned upright like `matrix`:
    // 8-bit images as u8, 16-bit as u16, 32-bit float as f32; other depths (signed, 32-bit
    // integer, 64-bit float) and matrix files as f32, whose values are `matrix` itself (`typed`
    // then stays null: typed_input_of makes it when a conversion needs it). Colour becomes
    // luminance in that depth as cv::cvtColor computes it there (8 and 16-bit: OpenCV's
    // fixed-point weights, rounded to the nearest integer), so an 8-bit colour image's u8
    // luminance is `matrix` rounded, not `matrix` itself. A run "as opened" takes this.
    std::shared_ptr<const AnyImage> typed;
    ElemType elem_type = ElemType::f32;  // the type of `typed`
    // With LoadOptions::keep_colour, an 8 or 16-bit image of 3 or 4 channels as decoded (OpenCV's
    // order: B, G, R and A; matrix files keep their own), in its own depth, turned upright like
    // `matrix`; null otherwise (grey, other depths, matrix files, 2 channels).
    std::shared_ptr<const AnyImage> colour;
};

// Images: PNG, JPEG, TIFF (8/16-bit, float), BMP, PBM/PGM/PPM/PAM/PFM, WebP, told apart by their
// first bytes, not their names; EXIF orientation is applied as the file asks. Matrix files:
// OpenCV YAML/XML (also gzipped), the first top-level matrix. Colour becomes the chosen channel
// (luminance: OpenCV's 0.299 R + 0.587 G + 0.114 B), in float32 (`matrix`) and in the file's own
// depth (`typed`). Values must be finite: every run is verified
// against NaN-poisoned outputs, so the first NaN or infinite value is named and refused.
// Throws std::runtime_error "'<path>': <what is wrong>".
LoadedImage load_image(const std::filesystem::path& path, const LoadOptions& options);
LoadedImage load_image(const std::filesystem::path& path,
                       ChannelChoice channel = ChannelChoice::luminance);

// The image as a run's typed input: `typed`, or for f32 the values of `matrix`.
std::shared_ptr<const AnyImage> typed_input_of(const LoadedImage& image);

// True for the extensions read as matrix files (.yml, .yaml, .xml, also with .gz).
bool is_matrix_file(const std::filesystem::path& path);

// Describes a matrix made in memory (generated) the way a file is described.
LoadedImage describe_generated(std::shared_ptr<const Matrix> matrix, const std::string& what);

// The minimum and maximum of the finite values; {0, 0} for an empty or all-NaN matrix.
std::pair<float, float> finite_range(const Matrix& matrix);

}  // namespace coalesce::imageio
