#include "matrix_image.hpp"

#include "image_loader.hpp"

#include <algorithm>
#include <cmath>

namespace coalesce::gui {
namespace {

constexpr QRgb kNonFinite = qRgb(255, 0, 255);

// Black → red → yellow → white, t in [0, 1].
QRgb heat(float t) {
    const float x = std::clamp(t, 0.0f, 1.0f) * 3.0f;
    const auto channel = [](float v) { return static_cast<int>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
    return qRgb(channel(x), channel(x - 1.0f), channel(x - 2.0f));
}

template <class Colour>
Rendered render(const Matrix& matrix, float lo, float hi, Colour colour) {
    Rendered out;
    out.lo = lo;
    out.hi = hi;
    out.image = QImage(static_cast<int>(matrix.cols()), static_cast<int>(matrix.rows()), QImage::Format_RGB32);
    const float span = hi > lo ? hi - lo : 1.0f;
    for (std::size_t r = 0; r < matrix.rows(); ++r) {
        auto* line = reinterpret_cast<QRgb*>(out.image.scanLine(static_cast<int>(r)));
        const float* values = matrix.row(r);
        for (std::size_t c = 0; c < matrix.cols(); ++c) {
            const float v = values[c];
            line[c] = std::isfinite(v) ? colour((v - lo) / span) : kNonFinite;
        }
    }
    return out;
}

}  // namespace

Rendered render_grey(const Matrix& matrix) {
    if (matrix.empty()) return {};
    const auto [lo, hi] = finite_range(matrix);
    return render(matrix, lo, hi, [](float t) {
        const int g = static_cast<int>(std::lround(std::clamp(t, 0.0f, 1.0f) * 255.0f));
        return qRgb(g, g, g);
    });
}

Matrix absolute_difference(const Matrix& output, const Matrix& reference) {
    if (output.shape() != reference.shape()) return {};
    Matrix diff(output.rows(), output.cols());
    const float* a = output.data();
    const float* b = reference.data();
    float* d = diff.data();
    for (std::size_t i = 0; i < output.size(); ++i) d[i] = std::fabs(a[i] - b[i]);
    return diff;
}

Rendered render_heat(const Matrix& difference) {
    if (difference.empty()) return {};
    const float hi = finite_range(difference).second;
    return render(difference, 0.0f, hi, heat);
}

}  // namespace coalesce::gui
