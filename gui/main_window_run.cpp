// MainWindow: the worker thread, starting and cancelling runs, showing results as they arrive.
#include "main_window.hpp"

#include "matrix_image.hpp"
#include "matrix_view.hpp"
#include "results/results_model.hpp"
#include "run_panel.hpp"
#include "run_worker.hpp"

#include <QAction>
#include <QDateTime>
#include <QLabel>
#include <QProgressBar>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTableView>

namespace coalesce::gui {
namespace {

// Outputs and references are kept for the image views only while they fit in this much memory.
constexpr double kKeepOutputsBudget = 1024.0 * 1024.0 * 1024.0;  // [bytes]

double kept_bytes(const RunConfig& config) {
    double elements = 0;
    if (config.input) elements = static_cast<double>(config.input->size());
    for (const Shape& s : config.sizes) elements += static_cast<double>(s.elements());
    // An output and a reference of at most the input's size, float32, per variant.
    return elements * static_cast<double>(config.variants.size()) * 2.0 * sizeof(float);
}

}  // namespace

void MainWindow::startWorker() {
    register_engine_metatypes();
    worker_ = new RunWorker(registry_);
    worker_->moveToThread(&worker_thread_);
    connect(&worker_thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(this, &MainWindow::requestRun, worker_, &RunWorker::run);
    connect(worker_, &RunWorker::deviceProbed, this, &MainWindow::onDeviceProbed);
    connect(worker_, &RunWorker::progress, this, &MainWindow::onProgress);
    connect(worker_, &RunWorker::resultReady, this, &MainWindow::onResult);
    connect(worker_, &RunWorker::finished, this, &MainWindow::onFinished);
    connect(worker_, &RunWorker::failed, this, &MainWindow::onFailed);
    worker_thread_.setObjectName("coalesce-worker");
    worker_thread_.start();
    QMetaObject::invokeMethod(worker_, &RunWorker::probeDevice, Qt::QueuedConnection);
}

void MainWindow::onDeviceProbed(int count, const DeviceInfo& device, const QString& summary) {
    device_count_ = count;
    device_ = device;
    device_probed_ = true;
    run_panel_->setDeviceAvailable(count > 0, summary);
    device_label_->setText(count > 0 ? summary : "No CUDA device: CPU variants only");
    device_label_->setToolTip(summary);
    if (count == 0) device_label_->setStyleSheet("QLabel { color: #8a4b00; font-weight: bold; }");
    log(summary);
    emit deviceReady();
}

bool MainWindow::startRun() {
    if (running_) return false;
    QString error;
    std::optional<RunConfig> config = run_panel_->makeConfig(&error);
    if (!config) {
        showError(error);
        return false;
    }
    if (run_panel_->useLoadedInput()) config->input = input_->matrix;
    config->keep_outputs = kept_bytes(*config) <= kKeepOutputsBudget;
    if (!config->keep_outputs)
        log(QString("Outputs are not kept for this run: they would need %1 GB.").arg(kept_bytes(*config) / 1e9, 0, 'f', 1));
    clearError();
    results_model_->beginRun(device_, *config, QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString());
    output_view_->clear("Running…");
    difference_view_->clear({});
    progress_->setRange(0, 0);  // busy until the first progress report gives the total
    setRunning(true);
    log(QString("Run started: %1 variants, %2").arg(config->variants.size())
            .arg(config->input ? QString("on the loaded input") : QString("sizes %1").arg(format_sizes(config->sizes))));
    emit requestRun(*config, ++run_id_);
    return true;
}

void MainWindow::cancelRun() {
    if (!running_) return;
    worker_->cancel(run_id_);  // a direct call: the worker is busy inside the run
    statusBar()->showMessage("Cancelling after the current launch batch…");
    log("Cancel requested.");
}

void MainWindow::onProgress(const Progress& p) {
    progress_->setRange(0, static_cast<int>(p.total));
    progress_->setValue(static_cast<int>(p.done));
    if (!p.what.empty()) statusBar()->showMessage(QString::fromStdString(p.what));
}

void MainWindow::onResult(const RunResult& result) {
    results_model_->appendResult(result);
    if (result.status == Status::failed)
        log(QString("%1 failed: %2").arg(QString::fromStdString(result.variant), QString::fromStdString(result.error)));
}

void MainWindow::onFinished(const RunRecord& record) {
    // The runner's record is the whole truth, cancelled entries included: it replaces the rows
    // that arrived one by one.
    results_model_->setRecord(record);
    setRunning(false);
    statusBar()->clearMessage();
    std::size_t ok = 0, failed = 0, cancelled = 0;
    for (const RunResult& r : record.runs) {
        ok += r.status == Status::ok;
        failed += r.status == Status::failed;
        cancelled += r.status == Status::cancelled;
    }
    log(QString("Run %1: %2 ok, %3 failed, %4 cancelled, %5 total.")
            .arg(record.cancelled ? "cancelled" : "finished").arg(ok).arg(failed).arg(cancelled).arg(record.runs.size()));
    if (failed > 0) showError(QString("%1 run(s) failed; see the Status column and the log.").arg(failed));
    unsaved_ = !record.runs.empty();
    // Show an output at once: a transpose if there is one (its output visibly differs from the
    // input), otherwise the first result that kept an output.
    int shown = -1;
    for (std::size_t i = 0; i < record.runs.size(); ++i) {
        if (!record.runs[i].output) continue;
        if (shown < 0) shown = static_cast<int>(i);
        if (record.runs[i].op == op_name(Op::transpose)) {
            shown = static_cast<int>(i);
            break;
        }
    }
    if (shown >= 0) selectResult(shown);
    emit runFinished(record.cancelled);
}

void MainWindow::onFailed(const QString& message) {
    results_model_->setCancelled(true);
    setRunning(false);
    statusBar()->clearMessage();
    showError("The run stopped: " + message);
    emit runFailed(message);
}

void MainWindow::setRunning(bool running) {
    running_ = running;
    run_action_->setEnabled(!running);
    cancel_action_->setEnabled(running);
    run_panel_->setRunning(running);
    if (!running) {
        progress_->setRange(0, 1);
        progress_->setValue(progress_->maximum());
    }
}

void MainWindow::selectResult(int row) {
    const QModelIndex index = results_proxy_->mapFromSource(results_model_->index(row, 0));
    results_view_->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    results_view_->scrollTo(index);
}

void MainWindow::showRunInput(const RunResult& r) {
    // The input view shows what the selected output was computed from: the matrix the run was
    // given, or the runner's random matrix for a size of a sweep (reproducible from the seed).
    const RunConfig& config = results_model_->record().config;
    std::shared_ptr<const Matrix> input = config.input;
    QString what = "the run's input";
    if (!input) {
        if (!run_input_ || run_input_->shape() != Shape{r.rows, r.cols} || run_input_seed_ != config.seed) {
            run_input_ = std::make_shared<const Matrix>(Matrix::random(r.rows, r.cols, config.seed));
            run_input_seed_ = config.seed;
        }
        input = run_input_;
        what = QString("random (seed %1), the run's input").arg(config.seed);
    }
    if (input_view_->matrix() == input.get()) return;
    Rendered rendered = render_grey(*input);
    input_view_->setMatrix(input, rendered,
                           QString("%1 x %2, %3").arg(input->rows()).arg(input->cols()).arg(what));
}

void MainWindow::showSelectedResult() {
    const QModelIndex current = results_proxy_->mapToSource(results_view_->currentIndex());
    if (!current.isValid() || current.row() >= results_model_->rowCount()) return;
    const RunResult& r = results_model_->result(current.row());
    const QString name = QString("%1, %2 x %3").arg(QString::fromStdString(r.variant)).arg(r.rows).arg(r.cols);
    if (!r.output) {
        output_view_->clear(QString("%1: no output kept (%2).").arg(name,
            r.status != Status::ok ? QString::fromStdString(std::string(status_name(r.status))) +
                                         (r.error.empty() ? "" : ": " + QString::fromStdString(r.error))
                                   : QString("results from a file, or too large to keep")));
        difference_view_->clear({});
        return;
    }
    showRunInput(r);
    Rendered out = render_grey(*r.output);
    output_view_->setMatrix(r.output, out, QString("%1, %2 … %3").arg(name).arg(out.lo, 0, 'g', 5).arg(out.hi, 0, 'g', 5));
    if (!r.reference || r.reference->shape() != r.output->shape()) {
        difference_view_->clear("No CPU reference kept for this run.");
        return;
    }
    auto diff = std::make_shared<Matrix>(absolute_difference(*r.output, *r.reference));
    Rendered heat = render_heat(*diff);
    if (heat.hi == 0.0f)
        difference_view_->setMatrix(diff, heat, "identical to the CPU reference",
                                    "Identical to the CPU reference:\nevery element equal.");
    else
        difference_view_->setMatrix(diff, heat, QString("max |diff| = %1 (white)").arg(heat.hi, 0, 'g', 3));
}

}  // namespace coalesce::gui
