// The parameter chart's table, derived from the results model: the plottable runs that carry the
// chosen swept parameter (offset, stride, ...), one contiguous block of rows per line sorted by
// the parameter, so a QVXYModelMapper (firstRow, rowCount) turns each block into one series.
// Column 0 is the parameter's value, column 1 the measured bandwidth, column 2 what the sector
// model predicts for the same run: its efficiency times the copy measured in that run (in GB/s),
// or times 100 % (as % of copy); or the time per access of the operations timed that way. A line
// is one variant at one size with the other parameters fixed; it is named after whatever tells
// it apart from the others.
#pragma once

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

namespace coalesce::gui {

class ResultsModel;

class ParamSweepModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { ParamColumn, ValueColumn, ModelColumn, ColumnCount };
    // ns_per_access: the operations timed per access (constant memory); no model line.
    enum class Measure { gbps, percent_of_copy, ns_per_access };

    struct Line {
        QString label;    // the variant, with the size or other parameters where they differ
        QString variant;  // the variant's id
        int firstRow = 0;
        int rowCount = 0;
        bool hasModel = false;  // every point has the model's prediction
    };

    explicit ParamSweepModel(const ResultsModel* source, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Parameters that take more than one value among the plottable runs, the most values first.
    const QStringList& sweptParameters() const { return swept_; }
    // The parameter on the x axis: the one chosen if it is swept, else the first swept one; empty
    // when nothing is swept.
    const QString& parameter() const { return parameter_; }
    void setParameter(const QString& name);
    Measure measure() const { return measure_; }
    void setMeasure(Measure measure);

    const std::vector<Line>& lines() const { return lines_; }
    double minParam() const { return min_x_; }
    double maxParam() const { return max_x_; }
    double maxValue() const { return max_y_; }  // over measurements and model, [GB/s], [%], [ns]
    // Some plottable run carries a time per access (the measure ns_per_access draws).
    bool hasTimesPerAccess() const { return has_ns_; }
    QString deviceName() const;
    // The operations whose runs are on the chart, in the engine's order.
    QStringList operations() const;

private:
    void rebuild();

    struct Point {
        double x = 0, value = 0, model = 0;
    };
    const ResultsModel* source_;
    QString chosen_;
    QString parameter_;
    QStringList swept_;
    QStringList ops_;
    Measure measure_ = Measure::gbps;
    std::vector<Line> lines_;
    std::vector<Point> points_;
    double min_x_ = 0, max_x_ = 0, max_y_ = 0;
    bool has_ns_ = false;
};

}  // namespace coalesce::gui
