// Checks, before a run, that a results file can be written, so a long run never ends in a lost result.
#pragma once

#include <filesystem>
#include <string_view>

namespace coalesce::cli {

// Throws UsageError naming `option` when `path` cannot be written: its folder must exist and be
// writable, and the path itself must not be a folder or a read-only file.
void check_writable(const std::filesystem::path& path, std::string_view option);

}  // namespace coalesce::cli
