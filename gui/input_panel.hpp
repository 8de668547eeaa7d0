// Describes the loaded input (name, size, source type, value range) and offers the colour
// reduction used when reading colour images.
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
    ChannelChoice channel() const;
    void setChannel(ChannelChoice channel);

signals:
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
