// The line chart's table, derived from the results model: plottable runs sorted by variant, then
// by size, so each variant is one contiguous block of rows that a QVXYModelMapper (firstRow,
// rowCount) turns into one line. Column 0 is the input size [MiB], column 1 the bandwidth [GB/s].
// (The results model keeps the runner's order and formats its cells as text; a mapper needs
// numbers in Qt::DisplayRole and one block of rows per series, hence this derived model.)
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace coalesce::gui {

class ResultsModel;

class SizeSweepModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { MebibytesColumn, GbpsColumn, ColumnCount };

    struct Line {
        QString variant;
        QString op;
        int firstRow = 0;
        int rowCount = 0;
    };

    explicit SizeSweepModel(const ResultsModel* source, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Operations with plottable runs, in the engine's order.
    const QStringList& operations() const { return ops_; }
    // Show one operation's variants; an empty name shows all.
    void setOperation(const QString& op);
    const QString& operation() const { return op_filter_; }

    const std::vector<Line>& lines() const { return lines_; }
    double minMebibytes() const { return min_mib_; }  // [MiB] over the shown rows
    double maxMebibytes() const { return max_mib_; }
    double maxGbps() const { return max_gbps_; }  // [GB/s]
    // [MiB] the GPU's L2 size, drawn as a marker on the size axis; 0 for a host run or when
    // unknown.
    double l2Mebibytes() const;
    QString deviceName() const;

private:
    void rebuild();

    struct Point {
        double mib = 0;
        double gbps = 0;
    };
    const ResultsModel* source_;
    QString op_filter_;
    QStringList ops_;
    std::vector<Line> lines_;
    std::vector<Point> points_;
    double min_mib_ = 0, max_mib_ = 0, max_gbps_ = 0;
};

}  // namespace coalesce::gui
