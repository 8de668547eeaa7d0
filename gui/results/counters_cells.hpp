// The hardware counters of a run as the results table shows them: a compact set of cells
// (DRAM bytes over the model, sectors per request, bank conflicts, hit rates, occupancy), empty
// where a run has no counters, with the reason it has none as every such cell's tooltip.
#pragma once

#include "coalesce/runner.hpp"

#include <QString>
#include <QStringList>
#include <QVariant>

#include <cstdint>

namespace coalesce::gui {

enum class CountersField {
    DramOverModel,  // DRAM bytes read + written / bytes_moved, marked past the tolerance
    LoadSectors,    // global sectors per warp load request
    StoreSectors,   // global sectors per warp store request
    BankConflicts,  // shared-memory bank conflicts, loads / stores
    L1HitRate,      // [%]
    L2HitRate,      // [%]
    Occupancy,      // [%] achieved
};
inline constexpr int kCountersFieldCount = 7;

// The mark after a DRAM/model ratio that differs from the model by more than the engine's
// tolerance (dram_differs_from_model, the CLI's rule).
inline constexpr char kModelMismatchMark[] = " !";

QString countersHeader(CountersField field);
QString countersHeaderToolTip(CountersField field);
// Formatted text; empty where the run has no counters or the counter does not apply.
QString countersText(const RunResult& r, CountersField field);
// The value to sort by: double (conflicts: qulonglong, loads + stores); invalid where absent.
QVariant countersValue(const RunResult& r, CountersField field);
// Where the run has counters, what the cell is made of; otherwise why there are none.
QString countersToolTip(const RunResult& r, CountersField field);
// The run has counters or says why not (a counters pass looked at it).
bool hasCountersInfo(const RunResult& r);

// Why runs have no counters, one line per reason with how many runs give it, in order of first
// appearance ("no counters for 3 runs: host variant: ..."); empty when no run lacks them.
QStringList countersNotes(const RunRecord& record);

// "16.4M", "48.3k", "636": counts at a glance.
QString formatCount(std::uint64_t n);

// Shared-memory bank conflicts per wavefront (a wavefront is one pass through the 32 banks; a
// conflict adds one): 0 conflict-free, close to 1 when nearly every pass is a replay. NaN
// without shared-memory wavefronts.
double conflictsPerWavefront(std::uint64_t conflicts, std::uint64_t wavefronts);

}  // namespace coalesce::gui
