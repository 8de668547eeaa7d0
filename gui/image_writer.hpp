// Saves a float32 matrix, or a typed run's output in its own type, as an image file through
// OpenCV, written to a temporary file and renamed into place so a failure never leaves a
// half-written file.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/typed_image.hpp"

#include <filesystem>
#include <string>

namespace coalesce::gui {

enum class ImageEncoding {
    png8_normalized,  // .png: min..max mapped to 0..255 (a picture, not the values)
    tiff16,           // .tif/.tiff when every value is an integer in 0..65535: exact
    tiff_float,       // .tif/.tiff otherwise: exact float32
    png8_exact,       // a u8 output, .png: the values themselves
    tiff8_exact,      // a u8 output, .tif/.tiff
    png16_exact,      // a u16 output, .png
    tiff16_exact,     // a u16 output, .tif/.tiff
};

// The encoding save_image will use for this path and matrix.
ImageEncoding choose_encoding(const std::filesystem::path& path, const Matrix& matrix);
std::string encoding_name(ImageEncoding encoding);

// `channels` > 1: the matrix holds a colour image's channels interleaved along each row (B, G,
// R(, A), rows x cols * channels), written as a colour image; the normalized PNG maps one min..max
// for all channels. Throws std::runtime_error naming the path and the reason (unknown extension,
// empty matrix, encoder failure, rename failure). Returns the encoding used.
ImageEncoding save_image(const std::filesystem::path& path, const Matrix& matrix, int channels = 1);

// A run's output in the run's element type and channels: a u8 output as an 8-bit PNG or TIFF, a
// u16 one as a 16-bit PNG or TIFF, colour as colour (B, G, R(, A) as OpenCV writes them), each
// value as it is (reading it back gives the output bit for bit). Any other output (f32, the sums'
// u32/u64, or `typed` null) is `shown` through save_image with the typed output's channels, as
// before. Throws as save_image does.
ImageEncoding save_output_image(const std::filesystem::path& path, const Matrix& shown,
                                const AnyImage* typed);

}  // namespace coalesce::gui
