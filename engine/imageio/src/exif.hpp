// The EXIF orientation of an image (which way up the camera held it), and turning pixels upright.
#pragma once

#include <string_view>

namespace cv {
class Mat;
}

namespace coalesce::imageio {

// The orientation tag (0x0112) of an EXIF block in its TIFF layout ("II*\0" or "MM\0*", then the
// first directory): 1..8, or 1 when the block has none or it is out of range or damaged.
int exif_orientation(std::string_view tiff_block);

// A copy of `image` turned upright as orientation 2..8 asks, the way OpenCV's imread turns the
// files it orients itself (a transposition for 5..8, then a flip).
cv::Mat upright_copy(const cv::Mat& image, int orientation);

}  // namespace coalesce::imageio
