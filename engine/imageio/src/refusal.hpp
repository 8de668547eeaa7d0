// Why the loader refuses a file, without the file's name: load_image() puts the name in front.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace coalesce::imageio {

class Refusal : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void refuse(const std::string& why) { throw Refusal(why); }

// "12 MiB", or "293 KiB" below a MiB, rounded up, for messages.
inline std::string mib_text(std::uintmax_t bytes) {
    if (bytes < (std::uintmax_t{1} << 20)) return std::to_string((bytes + 1023) >> 10) + " KiB";
    return std::to_string((bytes + (std::uintmax_t{1} << 20) - 1) >> 20) + " MiB";
}

}  // namespace coalesce::imageio
