#include "results_page.hpp"

#include "results/chart_widgets.hpp"
#include "results/results_model.hpp"
#include "results_table_proxy.hpp"

#include <QHeaderView>
#include <QMenu>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace coalesce::gui {

ResultsPage::ResultsPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    model_ = new ResultsModel(this);
    proxy_ = new ResultsTableProxy(this);
    proxy_->setSourceModel(model_);

    table_ = new QTableView(this);
    table_->setObjectName("resultsTable");
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(-1, Qt::AscendingOrder);  // run order until a header is clicked
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setAlternatingRowColors(true);
    table_->setWordWrap(false);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
    table_->verticalHeader()->hide();
    QHeaderView* header = table_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The variant id already starts with the operation: that column starts hidden, and the
    // header's context menu shows or hides any column.
    header->setSectionHidden(ResultsModel::OperationColumn, true);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, &ResultsPage::showColumnMenu);
    // The counters columns show once a counters pass looked at the runs (or a file has them).
    const auto counters_columns = [this, header] {
        for (int c = ResultsModel::FirstCountersColumn; c <= ResultsModel::LastCountersColumn; ++c)
            header->setSectionHidden(c, !model_->hasCountersInfo());
    };
    connect(model_, &QAbstractItemModel::modelReset, this, counters_columns);
    counters_columns();
    connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { emit currentResultChanged(currentRow()); });
    // The parameter and model columns show only while some run has a value in them.
    connect(model_, &QAbstractItemModel::modelReset, this,
            [this] { fitSparseColumns(0, model_->rowCount() - 1, true); });
    connect(
        model_, &QAbstractItemModel::rowsInserted, this,
        [this](const QModelIndex&, int first, int last) { fitSparseColumns(first, last, false); });
    fitSparseColumns(0, -1, true);

    charts_ = new ResultsChartsWidget(model_, this);
    charts_->setObjectName("charts");

    splitter_ = new QSplitter(Qt::Vertical, this);
    splitter_->setObjectName("resultsSplitter");
    splitter_->addWidget(charts_);
    splitter_->addWidget(table_);
    splitter_->setStretchFactor(0, 3);
    splitter_->setStretchFactor(1, 2);
    layout->addWidget(splitter_);
}

void ResultsPage::showColumnMenu(const QPoint& pos) {
    QHeaderView* header = table_->horizontalHeader();
    QMenu menu(this);
    for (int c = 0; c < model_->columnCount(); ++c) {
        QAction* a = menu.addAction(model_->headerData(c, Qt::Horizontal).toString());
        a->setCheckable(true);
        a->setChecked(!header->isSectionHidden(c));
        connect(a, &QAction::toggled, header,
                [header, c](bool on) { header->setSectionHidden(c, !on); });
    }
    menu.exec(header->mapToGlobal(pos));
}

void ResultsPage::fitSparseColumns(int first, int last, bool hide_empty) {
    QHeaderView* header = table_->horizontalHeader();
    for (int c = 0; c < model_->columnCount(); ++c) {
        if (!ResultsModel::isSparseColumn(c)) continue;
        bool any = false;
        for (int row = first; row <= last && !any; ++row) any = model_->hasValue(row, c);
        if (any || hide_empty) header->setSectionHidden(c, !any);
    }
}

void ResultsPage::selectResult(int row) {
    const QModelIndex index = proxy_->mapFromSource(model_->index(row, 0));
    table_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table_->scrollTo(index);
}

int ResultsPage::currentRow() const {
    const QModelIndex current = proxy_->mapToSource(table_->currentIndex());
    return current.isValid() && current.row() < model_->rowCount() ? current.row() : -1;
}

void ResultsPage::saveSettings(QSettings& settings) const {
    settings.setValue("window/resultsColumns", table_->horizontalHeader()->saveState());
    settings.setValue("window/resultsColumnCount", table_->horizontalHeader()->count());
}

void ResultsPage::restoreSettings(const QSettings& settings) {
    // Widths saved for another set of columns (before the Type column, say) would land on the
    // wrong ones: they are dropped.
    if (settings.value("window/resultsColumnCount").toInt() != table_->horizontalHeader()->count())
        return;
    const QByteArray columns = settings.value("window/resultsColumns").toByteArray();
    if (!columns.isEmpty()) table_->horizontalHeader()->restoreState(columns);
}

}  // namespace coalesce::gui
