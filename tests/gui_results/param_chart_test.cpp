// The parameter chart: bandwidth against a swept parameter with the sector model's prediction
// beside each line, built from records as the runner writes them; and the model columns of the
// results table.
#include "chart_widgets.hpp"
#include "param_sweep_model.hpp"
#include "results_model.hpp"
#include "sample_record.hpp"

#include "coalesce/sector_model.hpp"

#include <QComboBox>
#include <QFile>
#include <QSvgRenderer>
#include <QTemporaryDir>

#include <gtest/gtest.h>

#include <cmath>

namespace coalesce::gui {
namespace {

using testing::sampleRecord;
using testing::sampleResult;

constexpr double kCopyGbps = 3000.0;

// offset_read at offsets 0..32 as the runner records it: the model from the engine's own sector
// model for a warp `offset` floats off a line, a measurement that follows it.
RunResult offsetRun(const std::string& variant, long long offset, std::size_t rows = 8192) {
    RunResult r = sampleResult("offset_read", variant, "global", rows, 8192, 0);
    r.params = {{"offset", offset}};
    const AccessModel model =
        model_of({affine_request(false, 128 + offset * 4, 4), affine_request(true, 128, 4)});
    r.model_load_sectors = model.load_sectors;
    r.model_store_sectors = model.store_sectors;
    r.model_efficiency = model.efficiency;
    r.copy_gbps = kCopyGbps;
    r.gbps = 0.95 * kCopyGbps * model.efficiency;
    r.pct_of_copy = 100.0 * r.gbps / kCopyGbps;
    return r;
}

// Offsets pushed in descending order: the chart sorts each line by the parameter.
RunRecord offsetSweep(const std::vector<std::string>& variants) {
    RunRecord record = sampleRecord();
    record.runs.clear();
    for (const std::string& v : variants)
        for (long long k = 32; k >= 0; --k) record.runs.push_back(offsetRun(v, k));
    return record;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

TEST(ParamSweepModel, OneLinePerVariantSortedByTheParameterWithTheModelBeside) {
    ResultsModel results;
    results.setRecord(offsetSweep({"offset_read/global", "offset_read/pitched"}));
    ParamSweepModel sweep(&results);
    EXPECT_EQ(sweep.sweptParameters(), QStringList{"offset"});
    EXPECT_EQ(sweep.parameter(), "offset");
    ASSERT_EQ(sweep.lines().size(), 2u);
    EXPECT_EQ(sweep.rowCount(), 66);
    for (const auto& line : sweep.lines()) {
        EXPECT_EQ(line.rowCount, 33);
        EXPECT_TRUE(line.hasModel);
        for (int i = 0; i < line.rowCount; ++i) {
            const int row = line.firstRow + i;
            EXPECT_EQ(sweep.index(row, ParamSweepModel::ParamColumn).data().toDouble(), i);
        }
    }
    EXPECT_EQ(sweep.lines()[0].label, "offset_read/global");
    // Aligned (offset 0, 8 sectors for 256 useful bytes of load + store): the model is the copy;
    // offset 1 adds a fifth load sector: 256 / 288 of it.
    const int first = sweep.lines()[0].firstRow;
    EXPECT_DOUBLE_EQ(sweep.index(first, ParamSweepModel::ModelColumn).data().toDouble(), kCopyGbps);
    EXPECT_DOUBLE_EQ(sweep.index(first + 1, ParamSweepModel::ModelColumn).data().toDouble(),
                     kCopyGbps * 256.0 / 288.0);
    EXPECT_DOUBLE_EQ(sweep.index(first + 8, ParamSweepModel::ModelColumn).data().toDouble(),
                     kCopyGbps);
    EXPECT_DOUBLE_EQ(sweep.index(first + 1, ParamSweepModel::ValueColumn).data().toDouble(),
                     0.95 * kCopyGbps * 256.0 / 288.0);

    sweep.setMeasure(ParamSweepModel::Measure::percent_of_copy);
    EXPECT_DOUBLE_EQ(sweep.index(first, ParamSweepModel::ModelColumn).data().toDouble(), 100.0);
    EXPECT_NEAR(sweep.index(first, ParamSweepModel::ValueColumn).data().toDouble(), 95.0, 1e-9);
}

TEST(ParamSweepModel, OtherParametersAndSizesTellLinesApart) {
    RunRecord record = sampleRecord();
    record.runs.clear();
    for (long long samples : {16, 32})
        for (long long area : {4, 8, 16, 32}) {
            RunResult r = sampleResult("random_sample", "random_sample/global", "global", 4096,
                                       4096, 100.0 + static_cast<double>(area));
            r.params = {{"area", area}, {"samples", samples}};
            record.runs.push_back(r);
        }
    RunResult failed = record.runs.front();
    failed.status = Status::failed;
    failed.params["area"] = 64;
    record.runs.push_back(failed);  // not plottable: neither a point nor a value of the axis
    ResultsModel results;
    results.setRecord(record);
    ParamSweepModel sweep(&results);
    EXPECT_EQ(sweep.sweptParameters(), (QStringList{"area", "samples"}));
    ASSERT_EQ(sweep.lines().size(), 2u);
    EXPECT_EQ(sweep.lines()[0].label, "random_sample/global, samples=16");
    EXPECT_EQ(sweep.lines()[0].rowCount, 4);
    EXPECT_FALSE(sweep.lines()[0].hasModel);  // random sampling has no sector model line
    EXPECT_EQ(sweep.maxParam(), 32.0);

    sweep.setParameter("samples");
    EXPECT_EQ(sweep.parameter(), "samples");
    ASSERT_EQ(sweep.lines().size(), 4u);
    EXPECT_EQ(sweep.lines()[0].label, "random_sample/global, area=4");
    sweep.setParameter("no-such");
    EXPECT_EQ(sweep.parameter(), "area");
}

TEST(ParameterChart, DrawsTheMeasurementAndTheModelAndExportsSvg) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    ResultsModel results;
    results.setRecord(offsetSweep({"offset_read/global"}));
    ParameterChartWidget chart(&results);
    chart.show();  // the legend label is read as the window shows it
    EXPECT_TRUE(chart.hasData());
    EXPECT_TRUE(chart.chartTitle().contains("bandwidth versus offset"))
        << chart.chartTitle().toStdString();
    EXPECT_EQ(chart.legendLabels(), (QStringList{"offset_read/global", "model"}));
    EXPECT_TRUE(chart.shownLegend().contains(QStringLiteral("╍╍")))
        << "the model line is dashed: " << chart.shownLegend().toStdString();

    const QString svg_path = dir.filePath("offset.svg");
    QString error;
    ASSERT_TRUE(chart.exportChart(svg_path, &error)) << error.toStdString();
    EXPECT_TRUE(QSvgRenderer(svg_path).isValid());
    const QByteArray svg = readAll(svg_path);
    EXPECT_TRUE(svg.contains(">offset<")) << "the x axis is titled with the parameter";
    EXPECT_TRUE(svg.contains("bandwidth [GB/s]"));

    chart.setMeasure(ParamSweepModel::Measure::percent_of_copy);
    ASSERT_TRUE(chart.exportChart(svg_path, &error)) << error.toStdString();
    EXPECT_TRUE(readAll(svg_path).contains("% of the same run"));
}

TEST(ParameterChart, NamesEachModelLineAfterItsVariant) {
    ResultsModel results;
    results.setRecord(offsetSweep({"offset_read/global", "offset_read/pitched"}));
    ParameterChartWidget chart(&results);
    EXPECT_EQ(chart.legendLabels(),
              (QStringList{"offset_read/global", "offset_read/pitched", "model, offset_read/global",
                           "model, offset_read/pitched"}));
}

TEST(ParameterChart, SaysSoWhenNothingIsSwept) {
    ResultsModel results;
    results.setRecord(sampleRecord());
    ParameterChartWidget chart(&results);
    EXPECT_FALSE(chart.hasData());
    EXPECT_TRUE(chart.chartTitle().contains("no swept parameter"))
        << chart.chartTitle().toStdString();
    EXPECT_TRUE(chart.legendLabels().isEmpty());

    // A run that arrives with a second offset makes it a sweep.
    results.setRecord(offsetSweep({}));
    results.appendResult(offsetRun("offset_read/global", 0));
    EXPECT_FALSE(chart.hasData());
    results.appendResult(offsetRun("offset_read/global", 4));
    EXPECT_TRUE(chart.hasData());
    auto* params = chart.findChild<QComboBox*>("parameterChoice");
    ASSERT_NE(params, nullptr);
    EXPECT_EQ(params->currentText(), "offset");
}

TEST(ParameterChart, ChartsTheTimePerAccessOfConstantMemoryWithoutAModelLine) {
    RunRecord record = sampleRecord();
    record.runs.clear();
    for (long long distinct : {0, 1, 2, 4, 8, 16, 32}) {
        RunResult r =
            sampleResult("constant_read", "constant_read/constant", "constant", 1024, 1024, 5.0);
        r.params = {{"distinct", distinct}, {"repeat", 256}};
        r.ns_per_access = 25.0 * static_cast<double>(std::max(1ll, distinct));
        r.model_constant_serialization = static_cast<double>(std::max(1ll, distinct));
        record.runs.push_back(r);
    }
    ResultsModel results;
    results.setRecord(record);
    ParameterChartWidget chart(&results);
    chart.setMeasure(ParamSweepModel::Measure::ns_per_access);
    EXPECT_TRUE(chart.sweepModel()->hasTimesPerAccess());
    EXPECT_TRUE(chart.chartTitle().contains("time per access versus distinct"))
        << chart.chartTitle().toStdString();
    EXPECT_EQ(chart.legendLabels(), QStringList{"constant_read/constant"});
    EXPECT_DOUBLE_EQ(chart.sweepModel()->maxValue(), 800.0);

    // Bandwidth runs have no time per access: the page says so.
    results.setRecord(offsetSweep({"offset_read/global"}));
    EXPECT_FALSE(chart.sweepModel()->hasTimesPerAccess());
    EXPECT_FALSE(chart.hasData());
    EXPECT_TRUE(chart.chartTitle().contains("no run with a time per access"))
        << chart.chartTitle().toStdString();
}

TEST(ResultsModelColumns, ShowParametersAndModelFiguresWhereTheRunHasThem) {
    ResultsModel model;
    RunRecord record = sampleRecord();
    record.runs.clear();
    record.runs.push_back(offsetRun("offset_read/global", 1));
    RunResult smem = sampleResult("smem_transpose_tile", "smem_transpose_tile/set-row-read-col",
                                  "shared", 4096, 4096, 900);
    smem.params = {{"repeat", 65}, {"tile_rows", 32}};
    smem.model_bank_conflict_degree = 32;
    record.runs.push_back(smem);
    RunResult constant =
        sampleResult("constant_read", "constant_read/constant", "constant", 1024, 1024, 10);
    constant.model_constant_serialization = 32;
    constant.ns_per_access = 1195.4;
    record.runs.push_back(constant);
    model.setRecord(record);
    const auto text = [&](int row, int column) {
        return model.index(row, column).data().toString();
    };
    EXPECT_EQ(text(0, ResultsModel::ParamsColumn), "offset=1");
    EXPECT_EQ(text(0, ResultsModel::ModelLoadSectorsColumn), "5");
    EXPECT_EQ(text(0, ResultsModel::ModelStoreSectorsColumn), "4");
    EXPECT_EQ(text(0, ResultsModel::ModelEfficiencyColumn), "88.9 %");
    EXPECT_EQ(text(0, ResultsModel::BankConflictColumn), "");
    EXPECT_FALSE(
        model.index(0, ResultsModel::BankConflictColumn).data(ResultsModel::RawRole).isValid());
    EXPECT_EQ(text(1, ResultsModel::ParamsColumn), "repeat=65, tile_rows=32");
    EXPECT_EQ(text(1, ResultsModel::BankConflictColumn), "32-way");
    EXPECT_EQ(text(1, ResultsModel::ModelEfficiencyColumn), "");
    EXPECT_EQ(text(2, ResultsModel::ConstantPassesColumn), "32");
    EXPECT_EQ(text(2, ResultsModel::NsPerAccessColumn), "1195.4");
    EXPECT_DOUBLE_EQ(
        model.index(2, ResultsModel::NsPerAccessColumn).data(ResultsModel::RawRole).toDouble(),
        1195.4);
    for (int c = 0; c < ResultsModel::FirstCountersColumn; ++c)
        EXPECT_TRUE(model.hasValues(c)) << c;

    model.setRecord(sampleRecord());  // the six operations: no parameters, no models
    for (int c = 0; c < ResultsModel::ColumnCount; ++c)
        EXPECT_EQ(model.hasValues(c), !ResultsModel::isSparseColumn(c)) << c;
}

}  // namespace
}  // namespace coalesce::gui
