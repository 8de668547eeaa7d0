// The window without running anything: opening, refusing corrupt files, generating, settings,
// the close prompt.
#include "input_panel.hpp"
#include "matrix_view.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include "coalesce/device.hpp"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

TEST(MainWindow, OpensASampleImageIntoTheInputView) {
    auto window = make_ready_window();
    QSignalSpy changed(window.get(), &MainWindow::inputChanged);
    ASSERT_TRUE(window->openFile(sample("zoneplate-320x200.png"))) << window->errorText().toStdString();
    EXPECT_EQ(changed.count(), 1);
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{200, 320}));
    EXPECT_TRUE(window->inputView()->hasMatrix());
    EXPECT_EQ(window->inputView()->matrix(), window->input()->matrix.get());
    EXPECT_TRUE(window->errorText().isEmpty());
}

TEST(MainWindow, ACorruptImageShowsAnErrorAndKeepsThePreviousInput) {
    auto window = make_ready_window();
    ASSERT_TRUE(window->openFile(sample("noise-97x61.pgm")));
    const Matrix* before = window->input()->matrix.get();

    QTemporaryDir dir;
    const QString broken = dir.filePath("broken.png");
    QFile file(broken);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("\x89PNG\r\n\x1a\nthis is not an image");
    file.close();

    QSignalSpy errors(window.get(), &MainWindow::errorShown);
    EXPECT_FALSE(window->openFile(broken));
    EXPECT_EQ(errors.count(), 1);
    EXPECT_TRUE(window->errorText().contains("broken.png")) << window->errorText().toStdString();
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix.get(), before);
    EXPECT_EQ(window->inputView()->matrix(), before);
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{61, 97}));

    // The next good file clears the message.
    EXPECT_TRUE(window->openFile(sample("zoneplate-320x200.png")));
    EXPECT_TRUE(window->errorText().isEmpty());
}

TEST(MainWindow, GeneratesAMatrixOfTheChosenSize) {
    auto window = make_ready_window();
    GenerateRequest request;
    request.kind = GenerateRequest::Kind::checkerboard;
    request.rows = 33;
    request.cols = 17;
    request.square = 4;
    window->generate(request);
    ASSERT_TRUE(window->input().has_value());
    EXPECT_EQ(window->input()->matrix->shape(), (Shape{33, 17}));
    EXPECT_TRUE(window->input()->path.empty());
    EXPECT_NE(window->input()->source_type.find("checkerboard"), std::string::npos);
}

TEST(MainWindow, SaysPlainlyWhetherThereIsADeviceAndOffersOnlyRunnableVariants) {
    auto window = make_ready_window();
    EXPECT_EQ(window->hasDevice(), cuda_device_count() > 0);
    ASSERT_TRUE(window->openFile(sample("noise-97x61.pgm")));
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

TEST(MainWindow, CannotRunWithNothingChosen) {
    auto window = make_ready_window();
    window->runPanel()->setCheckedOps({});
    EXPECT_FALSE(window->startRun());
    EXPECT_FALSE(window->isRunning());
    EXPECT_TRUE(window->errorText().contains("operation")) << window->errorText().toStdString();
}
