// Turns float32 matrices into pictures: grey levels over the value range, colour images in their
// own colours, and a heat map of the difference between an output and its CPU reference, scaled
// against the verification bound.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/typed_image.hpp"

#include <QImage>

#include <vector>

namespace coalesce::gui {

struct Rendered {
    QImage image;  // Format_RGB32, one pixel per element
    // The image halved again and again (smoothly) down to about 256 pixels on its long side, so a
    // view shows a large matrix reduced without aliasing and without scaling 64 M pixels per paint.
    std::vector<QImage> reduced;
    float lo = 0, hi = 0;  // the values mapped to the ends of the scale
    // Elements per pixel in the drawn matrix's rows: 1, or 3 / 4 for a colour image whose
    // channels (B, G, R and A, as OpenCV stores them) are interleaved along each row, so pixel
    // (r, c) is the matrix's columns c * channels ... c * channels + channels - 1.
    int channels = 1;
};

// min..max → black..white; NaN and infinities are drawn magenta so they stand out.
Rendered render_grey(const Matrix& matrix);

// A colour image (3 or 4 interleaved channels, B, G, R(, A)) in its colours: u8 and u16 over their
// whole range (0..255, 0..65535), as a photograph is shown, so a filtered output keeps the
// input's brightness; sums and floats over their common min..max, one scale for every channel so
// the colour balance stays. Alpha is not drawn. A grey image (1 channel) is drawn as
// render_grey draws it.
Rendered render_colour(const AnyImage& image);

// Per pixel, the largest of a colour matrix's `channels` interleaved elements (rows x cols *
// channels in, rows x cols out): where a colour output differs from its reference, whichever
// channel it is.
Matrix channel_maximum(const Matrix& interleaved, int channels);

// |output - reference| per element, same shape required (else an empty matrix).
Matrix absolute_difference(const Matrix& output, const Matrix& reference);

// Colours of the difference heat map.
inline constexpr QRgb kNonFiniteColour = qRgb(255, 0, 255);    // NaN or infinite difference
inline constexpr QRgb kBeyondBoundColour = qRgb(0, 190, 255);  // larger than the bound: fails

// What a heat map found.
struct HeatStats {
    float largest_ratio = 0;     // largest finite difference / bound
    std::size_t beyond = 0;      // elements beyond their bound (any difference where it is 0)
    std::size_t non_finite = 0;  // NaN or infinite differences
};

// difference / bound per element: 0 → black, 1 (at the verification bound) → white through red
// and yellow; beyond the bound cyan, NaN magenta. A zero bound (exact operations) makes any
// difference "beyond". lo = 0, hi = 1 (the bound). Same shapes required, else empty.
Rendered render_heat(const Matrix& difference, const Matrix& bound, HeatStats* stats = nullptr);

// The ratio render_heat draws at t: black → red → yellow → white over [0, 1].
QRgb heat_colour(float t);

}  // namespace coalesce::gui
