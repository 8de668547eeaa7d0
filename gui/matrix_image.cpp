#include "matrix_image.hpp"

#include "image_loader.hpp"

#include "coalesce/type_conversion.hpp"
#include "coalesce/typed_run.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <variant>

namespace coalesce::gui {
namespace {

constexpr int kSmallestReduction = 256;  // [pixels] on the long side

// Each pixel the mean of a 2x2 block (a last odd row or column is dropped). Written out rather
// than QImage::scaled: Qt 6.4 scales large images with tasks on its global thread pool, where
// they would queue in front of the window's own paint jobs.
QImage halve(const QImage& in) {
    QImage out(std::max(1, in.width() / 2), std::max(1, in.height() / 2), QImage::Format_RGB32);
    for (int y = 0; y < out.height(); ++y) {
        const auto row = [&in](int r) {
            return reinterpret_cast<const QRgb*>(in.constScanLine(std::min(r, in.height() - 1)));
        };
        const QRgb* a = row(2 * y);
        const QRgb* b = row(2 * y + 1);
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            const int x0 = std::min(2 * x, in.width() - 1);
            const int x1 = std::min(2 * x + 1, in.width() - 1);
            const QRgb p[4] = {a[x0], a[x1], b[x0], b[x1]};
            const auto mean = [&p](int (*channel)(QRgb)) {
                return (channel(p[0]) + channel(p[1]) + channel(p[2]) + channel(p[3]) + 2) / 4;
            };
            line[x] = qRgb(mean(qRed), mean(qGreen), mean(qBlue));
        }
    }
    return out;
}

// Halving in steps keeps each step a 2x2 average, which a single large reduction would not be.
void add_reductions(Rendered& out) {
    QImage level = out.image;
    while (std::max(level.width(), level.height()) > 2 * kSmallestReduction) {
        level = halve(level);
        out.reduced.push_back(level);
    }
}

template <class Colour>
Rendered render(const Matrix& matrix, float lo, float hi, Colour colour) {
    Rendered out;
    out.lo = lo;
    out.hi = hi;
    out.image = QImage(static_cast<int>(matrix.cols()), static_cast<int>(matrix.rows()),
                       QImage::Format_RGB32);
    for (std::size_t r = 0; r < matrix.rows(); ++r) {
        auto* line = reinterpret_cast<QRgb*>(out.image.scanLine(static_cast<int>(r)));
        const float* values = matrix.row(r);
        for (std::size_t c = 0; c < matrix.cols(); ++c) line[c] = colour(values[c], r, c);
    }
    add_reductions(out);
    return out;
}

}  // namespace

QRgb heat_colour(float t) {
    const float x = std::clamp(t, 0.0f, 1.0f) * 3.0f;
    const auto channel = [](float v) {
        return static_cast<int>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
    };
    return qRgb(channel(x), channel(x - 1.0f), channel(x - 2.0f));
}

Rendered render_grey(const Matrix& matrix) {
    if (matrix.empty()) return {};
    const auto [lo, hi] = finite_range(matrix);
    const float span = hi > lo ? hi - lo : 1.0f;
    return render(matrix, lo, hi, [lo = lo, span](float v, std::size_t, std::size_t) {
        if (!std::isfinite(v)) return kNonFiniteColour;
        const float t = std::clamp((v - lo) / span, 0.0f, 1.0f);
        const int g = static_cast<int>(std::lround(t * 255.0f));
        return qRgb(g, g, g);
    });
}

Rendered render_colour(const AnyImage& image) {
    const auto channels = static_cast<int>(typed::channels_of(image));
    if (channels == 1) return render_grey(to_matrix(image));
    return std::visit(
        [channels](const auto& typed) {
            using T = typename std::decay_t<decltype(typed)>::value_type;
            Rendered out;
            out.channels = channels;
            if (typed.empty()) return out;
            float lo = 0.0f, hi = 0.0f;
            if constexpr (std::is_same_v<T, std::uint8_t> || std::is_same_v<T, std::uint16_t>) {
                hi = static_cast<float>(std::numeric_limits<T>::max());
            } else {
                lo = std::numeric_limits<float>::infinity();
                hi = -lo;
                for (std::size_t i = 0; i < typed.size(); ++i) {
                    const auto v = static_cast<float>(typed.data()[i]);
                    if (!std::isfinite(v)) continue;
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
                if (lo > hi) lo = hi = 0.0f;
            }
            out.lo = lo;
            out.hi = hi;
            const float span = hi > lo ? hi - lo : 1.0f;
            const auto level = [lo, span](T value) {
                const auto v = static_cast<float>(value);
                return static_cast<int>(
                    std::lround(std::clamp((v - lo) / span, 0.0f, 1.0f) * 255.0f));
            };
            out.image = QImage(static_cast<int>(typed.cols()), static_cast<int>(typed.rows()),
                               QImage::Format_RGB32);
            for (std::size_t r = 0; r < typed.rows(); ++r) {
                auto* line = reinterpret_cast<QRgb*>(out.image.scanLine(static_cast<int>(r)));
                for (std::size_t c = 0; c < typed.cols(); ++c) {
                    const T b = typed.at(r, c, 0), g = typed.at(r, c, 1), red = typed.at(r, c, 2);
                    if constexpr (std::is_floating_point_v<T>)
                        if (!std::isfinite(b) || !std::isfinite(g) || !std::isfinite(red)) {
                            line[c] = kNonFiniteColour;
                            continue;
                        }
                    line[c] = qRgb(level(red), level(g), level(b));
                }
            }
            add_reductions(out);
            return out;
        },
        image);
}

Matrix channel_maximum(const Matrix& interleaved, int channels) {
    if (channels <= 1) return interleaved;
    const auto n = static_cast<std::size_t>(channels);
    Matrix out(interleaved.rows(), interleaved.cols() / n);
    for (std::size_t r = 0; r < out.rows(); ++r) {
        const float* in = interleaved.row(r);
        float* line = out.row(r);
        for (std::size_t c = 0; c < out.cols(); ++c) {
            float m = in[c * n];
            for (std::size_t ch = 1; ch < n; ++ch) {
                const float v = in[c * n + ch];
                // A NaN anywhere in the pixel must survive, so the heat map draws it.
                if (std::isnan(v) || v > m) m = v;
                if (std::isnan(m)) break;
            }
            line[c] = m;
        }
    }
    return out;
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

Rendered render_heat(const Matrix& difference, const Matrix& bound, HeatStats* stats) {
    if (difference.empty() || difference.shape() != bound.shape()) return {};
    HeatStats found;
    Rendered out =
        render(difference, 0.0f, 1.0f, [&bound, &found](float d, std::size_t r, std::size_t c) {
            if (!std::isfinite(d)) {
                ++found.non_finite;
                return kNonFiniteColour;
            }
            if (d == 0.0f) return heat_colour(0.0f);
            const float b = bound.at(r, c);
            const float t = b > 0.0f ? d / b : std::numeric_limits<float>::infinity();
            if (std::isfinite(t)) found.largest_ratio = std::max(found.largest_ratio, t);
            if (t <= 1.0f) return heat_colour(t);
            ++found.beyond;
            return kBeyondBoundColour;
        });
    if (stats) *stats = found;
    return out;
}

}  // namespace coalesce::gui
