#include "bandwidth_bars_model.hpp"
#include "chart_widgets.hpp"
#include "compare_model.hpp"
#include "results_model.hpp"
#include "sample_record.hpp"

#include <QApplication>
#include <QComboBox>
#include <QScrollArea>
#include <QScrollBar>
#include <QFile>
#include <QImage>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <unistd.h>

namespace coalesce::gui {
namespace {

using testing::sampleRecord;
using testing::sampleResult;

// Share of pixels that are not (near) white: a chart with axes, bars and text has plenty.
double inkShare(const QImage& image) {
    qint64 ink = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            if (qGray(image.pixel(x, y)) < 200) ++ink;
    return static_cast<double>(ink) / (static_cast<double>(image.width()) * image.height());
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

class ChartWidgets : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(dir.isValid());
        model.setRecord(sampleRecord());
    }
    QString path(const QString& name) const { return dir.filePath(name); }

    QTemporaryDir dir;
    ResultsModel model;
};

TEST_F(ChartWidgets, BandwidthChartNamesTheDeviceSizeOperationsAndCopyReference) {
    BandwidthChartWidget chart(&model);
    EXPECT_TRUE(chart.hasData());
    EXPECT_TRUE(chart.chartTitle().contains("NVIDIA H200"));
    EXPECT_TRUE(chart.chartTitle().contains(QStringLiteral("8192×8192")));
    const QStringList legend = chart.legendLabels();
    EXPECT_EQ(legend.mid(0, 6),
              (QStringList{"copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"}));
    ASSERT_EQ(legend.size(), 7);
    EXPECT_TRUE(legend.last().startsWith("device copy, same run: 3,951.0 GB/s"))
        << legend.last().toStdString();
}

TEST_F(ChartWidgets, BandwidthChartCanBeLimitedToOneTier) {
    BandwidthChartWidget chart(&model);
    chart.setTier("classic");
    EXPECT_TRUE(chart.chartTitle().contains("classic variants"))
        << chart.chartTitle().toStdString();
    EXPECT_EQ(chart.barsModel()->rowCount(), 16);  // 15 classic variants and the copy's bar
    auto* tiers = chart.findChild<QComboBox*>("tierChoice");
    ASSERT_NE(tiers, nullptr);
    EXPECT_EQ(tiers->currentData().toString(), "classic");
    QStringList offered;
    for (int i = 0; i < tiers->count(); ++i) offered << tiers->itemText(i);
    EXPECT_EQ(offered, (QStringList{"all", "classic", "tuned"}));
    tiers->setCurrentIndex(tiers->findData("tuned"));
    emit tiers->activated(tiers->currentIndex());
    EXPECT_EQ(chart.barsModel()->tier(), "tuned");
    EXPECT_EQ(chart.barsModel()->rowCount(), 2);
}

TEST_F(ChartWidgets, ChartsFollowResultsAsTheyArrive) {
    ResultsModel live;
    BandwidthChartWidget bars(&live);
    SizeSweepChartWidget sweep(&live);
    EXPECT_FALSE(bars.hasData());
    EXPECT_TRUE(bars.chartTitle().contains("no verified results"));
    const RunRecord record = sampleRecord("NVIDIA H100");
    live.beginRun(record.device, record.config, record.started_at);
    live.appendResult(sampleResult("copy", "copy/global", "global", 512, 512, 100.0));
    live.appendResult(sampleResult("transpose", "transpose/shared-tile", "shared", 512, 512, 80.0));
    EXPECT_TRUE(bars.hasData());
    EXPECT_TRUE(bars.chartTitle().contains("NVIDIA H100"));
    EXPECT_EQ(bars.legendLabels().mid(0, 2), (QStringList{"copy", "transpose"}));
    EXPECT_EQ(sweep.legendLabels(), (QStringList{"copy/global", "transpose/shared-tile"}));
}

TEST_F(ChartWidgets, SweepChartShowsOneOperationOnRequest) {
    SizeSweepChartWidget chart(&model);
    // 16 lines are too many for one chart: until asked, it shows the first operation after copy.
    EXPECT_TRUE(chart.chartTitle().contains("transpose")) << chart.chartTitle().toStdString();
    chart.setOperation("row_sums");
    EXPECT_TRUE(chart.chartTitle().contains("row_sums"));
    QStringList legend = chart.legendLabels();
    EXPECT_EQ(legend.mid(0, 3),
              (QStringList{"row_sums/global-thread-per-row", "row_sums/global-warp-per-row",
                           "row_sums/fast-warp-float4"}));
    EXPECT_TRUE(legend.last().startsWith("L2 cache: 60 MiB"));
}

TEST_F(ChartWidgets, ExportsAPngThatDecodesAtTheAskedSizeAndIsNotBlank) {
    BandwidthChartWidget chart(&model);
    QString error;
    ASSERT_TRUE(chart.exportChart(path("bars.png"), &error, QSize(1100, 700)))
        << error.toStdString();
    QImage image;
    ASSERT_TRUE(image.load(path("bars.png")));
    EXPECT_EQ(image.size(), QSize(1100, 700));
    EXPECT_GT(inkShare(image), 0.03);
    // The default export size grows with the number of bars so labels stay apart.
    EXPECT_GE(chart.exportSize().height(), 16 * 24);
}

TEST_F(ChartWidgets, ExportsSvgThatParsesAndCarriesTheDeviceName) {
    SizeSweepChartWidget chart(&model);
    QString error;
    ASSERT_TRUE(chart.exportChart(path("sweep.svg"), &error)) << error.toStdString();
    QSvgRenderer svg(path("sweep.svg"));
    EXPECT_TRUE(svg.isValid());
    EXPECT_TRUE(readAll(path("sweep.svg")).contains("NVIDIA H200"));
}

TEST_F(ChartWidgets, ExportsAPdfWithHeaderAndEndMarker) {
    BandwidthChartWidget chart(&model);
    QString error;
    ASSERT_TRUE(chart.exportChart(path("bars.pdf"), &error)) << error.toStdString();
    const QByteArray pdf = readAll(path("bars.pdf"));
    EXPECT_GT(pdf.size(), 1000);
    EXPECT_TRUE(pdf.startsWith("%PDF-"));
    EXPECT_TRUE(pdf.trimmed().endsWith("%%EOF"));
}

TEST_F(ChartWidgets, ExportToAnUnwritablePlaceFailsWithAMessageAndLeavesNoFile) {
    BandwidthChartWidget chart(&model);
    QString error;
    const QString missing_dir = path("no-such-folder/bars.png");
    EXPECT_FALSE(chart.exportChart(missing_dir, &error));
    EXPECT_TRUE(error.contains("no-such-folder")) << error.toStdString();
    EXPECT_FALSE(QFile::exists(missing_dir));

    error.clear();
    EXPECT_FALSE(chart.exportChart(path("bars.bmp"), &error));
    EXPECT_TRUE(error.contains("unknown image format")) << error.toStdString();
    EXPECT_FALSE(QFile::exists(path("bars.bmp")));

    if (::geteuid() != 0) {  // root writes anywhere
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::ExeOwner);
        error.clear();
        EXPECT_FALSE(chart.exportChart(path("bars.svg"), &error));
        EXPECT_FALSE(error.isEmpty());
        QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        EXPECT_FALSE(QFile::exists(path("bars.svg")));
    }
    EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
}

TEST_F(ChartWidgets, CompareChartNamesBothDevicesInTitleLegendAndExport) {
    CompareChartWidget chart;
    EXPECT_FALSE(chart.hasData());
    chart.setRecords(sampleRecord("NVIDIA H200"), "h200.json", sampleRecord("NVIDIA H100", 0.8),
                     "h100.json");
    EXPECT_TRUE(chart.hasData());
    EXPECT_TRUE(chart.chartTitle().contains("NVIDIA H200"));
    EXPECT_TRUE(chart.chartTitle().contains("NVIDIA H100"));
    EXPECT_EQ(chart.legendLabels(), (QStringList{"NVIDIA H200", "NVIDIA H100"}));
    QString error;
    ASSERT_TRUE(chart.exportChart(path("compare.svg"), &error)) << error.toStdString();
    const QByteArray svg = readAll(path("compare.svg"));
    EXPECT_TRUE(svg.contains("NVIDIA H200"));
    EXPECT_TRUE(svg.contains("NVIDIA H100"));
}

// The compare chart's axis names the compared runs' element types, as the bandwidth chart's
// title does, instead of float32 for every run.
TEST_F(ChartWidgets, CompareChartNamesTheElementTypesOnItsAxis) {
    CompareChartWidget chart;
    chart.setRecords(sampleRecord("NVIDIA H200"), "h200.json", sampleRecord("NVIDIA H100", 0.8),
                     "h100.json");
    QString error;
    ASSERT_TRUE(chart.exportChart(path("f32.svg"), &error)) << error.toStdString();
    EXPECT_TRUE(readAll(path("f32.svg")).contains("at 8192×8192 float32"));

    RunRecord a = sampleRecord("NVIDIA H200"), b = sampleRecord("NVIDIA H100", 0.8);
    for (RunRecord* record : {&a, &b})
        for (RunResult& r : record->runs) {
            r.type = "u8";
            r.channels = 3;
        }
    chart.setRecords(a, "h200.json", b, "h100.json");
    EXPECT_EQ(chart.compareModel()->typesText(), "u8x3");
    ASSERT_TRUE(chart.exportChart(path("u8.svg"), &error)) << error.toStdString();
    const QByteArray svg = readAll(path("u8.svg"));
    EXPECT_TRUE(svg.contains("at 8192×8192 u8x3"));
    EXPECT_FALSE(svg.contains("float32"));
}

// Failed and skipped runs (the blocked host variants skip u8) are noted on a line of their own:
// on the formula's line they made the chart wider than a window's chart area, so the largest
// bars' value labels, the copy's among them, lay beyond its right edge.
TEST_F(ChartWidgets, TheHiddenRunsNoteDoesNotWidenTheChartPastItsLabels) {
    RunRecord record;
    RunResult copy = sampleResult("copy", "copy/cpu-naive", "host", 200, 320, 206.0);
    copy.gpu = false;
    copy.copy_gbps = 195.0;  // the variant beats the host copy
    record.runs = {copy};
    for (int i = 0; i < 6; ++i) {
        RunResult skipped = copy;
        skipped.variant = "copy/cpu-blocked-" + std::to_string(i);
        skipped.status = Status::skipped;
        skipped.error = "does not take u8";
        record.runs.push_back(skipped);
    }
    model.setRecord(record);
    BandwidthChartWidget chart(&model);
    chart.resize(700, 420);
    chart.show();
    QApplication::processEvents();
    auto* scroll = chart.findChild<QScrollArea*>();
    ASSERT_NE(scroll, nullptr);
    ASSERT_NE(scroll->widget(), nullptr);
    EXPECT_LE(scroll->widget()->minimumWidth(), scroll->viewport()->width());
    EXPECT_FALSE(scroll->horizontalScrollBar()->isVisible());
    QString error;
    ASSERT_TRUE(chart.exportChart(path("hidden.svg"), &error)) << error.toStdString();
    EXPECT_TRUE(readAll(path("hidden.svg")).contains("6 failed or skipped run(s) not shown"));
}

TEST_F(ChartWidgets, CompareOfOneDeviceNamesTheFilesToo) {
    CompareChartWidget chart;
    chart.setRecords(sampleRecord("NVIDIA H200"), "monday.json", sampleRecord("NVIDIA H200", 0.9),
                     "tuesday.json");
    EXPECT_TRUE(chart.chartTitle().contains("monday.json"));
    EXPECT_TRUE(chart.chartTitle().contains("tuesday.json"));
    EXPECT_EQ(chart.legendLabels(),
              (QStringList{"NVIDIA H200 (monday.json)", "NVIDIA H200 (tuesday.json)"}));
}

TEST_F(ChartWidgets, TabsExportTheVisibleChart) {
    ResultsChartsWidget charts(&model);
    charts.showComparison(sampleRecord("NVIDIA H200"), "a.json", sampleRecord("NVIDIA H100"),
                          "b.json");
    EXPECT_EQ(charts.currentChart(), charts.compare());
    QString error;
    ASSERT_TRUE(charts.exportCurrentChart(path("current.png"), &error)) << error.toStdString();
    EXPECT_FALSE(QImage(path("current.png")).isNull());
}

}  // namespace
}  // namespace coalesce::gui
