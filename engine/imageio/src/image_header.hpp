// What an image file says about itself before it is decoded: its format (from its first bytes,
// not its name), its size, its channels, and whether its structure is complete. Decoding a file
// that declares 30000x30000 pixels costs seconds and gigabytes before it fails; reading its
// header costs nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace coalesce::imageio {

enum class Kind { png, jpeg, tiff, bmp, pnm, webp, matrix_text, gzip, unknown };

// From the first bytes (16 are enough).
Kind sniff(std::string_view prefix);

struct ImageHeader {
    std::string format;          // "PNG", "JPEG", "TIFF", "BMP", "PGM", ..., "WebP"
    std::uint64_t width = 0;     // [pixels]
    std::uint64_t height = 0;    // [pixels]
    int channels = 4;            // at most this many channels come out of the decoder
    int bytes_per_sample = 1;    // of the decoded samples
    int exif_orientation = 1;    // to apply after decoding (JPEG, PNG); 1 for the others
    std::uint64_t data_end = 0;  // [bytes] where the pixel data ends; 0 where not known
};

// Parses the header and walks the structure as far as it can without decoding (PNG chunks and
// their CRCs, JPEG segments up to the end-of-image marker, the TIFF directory and its strips).
// Throws Refusal "is a truncated PNG: ..." or "is a damaged TIFF: ..." when they are incomplete.
ImageHeader read_image_header(std::string_view bytes, Kind kind);

}  // namespace coalesce::imageio
