// Nsight Compute's side of the counters pass: the metrics asked for, the NVTX range that marks
// each run's profiled launch, and the reading of `ncu --csv --page raw --print-units base`.
//
// What ncu 2025.3 writes to its --log-file (seen on an H100): its own "==PROF==" and
// "==WARNING==" lines, then a header row ("ID","Process ID",...,"Kernel Name",...,metric names),
// a units row ("", ..., "byte", "sector", "%"), and one row per profiled kernel, every field
// quoted, numbers with thousands separators ("67,115,520", "1,677,894.40"). With --nvtx a column
// "thread Domain:Push/Pop_Range:..." holds the kernel's push/pop ranges, e.g.
// `585  "<default domain>:coalesce-run-3:none:none:none:none:none:none" `.
#pragma once

#include "coalesce/counters.hpp"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace coalesce::ncu {

// The metrics of a Counters, as --metrics takes them (comma-separated).
const std::vector<std::string>& metric_names();
std::string metrics_argument();

// The push/pop range around run `index`'s profiled launch ("coalesce-run-12"; no '/', which
// ncu's --nvtx-include reads as nesting), and the filter that selects every such range.
std::string range_name(std::size_t run_index);
inline constexpr const char* kRangeFilter = "regex:coalesce-run-[0-9]+/";

// One profiled kernel launch.
struct KernelRow {
    std::optional<std::size_t> run;         // from its NVTX range; empty outside every run's range
    std::string kernel;                     // ncu's "Kernel Name"
    std::map<std::string, double> metrics;  // every metric of metric_names(), in base units
};

// Reads ncu's log. Throws std::runtime_error naming what is wrong: no CSV header, a metric
// column missing, a unit other than the base unit, a value that is not a number.
std::vector<KernelRow> parse_raw_csv(const std::string& log);

// A run's counters from its kernels' rows (at least one): counts summed, rates combined as
// counters.hpp says.
Counters combine(const std::vector<const KernelRow*>& kernels);

// Why ncu could not profile, read from its output: missing permission (ERR_NVGPUCTRPERM), its
// first "==ERROR==" line, or its warning that no kernel was profiled; empty when it names none.
std::string known_problem(const std::string& output);

}  // namespace coalesce::ncu
