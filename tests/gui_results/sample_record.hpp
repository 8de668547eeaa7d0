// A hand-made but realistic results record (H200-like numbers) for the GUI results tests and the
// chart rendering tool: every operation, several memory spaces, three sizes, one failed and one
// skipped run.
#pragma once

#include "coalesce/runner.hpp"

#include <string>

namespace coalesce::gui::testing {

// `device_name` and `scale` (a factor on every bandwidth) make a second GPU for comparisons.
RunRecord sampleRecord(const std::string& device_name = "NVIDIA H200", double scale = 1.0);

// A run with hardware counters, shaped like an H100's at 8192x8192 (docs/counters.md): copy and
// the padded tile near the model, the naive transpose 19% over it with 32 sectors per store, the
// unpadded tile's 32-way conflicts, a texture copy (no LSU loads), a transpose with the sector
// model's prediction, and a host run without counters (its status says why).
RunRecord countersRecord();
inline constexpr char kHostStatus[] =
    "host variant: hardware counters are measured on the GPU only";

// One successful result with the fields the charts read.
RunResult sampleResult(const std::string& op, const std::string& variant, const std::string& space,
                       std::size_t rows, std::size_t cols, double gbps);

}  // namespace coalesce::gui::testing
