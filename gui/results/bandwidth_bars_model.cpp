#include "bandwidth_bars_model.hpp"

#include "result_format.hpp"
#include "results_model.hpp"

#include "coalesce/variant.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace coalesce::gui {

BandwidthBarsModel::BandwidthBarsModel(const ResultsModel* source, QObject* parent)
    : QAbstractTableModel(parent), source_(source) {
    // Every change of the source reshapes the pivot (a new variant adds a row, a new operation a
    // column), so each one rebuilds it; the table holds dozens of rows, not thousands.
    connect(source_, &QAbstractItemModel::modelReset, this, &BandwidthBarsModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsInserted, this, &BandwidthBarsModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsRemoved, this, &BandwidthBarsModel::rebuild);
    connect(source_, &QAbstractItemModel::dataChanged, this, &BandwidthBarsModel::rebuild);
    connect(source_, &ResultsModel::recordInfoChanged, this, &BandwidthBarsModel::rebuild);
    rebuild();
}

int BandwidthBarsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(variants_.size());
}

int BandwidthBarsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(ops_.size());
}

QVariant BandwidthBarsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    const auto row = static_cast<std::size_t>(index.row());
    return row_op_[row] == index.column() ? row_gbps_[row] : 0.0;
}

QVariant BandwidthBarsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || section < 0) return {};
    if (orientation == Qt::Horizontal) {
        if (section >= ops_.size()) return {};
        // The copy's column names its value: it is the chart's legend entry.
        if (section == copy_column_)
            return QStringLiteral("%1: %2 GB/s").arg(ops_[section], formatGbps(copy_gbps_));
        return ops_[section];
    }
    return section < variants_.size() ? QVariant(variants_[section]) : QVariant();
}

void BandwidthBarsModel::setReversedRows(bool reversed) {
    reversed_ = reversed;
    rebuild();
}

void BandwidthBarsModel::setTier(const QString& tier) {
    tier_ = tier;
    rebuild();
}

QString BandwidthBarsModel::copyReferenceLabel() const {
    return host_copy_ ? QStringLiteral("host copy, same run")
                      : QStringLiteral("device copy, same run");
}

void BandwidthBarsModel::setCopyReferenceRow(bool shown) {
    copy_row_ = shown;
    rebuild();
}

void BandwidthBarsModel::setSize(std::optional<Shape> size) {
    requested_ = size;
    rebuild();
}

QString BandwidthBarsModel::deviceName() const { return deviceLabel(source_->device()); }

void BandwidthBarsModel::rebuild() {
    beginResetModel();
    const auto& runs = source_->record().runs;

    sizes_ = sizesOf(runs, [](const RunResult& r) { return isPlottable(r); });
    shown_ = chosenSize(sizes_, requested_);

    // Rows in operation order (the engine's), then in the order the runner reported them.
    const std::vector<std::size_t> order = opOrdered(runs);

    variants_.clear();
    ops_.clear();
    row_op_.clear();
    row_gbps_.clear();
    tiers_.clear();
    types_.clear();
    copy_column_ = -1;
    host_copy_ = true;
    copy_gbps_ = 0;
    hidden_runs_ = 0;
    all_cache_resident_ = false;
    double best_copy_variant = 0;
    bool any_drawn = false, all_resident = true;
    const bool with_type = severalTypes(runs);

    for (std::size_t i : order) {
        const RunResult& r = runs[i];
        if (Shape{r.rows, r.cols} != shown_) continue;
        const QString tier = QString::fromStdString(r.tier);
        if (isPlottable(r) && !tiers_.contains(tier)) tiers_.push_back(tier);
        if (!tier_.isEmpty() && tier != tier_) continue;
        if (!isPlottable(r)) {
            ++hidden_runs_;
            continue;
        }
        copy_gbps_ = std::max(copy_gbps_, r.copy_gbps);
        if (r.op == "copy") best_copy_variant = std::max(best_copy_variant, r.gbps);
        const QString op = QString::fromStdString(r.op);
        const QString variant = QString::fromStdString(seriesName(r, with_type));
        if (variants_.contains(variant))
            continue;  // a repeated run of one variant: the first counts
        qsizetype column = ops_.indexOf(op);
        if (column < 0) {
            ops_.push_back(op);
            column = ops_.size() - 1;
        }
        variants_.push_back(variant);
        row_op_.push_back(static_cast<int>(column));
        row_gbps_.push_back(r.gbps);
        any_drawn = true;
        const QString type = QString::fromStdString(type_label(r));
        if (!types_.contains(type)) types_.push_back(type);
        all_resident = all_resident && r.cache_resident;
        host_copy_ = host_copy_ && !r.gpu;
    }
    if (copy_gbps_ <= 0) copy_gbps_ = best_copy_variant;
    std::sort(tiers_.begin(), tiers_.end(), [](const QString& a, const QString& b) {
        const auto rank = [](const QString& t) {
            const auto tier = parse_tier(t.toStdString());
            return tier ? static_cast<int>(*tier) : 99;
        };
        return rank(a) < rank(b);
    });
    if (copy_row_ && any_drawn && copy_gbps_ > 0) {
        ops_.push_back(copyReferenceLabel());
        copy_column_ = static_cast<int>(ops_.size()) - 1;
        variants_.push_front(copyReferenceLabel());
        row_op_.insert(row_op_.begin(), static_cast<int>(ops_.size()) - 1);
        row_gbps_.insert(row_gbps_.begin(), copy_gbps_);
    }
    if (reversed_) {
        std::reverse(variants_.begin(), variants_.end());
        std::reverse(row_op_.begin(), row_op_.end());
        std::reverse(row_gbps_.begin(), row_gbps_.end());
    }
    all_cache_resident_ = any_drawn && all_resident;
    endResetModel();
}

QString BandwidthBarsModel::typesText() const {
    return types_ == QStringList{QStringLiteral("f32")} ? QStringLiteral("float32")
                                                        : types_.join(QStringLiteral(", "));
}

}  // namespace coalesce::gui
