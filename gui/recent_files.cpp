#include "recent_files.hpp"

#include "background_pool.hpp"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace coalesce::gui {

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    for (const QString& f : QSettings().value("recentFiles").toStringList())
        if (QFileInfo::exists(f) && !files_.contains(f)) files_ << f;
    rebuild();
}

void RecentFiles::add(const QString& path) {
    const QString absolute = QFileInfo(path).absoluteFilePath();
    files_.removeAll(absolute);
    files_.prepend(absolute);
    while (files_.size() > kMaxEntries) files_.removeLast();
    save();
    rebuild();
}

void RecentFiles::rebuild() {
    menu_->clear();
    int n = 1;
    for (const QString& f : files_) {
        QAction* action =
            menu_->addAction(QString("&%1 %2").arg(n % 10).arg(QDir::toNativeSeparators(f)));
        connect(action, &QAction::triggered, this, [this, f] { emit openRequested(f); });
        ++n;
    }
    if (files_.isEmpty())
        menu_->addAction("(none)")->setEnabled(false);
    else {
        menu_->addSeparator();
        connect(menu_->addAction("Clear list"), &QAction::triggered, this, [this] {
            files_.clear();
            save();
            rebuild();
        });
    }
}

void RecentFiles::save() const { store_setting("recentFiles", files_); }

}  // namespace coalesce::gui
