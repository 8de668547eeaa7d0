#include "make_files.hpp"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace coalesce::bad_input {

void write_bytes(const fs::path& path, std::string_view bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write test input " + path.string());
}

Bytes read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    return Bytes(std::istreambuf_iterator<char>(in), {});
}

void write_sparse(const fs::path& path, std::uintmax_t size) {
    write_bytes(path, "");
    fs::resize_file(path, size);
}

void make_fifo(const fs::path& path) {
    if (::mkfifo(path.c_str(), 0666) != 0) throw std::runtime_error("mkfifo " + path.string());
}

bool make_device(const fs::path& path, unsigned major, unsigned minor) {
    return ::mknod(path.c_str(), S_IFCHR | 0666, ::makedev(major, minor)) == 0;
}

int dead_pid() {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
}

void age(const fs::path& path, int seconds) {
    fs::last_write_time(path, fs::file_time_type::clock::now() - std::chrono::seconds(seconds));
}

Bytes be16(std::uint32_t v) { return {static_cast<char>(v >> 8), static_cast<char>(v)}; }
Bytes be32(std::uint32_t v) { return be16(v >> 16) + be16(v & 0xFFFF); }
Bytes le16(std::uint32_t v) { return {static_cast<char>(v), static_cast<char>(v >> 8)}; }
Bytes le32(std::uint32_t v) { return le16(v & 0xFFFF) + le16(v >> 16); }

std::uint32_t crc32(std::string_view bytes) {
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    std::uint32_t c = 0xFFFFFFFFu;
    for (char ch : bytes) c = table[(c ^ static_cast<unsigned char>(ch)) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

namespace {

std::uint32_t adler32(std::string_view bytes) {
    std::uint32_t a = 1, b = 0;
    for (char ch : bytes) {
        a = (a + static_cast<unsigned char>(ch)) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

// Deflate "stored" blocks of at most 65535 bytes.
Bytes stored_blocks(std::string_view raw) {
    Bytes out;
    std::size_t at = 0;
    do {
        const std::size_t n = std::min<std::size_t>(raw.size() - at, 65535);
        const bool last = at + n == raw.size();
        out += static_cast<char>(last ? 1 : 0);
        out += le16(static_cast<std::uint32_t>(n)) + le16(static_cast<std::uint32_t>(~n & 0xFFFF));
        out += raw.substr(at, n);
        at += n;
    } while (at < raw.size());
    return out;
}

int png_channels(int colour_type) {
    switch (colour_type) {
    case 2: return 3;
    case 4: return 2;
    case 6: return 4;
    default: return 1;
    }
}

Bytes ihdr(std::uint32_t width, std::uint32_t height, int colour_type, int depth) {
    return png_chunk("IHDR", be32(width) + be32(height) + static_cast<char>(depth) +
                                 static_cast<char>(colour_type) + Bytes(3, '\0'));
}

Bytes tiff_entry(std::uint16_t tag, std::uint16_t type, std::uint32_t count, std::uint32_t value) {
    // SHORT values sit in the low bytes of the value field.
    return le16(tag) + le16(type) + le32(count) +
           (type == 3 && count == 1 ? le16(value) + le16(0) : le32(value));
}

}  // namespace

Bytes zlib_stored(std::string_view raw) {
    return Bytes("\x78\x01", 2) + stored_blocks(raw) + be32(adler32(raw));
}

Bytes gzip_stored(std::string_view raw) {
    const Bytes header("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10);
    return header + stored_blocks(raw) + le32(crc32(raw)) +
           le32(static_cast<std::uint32_t>(raw.size()));
}

Bytes png_chunk(std::string_view type, std::string_view data) {
    const Bytes body = Bytes(type) + Bytes(data);
    return be32(static_cast<std::uint32_t>(data.size())) + body + be32(crc32(body));
}

Bytes png(std::uint32_t width, std::uint32_t height, int colour_type, int depth,
          std::string_view extra) {
    const std::size_t row_bytes = std::size_t{width} * png_channels(colour_type) * (depth / 8);
    Bytes raw;
    for (std::uint32_t r = 0; r < height; ++r) {
        raw += '\0';  // filter: none
        for (std::size_t i = 0; i < row_bytes; ++i)
            raw += static_cast<char>((r * 7 + i * 3) & 0xFF);
    }
    return Bytes("\x89PNG\r\n\x1a\n", 8) + ihdr(width, height, colour_type, depth) + Bytes(extra) +
           png_chunk("IDAT", zlib_stored(raw)) + png_chunk("IEND", "");
}

Bytes png_lying(std::uint32_t width, std::uint32_t height) {
    return Bytes("\x89PNG\r\n\x1a\n", 8) + ihdr(width, height, 2, 8) +
           png_chunk("IDAT", zlib_stored(Bytes(64, '\0'))) + png_chunk("IEND", "");
}

Bytes tiff(std::uint32_t width, std::uint32_t height, int samples, int bits, int sample_format,
           std::string_view pixels) {
    const bool alpha = samples == 2 || samples == 4;
    const std::uint32_t entries = alpha ? 12 : 11;
    const std::uint32_t ifd_end = 8 + 2 + entries * 12 + 4;
    // Per-sample arrays that do not fit in an entry follow the directory, then the pixels.
    const bool arrays = samples > 2;
    const std::uint32_t bits_at = ifd_end;
    const std::uint32_t format_at = bits_at + (arrays ? 2u * samples : 0u);
    const std::uint32_t data_at = format_at + (arrays ? 2u * samples : 0u);
    const auto per_sample = [&](std::uint16_t tag, int value, std::uint32_t at) {
        if (samples == 1) return tiff_entry(tag, 3, 1, static_cast<std::uint32_t>(value));
        if (samples == 2) return le16(tag) + le16(3) + le32(2) + le16(value) + le16(value);
        return tiff_entry(tag, 3, static_cast<std::uint32_t>(samples), at);
    };
    Bytes out = Bytes("II*\0", 4) + le32(8) + le16(entries);
    out += tiff_entry(256, 4, 1, width);
    out += tiff_entry(257, 4, 1, height);
    out += per_sample(258, bits, bits_at);
    out += tiff_entry(259, 3, 1, 1);                     // no compression
    out += tiff_entry(262, 3, 1, samples >= 3 ? 2 : 1);  // RGB or black is zero
    out += tiff_entry(273, 4, 1, data_at);
    out += tiff_entry(277, 3, 1, static_cast<std::uint32_t>(samples));
    out += tiff_entry(278, 4, 1, height);
    out += tiff_entry(279, 4, 1, static_cast<std::uint32_t>(pixels.size()));
    out += tiff_entry(284, 3, 1, 1);             // contiguous samples
    if (alpha) out += tiff_entry(338, 3, 1, 2);  // the extra sample is unassociated alpha
    out += per_sample(339, sample_format, format_at);
    out += le32(0);
    if (arrays) {
        for (int i = 0; i < samples; ++i) out += le16(static_cast<std::uint32_t>(bits));
        for (int i = 0; i < samples; ++i) out += le16(static_cast<std::uint32_t>(sample_format));
    }
    return out + Bytes(pixels);
}

Bytes tiff_floats(std::uint32_t width, std::uint32_t height, const std::vector<float>& values) {
    Bytes pixels(values.size() * sizeof(float), '\0');
    std::memcpy(pixels.data(), values.data(), pixels.size());  // little-endian, as the header says
    return tiff(width, height, 1, 32, 3, pixels);
}

Bytes tiff_lying(std::uint32_t width, std::uint32_t height) {
    return tiff(width, height, 1, 8, 1, Bytes(16, '\x40'));
}

Bytes bmp(std::int32_t width, std::int32_t height) {
    const std::uint32_t rows = static_cast<std::uint32_t>(height < 0 ? -height : height);
    const std::uint32_t stride = (static_cast<std::uint32_t>(width) * 3 + 3) & ~3u;
    const std::uint32_t data = stride * rows;
    Bytes out = "BM" + le32(54 + data) + le32(0) + le32(54);
    out += le32(40) + le32(static_cast<std::uint32_t>(width)) +
           le32(static_cast<std::uint32_t>(height));
    out += le16(1) + le16(24) + le32(0) + le32(data) + le32(2835) + le32(2835) + le32(0) + le32(0);
    for (std::uint32_t i = 0; i < data; ++i) out += static_cast<char>(i * 5 & 0xFF);
    return out;
}

Bytes pgm(std::uint32_t width, std::uint32_t height, int maxval) {
    Bytes out = "P5\n" + std::to_string(width) + " " + std::to_string(height) + "\n" +
                std::to_string(maxval) + "\n";
    const std::size_t bytes = std::size_t{width} * height * (maxval > 255 ? 2 : 1);
    for (std::size_t i = 0; i < bytes; ++i) out += static_cast<char>(i * 11 & 0x7F);
    return out;
}

Bytes pgm_ascii(std::uint32_t width, std::uint32_t height) {
    Bytes out = "P2\n# made by the bad-input corpus\n" + std::to_string(width) + " " +
                std::to_string(height) + "\n255\n";
    for (std::uint32_t i = 0; i < width * height; ++i) out += std::to_string(i % 256) + " ";
    return out + "\n";
}

Bytes sample(std::string_view name) {
    return read_bytes(fs::path(COALESCE_BAD_INPUT_SAMPLES) / std::string(name));
}

Bytes with_exif_orientation(const Bytes& jpeg, int orientation) {
    // TIFF structure, big-endian: header, one directory with one entry (0x0112, SHORT).
    const Bytes tiff_part = Bytes("MM\0*", 4) + be32(8) + be16(1) + be16(0x0112) + be16(3) +
                            be32(1) + be16(static_cast<std::uint32_t>(orientation)) + be16(0) +
                            be32(0);
    const Bytes payload = Bytes("Exif\0\0", 6) + tiff_part;
    const Bytes app1 =
        Bytes("\xff\xe1", 2) + be16(static_cast<std::uint32_t>(payload.size() + 2)) + payload;
    return jpeg.substr(0, 2) + app1 + jpeg.substr(2);
}

Bytes with_jpeg_size(const Bytes& jpeg, std::uint16_t width, std::uint16_t height) {
    Bytes out = jpeg;
    for (std::size_t i = 2; i + 9 < out.size(); ++i) {
        const auto marker = static_cast<unsigned char>(out[i + 1]);
        if (static_cast<unsigned char>(out[i]) == 0xFF && marker >= 0xC0 && marker <= 0xC2) {
            out.replace(i + 5, 2, be16(height));
            out.replace(i + 7, 2, be16(width));
            return out;
        }
    }
    throw std::runtime_error("no frame header in the sample JPEG");
}

std::string yaml_matrix(const std::string& name, int rows, int cols, const std::string& dt,
                        const std::string& data) {
    return "%YAML:1.0\n---\n" + name + ": !!opencv-matrix\n   rows: " + std::to_string(rows) +
           "\n   cols: " + std::to_string(cols) + "\n   dt: \"" + dt + "\"\n   data: [ " + data +
           " ]\n";
}

std::string xml_matrix(const std::string& name, int rows, int cols, const std::string& dt,
                       const std::string& data) {
    std::string spaced = data;
    for (char& ch : spaced)
        if (ch == ',') ch = ' ';
    return "<?xml version=\"1.0\"?>\n<opencv_storage>\n<" + name +
           " type_id=\"opencv-matrix\">\n  <rows>" + std::to_string(rows) + "</rows>\n  <cols>" +
           std::to_string(cols) + "</cols>\n  <dt>" + dt + "</dt>\n  <data>\n    " + spaced +
           "</data></" + name + ">\n</opencv_storage>\n";
}

std::string values(std::size_t count, const std::string& value) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) out += (i ? ", " : "") + value;
    return out;
}

}  // namespace coalesce::bad_input
