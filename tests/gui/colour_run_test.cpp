// A colour photograph through the window with its colour kept: the run is a colour run (3 or 4
// channels), the pictures are in colour, the output saves as a colour PNG of its own type byte
// for byte, and an f32 run of it is refused with the engine's message. Host variants: any
// machine.
#include "image_panes.hpp"
#include "input_panel.hpp"
#include "matrix_view.hpp"
#include "results/results_model.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include "coalesce/typed_reference.hpp"
#include "coalesce/typed_run.hpp"

#include <QAction>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include <cmath>
#include <cstdint>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

using Bgr = TypedImage<std::uint8_t>;

// The host variants of `ops` that the run panel offers (for a colour input: the naive ones).
void choose_host_variants(MainWindow& window, const QStringList& ops) {
    QStringList host;
    for (const Variant& v : window.registry().variants())
        if (!v.info.gpu) host << QString::fromStdString(v.info.id);
    window.runPanel()->setCheckedOps(ops);
    window.runPanel()->setCheckedVariants(host);
    window.runPanel()->setSweep(false);
    window.runPanel()->setChosenType(std::nullopt);  // as opened
}

// The colour a u8 B, G, R pixel is drawn in.
QRgb drawn(const Bgr& image, std::size_t r, std::size_t c) {
    return qRgb(image.at(r, c, 2), image.at(r, c, 1), image.at(r, c, 0));
}

std::unique_ptr<MainWindow> window_with_colour_photo() {
    auto window = make_ready_window();
    window->inputPanel()->setKeepColour(true);
    EXPECT_TRUE(open_and_wait(*window, sample("chelsea-451x300.png")));
    EXPECT_TRUE(wait_idle(*window));
    return window;
}

// Starts a run and waits for it to finish and the window to settle; false (with the window's
// error text in the failure message) if it did not.
testing::AssertionResult run_and_wait(MainWindow& window) {
    QSignalSpy finished(&window, &MainWindow::runFinished);
    if (!window.startRun())
        return testing::AssertionFailure() << "not started: " << window.errorText().toStdString();
    if (!finished.wait(120000))
        return testing::AssertionFailure() << "not finished: " << window.errorText().toStdString();
    if (!wait_idle(window)) return testing::AssertionFailure() << "not idle";
    return testing::AssertionSuccess();
}

}  // namespace

TEST(ColourRun, AKeptColourImageRunsAsColourShowsColourAndSavesAsColour) {
    auto window = window_with_colour_photo();
    ASSERT_TRUE(window->input());
    ASSERT_TRUE(window->input()->colour);
    const Bgr& photo = std::get<Bgr>(*window->input()->colour);
    ASSERT_EQ(photo.channels(), 3u);
    const std::size_t rows = photo.rows(), cols = photo.cols();
    EXPECT_TRUE(QString::fromStdString(window->input()->source_type).contains("as stored"))
        << window->input()->source_type;

    // The input view draws the photograph in its colours.
    const QImage& input = window->inputView()->image();
    ASSERT_EQ(input.size(), QSize(static_cast<int>(cols), static_cast<int>(rows)));
    for (const auto& [r, c] : {std::pair<std::size_t, std::size_t>{0, 0}, {17, 301}, {299, 450}})
        EXPECT_EQ(input.pixel(static_cast<int>(c), static_cast<int>(r)), drawn(photo, r, c));

    choose_host_variants(*window, {"transpose", "filter_x"});
    QString error;
    const auto config = window->runPanel()->makeConfig(&error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->channels, 3);
    EXPECT_EQ(config->types, std::vector<ElemType>{ElemType::u8});
    // The blocked host variants take one channel: a colour run does not offer them.
    EXPECT_EQ(config->variants,
              (std::vector<std::string>{"transpose/cpu-naive", "filter_x/cpu-naive"}));

    ASSERT_TRUE(run_and_wait(*window));

    const ResultsModel* model = window->resultsModel();
    ASSERT_EQ(model->rowCount(), 2);
    int transpose = -1;
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        EXPECT_TRUE(r.verified) << r.variant;
        EXPECT_EQ(r.channels, 3) << r.variant;
        EXPECT_EQ(type_label(r), "u8x3");
        if (r.variant == "transpose/cpu-naive") transpose = row;
    }
    ASSERT_GE(transpose, 0);
    ASSERT_TRUE(select_and_wait(*window, transpose));

    // The output is the transposed photograph, in colour; the input view still the photograph.
    const QImage& output = window->outputView()->image();
    ASSERT_EQ(output.size(), QSize(static_cast<int>(rows), static_cast<int>(cols)));
    for (const auto& [r, c] : {std::pair<std::size_t, std::size_t>{0, 0}, {17, 301}, {299, 450}})
        EXPECT_EQ(output.pixel(static_cast<int>(r), static_cast<int>(c)), drawn(photo, r, c));
    EXPECT_EQ(window->inputView()->image().size(), input.size());
    EXPECT_TRUE(window->differenceView()->caption().contains("identical"))
        << window->differenceView()->caption().toStdString();
    EXPECT_EQ(window->differenceView()->image().size(), output.size());

    // Saved, it is an 8-bit colour PNG holding the run's output byte for byte.
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const QString path = dir.filePath("transposed.png");
    ASSERT_TRUE(window->saveOutputImage(path)) << window->errorText().toStdString();
    LoadOptions colour;
    colour.keep_colour = true;
    const LoadedImage saved = load_image(path.toStdString(), colour);
    EXPECT_EQ(saved.elem_type, ElemType::u8);
    ASSERT_TRUE(saved.colour);
    EXPECT_EQ(std::get<Bgr>(*saved.colour), typed::transpose(photo));
}

// The default reads a colour photograph as one channel, as before: grey runs, no colour variants.
TEST(ColourRun, ByDefaultAColourImageIsOneChannel) {
    QAction open("Open"), generate("Generate");
    const InputPanel fresh(&open, &generate);
    EXPECT_FALSE(fresh.keepColour());
    EXPECT_EQ(fresh.channel(), ChannelChoice::luminance);

    auto window = make_ready_window();
    window->inputPanel()->setKeepColour(false);  // whatever an earlier test left in the settings
    ASSERT_TRUE(open_and_wait(*window, sample("chelsea-451x300.png")));
    ASSERT_TRUE(window->input());
    EXPECT_FALSE(window->input()->colour);
    choose_host_variants(*window, {"transpose"});
    EXPECT_EQ(window->runPanel()->runChannels(), 1);
    QString error;
    const auto config = window->runPanel()->makeConfig(&error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->channels, 1);
}

// f32 runs take one channel: asked for one on a kept colour image, the window shows the engine's
// reason as text and stays usable.
TEST(ColourRun, AnF32RunOfAColourImageIsRefusedWithTheEnginesMessage) {
    auto window = window_with_colour_photo();
    ASSERT_TRUE(window->input() && window->input()->colour);
    choose_host_variants(*window, {"transpose"});
    window->runPanel()->setChosenType(ElemType::f32);
    QSignalSpy failed(window.get(), &MainWindow::runFailed);
    QSignalSpy finished(window.get(), &MainWindow::runFinished);
    const bool started = window->startRun();
    if (started) failed.wait(60000);
    EXPECT_TRUE(window->errorText().contains("f32 runs take 1 channel"))
        << window->errorText().toStdString();
    EXPECT_EQ(finished.count(), 0);
    EXPECT_FALSE(window->isRunning());
}

// A 16-bit colour image with alpha runs as u16 with 4 channels: drawn without its alpha, filtered
// by the naive host variant against the CPU reference, saved as a 16-bit RGBA PNG that reads back
// as the output.
TEST(ColourRun, A16BitImageWithAlphaRunsAsU16WithFourChannels) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    TypedImage<std::uint16_t> bgra(37, 53, 4);
    for (std::size_t i = 0; i < bgra.size(); ++i)
        bgra.data()[i] = static_cast<std::uint16_t>((i * 7919) % 65536);
    const QString file = dir.filePath("bgra16.png");
    ASSERT_TRUE(cv::imwrite(file.toStdString(),
                            cv::Mat(37, 53, CV_16UC4, const_cast<std::uint16_t*>(bgra.data()))));

    auto window = make_ready_window();
    window->inputPanel()->setKeepColour(true);
    ASSERT_TRUE(open_and_wait(*window, file));
    ASSERT_TRUE(wait_idle(*window));
    ASSERT_TRUE(window->input() && window->input()->colour);
    EXPECT_EQ(std::get<TypedImage<std::uint16_t>>(*window->input()->colour), bgra);
    choose_host_variants(*window, {"filter_x"});  // the loaded input, not a sweep of sizes
    EXPECT_EQ(window->runPanel()->runChannels(), 4);
    const QImage& input = window->inputView()->image();
    EXPECT_EQ(input.pixel(5, 3), qRgb(static_cast<int>(std::lround(bgra.at(3, 5, 2) / 257.0)),
                                      static_cast<int>(std::lround(bgra.at(3, 5, 1) / 257.0)),
                                      static_cast<int>(std::lround(bgra.at(3, 5, 0) / 257.0))));

    ASSERT_TRUE(run_and_wait(*window));
    ASSERT_EQ(window->resultsModel()->rowCount(), 1);
    const RunResult& r = window->resultsModel()->result(0);
    EXPECT_EQ(r.status, Status::ok) << r.error;
    EXPECT_TRUE(r.verified);
    EXPECT_EQ(type_label(r), "u16x4");
    ASSERT_TRUE(select_and_wait(*window, 0));
    EXPECT_TRUE(window->outputView()->caption().contains("A: not drawn"))
        << window->outputView()->caption().toStdString();

    const QString saved = dir.filePath("filtered.png");
    ASSERT_TRUE(window->saveOutputImage(saved)) << window->errorText().toStdString();
    LoadOptions colour;
    colour.keep_colour = true;
    const LoadedImage back = load_image(saved.toStdString(), colour);
    ASSERT_TRUE(back.colour);
    EXPECT_EQ(*back.colour, *window->imagePanes()->typedOutput());
    EXPECT_EQ(cv::imread(saved.toStdString(), cv::IMREAD_UNCHANGED).type(), CV_16UC4);
}

// The Element type control converts a colour image too: an 8-bit photograph scaled to u16
// (x257) runs as u16 with its 3 channels and is drawn as the photograph.
TEST(ColourRun, An8BitColourImageRunsAsU16WhenAsked) {
    auto window = window_with_colour_photo();
    choose_host_variants(*window, {"transpose"});
    window->runPanel()->setChosenType(ElemType::u16);
    ASSERT_TRUE(run_and_wait(*window));
    ASSERT_EQ(window->resultsModel()->rowCount(), 1);
    const RunResult& r = window->resultsModel()->result(0);
    EXPECT_EQ(r.status, Status::ok) << r.error;
    EXPECT_EQ(type_label(r), "u16x3");
    const Bgr& photo = std::get<Bgr>(*window->input()->colour);
    ASSERT_TRUE(select_and_wait(*window, 0));
    EXPECT_EQ(window->outputView()->image().pixel(17, 301), drawn(photo, 17, 301));
}

// The colour choice is remembered; with it, a grey file still opens, as one channel, the log
// saying why it is not colour.
TEST(ColourRun, TheColourChoiceIsRememberedAndAGreyFileStillOpens) {
    struct Restore {
        ~Restore() { QSettings().remove("input/colour"); }
    } restore;
    {
        auto window = make_ready_window();
        window->inputPanel()->setKeepColour(true);
        window->close();  // saves the settings
    }
    EXPECT_TRUE(QSettings().value("input/colour").toBool());
    auto window = make_ready_window();
    ASSERT_TRUE(window->inputPanel()->keepColour());
    ASSERT_TRUE(open_and_wait(*window, sample("noise-97x61.pgm")))
        << window->errorText().toStdString();
    EXPECT_FALSE(window->input()->colour);
    EXPECT_EQ(window->runPanel()->runChannels(), 1);
    EXPECT_TRUE(window->logText().contains("colour runs take an 8 or 16-bit image of 3 or 4"))
        << window->logText().toStdString();
}
