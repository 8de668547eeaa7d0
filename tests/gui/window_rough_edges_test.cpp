// The window's bugs and rough edges from a new user's hands, each pinned by a test: the output
// pane after runs that kept no outputs, a run too large for host memory, closing during a run,
// exporting or saving nothing, the difference scale, text cut off, the About box, --plugins.
#include "app_options.hpp"
#include "input_panel.hpp"
#include "matrix_view.hpp"
#include "results/results_model.hpp"
#include "run_controller.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

void choose_cpu_variants(MainWindow& window, const QStringList& ops) {
    QStringList host;
    for (const Variant& v : window.registry().variants())
        if (!v.info.gpu) host << QString::fromStdString(v.info.id);
    window.runPanel()->setCheckedOps(ops);
    window.runPanel()->setCheckedVariants(host);
}

bool run_and_wait(MainWindow& window) {
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QSignalSpy failed(&window, &MainWindow::runFailed);
    if (!window.startRun()) return false;
    for (int waited = 0; finished.isEmpty() && failed.isEmpty() && waited < 120000; waited += 50)
        finished.wait(50);
    return wait_idle(window) && (!finished.isEmpty() || !failed.isEmpty());
}

QAction* action(MainWindow& window, const QString& text) {
    for (QAction* a : window.findChildren<QAction*>())
        if (a->text().remove('&') == text) return a;
    return nullptr;
}

// Triggers `a` and reports whether it opened a modal dialog (which is then closed).
bool opens_a_dialog(QAction* a) {
    bool opened = false;
    QTimer watch;
    QObject::connect(&watch, &QTimer::timeout, [&opened] {
        if (QWidget* modal = QApplication::activeModalWidget()) {
            opened = true;
            modal->close();
        }
    });
    watch.start(50);
    a->trigger();
    return opened;
}

}  // namespace

TEST(RoughEdges, TheOutputPaneSaysWhyAfterARunThatKeptNoOutputs) {
    auto window = make_ready_window();
    choose_cpu_variants(*window, {"copy", "transpose"});
    window->runPanel()->setSweep(true, "64x64,32x16");
    window->runController()->setKeepOutputsBudget(0);  // as for a large input
    ASSERT_TRUE(run_and_wait(*window)) << window->errorText().toStdString();
    EXPECT_FALSE(window->outputView()->hasMatrix());
    const QString message = window->outputView()->message();
    EXPECT_FALSE(message.contains("Running")) << message.toStdString();
    EXPECT_TRUE(message.contains("kept only")) << message.toStdString();
}

TEST(RoughEdges, TheOutputPaneSaysWhyAfterACancelledOrFailedRun) {
    auto window = make_ready_window();
    choose_cpu_variants(*window, {"copy"});
    window->runPanel()->setSweep(true, "8x8");
    // Cancelled before anything ran: the worker marks every run cancelled.
    QObject::connect(
        window->runController(), &RunController::runStarted, window.get(),
        [&window] { window->cancelRun(); }, Qt::SingleShotConnection);
    ASSERT_TRUE(run_and_wait(*window));
    EXPECT_FALSE(window->outputView()->message().contains("Running"))
        << window->outputView()->message().toStdString();

    // A run the engine refuses once it has started: the failure, not "Running…".
    RunConfig bad;
    bad.ops = {Op::copy};
    bad.variants = {"copy/cpu-naive"};
    bad.include_cpu = true;
    bad.sizes = {{8, 8}};
    bad.reps = 0;
    QSignalSpy failed(window.get(), &MainWindow::runFailed);
    ASSERT_TRUE(window->runController()->startRun(bad).isEmpty());
    ASSERT_TRUE(failed.wait(30000));
    EXPECT_FALSE(window->isRunning());
    const QString message = window->outputView()->message();
    EXPECT_FALSE(message.contains("Running")) << message.toStdString();
    EXPECT_TRUE(message.contains("repetitions")) << message.toStdString();
}

TEST(RoughEdges, ASweepTooLargeForHostMemoryIsRefusedWithWhatItNeedsAndWhatThereIs) {
    auto window = make_ready_window();
    choose_cpu_variants(*window, {"copy"});
    window->runPanel()->setSweep(true, "100000x100000");
    EXPECT_FALSE(window->startRun());
    EXPECT_FALSE(window->isRunning());
    const QString error = window->errorText();
    EXPECT_TRUE(error.contains("100000x100000")) << error.toStdString();
    EXPECT_TRUE(error.contains("MiB of host memory")) << error.toStdString();
    EXPECT_TRUE(error.contains("MiB are available")) << error.toStdString();

    // The same check on any machine: a small size against a host with 1 MiB.
    window->runController()->setAvailableHostMemory(std::size_t{1} << 20);
    window->runPanel()->setSweep(true, "1024x1024");
    EXPECT_FALSE(window->startRun());
    EXPECT_TRUE(window->errorText().contains("1 MiB are available"))
        << window->errorText().toStdString();
}

TEST(RoughEdges, ClosingDuringARunStopsItAndAsksAboutItsResults) {
    auto window = make_ready_window();
    window->show();
    choose_cpu_variants(*window,
                        {"copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"});
    window->runPanel()->setSweep(true, "1024x1024,1024x1024,1024x1024,1024x1024,1024x1024");
    ASSERT_FALSE(window->hasUnsavedResults());  // no earlier results
    QSignalSpy asked(window.get(), &MainWindow::closePrompted);

    window->setClosePromptAnswer(QMessageBox::Cancel);
    ASSERT_TRUE(window->startRun());
    EXPECT_FALSE(window->close());
    EXPECT_FALSE(window->isRunning()) << "the run went on behind the question";
    EXPECT_TRUE(window->resultsModel()->record().cancelled);
    EXPECT_EQ(asked.count(), 1);
    const QString question = asked.front().front().toString();
    EXPECT_TRUE(question.contains("stopped")) << question.toStdString();
    EXPECT_TRUE(window->isVisible());

    window->setClosePromptAnswer(QMessageBox::Discard);
    ASSERT_TRUE(window->startRun());
    EXPECT_TRUE(window->close());
    EXPECT_FALSE(window->isRunning());
    EXPECT_EQ(asked.count(), 2);
}

TEST(RoughEdges, ExportingOrSavingNothingSaysSoWithoutAskingForAFileName) {
    auto window = make_ready_window();
    window->show();
    ASSERT_TRUE(window->resultsModel()->isEmpty());
    QAction* export_chart = action(*window, "Export Chart…");
    ASSERT_NE(export_chart, nullptr);
    EXPECT_FALSE(opens_a_dialog(export_chart));
    EXPECT_TRUE(window->errorText().contains("no chart to export"))
        << window->errorText().toStdString();

    QTemporaryDir dir;
    const QString png = dir.filePath("chart.png");
    EXPECT_FALSE(window->exportChart(png));
    EXPECT_FALSE(QFileInfo::exists(png));

    QAction* save_image = action(*window, "Save Output Image…");
    ASSERT_NE(save_image, nullptr);
    EXPECT_FALSE(opens_a_dialog(save_image));
    EXPECT_TRUE(window->errorText().contains("no output image to save"))
        << window->errorText().toStdString();
}

TEST(RoughEdges, AVerifiedFilterIsDarkOnTheDifferenceScaleWhichSaysItIsTheBound) {
    auto window = make_ready_window();
    GenerateRequest request;
    request.rows = 129;
    request.cols = 131;
    ASSERT_TRUE(generate_and_wait(*window, request));
    choose_cpu_variants(*window, {"filter_x"});
    window->runPanel()->setSweep(false);
    OpParams params;
    params.radius = 64;
    window->runPanel()->setParams(params);
    ASSERT_TRUE(run_and_wait(*window));
    const ResultsModel* model = window->resultsModel();
    ASSERT_GT(model->rowCount(), 0);
    for (int row = 0; row < model->rowCount(); ++row) {
        ASSERT_TRUE(model->result(row).verified) << model->result(row).variant;
        ASSERT_TRUE(select_and_wait(*window, row));
        const QImage& heat = window->differenceView()->image();
        ASSERT_FALSE(heat.isNull());
        const QString caption = window->differenceView()->caption();
        EXPECT_TRUE(caption.contains("verification bound") || caption.contains("identical"))
            << caption.toStdString();
        // Verified: every element within its bound, none drawn white (at the bound) or beyond.
        for (int y = 0; y < heat.height(); ++y)
            for (int x = 0; x < heat.width(); ++x) {
                const QRgb p = heat.pixel(x, y);
                ASSERT_NE(p, kBeyondBoundColour) << x << "," << y;
                ASSERT_LT(qBlue(p), 255)
                    << "white at " << x << "," << y << ": " << caption.toStdString();
            }
    }
}

TEST(RoughEdges, LongCaptionsWrapInsteadOfBeingCutOff) {
    MatrixView view("|Output − CPU reference|");
    view.resize(220, 300);
    auto m = std::make_shared<Matrix>(4, 4);
    const QString caption =
        "|diff| ÷ verification bound: black 0, white 1 (the bound), cyan "
        "beyond; largest 0.031 of the bound";
    view.setMatrix(m, render_grey(*m), caption);
    const QRect needed = view.fontMetrics().boundingRect(
        QRect(0, 0, 220 - 12 - 56, 10000), Qt::TextWordWrap, view.title() + " — " + caption);
    EXPECT_GT(needed.height(), view.fontMetrics().height());  // it needs several lines here
    EXPECT_GE(view.captionHeight(), needed.height());
}

TEST(RoughEdges, TheInputPanelShowsTheWholeSourceLine) {
    auto window = make_ready_window();
    window->show();
    ASSERT_TRUE(open_and_wait(*window, sample("shapes-160x120.ppm")));
    QCoreApplication::processEvents();
    auto* panel = window->findChild<InputPanel*>();
    ASSERT_NE(panel, nullptr);
    for (const char* name : {"inputName", "inputSize", "inputType", "inputRange"}) {
        auto* label = panel->findChild<QLabel*>(name);
        ASSERT_NE(label, nullptr) << name;
        EXPECT_GE(label->height(), label->heightForWidth(label->width()))
            << name << ": \"" << label->text().toStdString() << "\" is cut off";
    }
}

TEST(RoughEdges, TheStatusColumnIsInViewAtTheStartingSize) {
    auto window = make_ready_window();
    window->show();
    ASSERT_TRUE(window->openResults(docs_dir() + "/h200-bench.json"));
    QCoreApplication::processEvents();
    QTableView* table = window->resultsView();
    const int x = table->horizontalHeader()->sectionViewportPosition(ResultsModel::StatusColumn);
    EXPECT_GE(x, 0);
    EXPECT_LE(x + table->horizontalHeader()->sectionSize(ResultsModel::StatusColumn),
              table->viewport()->width());
}

TEST(RoughEdges, TheAboutBoxNamesTheVersion) {
    EXPECT_TRUE(MainWindow::aboutText().contains(QString("version ") + COALESCE_EXPECTED_VERSION))
        << MainWindow::aboutText().toStdString();
}

TEST(RoughEdges, PluginFoldersAreGivenAsTheCommandLineToolGivesThem) {
    const AppOptions both =
        parse_app_options(QStringList{"coalesce", "--plugins", "/a", "--plugin-dir", "/b"});
    EXPECT_EQ(both.plugin_dirs, (QStringList{"/a", "/b"}));
}
