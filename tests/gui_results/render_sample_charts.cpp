// Renders every results chart to PNG (the bandwidth chart also to SVG and PDF) for a person to see:
//   coalesce_render_charts OUT_DIR [RESULTS.json [OTHER.json]]
// Without files it uses the hand-made sample record (and a slower copy of it to compare with);
// the counters charts then draw the hand-made counters record, or the file's counters.
#include "chart_widgets.hpp"
#include "results_files.hpp"
#include "results_model.hpp"
#include "sample_record.hpp"

#include <QApplication>
#include <QDir>
#include <QFileInfo>

#include <cstdio>

namespace {

bool exportTo(const coalesce::gui::ChartPanel& chart, const QString& path) {
    QString error;
    if (!chart.exportChart(path, &error)) {
        std::fprintf(stderr, "%s\n", qPrintable(error));
        return false;
    }
    std::printf("%s\n", qPrintable(path));
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUT_DIR [RESULTS.json [OTHER.json]]\n", argv[0]);
        return 2;
    }
    using namespace coalesce::gui;
    const QDir out(QString::fromLocal8Bit(argv[1]));
    if (!QDir().mkpath(out.path())) return 2;

    coalesce::RunRecord first = testing::sampleRecord();
    coalesce::RunRecord second = testing::sampleRecord("NVIDIA H100", 0.78);
    QString first_label = "sample-h200.json", second_label = "sample-h100.json";
    QString error;
    if (argc > 2) {
        auto loaded = loadResultsFile(QString::fromLocal8Bit(argv[2]), &error);
        if (!loaded) return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
        first = *loaded;
        first_label = QFileInfo(QString::fromLocal8Bit(argv[2])).fileName();
    }
    if (argc > 3) {
        auto loaded = loadResultsFile(QString::fromLocal8Bit(argv[3]), &error);
        if (!loaded) return std::fprintf(stderr, "%s\n", qPrintable(error)), 1;
        second = *loaded;
        second_label = QFileInfo(QString::fromLocal8Bit(argv[3])).fileName();
    }

    ResultsModel model;
    model.setRecord(first);
    ResultsChartsWidget charts(&model);
    charts.compare()->setRecords(first, first_label, second, second_label);
    bool ok = exportTo(*charts.bandwidth(), out.filePath("bandwidth.png"));
    ok = exportTo(*charts.bandwidth(), out.filePath("bandwidth.svg")) && ok;
    ok = exportTo(*charts.bandwidth(), out.filePath("bandwidth.pdf")) && ok;
    ok = exportTo(*charts.sweep(), out.filePath("sweep.png")) && ok;
    charts.sweep()->setOperation(QString());
    ok = exportTo(*charts.sweep(), out.filePath("sweep-all.png")) && ok;
    ok = exportTo(*charts.compare(), out.filePath("compare.png")) && ok;
    if (argc <= 2) model.setRecord(testing::countersRecord());
    ok = exportTo(*charts.dramModel(), out.filePath("dram-model.png")) && ok;
    ok = exportTo(*charts.sectors(), out.filePath("sectors.png")) && ok;

    // The live widget as the window shows it (controls included), on the first tab.
    charts.setCurrentIndex(0);
    charts.resize(1100, 760);
    charts.show();
    QApplication::processEvents();
    const QString window = out.filePath("widget.png");
    ok = charts.grab().save(window) && ok;
    std::printf("%s\n", qPrintable(window));
    return ok ? 0 : 1;
}
