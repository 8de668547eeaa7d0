// NumPy .npy files of one matrix (float32, or a typed image in its own element type), so that
// outputs can be checked with other tools
// (numpy.load, ...). Format 1.0 as numpy.lib.format specifies it: the magic "\x93NUMPY", version
// 1.0, a little-endian uint16 header length, a Python dict literal
// {'descr': '<f4', 'fortran_order': False, 'shape': (rows, cols), } padded with spaces and ended
// by '\n' so that the data starts on a 64-byte boundary, then the rows in C order.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/typed_image.hpp"

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace coalesce {

// The header of a matrix of this shape and NumPy element type ('<f4', '|u1', '<u2', '<u4',
// '<u8'): magic, version, length and dict, a multiple of 64 bytes.
// A colour image (channels > 1) is (rows, cols, channels), its channels interleaved as held.
std::string npy_header(Shape shape, std::string_view descr = "<f4", std::size_t channels = 1);

// NumPy's name of a typed image's element type: u8 '|u1', u16 '<u2', f32 '<f4', the sums' u32
// '<u4' and u64 '<u8' (little-endian, as every machine Coalesce runs on).
std::string_view npy_descr(const AnyImage& image);

// Writes `m` to `path`: to a temporary in the same folder first, renamed into place when complete,
// so a failed or killed write never leaves half a file under the name (an existing file of that
// name is replaced). Throws std::runtime_error naming the path and the reason.
void write_npy(const std::filesystem::path& path, const Matrix& m);
// The same for a typed image, in its own element type; colour as (rows, cols, channels).
void write_npy(const std::filesystem::path& path, const AnyImage& image);

// What a .npy header says.
struct NpyHeader {
    int major = 0, minor = 0;
    std::string descr;  // "<f4"
    bool fortran_order = false;
    std::vector<std::size_t> shape;
    std::size_t data_offset = 0;  // [bytes] where the data starts
};

// Parses the header at the start of `bytes` (versions 1.0, 2.0 and 3.0). Throws
// std::runtime_error saying what is wrong.
NpyHeader parse_npy_header(std::string_view bytes);

// Reads a 2-D little-endian float32 C-order .npy file (what write_npy writes) of at most
// `max_bytes`. Throws std::runtime_error naming the path and what is wrong or unsupported.
Matrix read_npy(const std::filesystem::path& path, std::size_t max_bytes = std::size_t{1} << 34);

}  // namespace coalesce
