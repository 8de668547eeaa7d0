// Turns float32 matrices into pictures: grey levels over the value range, and a heat map of the
// absolute difference between an output and its CPU reference.
#pragma once

#include "coalesce/matrix.hpp"

#include <QImage>

namespace coalesce::gui {

struct Rendered {
    QImage image;          // Format_RGB32, one pixel per element
    float lo = 0, hi = 0;  // the values mapped to the ends of the scale
};

// min..max → black..white; NaN and infinities are drawn magenta so they stand out.
Rendered render_grey(const Matrix& matrix);

// |output - reference| per element, same shape required (else an empty matrix).
Matrix absolute_difference(const Matrix& output, const Matrix& reference);

// 0 → black, max → white through red and yellow; NaN magenta.
Rendered render_heat(const Matrix& difference);

}  // namespace coalesce::gui
