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
        // The copy's column names its value (each type's): it is the chart's legend entry.
        if (section == copy_column_) {
            if (copies_.size() == 1)
                return QStringLiteral("%1: %2 GB/s")
                    .arg(ops_[section], formatGbps(copies_.front().gbps));
            QStringList values;
            for (const CopyReference& copy : copies_)
                if (copy.gbps > 0)
                    values << QStringLiteral("%1 %2").arg(copy.type, formatGbps(copy.gbps));
            return QStringLiteral("%1: %2 GB/s").arg(ops_[section], values.join(", "));
        }
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

QString BandwidthBarsModel::copyReferenceLabel(const QString& type) const {
    const QString label = host_copy_ ? QStringLiteral("host copy, same run")
                                     : QStringLiteral("device copy, same run");
    return type.isEmpty() || copies_.size() < 2 ? label
                                                : QStringLiteral("%1 (%2)").arg(label, type);
}

double BandwidthBarsModel::copyReferenceGbps(const QString& type) const {
    if (type.isEmpty()) return copies_.size() == 1 ? copies_.front().gbps : 0.0;
    for (const CopyReference& copy : copies_)
        if (copy.type == type) return copy.gbps;
    return 0.0;
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
    copies_.clear();
    hidden_runs_ = 0;
    all_cache_resident_ = false;
    std::vector<double> best_copy_variant;  // per entry of copies_
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
        // Each type's own copy: one of u8 and one of f32 at one size move different bytes.
        const QString type = QString::fromStdString(type_label(r));
        auto copy = std::find_if(copies_.begin(), copies_.end(),
                                 [&](const CopyReference& c) { return c.type == type; });
        if (copy == copies_.end()) {
            copies_.push_back({type, 0.0});
            best_copy_variant.push_back(0.0);
            copy = copies_.end() - 1;
        }
        const auto at = static_cast<std::size_t>(copy - copies_.begin());
        copy->gbps = std::max(copy->gbps, r.copy_gbps);
        if (r.op == "copy") best_copy_variant[at] = std::max(best_copy_variant[at], r.gbps);
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
        addTypeLabel(types_, r);
        all_resident = all_resident && r.cache_resident;
        host_copy_ = host_copy_ && !r.gpu;
    }
    for (std::size_t i = 0; i < copies_.size(); ++i)
        if (copies_[i].gbps <= 0) copies_[i].gbps = best_copy_variant[i];
    std::sort(tiers_.begin(), tiers_.end(), [](const QString& a, const QString& b) {
        const auto rank = [](const QString& t) {
            const auto tier = parse_tier(t.toStdString());
            return tier ? static_cast<int>(*tier) : 99;
        };
        return rank(a) < rank(b);
    });
    const bool any_copy = std::any_of(copies_.begin(), copies_.end(),
                                      [](const CopyReference& c) { return c.gbps > 0; });
    if (copy_row_ && any_drawn && any_copy) {
        ops_.push_back(copyReferenceLabel());
        copy_column_ = static_cast<int>(ops_.size()) - 1;
        // On top, in the order the types were met.
        for (auto copy = copies_.rbegin(); copy != copies_.rend(); ++copy) {
            if (copy->gbps <= 0) continue;
            variants_.push_front(copyReferenceLabel(copy->type));
            row_op_.insert(row_op_.begin(), copy_column_);
            row_gbps_.insert(row_gbps_.begin(), copy->gbps);
        }
    }
    if (reversed_) {
        std::reverse(variants_.begin(), variants_.end());
        std::reverse(row_op_.begin(), row_op_.end());
        std::reverse(row_gbps_.begin(), row_gbps_.end());
    }
    all_cache_resident_ = any_drawn && all_resident;
    endResetModel();
}

QString BandwidthBarsModel::typesText() const { return coalesce::gui::typesText(types_); }

}  // namespace coalesce::gui
