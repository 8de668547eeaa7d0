// MainWindow: its parts put together, its settings, closing, drops and messages.
#include "main_window.hpp"

#include "background_pool.hpp"
#include "image_panes.hpp"
#include "input_loader.hpp"
#include "input_panel.hpp"
#include "matrix_view.hpp"
#include "results/chart_widgets.hpp"
#include "results_page.hpp"
#include "run_controller.hpp"
#include "run_panel.hpp"

#include "coalesce/kernels.hpp"

#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QLabel>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTimer>

#ifndef COALESCE_VERSION
#define COALESCE_VERSION "unknown"
#endif

namespace coalesce::gui {

MainWindow::MainWindow(const QStringList& plugin_dirs, QWidget* parent,
                       const std::vector<Lesson>& lessons)
    : QMainWindow(parent), lessons_(lessons) {
    setWindowTitle("Coalesce");
    setAcceptDrops(true);

    // The registry is filled once, before the worker starts, and only read afterwards.
    register_builtin_variants(registry_);
    std::vector<std::filesystem::path> extra;
    for (const QString& d : plugin_dirs) extra.emplace_back(d.toStdString());
    plugin_reports_ = load_plugins(registry_, extra);

    runs_ = new RunController(registry_, this);
    runs_->setPluginDirs(plugin_dirs);
    loader_ = new InputLoader(this);
    createActions();
    setCentralWidget(createCentralArea());
    createDocks();
    createMenus();
    createStatusBar();

    int refused = 0;
    for (const PluginReport& report : plugin_reports_) {
        if (report.loaded) {
            log(QString("Plugin %1: %2 variants")
                    .arg(QString::fromStdString(report.file.string()))
                    .arg(report.variants));
        } else {
            ++refused;
            log(QString("Plugin refused: %1").arg(QString::fromStdString(report.message)));
        }
    }
    if (refused > 0)
        statusBar()->showMessage(QString("%1 plugin(s) refused; the log says why.").arg(refused),
                                 15000);
    log(QString("%1 variants registered.").arg(registry_.size()));

    connect(loader_, &InputLoader::loaded, this, &MainWindow::setInput);
    connect(loader_, &InputLoader::failed, this, [this](const QString& message) {
        showError(message);
        emit inputFailed(message);
        emitIdleIfDone();
    });
    connect(panes_, &ImagePanes::picturesShown, this, [this] {
        emit picturesShown();
        emitIdleIfDone();
    });
    restoreSettings();
    setRunning(false);
    connectRuns();
    runs_->start();
}

MainWindow::~MainWindow() { settings_writer()->waitForDone(); }

QString MainWindow::aboutText() {
    return QString(
               "<b>Coalesce</b> %1<br><br>"
               "Measures how CUDA memory spaces move data: global, pitched, shared and "
               "texture memory, on transposes, sums and filters.<br><br>"
               "Every number is verified against a CPU reference before it is shown. GB/s "
               "counts each input element read once and each output element written once.")
        .arg(QString("version ") + COALESCE_VERSION);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) resize(1400, 900);
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: a narrow settings column leaves the width to the table and charts. Docks
        // take their sizes once the window is laid out, hence after the event loop starts.
        QTimer::singleShot(0, this, [this] {
            resizeDocks({findChild<QDockWidget*>("inputDock"), findChild<QDockWidget*>("runDock")},
                        {250, 250}, Qt::Horizontal);
            resizeDocks({lessons_dock_}, {700}, Qt::Horizontal);
            // The input needs its few lines; the run settings take the rest of the column.
            auto* input = findChild<QDockWidget*>("inputDock");
            resizeDocks({input}, {input->widget()->minimumSizeHint().height()}, Qt::Vertical);
        });
    }
    for (QSplitter* splitter : findChildren<QSplitter*>())
        splitter->restoreState(settings.value("window/" + splitter->objectName()).toByteArray());
    results_page_->restoreSettings(settings);
    run_panel_->restoreSettings(settings);
    input_panel_->setChannel(
        static_cast<ChannelChoice>(settings.value("input/channel", 0).toInt()));
    input_panel_->setKeepColour(settings.value("input/colour", false).toBool());
}

void MainWindow::saveSettings() const {
    settings_writer()->waitForDone();  // writes still queued land first, then these
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    for (QSplitter* splitter : findChildren<QSplitter*>())
        settings.setValue("window/" + splitter->objectName(), splitter->saveState());
    results_page_->saveSettings(settings);
    run_panel_->saveSettings(settings);
    settings.setValue("input/channel", static_cast<int>(input_panel_->channel()));
    settings.setValue("input/colour", input_panel_->keepColour());
    if (input_ && !input_->path.empty())
        settings.setValue("input/last", QString::fromStdString(input_->path.string()));
}

bool MainWindow::confirmDiscardResults(const QString& question) {
    if (!unsaved_) return true;
    emit closePrompted(question);
    QMessageBox::StandardButton answer = close_prompt_answer_;
    if (answer == QMessageBox::NoButton) {
        answer = QMessageBox::question(
            this, "Unsaved results", question,
            QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    }
    if (answer == QMessageBox::Save) return chooseAndSaveResults();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // A run is stopped first, never left going behind a dialog; its partial results are then
    // unsaved results like any others, so the question below is asked about them too.
    QString question = "The results of the last run are not saved. Save them before closing?";
    if (isRunning()) {
        log("Closing the window: stopping the run.");
        runs_->stopAndWait();
        question =
            "The run was stopped to close the window. Its results so far are not saved. "
            "Save them before closing?";
    }
    if (!confirmDiscardResults(question)) {
        event->ignore();
        return;
    }
    saveSettings();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.front().isLocalFile()) return;
    const QString path = urls.front().toLocalFile();
    if (path.endsWith(".json", Qt::CaseInsensitive) || path.endsWith(".csv", Qt::CaseInsensitive))
        openResults(path);
    else
        openFile(path);
    event->acceptProposedAction();
}

bool MainWindow::isBusy() const { return loader_->isBusy() || panes_->isBusy(); }

void MainWindow::emitIdleIfDone() {
    if (!isBusy()) emit idle();
}

void MainWindow::showError(const QString& message) {
    error_bar_->setText(message);
    error_bar_->show();
    log("Error: " + message);
    emit errorShown(message);
}

void MainWindow::clearError() {
    error_bar_->clear();
    error_bar_->hide();
}

QString MainWindow::errorText() const {
    return error_bar_->isHidden() ? QString() : error_bar_->text();
}

QString MainWindow::logText() const { return log_->toPlainText(); }

void MainWindow::log(const QString& line) {
    log_->appendPlainText(QDateTime::currentDateTime().toString("HH:mm:ss  ") + line);
}

ResultsModel* MainWindow::resultsModel() const { return results_page_->model(); }
QTableView* MainWindow::resultsView() const { return results_page_->table(); }
ResultsChartsWidget* MainWindow::charts() const { return results_page_->charts(); }
MatrixView* MainWindow::inputView() const { return panes_->inputView(); }
MatrixView* MainWindow::outputView() const { return panes_->outputView(); }
MatrixView* MainWindow::differenceView() const { return panes_->differenceView(); }

}  // namespace coalesce::gui
