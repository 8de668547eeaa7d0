// The hardware counters in the results table and the two counters charts: values are the
// measured counters over the models, runs without counters say why, exports carry the axes.
#include "chart_widgets.hpp"
#include "counters_cells.hpp"
#include "counters_chart_models.hpp"
#include "results_model.hpp"
#include "sample_record.hpp"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QLabel>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cmath>

namespace coalesce::gui {
namespace {

using testing::countersRecord;
using testing::kHostStatus;
using testing::sampleRecord;

int rowOf(const QAbstractItemModel& model, const QString& header) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.headerData(r, Qt::Vertical).toString() == header) return r;
    return -1;
}

int columnOf(const QAbstractItemModel& model, const QString& header) {
    for (int c = 0; c < model.columnCount(); ++c)
        if (model.headerData(c, Qt::Horizontal).toString() == header) return c;
    return -1;
}

const RunResult& runNamed(const RunRecord& record, const std::string& variant) {
    for (const RunResult& r : record.runs)
        if (r.variant == variant) return r;
    throw std::runtime_error("no run " + variant);
}

double measuredOverModel(const RunResult& r) {
    return static_cast<double>(r.counters->dram_read_bytes + r.counters->dram_write_bytes) /
           static_cast<double>(r.bytes);
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

TEST(CountersCells, ShowTheRatioMarkedPastTheToleranceAndCountsAtAGlance) {
    const RunRecord record = countersRecord();
    const RunResult& copy = runNamed(record, "copy/global");
    EXPECT_EQ(countersText(copy, CountersField::DramOverModel), "0.963");
    EXPECT_DOUBLE_EQ(countersValue(copy, CountersField::DramOverModel).toDouble(),
                     measuredOverModel(copy));
    EXPECT_EQ(countersText(copy, CountersField::LoadSectors), "4.0");
    EXPECT_EQ(countersText(copy, CountersField::L2HitRate), "51.8");

    const RunResult& naive = runNamed(record, "transpose/global-naive");
    EXPECT_EQ(countersText(naive, CountersField::DramOverModel), "1.191 !");
    EXPECT_TRUE(countersToolTip(naive, CountersField::DramOverModel).contains("more than 10%"));
    EXPECT_EQ(countersText(naive, CountersField::StoreSectors), "32.0");

    const RunResult& tile = runNamed(record, "transpose/shared-tile");
    EXPECT_EQ(countersText(tile, CountersField::BankConflicts), "65.9M / 84.2k");
    EXPECT_EQ(countersValue(tile, CountersField::BankConflicts).toULongLong(), 65860843u + 84224u);

    // A texture copy makes no LSU load requests: no number, and the tooltip says why.
    const RunResult& texture = runNamed(record, "copy/texture-array");
    EXPECT_TRUE(countersText(texture, CountersField::LoadSectors).isEmpty());
    EXPECT_FALSE(countersValue(texture, CountersField::LoadSectors).isValid());
    EXPECT_TRUE(countersToolTip(texture, CountersField::LoadSectors).contains("texture fetches"));
}

TEST(CountersCells, ARunWithoutCountersIsEmptyWithItsStatusAsTooltip) {
    const RunRecord record = countersRecord();
    const RunResult& host = record.runs.back();
    for (int f = 0; f < kCountersFieldCount; ++f) {
        const auto field = static_cast<CountersField>(f);
        EXPECT_TRUE(countersText(host, field).isEmpty()) << f;
        EXPECT_FALSE(countersValue(host, field).isValid()) << f;
        EXPECT_EQ(countersToolTip(host, field),
                  QStringLiteral("no hardware counters: ") + QString::fromLatin1(kHostStatus));
    }
    EXPECT_EQ(countersNotes(record),
              QStringList{QStringLiteral("No counters for 1 run: ") + kHostStatus});
    EXPECT_TRUE(countersNotes(sampleRecord()).isEmpty());  // no pass ran: nothing to explain
}

TEST(CountersTable, TheResultsModelShowsTheCountersColumnsAndTheStatusTooltip) {
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRecord(sampleRecord());
    EXPECT_FALSE(model.hasCountersInfo());
    model.setRecord(countersRecord());
    EXPECT_TRUE(model.hasCountersInfo());
    EXPECT_EQ(model.headerData(ResultsModel::DramOverModelColumn, Qt::Horizontal).toString(),
              "DRAM / model");
    const int host = model.rowCount() - 1;
    const QModelIndex cell = model.index(host, ResultsModel::DramOverModelColumn);
    EXPECT_TRUE(cell.data().toString().isEmpty());
    EXPECT_TRUE(cell.data(Qt::ToolTipRole).toString().contains("measured on the GPU only"));
    const QModelIndex naive = model.index(1, ResultsModel::DramOverModelColumn);
    EXPECT_EQ(naive.data().toString(), "1.191 !");
    EXPECT_EQ(model.index(1, ResultsModel::OccupancyColumn).data().toString(), "82.0");
}

TEST(DramModelBarsModel, ValuesAreMeasuredOverModelWithTheMismatchInItsOwnColumn) {
    ResultsModel results;
    DramModelBarsModel bars(&results);
    QAbstractItemModelTester tester(&bars, QAbstractItemModelTester::FailureReportingMode::Fatal);
    bars.setModelReferenceRow(true);
    const RunRecord record = countersRecord();
    results.setRecord(record);

    ASSERT_TRUE(bars.hasCounters());
    EXPECT_EQ(bars.shownSize(), (Shape{8192, 8192}));
    EXPECT_EQ(bars.rowCount(), 6);  // the model's row and five variants with counters
    EXPECT_EQ(bars.runsWithoutCounters(), 1);
    EXPECT_EQ(bars.missingReason(), QString::fromLatin1(kHostStatus));
    EXPECT_EQ(bars.headerData(0, Qt::Vertical).toString(),
              DramModelBarsModel::modelReferenceLabel());
    EXPECT_DOUBLE_EQ(bars.index(0, bars.referenceColumn()).data().toDouble(), 1.0);

    for (const char* variant :
         {"copy/global", "transpose/shared-tile", "copy/texture-array", "transpose/global-naive"}) {
        const int row = rowOf(bars, variant);
        ASSERT_GE(row, 0) << variant;
        const RunResult& r = runNamed(record, variant);
        const bool mismatch = std::string(variant) == "transpose/global-naive";
        EXPECT_EQ(bars.differsFromModel(row), mismatch) << variant;
        const int own =
            mismatch ? bars.mismatchColumn() : columnOf(bars, QString::fromStdString(r.op));
        ASSERT_GE(own, 0) << variant;
        for (int c = 0; c < bars.columnCount(); ++c) {
            const double v = bars.index(row, c).data().toDouble();
            if (c == own)
                EXPECT_DOUBLE_EQ(v, measuredOverModel(r)) << variant;
            else
                EXPECT_EQ(v, 0.0) << variant << " column " << c;
        }
    }
    EXPECT_EQ(bars.headerData(bars.mismatchColumn(), Qt::Horizontal).toString(),
              "more than 10% off the model");
    EXPECT_NEAR(bars.largestRatio(), 1.191, 1e-3);

    bars.setReversedRows(true);  // the model's bar on top of a horizontal chart
    EXPECT_EQ(bars.headerData(bars.rowCount() - 1, Qt::Vertical).toString(),
              DramModelBarsModel::modelReferenceLabel());
}

TEST(DramModelBarsModel, ARecordWithoutCountersHasNoRowsAndSaysWhy) {
    ResultsModel results;
    DramModelBarsModel bars(&results);
    QAbstractItemModelTester tester(&bars, QAbstractItemModelTester::FailureReportingMode::Fatal);
    bars.setModelReferenceRow(true);
    results.setRecord(sampleRecord());
    EXPECT_FALSE(bars.hasCounters());
    EXPECT_EQ(bars.rowCount(), 0);
    EXPECT_EQ(bars.columnCount(), 0);
    EXPECT_EQ(bars.runsWithoutCounters(), static_cast<int>(sampleRecord().runs.size()));
    EXPECT_TRUE(bars.missingReason().contains("no counters pass ran"));

    // Every run has a status (a pass that could not profile): the reason most of them give.
    RunRecord statuses = sampleRecord();
    for (RunResult& r : statuses.runs) r.counters_status = "ncu was not found";
    statuses.runs.front().counters_status = "host variant";
    results.setRecord(statuses);
    EXPECT_EQ(bars.missingReason(), "ncu was not found");
}

TEST(SectorsConflictsModel, SectorsPerRequestConflictsPerWavefrontAndTheModelBeside) {
    ResultsModel results;
    SectorsConflictsModel model(&results);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    results.setRecord(countersRecord());
    using M = SectorsConflictsModel;
    ASSERT_EQ(model.rowCount(), 5);
    EXPECT_TRUE(model.hasSectorModel());
    EXPECT_TRUE(model.hasSharedMemory());

    const int naive = rowOf(model, "transpose/global-naive");
    EXPECT_DOUBLE_EQ(model.index(naive, M::LoadSectorsColumn).data().toDouble(), 4.0);
    EXPECT_DOUBLE_EQ(model.index(naive, M::StoreSectorsColumn).data().toDouble(), 32.0);
    // No model for it, no shared memory: nothing drawn, and no value behind it.
    EXPECT_EQ(model.index(naive, M::ModelStoreSectorsColumn).data().toDouble(), 0.0);
    EXPECT_FALSE(model.index(naive, M::ModelStoreSectorsColumn).data(M::RawRole).isValid());
    EXPECT_FALSE(model.index(naive, M::LoadConflictsColumn).data(M::RawRole).isValid());

    const int tile = rowOf(model, "transpose/shared-tile");
    EXPECT_DOUBLE_EQ(model.index(tile, M::LoadConflictsColumn).data().toDouble(),
                     65860843.0 / 67957995.0);
    EXPECT_DOUBLE_EQ(model.index(tile, M::StoreConflictsColumn).data().toDouble(),
                     84224.0 / 2181376.0);

    const int padded = rowOf(model, "transpose/shared-padded");
    EXPECT_DOUBLE_EQ(model.index(padded, M::ModelLoadSectorsColumn).data().toDouble(), 4.0);
    EXPECT_DOUBLE_EQ(model.index(padded, M::ModelLoadSectorsColumn).data(M::RawRole).toDouble(),
                     4.0);

    const int texture = rowOf(model, "copy/texture-array");
    EXPECT_FALSE(model.index(texture, M::LoadSectorsColumn).data(M::RawRole).isValid());
    EXPECT_DOUBLE_EQ(model.largestSectors(), 32.0);
}

class CountersCharts : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_TRUE(dir.isValid()); }
    QString path(const QString& name) const { return dir.filePath(name); }

    QTemporaryDir dir;
    ResultsModel model;
};

TEST_F(CountersCharts, DramModelChartNamesTheModelTheMarkAndExportsToSvg) {
    model.setRecord(countersRecord());
    DramModelChartWidget chart(&model);
    ASSERT_TRUE(chart.hasData());
    EXPECT_TRUE(chart.chartTitle().contains("NVIDIA H100 80GB HBM3"));
    EXPECT_TRUE(chart.chartTitle().contains("DRAM bytes / model bytes"));
    EXPECT_TRUE(chart.chartTitle().contains(QStringLiteral("8192×8192 float32")))
        << chart.chartTitle().toStdString();
    const QStringList legend = chart.legendLabels();
    EXPECT_EQ(legend, (QStringList{"copy", "transpose", "more than 10% off the model",
                                   DramModelBarsModel::modelReferenceLabel()}));
    QString error;
    ASSERT_TRUE(chart.exportChart(path("dram.svg"), &error)) << error.toStdString();
    EXPECT_TRUE(QSvgRenderer(path("dram.svg")).isValid());
    const QByteArray svg = readAll(path("dram.svg"));
    EXPECT_TRUE(svg.contains("DRAM bytes read + written (counters) / bytes model"));
    EXPECT_TRUE(svg.contains("transpose/global-naive"));
    EXPECT_TRUE(svg.contains("1 run(s) without counters not shown"));
    // The window says why above the chart.
    auto* note = chart.findChild<QLabel*>("countersMissingNote");
    ASSERT_NE(note, nullptr);
    EXPECT_TRUE(note->text().contains(kHostStatus)) << note->text().toStdString();
}

// The counters charts' titles name the drawn runs' element types, not float32 for every run.
TEST_F(CountersCharts, TitlesNameTheElementTypes) {
    RunRecord record = countersRecord();
    for (RunResult& r : record.runs) r.type = "u16";
    model.setRecord(record);
    DramModelChartWidget dram(&model);
    SectorsChartWidget sectors(&model);
    for (const ChartPanel* chart :
         {static_cast<const ChartPanel*>(&dram), static_cast<const ChartPanel*>(&sectors)}) {
        EXPECT_TRUE(chart->chartTitle().contains(QStringLiteral("8192×8192 u16 (one profiled")))
            << chart->chartTitle().toStdString();
        EXPECT_FALSE(chart->chartTitle().contains("float32"));
    }
}

TEST_F(CountersCharts, SectorsChartHasBothAxesTheModelAndExportsToSvg) {
    model.setRecord(countersRecord());
    SectorsChartWidget chart(&model);
    ASSERT_TRUE(chart.hasData());
    EXPECT_EQ(
        chart.legendLabels(),
        (QStringList{"load sectors / request", "store sectors / request", "sector model: load",
                     "sector model: store", "shared load conflicts / wavefront",
                     "shared store conflicts / wavefront"}));
    QString error;
    ASSERT_TRUE(chart.exportChart(path("sectors.svg"), &error)) << error.toStdString();
    EXPECT_TRUE(QSvgRenderer(path("sectors.svg")).isValid());
    const QByteArray svg = readAll(path("sectors.svg"));
    EXPECT_TRUE(svg.contains("global 32-byte sectors per warp request"));
    EXPECT_TRUE(svg.contains("shared-memory bank conflicts per wavefront"));
    // Many variants: the export grows so that each row keeps room for its bars and label.
    EXPECT_GE(chart.exportSize().height(), 720);
}

TEST_F(CountersCharts, WithoutCountersBothPagesSayWhyAndDrawNothing) {
    model.setRecord(sampleRecord());
    DramModelChartWidget dram(&model);
    SectorsChartWidget sectors(&model);
    for (const ChartPanel* chart :
         {static_cast<const ChartPanel*>(&dram), static_cast<const ChartPanel*>(&sectors)}) {
        EXPECT_FALSE(chart->hasData());
        EXPECT_TRUE(chart->chartTitle().contains("no hardware counters in these results"))
            << chart->chartTitle().toStdString();
        EXPECT_TRUE(chart->legendLabels().isEmpty());
    }
    // Counters arriving later (a pass that ran) fill the pages.
    model.setRecord(countersRecord());
    EXPECT_TRUE(dram.hasData());
    EXPECT_TRUE(sectors.hasData());
}

TEST_F(CountersCharts, TheTabsIncludeBothCountersCharts) {
    model.setRecord(countersRecord());
    ResultsChartsWidget charts(&model);
    charts.setCurrentWidget(charts.dramModel());
    EXPECT_EQ(charts.currentChart(), charts.dramModel());
    QString error;
    ASSERT_TRUE(charts.exportCurrentChart(path("current.svg"), &error)) << error.toStdString();
    EXPECT_TRUE(readAll(path("current.svg")).contains("DRAM bytes / model bytes"));
    EXPECT_EQ(charts.tabText(charts.indexOf(charts.sectors())), "Sectors && conflicts");
}

}  // namespace
}  // namespace coalesce::gui
