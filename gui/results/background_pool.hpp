// The threads the window's background work runs on, and freeing large buffers there.
#pragma once

#include <QRunnable>
#include <QThreadPool>

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

}  // namespace coalesce::gui
