#include "run_controller.hpp"

#include "run_worker.hpp"

#include "coalesce/host_memory.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>

namespace coalesce::gui {

RunController::RunController(const Registry& registry, QObject* parent)
    : QObject(parent), registry_(registry) {
    register_engine_metatypes();
    qRegisterMetaType<CountersRequest>();
    // The pass starts coalesce-bench under ncu: the one installed or built beside the app.
    counters_.bench = QDir(QCoreApplication::applicationDirPath()).filePath("coalesce-bench");
}

RunController::~RunController() {
    // The worker may be inside a run: stop it, then let the thread finish before members go.
    if (worker_) worker_->cancel(run_id_);
    thread_.quit();
    thread_.wait();
}

void RunController::start() {
    worker_ = new RunWorker(registry_);
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(this, &RunController::requestRun, worker_, &RunWorker::run);
    connect(worker_, &RunWorker::deviceProbed, this,
            [this](int count, const DeviceInfo& device, const QString& summary) {
                device_count_ = count;
                device_ = device;
                device_probed_ = true;
                emit probed(count, device, summary);
            });
    connect(worker_, &RunWorker::progress, this, &RunController::progress);
    connect(worker_, &RunWorker::resultReady, this, &RunController::resultReady);
    connect(worker_, &RunWorker::countersStarted, this, &RunController::countersStarted);
    connect(worker_, &RunWorker::countersCollected, this, &RunController::countersCollected);
    connect(worker_, &RunWorker::finished, this, [this](const RunRecord& record) {
        setRunning(false);
        emit finished(record);
    });
    connect(worker_, &RunWorker::failed, this, [this](const QString& message) {
        setRunning(false);
        emit failed(message);
    });
    thread_.setObjectName("coalesce-worker");
    thread_.start();
    QMetaObject::invokeMethod(worker_, &RunWorker::probeDevice, Qt::QueuedConnection);
}

QString RunController::startRun(RunConfig config) {
    if (running_) return "A run is in progress: cancel it first (Esc).";
    const std::vector<const Variant*> selected = Runner(registry_).select(config, hasDevice());
    if (selected.empty()) return "No variant of the chosen operations can run here.";
    RunConfig kept = config;
    kept.keep_outputs = true;
    const double kept_bytes = static_cast<double>(kept_output_bytes(kept, selected));
    config.keep_outputs = kept_bytes <= keep_budget_;
    if (!config.keep_outputs)
        emit log(QString("Outputs are not kept for this run: they would need %1 GB.")
                     .arg(kept_bytes / 1e9, 0, 'f', 1));
    if (const std::string why = host_memory_shortfall(config, selected, available_memory_);
        !why.empty())
        return QString("Not enough host memory for this run: %1.").arg(QString::fromStdString(why));
    setRunning(true);
    emit runStarted(config);
    emit requestRun(config, ++run_id_, counters_);
    return {};
}

void RunController::cancel() {
    if (!running_) return;
    worker_->cancel(run_id_);  // a direct call: the worker is busy inside the run
    emit log("Cancel requested.");
}

void RunController::stopAndWait() {
    if (!running_) return;
    QEventLoop loop;
    connect(this, &RunController::finished, &loop, &QEventLoop::quit);
    connect(this, &RunController::failed, &loop, &QEventLoop::quit);
    cancel();
    if (running_) loop.exec(QEventLoop::ExcludeUserInputEvents);
}

void RunController::setRunning(bool running) { running_ = running; }

}  // namespace coalesce::gui
