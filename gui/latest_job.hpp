// Work for the window done off its thread, keeping only the newest: each start() runs a job on
// Qt's thread pool (QtConcurrent::run) and hands its result back to the window's thread through a
// QFutureWatcher; a job started while an older one runs supersedes it, so the older one's result
// is dropped (never shown after a newer one) and the older job can stop early by polling its
// `stale` predicate. The idea of KDAB/hotspot's JobTracker (a job id per start, results of
// superseded ids discarded), on QtConcurrent.
#pragma once

#include "background_pool.hpp"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <utility>

namespace coalesce::gui {

// True once a newer job has started (or the tracker was cancelled or destroyed): stop, the
// result will not be used.
using Stale = std::function<bool()>;

template <class Result>
class LatestJob {
public:
    // Results are delivered on `context`'s thread, never after `context` or this tracker is gone.
    explicit LatestJob(QObject* context) : context_(context) {}
    ~LatestJob() { cancel(); }
    LatestJob(const LatestJob&) = delete;
    LatestJob& operator=(const LatestJob&) = delete;

    // work(stale) -> Result runs on the pool and may throw; then, if no newer job was started,
    // done(Result) or failed(message) runs on the context's thread. Work must capture values
    // only: it may outlive the window.
    template <class Work, class Done, class Failed>
    void start(Work work, Done done, Failed failed) {
        const quint64 id = ++*latest_;
        Stale stale = [latest = latest_, id] { return latest->load() != id; };
        auto* watcher = new QFutureWatcher<Outcome>;
        drop(current_);
        current_ = watcher;
        QObject::connect(watcher, &QFutureWatcherBase::finished, context_,
                         [this, watcher, done = std::move(done), failed = std::move(failed)] {
                             if (watcher != current_) return;  // superseded; drop() deleted it
                             current_ = nullptr;
                             // Taken out, so the future frees nothing when the watcher goes.
                             Outcome outcome = watcher->future().takeResult();
                             watcher->deleteLater();
                             if (outcome.value)
                                 done(std::move(*outcome.value));
                             else
                                 failed(outcome.error);
                         });
        auto run = [work = std::move(work), stale]() -> Outcome {
            Outcome out;
            try {
                if (!stale()) out.value.emplace(work(stale));
            } catch (const std::bad_alloc&) {
                out.error = QStringLiteral("not enough memory");
            } catch (const std::exception& e) {
                out.error = QString::fromUtf8(e.what());
            }
            return out;
        };
        watcher->setFuture(QtConcurrent::run(background_pool(), std::move(run)));
    }

    // A job started and its result not yet delivered.
    bool isRunning() const { return current_ != nullptr; }

    // Drops the running job's result (the job itself ends at its next stale() check).
    void cancel() {
        ++*latest_;
        drop(current_);
        current_ = nullptr;
    }

private:
    struct Outcome {
        std::optional<Result> value;
        QString error;
    };

    // The job runs on to its next stale() check; its result, large perhaps, is freed on the pool.
    static void drop(QFutureWatcher<Outcome>* watcher) {
        if (!watcher) return;
        QObject::disconnect(watcher, nullptr, nullptr, nullptr);
        QObject::connect(watcher, &QFutureWatcherBase::finished, watcher, [watcher] {
            release_elsewhere(watcher->future().takeResult());
            watcher->deleteLater();
        });
    }

    QObject* context_;
    std::shared_ptr<std::atomic<quint64>> latest_ = std::make_shared<std::atomic<quint64>>(0);
    QFutureWatcher<Outcome>* current_ = nullptr;
};

}  // namespace coalesce::gui
