// Inputs for the bad-input corpus, made at test time byte by byte: images in their real formats
// (valid, cut short, lying about their size), matrix files, results files and special files. No
// OpenCV or zlib is needed to make them, so the corpus builds on every machine.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce::bad_input {

namespace fs = std::filesystem;
using Bytes = std::string;

void write_bytes(const fs::path& path, std::string_view bytes);
Bytes read_bytes(const fs::path& path);
// A file of `size` bytes that takes no disk space (its contents read as zeros).
void write_sparse(const fs::path& path, std::uintmax_t size);
void make_fifo(const fs::path& path);
// A character device of the test's own (never /dev/null itself); false where the test may not
// make device nodes (not root).
bool make_device(const fs::path& path, unsigned major, unsigned minor);
// A process id that named a process of ours which has exited (nothing runs under it now).
int dead_pid();
// Sets the file's modification time `seconds` into the past.
void age(const fs::path& path, int seconds);

Bytes be16(std::uint32_t v);
Bytes be32(std::uint32_t v);
Bytes le16(std::uint32_t v);
Bytes le32(std::uint32_t v);
std::uint32_t crc32(std::string_view bytes);

// zlib and gzip streams of uncompressed ("stored") deflate blocks.
Bytes zlib_stored(std::string_view raw);
Bytes gzip_stored(std::string_view raw);

// PNG: `colour_type` 0 gray, 2 RGB, 4 gray + alpha, 6 RGBA; `depth` 8 or 16. Pixel values are a
// ramp. `extra` chunks go between IHDR and IDAT.
Bytes png_chunk(std::string_view type, std::string_view data);
Bytes png(std::uint32_t width, std::uint32_t height, int colour_type = 0, int depth = 8,
          std::string_view extra = {});
// A PNG whose header declares `width` x `height` but whose data is a few bytes.
Bytes png_lying(std::uint32_t width, std::uint32_t height);

// Baseline TIFF, little-endian, one strip, uncompressed: 8/16-bit unsigned (sample_format 1) or
// 32-bit float (3) samples, `samples` per pixel.
Bytes tiff(std::uint32_t width, std::uint32_t height, int samples, int bits, int sample_format,
           std::string_view pixels);
Bytes tiff_floats(std::uint32_t width, std::uint32_t height, const std::vector<float>& values);
// A TIFF whose header declares `width` x `height` with almost no pixel data.
Bytes tiff_lying(std::uint32_t width, std::uint32_t height);

Bytes bmp(std::int32_t width, std::int32_t height);  // 24-bit; a negative height is top-down
Bytes pgm(std::uint32_t width, std::uint32_t height, int maxval = 255);  // binary P5
Bytes pgm_ascii(std::uint32_t width, std::uint32_t height);              // P2

// The committed samples: a 16x8 colour JPEG and a 16x8 RGBA WebP.
Bytes sample(std::string_view name);
// The JPEG with an EXIF APP1 segment saying `orientation` (1..8).
Bytes with_exif_orientation(const Bytes& jpeg, int orientation);
// The JPEG with its frame header (SOF) declaring `width` x `height`.
Bytes with_jpeg_size(const Bytes& jpeg, std::uint16_t width, std::uint16_t height);

// OpenCV matrix files as text.
std::string yaml_matrix(const std::string& name, int rows, int cols, const std::string& dt,
                        const std::string& data);
std::string xml_matrix(const std::string& name, int rows, int cols, const std::string& dt,
                       const std::string& data);
// "v, v, v, ..." with `count` values.
std::string values(std::size_t count, const std::string& value = "1.5");

}  // namespace coalesce::bad_input
