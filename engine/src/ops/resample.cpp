// resample: scale an image by `scale` percent and rotate it by `angle` degrees about its centre,
// with bilinear interpolation as the texture unit does it (seed 003's texture features: "border
// handling, interpolation"): the edge repeats outside the image, and the weights come in 1/256
// steps (onchip::bilinear_tap). The reference uses those weights; where the unit's rounding of
// alpha * beta, which the guide leaves open, could differ from the exact product, each output is
// allowed that difference (its allowance) on top of float rounding.
#include "coalesce/onchip.hpp"
#include "op_support.hpp"

#include <algorithm>

namespace coalesce::ops {
namespace {

struct Taps {
    double v00, v10, v01, v11;
    onchip::BilinearTap tap;
};

Taps taps_at(const Matrix& in, const onchip::ResampleMap& m, int ox, int oy) {
    float sx = 0.0f, sy = 0.0f;
    onchip::resample_source(m, ox, oy, sx, sy);
    Taps t;
    t.tap = onchip::bilinear_tap(sx, sy, static_cast<int>(in.cols()), static_cast<int>(in.rows()));
    const auto at = [&](int y, int x) {
        return static_cast<double>(in.at(static_cast<std::size_t>(y), static_cast<std::size_t>(x)));
    };
    t.v00 = at(t.tap.y0, t.tap.x0);
    t.v10 = at(t.tap.y0, t.tap.x1);
    t.v01 = at(t.tap.y1, t.tap.x0);
    t.v11 = at(t.tap.y1, t.tap.x1);
    return t;
}

onchip::ResampleMap map_of(Shape in, const OpParams& p) {
    return onchip::resample_map(in, p.value("scale"), p.value("angle"));
}

void resample_host(const Matrix& in, Matrix& out, const OpParams& p) {
    const onchip::ResampleMap m = map_of(in.shape(), p);
    for (std::size_t y = 0; y < out.rows(); ++y)
        for (std::size_t x = 0; x < out.cols(); ++x) {
            const Taps t = taps_at(in, m, static_cast<int>(x), static_cast<int>(y));
            out.at(y, x) =
                t.tap.w00 * static_cast<float>(t.v00) + t.tap.w10 * static_cast<float>(t.v10) +
                t.tap.w01 * static_cast<float>(t.v01) + t.tap.w11 * static_cast<float>(t.v11);
        }
}

Reference resample_reference(const Matrix& in, const OpParams& p) {
    const Shape out = onchip::resample_shape(in.shape(), p.value("scale"));
    const onchip::ResampleMap m = map_of(in.shape(), p);
    Reference ref{Matrix(out.rows, out.cols), Matrix(out.rows, out.cols), 4,
                  Matrix(out.rows, out.cols)};
    parallel_for(out.rows, [&](std::size_t begin, std::size_t end) {
        for (std::size_t y = begin; y < end; ++y)
            for (std::size_t x = 0; x < out.cols; ++x) {
                const Taps t = taps_at(in, m, static_cast<int>(x), static_cast<int>(y));
                const onchip::BilinearTap& w = t.tap;
                const double value = w.w00 * t.v00 + w.w10 * t.v10 + w.w01 * t.v01 + w.w11 * t.v11;
                ref.value.at(y, x) = static_cast<float>(value);
                // Every texel once: bounds the rounding of any order of the weighted sum.
                ref.magnitude.at(y, x) = static_cast<float>(std::fabs(t.v00) + std::fabs(t.v10) +
                                                            std::fabs(t.v01) + std::fabs(t.v11));
                // With alpha * beta unrounded (the guide's own formula) the result moves by the
                // rounding times the texels' mixed difference.
                const double product = static_cast<double>(w.a) * w.b;
                ref.allowance.at(y, x) = static_cast<float>(
                    std::fabs(w.w11 - product) * std::fabs(t.v00 - t.v10 - t.v01 + t.v11));
            }
    });
    return ref;
}

}  // namespace

const OpDesc& describe_resample() {
    static const OpDesc desc{
        .op = Op("resample"),
        .aliases = {"bilinear", "resize", "rotate"},
        .summary =
            "bilinear resample: scale by `scale` percent and rotate by `angle` degrees about "
            "the centre, edges clamped, weights in the texture unit's 1/256 steps",
        .filter = false,
        .exact = false,
        .params = {{"scale", 10, 400, 150, "output size in percent of the input"},
                   {"angle", -360, 360, 15,
                    "rotation in degrees about the centre, clockwise on screen (rows downwards)"}},
        .output_shape =
            [](Shape in, const OpParams& p) {
                return onchip::resample_shape(in, p.value("scale"));
            },
        .bytes_moved =
            [](Shape in, const OpParams& p) {
                return in_plus_out_bytes(in, onchip::resample_shape(in, p.value("scale")));
            },
        .reference = resample_reference,
        .host = {{"cpu-naive",
                  "Host loop interpolating in float with the same 1/256 weights as the kernels.",
                  resample_host,
                  {}}},
        .check = [](Shape in, const OpParams& p) -> std::string {
            const Shape out = onchip::resample_shape(in, p.value("scale"));
            if (out.rows > 0x7fffffffu || out.cols > 0x7fffffffu)
                return "the resampled image would be larger than 2^31 - 1 in a dimension";
            return {};
        },
        .accesses = {},
    };
    return desc;
}

}  // namespace coalesce::ops
