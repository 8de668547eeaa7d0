// The three pictures beside the results: the input, the selected result's output and its
// difference to the CPU reference. Everything a picture needs computing (a sweep's random input
// made again, rendering, the difference) runs off the window's thread; a newer selection
// supersedes an older one still being computed.
#pragma once

#include "latest_job.hpp"
#include "result_pictures.hpp"

#include <QWidget>

#include <optional>

class QSplitter;

namespace coalesce::gui {

class MatrixView;

class ImagePanes : public QWidget {
    Q_OBJECT
public:
    explicit ImagePanes(QWidget* parent = nullptr);

    MatrixView* inputView() const { return input_; }
    MatrixView* outputView() const { return output_; }
    MatrixView* differenceView() const { return difference_; }
    MatrixView* activeView() const { return active_; }  // the view zoom shortcuts act on
    QSplitter* splitter() const { return splitter_; }

    // The input view shows `picture` (rendered already, off the window's thread).
    void showInput(const Picture& picture);
    // Starts computing the pictures of `result` (of a run with `config`); picturesShown() says
    // when they are on screen.
    void showResult(const RunResult& result, const RunConfig& config);
    // Output and difference show messages instead of pictures (a run in progress, no outputs
    // kept); drops any pictures still being computed.
    void showMessages(const QString& output, const QString& difference = {});

    bool isBusy() const { return job_.isRunning(); }
    // The shown output as its run wrote it (u8, u16, or the sums' u32/u64); null for an f32 run
    // or when no output is shown.
    std::shared_ptr<const AnyImage> typedOutput() const { return typed_output_; }

signals:
    void picturesShown();
    // The text for the status bar as the cursor moves over a picture; empty when it leaves.
    void cursorText(const QString& text);

private:
    void apply(ResultPictures pictures);

    MatrixView* input_ = nullptr;
    MatrixView* output_ = nullptr;
    MatrixView* difference_ = nullptr;
    MatrixView* active_ = nullptr;
    QSplitter* splitter_ = nullptr;
    std::optional<RandomInput> random_input_;
    std::shared_ptr<const AnyImage> typed_output_;
    std::shared_ptr<const AnyImage> input_colour_;  // the colour image the input view shows
    LatestJob<ResultPictures> job_{this};
};

}  // namespace coalesce::gui
