#include "decoder_messages.hpp"

#include "coalesce/shortened.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <mutex>
#include <vector>

namespace coalesce::imageio {
namespace {

std::mutex g_stderr_mutex;

// Puts fd 2 back however `work` ends.
class Redirect {
public:
    explicit Redirect(int target) : saved_(::fcntl(2, F_DUPFD_CLOEXEC, 3)) {
        if (saved_ >= 0) ::dup2(target, 2);
    }
    ~Redirect() {
        std::fflush(stderr);
        std::cerr.flush();
        if (saved_ >= 0) {
            ::dup2(saved_, 2);
            ::close(saved_);
        }
    }
    Redirect(const Redirect&) = delete;
    Redirect& operator=(const Redirect&) = delete;

private:
    int saved_;
};

std::string read_back(int fd) {
    std::string text;
    char buffer[4096];
    ::lseek(fd, 0, SEEK_SET);
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0 || text.size() > (1u << 16)) break;
        text.append(buffer, static_cast<std::size_t>(n));
    }
    return text;
}

// One line of library text, reduced to what it says.
std::string plain_line(std::string line) {
    // "[ WARN:0@0.1] global loadsave.cpp:244 findDecoder imread_('x'): can't open/read file"
    if (line.rfind("[ WARN", 0) == 0 || line.rfind("[ERROR", 0) == 0) {
        const auto colon = line.find("): ");
        line = colon == std::string::npos ? std::string() : line.substr(colon + 3);
    }
    // "imdecode_(''): can't read data: OpenCV(4.6.0) ./modules/.../bitstrm.cpp:110: error:
    //  (-2:Unspecified error) Unexpected end of input stream in function 'readBlock'"
    if (const auto at = line.find("OpenCV("); at != std::string::npos) {
        const auto code = line.find(") ", line.find("error: (", at));
        std::string what = code == std::string::npos ? std::string() : line.substr(code + 2);
        if (const auto fn = what.rfind(" in function "); fn != std::string::npos) what.resize(fn);
        line = what;
    }
    for (const char* prefix :
         {"libpng error: ", "libpng warning: ", "TIFFReadDirectory: ", "Warning: "})
        if (line.rfind(prefix, 0) == 0) line = line.substr(std::string(prefix).size());
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r' || line.back() == '.'))
        line.pop_back();
    return line;
}

}  // namespace

std::string capture_stderr(const std::function<void()>& work) {
    const std::lock_guard<std::mutex> lock(g_stderr_mutex);
    std::fflush(stderr);
    std::cerr.flush();
    const int memory = ::memfd_create("coalesce-decoder-messages", MFD_CLOEXEC);
    if (memory < 0) {  // nowhere to put it: let the text through rather than lose the image
        work();
        return {};
    }
    try {
        {
            const Redirect redirect(memory);
            work();
        }
    } catch (...) {
        ::close(memory);
        throw;
    }
    std::string text = read_back(memory);
    ::close(memory);
    return text;
}

std::string plain_decoder_text(std::string_view captured) {
    std::string out;
    std::size_t begin = 0;
    while (begin < captured.size()) {
        std::size_t end = captured.find('\n', begin);
        if (end == std::string_view::npos) end = captured.size();
        const std::string line = plain_line(std::string(captured.substr(begin, end - begin)));
        if (!line.empty() && out.find(line) == std::string::npos)
            out += (out.empty() ? "" : "; ") + line;
        begin = end + 1;
    }
    return shortened(out);
}

}  // namespace coalesce::imageio
