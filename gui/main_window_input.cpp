// MainWindow: opening images and matrix files, generating matrices, the input view.
#include "main_window.hpp"

#include "input_panel.hpp"
#include "matrix_image.hpp"
#include "matrix_view.hpp"
#include "recent_files.hpp"
#include "run_panel.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>

#ifndef COALESCE_SOURCE_IMAGES_DIR
#define COALESCE_SOURCE_IMAGES_DIR ""
#endif

namespace coalesce::gui {

QString MainWindow::defaultSampleImage() {
    const QString name = "zoneplate-320x200.png";
    const QString app_dir = QCoreApplication::applicationDirPath();
    // Installed (share/coalesce/images next to bin/), then the source tree this build came from.
    const QStringList folders = {app_dir + "/../share/coalesce/images", app_dir + "/images",
                                 QString::fromUtf8(COALESCE_SOURCE_IMAGES_DIR)};
    for (const QString& folder : folders) {
        if (folder.isEmpty()) continue;
        const QFileInfo candidate(QDir(folder).filePath(name));
        if (candidate.isFile()) return candidate.absoluteFilePath();
    }
    return {};
}

bool MainWindow::openFile(const QString& path) {
    try {
        LoadedImage image = load_image(path.toStdString(), input_panel_->channel());
        clearError();
        log(QString("Opened %1: %2 x %3, %4").arg(path).arg(image.matrix->rows()).arg(image.matrix->cols())
                .arg(QString::fromStdString(image.source_type)));
        setInput(std::move(image));
        recent_->add(path);
        rememberFolder(path);
        return true;
    } catch (const std::exception& e) {
        showError(QString("Could not open the file. %1").arg(QString::fromUtf8(e.what())));
        return false;
    }
}

void MainWindow::generate(const GenerateRequest& request) {
    try {
        last_generate_ = request;
        LoadedImage image = describe_generated(request.make(), request.describe().toStdString());
        clearError();
        log("Generated " + request.describe());
        setInput(std::move(image));
    } catch (const std::exception& e) {  // std::bad_alloc for a size the machine cannot hold
        showError(QString("Could not generate the matrix: %1").arg(QString::fromUtf8(e.what())));
    }
}

void MainWindow::setInput(LoadedImage image) {
    input_ = std::move(image);
    input_panel_->show(*input_);
    setWindowTitle(QString("%1 — Coalesce").arg(input_->path.empty() ? QString("generated matrix")
                                                  : QString::fromStdString(input_->path.filename().string())));
    run_panel_->setInputShape(input_->matrix->shape());
    Rendered rendered = render_grey(*input_->matrix);
    input_view_->setMatrix(input_->matrix, rendered,
                           QString("%1 x %2, %3 … %4").arg(input_->matrix->rows()).arg(input_->matrix->cols())
                               .arg(rendered.lo, 0, 'g', 5).arg(rendered.hi, 0, 'g', 5));
    emit inputChanged();
}

void MainWindow::reloadWithChannel() {
    // Only files can be read again; a generated matrix has one channel.
    if (input_ && !input_->path.empty()) openFile(QString::fromStdString(input_->path.string()));
}

void MainWindow::chooseAndOpen() {
    const QString path = QFileDialog::getOpenFileName(
        this, "Open image or matrix", lastFolder(),
        "Images and matrices (*.png *.jpg *.jpeg *.tif *.tiff *.bmp *.pgm *.ppm *.pnm *.yml *.yaml *.xml *.yml.gz *.xml.gz);;"
        "Images (*.png *.jpg *.jpeg *.tif *.tiff *.bmp *.pgm *.ppm *.pnm);;"
        "OpenCV matrix files (*.yml *.yaml *.xml *.yml.gz *.xml.gz);;All files (*)");
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::chooseAndGenerate() {
    GenerateDialog dialog(last_generate_, this);
    if (dialog.exec() == QDialog::Accepted) generate(dialog.request());
}

QString MainWindow::lastFolder() const {
    const QString folder = QSettings().value("lastFolder").toString();
    if (!folder.isEmpty() && QFileInfo(folder).isDir()) return folder;
    const QString sample = defaultSampleImage();
    return sample.isEmpty() ? QDir::homePath() : QFileInfo(sample).absolutePath();
}

void MainWindow::rememberFolder(const QString& file) {
    QSettings().setValue("lastFolder", QFileInfo(file).absolutePath());
}

}  // namespace coalesce::gui
