// coalesce-bench's command line, parsed but not yet checked against the registry or the machine.
#pragma once

#include "coalesce/runner.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace coalesce::cli {

// Bounds of the launch counts: enough for a stable median; beyond them a run takes hours, holds
// millions of timing events and does not stop at the first Ctrl-C until the variant ends.
inline constexpr int kMaxReps = 1000;
inline constexpr int kMaxWarmups = 100;

struct BenchOptions {
    bool list = false;
    std::vector<std::string> ops;       // names, as typed (an empty item stays, to be refused)
    std::vector<std::string> variants;  // ids or id prefixes
    std::vector<std::string> sizes;     // "ROWSxCOLS" items
    std::vector<std::string> types;     // element type names, as typed; empty: f32, or --input's
    std::string convert;                // --convert: none, values or scale; empty: not given
    int channels = 1;                   // --channels: 1, 3 or 4 interleaved (checked later)
    int radius = OpParams{}.radius;
    std::string border = "clamp";
    int reps = RunConfig{}.reps;
    int warmups = RunConfig{}.warmups;
    std::uint64_t seed = RunConfig{}.seed;
    std::optional<int> device;  // set only when --device was given
    std::vector<std::string> plugin_dirs;
    bool include_cpu = false;
    std::string input;                // image file; empty: random matrices
    std::string json_path, csv_path;  // empty: not written (an empty name given is refused)
    std::string save_output;          // folder for the .npy outputs; empty: none saved
    std::vector<std::string> params;  // "offset=0:32", as typed (repeatable)
    std::vector<std::string> tiers;   // tier names; empty: classic and tuned (unless --variants)
    bool list_lessons = false;        // --lessons
    std::string lesson;               // --lesson ID; empty: none
    bool counters = false;            // after the run, a counters pass under Nsight Compute
    std::string ncu_path;             // empty: ncu on PATH, $CUDA_HOME/bin, /usr/local/cuda/bin
    std::string profile_plan;         // hidden: the counters pass's child (profile_plan.hpp)
};

// Parses argv. Returns the options, or the exit status when parsing already finished the job:
// 0 after --help, --version or --lessons, exit_status::bad_usage after one line on stderr. Throws
// UsageError for a value CLI11 accepts but coalesce-bench does not (--seed -1, --json "").
std::variant<BenchOptions, int> parse_command_line(int argc, char** argv);

}  // namespace coalesce::cli
