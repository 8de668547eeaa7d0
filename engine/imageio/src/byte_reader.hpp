// Bounds-checked reads of integers from a file's bytes: a header parser asks whether bytes are
// there before it reads them, and a short file never reads past its end.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace coalesce::imageio {

class ByteReader {
public:
    explicit ByteReader(std::string_view bytes, bool little_endian = false)
        : bytes_(bytes), little_(little_endian) {}

    std::size_t size() const { return bytes_.size(); }
    // True when `count` bytes start at `at`.
    bool has(std::uint64_t at, std::uint64_t count) const {
        return at <= bytes_.size() && count <= bytes_.size() - at;
    }
    std::uint8_t u8(std::size_t at) const { return static_cast<std::uint8_t>(bytes_[at]); }
    std::uint16_t u16(std::size_t at) const {
        const unsigned a = u8(at), b = u8(at + 1);
        return static_cast<std::uint16_t>(little_ ? a | b << 8 : a << 8 | b);
    }
    std::uint32_t u32(std::size_t at) const {
        const std::uint32_t a = u16(at), b = u16(at + 2);
        return little_ ? a | b << 16 : a << 16 | b;
    }
    std::string_view view(std::size_t at, std::size_t count) const {
        return bytes_.substr(at, count);
    }
    std::string_view bytes() const { return bytes_; }

private:
    std::string_view bytes_;
    bool little_;
};

// a * b, or UINT64_MAX when it would not fit.
inline std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
    if (a != 0 && b > UINT64_MAX / a) return UINT64_MAX;
    return a * b;
}
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

}  // namespace coalesce::imageio
