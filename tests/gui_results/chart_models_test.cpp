#include "bandwidth_bars_model.hpp"
#include "compare_model.hpp"
#include "results_model.hpp"
#include "sample_record.hpp"
#include "size_sweep_model.hpp"

#include <QAbstractItemModelTester>

#include <gtest/gtest.h>

namespace coalesce::gui {
namespace {

using testing::sampleRecord;
using testing::sampleResult;

int rowOf(const QAbstractItemModel& model, const QString& header) {
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.headerData(r, Qt::Vertical).toString() == header) return r;
    return -1;
}

TEST(BandwidthBarsModel, OneBarPerVariantAtTheLargestSizeInItsOperationsColumn) {
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    QAbstractItemModelTester tester(&bars, QAbstractItemModelTester::FailureReportingMode::Fatal);
    results.setRecord(sampleRecord());

    EXPECT_EQ(bars.shownSize(), (Shape{8192, 8192}));
    ASSERT_EQ(bars.sizes().size(), 3u);
    EXPECT_EQ(bars.sizes().front(), (Shape{1024, 1024}));
    EXPECT_EQ(bars.rowCount(),
              16);  // 16 plottable variants; the failed and the skipped are not drawn
    EXPECT_EQ(bars.hiddenRuns(), 2);
    EXPECT_EQ(bars.columnCount(), 6);
    EXPECT_EQ(bars.headerData(0, Qt::Horizontal).toString(), "copy");
    EXPECT_EQ(rowOf(bars, "filter_y/shared-tile"), -1);

    const int row = rowOf(bars, "transpose/shared-padded");
    ASSERT_GE(row, 0);
    for (int c = 0; c < bars.columnCount(); ++c) {
        const double value = bars.index(row, c).data().toDouble();
        if (bars.headerData(c, Qt::Horizontal).toString() == "transpose")
            EXPECT_DOUBLE_EQ(value, 3544.0);
        else
            EXPECT_EQ(value, 0.0);
    }
    EXPECT_DOUBLE_EQ(bars.copyReferenceGbps(), 3951.0);
    EXPECT_FALSE(bars.allCacheResident());
    EXPECT_EQ(bars.deviceName(), "NVIDIA H200");
    EXPECT_EQ(bars.typesText(), "float32");

    EXPECT_EQ(bars.headerData(0, Qt::Vertical).toString(), "copy/global");
    bars.setReversedRows(true);  // for horizontal bar charts, which draw row 0 at the bottom
    EXPECT_EQ(bars.headerData(bars.rowCount() - 1, Qt::Vertical).toString(), "copy/global");
    EXPECT_DOUBLE_EQ(bars.index(bars.rowCount() - 1, 0).data().toDouble(), 3951.0);
}

// The title names the drawn runs' element types, not float32 for every run.
TEST(BandwidthBarsModel, NamesTheElementTypesOfTheDrawnRuns) {
    RunRecord record = sampleRecord();
    for (RunResult& r : record.runs) r.type = "u8";
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    results.setRecord(record);
    EXPECT_EQ(bars.typesText(), "u8");
    for (RunResult& r : record.runs) r.channels = 3;
    results.setRecord(record);
    EXPECT_EQ(bars.typesText(), "u8x3");
}

// Each element type has its own copy: a u8 copy moves a quarter of an f32 one's bytes, so its
// GB/s differ, and each variant is read against the copy of its own type (not the largest).
TEST(BandwidthBarsModel, SeveralTypesHaveOneCopyBarEach) {
    RunRecord record;
    const auto run = [](const char* type, int channels, const char* variant, double gbps,
                        double copy) {
        RunResult r = sampleResult("transpose", variant, "global", 4096, 4096, gbps);
        r.type = type;
        r.channels = channels;
        r.copy_gbps = copy;
        return r;
    };
    record.runs = {run("f32", 1, "transpose/shared-padded", 3500.0, 3951.0),
                   run("u8", 1, "transpose/shared-padded", 1900.0, 2400.0),
                   run("u8", 1, "transpose/fast-u8", 2300.0, 2400.0),
                   run("u8", 3, "transpose/fast-u8", 2600.0, 3100.0)};
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    QAbstractItemModelTester tester(&bars, QAbstractItemModelTester::FailureReportingMode::Fatal);
    bars.setCopyReferenceRow(true);
    results.setRecord(record);

    ASSERT_EQ(bars.copyReferences().size(), 3u);
    EXPECT_DOUBLE_EQ(bars.copyReferenceGbps("f32"), 3951.0);
    EXPECT_DOUBLE_EQ(bars.copyReferenceGbps("u8"), 2400.0);
    EXPECT_DOUBLE_EQ(bars.copyReferenceGbps("u8x3"), 3100.0);
    EXPECT_EQ(bars.copyReferenceGbps(), 0.0) << "no single copy stands for three types";
    EXPECT_EQ(bars.typesText(), "f32, u8, u8x3");

    // Three copy rows on top, each in the copy's column with its own type's value.
    ASSERT_EQ(bars.rowCount(), 7);
    const int column = bars.copyReferenceColumn();
    ASSERT_EQ(column, bars.columnCount() - 1);
    const QStringList names = {"device copy, same run (f32)", "device copy, same run (u8)",
                               "device copy, same run (u8x3)"};
    const double values[] = {3951.0, 2400.0, 3100.0};
    for (int row = 0; row < 3; ++row) {
        EXPECT_EQ(bars.headerData(row, Qt::Vertical).toString(), names[row]);
        for (int c = 0; c < bars.columnCount(); ++c)
            EXPECT_DOUBLE_EQ(bars.index(row, c).data().toDouble(), c == column ? values[row] : 0.0);
    }
    EXPECT_EQ(bars.headerData(column, Qt::Horizontal).toString(),
              "device copy, same run: f32 3,951.0, u8 2,400.0, u8x3 3,100.0 GB/s");

    // One type: one copy row, named as before.
    record.runs.resize(1);
    results.setRecord(record);
    EXPECT_DOUBLE_EQ(bars.copyReferenceGbps(), 3951.0);
    EXPECT_EQ(bars.headerData(0, Qt::Vertical).toString(), "device copy, same run");
}

TEST(BandwidthBarsModel, LimitedToOneTierDrawsOnlyItsVariants) {
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    QAbstractItemModelTester tester(&bars, QAbstractItemModelTester::FailureReportingMode::Fatal);
    results.setRecord(sampleRecord());
    EXPECT_EQ(bars.tiers(), (QStringList{"classic", "tuned"}));

    bars.setTier("tuned");
    ASSERT_EQ(bars.rowCount(), 1);
    EXPECT_EQ(bars.headerData(0, Qt::Vertical).toString(), "row_sums/fast-warp-float4");
    EXPECT_EQ(bars.hiddenRuns(), 0);  // the failed and skipped runs are classic ones
    EXPECT_EQ(bars.tiers(), (QStringList{"classic", "tuned"}));  // still offered

    bars.setTier("classic");
    EXPECT_EQ(bars.rowCount(), 15);
    EXPECT_EQ(rowOf(bars, "row_sums/fast-warp-float4"), -1);
    EXPECT_EQ(bars.hiddenRuns(), 2);

    bars.setTier("experiment");  // none in these results
    EXPECT_EQ(bars.rowCount(), 0);
    bars.setTier({});
    EXPECT_EQ(bars.rowCount(), 16);
}

TEST(BandwidthBarsModel, TheCopyOfTheSameRunIsABarOfItsOwnOnTop) {
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    QAbstractItemModelTester tester(&bars, QAbstractItemModelTester::FailureReportingMode::Fatal);
    bars.setReversedRows(true);
    bars.setCopyReferenceRow(true);
    results.setRecord(sampleRecord());
    ASSERT_EQ(bars.rowCount(), 17);
    const int top = bars.rowCount() - 1;  // reversed: the last row is drawn on top
    EXPECT_EQ(bars.headerData(top, Qt::Vertical).toString(), "device copy, same run");
    const int column = bars.columnCount() - 1;
    EXPECT_EQ(bars.copyReferenceColumn(), column);
    EXPECT_TRUE(bars.headerData(column, Qt::Horizontal)
                    .toString()
                    .startsWith("device copy, same run: 3,951.0"));
    for (int c = 0; c < bars.columnCount(); ++c)
        EXPECT_DOUBLE_EQ(bars.index(top, c).data().toDouble(), c == column ? 3951.0 : 0.0);
    for (int r = 0; r < top; ++r) EXPECT_EQ(bars.index(r, column).data().toDouble(), 0.0);
}

TEST(BandwidthBarsModel, TheCopyOfAHostRunIsCalledAHostCopy) {
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    bars.setCopyReferenceRow(true);
    RunRecord record;
    record.runs = {sampleResult("copy", "copy/cpu-naive", "host", 64, 64, 10.0)};
    record.runs[0].gpu = false;
    record.runs[0].copy_gbps = 12.0;
    results.setRecord(record);
    ASSERT_EQ(bars.rowCount(), 2);
    EXPECT_EQ(bars.headerData(0, Qt::Vertical).toString(), "host copy, same run");
}

TEST(BandwidthBarsModel, FollowsAppendedResultsAndAChosenSize) {
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    QAbstractItemModelTester tester(&bars, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const RunRecord record = sampleRecord();
    results.beginRun(record.device, record.config, record.started_at);
    results.appendResult(record.runs.front());
    EXPECT_EQ(bars.rowCount(), 1);
    for (std::size_t i = 1; i < record.runs.size(); ++i) results.appendResult(record.runs[i]);
    EXPECT_EQ(bars.rowCount(), 16);

    bars.setSize(Shape{1024, 1024});
    EXPECT_EQ(bars.shownSize(), (Shape{1024, 1024}));
    EXPECT_TRUE(bars.allCacheResident());
    bars.setSize(Shape{5, 5});  // not measured: falls back to the largest
    EXPECT_EQ(bars.shownSize(), (Shape{8192, 8192}));
}

TEST(BandwidthBarsModel, WithoutTheRunnersCopyFigureTheBestCopyVariantIsTheReference) {
    ResultsModel results;
    BandwidthBarsModel bars(&results);
    results.appendResult(sampleResult("copy", "copy/global", "global", 256, 256, 20.0));
    results.appendResult(sampleResult("copy", "copy/pitched", "global", 256, 256, 25.0));
    results.appendResult(sampleResult("transpose", "transpose/naive", "host", 256, 256, 5.0));
    EXPECT_DOUBLE_EQ(bars.copyReferenceGbps(), 25.0);
    results.clear();
    EXPECT_EQ(bars.rowCount(), 0);
    EXPECT_EQ(bars.copyReferenceGbps(), 0.0);
}

TEST(SizeSweepModel, OneContiguousBlockPerVariantSortedBySize) {
    ResultsModel results;
    SizeSweepModel sweep(&results);
    QAbstractItemModelTester tester(&sweep, QAbstractItemModelTester::FailureReportingMode::Fatal);
    results.setRecord(sampleRecord());

    ASSERT_EQ(sweep.lines().size(), 16u);
    EXPECT_EQ(sweep.rowCount(), 48);
    for (const auto& line : sweep.lines()) {
        ASSERT_EQ(line.rowCount, 3) << line.variant.toStdString();
        for (int i = 1; i < line.rowCount; ++i)
            EXPECT_LT(sweep.index(line.firstRow + i - 1, 0).data().toDouble(),
                      sweep.index(line.firstRow + i, 0).data().toDouble());
    }
    EXPECT_DOUBLE_EQ(sweep.minMebibytes(), 4.0);
    EXPECT_DOUBLE_EQ(sweep.maxMebibytes(), 256.0);
    EXPECT_DOUBLE_EQ(sweep.l2Mebibytes(), 60.0);

    sweep.setOperation("transpose");
    EXPECT_EQ(sweep.lines().size(), 5u);
    EXPECT_EQ(sweep.lines().front().variant, "transpose/global-naive");
    EXPECT_EQ(sweep.operations().front(), "copy");
    EXPECT_EQ(sweep.operations().size(), 6);
}

TEST(CompareModel, OneColumnPerFileAtTheLargestCommonSize) {
    RunRecord a;
    a.device.name = "NVIDIA H200";
    a.runs = {sampleResult("copy", "copy/global", "global", 4096, 4096, 3800),
              sampleResult("copy", "copy/global", "global", 8192, 8192, 3950),
              sampleResult("transpose", "transpose/shared-padded", "shared", 8192, 8192, 3500)};
    RunRecord b;
    b.device.name = "NVIDIA H100";
    b.runs = {sampleResult("copy", "copy/global", "global", 4096, 4096, 2900),
              sampleResult("transpose", "transpose/shared-padded", "shared", 2048, 2048, 2000),
              sampleResult("row_sums", "row_sums/pitched", "pitched", 4096, 4096, 2500)};

    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    model.setRecords(a, "h200.json", b, "h100.json");
    ASSERT_EQ(model.rowCount(), 3);
    EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), "NVIDIA H200");
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), "NVIDIA H100");

    const int copy = rowOf(model, "copy/global");
    EXPECT_DOUBLE_EQ(model.index(copy, 0).data().toDouble(), 3800);  // 4096² is the common size
    EXPECT_DOUBLE_EQ(model.index(copy, 1).data().toDouble(), 2900);
    EXPECT_EQ(model.sizeLabel(copy), QStringLiteral("4096×4096"));

    const int transpose = rowOf(model, "transpose/shared-padded");
    EXPECT_DOUBLE_EQ(model.index(transpose, 0).data().toDouble(), 3500);  // no common size
    EXPECT_DOUBLE_EQ(model.index(transpose, 1).data().toDouble(), 2000);
    EXPECT_EQ(model.sizeLabel(transpose), QStringLiteral("8192×8192 / 2048×2048"));

    const int row_sums = rowOf(model, "row_sums/pitched");
    EXPECT_EQ(model.index(row_sums, 0).data().toDouble(), 0.0);  // only the second file has it
    EXPECT_DOUBLE_EQ(model.index(row_sums, 1).data().toDouble(), 2500);
    EXPECT_EQ(model.sizeLabel(row_sums), QStringLiteral("4096×4096"));

    // Reversed for a horizontal bar chart: last variant and second file first.
    model.setReversed(true);
    EXPECT_EQ(model.headerData(0, Qt::Vertical).toString(), "row_sums/pitched");
    EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), "NVIDIA H100");
    EXPECT_DOUBLE_EQ(model.index(0, 0).data().toDouble(), 2500);
    EXPECT_EQ(model.deviceName(0), "NVIDIA H200");
}

TEST(CompareModel, TwoFilesOfOneDeviceAreToldApartByTheirLabels) {
    CompareModel model;
    model.setRecords(sampleRecord("NVIDIA H200"), "monday.json", sampleRecord("NVIDIA H200", 0.9),
                     "tuesday.json");
    EXPECT_EQ(model.seriesLabel(0), "NVIDIA H200 (monday.json)");
    EXPECT_EQ(model.seriesLabel(1), "NVIDIA H200 (tuesday.json)");
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
}

}  // namespace
}  // namespace coalesce::gui
