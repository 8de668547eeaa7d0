// coalesce: the desktop application. Also scriptable for docs and CI: --autorun,
// --screenshot/--run-and-screenshot, --open-results and --export-chart.
#include "app_options.hpp"
#include "main_window.hpp"
#include "run_panel.hpp"

#include <QApplication>
#include <QFileInfo>
#include <QPixmap>
#include <QSaveFile>
#include <QScreen>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <cstdlib>

using coalesce::gui::AppOptions;
using coalesce::gui::MainWindow;

namespace {

bool have_display() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

bool wants_option(int argc, char** argv, const char* prefix) {
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]).rfind(prefix, 0) == 0) return true;
    return false;
}

// The window as it shows on screen (a real window under X or Xvfb); the widget painted into a
// pixmap where the platform cannot grab screens (offscreen).
bool save_screenshot(MainWindow& window, const QString& path) {
    QPixmap pixmap;
    if (QScreen* screen = window.screen()) pixmap = screen->grabWindow(window.winId());
    if (pixmap.isNull() || pixmap.size().isEmpty()) pixmap = window.grab();
    QSaveFile file(path);  // written aside and renamed into place on commit
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
        std::fprintf(stderr, "coalesce: cannot write the screenshot %s: %s\n", qPrintable(path),
                     qPrintable(file.errorString()));
        return false;
    }
    std::fprintf(stderr, "coalesce: screenshot %s (%dx%d)\n", qPrintable(path), pixmap.width(), pixmap.height());
    return true;
}

// After the scripted steps are done: export (only when everything before worked, so a failed
// open never leaves a chart of nothing), grab, quit with 0 when everything worked.
void finish_script(MainWindow& window, const AppOptions& options, bool ok_so_far) {
    bool ok = ok_so_far;
    if (!ok && !window.errorText().isEmpty()) std::fprintf(stderr, "coalesce: %s\n", qPrintable(window.errorText()));
    if (ok && !options.export_chart.isEmpty() && !window.exportChart(options.export_chart)) {
        std::fprintf(stderr, "coalesce: %s\n", qPrintable(window.errorText()));
        ok = false;
    }
    if (!options.screenshot.isEmpty()) ok = save_screenshot(window, options.screenshot) && ok;
    QCoreApplication::exit(ok ? 0 : 1);
}

}  // namespace

int main(int argc, char** argv) {
    const bool scripted = wants_option(argc, argv, "--export-chart") || wants_option(argc, argv, "--screenshot") ||
                          wants_option(argc, argv, "--run-and-screenshot");
    const bool just_usage = wants_option(argc, argv, "--help") || wants_option(argc, argv, "-h") ||
                            wants_option(argc, argv, "--version") || wants_option(argc, argv, "-v");
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && !have_display()) {
        if (scripted || just_usage) {
            qputenv("QT_QPA_PLATFORM", "offscreen");  // exports, grabs and --help need no screen
        } else {
            std::fprintf(stderr,
                         "coalesce: no display found (DISPLAY and WAYLAND_DISPLAY are unset).\n"
                         "  Headless, run it under a virtual display:  xvfb-run -a coalesce\n"
                         "  or export a chart from a results file:     coalesce --open-results r.json --export-chart chart.png\n"
                         "  or use the command line tool:              coalesce-bench --help\n");
            return 2;
        }
    }

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("Coalesce");
    QCoreApplication::setApplicationVersion("0.1.0");
    const AppOptions options = coalesce::gui::parse_app_options(app);
    // Scripted starts keep their own settings: they begin from the defaults every time (the same
    // screenshot on every machine) and leave the person's window layout alone.
    QCoreApplication::setApplicationName(options.scripted() ? "coalesce-gui-scripted" : "coalesce-gui");
    if (options.scripted()) QSettings().clear();

    MainWindow window(options.plugin_dirs);
    if (options.scripted()) window.setClosePromptAnswer(QMessageBox::Discard);
    window.show();

    bool ok = true;
    QString input = options.input;
    if (input.isEmpty() && !options.scripted()) {
        const QString last = QSettings().value("input/last").toString();
        if (!last.isEmpty() && QFileInfo::exists(last)) input = last;
    }
    if (input.isEmpty()) input = MainWindow::defaultSampleImage();
    if (!input.isEmpty()) ok = window.openFile(input) || options.input.isEmpty();

    if (!options.open_results.isEmpty()) ok = window.openResults(options.open_results) && ok;
    if (!options.compare.isEmpty()) {
        ok = window.compareResults(options.compare.at(0), options.compare.at(1)) && ok;
        if (options.chart.isEmpty()) window.showChart("compare");
    }
    if (!options.chart.isEmpty()) window.showChart(options.chart);
    if (!options.sizes.isEmpty()) window.runPanel()->setSweep(true, options.sizes);

    if (options.autorun) {
        // Run once the worker knows whether there is a GPU (it picks the variants and sizes).
        const auto run = [&window, &options, &ok] {
            if (!window.startRun()) {
                std::fprintf(stderr, "coalesce: cannot start the run: %s\n", qPrintable(window.errorText()));
                if (options.scripted()) finish_script(window, options, false);
            }
        };
        if (window.deviceProbed()) QTimer::singleShot(0, &window, run);
        else QObject::connect(&window, &MainWindow::deviceReady, &window, run, Qt::SingleShotConnection);
        if (options.scripted()) {
            QObject::connect(&window, &MainWindow::runFinished, &window, [&window, &options, &ok] {
                // Let the table and charts lay out and paint before grabbing.
                QTimer::singleShot(500, &window, [&window, &options, &ok] { finish_script(window, options, ok); });
            });
            QObject::connect(&window, &MainWindow::runFailed, &window,
                             [&window, &options] { finish_script(window, options, false); });
        }
    } else if (options.scripted()) {
        QTimer::singleShot(500, &window, [&window, &options, &ok] { finish_script(window, options, ok); });
    }
    return QApplication::exec();
}
