#include "matrix_view.hpp"

#include "background_pool.hpp"

#include <QMouseEvent>
#include <QPainter>
#include <QStringList>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <utility>
#include <variant>
#include <vector>

namespace coalesce::gui {
namespace {
constexpr double kStep = 1.25;
constexpr double kMinZoom = 1.0 / 64.0;
constexpr double kMaxZoom = 256.0;
constexpr int kBandMinHeight = 20;  // [pixels] one line of caption
constexpr int kBandPadding = 6;     // [pixels] left and right of the text
constexpr int kZoomTextWidth = 56;  // [pixels] kept free for "100%" at the band's right
constexpr int kTextFlags = Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap;
}  // namespace

MatrixView::MatrixView(const QString& title, QWidget* parent) : QWidget(parent), title_(title) {
    setMouseTracking(true);
    setMinimumSize(120, 100);
    setFocusPolicy(Qt::ClickFocus);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(40, 40, 44));
    setPalette(p);
}

void MatrixView::setMatrix(std::shared_ptr<const Matrix> matrix, Rendered rendered,
                           const QString& caption, const QString& note,
                           std::shared_ptr<const AnyImage> colour) {
    release_elsewhere(std::exchange(matrix_, nullptr), std::exchange(rendered_, Rendered{}),
                      std::exchange(colour_, nullptr));
    matrix_ = std::move(matrix);
    colour_ = std::move(colour);
    rendered_ = std::move(rendered);
    caption_ = caption;
    note_ = note;
    message_.clear();
    fitToWindow();
}

void MatrixView::clear(const QString& message) {
    release_elsewhere(std::exchange(matrix_, nullptr), std::exchange(rendered_, Rendered{}),
                      std::exchange(colour_, nullptr));
    caption_.clear();
    note_.clear();
    message_ = message;
    update();
}

QString MatrixView::bandText() const {
    return caption_.isEmpty() ? title_ : title_ + " — " + caption_;
}

QRect MatrixView::bandTextRect() const {
    const int width = std::max(40, this->width() - 2 * kBandPadding - kZoomTextWidth);
    return fontMetrics().boundingRect(QRect(0, 0, width, 10000), kTextFlags, bandText());
}

int MatrixView::captionHeight() const {
    if (rendered_.image.isNull()) return 0;
    return std::max(kBandMinHeight, bandTextRect().height() + 4);
}

void MatrixView::fitToWindow() {
    fitted_ = true;
    const QImage& image = rendered_.image;
    if (!image.isNull()) {
        const int band = captionHeight();
        const double w = std::max(1, width() - 8);
        const double h = std::max(1, height() - band - 8);
        zoom_ = std::clamp(std::min(w / image.width(), h / image.height()), kMinZoom, kMaxZoom);
        origin_ = QPointF((width() - image.width() * zoom_) / 2.0,
                          band + (height() - band - image.height() * zoom_) / 2.0);
    }
    update();
}

void MatrixView::zoomIn() { zoomAround(QPointF(width() / 2.0, height() / 2.0), kStep); }
void MatrixView::zoomOut() { zoomAround(QPointF(width() / 2.0, height() / 2.0), 1.0 / kStep); }

void MatrixView::zoomAround(QPointF anchor, double factor) {
    if (rendered_.image.isNull()) return;
    const double next = std::clamp(zoom_ * factor, kMinZoom, kMaxZoom);
    // Keep the image point under `anchor` where it is.
    const QPointF image_point = (anchor - origin_) / zoom_;
    zoom_ = next;
    origin_ = anchor - image_point * zoom_;
    fitted_ = false;
    update();
}

const QImage& MatrixView::levelFor(double shown_width) const {
    // The smallest reduction still at least as wide as it is shown: little to scale, no aliasing.
    const QImage* best = &rendered_.image;
    for (const QImage& level : rendered_.reduced) {
        if (level.width() < shown_width) break;
        best = &level;
    }
    return *best;
}

void MatrixView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setPen(QColor(220, 220, 220));
    const QImage& image = rendered_.image;
    if (image.isNull()) {
        painter.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                         message_.isEmpty() ? title_ : title_ + "\n\n" + message_);
        return;
    }
    const QRectF target(origin_, QSizeF(image.width() * zoom_, image.height() * zoom_));
    const QImage& source = levelFor(target.width());
    // Enlarged: sharp element squares; reduced: smoothed, so fine patterns do not alias.
    painter.setRenderHint(QPainter::SmoothPixmapTransform, source.width() > target.width());
    painter.drawImage(target, source);

    if (!note_.isEmpty()) {
        const QRect box = painter.fontMetrics().boundingRect(
            rect().adjusted(20, 20, -20, -20), Qt::AlignCenter | Qt::TextWordWrap, note_);
        painter.fillRect(box.adjusted(-10, -6, 10, 6), QColor(25, 25, 28, 200));
        painter.drawText(box, Qt::AlignCenter | Qt::TextWordWrap, note_);
    }

    const QRect band(0, 0, width(), captionHeight());
    painter.fillRect(band, QColor(25, 25, 28, 220));
    const QString zoom_text = QString::number(zoom_ * 100.0, 'f', zoom_ < 0.1 ? 1 : 0) + "%";
    const QRect text_area = band.adjusted(kBandPadding, 0, -kBandPadding - kZoomTextWidth, 0);
    painter.drawText(text_area, kTextFlags, bandText());
    painter.drawText(band.adjusted(kBandPadding, 0, -kBandPadding, 0),
                     Qt::AlignVCenter | Qt::AlignRight, zoom_text);
}

void MatrixView::resizeEvent(QResizeEvent*) {
    if (fitted_) fitToWindow();
}

void MatrixView::wheelEvent(QWheelEvent* event) {
    const double notches = event->angleDelta().y() / 120.0;
    if (notches != 0.0) zoomAround(event->position(), std::pow(kStep, notches));
    event->accept();
}

void MatrixView::mousePressEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && !rendered_.image.isNull()) {
        dragging_ = true;
        drag_from_ = event->position();
        setCursor(Qt::ClosedHandCursor);
    }
}

void MatrixView::mouseMoveEvent(QMouseEvent* event) {
    if (dragging_) {
        origin_ += event->position() - drag_from_;
        drag_from_ = event->position();
        fitted_ = false;
        update();
    }
    reportHover(event->position());
}

void MatrixView::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        dragging_ = false;
        unsetCursor();
    }
}

void MatrixView::leaveEvent(QEvent*) { emit hoverLeft(); }

void MatrixView::reportHover(QPointF pos) {
    if (!matrix_ || rendered_.image.isNull()) return;
    const QPointF p = (pos - origin_) / zoom_;
    const auto col = static_cast<long long>(std::floor(p.x()));
    const auto row = static_cast<long long>(std::floor(p.y()));
    if (row < 0 || col < 0 || row >= rendered_.image.height() || col >= rendered_.image.width()) {
        emit hoverLeft();
        return;
    }
    const auto r = static_cast<std::size_t>(row), c = static_cast<std::size_t>(col);
    const auto channels = static_cast<std::size_t>(std::max(1, rendered_.channels));
    std::vector<double> values;  // the pixel's channels, B, G, R(, A)
    if (colour_) {
        std::visit(
            [&](const auto& image) {
                for (std::size_t ch = 0; ch < image.channels(); ++ch)
                    values.push_back(static_cast<double>(image.at(r, c, ch)));
            },
            *colour_);
    } else {
        if (r >= matrix_->rows() || (c + 1) * channels > matrix_->cols()) return;
        const float* pixel = matrix_->row(r) + c * channels;
        values.assign(pixel, pixel + channels);
    }
    if (values.size() == 1) {
        emit hovered(title_, row, col, QString::number(values.front(), 'g', 7));
        return;
    }
    static constexpr const char* kNames[] = {"B", "G", "R", "A"};  // OpenCV's order
    QStringList named;
    for (std::size_t ch = 0; ch < values.size() && ch < 4; ++ch)
        named << QString("%1 %2").arg(kNames[ch]).arg(values[ch], 0, 'g', 7);
    emit hovered(title_, row, col, named.join(", "));
}

}  // namespace coalesce::gui
