// Reads images and OpenCV matrix files into the engine's float32 matrix (OpenCV, no Qt).
#pragma once

#include "coalesce/matrix.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace coalesce::gui {

// How a colour image becomes one float32 channel.
enum class ChannelChoice { luminance, red, green, blue, alpha };

struct LoadedImage {
    std::shared_ptr<const Matrix> matrix;  // float32, the file's values unscaled (8-bit: 0..255)
    std::filesystem::path path;
    std::string source_type;  // "PNG, 8-bit unsigned, 3 channels → luminance"
    float min_value = 0.0f;
    float max_value = 0.0f;
};

// Images (PNG, JPEG, TIFF 8/16-bit/float, BMP, PGM/PPM) through cv::imread; .yml/.yaml/.xml (also
// .gz) through cv::FileStorage, taking the first matrix node. Throws std::runtime_error naming the
// file and the reason: unreadable, not decodable, empty, no matrix node, channel not present.
LoadedImage load_image(const std::filesystem::path& path, ChannelChoice channel = ChannelChoice::luminance);

// True for the extensions read through cv::FileStorage.
bool is_matrix_file(const std::filesystem::path& path);

// Describes a matrix made in memory (generated) the same way a file is described.
LoadedImage describe_generated(std::shared_ptr<const Matrix> matrix, const std::string& what);

// The minimum and maximum of the finite values; {0, 0} for an empty or all-NaN matrix.
std::pair<float, float> finite_range(const Matrix& matrix);

}  // namespace coalesce::gui
