// One warp of a result, as the engine's models see it: the requests its variant declares for the
// run's shape and parameters (VariantInfo::access, shared_access, constant_access, the builders
// the runner's model columns come from), each with what the sector or bank model counts.
#pragma once

#include "coalesce/bank_model.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/sector_model.hpp"

#include <QString>

#include <array>
#include <vector>

namespace coalesce::gui {

struct WarpRequestView {
    enum class Memory { global, shared, constant };
    Memory memory = Memory::global;
    QString label;  // "global load 1 of 2"
    WarpRequest request;
    RequestCost cost;                 // sectors and lines touched, useful bytes (global, constant)
    double efficiency = 0;            // useful bytes / bytes the sectors move (global)
    int conflict_degree = 0;          // distinct words in the busiest bank (shared)
    int distinct_words = 0;           // passes of the constant cache (constant)
    std::array<int, 32> lane_bank{};  // the bank of each lane's first word (shared)
    QString summary;                  // the counts in one sentence
};

struct WarpView {
    QString title;  // "offset_read/global, offset=1, 8192×8192"
    std::vector<WarpRequestView> requests;
    int shown = 0;    // the request to draw first
    QString message;  // why there is nothing to draw; empty when there is
};

// The warp of `result`'s variant, looked up in `registry` by id.
WarpView warp_view(const Registry& registry, const RunResult& result);

}  // namespace coalesce::gui
