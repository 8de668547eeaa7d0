#include "host_memory.hpp"

#include "exit_status.hpp"
#include "report.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

namespace coalesce::cli {
namespace {

// [bytes] MemAvailable from /proc/meminfo; nullopt where there is no such file (not Linux).
std::optional<std::size_t> available_host_bytes() {
    std::ifstream meminfo("/proc/meminfo");
    std::string line;
    while (std::getline(meminfo, line)) {
        if (line.rfind("MemAvailable:", 0) != 0) continue;
        std::istringstream fields(line.substr(13));
        std::size_t kib = 0;
        if (fields >> kib) return kib * 1024;
    }
    return std::nullopt;
}

// [bytes] the Runner holds the input twice (the generated matrix and its working copy), the
// reference value and magnitude, and the downloaded output; a host variant adds its own input and
// output and the host copy baseline one more input-sized buffer. Four of each bounds all of it.
std::size_t host_bytes_needed(Shape shape, const std::vector<const Variant*>& selected) {
    std::size_t largest_output = 0;
    for (const Variant* v : selected) largest_output = std::max(largest_output, output_shape(v->info.op, shape).elements());
    return 4 * (shape.elements() + largest_output) * sizeof(float);
}

}  // namespace

void check_host_memory(const RunConfig& config, const std::vector<const Variant*>& selected) {
    const auto available = available_host_bytes();
    if (!available) return;
    const std::vector<Shape> sizes = config.input ? std::vector<Shape>{config.input->shape()} : config.sizes;
    for (Shape shape : sizes) {
        const std::size_t needed = host_bytes_needed(shape, selected);
        if (needed > *available)
            throw UsageError("size " + size_text(shape.rows, shape.cols) + " needs about " + std::to_string(needed >> 20) +
                             " MiB of host memory; " + std::to_string(*available >> 20) + " MiB are available");
    }
}

}  // namespace coalesce::cli
