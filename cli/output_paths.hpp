// Checks, before a run, that the results files can be written, so that a long run never ends in a
// lost result, and that nothing but a results file is ever replaced by one.
#pragma once

#include <filesystem>
#include <string_view>

namespace coalesce::cli {

// Throws UsageError naming `option` when `path` cannot take the results: an empty name; a name or
// path longer than the system allows; a loop of links; a folder that does not exist or does not
// take new files (tried, not guessed from permission bits: /proc refuses even root); a folder,
// named pipe, socket or block device at the path; a read-only file. A symbolic link is judged by
// its target; a character device such as /dev/null is accepted: results are written to it.
void check_writable(const std::filesystem::path& path, std::string_view option);

// Makes the folder `dir` (and its parents) where it is missing, and throws UsageError naming
// `option`, the path and the reason when it cannot be made, is not a folder, or does not take new
// files (tried, as for check_writable).
void prepare_folder(const std::filesystem::path& dir, std::string_view option);

// Throws UsageError when --json and --csv name one file (links and "./" seen through): one would
// silently replace the other.
void check_distinct(const std::filesystem::path& json, const std::filesystem::path& csv);

}  // namespace coalesce::cli
