// The File ▸ Open Recent menu, remembered in QSettings (newest first, files that vanished dropped).
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace coalesce::gui {

class RecentFiles : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxEntries = 10;

    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    void add(const QString& path);  // moves it to the top and saves
    QStringList files() const { return files_; }

signals:
    void openRequested(const QString& path);

private:
    void rebuild();
    void save() const;

    QMenu* menu_;
    QStringList files_;
};

}  // namespace coalesce::gui
