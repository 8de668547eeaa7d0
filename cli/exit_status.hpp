// What coalesce-bench's exit status means, and the error that maps to "bad usage or input".
#pragma once

#include <stdexcept>
#include <string>

namespace coalesce::cli {

namespace exit_status {
inline constexpr int ok = 0;          // every run verified (skipped runs excepted)
inline constexpr int run_failed = 1;  // a variant failed verification, a run failed, Ctrl-C
                                      // cancelled the rest, or a results file failed at the end
inline constexpr int bad_usage = 2;   // bad options, input or output path: nothing ran
}  // namespace exit_status

// A problem with what the user asked for. main() prints what() as one line and exits bad_usage.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Messages from deeper layers (CLI11, the engine) may hold newlines; every problem is one line.
inline std::string one_line(std::string text) {
    for (char& ch : text)
        if (ch == '\n' || ch == '\r') ch = ' ';
    while (!text.empty() && text.back() == ' ') text.pop_back();
    return text;
}

}  // namespace coalesce::cli
