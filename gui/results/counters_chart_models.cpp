#include "counters_chart_models.hpp"

#include "counters_cells.hpp"
#include "result_format.hpp"
#include "results_model.hpp"

#include "coalesce/counters.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <tuple>

namespace coalesce::gui {

namespace {

// The status most of `runs` give for having no counters, or that no pass looked at them.
QString commonReason(const std::vector<const RunResult*>& runs) {
    std::map<std::string, int> count;
    std::string best;
    int best_count = 0;
    for (const RunResult* r : runs) {
        if (r->counters_status.empty()) continue;
        if (const int n = ++count[r->counters_status]; n > best_count) {
            best_count = n;
            best = r->counters_status;
        }
    }
    if (best.empty())
        return QStringLiteral(
            "no counters pass ran (Run ▸ Hardware Counters in the window, or coalesce-bench "
            "--counters)");
    return QString::fromStdString(best);
}

QVariant drawn(double v) { return std::isnan(v) ? 0.0 : v; }
QVariant raw(double v) { return std::isnan(v) ? QVariant() : QVariant(v); }

}  // namespace

CountersChartModel::CountersChartModel(const ResultsModel* source, QObject* parent)
    : QAbstractTableModel(parent), source_(source) {
    // Like the bandwidth chart's pivot: every change of the source reshapes the rows.
    connect(source_, &QAbstractItemModel::modelReset, this, &CountersChartModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsInserted, this, &CountersChartModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsRemoved, this, &CountersChartModel::rebuild);
    connect(source_, &QAbstractItemModel::dataChanged, this, &CountersChartModel::rebuild);
    connect(source_, &ResultsModel::recordInfoChanged, this, &CountersChartModel::rebuild);
}

int CountersChartModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(runs_.size()) + referenceRows();
}

void CountersChartModel::setSize(std::optional<Shape> size) {
    requested_ = size;
    rebuild();
}

void CountersChartModel::setReversedRows(bool reversed) {
    reversed_ = reversed;
    rebuild();
}

QString CountersChartModel::deviceName() const { return deviceLabel(source_->device()); }

int CountersChartModel::variantRow(int row) const {
    const int rows = rowCount();
    if (row < 0 || row >= rows) return -1;
    const int top_down = reversed_ ? rows - 1 - row : row;
    const int index = top_down - referenceRows();
    return index >= 0 ? index : -1;
}

QString CountersChartModel::typesText() const {
    QStringList labels;
    for (const RunResult& r : runs_) addTypeLabel(labels, r);
    return coalesce::gui::typesText(labels);
}

const RunResult* CountersChartModel::run(int row) const {
    const int i = variantRow(row);
    return i < 0 ? nullptr : &runs_[static_cast<std::size_t>(i)];
}

void CountersChartModel::rebuild() {
    beginResetModel();
    const auto& all = source_->record().runs;
    sizes_ = sizesOf(all, [](const RunResult& r) { return r.counters.has_value(); });
    shown_ = chosenSize(sizes_, requested_);

    const std::vector<std::size_t> order = opOrdered(all);
    runs_.clear();
    std::vector<const RunResult*> missing;
    for (std::size_t i : order) {
        const RunResult& r = all[i];
        if (!sizes_.empty() && Shape{r.rows, r.cols} != shown_) continue;
        if (!r.counters) {
            missing.push_back(&r);
            continue;
        }
        const bool seen = std::any_of(runs_.begin(), runs_.end(),
                                      [&](const RunResult& d) { return d.variant == r.variant; });
        if (seen) continue;  // a repeated run of one variant: the first counts
        RunResult copy = r;
        copy.output.reset();
        copy.reference.reset();
        runs_.push_back(std::move(copy));
    }
    without_ = static_cast<int>(missing.size());
    missing_reason_ = missing.empty() ? QString() : commonReason(missing);
    fill();
    endResetModel();
}

// --- DRAM / model -------------------------------------------------------------------------------

DramModelBarsModel::DramModelBarsModel(const ResultsModel* source, QObject* parent)
    : CountersChartModel(source, parent) {
    rebuild();
}

QString DramModelBarsModel::modelReferenceLabel() {
    return QStringLiteral("model: each input read once, each output written once");
}

QString DramModelBarsModel::mismatchLabel() {
    return QStringLiteral("more than %1% off the model")
        .arg(QString::number(100 * kModelMismatchTolerance, 'f', 0));
}

void DramModelBarsModel::setModelReferenceRow(bool shown) {
    reference_row_ = shown;
    rebuild();
}

void DramModelBarsModel::fill() {
    columns_.clear();
    run_column_.clear();
    reference_column_ = mismatch_column_ = -1;
    for (const RunResult& r : runs_) {
        const QString op = QString::fromStdString(r.op);
        if (!columns_.contains(op)) columns_ << op;
    }
    for (const RunResult& r : runs_) {
        if (dram_differs_from_model(*r.counters, r.bytes)) {
            if (mismatch_column_ < 0) {
                columns_ << mismatchLabel();
                mismatch_column_ = static_cast<int>(columns_.size()) - 1;
            }
            run_column_.push_back(mismatch_column_);
        } else {
            run_column_.push_back(static_cast<int>(columns_.indexOf(QString::fromStdString(r.op))));
        }
    }
    if (referenceRows() > 0) {
        columns_ << modelReferenceLabel();
        reference_column_ = static_cast<int>(columns_.size()) - 1;
    }
}

int DramModelBarsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
}

double DramModelBarsModel::ratio(int row) const {
    const RunResult* r = run(row);
    return r ? dram_model_ratio(*r->counters, r->bytes) : std::nan("");
}

bool DramModelBarsModel::differsFromModel(int row) const {
    const RunResult* r = run(row);
    return r && dram_differs_from_model(*r->counters, r->bytes);
}

double DramModelBarsModel::largestRatio() const {
    double max = referenceRows() > 0 ? 1.0 : 0.0;
    for (int row = 0; row < rowCount(); ++row)
        if (const double v = ratio(row); !std::isnan(v)) max = std::max(max, v);
    return max;
}

QVariant DramModelBarsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != RawRole) return {};
    const int i = variantRow(index.row());
    const bool own = i < 0 ? index.column() == reference_column_
                           : run_column_[static_cast<std::size_t>(i)] == index.column();
    if (!own) return role == RawRole ? QVariant() : QVariant(0.0);
    const double v = i < 0 ? 1.0 : ratio(index.row());
    return role == RawRole ? raw(v) : drawn(v);
}

QVariant DramModelBarsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || section < 0) return {};
    if (orientation == Qt::Horizontal)
        return section < columns_.size() ? QVariant(columns_[section]) : QVariant();
    if (section >= rowCount()) return {};
    const RunResult* r = run(section);
    return r ? QString::fromStdString(r->variant) : modelReferenceLabel();
}

// --- Sectors & conflicts ------------------------------------------------------------------------

SectorsConflictsModel::SectorsConflictsModel(const ResultsModel* source, QObject* parent)
    : CountersChartModel(source, parent) {
    rebuild();
}

int SectorsConflictsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

double SectorsConflictsModel::value(int row, int column) const {
    const RunResult* r = run(row);
    if (!r) return std::nan("");
    const Counters& c = *r->counters;
    switch (column) {
    case LoadSectorsColumn: return c.load_sectors_per_request();
    case StoreSectorsColumn: return c.store_sectors_per_request();
    case ModelLoadSectorsColumn: return r->model_load_sectors;
    case ModelStoreSectorsColumn: return r->model_store_sectors;
    case LoadConflictsColumn:
        return conflictsPerWavefront(c.shared_load_conflicts, c.shared_load_wavefronts);
    case StoreConflictsColumn:
        return conflictsPerWavefront(c.shared_store_conflicts, c.shared_store_wavefronts);
    default: return std::nan("");
    }
}

bool SectorsConflictsModel::hasSectorModel() const {
    for (const RunResult& r : runs_)
        if (!std::isnan(r.model_load_sectors) || !std::isnan(r.model_store_sectors)) return true;
    return false;
}

bool SectorsConflictsModel::hasSharedMemory() const {
    return std::any_of(runs_.begin(), runs_.end(), [](const RunResult& r) {
        return r.counters->shared_load_wavefronts + r.counters->shared_store_wavefronts > 0;
    });
}

double SectorsConflictsModel::largestSectors() const {
    double max = 0;
    for (int row = 0; row < rowCount(); ++row)
        for (int c = LoadSectorsColumn; c <= ModelStoreSectorsColumn; ++c)
            if (const double v = value(row, c); !std::isnan(v)) max = std::max(max, v);
    return max;
}

double SectorsConflictsModel::largestConflicts() const {
    double max = 0;
    for (int row = 0; row < rowCount(); ++row)
        for (int c = LoadConflictsColumn; c <= StoreConflictsColumn; ++c)
            if (const double v = value(row, c); !std::isnan(v)) max = std::max(max, v);
    return max;
}

QVariant SectorsConflictsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole && role != RawRole) return {};
    const double v = value(index.row(), index.column());
    return role == RawRole ? raw(v) : drawn(v);
}

QVariant SectorsConflictsModel::headerData(int section, Qt::Orientation orientation,
                                           int role) const {
    if (role != Qt::DisplayRole || section < 0) return {};
    if (orientation == Qt::Vertical) {
        const RunResult* r = run(section);
        return r ? QVariant(QString::fromStdString(r->variant)) : QVariant();
    }
    switch (section) {
    case LoadSectorsColumn: return QStringLiteral("load sectors / request");
    case StoreSectorsColumn: return QStringLiteral("store sectors / request");
    case ModelLoadSectorsColumn: return QStringLiteral("sector model: load");
    case ModelStoreSectorsColumn: return QStringLiteral("sector model: store");
    case LoadConflictsColumn: return QStringLiteral("shared load conflicts / wavefront");
    case StoreConflictsColumn: return QStringLiteral("shared store conflicts / wavefront");
    default: return {};
    }
}

}  // namespace coalesce::gui
