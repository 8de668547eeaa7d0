#include "exif.hpp"

#include "byte_reader.hpp"

#include <opencv2/core.hpp>

namespace coalesce::imageio {

int exif_orientation(std::string_view tiff_block) {
    if (tiff_block.size() < 8) return 1;
    const bool little = tiff_block.substr(0, 4) == std::string_view("II*\0", 4);
    if (!little && tiff_block.substr(0, 4) != std::string_view("MM\0*", 4)) return 1;
    const ByteReader in(tiff_block, little);
    const std::uint32_t directory = in.u32(4);
    if (!in.has(directory, 2)) return 1;
    const unsigned entries = in.u16(directory);
    for (unsigned i = 0; i < entries; ++i) {
        const std::uint64_t at = directory + 2 + 12ull * i;
        if (!in.has(at, 12)) return 1;
        if (in.u16(at) != 0x0112) continue;
        if (in.u16(at + 2) != 3 || in.u32(at + 4) != 1) return 1;  // one SHORT
        const int value = in.u16(at + 8);
        return value >= 1 && value <= 8 ? value : 1;
    }
    return 1;
}

cv::Mat upright_copy(const cv::Mat& image, int orientation) {
    cv::Mat out;
    if (orientation >= 5 && orientation <= 8)
        cv::transpose(image, out);
    else
        out = image.clone();
    switch (orientation) {
    case 2: cv::flip(out, out, 1); break;   // mirrored left to right
    case 3: cv::flip(out, out, -1); break;  // upside down
    case 4: cv::flip(out, out, 0); break;   // mirrored top to bottom
    case 6: cv::flip(out, out, 1); break;   // turned a quarter clockwise
    case 7: cv::flip(out, out, -1); break;
    case 8: cv::flip(out, out, 0); break;  // a quarter counter-clockwise
    default: break;                        // 1 upright, 5 transposed
    }
    return out;
}

}  // namespace coalesce::imageio
