// Checks, before a run, that the host can hold what the run keeps in memory: the input, the CPU
// reference and the downloaded outputs (and, for host variants, their own buffers). Without it a
// size too large for the machine ends in std::bad_alloc half-way through the run.
#pragma once

#include "coalesce/runner.hpp"

#include <vector>

namespace coalesce::cli {

// Throws UsageError naming the size and the memory it needs when more than the available host
// memory (MemAvailable in /proc/meminfo) would be used; does nothing where that is unknown.
void check_host_memory(const RunConfig& config, const std::vector<const Variant*>& selected);

}  // namespace coalesce::cli
