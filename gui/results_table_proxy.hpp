// The results table's view of the results model: sortable on the raw values, and with long
// column titles broken onto two lines ("Bandwidth" over "[GB/s]") so every column fits the window.
#pragma once

#include <QSortFilterProxyModel>

namespace coalesce::gui {

class ResultsTableProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit ResultsTableProxy(QObject* parent = nullptr);
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
};

}  // namespace coalesce::gui
