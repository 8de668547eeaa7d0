#include "results_table_proxy.hpp"

#include "results/results_model.hpp"

namespace coalesce::gui {

ResultsTableProxy::ResultsTableProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(ResultsModel::RawRole);
}

QVariant ResultsTableProxy::headerData(int section, Qt::Orientation orientation, int role) const {
    QVariant value = QSortFilterProxyModel::headerData(section, orientation, role);
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return value;
    QString title = value.toString();
    // Break at the last space (or hyphen) of a long title; short ones stay on one line.
    if (title.size() > 7) {
        const qsizetype space = title.lastIndexOf(' ');
        const qsizetype hyphen = title.lastIndexOf('-');
        if (space > 0)
            title[space] = '\n';
        else if (hyphen > 0)
            title.insert(hyphen + 1, '\n');
    }
    return title;
}

}  // namespace coalesce::gui
