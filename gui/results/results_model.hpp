// The results table: one row per RunResult of one RunRecord (the device and config travel with it).
#pragma once

#include "coalesce/runner.hpp"

#include <QAbstractTableModel>

namespace coalesce::gui {

class ResultsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    // Status right after the variant: the first thing to read about a row, and never the column
    // cut off at the table's right edge.
    enum Column {
        OperationColumn,
        VariantColumn,
        StatusColumn,
        TierColumn,
        MemorySpaceColumn,
        SizeColumn,
        TypeColumn,    // the input's element type: u8, u16 or f32
        ParamsColumn,  // the operation's named parameters ("offset=3"); empty when it has none
        MedianMsColumn,
        GbpsColumn,
        PercentOfCopyColumn,
        MaxErrorColumn,
        VerifiedColumn,
        CacheResidentColumn,
        // What the engine's models predict (sector_model.hpp, bank_model.hpp) and the time per
        // access of the operations timed that way: empty where the run has none.
        ModelLoadSectorsColumn,
        ModelStoreSectorsColumn,
        ModelEfficiencyColumn,
        BankConflictColumn,
        ConstantPassesColumn,
        NsPerAccessColumn,
        // Hardware counters (counters_cells.hpp), in CountersField's order; empty without them.
        DramOverModelColumn,
        LoadSectorsColumn,
        StoreSectorsColumn,
        BankConflictsColumn,
        L1HitColumn,
        L2HitColumn,
        OccupancyColumn,
        ColumnCount
    };
    static constexpr int FirstCountersColumn = DramOverModelColumn;
    static constexpr int LastCountersColumn = OccupancyColumn;
    // Qt::DisplayRole is formatted text; RawRole holds the value to sort and compute with:
    // double for times, GB/s, %, errors and model figures (invalid QVariant when the run has no
    // number),
    // qulonglong elements for the size, bool for flags, QString otherwise.
    static constexpr int RawRole = Qt::UserRole;

    explicit ResultsModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // A new run starts: drops the rows, keeps the device and config it runs with.
    void beginRun(const DeviceInfo& device, const RunConfig& config, const std::string& started_at);
    // One result as the worker reports it.
    void appendResult(const RunResult& result);
    // The whole record (an opened file, or the runner's final record).
    void setRecord(RunRecord record);
    void setCancelled(bool cancelled);
    void clear();

    const RunRecord& record() const { return record_; }
    const RunResult& result(int row) const {
        return record_.runs.at(static_cast<std::size_t>(row));
    }
    const DeviceInfo& device() const { return record_.device; }
    bool isEmpty() const { return record_.runs.empty(); }
    // Whether a cell, or any cell of a column, has a value (the model columns are empty for
    // most operations).
    bool hasValue(int row, int column) const;
    bool hasValues(int column) const;
    // The columns that are empty unless the run's operation has a model or parameters (the
    // counters columns have their own rule: hasCountersInfo).
    static bool isSparseColumn(int column);
    // Some run has hardware counters or says why it has none (a counters pass ran).
    bool hasCountersInfo() const;

signals:
    // The device or config changed (chart titles name the device).
    void recordInfoChanged();

private:
    QVariant display(const RunResult& r, int column) const;
    QVariant raw(const RunResult& r, int column) const;
    QString toolTip(const RunResult& r, int column) const;

    RunRecord record_;
};

}  // namespace coalesce::gui
