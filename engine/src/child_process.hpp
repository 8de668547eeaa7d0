// Starting a program with its output in files and waiting for it, stoppable: the counters pass
// runs Nsight Compute this way. POSIX only, like the plugin loader.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace coalesce::detail {

struct ChildExit {
    bool exited = false;   // ended by exit(); otherwise by a signal
    int code = -1;         // exit status, or the signal's number
    bool stopped = false;  // stopped because `cancelled` returned true
};

// Runs argv[0] (a path) with stdin from /dev/null and stdout and stderr written to the two
// files, in a process group of its own so that stopping it stops its children too. Polls
// `cancelled` (when set) while it runs. Throws std::runtime_error when it cannot start.
ChildExit run_child(const std::vector<std::string>& argv, const std::filesystem::path& out,
                    const std::filesystem::path& err, const std::function<bool()>& cancelled);

// "exit status 3", "signal 9".
std::string describe(const ChildExit& exit);

}  // namespace coalesce::detail
