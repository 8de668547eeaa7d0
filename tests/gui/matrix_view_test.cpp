// The picture view: value under the cursor, zoom with the wheel and the zoom slots, pan by
// dragging.
#include "matrix_view.hpp"

#include "coalesce/type_conversion.hpp"

#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

#include <gtest/gtest.h>

#include <cstdint>

using namespace coalesce;
using namespace coalesce::gui;

namespace {

// A 4 x 8 matrix whose element (r, c) holds 10 r + c, shown in a 400 x 220 view.
std::unique_ptr<MatrixView> make_view() {
    auto m = std::make_shared<Matrix>(4, 8);
    for (std::size_t r = 0; r < 4; ++r)
        for (std::size_t c = 0; c < 8; ++c) m->at(r, c) = static_cast<float>(10 * r + c);
    auto view = std::make_unique<MatrixView>("Input");
    view->resize(400, 220);
    view->show();
    view->setMatrix(m, render_grey(*m), "test");
    return view;
}

}  // namespace

TEST(MatrixView, ReportsTheElementUnderTheCursor) {
    auto view = make_view();
    // Fitted: 8 columns over 392 px wide, 4 rows over 192 px high → 48 px per element, centred.
    const double zoom = view->zoom();
    ASSERT_GT(zoom, 10.0);
    const double left = (400 - 8 * zoom) / 2.0;
    const double top = 20 + (220 - 20 - 4 * zoom) / 2.0;
    QSignalSpy hovered(view.get(), &MatrixView::hovered);
    QTest::mouseMove(view.get(), QPoint(static_cast<int>(left + 5.5 * zoom),
                                        static_cast<int>(top + 2.5 * zoom)));
    ASSERT_GE(hovered.count(), 1);
    const QList<QVariant> last = hovered.takeLast();
    EXPECT_EQ(last.at(0).toString(), "Input");
    EXPECT_EQ(last.at(1).toLongLong(), 2);  // row
    EXPECT_EQ(last.at(2).toLongLong(), 5);  // column
    EXPECT_DOUBLE_EQ(last.at(3).toDouble(), 25.0);

    QSignalSpy left_view(view.get(), &MatrixView::hoverLeft);
    QTest::mouseMove(view.get(), QPoint(2, 215));  // outside the picture
    EXPECT_GE(left_view.count(), 1);
}

TEST(MatrixView, ZoomsWithTheWheelAndTheSlotsAndFitsAgain) {
    auto view = make_view();
    const double fitted = view->zoom();
    const QPointF centre(200, 110);
    QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view.get(), &wheel);
    EXPECT_NEAR(view->zoom(), fitted * 1.25, 1e-9);
    view->zoomOut();
    view->zoomOut();
    EXPECT_NEAR(view->zoom(), fitted / 1.25, 1e-9);
    view->fitToWindow();
    EXPECT_NEAR(view->zoom(), fitted, 1e-9);
}

TEST(MatrixView, DraggingPansThePicture) {
    auto view = make_view();
    const double zoom = view->zoom();
    const double left = (400 - 8 * zoom) / 2.0;
    const double top = 20 + (220 - 20 - 4 * zoom) / 2.0;
    // Drag one element to the right: the element under a fixed point moves one column left.
    const QPoint start(static_cast<int>(left + 3.5 * zoom), static_cast<int>(top + 1.5 * zoom));
    QTest::mousePress(view.get(), Qt::LeftButton, Qt::NoModifier, start);
    QTest::mouseMove(view.get(), start + QPoint(static_cast<int>(zoom), 0));
    QTest::mouseRelease(view.get(), Qt::LeftButton, Qt::NoModifier,
                        start + QPoint(static_cast<int>(zoom), 0));
    QSignalSpy hovered(view.get(), &MatrixView::hovered);
    QTest::mouseMove(view.get(), start);
    ASSERT_GE(hovered.count(), 1);
    EXPECT_EQ(hovered.takeLast().at(2).toLongLong(), 2);
}

// A colour picture: the pixel under the cursor, with its channels named in OpenCV's order, and
// the view as wide as the image (not its interleaved values).
TEST(MatrixView, ReportsTheChannelsOfAColourPixel) {
    TypedImage<std::uint8_t> bgr(4, 8, 3);
    for (std::size_t r = 0; r < 4; ++r)
        for (std::size_t c = 0; c < 8; ++c)
            for (std::size_t ch = 0; ch < 3; ++ch)
                bgr.at(r, c, ch) = static_cast<std::uint8_t>(100 * ch + 10 * r + c);
    const AnyImage image = bgr;
    auto view = std::make_unique<MatrixView>("Input");
    view->resize(400, 220);
    view->show();
    view->setMatrix(std::make_shared<const Matrix>(to_matrix(image)), render_colour(image), "test");
    ASSERT_EQ(view->image().size(), QSize(8, 4));
    const double zoom = view->zoom();
    const double left = (400 - 8 * zoom) / 2.0;
    const double top = 20 + (220 - 20 - 4 * zoom) / 2.0;
    QSignalSpy hovered(view.get(), &MatrixView::hovered);
    QTest::mouseMove(view.get(), QPoint(static_cast<int>(left + 7.5 * zoom),
                                        static_cast<int>(top + 2.5 * zoom)));
    ASSERT_GE(hovered.count(), 1);
    const QList<QVariant> last = hovered.takeLast();
    EXPECT_EQ(last.at(1).toLongLong(), 2);  // row
    EXPECT_EQ(last.at(2).toLongLong(), 7);  // column: the last pixel, not an interleaved value
    EXPECT_EQ(last.at(3).toString(), "B 27, G 127, R 227");

    // An opened photograph: the view holds its luminance, the cursor reads the colour itself.
    auto luminance = std::make_shared<const Matrix>(4, 8, 0.5f);
    view->setMatrix(luminance, render_colour(image), "photo", {},
                    std::make_shared<const AnyImage>(image));
    EXPECT_EQ(view->matrix(), luminance.get());
    QTest::mouseMove(view.get(), QPoint(static_cast<int>(left + 0.5 * zoom),
                                        static_cast<int>(top + 1.5 * zoom)));
    ASSERT_GE(hovered.count(), 1);
    EXPECT_EQ(hovered.takeLast().at(3).toString(), "B 10, G 110, R 210");
}

TEST(MatrixView, ClearShowsAMessageInsteadOfAPicture) {
    auto view = make_view();
    view->clear("nothing here");
    EXPECT_FALSE(view->hasMatrix());
    EXPECT_EQ(view->matrix(), nullptr);
}
