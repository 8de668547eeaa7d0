// Writes a drawing to PNG, SVG or PDF, chosen by the file's extension. Knows nothing of charts:
// the caller paints onto whatever device the format needs.
#pragma once

#include <QSize>
#include <QString>

#include <functional>
#include <optional>

class QPainter;

namespace coalesce::gui {

enum class ImageFormat { png, svg, pdf };

// .png, .svg or .pdf (any case); nothing for other extensions.
std::optional<ImageFormat> imageFormatFor(const QString& path);

// Paints `size` logical pixels with `paint` and writes the result to `path` through a temporary
// file renamed into place, so a failure never leaves a half-written or empty file. PNG is
// rasterised at `size`; SVG and PDF keep text and lines as vectors (PDF on a page of the same
// proportions). Returns false and sets *error (when given) to a message naming the path and why.
bool writeImageFile(const QString& path, QSize size, const QString& title,
                    const std::function<void(QPainter&)>& paint, QString* error);

}  // namespace coalesce::gui
