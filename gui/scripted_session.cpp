#include "scripted_session.hpp"

#include "main_window.hpp"
#include "results/chart_widgets.hpp"
#include "results/param_sweep_model.hpp"
#include "run_panel.hpp"

#include <QCoreApplication>
#include <QPixmap>
#include <QSaveFile>
#include <QScreen>

#include <cstdio>

namespace coalesce::gui {
namespace {

// The window as it shows on screen (a real window under X or Xvfb); the widget painted into a
// pixmap where the platform cannot grab screens (offscreen).
bool save_screenshot(MainWindow& window, const QString& path) {
    QPixmap pixmap;
    if (QScreen* screen = window.screen()) pixmap = screen->grabWindow(window.winId());
    if (pixmap.isNull() || pixmap.size().isEmpty()) pixmap = window.grab();
    QSaveFile file(path);  // written aside and renamed into place on commit
    if (!file.open(QIODevice::WriteOnly) || !pixmap.save(&file, "PNG") || !file.commit()) {
        std::fprintf(stderr, "coalesce: cannot write the screenshot %s: %s\n", qPrintable(path),
                     qPrintable(file.errorString()));
        return false;
    }
    std::fprintf(stderr, "coalesce: screenshot %s (%dx%d)\n", qPrintable(path), pixmap.width(),
                 pixmap.height());
    return true;
}

}  // namespace

ScriptedSession::ScriptedSession(MainWindow& window, AppOptions options, QString input,
                                 bool input_required)
    : QObject(&window),
      window_(window),
      options_(std::move(options)),
      input_(std::move(input)),
      input_required_(input_required) {}

void ScriptedSession::start() {
    if (input_.isEmpty()) {
        afterInput(true);
        return;
    }
    auto* opened = new QObject(this);  // the two connections below live as long as this
    connect(&window_, &MainWindow::inputChanged, opened, [this, opened] {
        opened->deleteLater();
        afterInput(true);
    });
    connect(&window_, &MainWindow::inputFailed, opened, [this, opened] {
        opened->deleteLater();
        afterInput(false);
    });
    window_.openFile(input_);
}

void ScriptedSession::afterInput(bool ok) {
    if (!ok && input_required_) ok_ = false;
    if (!options_.open_results.isEmpty()) ok_ = window_.openResults(options_.open_results) && ok_;
    if (!options_.compare.isEmpty()) {
        ok_ = window_.compareResults(options_.compare.at(0), options_.compare.at(1)) && ok_;
        if (options_.chart.isEmpty()) window_.showChart("compare");
    }
    if (!options_.chart.isEmpty()) window_.showChart(options_.chart);
    if (!options_.measure.isEmpty())
        window_.charts()->parameter()->setMeasure(
            options_.measure == "ns"        ? ParamSweepModel::Measure::ns_per_access
            : options_.measure == "percent" ? ParamSweepModel::Measure::percent_of_copy
                                            : ParamSweepModel::Measure::gbps);
    if (!options_.parameter.isEmpty()) {
        ParameterChartWidget* chart = window_.charts()->parameter();
        chart->setParameter(options_.parameter);
        if (chart->sweepModel()->parameter() != options_.parameter) {
            std::fprintf(stderr, "coalesce: --parameter %s: the results sweep %s\n",
                         qPrintable(options_.parameter),
                         chart->sweepModel()->sweptParameters().isEmpty()
                             ? "no parameter"
                             : qPrintable(chart->sweepModel()->sweptParameters().join(", ")));
            ok_ = false;
        }
    }
    if (!options_.sizes.isEmpty()) window_.runPanel()->setSweep(true, options_.sizes);
    if (options_.counters) window_.runPanel()->setCountersRequested(true);

    if (options_.autorun) {
        // The worker first says whether there is a GPU: that picks the variants and sizes.
        if (window_.deviceProbed())
            startRunWhenReady();
        else
            connect(&window_, &MainWindow::deviceReady, this, &ScriptedSession::startRunWhenReady,
                    Qt::SingleShotConnection);
    } else if (options_.scripted()) {
        whenIdle(&ScriptedSession::finish);
    }
}

void ScriptedSession::startRunWhenReady() {
    if (options_.scripted()) {
        connect(
            &window_, &MainWindow::runFinished, this,
            [this] { whenIdle(&ScriptedSession::finish); }, Qt::SingleShotConnection);
        connect(&window_, &MainWindow::runFailed, this,
                [this](const QString& message) { fail("the run stopped: " + message); });
    }
    if (!window_.startRun()) {
        std::fprintf(stderr, "coalesce: cannot start the run: %s\n",
                     qPrintable(window_.errorText()));
        if (options_.scripted()) fail(window_.errorText());
    }
}

void ScriptedSession::whenIdle(void (ScriptedSession::*next)()) {
    if (!window_.isBusy()) {
        (this->*next)();
        return;
    }
    connect(&window_, &MainWindow::idle, this, next, Qt::SingleShotConnection);
}

void ScriptedSession::fail(const QString& why) {
    std::fprintf(stderr, "coalesce: %s\n", qPrintable(why));
    ok_ = false;
    whenIdle(&ScriptedSession::finish);
}

// Export only when everything before worked (a failed open never leaves a chart of nothing);
// grab; quit with 0 when everything worked.
void ScriptedSession::finish() {
    if (finished_) return;
    finished_ = true;
    // Layouts and chart geometry follow from posted events: let them land before drawing.
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    if (!ok_ && !window_.errorText().isEmpty())
        std::fprintf(stderr, "coalesce: %s\n", qPrintable(window_.errorText()));
    if (ok_ && !options_.export_chart.isEmpty() && !window_.exportChart(options_.export_chart)) {
        std::fprintf(stderr, "coalesce: %s\n", qPrintable(window_.errorText()));
        ok_ = false;
    }
    if (!options_.screenshot.isEmpty()) ok_ = save_screenshot(window_, options_.screenshot) && ok_;
    QCoreApplication::exit(ok_ ? 0 : 1);
}

}  // namespace coalesce::gui
