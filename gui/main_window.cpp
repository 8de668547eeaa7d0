#include "main_window.hpp"

#include "input_panel.hpp"
#include "matrix_view.hpp"
#include "recent_files.hpp"
#include "results_table_proxy.hpp"
#include "results/chart_widgets.hpp"
#include "results/results_model.hpp"
#include "run_panel.hpp"
#include "run_worker.hpp"

#include "coalesce/kernels.hpp"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace coalesce::gui {

MainWindow::MainWindow(const QStringList& plugin_dirs, QWidget* parent) : QMainWindow(parent) {
    setWindowTitle("Coalesce");
    setAcceptDrops(true);

    // The registry is filled once, before the worker starts, and only read afterwards.
    register_builtin_variants(registry_);
    std::vector<std::filesystem::path> extra;
    for (const QString& d : plugin_dirs) extra.emplace_back(d.toStdString());
    plugin_reports_ = load_plugins(registry_, extra);

    createActions();
    results_model_ = new ResultsModel(this);
    setCentralWidget(createCentralArea());
    createDocks();
    createMenus();
    createStatusBar();

    int refused = 0;
    for (const PluginReport& report : plugin_reports_) {
        if (report.loaded) {
            log(QString("Plugin %1: %2 variants").arg(QString::fromStdString(report.file.string())).arg(report.variants));
        } else {
            ++refused;
            log(QString("Plugin refused: %1").arg(QString::fromStdString(report.message)));
        }
    }
    if (refused > 0) statusBar()->showMessage(QString("%1 plugin(s) refused; the log says why.").arg(refused), 15000);
    log(QString("%1 variants registered.").arg(registry_.size()));

    restoreSettings();
    setRunning(false);
    startWorker();
}

MainWindow::~MainWindow() {
    // The worker may be inside a run: stop it, then let the thread finish before members go.
    if (worker_) worker_->cancel(run_id_);
    worker_thread_.quit();
    worker_thread_.wait();
}

void MainWindow::createActions() {
    const auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    open_action_ = make("&Open…", QKeySequence::Open, [this] { chooseAndOpen(); });
    open_action_->setToolTip("Open an image or OpenCV matrix file (Ctrl+O)");
    generate_action_ = make("&Generate Matrix…", QKeySequence(Qt::CTRL | Qt::Key_G), [this] { chooseAndGenerate(); });
    open_results_action_ = make("Open &Results…", {}, [this] { chooseAndOpenResults(); });
    compare_action_ = make("&Compare Two Results…", {}, [this] { chooseAndCompare(); });
    save_results_action_ = make("&Save Results…", QKeySequence::Save, [this] { chooseAndSaveResults(); });
    save_image_action_ = make("Save Output &Image…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                              [this] { chooseAndSaveOutputImage(); });
    export_chart_action_ = make("&Export Chart…", QKeySequence(Qt::CTRL | Qt::Key_E), [this] { chooseAndExportChart(); });
    quit_action_ = make("&Quit", QKeySequence(Qt::CTRL | Qt::Key_Q), [this] { close(); });
    run_action_ = make("&Run", QKeySequence(Qt::CTRL | Qt::Key_R), [this] { startRun(); });
    run_action_->setToolTip("Run the chosen variants (Ctrl+R)");
    cancel_action_ = make("&Cancel", QKeySequence(Qt::Key_Escape), [this] { cancelRun(); });
    cancel_action_->setToolTip("Stop the run after the current launch batch (Esc)");
    zoom_in_action_ = make("Zoom &In", QKeySequence(Qt::CTRL | Qt::Key_Equal), [this] { active_view_->zoomIn(); });
    zoom_in_action_->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    zoom_out_action_ = make("Zoom &Out", QKeySequence(Qt::CTRL | Qt::Key_Minus), [this] { active_view_->zoomOut(); });
    fit_action_ = make("&Fit to Window", QKeySequence(Qt::CTRL | Qt::Key_0), [this] { active_view_->fitToWindow(); });
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction(open_action_);
    recent_menu_ = file->addMenu("Open Re&cent");
    recent_ = new RecentFiles(recent_menu_, this);
    connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) {
        if (path.endsWith(".json", Qt::CaseInsensitive) || path.endsWith(".csv", Qt::CaseInsensitive))
            openResults(path);
        else
            openFile(path);
    });
    file->addAction(generate_action_);
    file->addSeparator();
    file->addAction(open_results_action_);
    file->addAction(compare_action_);
    file->addSeparator();
    file->addAction(save_results_action_);
    file->addAction(save_image_action_);
    file->addAction(export_chart_action_);
    file->addSeparator();
    file->addAction(quit_action_);

    QMenu* run = menuBar()->addMenu("&Run");
    run->addAction(run_action_);
    run->addAction(cancel_action_);

    view_menu_ = menuBar()->addMenu("&View");
    view_menu_->addAction(zoom_in_action_);
    view_menu_->addAction(zoom_out_action_);
    view_menu_->addAction(fit_action_);
    view_menu_->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>()) view_menu_->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&About Coalesce", this, [this] {
        QMessageBox::about(this, "About Coalesce",
                           "<b>Coalesce</b> measures how CUDA memory spaces move data: global, pitched, "
                           "shared and texture memory, on transposes, sums and filters.<br><br>"
                           "Every number is verified against a CPU reference before it is shown. "
                           "GB/s counts each input element read once and each output element written once.");
    });

    QToolBar* tools = addToolBar("Main");
    tools->setObjectName("mainToolBar");
    tools->setMovable(false);
    tools->addAction(open_action_);
    tools->addAction(generate_action_);
    tools->addSeparator();
    tools->addAction(run_action_);
    tools->addAction(cancel_action_);
    tools->addSeparator();
    tools->addAction(save_results_action_);
    tools->addAction(export_chart_action_);
}

QWidget* MainWindow::createCentralArea() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(2, 2, 2, 2);

    error_bar_ = new QLabel(central);
    error_bar_->setObjectName("errorBar");
    error_bar_->setWordWrap(true);
    error_bar_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_bar_->setStyleSheet("QLabel { background: #f8d7da; color: #721c24; border: 1px solid #f1aeb5; padding: 6px; }");
    error_bar_->hide();
    layout->addWidget(error_bar_);

    input_view_ = new MatrixView("Input", central);
    input_view_->setObjectName("inputView");
    output_view_ = new MatrixView("Output", central);
    output_view_->setObjectName("outputView");
    difference_view_ = new MatrixView("|Output − CPU reference|", central);
    difference_view_->setObjectName("differenceView");
    active_view_ = input_view_;
    input_view_->clear("Open an image (Ctrl+O), drop one here, or generate a matrix (Ctrl+G).");
    output_view_->clear("Select a row of the results table to see the output of that variant.");
    difference_view_->clear("The difference to the CPU reference, as a heat map (black: equal).");
    for (MatrixView* view : {input_view_, output_view_, difference_view_}) {
        connect(view, &MatrixView::hovered, this, [this, view](const QString& title, qlonglong row, qlonglong col, double value) {
            active_view_ = view;
            cursor_label_->setText(QString("%1  row %2, col %3:  %4").arg(title).arg(row).arg(col).arg(value, 0, 'g', 7));
        });
        connect(view, &MatrixView::hoverLeft, this, [this] { cursor_label_->clear(); });
    }

    // Three pictures stacked in a column beside the results: the table and the chart need the width.
    auto* images = new QSplitter(Qt::Vertical, central);
    images->setObjectName("imageSplitter");
    images->addWidget(input_view_);
    images->addWidget(output_view_);
    images->addWidget(difference_view_);

    results_proxy_ = new ResultsTableProxy(this);
    results_proxy_->setSourceModel(results_model_);
    results_view_ = new QTableView(central);
    results_view_->setObjectName("resultsTable");
    results_view_->setModel(results_proxy_);
    results_view_->setSortingEnabled(true);
    results_view_->sortByColumn(-1, Qt::AscendingOrder);  // run order until a header is clicked
    results_view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    results_view_->setSelectionMode(QAbstractItemView::SingleSelection);
    results_view_->setAlternatingRowColors(true);
    results_view_->setWordWrap(false);
    results_view_->verticalHeader()->setDefaultSectionSize(results_view_->fontMetrics().height() + 6);
    results_view_->verticalHeader()->hide();
    QHeaderView* header = results_view_->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The variant id already starts with the operation: that column starts hidden, and the
    // header's context menu shows or hides any column.
    header->setSectionHidden(ResultsModel::OperationColumn, true);
    header->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(header, &QWidget::customContextMenuRequested, this, [this, header](const QPoint& pos) {
        QMenu menu(this);
        for (int c = 0; c < results_model_->columnCount(); ++c) {
            QAction* a = menu.addAction(results_model_->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!header->isSectionHidden(c));
            connect(a, &QAction::toggled, header, [header, c](bool on) { header->setSectionHidden(c, !on); });
        }
        menu.exec(header->mapToGlobal(pos));
    });
    connect(results_view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this] { showSelectedResult(); });

    charts_ = new ResultsChartsWidget(results_model_, central);
    charts_->setObjectName("charts");

    auto* results = new QSplitter(Qt::Vertical, central);
    results->setObjectName("resultsSplitter");
    results->addWidget(charts_);
    results->addWidget(results_view_);
    results->setStretchFactor(0, 3);
    results->setStretchFactor(1, 2);

    auto* main = new QSplitter(Qt::Horizontal, central);
    main->setObjectName("centralSplitter");
    main->addWidget(images);
    main->addWidget(results);
    main->setStretchFactor(0, 1);
    main->setStretchFactor(1, 3);
    main->setSizes({250, 850});  // proportions until the person moves the handle
    layout->addWidget(main, 1);
    return central;
}

void MainWindow::createDocks() {
    input_panel_ = new InputPanel(open_action_, generate_action_, this);
    connect(input_panel_, &InputPanel::channelChanged, this, [this] { reloadWithChannel(); });
    auto* input_dock = new QDockWidget("Input", this);
    input_dock->setObjectName("inputDock");
    input_dock->setWidget(input_panel_);
    addDockWidget(Qt::LeftDockWidgetArea, input_dock);

    run_panel_ = new RunPanel(registry_, this);
    auto* run_box = new QWidget(this);
    auto* run_layout = new QVBoxLayout(run_box);
    run_layout->setContentsMargins(4, 4, 4, 4);
    run_layout->addWidget(run_panel_, 1);
    auto* buttons = new QHBoxLayout;
    for (QAction* action : {run_action_, cancel_action_}) {
        auto* b = new QToolButton(run_box);
        b->setDefaultAction(action);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        buttons->addWidget(b);
    }
    run_layout->addLayout(buttons);
    auto* run_dock = new QDockWidget("Run", this);
    run_dock->setObjectName("runDock");
    run_dock->setWidget(run_box);
    addDockWidget(Qt::LeftDockWidgetArea, run_dock);

    log_ = new QPlainTextEdit(this);
    log_->setObjectName("log");
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    auto* log_dock = new QDockWidget("Log", this);
    log_dock->setObjectName("logDock");
    log_dock->setWidget(log_);
    addDockWidget(Qt::BottomDockWidgetArea, log_dock);
    // The settings column runs the full height; the log sits under the pictures and results.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

    resizeDocks({log_dock}, {90}, Qt::Vertical);
}

void MainWindow::createStatusBar() {
    device_label_ = new QLabel("Probing for a CUDA device…", this);
    device_label_->setObjectName("deviceLabel");
    cursor_label_ = new QLabel(this);
    cursor_label_->setObjectName("cursorLabel");
    progress_ = new QProgressBar(this);
    progress_->setObjectName("progress");
    progress_->setMaximumWidth(220);
    progress_->setTextVisible(true);
    statusBar()->addWidget(cursor_label_, 1);
    statusBar()->addPermanentWidget(device_label_);
    statusBar()->addPermanentWidget(progress_);
}

void MainWindow::restoreSettings() {
    QSettings settings;
    if (!restoreGeometry(settings.value("window/geometry").toByteArray())) resize(1400, 900);
    if (!restoreState(settings.value("window/state").toByteArray())) {
        // First start: a narrow settings column leaves the width to the table and charts. Docks
        // take their sizes once the window is laid out, hence after the event loop starts.
        QTimer::singleShot(0, this, [this] {
            resizeDocks({findChild<QDockWidget*>("inputDock"), findChild<QDockWidget*>("runDock")}, {250, 250},
                        Qt::Horizontal);
        });
    }
    for (QSplitter* splitter : findChildren<QSplitter*>())
        splitter->restoreState(settings.value("window/" + splitter->objectName()).toByteArray());
    if (settings.contains("window/resultsColumns"))
        results_view_->horizontalHeader()->restoreState(settings.value("window/resultsColumns").toByteArray());
    run_panel_->restoreSettings(settings);
    input_panel_->setChannel(static_cast<ChannelChoice>(settings.value("input/channel", 0).toInt()));
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    for (QSplitter* splitter : findChildren<QSplitter*>())
        settings.setValue("window/" + splitter->objectName(), splitter->saveState());
    settings.setValue("window/resultsColumns", results_view_->horizontalHeader()->saveState());
    run_panel_->saveSettings(settings);
    settings.setValue("input/channel", static_cast<int>(input_panel_->channel()));
    if (input_ && !input_->path.empty())
        settings.setValue("input/last", QString::fromStdString(input_->path.string()));
}

bool MainWindow::confirmDiscardResults() {
    if (!unsaved_) return true;
    QMessageBox::StandardButton answer = close_prompt_answer_;
    if (answer == QMessageBox::NoButton) {
        answer = QMessageBox::question(this, "Unsaved results",
                                       "The results of the last run are not saved. Save them before closing?",
                                       QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel,
                                       QMessageBox::Save);
    }
    if (answer == QMessageBox::Save) return chooseAndSaveResults();
    return answer == QMessageBox::Discard;
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!confirmDiscardResults()) {
        event->ignore();
        return;
    }
    if (running_) worker_->cancel(run_id_);
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

QString MainWindow::errorText() const { return error_bar_->isHidden() ? QString() : error_bar_->text(); }

QString MainWindow::logText() const { return log_->toPlainText(); }

void MainWindow::log(const QString& line) {
    log_->appendPlainText(QDateTime::currentDateTime().toString("HH:mm:ss  ") + line);
}

}  // namespace coalesce::gui
