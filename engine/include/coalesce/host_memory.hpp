// Whether the host can hold what a run keeps in memory: the input, the CPU reference and the
// downloaded outputs (and, for host variants, their own buffers; with keep_outputs, every kept
// output and reference). Without this check a size too large for the machine ends in
// std::bad_alloc half-way through the run. The CLI and the window ask the same question.
#pragma once

#include "coalesce/runner.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

// [bytes] MemAvailable from /proc/meminfo; nullopt where it is unknown (not Linux).
std::optional<std::size_t> available_host_bytes();

// [bytes] what running `selected` on one input of `shape` holds at once (see the .cpp).
std::size_t host_bytes_needed(Shape shape, const std::vector<const Variant*>& selected);

// [bytes] what the run's kept outputs and references add up to by its end (0 unless
// config.keep_outputs).
std::size_t kept_output_bytes(const RunConfig& config, const std::vector<const Variant*>& selected);

// Empty when the run fits in `available` bytes (or in the available host memory when unset, or
// when that is unknown); otherwise, for the user, the size that does not fit, how much memory it
// needs and how much there is: "size 100000x100000 needs about 305176 MiB of host memory; 22870
// MiB are available".
std::string host_memory_shortfall(const RunConfig& config,
                                  const std::vector<const Variant*>& selected,
                                  std::optional<std::size_t> available = std::nullopt);

}  // namespace coalesce
