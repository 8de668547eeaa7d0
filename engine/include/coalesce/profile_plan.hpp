// The child side of the counters pass: coalesce-bench, started under Nsight Compute with a plan
// file, prepares each planned run untimed (make, upload, poison) and makes exactly one launch of
// it inside the NVTX range ncu is told to profile. Nothing here is timed: timings come from the
// normal run, which ran earlier in another process, unprofiled.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace coalesce {

// One run to profile: which variant on which input, as the RunResult recorded it.
struct ProfileRun {
    std::size_t index = 0;  // the run's position in RunRecord::runs; names its NVTX range
    std::string variant;    // id
    Shape shape;            // input
    OpParams params;
};

struct ProfilePlan {
    int device = 0;
    std::uint64_t seed = 42;  // input values: Matrix::random(rows, cols, seed), as the run had
    std::vector<std::string> plugin_dirs;  // besides the default plugin search path
    std::vector<ProfileRun> runs;
};

std::string plan_to_json(const ProfilePlan& plan);
ProfilePlan plan_from_json(const std::string& text);  // throws std::runtime_error with the reason

// What the child reports for each run, one line on stdout each ("coalesce-profile {json}"):
// whether it launched inside its range and how many kernels that launch runs.
struct ProfileOutcome {
    std::size_t index = 0;
    std::string variant;
    bool launched = false;
    int kernels = -1;   // kernel nodes of the launch captured into a CUDA graph; -1: not known
    std::string error;  // why it did not launch
    bool operator==(const ProfileOutcome&) const = default;
};
inline constexpr const char* kOutcomePrefix = "coalesce-profile ";
std::string outcome_line(const ProfileOutcome& outcome);  // without the newline
// The outcomes among a child's stdout, other lines passed over; throws on a damaged one.
std::vector<ProfileOutcome> parse_outcomes(const std::string& stdout_text);

// Runs the plan on the current process's CUDA device, writing one outcome line per run to
// `out` as soon as it is known. Returns how many runs launched.
std::size_t run_profile_plan(const Registry& registry, const ProfilePlan& plan, std::ostream& out);

}  // namespace coalesce
