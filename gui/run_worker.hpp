// Owns all CUDA work of the application. Lives on its own QThread; the window talks to it through
// queued signals carrying value types, so the window never waits for a device.
#pragma once

#include "engine_metatypes.hpp"

#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <mutex>

namespace coalesce::gui {

// After the timed run, a counters pass (collect_counters: one profiled launch of each verified GPU
// run under Nsight Compute) on the worker thread, when enabled.
struct CountersRequest {
    bool enabled = false;
    QString bench;            // coalesce-bench, the process ncu profiles
    QStringList plugin_dirs;  // plugins the run loaded besides the default search path
};

class RunWorker : public QObject {
    Q_OBJECT
public:
    // The registry must outlive the worker and stay unchanged while it runs.
    explicit RunWorker(const Registry& registry) : registry_(registry) {}

    // Thread-safe, called directly from the window's thread (a queued call would wait for the run
    // to end). Cancels every run numbered up to `run_id`: the one in progress stops after its
    // current launch batch, one still queued starts cancelled, later runs are not affected.
    void cancel(quint64 run_id);

public slots:
    void probeDevice();
    // run_id: increasing numbers chosen by the caller, used by cancel(). A cancel during the
    // counters pass stops it; the timed results stay, each run's counters status says
    // "cancelled".
    void run(coalesce::RunConfig config, quint64 run_id,
             coalesce::gui::CountersRequest counters = {});

signals:
    // device: device 0, or the host without one; summary: "NVIDIA H200 (compute 9.0, 132 SMs,
    // ...)" or "No CUDA device: <reason>. ..."
    void deviceProbed(int device_count, const coalesce::DeviceInfo& device, const QString& summary);
    void progress(const coalesce::Progress& progress);
    void resultReady(const coalesce::RunResult& result);
    void finished(const coalesce::RunRecord& record);
    // The counters pass starts on `planned` runs (verified GPU runs; 0: none qualifies), and
    // how it ended: runs measured, and the one reason that covers those without (may be empty).
    void countersStarted(int planned);
    void countersCollected(int planned, int measured, const QString& problem);
    // The run could not start or ended with an exception; the window shows the message.
    void failed(const QString& message);

private:
    void collectCounters(RunRecord& record, quint64 run_id, const CountersRequest& request);

    const Registry& registry_;
    std::atomic<quint64> cancelled_up_to_{0};  // runs with ids <= this are cancelled
    std::mutex mutex_;                         // guards current_ and current_id_
    Runner* current_ = nullptr;                // the runner of the run in progress
    quint64 current_id_ = 0;
};

}  // namespace coalesce::gui

Q_DECLARE_METATYPE(coalesce::gui::CountersRequest)
