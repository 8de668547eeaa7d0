#include "input_loader.hpp"

#include "coalesce/typed_run.hpp"

#include <variant>

#include <algorithm>
#include <filesystem>

namespace coalesce::gui {

namespace {

// Where the colour was kept, the source says so instead of "→ luminance" (as coalesce-bench
// --channels does); where it could not be, the note says why the image is one channel.
void describe_colour(LoadedImage& image) {
    if (image.colour) {
        const std::string luminance = " → luminance";
        const std::string as_stored = typed::channels_of(*image.colour) == 4
                                          ? " as stored (B, G, R, A)"
                                          : " as stored (B, G, R)";
        if (const auto at = image.source_type.find(luminance); at != std::string::npos)
            image.source_type.replace(at, luminance.size(), as_stored);
        // The input panel's Values: the channels' range, which the colour runs take, not the
        // luminance's (here, off the window's thread: a photograph has tens of millions).
        std::visit(
            [&image](const auto& colour) {
                if (colour.empty()) return;
                const auto [lo, hi] =
                    std::minmax_element(colour.data(), colour.data() + colour.size());
                image.min_value = static_cast<float>(*lo);
                image.max_value = static_cast<float>(*hi);
            },
            *image.colour);
        return;
    }
    const std::string why = "one channel: colour runs take an 8 or 16-bit image of 3 or 4 channels";
    image.note = image.note.empty() ? why : image.note + "; " + why;
}

}  // namespace

void attach_input(RunConfig& config, const LoadedImage& image) {
    config.input = image.matrix;
    config.input_file = image.path.string();
    const bool float_only = image.elem_type == ElemType::f32 &&
                            std::all_of(config.types.begin(), config.types.end(),
                                        [](ElemType t) { return t == ElemType::f32; });
    if (float_only) return;  // the float path, as before types existed
    // The colour as stored, for a colour run; the runner refuses an f32 one by name.
    config.typed_input =
        config.channels > 1 && image.colour ? image.colour : imageio::typed_input_of(image);
    config.conversion = image.elem_type == ElemType::f32 ? Conversion::values : Conversion::scale;
}

void InputLoader::open(const QString& path, ChannelChoice channel, bool keep_colour) {
    const QByteArray utf8 = path.toUtf8();
    const std::filesystem::path file(std::u8string(utf8.begin(), utf8.end()));
    job_.start(
        [file, channel, keep_colour, path](const Stale& stale) {
            LoadedInput in;
            // The channel may be a choice saved from an earlier file: where this file lacks it
            // (alpha of an RGB image), luminance is read and the note says so, rather than every
            // later file being refused until the choice is changed back.
            LoadOptions options;
            options.channel = channel;
            options.fall_back_to_luminance = true;
            options.keep_colour = keep_colour;
            in.image = load_image(file, options);
            if (stale()) return in;
            if (keep_colour) describe_colour(in.image);
            const std::shared_ptr<const Matrix>& m = in.image.matrix;
            in.picture = in.image.colour
                             ? colour_input_picture(in.image.colour, m,
                                                    QString::fromStdString(in.image.source_type))
                             : input_picture(m, QString::fromStdString(in.image.source_type));
            in.description = QString("Opened %1: %2 x %3, %4")
                                 .arg(path)
                                 .arg(m->rows())
                                 .arg(m->cols())
                                 .arg(QString::fromStdString(in.image.source_type));
            if (!in.image.note.empty())
                in.description += QString(" (%1)").arg(QString::fromStdString(in.image.note));
            return in;
        },
        [this, path](LoadedInput in) { emit loaded(in, path); },
        [this, path](const QString& error) {
            emit failed(QString("Could not open the file. %1").arg(error), path);
        });
}

void InputLoader::generate(const GenerateRequest& request) {
    job_.start(
        [request](const Stale& stale) {
            LoadedInput in;
            in.image = describe_generated(request.make(), request.describe().toStdString());
            if (stale()) return in;
            in.picture = input_picture(in.image.matrix, request.describe());
            in.description = "Generated " + request.describe();
            return in;
        },
        [this](LoadedInput in) { emit loaded(in, {}); },
        [this](const QString& error) {
            // std::bad_alloc for a size the machine cannot hold
            emit failed(QString("Could not generate the matrix: %1").arg(error), {});
        });
}

}  // namespace coalesce::gui
