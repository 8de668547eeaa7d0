#include "results_model.hpp"

#include "background_pool.hpp"
#include "counters_cells.hpp"
#include "result_format.hpp"

#include "coalesce/operation.hpp"

#include <QBrush>
#include <QColor>

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace coalesce::gui {

namespace {

bool hasTiming(const RunResult& r) { return r.status == Status::ok; }

bool isCounters(int column) {
    return column >= ResultsModel::FirstCountersColumn &&
           column <= ResultsModel::LastCountersColumn;
}

CountersField countersField(int column) {
    return static_cast<CountersField>(column - ResultsModel::FirstCountersColumn);
}

bool isNumeric(int column) {
    if (isCounters(column)) return true;
    switch (column) {
    case ResultsModel::SizeColumn:
    case ResultsModel::MedianMsColumn:
    case ResultsModel::GbpsColumn:
    case ResultsModel::PercentOfCopyColumn:
    case ResultsModel::MaxErrorColumn: return true;
    default: return ResultsModel::isSparseColumn(column) && column != ResultsModel::ParamsColumn;
    }
}

// "offset=3, span=32": the parameters in the engine's (alphabetical) order.
QString paramsText(const RunResult& r) {
    QStringList parts;
    for (const auto& [name, value] : r.params)
        parts << QStringLiteral("%1=%2").arg(QString::fromStdString(name)).arg(value);
    return parts.join(QStringLiteral(", "));
}

// The model figure of a column; NaN where the run has none. ns per access is a measurement, so
// only a timed run has it.
double modelValue(const RunResult& r, int column) {
    switch (column) {
    case ResultsModel::ModelLoadSectorsColumn: return r.model_load_sectors;
    case ResultsModel::ModelStoreSectorsColumn: return r.model_store_sectors;
    case ResultsModel::ModelEfficiencyColumn: return r.model_efficiency;
    case ResultsModel::BankConflictColumn: return r.model_bank_conflict_degree;
    case ResultsModel::ConstantPassesColumn: return r.model_constant_serialization;
    case ResultsModel::NsPerAccessColumn:
        return hasTiming(r) ? r.ns_per_access : std::numeric_limits<double>::quiet_NaN();
    default: return std::numeric_limits<double>::quiet_NaN();
    }
}

// A model's count of sectors is a mean over requests: whole numbers stay whole ("4", "4.5").
QString modelText(const RunResult& r, int column) {
    const double v = modelValue(r, column);
    if (!std::isfinite(v)) return {};
    switch (column) {
    case ResultsModel::ModelEfficiencyColumn: return formatPercent(100.0 * v);
    case ResultsModel::BankConflictColumn: return QStringLiteral("%1-way").arg(v, 0, 'g', 3);
    case ResultsModel::NsPerAccessColumn: return QString::number(v, 'f', v < 10 ? 2 : 1);
    default: return QString::number(v, 'g', 3);
    }
}

}  // namespace

ResultsModel::ResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

int ResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(record_.runs.size());
}

int ResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunResult& r = result(index.row());
    switch (role) {
    case Qt::DisplayRole: return display(r, index.column());
    case RawRole: return raw(r, index.column());
    case Qt::ToolTipRole: return toolTip(r, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (r.status == Status::failed || (r.status == Status::ok && !r.verified))
            return QBrush(QColor(0xb0, 0x00, 0x20));
        if (r.status != Status::ok) return QBrush(QColor(0x70, 0x70, 0x70));
        return {};
    default: return {};
    }
}

QVariant ResultsModel::display(const RunResult& r, int column) const {
    if (isCounters(column)) return countersText(r, countersField(column));
    const bool timed = hasTiming(r);
    switch (column) {
    case OperationColumn: return QString::fromStdString(r.op);
    case VariantColumn: return QString::fromStdString(r.variant);
    case TierColumn: return QString::fromStdString(r.tier);
    case MemorySpaceColumn: return QString::fromStdString(r.memory_space);
    case SizeColumn: return formatShape(r.rows, r.cols);
    case TypeColumn: return QString::fromStdString(type_label(r));
    case MedianMsColumn: return timed ? formatMs(r.median_ms) : QStringLiteral("—");
    case GbpsColumn: return timed ? formatGbps(r.gbps) : QStringLiteral("—");
    case PercentOfCopyColumn:
        return timed && r.pct_of_copy > 0 ? formatPercent(r.pct_of_copy) : QStringLiteral("—");
    case MaxErrorColumn: return timed ? formatError(r.max_abs_error) : QStringLiteral("—");
    case VerifiedColumn: return r.verified ? QStringLiteral("yes") : QStringLiteral("no");
    case CacheResidentColumn:
        return r.cache_resident ? QStringLiteral("yes") : QStringLiteral("no");
    case StatusColumn:
        return QString::fromUtf8(status_name(r.status).data(),
                                 static_cast<qsizetype>(status_name(r.status).size()));
    case ParamsColumn: return paramsText(r);
    default: return isSparseColumn(column) ? QVariant(modelText(r, column)) : QVariant();
    }
}

QVariant ResultsModel::raw(const RunResult& r, int column) const {
    if (isCounters(column)) return countersValue(r, countersField(column));
    const bool timed = hasTiming(r);
    switch (column) {
    case OperationColumn: return QString::fromStdString(r.op);
    case VariantColumn: return QString::fromStdString(r.variant);
    case TierColumn: return QString::fromStdString(r.tier);
    case MemorySpaceColumn: return QString::fromStdString(r.memory_space);
    case SizeColumn: return QVariant::fromValue<qulonglong>(r.rows * r.cols);
    case TypeColumn: return QString::fromStdString(type_label(r));
    case MedianMsColumn: return timed ? QVariant(r.median_ms) : QVariant();
    case GbpsColumn: return timed ? QVariant(r.gbps) : QVariant();
    case PercentOfCopyColumn:
        return timed && r.pct_of_copy > 0 ? QVariant(r.pct_of_copy) : QVariant();
    case MaxErrorColumn: return timed ? QVariant(r.max_abs_error) : QVariant();
    case VerifiedColumn: return r.verified;
    case CacheResidentColumn: return r.cache_resident;
    case StatusColumn: return display(r, column);
    case ParamsColumn: return paramsText(r);
    default: {
        const double v = modelValue(r, column);
        return std::isfinite(v) ? QVariant(v) : QVariant();
    }
    }
}

bool ResultsModel::isSparseColumn(int column) {
    return column == ParamsColumn ||
           (column >= ModelLoadSectorsColumn && column <= NsPerAccessColumn);
}

bool ResultsModel::hasValue(int row, int column) const {
    const RunResult& r = result(row);
    if (column == ParamsColumn) return !r.params.empty();
    return !isSparseColumn(column) || std::isfinite(modelValue(r, column));
}

bool ResultsModel::hasValues(int column) const {
    for (int row = 0; row < rowCount(); ++row)
        if (hasValue(row, column)) return true;
    return false;
}

QString ResultsModel::toolTip(const RunResult& r, int column) const {
    // The reason a run failed matters more than any single cell: every cell of such a row shows it.
    if (!r.error.empty())
        return QStringLiteral("%1: %2").arg(display(r, StatusColumn).toString(),
                                            QString::fromStdString(r.error));
    if (isCounters(column)) return countersToolTip(r, countersField(column));
    switch (column) {
    case SizeColumn:
        return QStringLiteral("%1 × %2 %3 input, %4 bytes moved")
            .arg(r.rows)
            .arg(r.cols)
            .arg(QString::fromStdString(type_label(r)))
            .arg(r.bytes);
    case MedianMsColumn:
        return QStringLiteral("median of %1 timed launches (min %2 ms, max %3 ms)")
            .arg(r.reps)
            .arg(formatMs(r.min_ms), formatMs(r.max_ms));
    case PercentOfCopyColumn:
        return QStringLiteral("device-to-device copy in the same run: %1 GB/s")
            .arg(formatGbps(r.copy_gbps));
    case CacheResidentColumn:
        return r.cache_resident
                   ? QStringLiteral(
                         "input and output fit in the L2 cache: this measures the cache, not DRAM")
                   : QString();
    case NsPerAccessColumn:
        return std::isfinite(modelValue(r, column))
                   ? QStringLiteral("median time / %1 warp-wide loads per SM").arg(r.accesses)
                   : QString();
    default: return {};
    }
}

QVariant ResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Vertical) {
        if (role == Qt::DisplayRole && section >= 0 && section < rowCount()) return section + 1;
        return {};
    }
    if (isCounters(section)) {
        if (role == Qt::DisplayRole) return countersHeader(countersField(section));
        if (role == Qt::ToolTipRole) return countersHeaderToolTip(countersField(section));
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case OperationColumn: return tr("Operation");
        case VariantColumn: return tr("Variant");
        case TierColumn: return tr("Tier");
        case MemorySpaceColumn: return tr("Memory space");
        case SizeColumn: return tr("Size");
        case TypeColumn: return tr("Type");
        case MedianMsColumn: return tr("Median [ms]");
        case GbpsColumn: return tr("Bandwidth [GB/s]");
        case PercentOfCopyColumn: return tr("% of copy");
        case MaxErrorColumn: return tr("Max |error|");
        case VerifiedColumn: return tr("Verified");
        case CacheResidentColumn: return tr("Cache-resident");
        case StatusColumn: return tr("Status");
        case ParamsColumn: return tr("Parameters");
        case ModelLoadSectorsColumn: return tr("Model load sectors");
        case ModelStoreSectorsColumn: return tr("Model store sectors");
        case ModelEfficiencyColumn: return tr("Model efficiency");
        case BankConflictColumn: return tr("Bank conflicts");
        case ConstantPassesColumn: return tr("Constant passes");
        case NsPerAccessColumn: return tr("ns per access");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case GbpsColumn: return QString::fromLatin1(kBandwidthFormula);
        case PercentOfCopyColumn:
            return tr("bandwidth relative to a device-to-device copy of the same size");
        case MaxErrorColumn: return tr("largest |output − CPU reference| over all elements");
        case CacheResidentColumn: return tr("input and output together fit in the L2 cache");
        case TypeColumn:
            return tr("the input's element type: u8 (8-bit), u16 (16-bit) or f32 (float32)");
        case TierColumn:
            return tr(
                "classic: a lesson of the course; tuned: what the hardware can do; "
                "experiment: a tuning idea kept because it lost");
        case ParamsColumn: return tr("the operation's named parameters for this run (--param)");
        case ModelLoadSectorsColumn:
            return tr(
                "32-byte sectors one warp's load request touches, as the sector model counts");
        case ModelStoreSectorsColumn:
            return tr(
                "32-byte sectors one warp's store request touches, as the sector model counts");
        case ModelEfficiencyColumn:
            return tr("the sector model's useful bytes / bytes the touched sectors move");
        case BankConflictColumn:
            return tr(
                "the bank model's worst conflict degree among the variant's shared-memory "
                "requests (1-way: conflict-free, 32-way: fully serialized)");
        case ConstantPassesColumn:
            return tr(
                "distinct addresses per constant-memory request: the passes the constant "
                "cache needs");
        case NsPerAccessColumn:
            return tr("median time per warp-wide load of one SM (operations timed per access)");
        default: return {};
        }
    }
    return {};
}

bool ResultsModel::hasCountersInfo() const {
    return std::any_of(record_.runs.begin(), record_.runs.end(),
                       [](const RunResult& r) { return coalesce::gui::hasCountersInfo(r); });
}

void ResultsModel::beginRun(const DeviceInfo& device, const RunConfig& config,
                            const std::string& started_at) {
    beginResetModel();
    release_elsewhere(std::exchange(record_, RunRecord{}));
    record_.device = device;
    record_.config = config;
    record_.started_at = started_at;
    endResetModel();
    emit recordInfoChanged();
}

void ResultsModel::appendResult(const RunResult& result) {
    const int row = rowCount();
    beginInsertRows({}, row, row);
    record_.runs.push_back(result);
    endInsertRows();
}

void ResultsModel::setRecord(RunRecord record) {
    beginResetModel();
    release_elsewhere(std::exchange(record_, std::move(record)));
    endResetModel();
    emit recordInfoChanged();
}

void ResultsModel::setCancelled(bool cancelled) { record_.cancelled = cancelled; }

void ResultsModel::clear() {
    beginResetModel();
    release_elsewhere(std::exchange(record_.runs, {}));
    record_.cancelled = false;
    endResetModel();
}

}  // namespace coalesce::gui
