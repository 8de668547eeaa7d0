#include "bandwidth_bars_model.hpp"
#include "chart_widgets.hpp"
#include "results_files.hpp"
#include "results_model.hpp"
#include "sample_record.hpp"

#include "coalesce/results_io.hpp"

#include <QFile>
#include <QImage>
#include <QTemporaryDir>

#include <gtest/gtest.h>

namespace coalesce::gui {
namespace {

using testing::sampleRecord;

TEST(ResultsFiles, ARecordThroughJsonChartsLikeTheOriginal) {
    const RunRecord original = sampleRecord();
    const RunRecord loaded = from_json(to_json(original));
    ResultsModel model;
    model.setRecord(loaded);
    ASSERT_EQ(model.rowCount(), static_cast<int>(original.runs.size()));
    BandwidthChartWidget chart(&model);
    EXPECT_TRUE(chart.hasData());
    EXPECT_TRUE(chart.chartTitle().contains("NVIDIA H200"));
    EXPECT_EQ(chart.legendLabels().size(), 7);  // six operations and the copy reference
    const QImage image = chart.renderImage(QSize(800, 600));
    EXPECT_EQ(image.size(), QSize(800, 600));
}

TEST(ResultsFiles, SaveAndOpenJsonAndCsv) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    const RunRecord original = sampleRecord();
    for (const char* name : {"run.json", "run.csv"}) {
        const QString path = dir.filePath(name);
        QString error;
        ASSERT_TRUE(saveResultsFile(path, original, &error)) << error.toStdString();
        const auto loaded = loadResultsFile(path, &error);
        ASSERT_TRUE(loaded.has_value()) << error.toStdString();
        ASSERT_EQ(loaded->runs.size(), original.runs.size());
        EXPECT_EQ(loaded->runs.front().variant, original.runs.front().variant);
        EXPECT_DOUBLE_EQ(loaded->runs.front().gbps, original.runs.front().gbps);
    }
}

// A file with u8 and f32 runs: the table's type column shows each run's type, and the charts
// name each series with its type, since one variant's u8 and f32 runs are two series.
TEST(ResultsFiles, AFileWithU8AndF32RunsShowsBothTypes) {
    RunRecord original;
    original.device.name = "NVIDIA H100";
    original.config.types = {ElemType::u8, ElemType::f32};
    for (const char* type : {"u8", "f32"}) {
        RunResult r = testing::sampleResult("copy", "copy/global-naive", "global", 4096, 4096,
                                            std::string(type) == "u8" ? 1900.0 : 3000.0);
        r.type = type;
        original.runs.push_back(r);
    }
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    for (const char* name : {"typed.json", "typed.csv"}) {
        SCOPED_TRACE(name);
        const QString path = dir.filePath(name);
        QString error;
        ASSERT_TRUE(saveResultsFile(path, original, &error)) << error.toStdString();
        const auto loaded = loadResultsFile(path, &error);
        ASSERT_TRUE(loaded.has_value()) << error.toStdString();
        ResultsModel model;
        model.setRecord(*loaded);
        ASSERT_EQ(model.rowCount(), 2);
        EXPECT_EQ(model.headerData(ResultsModel::TypeColumn, Qt::Horizontal).toString(), "Type");
        QStringList types;
        for (int row = 0; row < 2; ++row)
            types << model.data(model.index(row, ResultsModel::TypeColumn)).toString();
        types.sort();
        EXPECT_EQ(types, (QStringList{"f32", "u8"}));
        EXPECT_EQ(model.record().config.types, original.config.types);

        BandwidthBarsModel bars(&model);
        QStringList series;
        for (int row = 0; row < bars.rowCount(); ++row)
            series << bars.headerData(row, Qt::Vertical).toString();
        EXPECT_TRUE(series.contains("copy/global-naive (u8)")) << series.join(", ").toStdString();
        EXPECT_TRUE(series.contains("copy/global-naive (f32)")) << series.join(", ").toStdString();
    }
}

// Runs of one type keep the plain variant names.
TEST(ResultsFiles, OneTypeKeepsPlainSeriesNames) {
    ResultsModel model;
    model.setRecord(sampleRecord());
    BandwidthBarsModel bars(&model);
    for (int row = 0; row < bars.rowCount(); ++row)
        EXPECT_FALSE(bars.headerData(row, Qt::Vertical).toString().contains("(f32)"));
    EXPECT_EQ(model.data(model.index(0, ResultsModel::TypeColumn)).toString(), "f32");
}

TEST(ResultsFiles, ErrorsBecomeMessagesNotExceptions) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QString error;
    EXPECT_FALSE(loadResultsFile(dir.filePath("missing.json"), &error).has_value());
    EXPECT_TRUE(error.contains("missing.json")) << error.toStdString();

    const QString corrupt = dir.filePath("corrupt.json");
    {
        QFile file(corrupt);
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("{\"schema\": \"coalesce-results/1\", \"runs\": [");
    }
    error.clear();
    EXPECT_FALSE(loadResultsFile(corrupt, &error).has_value());
    EXPECT_FALSE(error.isEmpty());

    error.clear();
    const QString unwritable = dir.filePath("no-such-folder/run.json");
    EXPECT_FALSE(saveResultsFile(unwritable, sampleRecord(), &error));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_FALSE(QFile::exists(unwritable));

    error.clear();
    EXPECT_FALSE(saveResultsFile(dir.filePath("run.txt"), sampleRecord(), &error));
    EXPECT_TRUE(error.contains("unknown results format"));
    EXPECT_FALSE(QFile::exists(dir.filePath("run.txt")));
}

}  // namespace
}  // namespace coalesce::gui
