// resample's output (the image scaled and rotated) shows in the output view like any other
// output, and its difference to the CPU reference is drawn at the run's own scale, also for the
// points of a sweep away from the default. CPU variants (no device needed).
#include "matrix_view.hpp"
#include "param_inputs.hpp"
#include "results/results_model.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include <QLineEdit>

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

TEST(ResampleOutput, EachScaleOfASweepShowsItsImageAndDifference) {
    auto window = make_ready_window();
    ASSERT_TRUE(open_and_wait(*window, sample("noise-97x61.pgm")));
    RunPanel* panel = window->runPanel();
    panel->setCheckedOps({"resample"});
    panel->setCheckedVariants({"resample/cpu-naive"});
    panel->setSweep(false);
    panel->paramInputs()->input("scale")->setText("50,200");
    panel->paramInputs()->input("angle")->setText("30");

    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    ASSERT_TRUE(window->startRun()) << window->errorText().toStdString();
    ASSERT_TRUE(finished.wait(120000));
    ASSERT_TRUE(wait_idle(*window));

    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(model->rowCount(), 2);
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        ASSERT_EQ(r.status, Status::ok) << r.error;
        EXPECT_TRUE(r.verified);
        OpParams params;
        params.values = r.params;
        const Shape expected = output_shape(Op("resample"), Shape{61, 97}, params);
        ASSERT_TRUE(select_and_wait(*window, row));
        ASSERT_TRUE(window->outputView()->hasMatrix())
            << window->outputView()->message().toStdString();
        EXPECT_EQ(window->outputView()->matrix()->shape(), expected)
            << "scale " << r.params.at("scale");
        EXPECT_EQ(window->outputView()->image().width(), static_cast<int>(expected.cols));
        // The difference heat map is drawn against the bound of this run's own scale.
        EXPECT_FALSE(window->differenceView()->image().isNull())
            << "scale " << r.params.at("scale");
        EXPECT_EQ(window->differenceView()->image().height(), static_cast<int>(expected.rows));
    }
}
