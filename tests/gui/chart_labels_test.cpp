// The bandwidth chart in the window keeps every variant id whole: with the 55 variants of an
// H200 results file at the window's starting size, maximized, with the error banner showing, and
// with the picture column widened. The title and legend wrap instead of being shortened, and a
// results file with two sizes says that it has another.
#include "results/chart_widgets.hpp"
#include "results/result_format.hpp"
#include "results/results_model.hpp"
#include "window_helpers.hpp"

#include "coalesce/results_io.hpp"

#include <QLabel>
#include <QSplitter>
#include <QTest>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

QString h200_results() { return docs_dir() + "/h200-bench.json"; }

// Lays the window out at `size` and returns what the bandwidth chart shortened.
QStringList shortened_at(MainWindow& window, QSize size) {
    window.resize(size);
    QCoreApplication::processEvents();
    window.repaint();
    QCoreApplication::processEvents();
    return window.charts()->bandwidth()->shortenedTexts();
}

void expect_whole(const QStringList& shortened, const char* where) {
    EXPECT_TRUE(shortened.isEmpty()) << where << ": " << shortened.join(" | ").toStdString();
}

}  // namespace

TEST(ChartLabels, EveryVariantIdStaysWholeInTheWindow) {
    const RunRecord record = load_results(h200_results().toStdString());
    auto window = make_ready_window();
    window->show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(window.get()));
    ASSERT_TRUE(window->openResults(h200_results())) << window->errorText().toStdString();
    window->showChart("bandwidth");
    BandwidthChartWidget* chart = window->charts()->bandwidth();
    ASSERT_TRUE(chart->hasData());

    expect_whole(shortened_at(*window, {1400, 900}), "1400x900");
    expect_whole(shortened_at(*window, {1920, 1080}), "1920x1080");
    window->openResults(QString(h200_results()).replace("h200-bench", "no-such-file"));
    ASSERT_FALSE(window->errorText().isEmpty());
    expect_whole(shortened_at(*window, {1400, 900}), "1400x900 with the error banner");
    auto* central = window->findChild<QSplitter*>("centralSplitter");
    ASSERT_NE(central, nullptr);
    central->setSizes({700, 400});  // the pictures widened, the chart narrow
    expect_whole(shortened_at(*window, {1400, 900}), "1400x900, picture column widened");

    // The title and the legend are shown whole, wrapped where they must.
    EXPECT_TRUE(chart->shownTitle().contains("NVIDIA H200")) << chart->shownTitle().toStdString();
    EXPECT_TRUE(chart->shownTitle().contains(QStringLiteral("8192×8192")));
    for (const char* op : {"copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"})
        EXPECT_TRUE(chart->shownLegend().contains(op)) << op;
    EXPECT_TRUE(chart->shownLegend().contains("device copy, same run"));
    auto* title = chart->findChild<QLabel*>("chartTitle");
    ASSERT_NE(title, nullptr);
    EXPECT_GE(title->height(), title->heightForWidth(title->width()));
}

TEST(ChartLabels, AFileWithTwoSizesSaysItHasTheOther) {
    auto window = make_ready_window();
    ASSERT_TRUE(window->openResults(h200_results())) << window->errorText().toStdString();
    auto* hint = window->charts()->bandwidth()->findChild<QLabel*>("otherSizesHint");
    ASSERT_NE(hint, nullptr);
    EXPECT_TRUE(window->charts()->bandwidth()->chartTitle().contains(QStringLiteral("8192×8192")));
    EXPECT_TRUE(hint->text().contains(QStringLiteral("8000×6000"))) << hint->text().toStdString();
}

namespace {

// A colour run reads "u8x3" in the table and the chart's series, so a results file with grey
// and colour runs of one variant keeps them apart.
TEST(ResultLabels, AColourRunIsLabelledWithItsChannels) {
    RunResult grey;
    grey.variant = "transpose/cpu-naive";
    grey.op = "transpose";
    grey.type = "u8";
    grey.rows = 4;
    grey.cols = 8;
    RunResult colour = grey;
    colour.channels = 3;
    ResultsModel model;
    model.appendResult(grey);
    model.appendResult(colour);
    EXPECT_EQ(model.data(model.index(0, ResultsModel::TypeColumn)).toString(), "u8");
    EXPECT_EQ(model.data(model.index(1, ResultsModel::TypeColumn)).toString(), "u8x3");
    EXPECT_TRUE(severalTypes({grey, colour}));
    EXPECT_EQ(seriesName(colour, true), "transpose/cpu-naive (u8x3)");
    EXPECT_DOUBLE_EQ(inputMebibytes(colour), 3 * inputMebibytes(grey));
}

}  // namespace
