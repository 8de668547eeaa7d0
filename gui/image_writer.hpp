// Saves a float32 matrix as an image file through OpenCV, written to a temporary file and renamed
// into place so a failure never leaves a half-written file.
#pragma once

#include "coalesce/matrix.hpp"

#include <filesystem>
#include <string>

namespace coalesce::gui {

enum class ImageEncoding {
    png8_normalized,  // .png: min..max mapped to 0..255 (a picture, not the values)
    tiff16,           // .tif/.tiff when every value is an integer in 0..65535: exact
    tiff_float,       // .tif/.tiff otherwise: exact float32
};

// The encoding save_image will use for this path and matrix.
ImageEncoding choose_encoding(const std::filesystem::path& path, const Matrix& matrix);
std::string encoding_name(ImageEncoding encoding);

// Throws std::runtime_error naming the path and the reason (unknown extension, empty matrix,
// encoder failure, rename failure). Returns the encoding used.
ImageEncoding save_image(const std::filesystem::path& path, const Matrix& matrix);

}  // namespace coalesce::gui
