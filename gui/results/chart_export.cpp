#include "chart_export.hpp"

#include <QColor>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace coalesce::gui {

namespace {

constexpr int kScreenDpi = 96;  // one logical pixel of the chart is 1/96 inch in SVG and PDF

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

bool paintPng(QSaveFile& file, QSize size, const std::function<void(QPainter&)>& paint) {
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        if (!painter.isActive()) return false;
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::TextAntialiasing);
        paint(painter);
    }
    return image.save(&file, "PNG");
}

bool paintSvg(QSaveFile& file, QSize size, const QString& title,
              const std::function<void(QPainter&)>& paint) {
    QSvgGenerator svg;
    svg.setOutputDevice(&file);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    svg.setResolution(kScreenDpi);
    svg.setTitle(title);
    svg.setDescription(QStringLiteral("Coalesce chart"));
    QPainter painter(&svg);
    if (!painter.isActive()) return false;
    paint(painter);
    return painter.end();
}

bool paintPdf(QSaveFile& file, QSize size, const QString& title,
              const std::function<void(QPainter&)>& paint) {
    QPdfWriter pdf(&file);
    pdf.setTitle(title);
    pdf.setCreator(QStringLiteral("Coalesce"));
    pdf.setResolution(kScreenDpi);
    const QSizeF points(size.width() * 72.0 / kScreenDpi, size.height() * 72.0 / kScreenDpi);
    if (!pdf.setPageSize(QPageSize(points, QPageSize::Point, title, QPageSize::ExactMatch)))
        return false;
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    QPainter painter(&pdf);
    if (!painter.isActive()) return false;
    // The page's device rectangle is the size rounded to whole points: scale onto it exactly.
    const QRect page = painter.viewport();
    painter.scale(page.width() / static_cast<double>(size.width()),
                  page.height() / static_cast<double>(size.height()));
    paint(painter);
    return painter.end();
}

}  // namespace

std::optional<ImageFormat> imageFormatFor(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) return ImageFormat::png;
    if (suffix == QLatin1String("svg")) return ImageFormat::svg;
    if (suffix == QLatin1String("pdf")) return ImageFormat::pdf;
    return std::nullopt;
}

bool writeImageFile(const QString& path, QSize size, const QString& title,
                    const std::function<void(QPainter&)>& paint, QString* error) {
    const auto format = imageFormatFor(path);
    if (!format)
        return fail(error,
                    QStringLiteral("%1: unknown image format (use .png, .svg or .pdf)").arg(path));
    if (size.isEmpty()) return fail(error, QStringLiteral("%1: empty image size").arg(path));

    QSaveFile file(path);  // writes a temporary file beside `path`; commit() renames it into place
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));

    bool painted = false;
    switch (*format) {
    case ImageFormat::png: painted = paintPng(file, size, paint); break;
    case ImageFormat::svg: painted = paintSvg(file, size, title, paint); break;
    case ImageFormat::pdf: painted = paintPdf(file, size, title, paint); break;
    }
    if (!painted || file.error() != QFileDevice::NoError) {
        const QString reason = file.error() != QFileDevice::NoError
                                   ? file.errorString()
                                   : QStringLiteral("drawing failed");
        file.cancelWriting();
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, reason));
    }
    if (!file.commit())
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

}  // namespace coalesce::gui
