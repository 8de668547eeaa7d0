// Opening an image or matrix file, or generating a matrix, off the window's thread: decoding,
// conversion to float32 and the input picture all happen on Qt's thread pool. The newest request
// wins; an older one still decoding is dropped.
#pragma once

#include "generate_dialog.hpp"
#include "image_loader.hpp"
#include "latest_job.hpp"
#include "result_pictures.hpp"

#include "coalesce/runner.hpp"

#include <QObject>
#include <QString>

namespace coalesce::gui {

// A decoded input and its picture.
struct LoadedInput {
    LoadedImage image;
    Picture picture;
    QString description;  // for the log: "Opened a.png: 200 x 320, PNG, ..." / "Generated ..."
};

// Makes `image` the input of `config` (whose types the run panel chose): its float32 values for the
// f32 runs, as ever, and, where a u8 or u16 run needs it or the image is not f32, the image in its
// own type, converted the way the window offers (coalesce/type_conversion.hpp): scale between u8
// and u16, values from f32 (refused by the runner unless every value is an integer the type
// holds); to f32 the values are kept. A colour run (config.channels 3 or 4, an image opened with
// its colour kept) takes the colour image as stored.
void attach_input(RunConfig& config, const LoadedImage& image);

class InputLoader : public QObject {
    Q_OBJECT
public:
    explicit InputLoader(QObject* parent = nullptr) : QObject(parent) {}

    // keep_colour: an 8 or 16-bit colour image also keeps its channels (LoadedImage::colour),
    // drawn in colour; other images are read as one channel, the note saying why.
    void open(const QString& path, ChannelChoice channel, bool keep_colour = false);
    void generate(const GenerateRequest& request);
    bool isBusy() const { return job_.isRunning(); }

signals:
    // path: the file opened; empty for a generated matrix.
    void loaded(const coalesce::gui::LoadedInput& input, const QString& path);
    // The reason, naming the file; the previous input stays.
    void failed(const QString& message, const QString& path);

private:
    LatestJob<LoadedInput> job_{this};
};

}  // namespace coalesce::gui
