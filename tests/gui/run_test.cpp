// Runs through the window: the worker thread fills the table, cancel leaves it consistent, results
// and outputs are saved, closing with unsaved results asks first. CPU variants (no device needed).
#include "image_loader.hpp"
#include "matrix_view.hpp"
#include "results/results_model.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include "coalesce/results_io.hpp"
#include "coalesce/typed_reference.hpp"

#include <QAction>
#include <QTableView>
#include <QTest>
#include <QTemporaryDir>

#include <cstring>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

// Only host variants, so the test does the same on every machine.
void choose_cpu_variants(MainWindow& window, const QStringList& ops) {
    QStringList host;
    for (const Variant& v : window.registry().variants())
        if (!v.info.gpu) host << QString::fromStdString(v.info.id);
    ASSERT_FALSE(host.isEmpty());
    window.runPanel()->setCheckedOps(ops);
    window.runPanel()->setCheckedVariants(host);
}

std::size_t host_variants_of(const MainWindow& window, const QStringList& ops) {
    std::size_t n = 0;
    for (const Variant& v : window.registry().variants())
        n += !v.info.gpu && ops.contains(QString::fromStdString(std::string(op_name(v.info.op))));
    return n;
}

bool run_to_end(MainWindow& window, int timeout_ms = 120000) {
    QSignalSpy finished(&window, &MainWindow::runFinished);
    QSignalSpy failed(&window, &MainWindow::runFailed);
    if (!window.startRun()) return false;
    EXPECT_TRUE(window.isRunning());
    finished.wait(timeout_ms);
    EXPECT_EQ(failed.count(), 0) << window.errorText().toStdString();
    // The first output is drawn off the window's thread once the run ends.
    EXPECT_TRUE(wait_idle(window));
    return finished.count() == 1;
}

}  // namespace

TEST(Run, OnTheLoadedImageFillsTheTableAndShowsOutputs) {
    auto window = make_ready_window();
    ASSERT_TRUE(open_and_wait(*window, sample("noise-97x61.pgm")));
    const QStringList ops{"transpose", "row_sums", "filter_x"};
    choose_cpu_variants(*window, ops);
    // f32: every host variant takes it (the 8-bit image's own u8 is the next test's)
    window->runPanel()->setChosenType(ElemType::f32);
    window->runPanel()->setSweep(false);
    EXPECT_FALSE(window->hasUnsavedResults());

    ASSERT_TRUE(run_to_end(*window)) << window->errorText().toStdString();
    EXPECT_FALSE(window->isRunning());

    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(static_cast<std::size_t>(model->rowCount()), host_variants_of(*window, ops));
    EXPECT_EQ(window->resultsView()->model()->rowCount(),
              model->rowCount());  // the table shows every row
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        EXPECT_TRUE(r.verified) << r.variant;
        EXPECT_EQ(r.rows, 61u);
        EXPECT_EQ(r.cols, 97u);
        EXPECT_GT(r.median_ms, 0.0) << r.variant;
        EXPECT_FALSE(model->data(model->index(row, ResultsModel::GbpsColumn)).toString().isEmpty());
    }
    EXPECT_TRUE(window->hasUnsavedResults());

    // The first row is selected: its output and a difference picture are shown.
    EXPECT_TRUE(window->outputView()->hasMatrix());
    EXPECT_TRUE(window->differenceView()->hasMatrix());
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->result(row).op != "transpose") continue;
        ASSERT_TRUE(select_and_wait(*window, row));
        ASSERT_TRUE(window->outputView()->hasMatrix());
        EXPECT_EQ(window->outputView()->matrix()->shape(), (Shape{97, 61}));
        EXPECT_TRUE(window->differenceView()->caption().contains("identical"))
            << window->differenceView()->caption().toStdString();
    }
}

// An 8-bit image runs as u8 as opened: the naive host variants take u8 (the blocked ones say
// they do not), the table says u8, and the output saved from the window is an 8-bit PNG holding
// the run's output bit for bit.
TEST(Run, An8BitImageRunsAsU8AndItsOutputSavesAs8Bit) {
    auto window = make_ready_window();
    ASSERT_TRUE(open_and_wait(*window, sample("noise-97x61.pgm")));
    ASSERT_EQ(window->input()->elem_type, ElemType::u8);
    choose_cpu_variants(*window, {"transpose"});
    window->runPanel()->setSweep(false);
    ASSERT_TRUE(run_to_end(*window)) << window->errorText().toStdString();

    const ResultsModel* model = window->resultsModel();
    int naive = -1;
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.type, "u8") << r.variant;
        EXPECT_EQ(model->data(model->index(row, ResultsModel::TypeColumn)).toString(), "u8");
        if (r.variant == "transpose/cpu-naive") {
            naive = row;
            EXPECT_EQ(r.status, Status::ok) << r.error;
            EXPECT_TRUE(r.verified);
        } else {
            EXPECT_EQ(r.status, Status::skipped) << r.variant;
            EXPECT_EQ(r.error, r.variant + " does not take u8 (it takes f32)");
        }
    }
    ASSERT_GE(naive, 0);
    ASSERT_TRUE(select_and_wait(*window, naive));
    ASSERT_TRUE(window->outputView()->hasMatrix());

    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("transposed.png");
    ASSERT_TRUE(window->saveOutputImage(path)) << window->errorText().toStdString();
    const LoadedImage saved = load_image(path.toStdString());
    EXPECT_EQ(saved.elem_type, ElemType::u8);
    ASSERT_TRUE(saved.typed);
    const auto& input = std::get<TypedImage<std::uint8_t>>(*window->input()->typed);
    EXPECT_EQ(std::get<TypedImage<std::uint8_t>>(*saved.typed), typed::transpose(input));
}

TEST(Run, CancelMidRunLeavesEveryRowCompleteOrMarkedCancelled) {
    auto window = make_ready_window();
    const QStringList ops{"copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"};
    choose_cpu_variants(*window, ops);
    const QString sizes = "1024x1024,1024x1024,1024x1024,1024x1024,1024x1024,1024x1024";
    window->runPanel()->setSweep(true, sizes);

    // Cancel as soon as the first result reaches the window, as a person pressing Esc would.
    ResultsModel* model = window->resultsModel();
    QObject::connect(
        model, &QAbstractItemModel::rowsInserted, window.get(), [&window] { window->cancelRun(); },
        Qt::SingleShotConnection);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    ASSERT_TRUE(window->startRun()) << window->errorText().toStdString();
    ASSERT_TRUE(finished.wait(120000));
    ASSERT_EQ(finished.count(), 1);
    EXPECT_TRUE(finished.front().front().toBool()) << "the run ended without being cancelled";

    // Every combination has a row, finished with numbers or marked cancelled without any.
    const std::size_t expected = 6 * host_variants_of(*window, ops);
    ASSERT_EQ(static_cast<std::size_t>(model->rowCount()), expected);
    EXPECT_TRUE(model->record().cancelled);
    int complete = 0, cancelled = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        const QString status =
            model->data(model->index(row, ResultsModel::StatusColumn)).toString();
        if (r.status == Status::ok) {
            ++complete;
            EXPECT_TRUE(r.verified) << r.variant;
            EXPECT_GT(r.median_ms, 0.0) << r.variant;
            EXPECT_GT(r.gbps, 0.0) << r.variant;
        } else {
            ++cancelled;
            EXPECT_EQ(r.status, Status::cancelled) << r.variant << ": " << r.error;
            EXPECT_EQ(r.gbps, 0.0) << r.variant;
            EXPECT_TRUE(status.contains("cancel", Qt::CaseInsensitive)) << status.toStdString();
        }
    }
    EXPECT_GE(complete, 1);
    EXPECT_GE(cancelled, 1);
    EXPECT_FALSE(window->isRunning());

    // The window is usable again: a second run starts and finishes normally.
    window->runPanel()->setSweep(true, "16x16");
    ASSERT_TRUE(run_to_end(*window));
    EXPECT_FALSE(model->record().cancelled);
}

TEST(Run, ResultsAndOutputImagesAreSaved) {
    auto window = make_ready_window();
    ASSERT_TRUE(open_and_wait(*window, sample("ramp16-128x96.png")));
    choose_cpu_variants(*window, {"transpose"});
    window->runPanel()->setSweep(false);
    ASSERT_TRUE(run_to_end(*window));
    ASSERT_TRUE(window->hasUnsavedResults());

    QTemporaryDir dir;
    const QString json = dir.filePath("results.json");
    ASSERT_TRUE(window->saveResults(json)) << window->errorText().toStdString();
    EXPECT_FALSE(window->hasUnsavedResults());
    const RunRecord back = load_results(json.toStdString());
    EXPECT_EQ(back.runs.size(), static_cast<std::size_t>(window->resultsModel()->rowCount()));

    // The output (a transposed 16-bit ramp) goes to a 16-bit TIFF and reads back exactly.
    ASSERT_TRUE(window->outputView()->hasMatrix());
    const Matrix* output = window->outputView()->matrix();
    const QString tif = dir.filePath("output.tif");
    ASSERT_TRUE(window->saveOutputImage(tif)) << window->errorText().toStdString();
    const LoadedImage image = load_image(tif.toStdString());
    ASSERT_EQ(image.matrix->shape(), output->shape());
    EXPECT_EQ(std::memcmp(image.matrix->data(), output->data(), output->size() * sizeof(float)), 0);
}

TEST(Run, ClosingWithUnsavedResultsAsksFirst) {
    auto window = make_ready_window();
    window->show();
    choose_cpu_variants(*window, {"copy"});
    window->runPanel()->setSweep(true, "8x8");
    ASSERT_TRUE(run_to_end(*window));
    ASSERT_TRUE(window->hasUnsavedResults());

    // A sweep runs on random data: the input view shows that matrix, and a copy's output equals it.
    ASSERT_TRUE(window->inputView()->hasMatrix());
    ASSERT_TRUE(window->outputView()->hasMatrix());
    const Matrix* in = window->inputView()->matrix();
    const Matrix* out = window->outputView()->matrix();
    ASSERT_EQ(in->shape(), (Shape{8, 8}));
    ASSERT_EQ(out->shape(), in->shape());
    EXPECT_EQ(std::memcmp(in->data(), out->data(), in->size() * sizeof(float)), 0);
    EXPECT_TRUE(window->inputView()->caption().contains("random"))
        << window->inputView()->caption().toStdString();

    window->setClosePromptAnswer(QMessageBox::Cancel);
    EXPECT_FALSE(window->close());
    EXPECT_TRUE(window->isVisible());

    window->setClosePromptAnswer(QMessageBox::Discard);
    EXPECT_TRUE(window->close());
    EXPECT_FALSE(window->isVisible());
}

TEST(Run, KeyboardShortcutsRunAndCancel) {
    auto window = make_ready_window();
    window->show();
    window->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(window.get()));
    choose_cpu_variants(*window,
                        {"copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"});
    window->runPanel()->setSweep(true, "1024x1024,1024x1024,1024x1024,1024x1024");

    // Every documented shortcut is bound to an action of the window.
    QStringList bound;
    for (QAction* a : window->findChildren<QAction*>())
        for (const QKeySequence& k : a->shortcuts())
            bound << k.toString(QKeySequence::PortableText);
    for (const char* key :
         {"Ctrl+O", "Ctrl+R", "Esc", "Ctrl+S", "Ctrl+E", "Ctrl+Q", "Ctrl+=", "Ctrl+-"})
        EXPECT_TRUE(bound.contains(key)) << key << " is not bound";

    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    QTest::keyClick(window.get(), Qt::Key_R, Qt::ControlModifier);
    ASSERT_TRUE(window->isRunning()) << "Ctrl+R did not start a run";
    QTest::keyClick(window.get(), Qt::Key_Escape);
    ASSERT_TRUE(finished.wait(120000));
    EXPECT_TRUE(finished.front().front().toBool()) << "Esc did not cancel the run";
}
