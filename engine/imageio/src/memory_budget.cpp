#include "memory_budget.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

namespace coalesce::imageio {
namespace {

// [bytes] the "<key>:  <n> kB" line of a /proc file.
std::optional<std::size_t> proc_kib(const char* file, const std::string& key) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(key + ":", 0) != 0) continue;
        std::istringstream fields(line.substr(key.size() + 1));
        std::size_t kib = 0;
        if (fields >> kib) return kib * 1024;
    }
    return std::nullopt;
}

// [bytes] what the soft limit `resource` leaves when `used` is taken.
std::optional<std::size_t> left_under(decltype(RLIMIT_AS) resource,
                                      std::optional<std::size_t> used) {
    rlimit limit{};
    if (::getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || !used)
        return std::nullopt;
    const auto cap = static_cast<std::size_t>(limit.rlim_cur);
    return cap > *used ? cap - *used : 0;
}

}  // namespace

std::optional<std::size_t> memory_available() {
    std::optional<std::size_t> least = proc_kib("/proc/meminfo", "MemAvailable");
    for (const auto& left : {left_under(RLIMIT_AS, proc_kib("/proc/self/status", "VmSize")),
                             left_under(RLIMIT_DATA, proc_kib("/proc/self/status", "VmData"))})
        if (left) least = least ? std::min(*least, *left) : *left;
    return least;
}

}  // namespace coalesce::imageio
