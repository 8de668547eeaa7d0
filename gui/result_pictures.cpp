#include "result_pictures.hpp"

#include "verification_bound.hpp"

#include "coalesce/type_conversion.hpp"
#include "coalesce/typed_run.hpp"

namespace coalesce::gui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString range_text(const Rendered& r) {
    return QString("%1 … %2").arg(r.lo, 0, 'g', 5).arg(r.hi, 0, 'g', 5);
}

std::shared_ptr<const Matrix> run_input(const RunResult& r, const RunConfig& config,
                                        const std::optional<RandomInput>& cached,
                                        std::optional<RandomInput>* made) {
    if (config.input) return config.input;
    // A u8/u16 sweep ran on random data of its own type: the picture shows those values.
    if (const auto type = parse_elem_type(r.type); type && *type != ElemType::f32)
        return std::make_shared<const Matrix>(
            to_matrix(typed::random_input(*type, Shape{r.rows, r.cols}, config.seed)));
    if (cached && cached->seed == config.seed && cached->matrix &&
        cached->matrix->shape() == Shape{r.rows, r.cols})
        return cached->matrix;
    auto matrix = std::make_shared<const Matrix>(Matrix::random(r.rows, r.cols, config.seed));
    *made = RandomInput{matrix, config.seed};
    return matrix;
}

// The difference of a run verified exactly (u8/u16) against a zero bound: any difference fails.
// `colour`: diff holds each pixel's largest difference over its channels.
Picture exact_difference(std::shared_ptr<const Matrix> diff, const RunResult& r, bool colour) {
    HeatStats stats;
    const Matrix zero(diff->rows(), diff->cols());
    Picture picture{diff, render_heat(*diff, zero, &stats), {}, {}, {}};
    if (stats.beyond == 0 && stats.non_finite == 0) {
        picture.caption = "identical to the CPU reference";
        picture.note = colour
                           ? "Identical to the CPU reference:\nevery channel of every pixel equal."
                           : "Identical to the CPU reference:\nevery element equal.";
    } else if (colour) {
        picture.caption = QString(
                              "exact (%1): %2 pixel(s) differ in some channel (cyan), any "
                              "difference fails; the largest over the channels")
                              .arg(qs(type_label(r)))
                              .arg(stats.beyond + stats.non_finite);
    } else {
        picture.caption = QString("exact (%1): %2 element(s) differ (cyan), any difference fails")
                              .arg(qs(type_label(r)))
                              .arg(stats.beyond + stats.non_finite);
    }
    if (stats.non_finite > 0)
        picture.caption += QString("; %1 NaN (magenta)").arg(stats.non_finite);
    return picture;
}

// The difference heat map, or why there is none.
void add_difference(const RunResult& r, const RunConfig& config, const Matrix& input,
                    const Stale& stale, ResultPictures& out) {
    const std::optional<Op> op = parse_op(r.op);
    if (!r.reference || !op || r.reference->shape() != r.output->shape()) {
        out.difference_message = "No CPU reference kept for this run.";
        return;
    }
    auto diff = std::make_shared<const Matrix>(absolute_difference(*r.output, *r.reference));
    if (stale()) return;
    if (r.type != "f32") {  // u8/u16 runs are verified exactly: the float bounds do not apply
        out.difference = exact_difference(std::move(diff), r, false);
        return;
    }
    // The magnitudes the bound is made of are not kept with the result: compute the reference
    // again (as the runner did, from the same input and parameters).
    OpParams params = config.params;
    params.radius = r.radius;
    if (const auto border = parse_border(r.border)) params.border = *border;
    params.values = r.params;  // this run's point of a sweep (a resample's scale, say)
    const Reference reference = cpu_reference(*op, input, params);
    if (stale()) return;
    HeatStats stats;
    Picture picture{
        diff, render_heat(*diff, verification_bounds(*op, reference), &stats), {}, {}, {}};
    if (stats.largest_ratio == 0.0f && stats.beyond == 0 && stats.non_finite == 0) {
        picture.caption = "identical to the CPU reference";
        picture.note = "Identical to the CPU reference:\nevery element equal.";
    } else if (bound_factor(*op, reference.terms) == 0.0) {
        picture.caption = QString(
                              "exact operation: %1 element(s) differ (cyan), any difference "
                              "fails")
                              .arg(stats.beyond + stats.non_finite);
    } else {
        picture.caption = QString(
                              "|diff| ÷ verification bound: black 0, white 1 (the bound), "
                              "cyan beyond; largest %1 of the bound")
                              .arg(stats.largest_ratio, 0, 'g', 3);
        if (stats.beyond > 0) picture.caption += QString("; %1 beyond").arg(stats.beyond);
    }
    if (stats.non_finite > 0)
        picture.caption += QString("; %1 NaN (magenta)").arg(stats.non_finite);
    out.difference = std::move(picture);
}

// A colour run's pictures: its input and output in their colours, and the difference per pixel
// (the largest over the channels) against a zero bound, since u8/u16 runs are verified exactly.
void add_colour_pictures(const RunResult& r, const RunConfig& config, const QString& name,
                         const std::shared_ptr<const AnyImage>& shown_colour, const Stale& stale,
                         ResultPictures& out) {
    std::shared_ptr<const AnyImage> input = config.typed_input;
    if (!input || typed::channels_of(*input) != r.channels) {
        // A sweep's random colour data of the run's own type, made again from the seed.
        const ElemType type = parse_elem_type(r.type).value_or(ElemType::u8);
        input = std::make_shared<const AnyImage>(
            typed::random_input(type, Shape{r.rows, r.cols}, config.seed, r.channels));
    }
    if (input != shown_colour)
        out.input = colour_input_picture(input, config.input, "the run's input");
    if (stale()) return;
    const int channels = typed::channels_of(*r.typed_output);
    Picture output{r.output, render_colour(*r.typed_output), {}, {}, r.typed_output};
    output.caption = QString("%1, %2 channels (B, G, R%3), drawn over %4")
                         .arg(name)
                         .arg(channels)
                         .arg(channels == 4 ? ", A: not drawn" : "", range_text(output.rendered));
    out.output = std::move(output);
    out.typed_output = r.typed_output;
    if (stale()) return;
    if (!r.reference || r.reference->shape() != r.output->shape()) {
        out.difference_message = "No CPU reference kept for this run.";
        return;
    }
    auto diff = std::make_shared<const Matrix>(
        channel_maximum(absolute_difference(*r.output, *r.reference), channels));
    if (stale()) return;
    out.difference = exact_difference(std::move(diff), r, true);
}

}  // namespace

Picture colour_input_picture(std::shared_ptr<const AnyImage> image,
                             std::shared_ptr<const Matrix> luminance, const QString& what) {
    Picture p;
    p.rendered = render_colour(*image);
    const Shape shape = typed::shape_of(*image);
    const int channels = typed::channels_of(*image);
    p.caption = QString("%1 x %2, %3").arg(shape.rows).arg(shape.cols).arg(what);
    // An opened file's description says it already ("... as stored (B, G, R)").
    if (!what.contains("as stored"))
        p.caption += QString(" (colour: %1 channels, B, G, R%2 as stored)")
                         .arg(channels)
                         .arg(channels == 4 ? ", A" : "");
    if (channels == 4) p.caption += ", alpha not drawn";
    // An 8000 x 6000 photograph's channels as float32 would be another 576 MB.
    p.matrix = luminance && luminance->shape() == shape
                   ? std::move(luminance)
                   : std::make_shared<const Matrix>(to_matrix(*image));
    p.colour = std::move(image);
    return p;
}

Picture input_picture(std::shared_ptr<const Matrix> matrix, const QString& what) {
    Picture p;
    p.rendered = render_grey(*matrix);
    p.caption = QString("%1 x %2, %3 (%4)")
                    .arg(matrix->rows())
                    .arg(matrix->cols())
                    .arg(what, range_text(p.rendered));
    p.matrix = std::move(matrix);
    return p;
}

QString no_output_reason(const RunResult& r, const RunConfig& config) {
    if (r.status == Status::cancelled) return "cancelled before it ran";
    if (r.status != Status::ok && r.status != Status::failed)
        return QString("%1: %2").arg(qs(std::string(status_name(r.status))), qs(r.error));
    if (r.status == Status::failed && !r.error.empty()) return "failed: " + qs(r.error);
    if (!config.keep_outputs)
        return "results from a file, or a run too large to keep its outputs in memory";
    return "no output kept";
}

ResultPictures make_result_pictures(const RunResult& r, const RunConfig& config,
                                    const std::shared_ptr<const Matrix>& shown_input,
                                    const std::shared_ptr<const AnyImage>& shown_colour,
                                    const std::optional<RandomInput>& cached, const Stale& stale) {
    ResultPictures out;
    const QString name = QString("%1, %2 x %3").arg(qs(r.variant)).arg(r.rows).arg(r.cols);
    if (!r.output) {
        out.output_message = QString("%1: %2.").arg(name, no_output_reason(r, config));
        return out;
    }
    if (r.channels > 1 && r.typed_output) {
        add_colour_pictures(r, config, name, shown_colour, stale, out);
        return out;
    }
    const std::shared_ptr<const Matrix> input = run_input(r, config, cached, &out.random_input);
    if (stale()) return {};
    // A colour picture's matrix is the luminance a grey run may share: drawn grey again.
    if (input != shown_input || shown_colour) {
        const QString what = config.input
                                 ? QString("the run's input")
                                 : QString("random (seed %1), the run's input").arg(config.seed);
        out.input = input_picture(input, what);
    }
    if (stale()) return {};
    Picture output{r.output, render_grey(*r.output), {}, {}, {}};
    output.caption = QString("%1, %2").arg(name, range_text(output.rendered));
    out.output = std::move(output);
    out.typed_output = r.typed_output;
    if (stale()) return {};
    add_difference(r, config, *input, stale, out);
    return out;
}

}  // namespace coalesce::gui
