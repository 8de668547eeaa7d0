// The bad-input corpus: each case makes its inputs in a fresh folder, runs coalesce-bench (or,
// for results files, the engine's reader) in a child process whose memory is capped at 2 GiB and
// whose time is capped at a minute, and states what must come out: the exit status, a part of the
// message, and which files may be left behind (nothing half-written, no temporaries).
#pragma once

#include "make_files.hpp"

#include <functional>
#include <ostream>
#include <optional>
#include <string>
#include <vector>

namespace coalesce::bad_input {

// What one child left: its status, its output, its peak memory.
struct Outcome {
    int exit_code = -1;      // -1: it did not exit normally
    int signal = 0;          // the signal that ended it, if one did
    bool timed_out = false;  // killed after kChildSeconds
    std::string out, err;    // stdout and stderr
    long max_rss_kib = 0;    // [KiB] peak resident memory
};

inline constexpr std::uintmax_t kMemoryLimit = std::uintmax_t{2} << 30;  // [bytes] per child
inline constexpr int kChildSeconds = 60;

struct Case {
    std::string name;  // letters, digits and '_': the test's name
    // Makes the inputs in the case's folder (the child's working directory too).
    std::function<void(const fs::path& dir)> setup;
    // coalesce-bench's arguments; "@/x" stands for the file x in the case's folder.
    std::vector<std::string> args;
    // Instead of coalesce-bench: runs in the child, prints its message on stderr, returns the
    // exit status.
    std::function<int(const fs::path& dir)> body;
    int exit_status = 2;
    std::string message;  // part of stderr (of stdout when the expected status is 0)
    // Files the run may add to the folder; each one present must be a complete results file
    // when its name ends in .json or .csv.
    std::vector<std::string> outputs;
    bool needs_opencv = false;   // an image or matrix file read through OpenCV
    bool needs_devices = false;  // makes device nodes of its own (root)
    // Further checks on the folder after the run.
    std::function<void(const fs::path& dir, const Outcome& outcome)> check;
};

// gtest prints a case by its name.
inline void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

// The cases, by kind of input.
std::vector<Case> argument_cases();
std::vector<Case> output_path_cases();
std::vector<Case> image_cases();
std::vector<Case> matrix_file_cases();
std::vector<Case> results_file_cases();

// Runs the case's child in `dir` and collects what it left.
Outcome run_case(const Case& c, const fs::path& dir);

// Shorthands for the case lists.
Case bench(std::string name, std::vector<std::string> args, int exit_status, std::string message,
           std::function<void(const fs::path&)> setup = {});

}  // namespace coalesce::bad_input
