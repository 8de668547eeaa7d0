// Results files: JSON (schema "coalesce-results/1") and CSV, both readable back.
#pragma once

#include "coalesce/runner.hpp"

#include <filesystem>
#include <string>

namespace coalesce {

inline constexpr const char* kResultsSchema = "coalesce-results/1";

std::string to_json(const RunRecord& record);
RunRecord from_json(const std::string& text);  // throws std::runtime_error with the reason
std::string to_csv(const RunRecord& record);
RunRecord from_csv(const std::string& text);   // throws std::runtime_error with the reason

// Writes through a temporary file renamed into place: never a half-written file.
// Throws std::runtime_error naming the path and the reason.
void write_file_atomically(const std::filesystem::path& path, const std::string& contents);
std::string read_text_file(const std::filesystem::path& path);

// Picks the format from the extension (.json or .csv).
void save_results(const std::filesystem::path& path, const RunRecord& record);
RunRecord load_results(const std::filesystem::path& path);

}  // namespace coalesce
