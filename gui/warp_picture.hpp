// The "one warp" picture: the 32 lanes of one request of the selected result's variant drawn over
// the 32-byte sectors and 128-byte lines their addresses touch (global and constant memory), or
// over the 32 banks of shared memory, with the model's counts written underneath.
#pragma once

#include "warp_view.hpp"

#include <QWidget>

class QComboBox;
class QLabel;

namespace coalesce::gui {

class WarpCanvas;

class WarpPicture : public QWidget {
    Q_OBJECT
public:
    explicit WarpPicture(QWidget* parent = nullptr);

    void setView(WarpView view);
    const WarpView& view() const { return view_; }
    // Which of the view's requests is drawn; -1 when none.
    int shownRequest() const;
    void showRequest(int index);
    // The counts under the picture, as shown.
    QString summaryText() const;

private:
    WarpView view_;
    QLabel* title_ = nullptr;
    QComboBox* requests_ = nullptr;
    WarpCanvas* canvas_ = nullptr;
    QLabel* summary_ = nullptr;
};

}  // namespace coalesce::gui
