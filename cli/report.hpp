// What coalesce-bench prints on stdout: the device line, the variant list and the results table.
#pragma once

#include "coalesce/device.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <ostream>
#include <string>

namespace coalesce::cli {

// "device: NVIDIA H200 (cc 9.0, 132 SMs, 60 MiB L2, 140 GiB, 4800 GB/s theoretical)".
std::string device_line(const DeviceInfo& device);

// "verified", "FAILED: <why>", "skipped: <why>" or "cancelled".
std::string outcome_text(const RunResult& run);

// "12.345" (three decimals), or three significant digits below 0.1 ms: "0.000298".
std::string milliseconds_text(double ms);

// "8192x8192".
std::string size_text(std::size_t rows, std::size_t cols);

// One row per variant: id, operation, memory space, origin, description.
void print_variant_list(std::ostream& out, const Registry& registry);

// One row per run, then the copy baseline of each size, the formula and a count of outcomes.
void print_results(std::ostream& out, const RunRecord& record);

}  // namespace coalesce::cli
