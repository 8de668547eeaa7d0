#include "results_model.hpp"
#include "sample_record.hpp"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>

#include <gtest/gtest.h>

namespace coalesce::gui {
namespace {

using testing::sampleRecord;
using testing::sampleResult;

QString cell(const ResultsModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.data(model.index(row, column), role).toString();
}

TEST(ResultsModel, PassesTheModelTesterThroughAppendSetAndClear) {
    ResultsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
    const RunRecord record = sampleRecord();
    model.beginRun(record.device, record.config, record.started_at);
    for (const RunResult& r : record.runs) model.appendResult(r);
    EXPECT_EQ(model.rowCount(), static_cast<int>(record.runs.size()));
    model.clear();
    EXPECT_EQ(model.rowCount(), 0);
    model.setRecord(record);
    EXPECT_EQ(model.rowCount(), static_cast<int>(record.runs.size()));
    EXPECT_EQ(model.columnCount(), ResultsModel::ColumnCount);
}

TEST(ResultsModel, FillsEveryColumnFromAHandBuiltRecord) {
    RunRecord record;
    record.device.name = "NVIDIA H200";
    RunResult r =
        sampleResult("transpose", "transpose/shared-padded", "shared", 8192, 4096, 3544.24);
    r.median_ms = 0.0757;
    r.pct_of_copy = 89.7;
    r.max_abs_error = 0;
    r.cache_resident = false;
    record.runs.push_back(r);

    ResultsModel model;
    model.setRecord(record);
    ASSERT_EQ(model.rowCount(), 1);
    EXPECT_EQ(cell(model, 0, ResultsModel::OperationColumn), "transpose");
    EXPECT_EQ(cell(model, 0, ResultsModel::VariantColumn), "transpose/shared-padded");
    EXPECT_EQ(cell(model, 0, ResultsModel::MemorySpaceColumn), "shared");
    EXPECT_EQ(cell(model, 0, ResultsModel::SizeColumn), QStringLiteral("8192×4096"));
    EXPECT_EQ(cell(model, 0, ResultsModel::MedianMsColumn), "0.0757");
    EXPECT_EQ(cell(model, 0, ResultsModel::GbpsColumn), "3,544.2");
    EXPECT_EQ(cell(model, 0, ResultsModel::PercentOfCopyColumn), "89.7 %");
    EXPECT_EQ(cell(model, 0, ResultsModel::MaxErrorColumn), "0");
    EXPECT_EQ(cell(model, 0, ResultsModel::VerifiedColumn), "yes");
    EXPECT_EQ(cell(model, 0, ResultsModel::CacheResidentColumn), "no");
    EXPECT_EQ(cell(model, 0, ResultsModel::StatusColumn), "ok");
    EXPECT_EQ(cell(model, 0, ResultsModel::TierColumn), "classic");

    // Raw values for sorting and computing.
    EXPECT_DOUBLE_EQ(
        model.data(model.index(0, ResultsModel::GbpsColumn), ResultsModel::RawRole).toDouble(),
        3544.24);
    EXPECT_EQ(
        model.data(model.index(0, ResultsModel::SizeColumn), ResultsModel::RawRole).toULongLong(),
        8192ull * 4096ull);
    EXPECT_TRUE(
        model.data(model.index(0, ResultsModel::VerifiedColumn), ResultsModel::RawRole).toBool());
    EXPECT_EQ(model.device().name, "NVIDIA H200");
}

TEST(ResultsModel, ShowsEachRunsTier) {
    RunRecord record;
    record.runs = {sampleResult("row_sums", "row_sums/fast-warp-float4", "global", 64, 64, 1.0),
                   sampleResult("row_sums", "row_sums/global-warp-per-row", "global", 64, 64, 1.0)};
    record.runs[1].tier = "experiment";
    ResultsModel model;
    model.setRecord(record);
    EXPECT_EQ(cell(model, 0, ResultsModel::TierColumn), "tuned");
    EXPECT_EQ(cell(model, 1, ResultsModel::TierColumn), "experiment");
    EXPECT_EQ(model.headerData(ResultsModel::TierColumn, Qt::Horizontal).toString(), "Tier");
    EXPECT_TRUE(model.headerData(ResultsModel::TierColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains("experiment"));
}

TEST(ResultsModel, AFailedRunShowsNoNumbersAndItsReasonAsToolTip) {
    RunResult r = sampleResult("filter_y", "filter_y/shared-tile", "shared", 64, 64, 1.0);
    r.status = Status::failed;
    r.verified = false;
    r.error = "element (0, 17): 0.25 vs reference 1.0";
    ResultsModel model;
    model.appendResult(r);
    EXPECT_EQ(cell(model, 0, ResultsModel::GbpsColumn), QStringLiteral("—"));
    EXPECT_FALSE(
        model.data(model.index(0, ResultsModel::GbpsColumn), ResultsModel::RawRole).isValid());
    EXPECT_EQ(cell(model, 0, ResultsModel::StatusColumn), "failed");
    EXPECT_TRUE(
        cell(model, 0, ResultsModel::VariantColumn, Qt::ToolTipRole).contains("0.25 vs reference"));
}

TEST(ResultsModel, SortsNumericallyThroughTheRawRole) {
    ResultsModel model;
    model.appendResult(sampleResult("copy", "copy/a", "global", 64, 64, 900.0));
    model.appendResult(sampleResult("copy", "copy/b", "global", 64, 64, 80.0));
    model.appendResult(sampleResult("copy", "copy/c", "global", 64, 64, 1200.0));
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ResultsModel::RawRole);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Fatal);
    proxy.sort(ResultsModel::GbpsColumn, Qt::AscendingOrder);
    // As text "1,200.0" < "80.0" < "900.0"; as numbers the order is b, a, c.
    EXPECT_EQ(proxy.index(0, ResultsModel::VariantColumn).data().toString(), "copy/b");
    EXPECT_EQ(proxy.index(1, ResultsModel::VariantColumn).data().toString(), "copy/a");
    EXPECT_EQ(proxy.index(2, ResultsModel::VariantColumn).data().toString(), "copy/c");
}

TEST(ResultsModel, AnnouncesEachAppendedRowAndANewDevice) {
    ResultsModel model;
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy info(&model, &ResultsModel::recordInfoChanged);
    DeviceInfo device;
    device.name = "NVIDIA H100";
    model.beginRun(device, RunConfig{}, "2026-11-21T00:00:00Z");
    EXPECT_EQ(info.count(), 1);
    model.appendResult(sampleResult("copy", "copy/global", "global", 64, 64, 10.0));
    model.appendResult(sampleResult("copy", "copy/pitched", "global", 64, 64, 10.0));
    ASSERT_EQ(inserted.count(), 2);
    EXPECT_EQ(inserted.at(1).at(1).toInt(), 1);  // first row of the second insertion
    EXPECT_EQ(model.record().started_at, "2026-11-21T00:00:00Z");
    EXPECT_EQ(model.device().name, "NVIDIA H100");
}

}  // namespace
}  // namespace coalesce::gui
