// The window without running anything: opening, refusing corrupt files, generating, settings,
// the close prompt.
#include "input_panel.hpp"
#include "matrix_view.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include "results/results_model.hpp"

#include "coalesce/device.hpp"
#include "coalesce/results_io.hpp"

#include <QAction>
#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QMimeData>
#include <QSettings>
#include <QTemporaryDir>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

TEST(MainWindow, OpensASampleImageIntoTheInputView) {
    auto window = make_ready_window();
    QSignalSpy changed(window.get(), &MainWindow::inputChanged);
    ASSERT_TRUE(open_and_wait(*window, sample("zoneplate-320x200.png")))
        << window->errorText().toStdString();
    EXPECT_EQ(changed.count(), 1);
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{200, 320}));
    EXPECT_TRUE(window->inputView()->hasMatrix());
    EXPECT_EQ(window->inputView()->matrix(), window->input()->matrix.get());
    EXPECT_TRUE(window->errorText().isEmpty());
}

TEST(MainWindow, ACorruptImageShowsAnErrorAndKeepsThePreviousInput) {
    auto window = make_ready_window();
    ASSERT_TRUE(open_and_wait(*window, sample("noise-97x61.pgm")));
    const Matrix* before = window->input()->matrix.get();

    QTemporaryDir dir;
    const QString broken = dir.filePath("broken.png");
    QFile file(broken);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("\x89PNG\r\n\x1a\nthis is not an image");
    file.close();

    QSignalSpy errors(window.get(), &MainWindow::errorShown);
    EXPECT_FALSE(open_and_wait(*window, broken));
    EXPECT_EQ(errors.count(), 1);
    EXPECT_TRUE(window->errorText().contains("broken.png")) << window->errorText().toStdString();
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix.get(), before);
    EXPECT_EQ(window->inputView()->matrix(), before);
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{61, 97}));

    // The next good file clears the message.
    EXPECT_TRUE(open_and_wait(*window, sample("zoneplate-320x200.png")));
    EXPECT_TRUE(window->errorText().isEmpty());
}

// Alpha chosen for an RGBA file and saved: files without alpha still open, as luminance, and the
// log says why; the choice stays for the next RGBA file.
TEST(MainWindow, ASavedAlphaChoiceNeverMakesFilesWithoutAlphaUnopenable) {
    struct Restore {
        ~Restore() { QSettings().remove("input/channel"); }
    } restore;
    QSettings().setValue("input/channel", static_cast<int>(ChannelChoice::alpha));
    auto window = make_ready_window();
    ASSERT_EQ(window->findChild<InputPanel*>()->channel(), ChannelChoice::alpha);
    for (const char* name : {"shapes-160x120.ppm", "noise-97x61.pgm"}) {
        ASSERT_TRUE(open_and_wait(*window, sample(name)))
            << name << ": " << window->errorText().toStdString();
        EXPECT_EQ(window->input()->channel, ChannelChoice::luminance) << name;
        EXPECT_TRUE(window->logText().contains("no alpha channel")) << name;
    }
    EXPECT_EQ(window->findChild<InputPanel*>()->channel(), ChannelChoice::alpha);
}

TEST(MainWindow, GeneratesAMatrixOfTheChosenSize) {
    auto window = make_ready_window();
    GenerateRequest request;
    request.kind = GenerateRequest::Kind::checkerboard;
    request.rows = 33;
    request.cols = 17;
    request.square = 4;
    ASSERT_TRUE(generate_and_wait(*window, request));
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{33, 17}));
    EXPECT_TRUE(window->input()->path.empty());
    EXPECT_NE(window->input()->source_type.find("checkerboard"), std::string::npos);
}

TEST(MainWindow, SaysPlainlyWhetherThereIsADeviceAndOffersOnlyRunnableVariants) {
    auto window = make_ready_window();
    EXPECT_EQ(window->hasDevice(), cuda_device_count() > 0);
    ASSERT_TRUE(open_and_wait(*window, sample("noise-97x61.pgm")));
    QString error;
    const auto config = window->runPanel()->makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    for (const std::string& id : config->variants) {
        const Variant* v = window->registry().find(id);
        ASSERT_NE(v, nullptr) << id;
        if (!window->hasDevice()) {
            EXPECT_FALSE(v->info.gpu) << id << " offered without a CUDA device";
        }
    }
    if (!window->hasDevice()) {
        EXPECT_TRUE(config->include_cpu);
        EXPECT_TRUE(window->logText().contains("No CUDA device"));
    }
}

TEST(MainWindow, RunSettingsPersistBetweenStarts) {
    {
        auto window = make_ready_window();
        window->runPanel()->setCheckedOps({"transpose", "filter_y"});
        window->runPanel()->setSweep(true, "64x32,128x16");
        window->close();
    }
    auto again = make_ready_window();
    EXPECT_EQ(again->runPanel()->checkedOps(), (QStringList{"transpose", "filter_y"}));
    EXPECT_FALSE(again->runPanel()->useLoadedInput());
    QString error;
    const auto config = again->runPanel()->makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->sizes, (std::vector<Shape>{{64, 32}, {128, 16}}));
    QSettings().clear();
}

TEST(MainWindow, TheViewMenuShowsExperimentsInTheVariantTree) {
    auto window = make_ready_window();
    QAction* toggle = nullptr;
    for (QAction* a : window->findChildren<QAction*>())
        if (a->text().remove('&') == "Show Experiment Variants") toggle = a;
    ASSERT_NE(toggle, nullptr);
    ASSERT_FALSE(window->runPanel()->showExperiments());
    toggle->trigger();
    EXPECT_TRUE(window->runPanel()->showExperiments());
    window->runPanel()->setShowExperiments(false);  // and the other way: the menu follows
    EXPECT_FALSE(toggle->isChecked());
}

TEST(MainWindow, CannotRunWithNothingChosen) {
    auto window = make_ready_window();
    window->runPanel()->setCheckedOps({});
    EXPECT_FALSE(window->startRun());
    EXPECT_FALSE(window->isRunning());
    EXPECT_TRUE(window->errorText().contains("operation")) << window->errorText().toStdString();
}

TEST(MainWindow, OpensAResultsFileAndKeepsItWhenTheNextOneIsBroken) {
    QTemporaryDir dir;
    RunRecord record;
    record.device = host_info();
    record.started_at = "2026-11-21T23:00:00Z";
    RunResult r;
    r.op = "transpose";
    r.variant = "transpose/cpu-naive";
    r.memory_space = "host";
    r.rows = 64;
    r.cols = 32;
    r.verified = true;
    r.median_ms = 0.5;
    r.gbps = 0.03;
    r.gpu = false;
    record.runs = {r, r};
    record.runs[1].rows = 128;
    const QString json = dir.filePath("results.json");
    save_results(json.toStdString(), record);

    auto window = make_ready_window();
    ASSERT_TRUE(window->openResults(json)) << window->errorText().toStdString();
    EXPECT_EQ(window->resultsModel()->rowCount(), 2);
    EXPECT_FALSE(window->hasUnsavedResults());  // nothing new to lose

    const QString broken = dir.filePath("broken.json");
    QFile file(broken);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{\"schema\": \"coalesce-results/1\", \"runs\": [");
    file.close();
    EXPECT_FALSE(window->openResults(broken));
    EXPECT_TRUE(window->errorText().contains("broken.json")) << window->errorText().toStdString();
    EXPECT_EQ(window->resultsModel()->rowCount(), 2);
}

TEST(MainWindow, OpensADroppedImage) {
    auto window = make_ready_window();
    window->show();
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(sample("shapes-160x120.ppm"))});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(window.get(), &enter);
    EXPECT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QSignalSpy changed(window.get(), &MainWindow::inputChanged);
    QApplication::sendEvent(window.get(), &drop);
    ASSERT_TRUE(changed.wait(30000));
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{120, 160}));
}

TEST(MainWindow, ARefusedPluginIsNamedInTheLogAndTheWindowStillWorks) {
    QTemporaryDir dir;
    QFile bogus(dir.filePath("libbogus.so"));
    ASSERT_TRUE(bogus.open(QIODevice::WriteOnly));
    bogus.write("not a shared library");
    bogus.close();

    MainWindow window({dir.path()});
    EXPECT_TRUE(window.logText().contains("Plugin refused")) << window.logText().toStdString();
    EXPECT_TRUE(window.logText().contains("libbogus.so")) << window.logText().toStdString();
    EXPECT_GT(window.registry().size(), 0u);  // the built-in variants are all there
    EXPECT_TRUE(open_and_wait(window, sample("noise-97x61.pgm")));
}
