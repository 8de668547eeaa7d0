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
