// Every Qt Charts type of the application lives in this file.
#include "chart_widgets.hpp"

#include "bandwidth_bars_model.hpp"
#include "chart_export.hpp"
#include "compare_model.hpp"
#include "param_sweep_model.hpp"
#include "counters_chart_models.hpp"
#include "result_format.hpp"
#include "results_model.hpp"
#include "size_sweep_model.hpp"

#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QHorizontalStackedBarSeries>
#include <QtCharts/QLegend>
#include <QtCharts/QLegendMarker>
#include <QtCharts/QLineSeries>
#include <QtCharts/QLogValueAxis>
#include <QtCharts/QVBarModelMapper>
#include <QtCharts/QValueAxis>
#include <QtCharts/QVXYModelMapper>
#include <QtCharts/QXYSeries>

#include <QComboBox>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QGraphicsTextItem>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

namespace coalesce::gui {

namespace {

// Colour-blind-friendly and distinct on white (Tableau 10).
constexpr std::array<QRgb, 10> kPalette = {0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                           0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
QColor paletteColor(int i) {
    return QColor(kPalette[static_cast<std::size_t>(i) % kPalette.size()]);
}

QFont withPointSize(QFont font, qreal points, bool bold = false) {
    font.setPointSizeF(points);
    font.setBold(bold);
    return font;
}

QChart* newChart(const QString& title) {
    auto* chart = new QChart;
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setBackgroundRoundness(0);
    chart->setTitle(title);
    chart->setTitleFont(withPointSize(chart->titleFont(), 13, true));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setFont(withPointSize(chart->legend()->font(), 10));
    return chart;
}

void styleAxis(QAbstractAxis* axis, const QString& title) {
    axis->setTitleText(title);
    axis->setTitleFont(withPointSize(axis->titleFont(), 10, true));
    axis->setLabelsFont(withPointSize(axis->labelsFont(), 9.5));
}

// A value axis from 0 to a round number a little above `max`, ticks at 1, 2 or 5 × 10^k, at most
// eight intervals (applyNiceNumbers() often leaves a third of the plot empty).
QValueAxis* gbpsAxis(double max) {
    auto* axis = new QValueAxis;
    styleAxis(axis, QStringLiteral("bandwidth [GB/s]"));
    const double top = max > 0 ? max * 1.05 : 1.0;
    const double magnitude = std::pow(10.0, std::floor(std::log10(top / 8.0)));
    double step = 10.0 * magnitude;
    for (double m : {1.0, 2.0, 5.0}) {
        if (top / (m * magnitude) <= 8.0) {
            step = m * magnitude;
            break;
        }
    }
    const double intervals = std::ceil(top / step);
    axis->setRange(0, intervals * step);
    axis->setTickCount(static_cast<int>(intervals) + 1);
    axis->setLabelFormat(step >= 1.0 ? QStringLiteral("%.0f") : QStringLiteral("%g"));
    return axis;
}

// A vertical dashed line at x over the whole plot: the reference a bar or line is read against.
// It gets its own hidden 0..1 y axis so it spans the plot whatever the other axis shows.
QLineSeries* addVerticalMarker(QChart* chart, QAbstractAxis* x_axis, double x, const QString& name,
                               QColor color) {
    auto* line = new QLineSeries;
    line->setName(name);
    line->append(x, 0.0);
    line->append(x, 1.0);
    QPen pen(color);
    pen.setWidthF(2.0);
    pen.setStyle(Qt::DashLine);
    line->setPen(pen);
    chart->addSeries(line);
    auto* span = new QValueAxis;
    span->setRange(0.0, 1.0);
    span->setVisible(false);
    chart->addAxis(span, Qt::AlignRight);
    line->attachAxis(x_axis);
    line->attachAxis(span);
    return line;
}

// Values written after each bar's end in the axis label colour, so short bars keep readable labels;
// enough significant digits for the largest value to show as a whole number ("3951", "16.7",
// "0.645").
void labelBars(QAbstractBarSeries* series, double max_value) {
    series->setLabelsVisible(true);
    series->setLabelsFormat(QStringLiteral("@value"));
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    const int whole_digits =
        max_value >= 1.0 ? static_cast<int>(std::floor(std::log10(max_value))) + 1 : 1;
    series->setLabelsPrecision(std::max(3, whole_digits));
    for (QBarSet* set : series->barSets()) {
        set->setLabelColor(QColor(0x30, 0x30, 0x30));
        set->setLabelFont(withPointSize(set->labelFont(), 8.5));
    }
}

double largestValue(const QAbstractItemModel& model) {
    double max = 0;
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c)
            max = std::max(max, model.index(r, c).data().toDouble());
    return max;
}

QStringList verticalHeaders(const QAbstractItemModel& model) {
    QStringList out;
    for (int r = 0; r < model.rowCount(); ++r) out << model.headerData(r, Qt::Vertical).toString();
    return out;
}

// One bar per variant at one size; see BandwidthBarsModel for the pivot that makes a stacked series
// draw a single bar per category. The device copy of the same run is the top bar, in grey: a
// dashed line at its value ran through the value labels of the bars that reach it.
QChart* buildBandwidthChart(BandwidthBarsModel* model) {
    const QString device = model->deviceName();
    const QString scope =
        model->tier().isEmpty() ? QString() : QStringLiteral(", %1 variants").arg(model->tier());
    if (model->rowCount() == 0)
        return newChart(
            QStringLiteral("%1 — no verified results to chart yet%2").arg(device, scope));

    const Shape shape = model->shownSize();
    QString title =
        QStringLiteral("%1 — bandwidth per variant, %2 %3%4")
            .arg(device, formatShape(shape.rows, shape.cols), model->typesText(), scope);
    if (model->allCacheResident()) title += QStringLiteral(" (fits in L2: cache, not DRAM)");
    QChart* chart = newChart(title);

    auto* series = new QHorizontalStackedBarSeries;
    auto* mapper = new QVBarModelMapper(series);
    mapper->setFirstBarSetColumn(0);
    mapper->setLastBarSetColumn(model->columnCount() - 1);
    mapper->setFirstRow(0);
    mapper->setRowCount(model->rowCount());
    mapper->setSeries(series);
    mapper->setModel(model);
    series->setBarWidth(0.72);
    const double max_bar = largestValue(*model);
    labelBars(series, max_bar);
    const auto sets = series->barSets();
    for (int i = 0; i < sets.size(); ++i) {
        QColor color = paletteColor(i);
        if (i == model->copyReferenceColumn()) color = QColor(0x9a, 0x9a, 0x9a);
        sets[i]->setColor(color);
        sets[i]->setBorderColor(color.darker(115));
    }
    chart->addSeries(series);

    auto* variants = new QBarCategoryAxis;
    variants->append(verticalHeaders(*model));
    styleAxis(variants, QString());
    chart->addAxis(variants, Qt::AlignLeft);
    series->attachAxis(variants);

    // Room after the longest bar for its label.
    QValueAxis* gbps = gbpsAxis(max_bar * 1.06);
    QString axis_title = QStringLiteral("bandwidth [GB/s] = bytes read + written / median time");
    // On a line of its own: as one line with the formula it made the chart wider than the
    // window's chart area, so the largest bars' value labels (the copy's among them) lay beyond
    // its right edge, seen only by scrolling.
    if (model->hiddenRuns() > 0)
        axis_title +=
            QStringLiteral("<br>(%1 failed or skipped run(s) not shown)").arg(model->hiddenRuns());
    gbps->setTitleText(axis_title);
    chart->addAxis(gbps, Qt::AlignBottom);
    series->attachAxis(gbps);
    return chart;
}

QChart* buildSweepChart(SizeSweepModel* model) {
    const QString device = model->deviceName();
    const QString scope =
        model->operation().isEmpty() ? QStringLiteral("all operations") : model->operation();
    if (model->rowCount() == 0)
        return newChart(QStringLiteral("%1 — no verified results to chart yet").arg(device));
    QChart* chart =
        newChart(QStringLiteral("%1 — bandwidth versus input size (%2)").arg(device, scope));

    auto* size_axis = new QLogValueAxis;
    styleAxis(size_axis,
              QStringLiteral("input size [MiB] (each element at its own size), log scale"));
    size_axis->setBase(2.0);
    size_axis->setLabelFormat(QStringLiteral("%g"));
    size_axis->setMinorTickCount(0);
    // Whole powers of two at both ends, so the labels fall on round sizes, with room for the
    // outermost points' markers.
    const double lo = model->minMebibytes(), hi = model->maxMebibytes();
    size_axis->setRange(std::exp2(std::ceil(std::log2(lo)) - 1.0),
                        std::exp2(std::floor(std::log2(hi)) + 1.0));
    chart->addAxis(size_axis, Qt::AlignBottom);
    QValueAxis* gbps = gbpsAxis(model->maxGbps());
    chart->addAxis(gbps, Qt::AlignLeft);

    const auto& lines = model->lines();
    for (std::size_t i = 0; i < lines.size(); ++i) {
        auto* series = new QLineSeries;
        series->setName(lines[i].variant);
        auto* mapper = new QVXYModelMapper(series);
        mapper->setXColumn(SizeSweepModel::MebibytesColumn);
        mapper->setYColumn(SizeSweepModel::GbpsColumn);
        mapper->setFirstRow(lines[i].firstRow);
        mapper->setRowCount(lines[i].rowCount);
        mapper->setSeries(series);
        mapper->setModel(model);
        QPen pen(paletteColor(static_cast<int>(i)));
        pen.setWidthF(2.2);
        // Past ten lines the colours repeat: the dash pattern tells them apart.
        static constexpr std::array<Qt::PenStyle, 3> kStyles = {Qt::SolidLine, Qt::DashLine,
                                                                Qt::DotLine};
        pen.setStyle(kStyles[(i / kPalette.size()) % kStyles.size()]);
        series->setPen(pen);
        series->setPointsVisible(true);
        series->setMarkerSize(7);
        chart->addSeries(series);
        series->attachAxis(size_axis);
        series->attachAxis(gbps);
    }

    const double l2 = model->l2Mebibytes();
    if (l2 > 0 && l2 >= size_axis->min() && l2 <= size_axis->max())
        addVerticalMarker(chart, size_axis, l2,
                          QStringLiteral("L2 cache: %1 MiB").arg(QString::number(l2, 'g', 3)),
                          QColor(0x80, 0x80, 0x80));
    // A bottom legend is one row, and Qt elides its labels to fit: eight variant ids of about 30
    // characters came out as "transpose/fast-...", twice. Past about 120 characters the legend
    // goes to the right, one full id per line.
    int label_chars = 0;
    for (const auto& line : lines) label_chars += static_cast<int>(line.variant.size()) + 4;
    chart->legend()->setAlignment(label_chars > 120 ? Qt::AlignRight : Qt::AlignBottom);
    return chart;
}

QChart* buildCompareChart(CompareModel* model) {
    if (model->isEmpty()) return newChart(QStringLiteral("Compare runs — open two results files"));
    // The legend entries name each side: the device, and the file where both are one device.
    QChart* chart = newChart(
        QStringLiteral("Compare: %1  vs  %2").arg(model->seriesLabel(0), model->seriesLabel(1)));

    auto* series = new QHorizontalBarSeries;
    auto* mapper = new QVBarModelMapper(series);
    mapper->setFirstBarSetColumn(0);
    mapper->setLastBarSetColumn(1);
    mapper->setFirstRow(0);
    mapper->setRowCount(model->rowCount());
    mapper->setSeries(series);
    mapper->setModel(model);
    series->setBarWidth(0.8);
    chart->legend()->setReverseMarkers(
        true);  // the model's columns run bottom-up (see CompareModel)
    const double max_bar = largestValue(*model);
    labelBars(series, max_bar);
    const auto sets = series->barSets();
    for (int i = 0; i < sets.size(); ++i) {
        const QColor color =
            paletteColor(static_cast<int>(sets.size()) - 1 - i);  // first file blue
        sets[i]->setColor(color);
        sets[i]->setBorderColor(color.darker(115));
    }
    chart->addSeries(series);

    // Each row names its size when the two files were not compared at one common size.
    QStringList categories = verticalHeaders(*model);
    QStringList sizes;
    for (int r = 0; r < model->rowCount(); ++r) sizes << model->sizeLabel(r);
    sizes.removeDuplicates();
    if (sizes.size() > 1)
        for (int r = 0; r < categories.size(); ++r)
            categories[r] += QStringLiteral(" (%1)").arg(model->sizeLabel(r));
    auto* variants = new QBarCategoryAxis;
    variants->append(categories);
    styleAxis(variants, QString());
    chart->addAxis(variants, Qt::AlignLeft);
    series->attachAxis(variants);

    QValueAxis* gbps = gbpsAxis(max_bar * 1.06);
    // Each row names its size where they differ; the element types are named either way.
    gbps->setTitleText(
        sizes.size() == 1
            ? QStringLiteral("bandwidth [GB/s] at %1 %2").arg(sizes.front(), model->typesText())
            : QStringLiteral("bandwidth [GB/s], %1").arg(model->typesText()));
    chart->addAxis(gbps, Qt::AlignBottom);
    series->attachAxis(gbps);
    return chart;
}

// A value axis with ticks at 1, 2 or 5 x 10^k over [lo, hi], or a base-2 log axis where the
// parameter spans powers of two (strides 1..1024).
QAbstractAxis* paramAxis(const QString& name, double lo, double hi) {
    if (lo > 0 && hi / lo >= 64) {
        auto* axis = new QLogValueAxis;
        styleAxis(axis, QStringLiteral("%1, log scale").arg(name));
        axis->setBase(2.0);
        axis->setLabelFormat(QStringLiteral("%g"));
        axis->setMinorTickCount(0);
        axis->setRange(std::exp2(std::floor(std::log2(lo))), std::exp2(std::ceil(std::log2(hi))));
        return axis;
    }
    auto* axis = new QValueAxis;
    styleAxis(axis, name);
    if (hi <= lo) hi = lo + 1;
    const double span = hi - lo;
    const double magnitude = std::pow(10.0, std::floor(std::log10(span / 8.0)));
    double step = 10.0 * magnitude;
    for (double m : {1.0, 2.0, 5.0})
        if (span / (m * magnitude) <= 8.0) {
            step = std::max(1.0, m * magnitude);  // parameters are whole numbers
            break;
        }
    // Small spans tick at powers of two, so an offset axis marks the sector boundaries (0, 8, 16).
    if (span <= 64)
        for (step = 1; span / step > 16; step *= 2) {}
    const double first = std::floor(lo / step) * step;
    const double last = std::ceil(hi / step) * step;
    axis->setRange(first, last);
    axis->setTickCount(static_cast<int>(std::lround((last - first) / step)) + 1);
    axis->setLabelFormat(QStringLiteral("%.0f"));
    return axis;
}

// Bandwidth against the swept parameter, one solid line per variant and, dashed in the same
// colour, the sector model's prediction for the same runs.
QChart* buildParamChart(ParamSweepModel* model) {
    const QString device = model->deviceName();
    if (model->parameter().isEmpty())
        return newChart(
            QStringLiteral("%1 — no swept parameter in these results: run an operation with a "
                           "parameter given as a range or a list (offset 0:32, stride 1,2,4,8)")
                .arg(device));
    const bool ns = model->measure() == ParamSweepModel::Measure::ns_per_access;
    if (model->rowCount() == 0)
        return newChart(QStringLiteral("%1 — no run with %2 to chart against %3")
                            .arg(device,
                                 ns ? QStringLiteral("a time per access")
                                    : QStringLiteral("a measured bandwidth"),
                                 model->parameter()));
    QChart* chart = newChart(
        QStringLiteral("%1 — %2 versus %3 (%4)")
            .arg(device, ns ? QStringLiteral("time per access") : QStringLiteral("bandwidth"),
                 model->parameter(), model->operations().join(QStringLiteral(", "))));
    QAbstractAxis* x_axis = paramAxis(model->parameter(), model->minParam(), model->maxParam());
    chart->addAxis(x_axis, Qt::AlignBottom);
    QValueAxis* y_axis = gbpsAxis(model->maxValue());
    if (model->measure() == ParamSweepModel::Measure::percent_of_copy)
        y_axis->setTitleText(QStringLiteral("bandwidth [% of the same run's copy]"));
    if (ns) y_axis->setTitleText(QStringLiteral("time per warp-wide load of one SM [ns]"));
    chart->addAxis(y_axis, Qt::AlignLeft);

    const auto& lines = model->lines();
    const auto add_line = [&](const ParamSweepModel::Line& line, int column, const QString& name,
                              QPen pen, bool points) {
        auto* series = new QLineSeries;
        series->setName(name);
        auto* mapper = new QVXYModelMapper(series);
        mapper->setXColumn(ParamSweepModel::ParamColumn);
        mapper->setYColumn(column);
        mapper->setFirstRow(line.firstRow);
        mapper->setRowCount(line.rowCount);
        mapper->setSeries(series);
        mapper->setModel(model);
        series->setPen(pen);
        series->setPointsVisible(points);
        series->setMarkerSize(7);
        chart->addSeries(series);
        series->attachAxis(x_axis);
        series->attachAxis(y_axis);
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        QPen pen(paletteColor(static_cast<int>(i)));
        pen.setWidthF(2.2);
        add_line(lines[i], ParamSweepModel::ValueColumn, lines[i].label, pen, true);
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].hasModel) continue;
        QPen pen(paletteColor(static_cast<int>(i)).darker(120));
        pen.setWidthF(1.6);
        pen.setStyle(Qt::DashLine);
        const QString name = lines.size() == 1 ? QStringLiteral("model")
                                               : QStringLiteral("model, %1").arg(lines[i].label);
        add_line(lines[i], ParamSweepModel::ModelColumn, name, pen, false);
    }
    int label_chars = 0;
    for (const auto& line : lines) label_chars += 2 * static_cast<int>(line.label.size()) + 12;
    chart->legend()->setAlignment(label_chars > 120 ? Qt::AlignRight : Qt::AlignBottom);
    return chart;
}

// The title of a counters chart: what it shows, or why there is nothing to show.
QString countersTitle(const CountersChartModel& model, const QString& what) {
    if (!model.hasCounters())
        return QStringLiteral("%1 — no hardware counters in these results: %2")
            .arg(model.deviceName(), model.missingReason());
    const Shape shape = model.shownSize();
    return QStringLiteral("%1 — %2, %3 %4 (one profiled launch each)")
        .arg(model.deviceName(), what, formatShape(shape.rows, shape.cols), model.typesText());
}

// What the value axis adds about runs that are not drawn; short, so that an export keeps it
// whole (the window's note above the chart gives the reason).
QString withoutCountersNote(const CountersChartModel& model) {
    if (model.runsWithoutCounters() == 0) return {};
    return QStringLiteral("   (%1 run(s) without counters not shown)")
        .arg(model.runsWithoutCounters());
}

QBarCategoryAxis* variantAxis(QChart* chart, const QAbstractItemModel& model) {
    auto* variants = new QBarCategoryAxis;
    variants->append(verticalHeaders(model));
    styleAxis(variants, QString());
    chart->addAxis(variants, Qt::AlignLeft);
    return variants;
}

// One bar per variant, as the bandwidth chart (a stacked series over a pivot), with the model's
// grey bar on top and a dashed line at 1. The values sit in the bars' middles, where the line at
// 1 does not run through them.
QChart* buildDramModelChart(DramModelBarsModel* model) {
    QChart* chart = newChart(countersTitle(*model, QStringLiteral("measured DRAM bytes / model "
                                                                  "bytes per variant")));
    if (!model->hasCounters()) return chart;

    auto* series = new QHorizontalStackedBarSeries;
    auto* mapper = new QVBarModelMapper(series);
    mapper->setFirstBarSetColumn(0);
    mapper->setLastBarSetColumn(model->columnCount() - 1);
    mapper->setFirstRow(0);
    mapper->setRowCount(model->rowCount());
    mapper->setSeries(series);
    mapper->setModel(model);
    series->setBarWidth(0.72);
    labelBars(series, model->largestRatio());
    series->setLabelsPosition(QAbstractBarSeries::LabelsCenter);
    series->setLabelsPrecision(4);  // "1.009" and "1.016" differ; three digits made both "1.01"
    const auto sets = series->barSets();
    for (int i = 0; i < sets.size(); ++i) {
        QColor color = paletteColor(i);
        if (i == model->referenceColumn()) color = QColor(0x9a, 0x9a, 0x9a);
        if (i == model->mismatchColumn())
            color = QColor(0x2b, 0x2b, 0x2b);  // no operation's colour
        sets[i]->setColor(color);
        sets[i]->setBorderColor(color.darker(115));
        // Dark text on the light colours (yellow, teal, orange), white on the others.
        sets[i]->setLabelColor(qGray(color.rgb()) > 150 ? QColor(0x30, 0x30, 0x30) : Qt::white);
    }
    chart->addSeries(series);
    series->attachAxis(variantAxis(chart, *model));

    QValueAxis* ratio = gbpsAxis(model->largestRatio() * 1.04);
    ratio->setTitleText(QStringLiteral("DRAM bytes read + written (counters) / bytes model") +
                        withoutCountersNote(*model));
    chart->addAxis(ratio, Qt::AlignBottom);
    series->attachAxis(ratio);
    // Unnamed, so the legends leave it out: the grey bar already names the model.
    QLineSeries* line = addVerticalMarker(chart, ratio, 1.0, QString(), QColor(0x50, 0x50, 0x50));
    for (QLegendMarker* marker : chart->legend()->markers(line)) marker->setVisible(false);
    return chart;
}

// Two grouped series side by side in each variant's row: sectors per request against the lower
// axis, bank conflicts per wavefront against the upper one (0 to 1). Qt Charts hides the bar and
// the label of a 0, which is also how a value the run does not have is drawn (the table has it).
QChart* buildSectorsChart(SectorsConflictsModel* model) {
    QChart* chart = newChart(countersTitle(
        *model, QStringLiteral("sectors per request and bank conflicts per variant")));
    if (!model->hasCounters()) return chart;

    using M = SectorsConflictsModel;
    auto* sectors = new QHorizontalBarSeries;
    auto* sectors_mapper = new QVBarModelMapper(sectors);
    sectors_mapper->setFirstBarSetColumn(M::LoadSectorsColumn);
    sectors_mapper->setLastBarSetColumn(model->hasSectorModel() ? M::ModelStoreSectorsColumn
                                                                : M::StoreSectorsColumn);
    sectors_mapper->setFirstRow(0);
    sectors_mapper->setRowCount(model->rowCount());
    sectors_mapper->setSeries(sectors);
    sectors_mapper->setModel(model);
    sectors->setBarWidth(0.9);
    labelBars(sectors, model->largestSectors());
    // Measured in the palette's blue and orange; the model's prediction in lighter ones.
    const std::array<QColor, 4> sector_colors = {paletteColor(0), paletteColor(1),
                                                 paletteColor(0).lighter(150),
                                                 paletteColor(1).lighter(140)};
    const auto sector_sets = sectors->barSets();
    for (int i = 0; i < sector_sets.size(); ++i) {
        const QColor color = sector_colors[static_cast<std::size_t>(i) % sector_colors.size()];
        sector_sets[i]->setColor(color);
        sector_sets[i]->setBorderColor(color.darker(115));
        if (i >= 2) sector_sets[i]->setBrush(QBrush(color, Qt::Dense3Pattern));
    }
    chart->addSeries(sectors);
    QBarCategoryAxis* variants = variantAxis(chart, *model);
    sectors->attachAxis(variants);
    QValueAxis* per_request = gbpsAxis(std::max(model->largestSectors(), 4.0) * 1.08);
    per_request->setTitleText(
        QStringLiteral("global 32-byte sectors per warp request (4: coalesced floats, 32: one "
                       "sector per lane)") +
        withoutCountersNote(*model));
    chart->addAxis(per_request, Qt::AlignBottom);
    sectors->attachAxis(per_request);

    if (model->hasSharedMemory()) {
        auto* conflicts = new QHorizontalBarSeries;
        auto* conflicts_mapper = new QVBarModelMapper(conflicts);
        conflicts_mapper->setFirstBarSetColumn(M::LoadConflictsColumn);
        conflicts_mapper->setLastBarSetColumn(M::StoreConflictsColumn);
        conflicts_mapper->setFirstRow(0);
        conflicts_mapper->setRowCount(model->rowCount());
        conflicts_mapper->setSeries(conflicts);
        conflicts_mapper->setModel(model);
        conflicts->setBarWidth(0.9);
        labelBars(conflicts, 1.0);
        const auto conflict_sets = conflicts->barSets();
        for (int i = 0; i < conflict_sets.size(); ++i) {
            const QColor color = paletteColor(i == 0 ? 2 : 6);  // red, purple
            conflict_sets[i]->setColor(color);
            conflict_sets[i]->setBorderColor(color.darker(115));
        }
        chart->addSeries(conflicts);
        conflicts->attachAxis(variants);
        auto* per_wavefront = new QValueAxis;
        styleAxis(per_wavefront,
                  QStringLiteral("shared-memory bank conflicts per wavefront (conflicts / "
                                 "wavefronts: 0 none, near 1 nearly every pass a replay)"));
        per_wavefront->setRange(0.0, 1.0);
        per_wavefront->setTickCount(6);
        per_wavefront->setLabelFormat(QStringLiteral("%.1f"));
        chart->addAxis(per_wavefront, Qt::AlignTop);
        conflicts->attachAxis(per_wavefront);
    }
    return chart;
}

// Draws `chart` (taken over) at `size` onto `painter` in a scene of its own, so an export has the
// size asked for whatever the window's size is. The layout is activated at once: left to the event
// loop, a chart that was never shown would be drawn at its initial size.
void paintChart(QChart* chart, QSize size, QPainter& painter) {
    QGraphicsScene scene;
    scene.addItem(chart);  // the scene owns the chart from here on
    const QRectF area(QPointF(0, 0), QSizeF(size));
    chart->setGeometry(area);
    if (chart->layout()) chart->layout()->activate();
    scene.setSceneRect(area);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    scene.render(&painter, area, area);
    painter.restore();
}

}  // namespace

// An exported image: title, value axis and legend take about this much height, and each bar a
// little more than its label's line.
constexpr int kChartFrameHeight = 170;
constexpr int kExportPixelsPerBar = 26;
// Qt Charts shortens a category label to "..." when the label's line (its font's height plus 2)
// plus 2 x 4 pixels of padding is taller than the plot's height divided by (categories + 2), and
// when it is wider than the left axis, which gets at most 40 % of the chart's width. The window's
// chart is made at least that large (and scrolls), so no variant id is ever shortened.
constexpr int kLabelPadding = 4;
constexpr double kMaxAxisShare = 0.4;
constexpr int kPlotFrame = 110;  // [pixels] chart height outside the plot: value axis, margins

struct ChartPanel::Private {
    std::function<QChart*()> build;  // a fresh chart over the panel's model
    std::function<int()> bar_rows;   // categories of a bar chart (0 for line charts)
    std::function<bool()> has_data;
    QChartView* view = nullptr;
    QHBoxLayout* controls = nullptr;
    // In the window the title and the legend are labels that wrap, never shortened; exports keep
    // the chart's own (they are drawn large enough).
    QLabel* title = nullptr;
    QLabel* legend = nullptr;
    QString title_text;
};

namespace {

QString legendHtml(QLegend* legend) {
    QStringList entries;
    for (QLegendMarker* marker : legend->markers()) {
        if (marker->label().isEmpty()) continue;  // an unnamed reference line
        const bool line = marker->type() == QLegendMarker::LegendMarkerTypeXY;
        // A line's marker keeps the default pen until the chart is drawn: read the series' own.
        const auto* xy = qobject_cast<const QXYSeries*>(marker->series());
        const QPen pen = line && xy ? xy->pen() : marker->pen();
        const QColor color = line ? pen.color() : marker->brush().color();
        QString symbol = QStringLiteral("■");
        if (line) {
            const Qt::PenStyle style = pen.style();
            symbol = style == Qt::DashLine  ? QStringLiteral("╍╍")
                     : style == Qt::DotLine ? QStringLiteral("┈┈")
                                            : QStringLiteral("━━");
        }
        entries << QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                       .arg(color.name(), symbol, marker->label().toHtmlEscaped());
    }
    if (legend->reverseMarkers()) std::reverse(entries.begin(), entries.end());
    return entries.join(QStringLiteral(" &nbsp; "));
}

}  // namespace

ChartPanel::ChartPanel(QWidget* parent) : QWidget(parent), d_(std::make_unique<Private>()) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    d_->controls = new QHBoxLayout;
    d_->controls->setContentsMargins(6, 4, 6, 0);
    layout->addLayout(d_->controls);
    d_->title = new QLabel(this);
    d_->title->setObjectName(QStringLiteral("chartTitle"));
    d_->title->setWordWrap(true);
    d_->title->setAlignment(Qt::AlignHCenter);
    d_->title->setFont(withPointSize(d_->title->font(), 13, true));
    d_->title->setContentsMargins(6, 4, 6, 0);
    layout->addWidget(d_->title);
    // A bar chart gets the height and width its labels need and scrolls inside a small window,
    // rather than squeezing dozens of variant names into "...".
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    d_->view = new QChartView(new QChart);
    d_->view->setRenderHint(QPainter::Antialiasing);
    d_->view->setMinimumSize(320, 240);
    scroll->setWidget(d_->view);
    layout->addWidget(scroll, 1);
    d_->legend = new QLabel(this);
    d_->legend->setObjectName(QStringLiteral("chartLegend"));
    d_->legend->setWordWrap(true);
    d_->legend->setTextFormat(Qt::RichText);
    d_->legend->setAlignment(Qt::AlignHCenter);
    d_->legend->setContentsMargins(6, 0, 6, 4);
    layout->addWidget(d_->legend);
}

ChartPanel::~ChartPanel() = default;

QHBoxLayout* ChartPanel::controls() const { return d_->controls; }

void ChartPanel::rebuildChart() {
    QChart* chart = d_->build();
    d_->title_text = chart->title();
    d_->title->setText(d_->title_text);
    chart->setTitle(QString());
    d_->legend->setText(legendHtml(chart->legend()));
    d_->legend->setVisible(!chart->legend()->markers().isEmpty());
    chart->legend()->setVisible(false);

    QSize least(320, 240);
    const int rows = d_->bar_rows ? d_->bar_rows() : 0;
    const auto axes = chart->axes(Qt::Vertical);
    if (rows > 0 && !axes.isEmpty()) {
        auto* categories = qobject_cast<QBarCategoryAxis*>(axes.front());
        const QFontMetrics metrics(axes.front()->labelsFont());
        int widest = 0;
        if (categories)
            for (const QString& label : categories->categories())
                widest = std::max(widest, metrics.horizontalAdvance(label));
        const int line = metrics.height() + 2 + 2 * kLabelPadding + 1;
        least.setHeight(std::max(least.height(), (rows + 2) * line + kPlotFrame));
        const int axis_width = static_cast<int>((widest + 4 * kLabelPadding) / kMaxAxisShare);
        least.setWidth(std::max(least.width(), axis_width + 40));
        // The value axis's title spans the plot, right of the labels.
        for (QAbstractAxis* axis : chart->axes(Qt::Horizontal)) {
            const QFontMetrics title_metrics(axis->titleFont());
            int title = 0;  // its longest line
            for (const QString& part : axis->titleText().split(QStringLiteral("<br>")))
                title = std::max(title, title_metrics.horizontalAdvance(part));
            least.setWidth(std::max(least.width(), title + widest + 4 * kLabelPadding + 80));
        }
    }
    QChart* old = d_->view->chart();
    d_->view->setChart(chart);  // the view releases the old chart without deleting it
    delete old;
    d_->view->setMinimumSize(least);
    emit chartChanged();
}

QSize ChartPanel::exportSize() const {
    const int rows = d_->bar_rows ? d_->bar_rows() : 0;
    // Roomier than the window: never smaller than a 16:9 slide.
    return {1280, std::clamp(kChartFrameHeight + kExportPixelsPerBar * rows, 720, 4000)};
}

QImage ChartPanel::renderImage(QSize size) const {
    if (size.isEmpty()) size = exportSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    paintChart(d_->build(), size, painter);
    return image;
}

bool ChartPanel::exportChart(const QString& path, QString* error, QSize size) const {
    if (size.isEmpty()) size = exportSize();
    return writeImageFile(
        path, size, chartTitle(),
        [&](QPainter& painter) { paintChart(d_->build(), size, painter); }, error);
}

QString ChartPanel::chartTitle() const { return d_->title_text; }

QStringList ChartPanel::legendLabels() const {
    QStringList out;
    QLegend* legend = d_->view->chart()->legend();
    for (QLegendMarker* marker : legend->markers())
        if (!marker->label().isEmpty()) out << marker->label();
    if (legend->reverseMarkers()) std::reverse(out.begin(), out.end());
    return out;
}

bool ChartPanel::hasData() const { return d_->has_data(); }

QStringList ChartPanel::shortenedTexts() const {
    QStringList out;
    QChart* chart = d_->view->chart();
    for (QAbstractAxis* axis : chart->axes())
        if (axis->labelsTruncated())
            out << QStringLiteral("(labels of the axis \"%1\")").arg(axis->titleText());
    for (QGraphicsItem* item : d_->view->scene()->items()) {
        const auto* text = dynamic_cast<const QGraphicsTextItem*>(item);
        if (text && text->isVisible() && text->toPlainText().endsWith(QStringLiteral("...")))
            out << text->toPlainText();
    }
    return out;
}

QString ChartPanel::shownTitle() const { return d_->title->text(); }

QString ChartPanel::shownLegend() const {
    return d_->legend->isVisible() ? d_->legend->text() : QString();
}

BandwidthChartWidget::BandwidthChartWidget(ResultsModel* model, QWidget* parent)
    : ChartPanel(parent) {
    auto* bars = new BandwidthBarsModel(model, this);
    bars->setReversedRows(true);  // first variant on top
    bars->setCopyReferenceRow(true);
    bars->setObjectName(QStringLiteral("bandwidthBars"));
    d_->build = [bars] { return buildBandwidthChart(bars); };
    d_->bar_rows = [bars] { return bars->rowCount(); };
    d_->has_data = [bars] { return bars->rowCount() > 0; };

    auto* sizes = new QComboBox(this);
    sizes->setObjectName(QStringLiteral("sizeChoice"));
    sizes->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* tiers = new QComboBox(this);
    tiers->setObjectName(QStringLiteral("tierChoice"));
    tiers->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    tiers->setToolTip(
        tr("classic: the course's lessons; tuned: what the hardware can do; "
           "experiment: ideas kept because they lost"));
    auto* other_sizes = new QLabel(this);
    other_sizes->setObjectName(QStringLiteral("otherSizesHint"));
    other_sizes->setStyleSheet(QStringLiteral("QLabel { color: #8a4b00; }"));
    other_sizes->setWordWrap(true);  // a narrow chart wraps it rather than growing the window
    other_sizes->setMinimumWidth(80);
    controls()->addWidget(new QLabel(tr("Input size:"), this));
    controls()->addWidget(sizes);
    controls()->addWidget(new QLabel(tr("Tier:"), this));
    controls()->addWidget(tiers);
    controls()->addWidget(other_sizes, 1);
    connect(sizes, &QComboBox::activated, this, [bars, sizes](int index) {
        const int i = sizes->itemData(index).toInt();
        bars->setSize(i < 0 ? std::nullopt
                            : std::optional<Shape>(bars->sizes().at(static_cast<std::size_t>(i))));
    });
    connect(tiers, &QComboBox::activated, this,
            [bars, tiers](int index) { bars->setTier(tiers->itemData(index).toString()); });
    connect(bars, &QAbstractItemModel::modelReset, this, [this] {
        updateSizeChoices();
        rebuildChart();
    });
    updateSizeChoices();
    rebuildChart();
}

BandwidthBarsModel* BandwidthChartWidget::barsModel() const {
    return findChild<BandwidthBarsModel*>(QStringLiteral("bandwidthBars"));
}

void BandwidthChartWidget::setTier(const QString& tier) { barsModel()->setTier(tier); }

void BandwidthChartWidget::updateSizeChoices() {
    auto* combo = findChild<QComboBox*>(QStringLiteral("sizeChoice"));
    const BandwidthBarsModel* bars = barsModel();
    const QSignalBlocker block(combo);
    const int current = combo->currentData().isValid() ? combo->currentData().toInt() : -1;
    combo->clear();
    const Shape shown = bars->shownSize();
    const QString largest = formatShape(shown.rows, shown.cols);
    combo->addItem(bars->sizes().empty() ? tr("largest") : tr("largest (%1)").arg(largest), -1);
    for (std::size_t i = 0; i < bars->sizes().size(); ++i)
        combo->addItem(formatShape(bars->sizes()[i].rows, bars->sizes()[i].cols),
                       static_cast<int>(i));
    combo->setCurrentIndex(std::max(0, combo->findData(current)));

    // Results at several sizes open on one: say which others there are, where the choice is.
    QStringList others;
    for (const Shape& s : bars->sizes())
        if (s != shown) others << formatShape(s.rows, s.cols);
    auto* hint = findChild<QLabel*>(QStringLiteral("otherSizesHint"));
    hint->setText(others.isEmpty() ? QString()
                                   : tr("also measured at %1: choose the size on the left")
                                         .arg(others.join(QStringLiteral(", "))));

    auto* tiers = findChild<QComboBox*>(QStringLiteral("tierChoice"));
    const QSignalBlocker block_tiers(tiers);
    tiers->clear();
    tiers->addItem(tr("all"), QString());
    QStringList offered = bars->tiers();
    if (!bars->tier().isEmpty() && !offered.contains(bars->tier())) offered << bars->tier();
    for (const QString& tier : offered) tiers->addItem(tier, tier);
    tiers->setCurrentIndex(std::max(0, tiers->findData(bars->tier())));
}

SizeSweepChartWidget::SizeSweepChartWidget(ResultsModel* model, QWidget* parent)
    : ChartPanel(parent) {
    auto* sweep = new SizeSweepModel(model, this);
    sweep->setObjectName(QStringLiteral("sizeSweep"));
    d_->build = [sweep] { return buildSweepChart(sweep); };
    d_->has_data = [sweep] { return sweep->rowCount() > 0; };

    auto* ops = new QComboBox(this);
    ops->setObjectName(QStringLiteral("operationChoice"));
    ops->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    controls()->addWidget(new QLabel(tr("Operation:"), this));
    controls()->addWidget(ops);
    controls()->addStretch(1);
    connect(ops, &QComboBox::activated, this, [this, ops](int index) {
        user_chose_operation_ = true;
        sweepModel()->setOperation(ops->itemData(index).toString());
    });
    connect(sweep, &QAbstractItemModel::modelReset, this, [this] {
        updateOperationChoices();
        rebuildChart();
    });
    updateOperationChoices();
    rebuildChart();
}

SizeSweepModel* SizeSweepChartWidget::sweepModel() const {
    return findChild<SizeSweepModel*>(QStringLiteral("sizeSweep"));
}

void SizeSweepChartWidget::setOperation(const QString& op) {
    user_chose_operation_ = true;
    sweepModel()->setOperation(op);
}

void SizeSweepChartWidget::updateOperationChoices() {
    SizeSweepModel* sweep = sweepModel();
    // Many variants on one chart are unreadable: until the user picks, a long run shows the first
    // operation after copy (copy itself is the reference, not the lesson).
    constexpr std::size_t kMaxLinesForAll = kPalette.size();  // no colour twice
    if (!user_chose_operation_ && sweep->operation().isEmpty() &&
        sweep->lines().size() > kMaxLinesForAll) {
        const QStringList& ops = sweep->operations();
        const auto first = std::find_if(
            ops.begin(), ops.end(), [](const QString& op) { return op != QLatin1String("copy"); });
        if (first != ops.end()) {
            sweep->setOperation(*first);  // resets the model again, which calls back here
            return;
        }
    }
    auto* combo = findChild<QComboBox*>(QStringLiteral("operationChoice"));
    const QSignalBlocker block(combo);
    combo->clear();
    combo->addItem(tr("all operations"), QString());
    for (const QString& op : sweep->operations()) combo->addItem(op, op);
    combo->setCurrentIndex(std::max(0, combo->findData(sweep->operation())));
}

CompareChartWidget::CompareChartWidget(QWidget* parent) : ChartPanel(parent) {
    auto* compare = new CompareModel(this);
    compare->setReversed(true);  // first variant and first file on top
    compare->setObjectName(QStringLiteral("compare"));
    d_->build = [compare] { return buildCompareChart(compare); };
    d_->bar_rows = [compare] { return 2 * compare->rowCount(); };
    d_->has_data = [compare] { return !compare->isEmpty(); };
    controls()->addWidget(
        new QLabel(tr("Two results files, each variant at the largest size both measured"), this));
    controls()->addStretch(1);
    connect(compare, &QAbstractItemModel::modelReset, this, &CompareChartWidget::rebuildChart);
    rebuildChart();
}

void CompareChartWidget::setRecords(RunRecord a, const QString& label_a, RunRecord b,
                                    const QString& label_b) {
    compareModel()->setRecords(std::move(a), label_a, std::move(b), label_b);
}

CompareModel* CompareChartWidget::compareModel() const {
    return findChild<CompareModel*>(QStringLiteral("compare"));
}

ParameterChartWidget::ParameterChartWidget(ResultsModel* model, QWidget* parent)
    : ChartPanel(parent) {
    auto* sweep = new ParamSweepModel(model, this);
    sweep->setObjectName(QStringLiteral("paramSweep"));
    d_->build = [sweep] { return buildParamChart(sweep); };
    d_->has_data = [sweep] { return sweep->rowCount() > 0; };

    auto* params = new QComboBox(this);
    params->setObjectName(QStringLiteral("parameterChoice"));
    params->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* measure = new QComboBox(this);
    measure->setObjectName(QStringLiteral("measureChoice"));
    measure->addItem(tr("GB/s"), static_cast<int>(ParamSweepModel::Measure::gbps));
    measure->addItem(tr("% of copy"), static_cast<int>(ParamSweepModel::Measure::percent_of_copy));
    measure->addItem(tr("ns per access"),
                     static_cast<int>(ParamSweepModel::Measure::ns_per_access));
    measure->setToolTip(
        tr("GB/s: the measurement beside the model's efficiency × the same run's copy GB/s; "
           "% of copy: both relative to that copy; ns per access: the operations timed per "
           "access (constant memory)"));
    controls()->addWidget(new QLabel(tr("Parameter:"), this));
    controls()->addWidget(params);
    controls()->addWidget(new QLabel(tr("Show:"), this));
    controls()->addWidget(measure);
    controls()->addStretch(1);
    connect(params, &QComboBox::activated, this, [sweep, params](int index) {
        sweep->setParameter(params->itemData(index).toString());
    });
    connect(measure, &QComboBox::activated, this, [sweep, measure](int index) {
        sweep->setMeasure(static_cast<ParamSweepModel::Measure>(measure->itemData(index).toInt()));
    });
    connect(sweep, &QAbstractItemModel::modelReset, this, [this] {
        updateParameterChoices();
        rebuildChart();
    });
    updateParameterChoices();
    rebuildChart();
}

ParamSweepModel* ParameterChartWidget::sweepModel() const {
    return findChild<ParamSweepModel*>(QStringLiteral("paramSweep"));
}

void ParameterChartWidget::setParameter(const QString& name) { sweepModel()->setParameter(name); }

void ParameterChartWidget::setMeasure(ParamSweepModel::Measure measure) {
    sweepModel()->setMeasure(measure);
    auto* combo = findChild<QComboBox*>(QStringLiteral("measureChoice"));
    combo->setCurrentIndex(std::max(0, combo->findData(static_cast<int>(measure))));
}

void ParameterChartWidget::updateParameterChoices() {
    auto* combo = findChild<QComboBox*>(QStringLiteral("parameterChoice"));
    const ParamSweepModel* sweep = sweepModel();
    const QSignalBlocker block(combo);
    combo->clear();
    for (const QString& name : sweep->sweptParameters()) combo->addItem(name, name);
    combo->setEnabled(combo->count() > 1);
    combo->setCurrentIndex(std::max(0, combo->findData(sweep->parameter())));
}

namespace {

// The size choice of a counters chart: the sizes with counters, the largest until one is chosen.
void addCountersSizeChoice(QWidget* owner, QHBoxLayout* controls, CountersChartModel* model) {
    auto* sizes = new QComboBox(owner);
    sizes->setObjectName(QStringLiteral("countersSizeChoice"));
    sizes->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* missing = new QLabel(owner);
    missing->setObjectName(QStringLiteral("countersMissingNote"));
    missing->setStyleSheet(QStringLiteral("QLabel { color: #8a4b00; }"));
    missing->setWordWrap(true);
    missing->setMinimumWidth(80);
    controls->addWidget(new QLabel(QObject::tr("Input size:"), owner));
    controls->addWidget(sizes);
    controls->addWidget(missing, 1);
    QObject::connect(sizes, &QComboBox::activated, owner, [model, sizes](int index) {
        const int i = sizes->itemData(index).toInt();
        model->setSize(i < 0
                           ? std::nullopt
                           : std::optional<Shape>(model->sizes().at(static_cast<std::size_t>(i))));
    });
    const auto update = [model, sizes, missing] {
        const QSignalBlocker block(sizes);
        const int current = sizes->currentData().isValid() ? sizes->currentData().toInt() : -1;
        sizes->clear();
        const Shape shown = model->shownSize();
        sizes->addItem(model->sizes().empty()
                           ? QObject::tr("largest")
                           : QObject::tr("largest (%1)").arg(formatShape(shown.rows, shown.cols)),
                       -1);
        for (std::size_t i = 0; i < model->sizes().size(); ++i)
            sizes->addItem(formatShape(model->sizes()[i].rows, model->sizes()[i].cols),
                           static_cast<int>(i));
        sizes->setCurrentIndex(std::max(0, sizes->findData(current)));
        // Runs left out for want of counters, and why (the title says it when none has any).
        missing->setText(model->hasCounters() && model->runsWithoutCounters() > 0
                             ? QObject::tr("%1 run(s) without counters: %2")
                                   .arg(model->runsWithoutCounters())
                                   .arg(model->missingReason())
                             : QString());
    };
    QObject::connect(model, &QAbstractItemModel::modelReset, sizes, update);
    update();
}

}  // namespace

DramModelChartWidget::DramModelChartWidget(ResultsModel* model, QWidget* parent)
    : ChartPanel(parent) {
    auto* bars = new DramModelBarsModel(model, this);
    bars->setReversedRows(true);  // first variant on top
    bars->setModelReferenceRow(true);
    bars->setObjectName(QStringLiteral("dramModelBars"));
    d_->build = [bars] { return buildDramModelChart(bars); };
    d_->bar_rows = [bars] { return bars->rowCount(); };
    d_->has_data = [bars] { return bars->hasCounters(); };
    addCountersSizeChoice(this, controls(), bars);
    connect(bars, &QAbstractItemModel::modelReset, this, &DramModelChartWidget::rebuildChart);
    rebuildChart();
}

DramModelBarsModel* DramModelChartWidget::barsModel() const {
    return findChild<DramModelBarsModel*>(QStringLiteral("dramModelBars"));
}

SectorsChartWidget::SectorsChartWidget(ResultsModel* model, QWidget* parent) : ChartPanel(parent) {
    auto* sectors = new SectorsConflictsModel(model, this);
    sectors->setReversedRows(true);
    sectors->setObjectName(QStringLiteral("sectorsConflicts"));
    d_->build = [sectors] { return buildSectorsChart(sectors); };
    // Up to six bars in each variant's row: twice the room of a one-bar row.
    d_->bar_rows = [sectors] { return 2 * sectors->rowCount(); };
    d_->has_data = [sectors] { return sectors->hasCounters(); };
    addCountersSizeChoice(this, controls(), sectors);
    connect(sectors, &QAbstractItemModel::modelReset, this, &SectorsChartWidget::rebuildChart);
    rebuildChart();
}

SectorsConflictsModel* SectorsChartWidget::sectorsModel() const {
    return findChild<SectorsConflictsModel*>(QStringLiteral("sectorsConflicts"));
}

ResultsChartsWidget::ResultsChartsWidget(ResultsModel* model, QWidget* parent)
    : QTabWidget(parent),
      bandwidth_(new BandwidthChartWidget(model, this)),
      sweep_(new SizeSweepChartWidget(model, this)),
      compare_(new CompareChartWidget(this)),
      parameter_(new ParameterChartWidget(model, this)),
      dram_model_(new DramModelChartWidget(model, this)),
      sectors_(new SectorsChartWidget(model, this)) {
    addTab(bandwidth_, tr("Bandwidth per variant"));
    addTab(sweep_, tr("Bandwidth versus size"));
    addTab(parameter_, tr("Parameter"));
    addTab(compare_, tr("Compare runs"));
    addTab(dram_model_, tr("DRAM / model"));
    addTab(sectors_, tr("Sectors && conflicts"));
}

ChartPanel* ResultsChartsWidget::currentChart() const {
    return qobject_cast<ChartPanel*>(currentWidget());
}

bool ResultsChartsWidget::exportCurrentChart(const QString& path, QString* error,
                                             QSize size) const {
    return currentChart()->exportChart(path, error, size);
}

void ResultsChartsWidget::showComparison(RunRecord a, const QString& label_a, RunRecord b,
                                         const QString& label_b) {
    compare_->setRecords(std::move(a), label_a, std::move(b), label_b);
    setCurrentWidget(compare_);
}

}  // namespace coalesce::gui
