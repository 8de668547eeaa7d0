// A file opened only once it is known to be a regular one: a named pipe would block the reader,
// a device such as /dev/zero never ends, a folder is not a file. Then read with a size limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace coalesce::imageio {

class RegularFile {
public:
    // Throws Refusal: no such file, a folder, a pipe, device or socket, unreadable, empty.
    explicit RegularFile(const std::filesystem::path& path);
    ~RegularFile();
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    std::uintmax_t size() const { return size_; }  // [bytes]
    std::string read_prefix(std::size_t bytes) const;
    // The whole file; throws Refusal when it is larger than `max_bytes` (`what` names the kind of
    // file the limit is for: "images").
    std::string read_all(std::size_t max_bytes, std::string_view what) const;

private:
    int fd_ = -1;
    std::uintmax_t size_ = 0;
};

// Unpacks a gzip stream; throws Refusal for a damaged one or one larger than `max_bytes` unpacked.
std::string gunzip(std::string_view packed, std::size_t max_bytes);

}  // namespace coalesce::imageio
