// Results files for menu actions: the engine's JSON/CSV writers and reader, with errors turned
// into messages for the window instead of exceptions.
#pragma once

#include "coalesce/runner.hpp"

#include <QString>

#include <optional>

namespace coalesce::gui {

// Writes .json or .csv (chosen by the extension) in coalesce-bench's schema, atomically.
bool saveResultsFile(const QString& path, const RunRecord& record, QString* error);

// Reads a .json or .csv results file; nothing, with *error set, when it cannot.
std::optional<RunRecord> loadResultsFile(const QString& path, QString* error);

}  // namespace coalesce::gui
