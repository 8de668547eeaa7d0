// Describes the loaded input (name, size, source type, value range) and offers how a colour image
// is read: reduced to one channel (luminance, or red, green, blue or alpha), or kept with all its
// channels for colour runs.
#pragma once

#include "image_loader.hpp"

#include <QWidget>

class QAction;
class QComboBox;
class QLabel;

namespace coalesce::gui {

class InputPanel : public QWidget {
    Q_OBJECT
public:
    // open / generate: the window's actions, offered as buttons.
    InputPanel(QAction* open, QAction* generate, QWidget* parent = nullptr);

    void show(const LoadedImage& image);
    // The one channel a colour image becomes (luminance while its colour is kept: the f32 path's
    // matrix).
    ChannelChoice channel() const;
    void setChannel(ChannelChoice channel);
    // A colour image (8 or 16-bit, 3 or 4 channels) keeps its channels, as stored (B, G, R(, A)),
    // and its u8/u16 runs are colour runs. Off by default: one channel, as before.
    bool keepColour() const;
    void setKeepColour(bool keep);

signals:
    // The choice changed: the window reads the file again.
    void channelChanged(coalesce::gui::ChannelChoice channel);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void fitHeight();

    QLabel* name_ = nullptr;
    QLabel* size_ = nullptr;
    QLabel* type_ = nullptr;
    QLabel* range_ = nullptr;
    QComboBox* channel_ = nullptr;
};

}  // namespace coalesce::gui
