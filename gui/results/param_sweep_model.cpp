#include "param_sweep_model.hpp"

#include "result_format.hpp"
#include "results_model.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace coalesce::gui {
namespace {

// A line: one variant at one size with the other parameters at one setting.
struct LineKey {
    std::string variant;
    std::size_t rows = 0, cols = 0;
    ParamValues others;
    bool operator<(const LineKey& o) const {
        return std::tie(variant, rows, cols, others) <
               std::tie(o.variant, o.rows, o.cols, o.others);
    }
};

QString qs(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

ParamSweepModel::ParamSweepModel(const ResultsModel* source, QObject* parent)
    : QAbstractTableModel(parent), source_(source) {
    connect(source_, &QAbstractItemModel::modelReset, this, &ParamSweepModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsInserted, this, &ParamSweepModel::rebuild);
    connect(source_, &QAbstractItemModel::rowsRemoved, this, &ParamSweepModel::rebuild);
    connect(source_, &QAbstractItemModel::dataChanged, this, &ParamSweepModel::rebuild);
    connect(source_, &ResultsModel::recordInfoChanged, this, &ParamSweepModel::rebuild);
    rebuild();
}

int ParamSweepModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(points_.size());
}

int ParamSweepModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ParamSweepModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role != Qt::DisplayRole && role != Qt::EditRole) return {};
    const Point& p = points_[static_cast<std::size_t>(index.row())];
    switch (index.column()) {
    case ParamColumn: return p.x;
    case ValueColumn: return p.value;
    default: return p.model;
    }
}

QVariant ParamSweepModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal) return {};
    const QString unit = measure_ == Measure::gbps              ? tr("[GB/s]")
                         : measure_ == Measure::percent_of_copy ? tr("[% of copy]")
                                                                : tr("[ns per access]");
    if (section == ParamColumn) return parameter_;
    if (section == ValueColumn) return tr("bandwidth %1").arg(unit);
    if (section == ModelColumn) return tr("model %1").arg(unit);
    return {};
}

void ParamSweepModel::setParameter(const QString& name) {
    chosen_ = name;
    rebuild();
}

void ParamSweepModel::setMeasure(Measure measure) {
    measure_ = measure;
    rebuild();
}

QString ParamSweepModel::deviceName() const { return deviceLabel(source_->device()); }

QStringList ParamSweepModel::operations() const { return ops_; }

void ParamSweepModel::rebuild() {
    beginResetModel();
    const auto& runs = source_->record().runs;

    // Which parameters are swept: more than one value among the runs that can be plotted.
    std::map<std::string, std::set<long long>> values;
    has_ns_ = false;
    for (const RunResult& r : runs)
        if (isPlottable(r)) {
            for (const auto& [name, value] : r.params) values[name].insert(value);
            has_ns_ = has_ns_ || std::isfinite(r.ns_per_access);
        }
    std::vector<std::pair<std::string, std::size_t>> swept;
    for (const auto& [name, set] : values)
        if (set.size() > 1) swept.emplace_back(name, set.size());
    std::stable_sort(swept.begin(), swept.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    swept_.clear();
    for (const auto& entry : swept) swept_ << qs(entry.first);
    parameter_ = swept_.contains(chosen_) ? chosen_ : swept_.value(0);
    const std::string param = parameter_.toStdString();

    // The runs on the chart, grouped into lines in the order their variants first ran.
    std::map<LineKey, std::vector<std::size_t>> groups;
    std::vector<LineKey> order;
    std::set<std::pair<std::size_t, std::size_t>> sizes;
    std::map<std::string, std::set<long long>> others_seen;
    ops_.clear();
    const bool with_type = severalTypes(runs);
    for (std::size_t i = 0; i < runs.size() && !param.empty(); ++i) {
        const RunResult& r = runs[i];
        if (!isPlottable(r) || r.params.count(param) == 0) continue;
        if (measure_ == Measure::percent_of_copy && !(r.pct_of_copy > 0)) continue;
        if (measure_ == Measure::ns_per_access && !std::isfinite(r.ns_per_access)) continue;
        LineKey key{seriesName(r, with_type), r.rows, r.cols, r.params};
        key.others.erase(param);
        auto [it, added] = groups.try_emplace(key);
        if (added) order.push_back(key);
        it->second.push_back(i);
        sizes.emplace(r.rows, r.cols);
        for (const auto& [name, value] : key.others) others_seen[name].insert(value);
        if (!ops_.contains(qs(r.op))) ops_ << qs(r.op);
    }
    std::sort(ops_.begin(), ops_.end(), [](const QString& a, const QString& b) {
        return opOrder(a.toStdString()) < opOrder(b.toStdString());
    });

    lines_.clear();
    points_.clear();
    min_x_ = max_x_ = max_y_ = 0;
    for (const LineKey& key : order) {
        std::vector<std::size_t>& members = groups[key];
        std::stable_sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) {
            return runs[a].params.at(param) < runs[b].params.at(param);
        });
        Line line{qs(key.variant), qs(key.variant), static_cast<int>(points_.size()), 0, true};
        if (sizes.size() > 1)
            line.label += QStringLiteral(", %1").arg(formatShape(key.rows, key.cols));
        for (const auto& [name, value] : key.others)
            if (others_seen[name].size() > 1)
                line.label += QStringLiteral(", %1=%2").arg(qs(name)).arg(value);
        for (std::size_t i : members) {
            const RunResult& r = runs[i];
            Point p;
            p.x = static_cast<double>(r.params.at(param));
            const bool gbps = measure_ == Measure::gbps;
            p.value = gbps                                   ? r.gbps
                      : measure_ == Measure::percent_of_copy ? r.pct_of_copy
                                                             : r.ns_per_access;
            // The sector model predicts bandwidth; it says nothing of a time per access.
            const double scale = gbps ? r.copy_gbps
                                 : measure_ == Measure::percent_of_copy
                                     ? 100.0
                                     : std::numeric_limits<double>::quiet_NaN();
            p.model = std::isfinite(r.model_efficiency) && scale > 0
                          ? r.model_efficiency * scale
                          : std::numeric_limits<double>::quiet_NaN();
            line.hasModel = line.hasModel && std::isfinite(p.model);
            min_x_ = points_.empty() ? p.x : std::min(min_x_, p.x);
            max_x_ = points_.empty() ? p.x : std::max(max_x_, p.x);
            max_y_ = std::max(max_y_, p.value);
            if (std::isfinite(p.model)) max_y_ = std::max(max_y_, p.model);
            points_.push_back(p);
            ++line.rowCount;
        }
        lines_.push_back(line);
    }
    endResetModel();
}

}  // namespace coalesce::gui
