// Text from a file or a command line, fit to be quoted back in a one-line message: a 1 MB name
// quoted whole makes a message no one can read and some widgets cannot paint.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace coalesce {

inline constexpr std::size_t kQuoteLimit = 200;  // [bytes] of offending text a message quotes

// At most `limit` bytes of `text`, cut before a UTF-8 sequence rather than inside it, followed by
// "…" when anything was cut; line breaks, tabs and other control bytes show as spaces.
inline std::string shortened(std::string_view text, std::size_t limit = kQuoteLimit) {
    std::size_t end = text.size();
    if (end > limit) {
        end = limit;
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    }
    std::string out(text.substr(0, end));
    for (char& ch : out)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F) ch = ' ';
    if (end < text.size()) out += "…";
    return out;
}

}  // namespace coalesce
