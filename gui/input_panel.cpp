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
    channel_->addItems({"Luminance", "Red", "Green", "Blue", "Alpha"});
    channel_->setToolTip(
        "How a colour image becomes one float32 channel (Rec. 601 luminance or one channel).");
    connect(channel_, &QComboBox::currentIndexChanged, this,
            [this](int i) { emit channelChanged(static_cast<ChannelChoice>(i)); });
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
    return static_cast<ChannelChoice>(channel_->currentIndex());
}

void InputPanel::setChannel(ChannelChoice channel) {
    channel_->setCurrentIndex(static_cast<int>(channel));
}

}  // namespace coalesce::gui
