#include "input_panel.hpp"

#include <QAction>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QToolButton>

namespace coalesce::gui {
namespace {

constexpr int kColourItem = 5;  // "Colour (all channels)", after the five channels

}  // namespace

InputPanel::InputPanel(QAction* open, QAction* generate, QWidget* parent) : QWidget(parent) {
    auto* form = new QFormLayout(this);
    form->setContentsMargins(4, 4, 4, 4);
    const auto label = [this](const char* name) {
        auto* l = new QLabel("—", this);
        l->setObjectName(name);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        l->setWordWrap(true);
        return l;
    };
    name_ = label("inputName");
    size_ = label("inputSize");
    type_ = label("inputType");
    range_ = label("inputRange");
    form->addRow("Input", name_);
    form->addRow("Size", size_);
    form->addRow("Source", type_);
    form->addRow("Values", range_);

    channel_ = new QComboBox(this);
    channel_->setObjectName("channel");
    // The first five follow ChannelChoice's order; the last keeps the colour.
    channel_->addItems({"Luminance", "Red", "Green", "Blue", "Alpha", "Colour (all channels)"});
    channel_->setToolTip(
        "How a colour image is read. Luminance (Rec. 601) or one channel: every element type runs "
        "one channel. Colour (all channels): an 8 or 16-bit colour image keeps its 3 or 4 "
        "channels as stored (B, G, R, A); its u8 and u16 runs work on every channel and offer the "
        "colour variants (interleaved against planar); f32 runs take one channel and are refused.");
    connect(channel_, &QComboBox::currentIndexChanged, this,
            [this] { emit channelChanged(channel()); });
    form->addRow("Colour", channel_);

    auto* buttons = new QHBoxLayout;
    for (QAction* action : {open, generate}) {
        auto* b = new QToolButton(this);
        b->setDefaultAction(action);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        buttons->addWidget(b);
    }
    buttons->addStretch();
    form->addRow(buttons);
}

void InputPanel::show(const LoadedImage& image) {
    if (!image.path.empty()) {
        name_->setText(QFileInfo(QString::fromStdString(image.path.string())).fileName());
        name_->setToolTip(QString::fromStdString(image.path.string()));
    } else {
        name_->setText("(generated)");
        name_->setToolTip({});
    }
    size_->setText(image.matrix ? QString("%1 x %2 (rows x columns)")
                                      .arg(image.matrix->rows())
                                      .arg(image.matrix->cols())
                                : QString("—"));
    type_->setText(QString::fromStdString(image.source_type));
    range_->setText(
        QString("%1 … %2").arg(image.min_value, 0, 'g', 6).arg(image.max_value, 0, 'g', 6));
    fitHeight();
}

// Wrapped lines (a long Source) need more height than the dock gave the panel when it was laid
// out; a dock does not ask its widget for a height for its width, so the panel says it itself.
void InputPanel::fitHeight() {
    if (layout() && layout()->hasHeightForWidth())
        setMinimumHeight(layout()->heightForWidth(width()));
}

void InputPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitHeight();
}

ChannelChoice InputPanel::channel() const {
    return keepColour() ? ChannelChoice::luminance
                        : static_cast<ChannelChoice>(channel_->currentIndex());
}

void InputPanel::setChannel(ChannelChoice channel) {
    channel_->setCurrentIndex(static_cast<int>(channel));
}

bool InputPanel::keepColour() const { return channel_->currentIndex() == kColourItem; }

void InputPanel::setKeepColour(bool keep) {
    if (keep)
        channel_->setCurrentIndex(kColourItem);
    else if (keepColour())
        channel_->setCurrentIndex(static_cast<int>(ChannelChoice::luminance));
}

}  // namespace coalesce::gui
