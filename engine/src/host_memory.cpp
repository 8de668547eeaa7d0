#include "coalesce/host_memory.hpp"

#include "coalesce/typed_run.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace coalesce {
namespace {

std::string size_text(Shape shape) {
    return std::to_string(shape.rows) + "x" + std::to_string(shape.cols);
}

std::size_t largest_output(Shape shape, const std::vector<const Variant*>& selected) {
    std::size_t largest = 0;
    for (const Variant* v : selected)
        largest = std::max(largest, output_shape(v->info.op, shape).elements());
    return largest;
}

std::vector<Shape> run_sizes(const RunConfig& config) {
    if (config.input) return {config.input->shape()};
    if (config.typed_input) return {typed::shape_of(*config.typed_input)};
    return config.sizes;
}

}  // namespace

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

// The Runner holds the input twice (the generated matrix and its working copy), the reference
// value and magnitude, and the downloaded output; a host variant adds its own input and output and
// the host copy baseline one more input-sized buffer. Four of each bounds all of it.
std::size_t host_bytes_needed(Shape shape, const std::vector<const Variant*>& selected) {
    return 4 * (shape.elements() + largest_output(shape, selected)) * sizeof(float);
}

// Each kept result holds its output; the reference value and magnitude are kept once per
// operation, size and combination of swept parameters (each combination is a run of every
// variant, and its parameters may change the output's shape: a resample's scale).
std::size_t kept_output_bytes(const RunConfig& config,
                              const std::vector<const Variant*>& selected) {
    if (!config.keep_outputs) return 0;
    std::size_t elements = 0;
    for (Shape shape : run_sizes(config)) {
        std::vector<Op> ops;
        for (const Variant* v : selected)
            if (std::find(ops.begin(), ops.end(), v->info.op) == ops.end())
                ops.push_back(v->info.op);
        for (Op op : ops) {
            const auto variants = static_cast<std::size_t>(
                std::count_if(selected.begin(), selected.end(),
                              [op](const Variant* v) { return v->info.op == op; }));
            for (const ParamValues& values : param_combinations(op, config.sweep)) {
                OpParams params = config.params;
                params.values = values;
                std::size_t output = 0;
                try {
                    output = output_shape(op, shape, params).elements();
                } catch (const std::invalid_argument&) {
                    output = output_shape(op, shape).elements();  // the run refuses it anyway
                }
                elements += (variants + 2) * output;
            }
        }
    }
    // Each type keeps its own outputs: f32 as float32; u8/u16 as float32 for the pictures plus
    // the exact output, at most 8 bytes an element (a uint64 sum), for every channel of a colour
    // run (f32 runs are single-channel).
    const auto channels = static_cast<std::size_t>(std::max(1, config.channels));
    std::size_t bytes_per_element = 0;
    for (ElemType t : config.types)
        bytes_per_element += t == ElemType::f32 ? sizeof(float) : (sizeof(float) + 8) * channels;
    return elements * std::max<std::size_t>(bytes_per_element, sizeof(float));
}

std::string host_memory_shortfall(const RunConfig& config,
                                  const std::vector<const Variant*>& selected,
                                  std::optional<std::size_t> available) {
    if (!available) available = available_host_bytes();
    if (!available) return {};
    const std::size_t kept = kept_output_bytes(config, selected);
    for (Shape shape : run_sizes(config)) {
        const std::size_t needed = host_bytes_needed(shape, selected) + kept;
        if (needed > *available)
            return "size " + size_text(shape) + " needs about " + std::to_string(needed >> 20) +
                   " MiB of host memory; " + std::to_string(*available >> 20) +
                   " MiB are available";
    }
    return {};
}

}  // namespace coalesce
