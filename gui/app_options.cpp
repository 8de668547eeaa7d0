#include "app_options.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>

namespace coalesce::gui {

AppOptions parse_app_options(const QCoreApplication& app) {
    return parse_app_options(app.arguments());
}

AppOptions parse_app_options(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        "Coalesce: compare how CUDA memory spaces move data, on images or generated matrices.");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        "file", "An image (PNG, JPEG, TIFF, BMP, PGM/PPM) or OpenCV YAML/XML matrix to open.",
        "[file]");
    const QCommandLineOption open_results(
        "open-results", "Show a results file written by coalesce-bench (JSON or CSV).", "file");
    const QCommandLineOption compare(
        "compare", "Compare two results files side by side (give the option twice).", "file");
    const QCommandLineOption sizes(
        "sizes", "Run a sweep of sizes instead of the loaded input, e.g. 256x256,1024x1024.",
        "list");
    const QCommandLineOption autorun(
        "autorun", "Start a run with the current settings once the window shows.");
    const QCommandLineOption screenshot(
        "screenshot", "When done (after --autorun's run), save the window to this PNG and quit.",
        "file.png");
    const QCommandLineOption counters(
        "counters",
        "Follow each run by a hardware counters pass under Nsight Compute (Run > Hardware "
        "Counters).");
    const QCommandLineOption run_and_screenshot("run-and-screenshot",
                                                "Same as --autorun --screenshot FILE.", "file.png");
    const QCommandLineOption export_chart(
        "export-chart", "Export the chart (.png, .svg or .pdf) and quit.", "file");
    const QCommandLineOption chart(
        "chart",
        "The chart to show or export: bandwidth, sweep, compare, parameter, dram-model (hardware "
        "counters: DRAM bytes over the model) or sectors (sectors per request and bank "
        "conflicts).",
        "name");
    const QCommandLineOption parameter(
        "parameter",
        "The parameter chart's x axis where the results sweep several (offset, stride, ...).",
        "name");
    const QCommandLineOption measure(
        "measure", "The parameter chart's measure: gbps, percent (of copy) or ns (per access).",
        "name");
    // --plugins as coalesce-bench spells it; --plugin-dir, the window's earlier name, still works.
    const QCommandLineOption plugins(QStringList{"plugins", "plugin-dir"},
                                     "Also load variant plugins from this folder (as "
                                     "coalesce-bench --plugins; --plugin-dir is the same).",
                                     "dir");
    parser.addOptions({open_results, compare, sizes, autorun, counters, screenshot,
                       run_and_screenshot, export_chart, chart, parameter, measure, plugins});
    parser.process(arguments);

    AppOptions o;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1) {
        std::fprintf(stderr, "coalesce: give at most one file to open\n");
        std::exit(2);
    }
    if (!positional.isEmpty()) o.input = positional.front();
    o.open_results = parser.value(open_results);
    o.compare = parser.values(compare);
    if (!o.compare.isEmpty() && o.compare.size() != 2) {
        std::fprintf(stderr, "coalesce: --compare needs exactly two files\n");
        std::exit(2);
    }
    o.sizes = parser.value(sizes);
    o.autorun = parser.isSet(autorun) || parser.isSet(run_and_screenshot);
    o.counters = parser.isSet(counters);
    o.screenshot = parser.isSet(run_and_screenshot) ? parser.value(run_and_screenshot)
                                                    : parser.value(screenshot);
    o.export_chart = parser.value(export_chart);
    o.chart = parser.value(chart);
    const QStringList charts{"bandwidth", "sweep", "compare", "parameter", "dram-model", "sectors"};
    if (!o.chart.isEmpty() && !charts.contains(o.chart)) {
        std::fprintf(stderr,
                     "coalesce: --chart must be bandwidth, sweep, compare, parameter, dram-model "
                     "or sectors\n");
        std::exit(2);
    }
    o.parameter = parser.value(parameter);
    o.measure = parser.value(measure);
    if (!o.measure.isEmpty() && o.measure != "gbps" && o.measure != "percent" &&
        o.measure != "ns") {
        std::fprintf(stderr, "coalesce: --measure must be gbps, percent or ns\n");
        std::exit(2);
    }
    o.plugin_dirs = parser.values(plugins);
    return o;
}

}  // namespace coalesce::gui
