// The tables behind the two hardware-counters charts, derived from the results model: one row
// per variant with counters at one input size. "DRAM / model" pivots the runs like the bandwidth
// chart (one column per operation, so a stacked series draws one bar per variant coloured by
// operation); "Sectors & conflicts" has one column per quantity. Runs without counters are left
// out and counted, with the reason they have none.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/runner.hpp"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace coalesce::gui {

class ResultsModel;

class CountersChartModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // Display role: the value a bar mapper reads (0 where there is nothing to draw); RawRole: the
    // value, invalid where the run has none.
    static constexpr int RawRole = Qt::UserRole;

    int rowCount(const QModelIndex& parent = {}) const override;

    // Input sizes with at least one run with counters, smallest first.
    const std::vector<Shape>& sizes() const { return sizes_; }
    // The size shown; unset follows the largest size with counters.
    void setSize(std::optional<Shape> size);
    Shape shownSize() const { return shown_; }
    // Rows last-to-first (Qt Charts draws a horizontal bar chart's first category at the bottom).
    void setReversedRows(bool reversed);

    // Some run (at the shown size) has counters.
    bool hasCounters() const { return !runs_.empty(); }
    // Runs not drawn for want of counters: at the shown size, or all runs when none has any.
    int runsWithoutCounters() const { return without_; }
    // Why they have none: the reason most of them give, or that no counters pass ran.
    QString missingReason() const { return missing_reason_; }
    QString deviceName() const;
    // The element types of the drawn runs for the title: "float32", "u8", "u8, u16", "u8x3".
    QString typesText() const;
    // The run of a variant row (nullptr for a reference row).
    const RunResult* run(int row) const;

protected:
    CountersChartModel(const ResultsModel* source, QObject* parent);
    void rebuild();
    // Called inside a model reset once the rows are chosen: the subclass lays out its columns.
    virtual void fill() {}
    // Extra rows on top (before reversal) that stand for no run, such as the model's bar.
    virtual int referenceRows() const { return 0; }
    int variantRow(int row) const;  // index into runs_ of chart row `row`, or -1

    std::vector<RunResult> runs_;  // the drawn runs, in operation order, without matrices

private:
    const ResultsModel* source_;
    std::optional<Shape> requested_;
    bool reversed_ = false;
    Shape shown_;
    std::vector<Shape> sizes_;
    int without_ = 0;
    QString missing_reason_;
};

// Measured DRAM bytes (read + written) over the bytes model, one bar per variant. A variant past
// the engine's tolerance (dram_differs_from_model) is drawn in its own column, so the legend
// names the mark; the model itself is a first row of its own at exactly 1.
class DramModelBarsModel : public CountersChartModel {
    Q_OBJECT

public:
    explicit DramModelBarsModel(const ResultsModel* source, QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    void setModelReferenceRow(bool shown);
    static QString modelReferenceLabel();  // "model: bytes_moved"
    static QString mismatchLabel();        // the legend entry of the marked bars
    int referenceColumn() const { return reference_column_; }  // -1 without the model row
    int mismatchColumn() const { return mismatch_column_; }    // -1 when no run is marked
    double ratio(int row) const;                               // NaN for no run
    bool differsFromModel(int row) const;
    double largestRatio() const;

private:
    void fill() override;
    int referenceRows() const override { return reference_row_ && !runs_.empty() ? 1 : 0; }

    bool reference_row_ = false;
    QStringList columns_;
    std::vector<int> run_column_;  // per run in runs_
    int reference_column_ = -1;
    int mismatch_column_ = -1;
};

// Global sectors per warp request (load, store; the sector model's prediction beside them where
// the variant has one) and shared-memory bank conflicts per wavefront (load, store).
class SectorsConflictsModel : public CountersChartModel {
    Q_OBJECT

public:
    enum Column {
        LoadSectorsColumn,
        StoreSectorsColumn,
        ModelLoadSectorsColumn,
        ModelStoreSectorsColumn,
        LoadConflictsColumn,
        StoreConflictsColumn,
        ColumnCount
    };

    explicit SectorsConflictsModel(const ResultsModel* source, QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // NaN where the run has no such value.
    double value(int row, int column) const;
    // Some drawn variant has a sector-model prediction.
    bool hasSectorModel() const;
    // Some drawn variant used shared memory (has wavefronts).
    bool hasSharedMemory() const;
    double largestSectors() const;    // over measured and model columns
    double largestConflicts() const;  // over the conflict columns
};

}  // namespace coalesce::gui
