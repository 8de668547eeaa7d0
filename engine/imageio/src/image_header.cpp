#include "image_header.hpp"

#include "byte_reader.hpp"
#include "exif.hpp"
#include "refusal.hpp"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace coalesce::imageio {
namespace {

constexpr std::string_view kPngSignature("\x89PNG\r\n\x1a\n", 8);

[[noreturn]] void truncated(const std::string& format, const std::string& where) {
    refuse("is a truncated " + format + ": " + where);
}
[[noreturn]] void damaged(const std::string& format, const std::string& what) {
    refuse("is a damaged " + format + ": " + what);
}

// A chunk type or marker name fit for a message: letters and digits, '?' for anything else.
std::string printable(std::string_view name) {
    std::string out(name);
    for (char& ch : out)
        if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '?';
    return out;
}

// ------------------------------------------------------------------------------------------ PNG

ImageHeader png_header(std::string_view bytes) {
    const ByteReader in(bytes);
    ImageHeader h;
    h.format = "PNG";
    std::uint64_t at = kPngSignature.size();
    if (!in.has(at, 8)) truncated("PNG", "it ends before its header");
    bool first = true;
    for (;;) {
        if (!in.has(at, 8)) {
            if (at == in.size()) truncated("PNG", "it has no IEND chunk");
            truncated("PNG", "it ends inside a chunk header at byte " + std::to_string(at));
        }
        const std::uint32_t length = in.u32(at);
        const std::string type = printable(in.view(at + 4, 4));
        if (length > 0x7FFFFFFFu)
            damaged("PNG", "chunk '" + type + "' at byte " + std::to_string(at) + " declares " +
                               std::to_string(length) + " bytes");
        if (!in.has(at + 8, std::uint64_t{length} + 4))
            truncated("PNG", "it ends inside its '" + type + "' chunk");
        const std::string_view typed_data = in.view(at + 4, 4 + length);
        const auto crc =
            static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(typed_data.data()),
                                             static_cast<uInt>(typed_data.size())));
        if (crc != in.u32(at + 8 + length))
            damaged("PNG",
                    "chunk '" + type + "' at byte " + std::to_string(at) + " fails its CRC check");
        if (first && (type != "IHDR" || length != 13))
            damaged("PNG", "it does not start with IHDR");
        if (type == "IHDR") {
            h.width = in.u32(at + 8);
            h.height = in.u32(at + 12);
            const int depth = in.u8(at + 16), colour = in.u8(at + 17);
            h.bytes_per_sample = depth == 16 ? 2 : 1;
            h.channels = colour == 0 ? 1 : 4;  // OpenCV expands palettes and gray + alpha to 4
        } else if (type == "eXIf") {
            h.exif_orientation = exif_orientation(in.view(at + 8, length));
        } else if (type == "IEND") {
            return h;
        }
        first = false;
        at += 12 + std::uint64_t{length};
    }
}

// ----------------------------------------------------------------------------------------- JPEG

bool is_frame_marker(unsigned marker) {
    return marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
}

ImageHeader jpeg_header(std::string_view bytes) {
    const ByteReader in(bytes);
    ImageHeader h;
    h.format = "JPEG";
    bool frame = false;
    std::uint64_t at = 2;
    for (;;) {
        if (!in.has(at, 2)) truncated("JPEG", "it ends before its image data");
        if (in.u8(at) != 0xFF) damaged("JPEG", "no marker at byte " + std::to_string(at));
        const unsigned marker = in.u8(at + 1);
        if (marker == 0xFF) {  // fill byte
            ++at;
            continue;
        }
        if (marker == 0xD9) damaged("JPEG", "it ends before any image data");
        if (marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7)) {  // no length follows
            at += 2;
            continue;
        }
        if (!in.has(at + 2, 2)) truncated("JPEG", "it ends inside a header segment");
        const std::uint32_t length = in.u16(at + 2);
        if (length < 2)
            damaged("JPEG", "a segment at byte " + std::to_string(at) + " is too short");
        if (!in.has(at + 2, length)) truncated("JPEG", "it ends inside a header segment");
        const std::string_view segment = in.view(at + 4, length - 2);
        if (is_frame_marker(marker)) {
            if (segment.size() < 6) damaged("JPEG", "its frame header is too short");
            const ByteReader frame_in(segment);
            h.bytes_per_sample = frame_in.u8(0) > 8 ? 2 : 1;
            h.height = frame_in.u16(1);
            h.width = frame_in.u16(3);
            h.channels = frame_in.u8(5) == 1 ? 1 : 3;
            frame = true;
        } else if (marker == 0xE1 && segment.substr(0, 6) == std::string_view("Exif\0\0", 6)) {
            h.exif_orientation = exif_orientation(segment.substr(6));
        } else if (marker == 0xDA) {  // start of scan: coded data until the end-of-image marker
            if (!frame) damaged("JPEG", "its image data comes before its frame header");
            // Coded data never holds FF D9 (an FF there is followed by 00 or a restart marker).
            if (bytes.find(std::string_view("\xFF\xD9", 2), at + 2 + length) ==
                std::string_view::npos)
                truncated("JPEG", "it ends before its end-of-image marker");
            return h;
        }
        at += 2 + std::uint64_t{length};
    }
}

// ----------------------------------------------------------------------------------------- TIFF

// The values of one directory entry (SHORT or LONG), read where the entry keeps them.
std::vector<std::uint64_t> tiff_values(const ByteReader& in, std::uint64_t entry) {
    const unsigned type = in.u16(entry + 2);
    const std::uint32_t count = in.u32(entry + 4);
    const unsigned size = type == 3 ? 2 : type == 4 ? 4 : 0;
    if (size == 0 || count == 0) return {};
    const std::uint64_t bytes = std::uint64_t{count} * size;
    const std::uint64_t at = bytes <= 4 ? entry + 8 : in.u32(entry + 8);
    if (!in.has(at, bytes))
        truncated("TIFF", "a table of its directory lies past the end of the file");
    std::vector<std::uint64_t> values(count);
    for (std::uint32_t i = 0; i < count; ++i)
        values[i] = size == 2 ? in.u16(static_cast<std::size_t>(at + 2ull * i))
                              : in.u32(static_cast<std::size_t>(at + 4ull * i));
    return values;
}

ImageHeader tiff_header(std::string_view bytes) {
    const bool little = bytes[0] == 'I';
    const ByteReader in(bytes, little);
    ImageHeader h;
    h.format = "TIFF";
    if (!in.has(0, 8)) truncated("TIFF", "it ends before its header");
    if (in.u16(2) == 43) refuse("is a BigTIFF, which this program does not read");
    const std::uint32_t directory = in.u32(4);
    if (!in.has(directory, 2))
        truncated("TIFF", "its image directory lies past the end of the file");
    const unsigned entries = in.u16(directory);
    if (!in.has(directory + 2, 12ull * entries))
        truncated("TIFF", "it ends inside its image directory");
    std::vector<std::uint64_t> offsets, counts;
    std::uint64_t bits = 8, samples = 1;
    for (unsigned i = 0; i < entries; ++i) {
        const std::uint64_t entry = directory + 2 + 12ull * i;
        const unsigned tag = in.u16(static_cast<std::size_t>(entry));
        if (tag != 256 && tag != 257 && tag != 258 && tag != 277 && tag != 273 && tag != 279 &&
            tag != 324 && tag != 325)
            continue;
        const std::vector<std::uint64_t> v = tiff_values(in, entry);
        if (v.empty()) damaged("TIFF", "tag " + std::to_string(tag) + " has no value");
        if (tag == 256) h.width = v[0];
        if (tag == 257) h.height = v[0];
        if (tag == 258) bits = *std::max_element(v.begin(), v.end());
        if (tag == 277) samples = v[0];
        if (tag == 273 || tag == 324) offsets = v;
        if (tag == 279 || tag == 325) counts = v;
    }
    if (h.width == 0 && h.height == 0) damaged("TIFF", "its directory gives no image size");
    h.bytes_per_sample = static_cast<int>(std::clamp<std::uint64_t>((bits + 7) / 8, 1, 8));
    // 8-bit images go through libtiff's RGBA reader: four channels at most, whatever the file has.
    h.channels = static_cast<int>(bits <= 8 ? std::max<std::uint64_t>(samples, 4) : samples);
    for (std::size_t i = 0; i < std::min(offsets.size(), counts.size()); ++i)
        h.data_end = std::max(h.data_end, saturating_add(offsets[i], counts[i]));
    return h;
}

// ------------------------------------------------------------------------------------------ BMP

ImageHeader bmp_header(std::string_view bytes) {
    const ByteReader in(bytes, true);
    ImageHeader h;
    h.format = "BMP";
    if (!in.has(0, 26)) truncated("BMP", "it ends before its header");
    const std::uint32_t info = in.u32(14);
    std::uint32_t bits = 0, compression = 0;
    if (info == 12) {
        h.width = in.u16(18);
        h.height = in.u16(20);
        bits = in.u16(24);
    } else if (info >= 40) {
        if (!in.has(0, 14 + 40)) truncated("BMP", "it ends before its header");
        const auto width = static_cast<std::int32_t>(in.u32(18));
        const auto height = static_cast<std::int32_t>(in.u32(22));
        if (width < 0) damaged("BMP", "it declares a negative width");
        h.width = static_cast<std::uint64_t>(width);
        // A negative height means rows from the top down.
        h.height = height < 0 ? std::uint64_t{0} - static_cast<std::uint64_t>(std::int64_t{height})
                              : static_cast<std::uint64_t>(height);
        bits = in.u16(28);
        compression = in.u32(30);
    } else {
        damaged("BMP", "its header is of an unknown kind (" + std::to_string(info) + " bytes)");
    }
    h.channels = 4;
    if (compression == 0 || compression == 3) {  // uncompressed rows, padded to 4 bytes
        const std::uint64_t stride = saturating_mul((saturating_mul(h.width, bits) + 31) / 32, 4);
        h.data_end = saturating_add(in.u32(10), saturating_mul(stride, h.height));
    }
    return h;
}

// ------------------------------------------------------------------------------------------ PNM

// The next number of a PNM header, skipping whitespace and # comments; false when there is none.
bool pnm_number(std::string_view bytes, std::size_t& at, std::uint64_t& value) {
    for (;;) {
        while (at < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[at]))) ++at;
        if (at < bytes.size() && bytes[at] == '#') {
            while (at < bytes.size() && bytes[at] != '\n') ++at;
            continue;
        }
        break;
    }
    std::size_t digits = 0;
    value = 0;
    while (at < bytes.size() && std::isdigit(static_cast<unsigned char>(bytes[at])) &&
           digits < 12) {
        value = value * 10 + static_cast<std::uint64_t>(bytes[at++] - '0');
        ++digits;
    }
    return digits > 0 && digits < 12;
}

ImageHeader pnm_header(std::string_view bytes) {
    const char type = bytes[1];
    ImageHeader h;
    h.format = type == '1' || type == '4'   ? "PBM"
               : type == '2' || type == '5' ? "PGM"
               : type == '3' || type == '6' ? "PPM"
               : type == '7'                ? "PAM"
                                            : "PFM";
    std::size_t at = 2;
    std::uint64_t maxval = 1, depth = type == '3' || type == '6' || type == 'F' ? 3 : 1;
    if (type == '7') {  // PAM: "WIDTH 4\nHEIGHT 2\nDEPTH 1\nMAXVAL 255\nENDHDR\n"
        const std::size_t end = bytes.find("ENDHDR", 0);
        if (end == std::string_view::npos || end > 4096) damaged("PAM", "its header has no ENDHDR");
        const auto field = [&](std::string_view name, std::uint64_t& value) {
            std::size_t pos = bytes.substr(0, end).find(name);
            if (pos == std::string_view::npos)
                damaged("PAM", "its header gives no " + std::string(name));
            pos += name.size();
            if (!pnm_number(bytes, pos, value))
                damaged("PAM", "its " + std::string(name) + " is not a number");
        };
        field("WIDTH", h.width);
        field("HEIGHT", h.height);
        field("DEPTH", depth);
        field("MAXVAL", maxval);
        at = bytes.find('\n', end);
        at = at == std::string_view::npos ? bytes.size() : at + 1;
    } else {
        const bool has_maxval = type != '1' && type != '4';
        if (!pnm_number(bytes, at, h.width) || !pnm_number(bytes, at, h.height) ||
            (has_maxval && type != 'F' && type != 'f' && !pnm_number(bytes, at, maxval)))
            damaged(h.format, "its header does not give a width, a height and a maximum value");
        if (type == 'F' || type == 'f') {  // the scale: a signed decimal, passed over
            while (at < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[at]))) ++at;
            while (at < bytes.size() && !std::isspace(static_cast<unsigned char>(bytes[at]))) ++at;
            maxval = 1;
        }
        ++at;  // the one whitespace byte before the pixels
    }
    if (maxval == 0 || maxval > 65535)
        damaged(h.format, "its maximum value is " + std::to_string(maxval));
    h.channels = static_cast<int>(std::clamp<std::uint64_t>(depth, 1, 4));
    h.bytes_per_sample = type == 'F' || type == 'f' ? 4 : maxval > 255 ? 2 : 1;
    const std::uint64_t samples = saturating_mul(saturating_mul(h.width, h.height), depth);
    if (type == '4')
        h.data_end = saturating_add(at, saturating_mul((h.width + 7) / 8, h.height));
    else if (type >= '5' || type == 'F' || type == 'f')
        h.data_end = saturating_add(
            at, saturating_mul(samples, static_cast<std::uint64_t>(h.bytes_per_sample)));
    return h;
}

// ----------------------------------------------------------------------------------------- WebP

ImageHeader webp_header(std::string_view bytes) {
    const ByteReader in(bytes, true);
    ImageHeader h;
    h.format = "WebP";
    h.channels = 4;
    if (!in.has(0, 30)) truncated("WebP", "it ends before its header");
    const std::uint64_t declared = std::uint64_t{in.u32(4)} + 8;
    if (declared > in.size())
        truncated("WebP", "it has " + std::to_string(in.size()) + " of the " +
                              std::to_string(declared) + " bytes it declares");
    const std::string_view chunk = in.view(12, 4);
    if (chunk == "VP8X") {
        h.width = 1 + (in.u32(24) & 0xFFFFFF);
        h.height = 1 + (in.u32(27) & 0xFFFFFF);
    } else if (chunk == "VP8L") {
        const std::uint32_t bits = in.u32(21);
        h.width = 1 + (bits & 0x3FFF);
        h.height = 1 + ((bits >> 14) & 0x3FFF);
    } else if (chunk == "VP8 ") {
        h.width = in.u16(26) & 0x3FFF;
        h.height = in.u16(28) & 0x3FFF;
    } else {
        damaged("WebP", "its first chunk is '" + printable(chunk) + "'");
    }
    return h;
}

}  // namespace

Kind sniff(std::string_view prefix) {
    const auto starts = [&](std::string_view magic) {
        return prefix.substr(0, magic.size()) == magic;
    };
    if (starts(kPngSignature)) return Kind::png;
    if (starts("\xFF\xD8")) return Kind::jpeg;
    if (starts(std::string_view("II*\0", 4)) || starts(std::string_view("MM\0*", 4)) ||
        starts(std::string_view("II+\0", 4)) || starts(std::string_view("MM\0+", 4)))
        return Kind::tiff;
    if (starts("BM")) return Kind::bmp;
    if (prefix.size() >= 3 && prefix[0] == 'P' &&
        ((prefix[1] >= '1' && prefix[1] <= '7') || prefix[1] == 'F' || prefix[1] == 'f') &&
        std::isspace(static_cast<unsigned char>(prefix[2])))
        return Kind::pnm;
    if (starts("RIFF") && prefix.substr(8, 4) == "WEBP") return Kind::webp;
    if (starts("\x1F\x8B")) return Kind::gzip;
    std::string_view text = prefix;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // a UTF-8 byte order mark
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    if (text.substr(0, 5) == "%YAML" || text.substr(0, 5) == "<?xml" ||
        text.substr(0, 16) == "<opencv_storage")
        return Kind::matrix_text;
    return Kind::unknown;
}

ImageHeader read_image_header(std::string_view bytes, Kind kind) {
    switch (kind) {
    case Kind::png: return png_header(bytes);
    case Kind::jpeg: return jpeg_header(bytes);
    case Kind::tiff: return tiff_header(bytes);
    case Kind::bmp: return bmp_header(bytes);
    case Kind::pnm: return pnm_header(bytes);
    case Kind::webp: return webp_header(bytes);
    default: refuse("is not an image");
    }
}

}  // namespace coalesce::imageio
