#include "size_sweep_model.hpp"

#include "result_format.hpp"
#include "results_model.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace coalesce::gui {

SizeSweepModel::SizeSweepModel(const ResultsModel* source, QObject* parent)
    : QAbstractTableModel(parent), source_(source) {
    connect(source_, &QAbstractItemModel::modelReset, this, &SizeSweepModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsInserted, this, &SizeSweepModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsRemoved, this, &SizeSweepModel::rebuild);
    connect(source_, &QAbstractItemModel::dataChanged, this, &SizeSweepModel::rebuild);
    connect(source_, &ResultsModel::recordInfoChanged, this, &SizeSweepModel::rebuild);
    rebuild();
}

int SizeSweepModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(points_.size());
}

int SizeSweepModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SizeSweepModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    const Point& p = points_[static_cast<std::size_t>(index.row())];
    return index.column() == MebibytesColumn ? p.mib : p.gbps;
}

QVariant SizeSweepModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    if (section == MebibytesColumn) return tr("input [MiB]");
    if (section == GbpsColumn) return tr("bandwidth [GB/s]");
    return {};
}

void SizeSweepModel::setOperation(const QString& op) {
    op_filter_ = op;
    rebuild();
}

double SizeSweepModel::l2Mebibytes() const {
    if (!source_->device().gpu) return 0;  // a host's caches are not what a CPU run is read against
    return static_cast<double>(source_->device().l2_bytes) / (1024.0 * 1024.0);
}

QString SizeSweepModel::deviceName() const { return deviceLabel(source_->device()); }

void SizeSweepModel::rebuild() {
    beginResetModel();
    const auto& runs = source_->record().runs;

    // Variants keep the order the runner reported them in, grouped by operation.
    const bool with_type = severalTypes(runs);
    std::map<std::string, std::size_t> first_seen;
    for (std::size_t i = 0; i < runs.size(); ++i)
        first_seen.emplace(seriesName(runs[i], with_type), i);

    std::vector<std::size_t> order;
    ops_.clear();
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (!isPlottable(runs[i])) continue;
        const QString op = QString::fromStdString(runs[i].op);
        if (!ops_.contains(op)) ops_.push_back(op);
        if (op_filter_.isEmpty() || op == op_filter_) order.push_back(i);
    }
    std::sort(ops_.begin(), ops_.end(), [](const QString& a, const QString& b) {
        return opOrder(a.toStdString()) < opOrder(b.toStdString());
    });
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const RunResult& ra = runs[a];
        const RunResult& rb = runs[b];
        return std::make_tuple(opOrder(ra.op), first_seen[seriesName(ra, with_type)],
                               ra.rows * ra.cols) <
               std::make_tuple(opOrder(rb.op), first_seen[seriesName(rb, with_type)],
                               rb.rows * rb.cols);
    });

    lines_.clear();
    points_.clear();
    min_mib_ = max_mib_ = max_gbps_ = 0;
    for (std::size_t i : order) {
        const RunResult& r = runs[i];
        const QString variant = QString::fromStdString(seriesName(r, with_type));
        const double mib = inputMebibytes(r);
        if (lines_.empty() || lines_.back().variant != variant)
            lines_.push_back(
                {variant, QString::fromStdString(r.op), static_cast<int>(points_.size()), 0});
        ++lines_.back().rowCount;
        points_.push_back({mib, r.gbps});
        min_mib_ = points_.size() == 1 ? mib : std::min(min_mib_, mib);
        max_mib_ = std::max(max_mib_, mib);
        max_gbps_ = std::max(max_gbps_, r.gbps);
    }
    endResetModel();
}

}  // namespace coalesce::gui
