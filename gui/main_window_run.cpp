// MainWindow: starting and cancelling runs through the RunController, showing results as they
// arrive, showing the selected result's pictures, running a lesson.
#include "main_window.hpp"

#include "image_panes.hpp"
#include "input_loader.hpp"
#include "lessons_panel.hpp"
#include "results/counters_cells.hpp"
#include "results/results_model.hpp"
#include "results_page.hpp"
#include "run_controller.hpp"
#include "run_panel.hpp"

#include <QAction>
#include <QDateTime>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>

namespace coalesce::gui {

bool MainWindow::isRunning() const { return runs_->isRunning(); }
bool MainWindow::hasDevice() const { return runs_->hasDevice(); }
bool MainWindow::deviceProbed() const { return runs_->deviceProbed(); }

void MainWindow::connectRuns() {
    connect(runs_, &RunController::probed, this, &MainWindow::onDeviceProbed);
    connect(runs_, &RunController::log, this, &MainWindow::log);
    connect(runs_, &RunController::progress, this, [this](const Progress& p) {
        progress_->setRange(0, static_cast<int>(p.total));
        progress_->setValue(static_cast<int>(p.done));
        if (!p.what.empty()) statusBar()->showMessage(QString::fromStdString(p.what));
    });
    connect(runs_, &RunController::resultReady, this, [this](const RunResult& result) {
        resultsModel()->appendResult(result);
        if (result.status == Status::failed)
            log(QString("%1 failed: %2")
                    .arg(QString::fromStdString(result.variant),
                         QString::fromStdString(result.error)));
    });
    connect(runs_, &RunController::countersStarted, this, [this](int planned) {
        if (planned > 0)
            log(QString("Hardware counters: profiling one launch of each of %1 verified GPU runs "
                        "under Nsight Compute…")
                    .arg(planned));
    });
    connect(runs_, &RunController::countersCollected, this,
            [this](int planned, int measured, const QString& problem) {
                if (planned == 0 || measured == 0)
                    log("Hardware counters: none. " + problem);
                else if (measured < planned)
                    log(QString("Hardware counters: %1 of %2 runs measured%3 (each cell's "
                                "tooltip says why)")
                            .arg(measured)
                            .arg(planned)
                            .arg(problem.isEmpty() ? QString() : "; " + problem));
                else
                    log(QString("Hardware counters: all %1 runs measured.").arg(measured));
            });
    connect(runs_, &RunController::runStarted, this, &MainWindow::onRunStarted);
    connect(runs_, &RunController::finished, this, &MainWindow::onFinished);
    connect(runs_, &RunController::failed, this, &MainWindow::onFailed);
}

void MainWindow::onDeviceProbed(int count, const DeviceInfo&, const QString& summary) {
    run_panel_->setDeviceAvailable(count > 0, summary);
    lessons_panel_->setDeviceAvailable(count > 0);
    device_label_->setText(count > 0 ? summary : "No CUDA device: CPU variants only");
    device_label_->setToolTip(summary);
    if (count == 0) device_label_->setStyleSheet("QLabel { color: #8a4b00; font-weight: bold; }");
    log(summary);
    emit deviceReady();
}

bool MainWindow::startRun() { return startRun({}); }

bool MainWindow::startRun(const std::function<void(RunConfig&)>& adjust) {
    if (isRunning()) return false;
    QString error;
    std::optional<RunConfig> config = run_panel_->makeConfig(&error);
    if (config && run_panel_->useLoadedInput()) {
        attach_input(*config, *input_);
    }
    if (config && adjust) adjust(*config);
    runs_->setCountersEnabled(run_panel_->countersRequested());
    if (config) error = runs_->startRun(*config);
    if (!error.isEmpty()) {
        showError(error);
        return false;
    }
    return true;
}

void MainWindow::onRunStarted(const RunConfig& config) {
    const QString now = QDateTime::currentDateTimeUtc().toString(Qt::ISODate);
    resultsModel()->beginRun(runs_->device(), config, now.toStdString());
    clearError();
    panes_->showMessages("Running…");
    progress_->setRange(0, 0);  // busy until the first progress report gives the total
    setRunning(true);
    log(QString("Run started: %1 variants, %2")
            .arg(config.variants.size())
            .arg(config.input ? QString("on the loaded input")
                              : QString("sizes %1").arg(format_sizes(config.sizes))));
}

void MainWindow::cancelRun() {
    if (!isRunning()) return;
    runs_->cancel();
    statusBar()->showMessage("Cancelling after the current launch batch…");
}

void MainWindow::onFinished(const RunRecord& record) {
    // The runner's record is the whole truth, cancelled entries included: it replaces the rows
    // that arrived one by one.
    resultsModel()->setRecord(record);
    setRunning(false);
    statusBar()->clearMessage();
    std::size_t ok = 0, failed = 0, cancelled = 0;
    for (const RunResult& r : record.runs) {
        ok += r.status == Status::ok;
        failed += r.status == Status::failed;
        cancelled += r.status == Status::cancelled;
    }
    log(QString("Run %1: %2 ok, %3 failed, %4 cancelled, %5 total.")
            .arg(record.cancelled ? "cancelled" : "finished")
            .arg(ok)
            .arg(failed)
            .arg(cancelled)
            .arg(record.runs.size()));
    for (const QString& line : countersNotes(record)) log(line);
    if (failed > 0)
        showError(QString("%1 run(s) failed; see the Status column and the log.").arg(failed));
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
    if (shown >= 0)
        selectResult(shown);
    else
        showNoOutputs(record, record.cancelled ? "the run was cancelled before any output was kept"
                                               : QString());
    emit runFinished(record.cancelled);
}

void MainWindow::onFailed(const QString& message) {
    resultsModel()->setCancelled(true);
    setRunning(false);
    statusBar()->clearMessage();
    showError("The run stopped: " + message);
    showNoOutputs(resultsModel()->record(), "the run stopped: " + message);
    emit runFailed(message);
}

void MainWindow::showNoOutputs(const RunRecord& record, const QString& why) {
    QString reason = why;
    if (reason.isEmpty() && !record.config.keep_outputs)
        reason = "outputs are kept only while they fit in 1 GB, and this run's would not";
    if (reason.isEmpty()) reason = "no run produced an output";
    panes_->showMessages(
        QString("No output to show: %1.\nSelect a row to see its numbers.").arg(reason));
    emitIdleIfDone();
}

void MainWindow::setRunning(bool running) {
    run_action_->setEnabled(!running && run_panel_->parametersValid());
    cancel_action_->setEnabled(running);
    run_panel_->setRunning(running);
    lessons_panel_->setRunning(running);
    if (!running) {
        progress_->setRange(0, 1);
        progress_->setValue(progress_->maximum());
    }
}

void MainWindow::selectResult(int row) {
    if (results_page_->currentRow() == row)
        showResult(row);  // selecting it again does not change the selection
    else
        results_page_->selectResult(row);
}

void MainWindow::showResult(int row) {
    if (row < 0 || row >= resultsModel()->rowCount()) return;
    panes_->showResult(resultsModel()->result(row), resultsModel()->record().config);
}

bool MainWindow::runLesson(const Lesson& lesson) {
    const QString why = lessons_panel_->whyNotRunnable(lesson);
    if (!why.isEmpty()) {
        showError(QString("The lesson \"%1\" cannot run here: %2")
                      .arg(QString::fromStdString(lesson.title), why));
        return false;
    }
    run_panel_->applyLesson(lesson);
    log(QString("Lesson: %1").arg(QString::fromStdString(lesson.title)));
    showChart("bandwidth");
    // The run panel holds the lesson's variants, sizes and filter parameters; its parameter sweep
    // and tiers travel in the run's config, so a lesson sweeps whatever the panel shows.
    return startRun([&lesson](RunConfig& config) {
        config.sweep = lesson.sweep;
        config.tiers = lesson.tiers;
    });
}

}  // namespace coalesce::gui
