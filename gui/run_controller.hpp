// Starts, cancels and follows runs for the window. Owns the worker thread (all CUDA work happens
// on it, in a RunWorker) and decides, before a run starts, whether the host can hold it and
// whether its outputs are kept for the image views. The window learns everything from signals.
#pragma once

#include "engine_metatypes.hpp"
#include "run_worker.hpp"

#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <QObject>
#include <QString>
#include <QThread>

#include <cstddef>
#include <optional>

namespace coalesce::gui {

class RunController : public QObject {
    Q_OBJECT
public:
    // Outputs and references are kept for the image views only while they fit in this much.
    static constexpr double kDefaultKeepBudget = 1024.0 * 1024.0 * 1024.0;  // [bytes]

    // The registry must outlive the controller and stay unchanged while runs go on.
    explicit RunController(const Registry& registry, QObject* parent = nullptr);
    // Cancels a run in progress and waits for the worker thread to end.
    ~RunController() override;

    // Starts the worker thread and asks it for the device (deviceProbed answers).
    void start();
    bool deviceProbed() const { return device_probed_; }
    bool hasDevice() const { return device_count_ > 0; }
    const DeviceInfo& device() const { return device_; }

    // Sends `config` to the worker. Returns an empty string, or why it cannot run (nothing
    // selected, not enough host memory); the run's outputs are kept when they fit the budget.
    QString startRun(RunConfig config);
    void cancel();
    bool isRunning() const { return running_; }
    // Cancels the run in progress and returns once the worker has reported its end (finished or
    // failed are emitted before this returns). Events are processed meanwhile.
    void stopAndWait();

    // After each timed run, a hardware counters pass on the worker thread (collect_counters).
    void setCountersEnabled(bool on) { counters_.enabled = on; }
    bool countersEnabled() const { return counters_.enabled; }
    // The coalesce-bench the pass profiles; by default the one next to the application.
    void setCountersBench(const QString& path) { counters_.bench = path; }
    QString countersBench() const { return counters_.bench; }
    void setPluginDirs(const QStringList& dirs) { counters_.plugin_dirs = dirs; }

    void setKeepOutputsBudget(double bytes) { keep_budget_ = bytes; }
    // Stands in for the host's available memory (tests); unset: /proc/meminfo.
    void setAvailableHostMemory(std::optional<std::size_t> bytes) { available_memory_ = bytes; }

signals:
    void probed(int device_count, const coalesce::DeviceInfo& device, const QString& summary);
    void runStarted(const coalesce::RunConfig& config);
    void progress(const coalesce::Progress& progress);
    void resultReady(const coalesce::RunResult& result);
    void finished(const coalesce::RunRecord& record);
    void failed(const QString& message);
    void log(const QString& line);
    void countersStarted(int planned);
    void countersCollected(int planned, int measured, const QString& problem);
    void requestRun(const coalesce::RunConfig& config, quint64 run_id,
                    const coalesce::gui::CountersRequest& counters);  // to the worker

private:
    void setRunning(bool running);

    const Registry& registry_;
    QThread thread_;
    RunWorker* worker_ = nullptr;  // lives on thread_
    int device_count_ = 0;
    bool device_probed_ = false;
    DeviceInfo device_;
    bool running_ = false;
    quint64 run_id_ = 0;  // the latest run sent to the worker
    double keep_budget_ = kDefaultKeepBudget;
    CountersRequest counters_;
    std::optional<std::size_t> available_memory_;
};

}  // namespace coalesce::gui
