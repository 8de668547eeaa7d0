// Shows one matrix as a picture with zoom (wheel, zoomIn/zoomOut), pan (drag) and the value under
// the cursor (hovered signal). Pixels stay sharp when enlarged, so single elements can be read.
#pragma once

#include "matrix_image.hpp"

#include <QPointF>
#include <QString>
#include <QWidget>

#include <memory>

namespace coalesce::gui {

class MatrixView : public QWidget {
    Q_OBJECT
public:
    explicit MatrixView(const QString& title, QWidget* parent = nullptr);

    // Shows `matrix` drawn as `rendered`; `caption` describes it (range, source, scale); `note`,
    // when given, is written over the middle of the picture (when the picture alone says
    // nothing, e.g. an all-black difference). `colour`, when given, is the colour image drawn:
    // the cursor reads its channels there instead of `matrix` (an opened photograph's luminance,
    // so no float copy of every channel is made). Fits the window.
    void setMatrix(std::shared_ptr<const Matrix> matrix, Rendered rendered, const QString& caption,
                   const QString& note = {}, std::shared_ptr<const AnyImage> colour = {});
    // Shows nothing but `message` (why there is no picture).
    void clear(const QString& message);

    bool hasMatrix() const { return matrix_ != nullptr; }
    const Matrix* matrix() const { return matrix_.get(); }
    const std::shared_ptr<const Matrix>& sharedMatrix() const { return matrix_; }
    const QString& caption() const { return caption_; }
    const QString& message() const { return message_; }
    const QString& title() const { return title_; }
    const QImage& image() const { return rendered_.image; }  // null when there is no picture
    double zoom() const { return zoom_; }
    // [pixels] height of the band over the picture holding the title and the whole caption,
    // wrapped onto as many lines as the view's width needs (never elided).
    int captionHeight() const;

    QSize sizeHint() const override { return {360, 280}; }

public slots:
    void zoomIn();
    void zoomOut();
    void fitToWindow();

signals:
    // Pixel (row, col) of the shown matrix is under the cursor; `value` is its element ("0.5"), or
    // for a colour picture its channels ("B 12, G 34, R 56").
    void hovered(const QString& title, qlonglong row, qlonglong col, const QString& value);
    void hoverLeft();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void zoomAround(QPointF anchor, double factor);
    void reportHover(QPointF pos);
    QString bandText() const;
    QRect bandTextRect() const;
    const QImage& levelFor(double shown_width) const;

    QString title_;
    QString caption_;
    QString message_;
    QString note_;
    std::shared_ptr<const Matrix> matrix_;
    std::shared_ptr<const AnyImage> colour_;
    Rendered rendered_;
    double zoom_ = 1.0;
    QPointF origin_;      // widget position of the image's top-left corner
    bool fitted_ = true;  // follow the window size until the user zooms or pans
    bool dragging_ = false;
    QPointF drag_from_;
};

}  // namespace coalesce::gui
