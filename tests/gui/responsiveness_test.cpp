// The window's thread never computes: a probe timer ticking every 10 ms records the longest gap
// between its ticks while the window shows results of an 8192 x 8192 run (the sweep's 256 MiB
// random input made again, pictures and differences drawn) and while it opens a 6000 x 4000
// image. A gap is the time the event loop could not answer: it must stay under 50 ms (200 ms on
// a PVM guest, where the hypervisor holds idle threads that long: event_loop_probe.hpp).
#include "event_loop_probe.hpp"
#include "matrix_view.hpp"
#include "results/results_model.hpp"
#include "window_helpers.hpp"

#include <QTemporaryDir>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <algorithm>
#include <cstring>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

RunResult kept_result(const char* op, const char* variant, std::size_t n,
                      std::shared_ptr<const Matrix> output) {
    RunResult r;
    r.op = op;
    r.variant = variant;
    r.memory_space = "host";
    r.rows = n;
    r.cols = n;
    r.verified = true;
    r.median_ms = 100.0;
    r.gbps = 5.0;
    r.gpu = false;
    r.reference = output;  // exact operations: the reference is the output
    r.output = std::move(output);
    return r;
}

}  // namespace

TEST(Responsiveness, SelectingResultsOfAn8192RunNeverBlocksTheEventLoop) {
    constexpr std::size_t n = 8192;
    // What a run with kept outputs leaves behind, made before the probe starts.
    RunRecord record;
    record.config.sizes = {{n, n}};
    record.config.seed = 42;
    record.config.keep_outputs = true;
    auto input = std::make_shared<const Matrix>(Matrix::random(n, n, record.config.seed));
    auto transposed = std::make_shared<Matrix>(n, n);
    for (std::size_t r = 0; r < n; ++r)
        for (std::size_t c = 0; c < n; ++c) transposed->at(c, r) = input->at(r, c);
    auto sums = std::make_shared<Matrix>(n, 1);
    for (std::size_t r = 0; r < n; ++r) sums->at(r, 0) = 1.0f;
    record.runs = {kept_result("copy", "copy/cpu-naive", n, input),
                   kept_result("transpose", "transpose/cpu-naive", n, transposed),
                   kept_result("row_sums", "row_sums/cpu-naive", n, sums)};
    record.runs[2].reference.reset();  // no reference: the difference pane says so
    input.reset();                     // the window must make the run's input again, from the seed

    auto window = make_ready_window();
    show_settled(*window);
    window->resultsModel()->setRecord(record);
    record = RunRecord{};
    QCoreApplication::processEvents();

    EventLoopProbe probe;
    ASSERT_TRUE(select_and_wait(*window, 1, 120000));
    probe.pause();
    ASSERT_TRUE(window->outputView()->hasMatrix());
    EXPECT_EQ(window->outputView()->matrix()->shape(), (Shape{n, n}));
    ASSERT_TRUE(window->inputView()->hasMatrix());
    EXPECT_TRUE(window->inputView()->caption().contains("seed 42"))
        << window->inputView()->caption().toStdString();
    EXPECT_TRUE(window->differenceView()->caption().contains("identical"))
        << window->differenceView()->caption().toStdString();
    const Matrix* made_input = window->inputView()->matrix();
    EXPECT_EQ(made_input->at(5, 7), window->outputView()->matrix()->at(7, 5));

    probe.resume();
    ASSERT_TRUE(select_and_wait(*window, 0, 120000));
    probe.pause();
    EXPECT_EQ(window->inputView()->matrix(), made_input);  // made once, reused
    const Matrix* copied = window->outputView()->matrix();
    EXPECT_EQ(std::memcmp(copied->data(), made_input->data(), n * n * sizeof(float)), 0);
    probe.resume();

    // A newer selection supersedes an older one still being drawn: only the last is shown.
    QSignalSpy shown(window.get(), &MainWindow::picturesShown);
    window->selectResult(1);
    window->selectResult(2);
    ASSERT_TRUE(wait_idle(*window, 120000));
    EXPECT_EQ(shown.count(), 1);
    ASSERT_TRUE(window->outputView()->hasMatrix());
    EXPECT_EQ(window->outputView()->matrix()->shape(), (Shape{n, 1}));
    EXPECT_FALSE(window->differenceView()->hasMatrix());
    window->repaint();
    EXPECT_LT(probe.worstGapMs(), max_gap_ms())
        << "the event loop was blocked (longest gap on the clock: " << probe.worstWallGapMs()
        << " ms)";
}

TEST(Responsiveness, OpeningA6000x4000ImageNeverBlocksTheEventLoop) {
    QTemporaryDir dir;
    const QString path = dir.filePath("large-6000x4000.png");
    {
        // A colour picture (so it is reduced to luminance as well): smooth bands and a grid.
        cv::Mat image(4000, 6000, CV_8UC3);
        for (int r = 0; r < image.rows; ++r) {
            auto* row = image.ptr<cv::Vec3b>(r);
            for (int c = 0; c < image.cols; ++c)
                row[c] = cv::Vec3b(static_cast<uchar>(c / 24), static_cast<uchar>(r / 16),
                                   static_cast<uchar>((r % 64 < 2 || c % 64 < 2) ? 255 : 0));
        }
        ASSERT_TRUE(cv::imwrite(path.toStdString(), image));
    }
    auto window = make_ready_window();
    show_settled(*window);

    EventLoopProbe probe;
    ASSERT_TRUE(open_and_wait(*window, path, 120000)) << window->errorText().toStdString();
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{4000, 6000}));
    EXPECT_EQ(window->inputView()->matrix(), window->input()->matrix.get());
    window->repaint();
    EXPECT_LT(probe.worstGapMs(), max_gap_ms())
        << "the event loop was blocked (longest gap on the clock: " << probe.worstWallGapMs()
        << " ms)";
}
