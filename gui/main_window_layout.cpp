// MainWindow: building the window: actions, menus, the central area, docks and status bar.
#include "main_window.hpp"

#include "image_panes.hpp"
#include "input_panel.hpp"
#include "lessons_panel.hpp"
#include "matrix_view.hpp"
#include "recent_files.hpp"
#include "results/results_model.hpp"
#include "results_page.hpp"
#include "run_panel.hpp"
#include "warp_picture.hpp"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace coalesce::gui {

void MainWindow::createActions() {
    const auto make = [this](const QString& text, const QKeySequence& key, auto slot) {
        auto* a = new QAction(text, this);
        if (!key.isEmpty()) a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    open_action_ = make("&Open…", QKeySequence::Open, [this] { chooseAndOpen(); });
    open_action_->setToolTip("Open an image or OpenCV matrix file (Ctrl+O)");
    generate_action_ = make("&Generate Matrix…", QKeySequence(Qt::CTRL | Qt::Key_G),
                            [this] { chooseAndGenerate(); });
    open_results_action_ = make("Open &Results…", {}, [this] { chooseAndOpenResults(); });
    compare_action_ = make("&Compare Two Results…", {}, [this] { chooseAndCompare(); });
    save_results_action_ =
        make("&Save Results…", QKeySequence::Save, [this] { chooseAndSaveResults(); });
    save_image_action_ = make("Save Output &Image…", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                              [this] { chooseAndSaveOutputImage(); });
    export_chart_action_ = make("&Export Chart…", QKeySequence(Qt::CTRL | Qt::Key_E),
                                [this] { chooseAndExportChart(); });
    quit_action_ = make("&Quit", QKeySequence(Qt::CTRL | Qt::Key_Q), [this] { close(); });
    run_action_ = make("&Run", QKeySequence(Qt::CTRL | Qt::Key_R), [this] { startRun(); });
    run_action_->setToolTip("Run the chosen variants (Ctrl+R)");
    cancel_action_ = make("&Cancel", QKeySequence(Qt::Key_Escape), [this] { cancelRun(); });
    cancel_action_->setToolTip("Stop the run after the current launch batch (Esc)");
    const auto active = [this] { return panes_->activeView(); };
    zoom_in_action_ =
        make("Zoom &In", QKeySequence(Qt::CTRL | Qt::Key_Equal), [active] { active()->zoomIn(); });
    zoom_in_action_->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence(Qt::CTRL | Qt::Key_Plus)});
    zoom_out_action_ = make("Zoom &Out", QKeySequence(Qt::CTRL | Qt::Key_Minus),
                            [active] { active()->zoomOut(); });
    fit_action_ = make("&Fit to Window", QKeySequence(Qt::CTRL | Qt::Key_0),
                       [active] { active()->fitToWindow(); });
    counters_action_ = new QAction("Hardware &Counters", this);
    counters_action_->setObjectName("countersAction");
    counters_action_->setCheckable(true);
    counters_action_->setToolTip(
        "After the timed run, profile one launch of each verified GPU run under Nsight Compute");
    experiments_action_ = new QAction("Show &Experiment Variants", this);
    experiments_action_->setCheckable(true);
    experiments_action_->setToolTip(
        "List the experiments (tuning ideas kept because they lost) "
        "in the variant tree");
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu("&File");
    file->addAction(open_action_);
    recent_menu_ = file->addMenu("Open Re&cent");
    recent_ = new RecentFiles(recent_menu_, this);
    connect(recent_, &RecentFiles::openRequested, this, [this](const QString& path) {
        if (path.endsWith(".json", Qt::CaseInsensitive) ||
            path.endsWith(".csv", Qt::CaseInsensitive))
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
    run->addSeparator();
    run->addAction(counters_action_);

    view_menu_ = menuBar()->addMenu("&View");
    view_menu_->addAction(zoom_in_action_);
    view_menu_->addAction(zoom_out_action_);
    view_menu_->addAction(fit_action_);
    view_menu_->addSeparator();
    view_menu_->addAction(experiments_action_);
    view_menu_->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view_menu_->addAction(dock->toggleViewAction());

    createLessonsMenu();

    QMenu* help = menuBar()->addMenu("&Help");
    help->addAction("&About Coalesce", this,
                    [this] { QMessageBox::about(this, "About Coalesce", aboutText()); });

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

void MainWindow::createLessonsMenu() {
    QMenu* menu = menuBar()->addMenu("&Lessons");
    menu->setObjectName("lessonsMenu");
    QAction* show = lessons_dock_->toggleViewAction();
    show->setText("Show the &Lessons Panel");
    menu->addAction(show);
    menu->addSeparator();
    for (const Lesson& lesson : lessons_) {
        const QString id = QString::fromStdString(lesson.id);
        QAction* a = menu->addAction(QString::fromStdString(lesson.title));
        a->setData(id);
        a->setToolTip(QString::fromStdString(lesson.source));
        connect(a, &QAction::triggered, this, [this, id] {
            lessons_dock_->show();
            lessons_dock_->raise();
            lessons_panel_->showLesson(id);
        });
    }
}

QWidget* MainWindow::createCentralArea() {
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(2, 2, 2, 2);

    error_bar_ = new QLabel(central);
    error_bar_->setObjectName("errorBar");
    error_bar_->setWordWrap(true);
    error_bar_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    error_bar_->setStyleSheet(
        "QLabel { background: #f8d7da; color: #721c24; "
        "border: 1px solid #f1aeb5; padding: 6px; }");
    error_bar_->hide();
    layout->addWidget(error_bar_);

    panes_ = new ImagePanes(central);
    connect(panes_, &ImagePanes::cursorText, this,
            [this](const QString& text) { cursor_label_->setText(text); });
    results_page_ = new ResultsPage(central);
    connect(results_page_, &ResultsPage::currentResultChanged, this, &MainWindow::showResult);

    auto* main = new QSplitter(Qt::Horizontal, central);
    main->setObjectName("centralSplitter");
    main->addWidget(panes_);
    main->addWidget(results_page_);
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
    connect(experiments_action_, &QAction::toggled, run_panel_, &RunPanel::setShowExperiments);
    connect(run_panel_, &RunPanel::experimentsShownChanged, experiments_action_,
            &QAction::setChecked);
    connect(run_panel_, &RunPanel::parametersValidChanged, this,
            [this](bool valid) { run_action_->setEnabled(valid && !isRunning()); });
    counters_action_->setChecked(run_panel_->countersRequested());
    connect(counters_action_, &QAction::toggled, run_panel_, &RunPanel::setCountersRequested);
    connect(run_panel_, &RunPanel::countersRequestedChanged, counters_action_,
            &QAction::setChecked);
    auto* run_box = new QWidget(this);
    auto* run_layout = new QVBoxLayout(run_box);
    run_layout->setContentsMargins(4, 4, 4, 4);
    // The settings scroll rather than make the window taller than the screen.
    auto* run_scroll = new QScrollArea(run_box);
    run_scroll->setObjectName("runScroll");
    run_scroll->setWidgetResizable(true);
    run_scroll->setFrameShape(QFrame::NoFrame);
    run_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    run_scroll->setWidget(run_panel_);
    // As wide as the settings need, so nothing is cut off at the right.
    run_scroll->setMinimumWidth(run_panel_->minimumSizeHint().width() +
                                run_scroll->verticalScrollBar()->sizeHint().width());
    run_layout->addWidget(run_scroll, 1);
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

    // The lessons sit on the right, hidden until the Lessons menu opens them: a teacher shows
    // the finding and its chart side by side.
    lessons_panel_ = new LessonsPanel(lessons_, registry_, results_page_->model(), this);
    connect(lessons_panel_, &LessonsPanel::runRequested, this,
            [this](const Lesson& lesson) { runLesson(lesson); });
    lessons_dock_ = new QDockWidget("Lessons", this);
    lessons_dock_->setObjectName("lessonsDock");
    lessons_dock_->setWidget(lessons_panel_);
    addDockWidget(Qt::RightDockWidgetArea, lessons_dock_);
    lessons_dock_->hide();

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

    // One warp of the selected result, beside the log: small, and read next to the table.
    warp_ = new WarpPicture(this);
    auto* warp_dock = new QDockWidget("One warp", this);
    warp_dock->setObjectName("warpDock");
    warp_dock->setWidget(warp_);
    splitDockWidget(log_dock, warp_dock, Qt::Horizontal);
    connect(results_page_, &ResultsPage::currentResultChanged, this, [this](int row) {
        warp_->setView(row >= 0 && row < resultsModel()->rowCount()
                           ? warp_view(registry_, resultsModel()->result(row))
                           : WarpView{});
    });
    connect(resultsModel(), &QAbstractItemModel::modelReset, warp_, [this] { warp_->setView({}); });

    resizeDocks({log_dock}, {150}, Qt::Vertical);
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

}  // namespace coalesce::gui
