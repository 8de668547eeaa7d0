// How results read in the GUI: one place for number formats, size labels and what may be plotted.
#pragma once

#include "coalesce/runner.hpp"

#include <QString>
#include <QStringList>

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace coalesce::gui {

QString formatShape(std::size_t rows, std::size_t cols);  // "8192×8192"
QString formatMs(double ms);                              // "1.234" with three significant decimals
QString formatGbps(double gbps);                          // "3,951.2"
QString formatPercent(double pct);                        // "97.4 %"
QString formatError(double max_abs_error);                // "0" or "1.2e-06"
QString deviceLabel(const DeviceInfo& device);            // the name, or "unknown device"

// A bandwidth figure is shown in a chart only for a run that finished and passed verification:
// a failed, skipped or cancelled run has no meaningful number.
bool isPlottable(const RunResult& result);

// Sort key of an operation name: the engine's order (copy first), unknown names after.
int opOrder(const std::string& op);

// The input sizes of the runs `keep` accepts, each once, smallest first.
std::vector<Shape> sizesOf(const std::vector<RunResult>& runs,
                           const std::function<bool(const RunResult&)>& keep);
// The size a chart shows: the one asked for where the runs have it, else the largest (none: {}).
Shape chosenSize(const std::vector<Shape>& sizes, const std::optional<Shape>& requested);
// The indices of `runs` in the engine's operation order, in the runner's order within one.
std::vector<std::size_t> opOrdered(const std::vector<RunResult>& runs);

// [MiB] the input matrix of a result, in its element type (u8: 1 byte, u16: 2, f32: 4).
double inputMebibytes(const RunResult& result);

// More than one element type among the runs: the charts then name each series with its type,
// since a variant's u8 and f32 runs are two series.
bool severalTypes(const std::vector<RunResult>& runs);
// A chart's name for the series a run belongs to: its variant, with " (u8)" when `with_type`.
std::string seriesName(const RunResult& result, bool with_type);

// Adds the run's type label ("u8", "u8x3") to `labels` unless it is there: the types a chart draws,
// in the order met.
void addTypeLabel(QStringList& labels, const RunResult& result);
// Those types as a title names them: "float32" when every run is f32 (the element a title named
// before types existed), else the labels themselves, "u8, u16" or "u8x3"; empty for none.
QString typesText(const QStringList& labels);

}  // namespace coalesce::gui
