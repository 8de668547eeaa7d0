#include "compare_model.hpp"

#include "result_format.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace coalesce::gui {

namespace {

// Plottable runs of one file by variant and input size; the first run of a (variant, size) counts.
using BySize = std::map<std::size_t, const RunResult*>;  // key: input elements

std::map<std::string, BySize> runsByVariant(const RunRecord& record, bool with_type) {
    std::map<std::string, BySize> out;
    for (const RunResult& r : record.runs)
        if (isPlottable(r)) out[seriesName(r, with_type)].emplace(r.rows * r.cols, &r);
    return out;
}

const RunResult* largest(const BySize& runs) {
    return runs.empty() ? nullptr : runs.rbegin()->second;
}

}  // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

int CompareModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(variants_.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : 2; }

QVariant CompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::DisplayRole || role == Qt::EditRole)
        return gbps_[static_cast<std::size_t>(index.row())]
                    [static_cast<std::size_t>(side(index.column()))];
    if (role == Qt::ToolTipRole) return size_labels_[index.row()];
    return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || section < 0) return {};
    if (orientation == Qt::Horizontal)
        return section < 2 ? QVariant(seriesLabel(side(section))) : QVariant();
    return section < variants_.size() ? QVariant(variants_[section]) : QVariant();
}

int CompareModel::side(int column) const { return reversed_ ? 1 - column : column; }

QString CompareModel::deviceName(int side) const {
    return deviceLabel(records_.at(static_cast<std::size_t>(side)).device);
}

QString CompareModel::seriesLabel(int side) const {
    const QString name = deviceName(side);
    const QString& label = labels_.at(static_cast<std::size_t>(side));
    // Two files from one device would otherwise get the same legend entry.
    if (label.isEmpty() || deviceName(0) != deviceName(1)) return name;
    return QStringLiteral("%1 (%2)").arg(name, label);
}

QString CompareModel::sizeLabel(int row) const { return size_labels_.value(row); }

QString CompareModel::typesText() const { return coalesce::gui::typesText(types_); }

void CompareModel::setRecords(RunRecord a, const QString& label_a, RunRecord b,
                              const QString& label_b) {
    records_ = {std::move(a), std::move(b)};
    labels_ = {label_a, label_b};
    rebuild();
}

void CompareModel::setReversed(bool reversed) {
    reversed_ = reversed;
    rebuild();
}

void CompareModel::rebuild() {
    beginResetModel();
    variants_.clear();
    gbps_.clear();
    size_labels_.clear();
    types_.clear();

    std::vector<RunResult> both = records_[0].runs;
    both.insert(both.end(), records_[1].runs.begin(), records_[1].runs.end());
    const bool with_type = severalTypes(both);
    const std::array<std::map<std::string, BySize>, 2> by_variant = {
        runsByVariant(records_[0], with_type), runsByVariant(records_[1], with_type)};

    // Variants in the first file's order (grouped by operation), then those only the second has.
    std::vector<std::pair<int, std::string>> order;  // (operation order, variant)
    for (const auto& record : records_)
        for (const RunResult& r : record.runs)
            if (isPlottable(r) && std::none_of(order.begin(), order.end(), [&](const auto& o) {
                    return o.second == seriesName(r, with_type);
                }))
                order.emplace_back(opOrder(r.op), seriesName(r, with_type));
    std::stable_sort(order.begin(), order.end(),
                     [](const auto& x, const auto& y) { return x.first < y.first; });

    for (const auto& [op_order, variant] : order) {
        std::array<const RunResult*, 2> chosen{nullptr, nullptr};
        const auto found_a = by_variant[0].find(variant);
        const auto found_b = by_variant[1].find(variant);
        if (found_a != by_variant[0].end() && found_b != by_variant[1].end()) {
            // The largest size both measured.
            for (auto it = found_a->second.rbegin(); it != found_a->second.rend(); ++it) {
                const auto other = found_b->second.find(it->first);
                if (other != found_b->second.end()) {
                    chosen = {it->second, other->second};
                    break;
                }
            }
        }
        if (!chosen[0] && !chosen[1]) {
            if (found_a != by_variant[0].end()) chosen[0] = largest(found_a->second);
            if (found_b != by_variant[1].end()) chosen[1] = largest(found_b->second);
        }
        variants_.push_back(QString::fromStdString(variant));
        gbps_.push_back({chosen[0] ? chosen[0]->gbps : 0.0, chosen[1] ? chosen[1]->gbps : 0.0});
        QStringList sizes;  // of the files that have the variant
        for (const RunResult* r : chosen)
            if (r) {
                sizes.push_back(formatShape(r->rows, r->cols));
                addTypeLabel(types_, *r);
            }
        sizes.removeDuplicates();
        size_labels_.push_back(sizes.join(QStringLiteral(" / ")));
    }
    if (reversed_) {
        std::reverse(variants_.begin(), variants_.end());
        std::reverse(gbps_.begin(), gbps_.end());
        std::reverse(size_labels_.begin(), size_labels_.end());
    }
    endResetModel();
}

void CompareModel::clear() { setRecords({}, {}, {}, {}); }

}  // namespace coalesce::gui
