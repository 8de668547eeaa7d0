// The results charts as plain widgets: bandwidth bars per variant, bandwidth versus size, two
// runs compared, and the hardware counters per variant (DRAM bytes against the model; sectors
// per request and bank conflicts). Every Qt Charts type stays inside chart_widgets.cpp (Qt Charts
// is deprecated from Qt 6.10 in favour of Qt Graphs; moving over then touches one file).
#pragma once

#include "param_sweep_model.hpp"

#include "coalesce/runner.hpp"

#include <QSize>
#include <QString>
#include <QStringList>
#include <QTabWidget>
#include <QWidget>

#include <memory>

class QHBoxLayout;

namespace coalesce::gui {

class ResultsModel;
class BandwidthBarsModel;
class SizeSweepModel;
class CompareModel;
class CountersChartModel;
class DramModelBarsModel;
class SectorsConflictsModel;

// A chart that redraws itself from its model and exports to files.
class ChartPanel : public QWidget {
    Q_OBJECT

public:
    ~ChartPanel() override;

    // Writes the chart as PNG, SVG or PDF, chosen by the extension, at `size` logical pixels
    // (empty: exportSize()). False, with a message in *error, when it cannot; a failed export
    // leaves no file behind.
    bool exportChart(const QString& path, QString* error, QSize size = {}) const;
    // The chart drawn at `size` (empty: exportSize()) on white.
    QImage renderImage(QSize size = {}) const;
    // A size that keeps every label readable: grows with the number of bars.
    QSize exportSize() const;

    QString chartTitle() const;
    QStringList legendLabels() const;  // the legend's entries, in order
    bool hasData() const;              // something is plotted

    // Every text the chart on screen draws shortened to "..." (axis labels, title, legend); empty
    // when every label is shown whole.
    QStringList shortenedTexts() const;
    // The title and the legend as the window shows them: labels that wrap, above and below.
    QString shownTitle() const;
    QString shownLegend() const;  // rich text; empty when hidden

signals:
    void chartChanged();

protected:
    struct Private;
    explicit ChartPanel(QWidget* parent);
    QHBoxLayout* controls() const;  // a row above the chart for the subclass's choices
    void rebuildChart();

    std::unique_ptr<Private> d_;
};

// Bandwidth of every variant at one input size, one bar each, coloured and grouped by operation,
// with the device-to-device copy of the same run as a dashed reference line.
class BandwidthChartWidget : public ChartPanel {
    Q_OBJECT

public:
    explicit BandwidthChartWidget(ResultsModel* model, QWidget* parent = nullptr);
    BandwidthBarsModel* barsModel() const;
    // Only variants of this tier ("classic", "tuned", "experiment"); empty: all.
    void setTier(const QString& tier);

private:
    void updateSizeChoices();
};

// Bandwidth versus input size (log axis), one line per variant, for one operation or all.
class SizeSweepChartWidget : public ChartPanel {
    Q_OBJECT

public:
    explicit SizeSweepChartWidget(ResultsModel* model, QWidget* parent = nullptr);
    SizeSweepModel* sweepModel() const;
    // Show one operation ("transpose"), or all with an empty string.
    void setOperation(const QString& op);

private:
    void updateOperationChoices();
    bool user_chose_operation_ = false;
};

// Two results (for instance coalesce-bench JSON from two GPUs): grouped bars per variant, one
// colour per file, titled with both device names.
class CompareChartWidget : public ChartPanel {
    Q_OBJECT

public:
    explicit CompareChartWidget(QWidget* parent = nullptr);
    void setRecords(RunRecord a, const QString& label_a, RunRecord b, const QString& label_b);
    CompareModel* compareModel() const;
};

// Bandwidth against a swept parameter (offset, stride, ...), one line per variant, with the sector
// model's prediction for the same runs as a dashed line beside each; says so when the results
// sweep no parameter.
class ParameterChartWidget : public ChartPanel {
    Q_OBJECT

public:
    explicit ParameterChartWidget(ResultsModel* model, QWidget* parent = nullptr);
    ParamSweepModel* sweepModel() const;
    // The parameter on the x axis (when the results sweep several); empty: the first.
    void setParameter(const QString& name);
    // GB/s, % of the same run's copy (the model alike), or the time per access.
    void setMeasure(ParamSweepModel::Measure measure);

private:
    void updateParameterChoices();
};

// Measured DRAM bytes (read + written, hardware counters) over the bytes model, one bar per
// variant at one size, coloured by operation; the model is a grey bar at 1 and a dashed line, and
// variants more than the engine's tolerance off the model are drawn in black.
// Without counters the title says why there are none.
class DramModelChartWidget : public ChartPanel {
    Q_OBJECT

public:
    explicit DramModelChartWidget(ResultsModel* model, QWidget* parent = nullptr);
    DramModelBarsModel* barsModel() const;
};

// Global sectors per warp request (load, store, and the sector model's prediction where a variant
// has one) on the lower axis, shared-memory bank conflicts per wavefront on the upper one.
class SectorsChartWidget : public ChartPanel {
    Q_OBJECT

public:
    explicit SectorsChartWidget(ResultsModel* model, QWidget* parent = nullptr);
    SectorsConflictsModel* sectorsModel() const;
};

// The charts as tabs; what the main window embeds.
class ResultsChartsWidget : public QTabWidget {
    Q_OBJECT

public:
    explicit ResultsChartsWidget(ResultsModel* model, QWidget* parent = nullptr);

    BandwidthChartWidget* bandwidth() const { return bandwidth_; }
    SizeSweepChartWidget* sweep() const { return sweep_; }
    CompareChartWidget* compare() const { return compare_; }
    ParameterChartWidget* parameter() const { return parameter_; }
    DramModelChartWidget* dramModel() const { return dram_model_; }
    SectorsChartWidget* sectors() const { return sectors_; }
    ChartPanel* currentChart() const;
    // Exports the chart on the visible tab (see ChartPanel::exportChart).
    bool exportCurrentChart(const QString& path, QString* error, QSize size = {}) const;
    // Opens the compare tab on two records.
    void showComparison(RunRecord a, const QString& label_a, RunRecord b, const QString& label_b);

private:
    BandwidthChartWidget* bandwidth_;
    SizeSweepChartWidget* sweep_;
    CompareChartWidget* compare_;
    ParameterChartWidget* parameter_;
    DramModelChartWidget* dram_model_;
    SectorsChartWidget* sectors_;
};

}  // namespace coalesce::gui
