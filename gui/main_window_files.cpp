// MainWindow: results files (open, compare, save), output images and chart export.
#include "main_window.hpp"

#include "image_panes.hpp"
#include "image_writer.hpp"
#include "matrix_view.hpp"
#include "recent_files.hpp"
#include "results/chart_widgets.hpp"
#include "results/results_files.hpp"
#include "results/results_model.hpp"
#include "run_controller.hpp"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace coalesce::gui {
namespace {

const char* kNothingToExport =
    "There is no chart to export yet: run something (Ctrl+R) or open a results file first.";
const char* kNothingToSave =
    "There is no output image to save: select a result row that kept its output.";

}  // namespace

bool MainWindow::openResults(const QString& path) {
    if (isRunning()) {
        showError("A run is in progress: cancel it before opening results.");
        return false;
    }
    if (!confirmDiscardResults("The results of the last run are not saved. Save them before "
                               "opening others?"))
        return false;
    QString error;
    std::optional<RunRecord> record = loadResultsFile(path, &error);
    if (!record) {
        showError("Could not open the results. " + error);
        return false;
    }
    clearError();
    resultsModel()->setRecord(std::move(*record));
    unsaved_ = false;
    showNoOutputs(resultsModel()->record(), "results from a file keep no output images");
    recent_->add(path);
    rememberFolder(path);
    log(QString("Opened results %1: %2 runs").arg(path).arg(resultsModel()->rowCount()));
    return true;
}

bool MainWindow::compareResults(const QString& a, const QString& b) {
    QString error;
    std::optional<RunRecord> first = loadResultsFile(a, &error);
    std::optional<RunRecord> second = first ? loadResultsFile(b, &error) : std::nullopt;
    if (!first || !second) {
        showError("Could not open the results to compare. " + error);
        return false;
    }
    clearError();
    charts()->showComparison(std::move(*first), QFileInfo(a).fileName(), std::move(*second),
                             QFileInfo(b).fileName());
    log(QString("Comparing %1 with %2").arg(a, b));
    return true;
}

bool MainWindow::saveResults(const QString& path) {
    if (resultsModel()->isEmpty()) {
        showError("There are no results to save yet: run something first (Ctrl+R).");
        return false;
    }
    QString error;
    if (!saveResultsFile(path, resultsModel()->record(), &error)) {
        showError("Could not save the results. " + error);
        return false;
    }
    unsaved_ = false;
    rememberFolder(path);
    log("Saved results to " + path);
    return true;
}

bool MainWindow::saveOutputImage(const QString& path) {
    const Matrix* output = outputView()->matrix();
    if (!output) {
        showError(kNothingToSave);
        return false;
    }
    try {
        const std::shared_ptr<const AnyImage> typed = panes_->typedOutput();
        const ImageEncoding used = save_output_image(path.toStdString(), *output, typed.get());
        rememberFolder(path);
        log(QString("Saved output image %1 (%2)")
                .arg(path, QString::fromStdString(encoding_name(used))));
        return true;
    } catch (const std::exception& e) {
        showError(QString("Could not save the image. %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

bool MainWindow::exportChart(const QString& path) {
    if (!charts()->currentChart()->hasData()) {
        // The chart's title says what is missing (a counters chart: why there are no counters).
        showError(QString(kNothingToExport) +
                  " The chart says: " + charts()->currentChart()->chartTitle());
        return false;
    }
    QString error;
    if (!charts()->exportCurrentChart(path, &error)) {
        showError("Could not export the chart. " + error);
        return false;
    }
    rememberFolder(path);
    log("Exported chart to " + path);
    return true;
}

void MainWindow::showChart(const QString& which) {
    ResultsChartsWidget* c = charts();
    if (which == "bandwidth")
        c->setCurrentWidget(c->bandwidth());
    else if (which == "sweep")
        c->setCurrentWidget(c->sweep());
    else if (which == "compare")
        c->setCurrentWidget(c->compare());
    else if (which == "parameter")
        c->setCurrentWidget(c->parameter());
    else if (which == "dram-model")
        c->setCurrentWidget(c->dramModel());
    else if (which == "sectors")
        c->setCurrentWidget(c->sectors());
}

void MainWindow::chooseAndOpenResults() {
    const QString path = QFileDialog::getOpenFileName(this, "Open results", lastFolder(),
                                                      "Results (*.json *.csv);;All files (*)");
    if (!path.isEmpty()) openResults(path);
}

void MainWindow::chooseAndCompare() {
    const QString a = QFileDialog::getOpenFileName(this, "First results file", lastFolder(),
                                                   "Results (*.json *.csv)");
    if (a.isEmpty()) return;
    const QString b = QFileDialog::getOpenFileName(
        this, "Second results file", QFileInfo(a).absolutePath(), "Results (*.json *.csv)");
    if (!b.isEmpty()) compareResults(a, b);
}

bool MainWindow::chooseAndSaveResults() {
    if (resultsModel()->isEmpty()) {
        showError("There are no results to save yet: run something first (Ctrl+R).");
        return false;
    }
    QString filter;
    QString path = QFileDialog::getSaveFileName(
        this, "Save results", QDir(lastFolder()).filePath("results.json"),
        "JSON, coalesce-bench schema (*.json);;CSV (*.csv)", &filter);
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += filter.startsWith("CSV") ? ".csv" : ".json";
    return saveResults(path);
}

void MainWindow::chooseAndSaveOutputImage() {
    // Said before a file name is asked for: a name for nothing would be wasted.
    if (!outputView()->matrix()) {
        showError(kNothingToSave);
        return;
    }
    QString filter;
    QString path = QFileDialog::getSaveFileName(
        this, "Save output image", QDir(lastFolder()).filePath("output.png"),
        "PNG, 8-bit normalized to the value range (*.png);;"
        "TIFF, 16-bit or float32 exact values (*.tif *.tiff)",
        &filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += filter.startsWith("TIFF") ? ".tif" : ".png";
    saveOutputImage(path);
}

void MainWindow::chooseAndExportChart() {
    if (!charts()->currentChart()->hasData()) {
        showError(kNothingToExport);
        return;
    }
    QString filter;
    QString path =
        QFileDialog::getSaveFileName(this, "Export chart", QDir(lastFolder()).filePath("chart.png"),
                                     "PNG image (*.png);;SVG drawing (*.svg);;"
                                     "PDF document (*.pdf)",
                                     &filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty())
        path += filter.startsWith("SVG") ? ".svg" : filter.startsWith("PDF") ? ".pdf" : ".png";
    exportChart(path);
}

}  // namespace coalesce::gui
