// Two results files side by side: one row per variant, one column per file, GB/s in each cell
// (0 where a file has no plottable run of that variant). Feeds a grouped bar chart through a
// QVBarModelMapper. Each variant is compared at the largest input size both files measured it at;
// where they share no size, each file's largest size is used and the row's size label says so.
#pragma once

#include "coalesce/runner.hpp"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <array>
#include <vector>

namespace coalesce::gui {

class CompareModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit CompareModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;  // [GB/s]
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // `label_a` / `label_b` name the sources (usually the file names); they tell two runs of one
    // device apart.
    void setRecords(RunRecord a, const QString& label_a, RunRecord b, const QString& label_b);
    void clear();
    bool isEmpty() const { return variants_.isEmpty(); }

    QString deviceName(int side) const;   // side 0 or 1
    QString seriesLabel(int side) const;  // the legend entry: device, and the label where needed
    // The input size a row compares, "8192×8192"; "8192×8192 / 4096×4096" when the files share
    // no size for that variant (first file's, second file's).
    QString sizeLabel(int row) const;
    // The element types of the compared runs (both files), for the chart's axis: "float32",
    // "u8", "u8, u16", "u8x3".
    QString typesText() const;
    // Rows and columns last-to-first, for a horizontal bar chart to read top-down (see
    // BandwidthBarsModel::setReversedRows): column 0 is then the second file, drawn below the
    // first within each group. deviceName(), seriesLabel() and record() keep the files' order.
    void setReversed(bool reversed);

    const RunRecord& record(int side) const { return records_.at(static_cast<std::size_t>(side)); }

private:
    void rebuild();
    int side(int column) const;  // which file a column shows

    std::array<RunRecord, 2> records_;
    std::array<QString, 2> labels_;
    bool reversed_ = false;
    QStringList variants_;
    std::vector<std::array<double, 2>> gbps_;
    QStringList size_labels_;
    QStringList types_;  // type_label of the compared runs, in the order met
};

}  // namespace coalesce::gui
