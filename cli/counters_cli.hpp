// coalesce-bench --counters: the counters pass after the timed run, and what it tells stderr.
#pragma once

#include "bench_options.hpp"

#include "coalesce/runner.hpp"

#include <ostream>

namespace coalesce::cli {

// Runs the pass over `record` (this executable, under ncu, profiles one launch per verified GPU
// run), one line on `err` before and one after: how many runs got counters, or why none did.
// What the machine lacks never throws and never changes the exit status. Returns false when
// Ctrl-C stopped it.
bool run_counters_pass(RunRecord& record, const BenchOptions& options, std::ostream& err);

}  // namespace coalesce::cli
