// The application's scripted command line, run as a separate process the way scripts and the
// docs use it: open a results file and export its chart; run, then save a screenshot.
#include "window_helpers.hpp"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>

#include "run_panel.hpp"

#include "coalesce/results_io.hpp"

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

struct Finished {
    int exit_code = -1;
    QString output;
};

// headless: no display and no platform chosen, as on a server or in CI.
Finished run_app(const QStringList& arguments, const QString& config_home, bool headless = false) {
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (headless) {
        for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) env.remove(name);
    } else {
        env.insert("QT_QPA_PLATFORM", "offscreen");
    }
    env.insert("XDG_CONFIG_HOME", config_home);
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.start(app_path(), arguments);
    EXPECT_TRUE(app.waitForFinished(120000)) << "the app did not finish";
    return {app.exitStatus() == QProcess::NormalExit ? app.exitCode() : -1,
            QString::fromLocal8Bit(app.readAll())};
}

}  // namespace

TEST(CommandLine, OpensAResultsFileAndExportsItsChart) {
    QTemporaryDir dir;
    const QString json = dir.filePath("cpu.json");
    {
        // A results file as coalesce-bench would write it, made through the window.
        auto window = make_ready_window();
        window->runPanel()->setSweep(true, "32x32,64x48");
        window->runPanel()->setCheckedOps({"copy", "transpose"});
        QSignalSpy finished(window.get(), &MainWindow::runFinished);
        ASSERT_TRUE(window->startRun()) << window->errorText().toStdString();
        ASSERT_TRUE(finished.wait(120000));
        ASSERT_TRUE(window->saveResults(json));
    }
    for (const char* chart : {"bandwidth", "sweep"}) {
        const QString png = dir.filePath(QString("chart-%1.png").arg(chart));
        // Headless, as the docs run it on a server: the export needs no display.
        const Finished f = run_app(
            {"--open-results", json, "--chart", chart, "--export-chart", png}, dir.path(), true);
        EXPECT_EQ(f.exit_code, 0) << f.output.toStdString();
        const QImage image(png);
        EXPECT_FALSE(image.isNull()) << chart << ": " << f.output.toStdString();
        EXPECT_GT(image.width(), 300);
    }
    // Two files side by side (the same one twice is enough to draw both series).
    const QString compared = dir.filePath("compare.svg");
    const Finished c =
        run_app({"--compare", json, "--compare", json, "--export-chart", compared}, dir.path());
    EXPECT_EQ(c.exit_code, 0) << c.output.toStdString();
    QFile svg(compared);
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
    EXPECT_TRUE(svg.readAll().contains("<svg"));

    // A file that is not there: exit status 1, the reason on stderr, no chart file.
    const QString missing_png = dir.filePath("none.png");
    const Finished f =
        run_app({"--open-results", dir.filePath("missing.json"), "--export-chart", missing_png},
                dir.path());
    EXPECT_EQ(f.exit_code, 1);
    EXPECT_TRUE(f.output.contains("missing.json")) << f.output.toStdString();
    EXPECT_FALSE(QFileInfo::exists(missing_png));
}

TEST(CommandLine, ExportsBothCountersChartsFromAResultsFileWithCounters) {
    QTemporaryDir dir;
    const QString results = docs_dir() + "/h100-counters-8192.json";
    for (const char* chart : {"dram-model", "sectors"}) {
        const QString png = dir.filePath(QString("%1.png").arg(chart));
        const Finished f = run_app(
            {"--open-results", results, "--chart", chart, "--export-chart", png}, dir.path(), true);
        EXPECT_EQ(f.exit_code, 0) << chart << ": " << f.output.toStdString();
        const QImage image(png);
        ASSERT_FALSE(image.isNull()) << chart << ": " << f.output.toStdString();
        // One row per variant of the file: far taller than a slide.
        EXPECT_GT(image.height(), 1200) << chart;
    }
    // A file without counters: the export fails and says why, and leaves no file.
    const QString none = dir.filePath("none.png");
    const Finished f = run_app({"--open-results", docs_dir() + "/h200-bench.json", "--chart",
                                "dram-model", "--export-chart", none},
                               dir.path(), true);
    EXPECT_EQ(f.exit_code, 1);
    EXPECT_TRUE(f.output.contains("no hardware counters")) << f.output.toStdString();
    EXPECT_FALSE(QFileInfo::exists(none));
}

TEST(CommandLine, RunsAndSavesAScreenshotOfTheWindow) {
    QTemporaryDir dir;
    const QString png = dir.filePath("window.png");
    const Finished f = run_app({"--run-and-screenshot", png, "--sizes", "16x16"}, dir.path());
    EXPECT_EQ(f.exit_code, 0) << f.output.toStdString();
    const QImage image(png);
    ASSERT_FALSE(image.isNull()) << f.output.toStdString();
    EXPECT_GE(image.width(), 800);
    EXPECT_GE(image.height(), 500);
}

TEST(CommandLine, RefusesBadOptionsWithUsageStatus) {
    QTemporaryDir dir;
    EXPECT_EQ(
        run_app({"--chart", "pie", "--export-chart", dir.filePath("x.png")}, dir.path()).exit_code,
        2);
    EXPECT_EQ(
        run_app({"--compare", "only-one.json", "--export-chart", dir.filePath("x.png")}, dir.path())
            .exit_code,
        2);
}

TEST(CommandLine, WithoutADisplaySaysHowToRunHeadlessAndStillHelps) {
    QTemporaryDir dir;
    const Finished window = run_app({}, dir.path(), true);
    EXPECT_EQ(window.exit_code, 2);
    EXPECT_TRUE(window.output.contains("xvfb-run")) << window.output.toStdString();

    const Finished help = run_app({"--help"}, dir.path(), true);
    EXPECT_EQ(help.exit_code, 0) << help.output.toStdString();
    EXPECT_TRUE(help.output.contains("--export-chart")) << help.output.toStdString();
}

TEST(CommandLine, ExportsTheParameterChartOfASweptResultsFile) {
    QTemporaryDir dir;
    // offset_read swept 0..8 as coalesce-bench writes it, with the sector model's figures.
    RunRecord record;
    record.device.name = "Test GPU";
    for (long long k = 0; k <= 8; ++k) {
        RunResult r;
        r.op = "offset_read";
        r.variant = "offset_read/global";
        r.memory_space = "global";
        r.rows = r.cols = 8192;
        r.params = {{"offset", k}};
        r.status = Status::ok;
        r.verified = true;
        r.median_ms = r.min_ms = r.max_ms = 1.0;
        r.reps = 20;
        r.copy_gbps = 3000;
        r.model_efficiency = k % 8 == 0 ? 1.0 : 256.0 / 288.0;
        r.gbps = 2900 * r.model_efficiency;
        r.pct_of_copy = 100 * r.gbps / r.copy_gbps;
        record.runs.push_back(r);
    }
    const QString json = dir.filePath("offsets.json");
    save_results(json.toStdString(), record);

    const QString svg_path = dir.filePath("offset.svg");
    const Finished f =
        run_app({"--open-results", json, "--chart", "parameter", "--export-chart", svg_path},
                dir.path(), true);
    EXPECT_EQ(f.exit_code, 0) << f.output.toStdString();
    QFile svg(svg_path);
    ASSERT_TRUE(svg.open(QIODevice::ReadOnly)) << f.output.toStdString();
    const QByteArray text = svg.readAll();
    EXPECT_TRUE(text.contains(">offset<")) << "the x axis names the parameter";
    EXPECT_TRUE(text.contains(">model<")) << "the model's line is in the legend";

    // The same chart as % of copy; a measure it does not know is a usage error.
    const QString percent_path = dir.filePath("percent.svg");
    const Finished p = run_app({"--open-results", json, "--chart", "parameter", "--measure",
                                "percent", "--export-chart", percent_path},
                               dir.path(), true);
    EXPECT_EQ(p.exit_code, 0) << p.output.toStdString();
    QFile percent(percent_path);
    ASSERT_TRUE(percent.open(QIODevice::ReadOnly));
    EXPECT_TRUE(percent.readAll().contains("% of the same run"));
    EXPECT_EQ(run_app({"--open-results", json, "--measure", "furlongs", "--export-chart",
                       dir.filePath("x.png")},
                      dir.path(), true)
                  .exit_code,
              2);

    // A parameter the file does not sweep: refused, nothing written.
    const QString none = dir.filePath("stride.png");
    const Finished g = run_app({"--open-results", json, "--chart", "parameter", "--parameter",
                                "stride", "--export-chart", none},
                               dir.path(), true);
    EXPECT_EQ(g.exit_code, 1);
    EXPECT_TRUE(g.output.contains("sweep offset")) << g.output.toStdString();
    EXPECT_FALSE(QFileInfo::exists(none));
}
