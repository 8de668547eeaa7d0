#include "run_worker.hpp"

#include "coalesce/device.hpp"

#include <exception>

namespace coalesce::gui {

void RunWorker::cancel() {
    std::lock_guard lock(mutex_);
    cancel_requested_ = true;
    if (current_) current_->cancel();
}

void RunWorker::probeDevice() {
    try {
        const int count = cuda_device_count();
        if (count == 0) {
            emit deviceProbed(0, host_info(), QString("No CUDA device: %1. The CPU variants run instead.")
                                     .arg(QString::fromStdString(no_device_reason())));
            return;
        }
        const DeviceInfo info = query_device(0);
        QString summary = QString("%1 (compute %2.%3, %4 SMs, %5 GB, L2 %6 MB)")
                              .arg(QString::fromStdString(info.name))
                              .arg(info.cc_major)
                              .arg(info.cc_minor)
                              .arg(info.sm_count)
                              .arg(static_cast<double>(info.memory_bytes) / 1e9, 0, 'f', 0)
                              .arg(static_cast<double>(info.l2_bytes) / (1024.0 * 1024.0), 0, 'f', 0);
        if (count > 1) summary += QString(", device 0 of %1").arg(count);
        emit deviceProbed(count, info, summary);
    } catch (const std::exception& e) {
        emit deviceProbed(0, host_info(), QString("No usable CUDA device: %1. The CPU variants run instead.").arg(e.what()));
    }
}

void RunWorker::run(coalesce::RunConfig config) {
    Runner runner(registry_);
    {
        std::lock_guard lock(mutex_);
        current_ = &runner;
        if (cancel_requested_) runner.cancel();
    }
    runner.on_progress = [this](const Progress& p) { emit progress(p); };
    runner.on_result = [this](const RunResult& r) { emit resultReady(r); };
    try {
        RunRecord record = runner.run(config);
        {
            std::lock_guard lock(mutex_);
            current_ = nullptr;
            cancel_requested_ = false;
        }
        emit finished(record);
    } catch (const std::exception& e) {
        {
            std::lock_guard lock(mutex_);
            current_ = nullptr;
            cancel_requested_ = false;
        }
        emit failed(QString::fromUtf8(e.what()));
    }
}

}  // namespace coalesce::gui
