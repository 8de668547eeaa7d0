// The bar chart's table, derived from the results model: one row per variant measured at one input
// size, one column per operation. A cell holds the variant's GB/s in its own operation's column and
// 0 elsewhere, so a stacked bar series through QVBarModelMapper draws one bar per variant, coloured
// and grouped by operation. (The results model has one row per run, mixed sizes and operations;
// a bar mapper needs categories as rows and bar sets as columns, hence this pivot.)
#pragma once

#include "coalesce/matrix.hpp"

#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace coalesce::gui {

class ResultsModel;

class BandwidthBarsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    explicit BandwidthBarsModel(const ResultsModel* source, QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;  // [GB/s]
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Input sizes with at least one plottable run, smallest first.
    const std::vector<Shape>& sizes() const { return sizes_; }
    // The size shown; unset follows the largest size as results arrive.
    void setSize(std::optional<Shape> size);
    Shape shownSize() const { return shown_; }

    // The same run's copy for one element type of the drawn runs: the runner's copy_gbps (a copy
    // of that type's input bytes), or without one the best "copy" variant of that type.
    struct CopyReference {
        QString type;       // type_label: "u8", "u16", "u8x3", "f32"
        double gbps = 0.0;  // [GB/s]; 0 when the run has neither
    };
    // One per element type drawn, in the order met: the copy baselines differ by byte count (a u8
    // copy moves a quarter of an f32 one's bytes in as many launches), so each type has its own.
    const std::vector<CopyReference>& copyReferences() const { return copies_; }
    // [GB/s] the copy of `type` at the shown size; with no type, the copy of the drawn runs' one
    // type, or 0 when they have several (no single copy is the reference then).
    double copyReferenceGbps(const QString& type = {}) const;
    // Runs at the shown size that are not drawn: failed, skipped, cancelled or unverified.
    int hiddenRuns() const { return hidden_runs_; }
    // Every drawn run fits in the L2 (the bars measure the cache, not DRAM).
    bool allCacheResident() const { return all_cache_resident_; }
    // The element types of the drawn runs, for the chart's title: "float32", "u8", "u8, u16",
    // "u8x3" (a colour run); empty when nothing is drawn.
    QString typesText() const;
    QString deviceName() const;

    // Rows last-to-first: Qt Charts 6.4 draws the first category of a horizontal bar chart at the
    // bottom and ignores QAbstractAxis::reverse on a category axis, so the chart asks for reversed
    // rows to read top-down.
    void setReversedRows(bool reversed);

    // Only variants of this tier ("classic", "tuned", "experiment"); empty: every tier.
    void setTier(const QString& tier);
    QString tier() const { return tier_; }
    // The tiers of the plottable runs at the shown size, in the engine's order.
    const QStringList& tiers() const { return tiers_; }

    // First rows (on top), one per element type, and a last column of their own for the copy of
    // the same run, so the copy is read like any bar (with its value) instead of as a line
    // through the labels.
    void setCopyReferenceRow(bool shown);
    // A copy row's name: "device copy, same run", or "host copy, same run" for host runs; with
    // several types drawn, each row names its type as the variants' rows do ("..., same run
    // (u8)").
    QString copyReferenceLabel(const QString& type = {}) const;
    // The copy's column; -1 when it has none.
    int copyReferenceColumn() const { return copy_column_; }

private:
    void rebuild();

    const ResultsModel* source_;
    std::optional<Shape> requested_;
    bool reversed_ = false;
    bool copy_row_ = false;
    int copy_column_ = -1;
    bool host_copy_ = false;  // every drawn run is a host one: the copy is a host memcpy
    QString tier_;
    QStringList tiers_;
    QStringList types_;  // type_label of the drawn runs, in the order met
    Shape shown_;
    std::vector<Shape> sizes_;
    QStringList variants_;          // rows
    QStringList ops_;               // columns
    std::vector<int> row_op_;       // column index of each row's operation
    std::vector<double> row_gbps_;  // [GB/s]
    std::vector<CopyReference> copies_;
    int hidden_runs_ = 0;
    bool all_cache_resident_ = false;
};

}  // namespace coalesce::gui
