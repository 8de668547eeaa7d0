// The threads the window's background work runs on, and freeing large buffers there.
#pragma once

#include <QRunnable>
#include <QSettings>
#include <QString>
#include <QThreadPool>
#include <QVariant>

#include <tuple>
#include <type_traits>
#include <utility>

namespace coalesce::gui {

// The window's own pool, not Qt's global one: Qt 6.4 paints and scales large images with tasks on
// the global pool and waits for them on the window's thread, so long jobs there would stall
// every paint until they end.
inline QThreadPool* background_pool() {
    static QThreadPool pool;
    return &pool;
}

namespace detail {

// Owns what it is given (moved in, never copied) and drops it when the pool runs it.
template <class Held>
class Release final : public QRunnable {
public:
    explicit Release(Held held) : held_(std::move(held)) {}
    void run() override { held_ = Held{}; }

private:
    Held held_;
};

}  // namespace detail

// Drops these owners (shared pointers, QImages, whole records) on the background pool: freeing a
// 256 MiB matrix unmaps memory, tens of milliseconds the event loop would otherwise stand still
// for. Where another owner remains, nothing is freed, wherever that happens.
template <class... Owners>
void release_elsewhere(Owners&&... owners) {
    using Held = std::tuple<std::decay_t<Owners>...>;
    background_pool()->start(new detail::Release<Held>(Held(std::forward<Owners>(owners)...)));
}

// The one thread settings are written on (one, so the last value asked for is the one kept).
inline QThreadPool* settings_writer() {
    static QThreadPool* writer = [] {
        static QThreadPool pool;
        pool.setMaxThreadCount(1);
        return &pool;
    }();
    return writer;
}

// Writes one setting on the settings thread: QSettings ends every write with fdatasync, which a
// busy disk can hold for longer than the event loop may stand still.
inline void store_setting(const QString& key, const QVariant& value) {
    settings_writer()->start([key, value] { QSettings().setValue(key, value); });
}

}  // namespace coalesce::gui
