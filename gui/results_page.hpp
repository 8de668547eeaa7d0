// The results side of the window: the table of runs over the charts, both reading one
// ResultsModel. Selecting a row reports the result to show; the page itself computes nothing.
#pragma once

#include <QWidget>

class QSettings;
class QSplitter;
class QTableView;

namespace coalesce::gui {

class ResultsChartsWidget;
class ResultsModel;
class ResultsTableProxy;

class ResultsPage : public QWidget {
    Q_OBJECT
public:
    explicit ResultsPage(QWidget* parent = nullptr);

    ResultsModel* model() const { return model_; }
    QTableView* table() const { return table_; }
    ResultsChartsWidget* charts() const { return charts_; }
    QSplitter* splitter() const { return splitter_; }

    // Selects row `row` of the model (model order) and scrolls to it.
    void selectResult(int row);
    // The model row of the selected result; -1 when none.
    int currentRow() const;

    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

signals:
    // The selected result changed to model row `row`.
    void currentResultChanged(int row);

private:
    void showColumnMenu(const QPoint& pos);
    // Shows the sparse columns that rows first..last have values in; with hide_empty, hides the
    // others (the rows are then the whole table).
    void fitSparseColumns(int first, int last, bool hide_empty);

    ResultsModel* model_ = nullptr;
    ResultsTableProxy* proxy_ = nullptr;
    QTableView* table_ = nullptr;
    ResultsChartsWidget* charts_ = nullptr;
    QSplitter* splitter_ = nullptr;
};

}  // namespace coalesce::gui
