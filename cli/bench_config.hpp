// Turns the parsed command line into the Runner's configuration, checking every option against the
// registry and the machine before anything runs.
#pragma once

#include "bench_options.hpp"

#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <string>

namespace coalesce::cli {

// Throws UsageError, naming the option and what is wrong, for an unknown operation or variant, a
// malformed or empty size, a radius, border, repetition count or device index out of range, and an
// --input that is not a readable image. `device_count` is the number of CUDA devices (0: none).
// `input_description`, when given, receives what the --input file turned out to be.
RunConfig make_run_config(const BenchOptions& options, const Registry& registry, int device_count,
                          std::string* input_description = nullptr);

}  // namespace coalesce::cli
