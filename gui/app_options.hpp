// The command line of the desktop application (coalesce): what to open and, for scripts, what to
// do without a person.
#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace coalesce::gui {

struct AppOptions {
    QString input;            // an image or matrix file to open
    QString open_results;     // a coalesce-bench JSON/CSV to show
    QStringList compare;      // two results files to compare
    QString sizes;            // run a sweep of these sizes instead of the loaded input
    bool autorun = false;     // start a run once the window shows
    bool counters = false;    // runs are followed by a hardware counters pass
    QString screenshot;       // after everything else, grab the window to this PNG and quit
    QString export_chart;     // export the current chart to this file (.png/.svg/.pdf) and quit
    QString chart;            // bandwidth, sweep, compare, parameter, dram-model or sectors
    QString parameter;        // the parameter chart's x axis (empty: the most swept one)
    QString measure;          // the parameter chart's y axis: gbps, percent or ns
    QStringList plugin_dirs;  // extra folders searched for plugins

    bool scripted() const { return !screenshot.isEmpty() || !export_chart.isEmpty(); }
};

// Parses the arguments (exits with usage on --help or a bad option).
AppOptions parse_app_options(const QCoreApplication& app);
// The same from an argument list (the program's name first).
AppOptions parse_app_options(const QStringList& arguments);

}  // namespace coalesce::gui
