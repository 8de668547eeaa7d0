// The window on a real GPU (skipped without one): the classic transposes run, verify and show
// their outputs; a lesson of the course runs at its size and is charted; every GPU variant runs
// from the window without a failure; and the window stays responsive while it shows the kept
// outputs of an 8192 x 8192 run made on the device.
#include "event_loop_probe.hpp"
#include "lessons_panel.hpp"
#include "matrix_view.hpp"
#include "results/chart_widgets.hpp"
#include "results/results_model.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include "coalesce/device.hpp"
#include "coalesce/lessons.hpp"

#include <QStringList>

#include <cstdio>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

class GpuWindow : public ::testing::Test {
protected:
    void SetUp() override {
        if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
        window = make_ready_window();
        ASSERT_TRUE(window->hasDevice());
    }

    bool run_to_end(int timeout_ms = 300000) {
        QSignalSpy finished(window.get(), &MainWindow::runFinished);
        QSignalSpy failed(window.get(), &MainWindow::runFailed);
        if (!window->startRun()) return false;
        for (int waited = 0; finished.isEmpty() && failed.isEmpty() && waited < timeout_ms;
             waited += 50)
            finished.wait(50);
        EXPECT_TRUE(failed.isEmpty()) << window->errorText().toStdString();
        return wait_idle(*window, timeout_ms) && !finished.isEmpty();
    }

    // For the GPU check's log: what each variant measured, to compare with coalesce-bench's.
    void print_results() const {
        const ResultsModel* model = window->resultsModel();
        for (int row = 0; row < model->rowCount(); ++row) {
            const RunResult& r = model->result(row);
            std::printf("  %-40s %5zux%-5zu %-9s %9.1f GB/s %6.1f %% of copy\n", r.variant.c_str(),
                        r.rows, r.cols, std::string(status_name(r.status)).c_str(), r.gbps,
                        r.pct_of_copy);
        }
    }

    std::unique_ptr<MainWindow> window;
};

}  // namespace

TEST_F(GpuWindow, TheClassicTransposesRunVerifyAndShowTheirOutputs) {
    const QStringList ids{"transpose/global-naive", "transpose/shared-tile",
                          "transpose/shared-padded"};
    window->runPanel()->setCheckedOps({"transpose"});
    window->runPanel()->setCheckedVariants(ids);
    window->runPanel()->setSweep(true, "113x113,1024x768");
    ASSERT_TRUE(run_to_end()) << window->errorText().toStdString();
    print_results();
    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(model->rowCount(), 6);
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        ASSERT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        EXPECT_TRUE(r.verified) << r.variant;
        EXPECT_TRUE(r.gpu) << r.variant;
        ASSERT_TRUE(select_and_wait(*window, row));
        ASSERT_TRUE(window->outputView()->hasMatrix()) << r.variant;
        EXPECT_EQ(window->outputView()->matrix()->shape(), (Shape{r.cols, r.rows}));
        EXPECT_TRUE(window->differenceView()->caption().contains("identical"))
            << r.variant << ": " << window->differenceView()->caption().toStdString();
    }
}

TEST_F(GpuWindow, ACourseLessonRunsAtItsSizeAndIsChartedBesideItsText) {
    const Lesson* lesson = find_lesson("transpose-padding");
    ASSERT_NE(lesson, nullptr);
    LessonsPanel* panel = window->lessonsPanel();
    panel->showLesson("transpose-padding");
    ASSERT_TRUE(panel->whyNotRunnable(*lesson).isEmpty())
        << panel->whyNotRunnable(*lesson).toStdString();
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    ASSERT_TRUE(window->runLesson(*lesson)) << window->errorText().toStdString();
    ASSERT_TRUE(finished.wait(300000));
    ASSERT_TRUE(wait_idle(*window, 300000));
    print_results();
    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(static_cast<std::size_t>(model->rowCount()),
              lesson->variants.size() * lesson->sizes.size());
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        EXPECT_TRUE(r.verified) << r.variant;
        EXPECT_GT(r.pct_of_copy, 0.0) << r.variant;
    }
    EXPECT_TRUE(panel->chart()->hasData());
    EXPECT_TRUE(panel->chart()->chartTitle().contains(QStringLiteral("8192×8192")))
        << panel->chart()->chartTitle().toStdString();
}

TEST_F(GpuWindow, EveryGpuVariantRunsFromTheWindowWithoutAFailure) {
    QStringList gpu, ops;  // every GPU variant, of every operation (access patterns, on-chip)
    for (const Variant& v : window->registry().variants()) {
        if (!v.info.gpu) continue;
        gpu << QString::fromStdString(v.info.id);
        const QString op = QString::fromUtf8(v.info.op.name().data(),
                                             static_cast<qsizetype>(v.info.op.name().size()));
        if (!ops.contains(op)) ops << op;
    }
    ASSERT_FALSE(gpu.isEmpty());
    window->runPanel()->setCheckedOps(ops);
    window->runPanel()->setShowExperiments(true);
    window->runPanel()->setCheckedVariants(gpu);
    window->runPanel()->setSweep(true, "1024x1024");
    ASSERT_TRUE(run_to_end()) << window->errorText().toStdString();
    print_results();
    const ResultsModel* model = window->resultsModel();
    EXPECT_EQ(model->rowCount(), gpu.size());
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_NE(r.status, Status::failed) << r.variant << ": " << r.error;
        if (r.status == Status::ok) {
            EXPECT_TRUE(r.verified) << r.variant;
        }
    }
    EXPECT_TRUE(window->charts()->bandwidth()->hasData());
}

TEST_F(GpuWindow, ShowingTheKeptOutputsOfAn8192RunOnTheDeviceNeverBlocksTheEventLoop) {
    window->runPanel()->setCheckedOps({"transpose"});
    window->runPanel()->setCheckedVariants({"transpose/shared-padded"});
    window->runPanel()->setSweep(true, "8192x8192");
    show_settled(*window);
    EventLoopProbe probe;
    ASSERT_TRUE(run_to_end()) << window->errorText().toStdString();
    ASSERT_EQ(window->resultsModel()->rowCount(), 1);
    ASSERT_TRUE(window->resultsModel()->result(0).output) << "the output was not kept";
    ASSERT_TRUE(window->outputView()->hasMatrix());
    EXPECT_EQ(window->outputView()->matrix()->shape(), (Shape{8192, 8192}));
    ASSERT_TRUE(select_and_wait(*window, 0, 300000));
    window->repaint();
    EXPECT_LT(probe.worstGapMs(), max_gap_ms())
        << "the event loop was blocked (longest gap on the clock: " << probe.worstWallGapMs()
        << " ms)";
}
