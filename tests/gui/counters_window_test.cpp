// Hardware counters in the window: the H100 results file with counters fills the table's
// counters columns and both counters charts, whose variant ids stay whole; the toggle (run panel
// and Run menu) runs a counters pass after the timed run, and runs that cannot have counters say
// why; on a GPU (skipped without one) the pass fills the counters and a cancel stops it.
#include "app_options.hpp"
#include "results/chart_widgets.hpp"
#include "results/counters_chart_models.hpp"
#include "results/results_model.hpp"
#include "run_controller.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include "coalesce/device.hpp"
#include "coalesce/results_io.hpp"

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

QString h100_counters() { return docs_dir() + "/h100-counters-8192.json"; }

QAction* counters_action(MainWindow& window) {
    return window.findChild<QAction*>("countersAction");
}

// Runs the checked variants to the end; false when the run did not start or finish.
bool run_to_end(MainWindow& window, int timeout_ms = 300000) {
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QSignalSpy failed(&window, &MainWindow::runFailed);
    if (!window.startRun()) return false;
    for (int waited = 0; finished.isEmpty() && failed.isEmpty() && waited < timeout_ms;
         waited += 50)
        finished.wait(50);
    EXPECT_TRUE(failed.isEmpty()) << window.errorText().toStdString();
    return wait_idle(window, timeout_ms) && !finished.isEmpty();
}

int row_of(const ResultsModel& model, const std::string& variant) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.result(row).variant == variant) return row;
    return -1;
}

}  // namespace

TEST(CountersWindow, TheH100FileFillsTheCountersColumnsAndBothCharts) {
    const RunRecord record = load_results(h100_counters().toStdString());
    auto window = make_ready_window();
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    ASSERT_TRUE(window->openResults(h100_counters())) << window->errorText().toStdString();

    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(static_cast<std::size_t>(model->rowCount()), record.runs.size());
    QHeaderView* header = window->resultsView()->horizontalHeader();
    for (int c = ResultsModel::FirstCountersColumn; c <= ResultsModel::LastCountersColumn; ++c)
        EXPECT_FALSE(header->isSectionHidden(c)) << c;
    // The one variant past the 10% mark in docs/counters.md, and one that is not.
    const int naive = row_of(*model, "transpose/global-naive");
    ASSERT_GE(naive, 0);
    EXPECT_EQ(model->index(naive, ResultsModel::DramOverModelColumn).data().toString(), "1.191 !");
    const int copy = row_of(*model, "copy/global");
    EXPECT_EQ(model->index(copy, ResultsModel::DramOverModelColumn).data().toString(), "0.963");

    for (const char* which : {"dram-model", "sectors"}) {
        window->showChart(which);
        ChartPanel* chart = window->charts()->currentChart();
        ASSERT_TRUE(chart->hasData()) << which;
        EXPECT_TRUE(chart->shownTitle().contains("NVIDIA H100")) << which;
        // Every variant id whole, as on the bandwidth chart.
        window->resize(1400, 900);
        QCoreApplication::processEvents();
        window->repaint();
        QCoreApplication::processEvents();
        EXPECT_TRUE(chart->shortenedTexts().isEmpty())
            << which << ": " << chart->shortenedTexts().join(" | ").toStdString();
    }
    // The model's row and every GPU variant of the file.
    EXPECT_EQ(static_cast<std::size_t>(window->charts()->dramModel()->barsModel()->rowCount()),
              record.runs.size() + 1);

    QTemporaryDir dir;
    for (const char* which : {"dram-model", "sectors"}) {
        window->showChart(which);
        const QString svg = dir.filePath(QString("%1.svg").arg(which));
        ASSERT_TRUE(window->exportChart(svg)) << window->errorText().toStdString();
        QFile file(svg);
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_TRUE(file.readAll().contains("transpose/global-naive")) << which;
    }
}

TEST(CountersWindow, ResultsWithoutCountersHideTheColumnsAndTheChartSaysWhy) {
    auto window = make_ready_window();
    ASSERT_TRUE(window->openResults(docs_dir() + "/h200-bench.json"))
        << window->errorText().toStdString();
    QHeaderView* header = window->resultsView()->horizontalHeader();
    EXPECT_TRUE(header->isSectionHidden(ResultsModel::DramOverModelColumn));
    window->showChart("dram-model");
    EXPECT_FALSE(window->charts()->currentChart()->hasData());
    EXPECT_TRUE(window->charts()->currentChart()->shownTitle().contains("no counters pass ran"));
    QTemporaryDir dir;
    EXPECT_FALSE(window->exportChart(dir.filePath("none.png")));
    EXPECT_TRUE(window->errorText().contains("no hardware counters"))
        << window->errorText().toStdString();
    EXPECT_FALSE(QFile::exists(dir.filePath("none.png")));
}

TEST(CountersWindow, TheToggleAndTheMenuActionAreOneSettingThatIsRemembered) {
    auto window = make_ready_window();
    RunPanel* panel = window->runPanel();
    QAction* action = counters_action(*window);
    ASSERT_NE(action, nullptr);
    EXPECT_FALSE(panel->countersRequested());
    EXPECT_FALSE(action->isChecked());
    action->trigger();
    EXPECT_TRUE(panel->countersRequested());
    panel->setCountersRequested(false);
    EXPECT_FALSE(action->isChecked());

    QTemporaryDir dir;
    QSettings settings(dir.filePath("s.ini"), QSettings::IniFormat);
    panel->setCountersRequested(true);
    panel->saveSettings(settings);
    panel->setCountersRequested(false);
    panel->restoreSettings(settings);
    EXPECT_TRUE(panel->countersRequested());
    EXPECT_TRUE(action->isChecked());
}

TEST(CountersWindow, HostRunsWithCountersOnSayWhyEachHasNone) {
    auto window = make_ready_window();
    QStringList host;
    for (const Variant& v : window->registry().variants())
        if (!v.info.gpu && v.info.op == Op::transpose) host << QString::fromStdString(v.info.id);
    ASSERT_FALSE(host.isEmpty());
    window->runPanel()->setCheckedOps({"transpose"});
    window->runPanel()->setCheckedVariants(host);
    window->runPanel()->setSweep(true, "32x48");
    window->runPanel()->setCountersRequested(true);
    ASSERT_TRUE(run_to_end(*window)) << window->errorText().toStdString();

    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(model->rowCount(), host.size());
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.status, Status::ok) << r.variant;
        EXPECT_FALSE(r.counters.has_value()) << r.variant;  // nothing invented
        EXPECT_TRUE(r.counters_status.find("host variant") != std::string::npos)
            << r.counters_status;
        const QModelIndex cell = model->index(row, ResultsModel::L2HitColumn);
        EXPECT_TRUE(cell.data().toString().isEmpty());
        EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains("host variant"));
    }
    EXPECT_FALSE(
        window->resultsView()->horizontalHeader()->isSectionHidden(ResultsModel::L2HitColumn));
    EXPECT_TRUE(window->logText().contains("Hardware counters: none."))
        << window->logText().toStdString();
    EXPECT_TRUE(window->logText().contains(QString("No counters for %1 run").arg(host.size())));
    EXPECT_TRUE(window->charts()->dramModel()->chartTitle().contains("host variant"))
        << window->charts()->dramModel()->chartTitle().toStdString();

    // Off again: the next run has no counters pass, and no status either.
    window->runPanel()->setCountersRequested(false);
    ASSERT_TRUE(run_to_end(*window)) << window->errorText().toStdString();
    EXPECT_TRUE(model->result(0).counters_status.empty());
    EXPECT_FALSE(model->hasCountersInfo());
}

TEST(CountersWindow, TheCommandLineTurnsThePassOnAndNamesTheCountersCharts) {
    EXPECT_FALSE(parse_app_options(QStringList{"coalesce"}).counters);
    const AppOptions o = parse_app_options(
        QStringList{"coalesce", "--counters", "--chart", "sectors", "--sizes", "8192x8192"});
    EXPECT_TRUE(o.counters);
    EXPECT_EQ(o.chart, "sectors");
    EXPECT_EQ(parse_app_options(QStringList{"coalesce", "--chart", "dram-model"}).chart,
              "dram-model");
}

TEST(CountersWindow, ThePassProfilesTheBenchNextToTheApplication) {
    auto window = make_ready_window();
    const QString bench = window->runController()->countersBench();
    EXPECT_TRUE(bench.endsWith("/coalesce-bench")) << bench.toStdString();
    EXPECT_EQ(QFileInfo(bench).absolutePath(), QCoreApplication::applicationDirPath());
}

// On the GPU machine: the classic transposes with counters on, every GPU run measured or saying
// why; and a cancel as soon as the pass starts stops it with the timed results kept.
class CountersGpuWindow : public ::testing::Test {
protected:
    void SetUp() override {
        if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
        window = make_ready_window();
        window->runPanel()->setCheckedOps({"transpose"});
        window->runPanel()->setCheckedVariants(
            {"transpose/global-naive", "transpose/shared-tile", "transpose/shared-padded"});
        window->runPanel()->setSweep(true, "4096x4096");
        window->runPanel()->setCountersRequested(true);
    }
    std::unique_ptr<MainWindow> window;
};

TEST_F(CountersGpuWindow, EveryGpuRunGetsCountersOrSaysWhy) {
    ASSERT_TRUE(run_to_end(*window)) << window->errorText().toStdString();
    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(model->rowCount(), 3);
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_NE(r.counters.has_value(), !r.counters_status.empty()) << r.variant;
        std::printf("  %-28s %s\n", r.variant.c_str(),
                    r.counters ? model->index(row, ResultsModel::DramOverModelColumn)
                                     .data()
                                     .toString()
                                     .toStdString()
                                     .c_str()
                               : r.counters_status.c_str());
    }
    std::printf("%s\n", window->logText().toStdString().c_str());
}

TEST_F(CountersGpuWindow, ACancelDuringThePassKeepsTheTimingsAndMarksTheRuns) {
    QObject::connect(
        window->runController(), &RunController::countersStarted, window.get(),
        [this] { window->cancelRun(); }, Qt::SingleShotConnection);
    ASSERT_TRUE(run_to_end(*window, 120000)) << window->errorText().toStdString();
    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(model->rowCount(), 3);
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.status, Status::ok) << r.variant;
        EXPECT_GT(r.gbps, 0.0) << r.variant;
        // The pass may have ended before the cancel reached it; otherwise it says so.
        if (!r.counters) {
            EXPECT_EQ(r.counters_status, "cancelled") << r.variant;
        }
    }
}
