// The counters pass: after a normal (timed, unprofiled) run, coalesce-bench is started once more
// under Nsight Compute's command line (ncu) with a plan of the record's verified GPU runs; the
// child makes one launch of each inside an NVTX range (profile_plan.hpp), ncu profiles only
// those launches, and its CSV is mapped back to the runs by range name. Timings are never
// touched. Each run ends with counters, or with counters_status saying why it has none.
//
// Why ncu and not CUPTI's profiler API: CUPTI would link the engine against the driver API (the
// engine and its plugins must load on machines without a driver), and ncu handles replay, cache
// flushing and clock control the same way Nsight Compute users see it.
//
// How ncu is run: --target-processes application-only, --nvtx --nvtx-include the runs' ranges,
// --metrics (ncu_csv.hpp), --csv --page raw --print-units base, --log-file; caches flushed before
// each replay pass (ncu's default --cache-control all), so DRAM bytes are those of a cold launch;
// --clock-control none, because locking the clocks needs rights a container rarely has and the
// counters here are counts, not times. DRAM writes are counted as the L2 evicts them: lines still
// dirty in the L2 when the kernel ends are not counted (up to the L2's size).
#pragma once

#include "coalesce/ncu_csv.hpp"
#include "coalesce/profile_plan.hpp"
#include "coalesce/runner.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace coalesce {

struct CountersOptions {
    std::filesystem::path bench;           // coalesce-bench, started under ncu with --profile-plan
    std::filesystem::path ncu;             // empty: find_ncu()
    std::vector<std::string> plugin_dirs;  // loaded by the run besides the default search path
    std::function<bool()> cancelled;       // polled while ncu runs; true stops it
    bool keep_files = false;  // keep the plan, ncu's log and the child's output (see `folder`)
};

struct CountersSummary {
    std::size_t planned = 0;       // verified GPU runs sent to ncu
    std::size_t measured = 0;      // runs that came back with counters
    std::string problem;           // why none (or not all) came back when one reason covers it
    std::filesystem::path folder;  // with keep_files: where the plan and the logs are
};

// Nsight Compute's ncu: `explicit_path` when given (empty result if it is not an executable
// file), else the first of PATH, $CUDA_HOME/bin, /usr/local/cuda/bin that has it.
std::filesystem::path find_ncu(const std::filesystem::path& explicit_path = {});

// Runs the pass over `record` in place: previous counters are dropped, every run gets counters
// or a counters_status. Never throws for what the machine lacks (no GPU, no ncu, no permission):
// those become statuses and the summary's problem.
CountersSummary collect_counters(RunRecord& record, const CountersOptions& options);

// Why runs came back without counters: each distinct counters_status with the number of runs that
// give it, in order of first appearance (runs with counters, or never sent, are not counted).
std::vector<std::pair<std::string, std::size_t>> missing_counters_reasons(const RunRecord& record);

// The same, for a front end that keeps the record it had (the GUI's worker).
inline RunRecord with_counters(RunRecord record, const CountersOptions& options,
                               CountersSummary* summary = nullptr) {
    const CountersSummary s = collect_counters(record, options);
    if (summary) *summary = s;
    return record;
}

// The steps of collect_counters, each tested on its own.
namespace counters_steps {

// The runs worth profiling (ok, verified, GPU), in record order; every other run gets its
// status now ("host variant: ...", "not profiled: the run was skipped", ...).
ProfilePlan plan(RunRecord& record, const std::vector<std::string>& plugin_dirs);

// Why this machine cannot profile the record's runs (no CUDA device, another GPU than the
// record's); empty when it can.
std::string machine_problem(const RunRecord& record);

// The command line that profiles `plan_file` (ncu's argv).
std::vector<std::string> ncu_command(const std::filesystem::path& ncu,
                                     const std::filesystem::path& bench,
                                     const std::filesystem::path& plan_file,
                                     const std::filesystem::path& log_file);

// Maps ncu's kernel rows and the child's outcomes onto the planned runs: counters when a run
// launched and ncu reported each of its kernels, else a status naming what went wrong.
// `problem` (ncu refused, ...) explains runs that ncu reported nothing for. Returns how many
// runs got counters.
std::size_t apply(RunRecord& record, const ProfilePlan& plan,
                  const std::vector<ProfileOutcome>& outcomes,
                  const std::vector<ncu::KernelRow>& kernels, const std::string& problem);

// Marks every planned run with `status` (the pass could not run at all).
void mark_all(RunRecord& record, const ProfilePlan& plan, const std::string& status);

// Runs `ncu` over the plan in a fresh temporary folder and applies what it reports: the part of
// collect_counters after the machine and the tools were checked. Sets planned and measured.
CountersSummary profile(RunRecord& record, const ProfilePlan& plan,
                        const std::filesystem::path& ncu, const CountersOptions& options);

}  // namespace counters_steps

}  // namespace coalesce
