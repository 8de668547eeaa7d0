#include "coalesce/npy.hpp"

#include "coalesce/shortened.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace coalesce {
namespace {

namespace fs = std::filesystem;

// The data is written as the machine holds it; '<f4' is only true on a little-endian host (every
// host CUDA runs on).
static_assert(std::endian::native == std::endian::little, "the .npy writer assumes little-endian");

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kAlignment = 64;  // numpy.lib.format's ARRAY_ALIGN

std::string path_text(const fs::path& path) {
    std::string text = "'";  // appended, not "'" + ...: GCC 12 warns falsely (-Wrestrict) there
    text += shortened(path.string(), 2 * kQuoteLimit);
    return text + "'";
}

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

// 0, or the errno of the write that failed.
int write_all(int fd, const char* data, std::size_t size) {
    std::size_t written = 0;
    while (written < size) {
        const ssize_t n = ::write(fd, data + written, size - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        written += static_cast<std::size_t>(n);
    }
    return 0;
}

// A cursor over the header's dict literal: just enough of Python's syntax for what NumPy writes
// (quoted keys, quoted strings, True/False, tuples of whole numbers).
class DictReader {
public:
    explicit DictReader(std::string_view text) : text_(text) {}

    void skip_space() {
        while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
    }
    bool take(char ch) {
        skip_space();
        if (at_ < text_.size() && text_[at_] == ch) {
            ++at_;
            return true;
        }
        return false;
    }
    void expect(char ch) {
        if (!take(ch)) fail(std::string("expected '") + ch + "'");
    }
    char peek() {
        skip_space();
        return at_ < text_.size() ? text_[at_] : '\0';
    }
    std::string string_literal() {
        skip_space();
        if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"'))
            fail("expected a quoted string");
        const char quote = text_[at_++];
        const std::size_t end = text_.find(quote, at_);
        if (end == std::string_view::npos) fail("a string is not closed");
        std::string s(text_.substr(at_, end - at_));
        at_ = end + 1;
        return s;
    }
    bool boolean() {
        skip_space();
        for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
            const std::string_view w = word;
            if (text_.substr(at_, w.size()) == w) {
                at_ += w.size();
                return value;
            }
        }
        fail("expected True or False");
    }
    std::vector<std::size_t> tuple() {
        expect('(');
        std::vector<std::size_t> items;
        while (!take(')')) {
            skip_space();
            std::size_t value = 0;
            const char* begin = text_.data() + at_;
            const char* end = text_.data() + text_.size();
            std::size_t digits = 0;
            for (const char* p = begin; p < end && *p >= '0' && *p <= '9'; ++p, ++digits) {
                if (value > (SIZE_MAX - 9) / 10) fail("a dimension is too large");
                value = value * 10 + static_cast<std::size_t>(*p - '0');
            }
            if (digits == 0) fail("expected a dimension");
            at_ += digits;
            items.push_back(value);
            if (!take(',')) {
                expect(')');
                break;
            }
        }
        return items;
    }
    [[noreturn]] void fail(const std::string& why) const {
        throw std::runtime_error("bad .npy header: " + why + " at character " +
                                 std::to_string(at_) + " of " +
                                 shortened(std::string(text_), kQuoteLimit));
    }

private:
    std::string_view text_;
    std::size_t at_ = 0;
};

NpyHeader parse_dict(std::string_view dict, NpyHeader h) {
    DictReader in(dict);
    bool have_descr = false, have_order = false, have_shape = false;
    in.expect('{');
    while (!in.take('}')) {
        const std::string key = in.string_literal();
        in.expect(':');
        if (key == "descr") {
            h.descr = in.string_literal();
            have_descr = true;
        } else if (key == "fortran_order") {
            h.fortran_order = in.boolean();
            have_order = true;
        } else if (key == "shape") {
            h.shape = in.tuple();
            have_shape = true;
        } else {
            in.fail("unknown key '" + key + "'");
        }
        if (!in.take(',')) {
            in.expect('}');
            break;
        }
    }
    if (!have_descr || !have_order || !have_shape)
        throw std::runtime_error("bad .npy header: the dict lacks " +
                                 std::string(!have_descr   ? "'descr'"
                                             : !have_order ? "'fortran_order'"
                                                           : "'shape'"));
    return h;
}

std::uint32_t little_endian(std::string_view bytes) {
    std::uint32_t v = 0;
    for (std::size_t i = bytes.size(); i-- > 0;)
        v = (v << 8) | static_cast<unsigned char>(bytes[i]);
    return v;
}

}  // namespace

std::string npy_header(Shape shape, std::string_view descr, std::size_t channels) {
    std::string dims = std::to_string(shape.rows) + ", " + std::to_string(shape.cols);
    if (channels > 1) dims += ", " + std::to_string(channels);
    std::string dict = "{'descr': '" + std::string(descr) +
                       "', 'fortran_order': False, 'shape': (" + dims + "), }";
    // magic (6) + version (2) + length (2) + dict + padding + '\n' ends on a 64-byte boundary.
    const std::size_t fixed = kMagic.size() + 2 + 2;
    const std::size_t total = (fixed + dict.size() + 1 + kAlignment - 1) / kAlignment * kAlignment;
    dict.append(total - fixed - dict.size() - 1, ' ');
    dict += '\n';
    const auto length = static_cast<std::uint16_t>(dict.size());  // a few dozen bytes
    std::string header(kMagic);
    header += '\x01';
    header += '\x00';
    header += static_cast<char>(length & 0xFF);
    header += static_cast<char>(length >> 8);
    return header + dict;
}

namespace {

// The header, then `bytes` of data, to a temporary renamed into place when complete.
void write_npy_bytes(const fs::path& path, const std::string& header, const void* data,
                     std::size_t bytes) {
    const std::string where = "cannot write " + path_text(path) + ": ";
    const fs::path folder = path.parent_path().empty() ? fs::path(".") : path.parent_path();
    const fs::path tmp = folder / (path.filename().string() + ".tmp-" + std::to_string(::getpid()));
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) throw std::runtime_error(where + errno_text(errno));

    int err = write_all(fd, header.data(), header.size());
    if (err == 0) err = write_all(fd, static_cast<const char*>(data), bytes);
    if (::close(fd) != 0 && err == 0) err = errno;  // NFS and full disks report here
    if (err == 0 && ::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
    if (err != 0) {
        ::unlink(tmp.c_str());
        throw std::runtime_error(where + errno_text(err));
    }
}

}  // namespace

std::string_view npy_descr(const AnyImage& image) {
    // In AnyImage's order: u8, u16, f32, u32, u64.
    static constexpr std::string_view names[] = {"|u1", "<u2", "<f4", "<u4", "<u8"};
    return names[image.index()];
}

void write_npy(const fs::path& path, const Matrix& m) {
    write_npy_bytes(path, npy_header(m.shape()), m.data(), m.size() * sizeof(float));
}

void write_npy(const fs::path& path, const AnyImage& image) {
    std::visit(
        [&](const auto& typed) {
            write_npy_bytes(
                path, npy_header({typed.rows(), typed.cols()}, npy_descr(image), typed.channels()),
                typed.data(), typed.size() * sizeof(typed.data()[0]));
        },
        image);
}

NpyHeader parse_npy_header(std::string_view bytes) {
    if (bytes.size() < kMagic.size() + 2 || bytes.substr(0, kMagic.size()) != kMagic)
        throw std::runtime_error("not a .npy file (no \\x93NUMPY magic)");
    NpyHeader h;
    h.major = static_cast<unsigned char>(bytes[6]);
    h.minor = static_cast<unsigned char>(bytes[7]);
    if (h.major < 1 || h.major > 3 || h.minor != 0)
        throw std::runtime_error(".npy format version " + std::to_string(h.major) + "." +
                                 std::to_string(h.minor) + " is not supported");
    const std::size_t length_bytes = h.major == 1 ? 2 : 4;
    const std::size_t fixed = 8 + length_bytes;
    if (bytes.size() < fixed) throw std::runtime_error("the .npy header is cut short");
    const std::size_t length = little_endian(bytes.substr(8, length_bytes));
    if (bytes.size() < fixed + length) throw std::runtime_error("the .npy header is cut short");
    h.data_offset = fixed + length;
    const std::string_view dict = bytes.substr(fixed, length);
    if (dict.empty() || dict.back() != '\n')
        throw std::runtime_error("bad .npy header: it does not end in a newline");
    return parse_dict(dict, h);
}

Matrix read_npy(const fs::path& path, std::size_t max_bytes) {
    const std::string where = path_text(path) + ": ";
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) throw std::runtime_error(where + "not a regular file");
    const std::uintmax_t size = fs::file_size(path, ec);
    if (ec) throw std::runtime_error(where + ec.message());
    if (size > max_bytes)
        throw std::runtime_error(where + "larger than " + std::to_string(max_bytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(where + "cannot be opened");
    std::string bytes(static_cast<std::size_t>(size), '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!in) throw std::runtime_error(where + "cannot be read");

    NpyHeader h;
    try {
        h = parse_npy_header(bytes);
    } catch (const std::runtime_error& e) {
        throw std::runtime_error(where + e.what());
    }
    if (h.descr != "<f4")
        throw std::runtime_error(where + "holds '" + shortened(h.descr) +
                                 "', not little-endian float32 ('<f4')");
    if (h.fortran_order) throw std::runtime_error(where + "is in Fortran order, not C order");
    if (h.shape.size() != 2)
        throw std::runtime_error(where + "has " + std::to_string(h.shape.size()) +
                                 " dimensions, not 2");
    const std::size_t rows = h.shape[0], cols = h.shape[1];
    if (cols != 0 && rows > (SIZE_MAX / sizeof(float)) / cols)
        throw std::runtime_error(where + "its shape is too large");
    const std::size_t data_bytes = rows * cols * sizeof(float);
    if (bytes.size() - h.data_offset != data_bytes)
        throw std::runtime_error(where + "holds " + std::to_string(bytes.size() - h.data_offset) +
                                 " data bytes; shape (" + std::to_string(rows) + ", " +
                                 std::to_string(cols) + ") needs " + std::to_string(data_bytes));
    Matrix m(rows, cols);
    std::memcpy(m.data(), bytes.data() + h.data_offset, data_bytes);
    return m;
}

}  // namespace coalesce
