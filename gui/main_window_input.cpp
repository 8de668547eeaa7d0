// MainWindow: opening images and matrix files, generating matrices, the input view.
#include "main_window.hpp"

#include "image_panes.hpp"
#include "input_loader.hpp"
#include "input_panel.hpp"
#include "recent_files.hpp"
#include "background_pool.hpp"
#include "run_panel.hpp"

#include "coalesce/typed_run.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSettings>
#include <QStatusBar>

#include <utility>

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

void MainWindow::openFile(const QString& path) {
    statusBar()->showMessage(QString("Reading %1…").arg(QFileInfo(path).fileName()));
    loader_->open(path, input_panel_->channel(), input_panel_->keepColour());
}

void MainWindow::generate(const GenerateRequest& request) {
    last_generate_ = request;
    statusBar()->showMessage(QString("Generating %1…").arg(request.describe()));
    loader_->generate(request);
}

void MainWindow::setInput(const LoadedInput& loaded, const QString& path) {
    statusBar()->clearMessage();
    clearError();
    log(loaded.description);
    release_elsewhere(std::exchange(input_, loaded.image));
    input_panel_->show(*input_);
    const QString name = input_->path.empty()
                             ? QString("generated matrix")
                             : QString::fromStdString(input_->path.filename().string());
    setWindowTitle(QString("%1 — Coalesce").arg(name));
    run_panel_->setInputShape(input_->matrix->shape());
    run_panel_->setInputType(input_->elem_type);
    run_panel_->setInputChannels(input_->colour ? typed::channels_of(*input_->colour) : 1);
    panes_->showInput(loaded.picture);
    if (!path.isEmpty()) {
        recent_->add(path);
        rememberFolder(path);
    }
    emit inputChanged();
    emitIdleIfDone();
}

void MainWindow::reloadWithChannel() {
    // Only files can be read again; a generated matrix has one channel (and stays one with the
    // colour kept).
    if (input_ && !input_->path.empty()) openFile(QString::fromStdString(input_->path.string()));
}

void MainWindow::chooseAndOpen() {
    const QString path = QFileDialog::getOpenFileName(
        this, "Open image or matrix", lastFolder(),
        "Images and matrices (*.png *.jpg *.jpeg *.tif *.tiff *.bmp *.pgm *.ppm *.pnm *.yml *.yaml "
        "*.xml *.yml.gz *.xml.gz);;"
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
    store_setting("lastFolder", QFileInfo(file).absolutePath());
}

}  // namespace coalesce::gui
