#include "counters_cells.hpp"

#include "coalesce/counters.hpp"
#include "coalesce/counters_pass.hpp"

#include <QLocale>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace coalesce::gui {
namespace {

QString fixed(double v, int decimals) { return QLocale::c().toString(v, 'f', decimals); }

QString megabytes(std::uint64_t bytes) {
    return fixed(static_cast<double>(bytes) / 1e6, 1) + QStringLiteral(" MB");
}

QString rateText(double pct) { return std::isnan(pct) ? QString() : fixed(pct, 1); }

QString perRequestText(double v) { return std::isnan(v) ? QString() : fixed(v, 1); }

QVariant orNothing(double v) { return std::isnan(v) ? QVariant() : QVariant(v); }

QString sectorsTip(std::uint64_t sectors, std::uint64_t requests, double model, const char* what) {
    if (requests == 0)
        return QStringLiteral(
                   "no global %1 requests through the LSU (texture fetches and bulk copies do "
                   "not go through it)")
            .arg(QLatin1String(what));
    QString tip = QStringLiteral("%1 sectors of 32 bytes for %2 warp %3 requests")
                      .arg(sectors)
                      .arg(requests)
                      .arg(QLatin1String(what));
    if (!std::isnan(model))
        tip += QStringLiteral("; the sector model predicts %1 per request").arg(fixed(model, 1));
    return tip;
}

}  // namespace

QString formatCount(std::uint64_t n) {
    const double v = static_cast<double>(n);
    if (n < 1000) return QString::number(n);
    if (v < 1e6) return fixed(v / 1e3, 1) + QLatin1Char('k');
    if (v < 1e9) return fixed(v / 1e6, 1) + QLatin1Char('M');
    return fixed(v / 1e9, 1) + QLatin1Char('G');
}

double conflictsPerWavefront(std::uint64_t conflicts, std::uint64_t wavefronts) {
    return wavefronts ? static_cast<double>(conflicts) / static_cast<double>(wavefronts)
                      : std::nan("");
}

bool hasCountersInfo(const RunResult& r) {
    return r.counters.has_value() || !r.counters_status.empty();
}

QStringList countersNotes(const RunRecord& record) {
    QStringList out;
    for (const auto& [reason, n] : missing_counters_reasons(record))
        out << QStringLiteral("No counters for %1 %2: %3")
                   .arg(n)
                   .arg(n == 1 ? QStringLiteral("run") : QStringLiteral("runs"),
                        QString::fromStdString(reason));
    return out;
}

QString countersHeader(CountersField field) {
    switch (field) {
    case CountersField::DramOverModel: return QStringLiteral("DRAM / model");
    case CountersField::LoadSectors: return QStringLiteral("Load sect/req");
    case CountersField::StoreSectors: return QStringLiteral("Store sect/req");
    case CountersField::BankConflicts: return QStringLiteral("Bank conflicts ld/st");
    case CountersField::L1HitRate: return QStringLiteral("L1 hit %");
    case CountersField::L2HitRate: return QStringLiteral("L2 hit %");
    case CountersField::Occupancy: return QStringLiteral("Occupancy %");
    }
    return {};
}

QString countersHeaderToolTip(CountersField field) {
    switch (field) {
    case CountersField::DramOverModel:
        return QStringLiteral(
                   "hardware counters (one profiled launch, caches flushed before it): DRAM "
                   "bytes read + written / the bytes model; \"!\" marks more than %1% off the "
                   "model (data the L2 kept, halo or texture re-reads, writes still in the L2)")
            .arg(fixed(100 * kModelMismatchTolerance, 0));
    case CountersField::LoadSectors:
        return QStringLiteral("global-memory 32-byte sectors per warp load request");
    case CountersField::StoreSectors:
        return QStringLiteral("global-memory 32-byte sectors per warp store request");
    case CountersField::BankConflicts:
        return QStringLiteral("shared-memory bank conflicts of loads / stores (counts)");
    case CountersField::L1HitRate: return QStringLiteral("L1/texture cache sector hit rate");
    case CountersField::L2HitRate: return QStringLiteral("L2 sector hit rate");
    case CountersField::Occupancy:
        return QStringLiteral("achieved occupancy: active warps / the SM's warp slots");
    }
    return {};
}

QString countersText(const RunResult& r, CountersField field) {
    if (!r.counters) return {};
    const Counters& c = *r.counters;
    switch (field) {
    case CountersField::DramOverModel: {
        const double ratio = dram_model_ratio(c, r.bytes);
        if (std::isnan(ratio)) return {};
        QString text = fixed(ratio, 3);
        if (dram_differs_from_model(c, r.bytes)) text += QLatin1String(kModelMismatchMark);
        return text;
    }
    case CountersField::LoadSectors: return perRequestText(c.load_sectors_per_request());
    case CountersField::StoreSectors: return perRequestText(c.store_sectors_per_request());
    case CountersField::BankConflicts:
        return formatCount(c.shared_load_conflicts) + QStringLiteral(" / ") +
               formatCount(c.shared_store_conflicts);
    case CountersField::L1HitRate: return rateText(c.l1_hit_rate_pct);
    case CountersField::L2HitRate: return rateText(c.l2_hit_rate_pct);
    case CountersField::Occupancy: return rateText(c.occupancy_pct);
    }
    return {};
}

QVariant countersValue(const RunResult& r, CountersField field) {
    if (!r.counters) return {};
    const Counters& c = *r.counters;
    switch (field) {
    case CountersField::DramOverModel: return orNothing(dram_model_ratio(c, r.bytes));
    case CountersField::LoadSectors: return orNothing(c.load_sectors_per_request());
    case CountersField::StoreSectors: return orNothing(c.store_sectors_per_request());
    case CountersField::BankConflicts:
        return QVariant::fromValue<qulonglong>(c.shared_load_conflicts + c.shared_store_conflicts);
    case CountersField::L1HitRate: return orNothing(c.l1_hit_rate_pct);
    case CountersField::L2HitRate: return orNothing(c.l2_hit_rate_pct);
    case CountersField::Occupancy: return orNothing(c.occupancy_pct);
    }
    return {};
}

QString countersToolTip(const RunResult& r, CountersField field) {
    if (!r.counters) {
        if (r.counters_status.empty()) return {};
        return QStringLiteral("no hardware counters: ") + QString::fromStdString(r.counters_status);
    }
    const Counters& c = *r.counters;
    switch (field) {
    case CountersField::DramOverModel: {
        QString tip = QStringLiteral("DRAM read %1 + written %2 over the model's %3")
                          .arg(megabytes(c.dram_read_bytes), megabytes(c.dram_write_bytes),
                               megabytes(r.bytes));
        if (dram_differs_from_model(c, r.bytes))
            tip += QStringLiteral(
                       "; more than %1% off the model: see docs/counters.md (data the L2 kept, "
                       "halo or texture re-reads, writes still in the L2 when the kernel ended)")
                       .arg(fixed(100 * kModelMismatchTolerance, 0));
        if (c.kernels > 1) tip += QStringLiteral("; %1 kernels summed").arg(c.kernels);
        return tip;
    }
    case CountersField::LoadSectors:
        return sectorsTip(c.global_load_sectors, c.global_load_requests, r.model_load_sectors,
                          "load");
    case CountersField::StoreSectors:
        return sectorsTip(c.global_store_sectors, c.global_store_requests, r.model_store_sectors,
                          "store");
    case CountersField::BankConflicts:
        return QStringLiteral(
                   "shared-memory bank conflicts: loads %1 in %2 wavefronts, stores %3 in %4 "
                   "wavefronts")
            .arg(c.shared_load_conflicts)
            .arg(c.shared_load_wavefronts)
            .arg(c.shared_store_conflicts)
            .arg(c.shared_store_wavefronts);
    case CountersField::L1HitRate:
    case CountersField::L2HitRate:
    case CountersField::Occupancy: return countersHeaderToolTip(field);
    }
    return {};
}

}  // namespace coalesce::gui
