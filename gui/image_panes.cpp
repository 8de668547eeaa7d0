#include "image_panes.hpp"

#include "matrix_view.hpp"
#include "background_pool.hpp"

#include <QSplitter>
#include <QVBoxLayout>

#include <utility>

namespace coalesce::gui {

ImagePanes::ImagePanes(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    input_ = new MatrixView("Input", this);
    input_->setObjectName("inputView");
    output_ = new MatrixView("Output", this);
    output_->setObjectName("outputView");
    difference_ = new MatrixView("|Output − CPU reference|", this);
    difference_->setObjectName("differenceView");
    active_ = input_;
    input_->clear("Open an image (Ctrl+O), drop one here, or generate a matrix (Ctrl+G).");
    output_->clear("Select a row of the results table to see the output of that variant.");
    difference_->clear(
        "The difference to the CPU reference, as a heat map scaled against the "
        "verification bound (black: equal, white: at the bound).");
    for (MatrixView* view : {input_, output_, difference_}) {
        connect(
            view, &MatrixView::hovered, this,
            [this, view](const QString& title, qlonglong row, qlonglong col, const QString& value) {
                active_ = view;
                emit cursorText(
                    QString("%1  row %2, col %3:  %4").arg(title).arg(row).arg(col).arg(value));
            });
        connect(view, &MatrixView::hoverLeft, this, [this] { emit cursorText({}); });
    }
    // Three pictures stacked in a column beside the results: the table and the chart need the
    // width.
    splitter_ = new QSplitter(Qt::Vertical, this);
    splitter_->setObjectName("imageSplitter");
    splitter_->addWidget(input_);
    splitter_->addWidget(output_);
    splitter_->addWidget(difference_);
    layout->addWidget(splitter_);
}

void ImagePanes::showInput(const Picture& picture) {
    input_colour_ = picture.colour;
    input_->setMatrix(picture.matrix, picture.rendered, picture.caption, picture.note,
                      picture.colour);
}

void ImagePanes::showResult(const RunResult& result, const RunConfig& config) {
    typed_output_.reset();
    output_->clear(
        QString("Drawing the output of %1…").arg(QString::fromStdString(result.variant)));
    difference_->clear({});
    auto work = [result, config, shown = input_->sharedMatrix(), shown_colour = input_colour_,
                 cached = random_input_](const Stale& stale) {
        return make_result_pictures(result, config, shown, shown_colour, cached, stale);
    };
    job_.start(
        std::move(work), [this](ResultPictures pictures) { apply(std::move(pictures)); },
        [this](const QString& error) {
            output_->clear("Could not draw the output: " + error);
            emit picturesShown();
        });
}

void ImagePanes::apply(ResultPictures pictures) {
    if (pictures.random_input) {
        release_elsewhere(std::exchange(random_input_, std::move(pictures.random_input)));
    }
    if (pictures.input) showInput(*pictures.input);
    typed_output_ = pictures.output ? pictures.typed_output : nullptr;
    if (pictures.output) {
        const Picture& p = *pictures.output;
        output_->setMatrix(p.matrix, p.rendered, p.caption, p.note, p.colour);
    } else {
        output_->clear(pictures.output_message);
    }
    if (pictures.difference) {
        const Picture& p = *pictures.difference;
        difference_->setMatrix(p.matrix, p.rendered, p.caption, p.note);
    } else {
        difference_->clear(pictures.difference_message);
    }
    emit picturesShown();
}

void ImagePanes::showMessages(const QString& output, const QString& difference) {
    job_.cancel();
    typed_output_.reset();
    output_->clear(output);
    difference_->clear(difference);
}

}  // namespace coalesce::gui
