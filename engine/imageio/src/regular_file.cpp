#include "regular_file.hpp"

#include "refusal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <system_error>

namespace coalesce::imageio {
namespace {

std::string errno_text(int err) { return std::error_code(err, std::generic_category()).message(); }

// What a file that is not a regular one is, in a message.
std::string not_regular(mode_t mode) {
    if (S_ISDIR(mode)) return "is a folder, not an image";
    if (S_ISFIFO(mode)) return "is a named pipe, not a regular file";
    if (S_ISCHR(mode)) return "is a character device, not a regular file";
    if (S_ISBLK(mode)) return "is a block device, not a regular file";
    if (S_ISSOCK(mode)) return "is a socket, not a regular file";
    return "is not a regular file";
}

}  // namespace

RegularFile::RegularFile(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) refuse("no such file");
        refuse("cannot be read (" + errno_text(errno) + ")");
    }
    if (!S_ISREG(st.st_mode)) refuse(not_regular(st.st_mode));
    // Non-blocking and checked again once open: the name may have been swapped for a pipe since.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd_ < 0) refuse("cannot be read (" + errno_text(errno) + ")");
    if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd_);
        refuse(not_regular(st.st_mode));
    }
    size_ = static_cast<std::uintmax_t>(st.st_size);
    if (size_ == 0) {
        ::close(fd_);
        refuse("is empty (0 bytes)");
    }
}

RegularFile::~RegularFile() { ::close(fd_); }

std::string RegularFile::read_prefix(std::size_t bytes) const {
    std::string out(static_cast<std::size_t>(std::min<std::uintmax_t>(bytes, size_)), '\0');
    std::size_t got = 0;
    while (got < out.size()) {
        const ssize_t n = ::pread(fd_, out.data() + got, out.size() - got, static_cast<off_t>(got));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) refuse("cannot be read (" + errno_text(errno) + ")");
        if (n == 0) break;
        got += static_cast<std::size_t>(n);
    }
    out.resize(got);
    return out;
}

std::string RegularFile::read_all(std::size_t max_bytes, std::string_view what) const {
    if (size_ > max_bytes)
        refuse("is " + mib_text(size_) + ", larger than the limit of " + mib_text(max_bytes) +
               " for " + std::string(what));
    return read_prefix(static_cast<std::size_t>(size_));
}

std::string gunzip(std::string_view packed, std::size_t max_bytes) {
    z_stream zs{};
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) refuse("cannot be unpacked (zlib)");
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(packed.data()));
    zs.avail_in = static_cast<uInt>(packed.size());
    std::string out;
    char buffer[1 << 16];
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef*>(buffer);
        zs.avail_out = sizeof buffer;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - zs.avail_out);
        if (out.size() > max_bytes) {
            inflateEnd(&zs);
            refuse("unpacks to more than " + mib_text(max_bytes) + " (the limit)");
        }
        if (rc == Z_BUF_ERROR && zs.avail_in == 0) break;  // the input ended early
    }
    const std::string why = zs.msg ? zs.msg : "it ends early";
    inflateEnd(&zs);
    if (rc != Z_STREAM_END) refuse("is a damaged gzip file (" + why + ")");
    return out;
}

}  // namespace coalesce::imageio
