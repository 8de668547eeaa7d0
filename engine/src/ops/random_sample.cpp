// random_sample: the seed's RandomSample<Area> (seed 003, "random access in vicinity"). Each
// output is the mean of `samples` reads at pseudo-random places (a hash of x, y and the sample
// number, the same on CPU and GPU) inside an area x area window around it, shifted to stay inside
// the image: reads scattered in 2-D but close together, the pattern a texture cache is built for.
#include "coalesce/onchip.hpp"
#include "op_support.hpp"

namespace coalesce::ops {
namespace {

// The input element sample k of output (x, y) reads.
float sampled(const Matrix& in, int x, int y, int k, int area) {
    const int cols = static_cast<int>(in.cols());
    const int rows = static_cast<int>(in.rows());
    const unsigned h = onchip::sample_hash(static_cast<unsigned>(x), static_cast<unsigned>(y),
                                           static_cast<unsigned>(k));
    const int sx =
        onchip::window_start(x, cols, area) + onchip::sample_dx(h, onchip::window_size(cols, area));
    const int sy =
        onchip::window_start(y, rows, area) + onchip::sample_dy(h, onchip::window_size(rows, area));
    return in.at(static_cast<std::size_t>(sy), static_cast<std::size_t>(sx));
}

void random_sample_host(const Matrix& in, Matrix& out, const OpParams& p) {
    const int area = static_cast<int>(p.value("area"));
    const int samples = static_cast<int>(p.value("samples"));
    for (std::size_t y = 0; y < in.rows(); ++y)
        for (std::size_t x = 0; x < in.cols(); ++x) {
            float sum = 0.0f;
            for (int k = 0; k < samples; ++k)
                sum += sampled(in, static_cast<int>(x), static_cast<int>(y), k, area);
            out.at(y, x) = sum / static_cast<float>(samples);
        }
}

Reference random_sample_reference(const Matrix& in, const OpParams& p) {
    const int area = static_cast<int>(p.value("area"));
    const int samples = static_cast<int>(p.value("samples"));
    Reference ref{Matrix(in.rows(), in.cols()),
                  Matrix(in.rows(), in.cols()),
                  static_cast<std::size_t>(samples),
                  {}};
    parallel_for(in.rows(), [&](std::size_t begin, std::size_t end) {
        for (std::size_t y = begin; y < end; ++y)
            for (std::size_t x = 0; x < in.cols(); ++x) {
                double sum = 0.0, magnitude = 0.0;
                for (int k = 0; k < samples; ++k) {
                    const double v = sampled(in, static_cast<int>(x), static_cast<int>(y), k, area);
                    sum += v;
                    magnitude += std::fabs(v);
                }
                ref.value.at(y, x) = static_cast<float>(sum / samples);
                ref.magnitude.at(y, x) = static_cast<float>(magnitude / samples);
            }
    });
    return ref;
}

}  // namespace

const OpDesc& describe_random_sample() {
    static const OpDesc desc{
        .op = Op("random_sample"),
        .aliases = {"random_sampling", "randomsample"},
        .summary =
            "mean of `samples` pseudo-random reads inside an area x area window around each "
            "output (the seed's RandomSample<Area>)",
        .filter = false,
        .exact = false,
        .params = {{"area", 1, 64, 8,
                    "side of the window the samples are drawn from (seed: 4..32)"},
                   {"samples", 1, 1024, 32, "reads averaged per output"}},
        .output_shape = same_shape,
        .bytes_moved = same_shape_bytes,
        .reference = random_sample_reference,
        .host = {{"cpu-naive",
                  "Host loop drawing the same samples as the kernels, in float.",
                  random_sample_host,
                  {}}},
        .check = {},
        .accesses = {},
    };
    return desc;
}

}  // namespace coalesce::ops
