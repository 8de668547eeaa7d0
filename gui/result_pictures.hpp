// What the input, output and difference views show for one result, computed off the window's
// thread: the run's random input made again (sweeps), the output's grey picture, and the
// difference to the CPU reference as a heat map scaled against the verification bound.
#pragma once

#include "latest_job.hpp"
#include "matrix_image.hpp"

#include "coalesce/runner.hpp"

#include <QString>

#include <cstdint>
#include <memory>
#include <optional>

namespace coalesce::gui {

// A matrix and how a view draws it.
struct Picture {
    std::shared_ptr<const Matrix> matrix;  // the values the cursor reads
    Rendered rendered;
    QString caption;  // under the view's title: size, range, scale
    QString note;     // written over the picture when the picture alone says nothing
    // The colour image drawn (3 or 4 channels), which `matrix` holds interleaved; null for grey.
    // An input's identity: a colour run's input view is drawn again only for another image.
    std::shared_ptr<const AnyImage> colour;
};

// The picture of an input matrix, `what` saying where it came from.
Picture input_picture(std::shared_ptr<const Matrix> matrix, const QString& what);
// The picture of a colour input (3 or 4 channels, kept as stored) in its colours. `luminance`,
// the image's float32 luminance where one exists already, is the picture's matrix (the cursor
// reads the colour itself); without it the channels are copied to float32 interleaved.
Picture colour_input_picture(std::shared_ptr<const AnyImage> image,
                             std::shared_ptr<const Matrix> luminance, const QString& what);

// The random matrix a sweep ran on, made again from the seed (the runner's Matrix::random).
struct RandomInput {
    std::shared_ptr<const Matrix> matrix;
    std::uint64_t seed = 0;
};

struct ResultPictures {
    std::optional<Picture> input;             // unset: the input view already shows the run's input
    std::optional<RandomInput> random_input;  // made for this result, to reuse for the next
    std::optional<Picture> output;            // unset: output_message says why
    // The output as the variant wrote it, for saving in its own type: u8/u16 runs (null for f32).
    std::shared_ptr<const AnyImage> typed_output;
    QString output_message;
    std::optional<Picture> difference;  // unset: difference_message says why
    QString difference_message;
};

// Everything for `result` of a run with `config`. `shown_input`: the matrix the input view shows,
// and `shown_colour` the colour image it was drawn from (null for grey); `cached`: the random
// input made for an earlier result (reused when its size and seed match). A colour run's output
// is drawn in colour and its difference per pixel, the largest over the channels. Returns early
// with nothing set once `stale()` is true.
ResultPictures make_result_pictures(const RunResult& result, const RunConfig& config,
                                    const std::shared_ptr<const Matrix>& shown_input,
                                    const std::shared_ptr<const AnyImage>& shown_colour,
                                    const std::optional<RandomInput>& cached, const Stale& stale);

// Why a result has no output picture ("too large to keep", "failed: ...").
QString no_output_reason(const RunResult& result, const RunConfig& config);

}  // namespace coalesce::gui
