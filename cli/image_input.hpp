// Reads an image file (any format OpenCV decodes) as the float32 matrix the bench runs on.
#pragma once

#include "coalesce/matrix.hpp"

#include <filesystem>

namespace coalesce::cli {

// One float per pixel, row-major. Colour becomes luminance (OpenCV's 0.299 R + 0.587 G + 0.114 B),
// alpha is ignored, and values keep the file's own scale: 8-bit pixels become 0..255, 16-bit
// 0..65535, floating-point pixels stay as they are. No rescaling to 0..1: the numbers a user sees
// in the output are the ones in the file.
// Throws std::runtime_error naming the file and why it cannot be used (missing, unreadable, not an
// image, NaN or infinite pixels).
Matrix load_image_matrix(const std::filesystem::path& path);

}  // namespace coalesce::cli
