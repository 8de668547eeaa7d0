// Results files: JSON (schema "coalesce-results/1") and CSV, both readable back.
#pragma once

#include "coalesce/runner.hpp"

#include <cstddef>
#include <filesystem>
#include <string>

namespace coalesce {

inline constexpr const char* kResultsSchema = "coalesce-results/1";

// What the readers accept. A file this version writes is far inside every limit; anything
// larger, longer or deeper is refused with a message naming the limit before it can exhaust
// memory (a results file comes from anywhere: a GPU server, a colleague, a fuzzer).
inline constexpr std::size_t kMaxResultsFileBytes = std::size_t{64} << 20;  // [bytes]
inline constexpr std::size_t kMaxResultsRuns = 100000;
inline constexpr std::size_t kMaxResultsListItems = 10000;   // config.variants, config.sizes
inline constexpr std::size_t kMaxResultsNameBytes = 1024;    // [bytes] ids, names, labels
inline constexpr std::size_t kMaxResultsPathBytes = 4096;    // [bytes] config.input_file
inline constexpr std::size_t kMaxResultsErrorBytes = 65536;  // [bytes] a run's error text

std::string to_json(const RunRecord& record);
RunRecord from_json(const std::string& text);  // throws std::runtime_error with the reason
std::string to_csv(const RunRecord& record);
RunRecord from_csv(const std::string& text);  // throws std::runtime_error with the reason

// Replaces the file at `path` with `contents` so that no reader and no crash ever sees half of
// it: written to an unnamed temporary in the same folder, then renamed into place. A symbolic
// link is written through (the link stays, its target changes); a character device such as
// /dev/null is written to directly; a folder, named pipe or other special file is refused.
// Temporaries that killed saves of dead processes left in that folder are removed.
// Throws std::runtime_error naming the path and the reason.
void write_file_atomically(const std::filesystem::path& path, const std::string& contents);

// Where a write to `path` lands: `path` with every symbolic link along it followed (the result
// need not exist). Throws std::runtime_error for a loop of links.
std::filesystem::path write_target(const std::filesystem::path& path);

// Reads a regular file of at most `max_bytes`; refuses folders, pipes and devices without
// blocking on them. Throws std::runtime_error naming the path and the reason.
std::string read_text_file(const std::filesystem::path& path,
                           std::size_t max_bytes = kMaxResultsFileBytes);

// Picks the format from the extension (.json or .csv).
void save_results(const std::filesystem::path& path, const RunRecord& record);
RunRecord load_results(const std::filesystem::path& path);

}  // namespace coalesce
