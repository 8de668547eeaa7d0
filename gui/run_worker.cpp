#include "run_worker.hpp"

#include "coalesce/counters_pass.hpp"
#include "coalesce/device.hpp"

#include <exception>
#include <string>

namespace coalesce::gui {

void RunWorker::cancel(quint64 run_id) {
    quint64 seen = cancelled_up_to_.load();
    while (seen < run_id && !cancelled_up_to_.compare_exchange_weak(seen, run_id)) {}
    std::lock_guard lock(mutex_);
    if (current_ && current_id_ <= run_id) current_->cancel();
}

void RunWorker::probeDevice() {
    try {
        const int count = cuda_device_count();
        if (count == 0) {
            emit deviceProbed(0, host_info(),
                              QString("No CUDA device: %1. The GPU variants are greyed out; the "
                                      "CPU variants run instead.")
                                  .arg(QString::fromStdString(no_device_reason())));
            return;
        }
        const DeviceInfo info = query_device(0);
        QString summary =
            QString("%1 (compute %2.%3, %4 SMs, %5 GB, L2 %6 MB)")
                .arg(QString::fromStdString(info.name))
                .arg(info.cc_major)
                .arg(info.cc_minor)
                .arg(info.sm_count)
                .arg(static_cast<double>(info.memory_bytes) / 1e9, 0, 'f', 0)
                .arg(static_cast<double>(info.l2_bytes) / (1024.0 * 1024.0), 0, 'f', 0);
        if (count > 1) summary += QString(", device 0 of %1").arg(count);
        emit deviceProbed(count, info, summary);
    } catch (const std::exception& e) {
        emit deviceProbed(0, host_info(),
                          QString("No usable CUDA device: %1. The GPU variants are greyed out; the "
                                  "CPU variants run instead.")
                              .arg(e.what()));
    }
}

void RunWorker::collectCounters(RunRecord& record, quint64 run_id, const CountersRequest& request) {
    // The engine's own choice of the runs to profile, made on a copy (planning resets statuses).
    RunRecord probe = record;
    const std::size_t planned = counters_steps::plan(probe, {}).runs.size();
    emit countersStarted(static_cast<int>(planned));
    Progress note;
    note.what = planned > 0
                    ? "Hardware counters: profiling one launch of each of " +
                          std::to_string(planned) + " verified GPU runs under Nsight Compute"
                    : "Hardware counters: no verified GPU run to profile";
    emit progress(note);
    CountersOptions options;
    options.bench = request.bench.toStdString();
    for (const QString& dir : request.plugin_dirs) options.plugin_dirs.push_back(dir.toStdString());
    options.cancelled = [this, run_id] { return cancelled_up_to_.load() >= run_id; };
    CountersSummary summary;
    try {
        summary = collect_counters(record, options);
    } catch (const std::exception& e) {
        // The timed results stand; only the pass is lost, and every run without counters says so.
        summary.planned = planned;
        summary.problem = std::string("the counters pass failed: ") + e.what();
        for (RunResult& r : record.runs)
            if (!r.counters && r.counters_status.empty()) r.counters_status = summary.problem;
    }
    emit countersCollected(static_cast<int>(summary.planned), static_cast<int>(summary.measured),
                           QString::fromStdString(summary.problem));
}

void RunWorker::run(coalesce::RunConfig config, quint64 run_id, CountersRequest counters) {
    Runner runner(registry_);
    {
        std::lock_guard lock(mutex_);
        current_ = &runner;
        current_id_ = run_id;
    }
    // Runner::run starts by clearing its cancel flag, so a cancel that came before the run started
    // is applied here, at the first progress report, before anything runs.
    runner.on_progress = [this, &runner, run_id](const Progress& p) {
        if (cancelled_up_to_.load() >= run_id) runner.cancel();
        emit progress(p);
    };
    runner.on_result = [this](const RunResult& r) { emit resultReady(r); };
    const auto forget_runner = [this] {
        std::lock_guard lock(mutex_);
        current_ = nullptr;
    };
    try {
        RunRecord record = runner.run(config);
        forget_runner();
        // A run cancelled during its timed part gets no counters pass: the person asked to stop.
        if (counters.enabled && !record.cancelled && cancelled_up_to_.load() < run_id)
            collectCounters(record, run_id, counters);
        emit finished(record);
    } catch (const std::exception& e) {
        forget_runner();
        emit failed(QString::fromUtf8(e.what()));
    }
}

}  // namespace coalesce::gui
