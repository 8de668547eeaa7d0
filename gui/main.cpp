// coalesce: the desktop application. Also scriptable for docs and CI: --autorun,
// --screenshot/--run-and-screenshot, --open-results and --export-chart (ScriptedSession runs
// those steps).
#include "app_options.hpp"
#include "heap_padding.hpp"
#include "main_window.hpp"
#include "scripted_session.hpp"

#include <QApplication>
#include <QFileInfo>
#include <QSettings>

#include <cstdio>
#include <string_view>

#ifndef COALESCE_VERSION
#define COALESCE_VERSION "unknown"
#endif

using coalesce::gui::AppOptions;
using coalesce::gui::MainWindow;
using coalesce::gui::ScriptedSession;

namespace {

bool have_display() {
    return !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

bool wants_option(int argc, char** argv, const char* prefix) {
    for (int i = 1; i < argc; ++i)
        if (std::string_view(argv[i]).rfind(prefix, 0) == 0) return true;
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    const bool scripted = wants_option(argc, argv, "--export-chart") ||
                          wants_option(argc, argv, "--screenshot") ||
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
                         "  or export a chart from a results file:     "
                         "coalesce --open-results r.json --export-chart chart.png\n"
                         "  or use the command line tool:              coalesce-bench --help\n");
            return 2;
        }
    }

    coalesce::gui::pad_the_heap();
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("Coalesce");
    QCoreApplication::setApplicationVersion(COALESCE_VERSION);
    const AppOptions options = coalesce::gui::parse_app_options(app);
    // Scripted starts keep their own settings: they begin from the defaults every time (the same
    // screenshot on every machine) and leave the person's window layout alone.
    QCoreApplication::setApplicationName(options.scripted() ? "coalesce-gui-scripted"
                                                            : "coalesce-gui");
    if (options.scripted()) QSettings().clear();

    MainWindow window(options.plugin_dirs);
    if (options.scripted()) window.setClosePromptAnswer(QMessageBox::Discard);
    window.show();

    QString input = options.input;
    if (input.isEmpty() && !options.scripted()) {
        const QString last = QSettings().value("input/last").toString();
        if (!last.isEmpty() && QFileInfo::exists(last)) input = last;
    }
    if (input.isEmpty()) input = MainWindow::defaultSampleImage();
    auto* session = new ScriptedSession(window, options, input, !options.input.isEmpty());
    // Started from the event loop, so a script that ends at once can still quit it.
    QMetaObject::invokeMethod(session, &ScriptedSession::start, Qt::QueuedConnection);
    return QApplication::exec();
}
