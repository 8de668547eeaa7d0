#include "input_loader.hpp"

#include <algorithm>
#include <filesystem>

namespace coalesce::gui {

void attach_input(RunConfig& config, const LoadedImage& image) {
    config.input = image.matrix;
    config.input_file = image.path.string();
    const bool float_only = image.elem_type == ElemType::f32 &&
                            std::all_of(config.types.begin(), config.types.end(),
                                        [](ElemType t) { return t == ElemType::f32; });
    if (float_only) return;  // the float path, as before types existed
    config.typed_input = imageio::typed_input_of(image);
    config.conversion = image.elem_type == ElemType::f32 ? Conversion::values : Conversion::scale;
}

void InputLoader::open(const QString& path, ChannelChoice channel) {
    const QByteArray utf8 = path.toUtf8();
    const std::filesystem::path file(std::u8string(utf8.begin(), utf8.end()));
    job_.start(
        [file, channel, path](const Stale& stale) {
            LoadedInput in;
            // The channel may be a choice saved from an earlier file: where this file lacks it
            // (alpha of an RGB image), luminance is read and the note says so, rather than every
            // later file being refused until the choice is changed back.
            LoadOptions options;
            options.channel = channel;
            options.fall_back_to_luminance = true;
            in.image = load_image(file, options);
            if (stale()) return in;
            const std::shared_ptr<const Matrix>& m = in.image.matrix;
            in.picture = input_picture(m, QString::fromStdString(in.image.source_type));
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
