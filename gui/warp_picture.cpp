#include "warp_picture.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <vector>

namespace coalesce::gui {

// Paints one WarpRequestView; owned by the WarpPicture.
class WarpCanvas : public QWidget {
public:
    explicit WarpCanvas(QWidget* parent) : QWidget(parent) {
        setMinimumSize(480, 120);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }
    void setRequest(const WarpRequestView* request) {
        request_ = request;
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override;

private:
    void paintSectors(QPainter& p, const QRectF& area) const;
    void paintBanks(QPainter& p, const QRectF& area) const;
    const WarpRequestView* request_ = nullptr;
};

namespace {

const QColor kLane(0x4e, 0x79, 0xa7);
const QColor kIdleLane(0xd0, 0xd0, 0xd0);
const QColor kTouched(0xa8, 0xc8, 0xe8);
const QColor kUseful(0x2b, 0x4f, 0x81);
const QColor kGrid(0x70, 0x70, 0x70);

// The 32 lane boxes along the top of `area`; returns the centre of each box's lower edge.
std::vector<QPointF> paintLanes(QPainter& p, const QRectF& area, int active) {
    std::vector<QPointF> anchors;
    const double w = area.width() / 32.0;
    QFont small = p.font();
    small.setPointSizeF(7);
    p.setFont(small);
    for (int lane = 0; lane < 32; ++lane) {
        const QRectF box(area.left() + lane * w + 1, area.top(), w - 2, 14);
        p.setPen(Qt::NoPen);
        p.setBrush(lane < active ? kLane : kIdleLane);
        p.drawRect(box);
        p.setPen(Qt::white);
        p.drawText(box, Qt::AlignCenter, QString::number(lane));
        anchors.emplace_back(box.center().x(), box.bottom());
    }
    return anchors;
}

}  // namespace

void WarpCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), Qt::white);
    if (!request_) return;
    const QRectF area = QRectF(rect()).adjusted(8, 6, -8, -6);
    if (request_->memory == WarpRequestView::Memory::shared)
        paintBanks(p, area);
    else
        paintSectors(p, area);
}

// The lines the lanes touch, side by side (runs of neighbouring lines together, a gap marked
// "…" between runs), each cut into its four sectors; a touched sector is shaded, the bytes the
// lanes ask for are dark, and each lane is joined to its address.
void WarpCanvas::paintSectors(QPainter& p, const QRectF& area) const {
    const WarpRequest& r = request_->request;
    const int active = std::clamp(r.active_lanes, 0, 32);
    std::set<long long> lines, sectors;
    for (int lane = 0; lane < active; ++lane) {
        const long long first = r.offsets[static_cast<std::size_t>(lane)];
        const long long last = first + r.bytes_per_lane - 1;
        for (long long l = first / kLineBytes; l <= last / kLineBytes; ++l) lines.insert(l);
        for (long long s = first / kSectorBytes; s <= last / kSectorBytes; ++s) sectors.insert(s);
    }
    if (lines.empty()) return;
    constexpr double kGapUnits = 1.5;  // a gap between runs of lines, in sector widths
    constexpr int kSectorsPerLine = static_cast<int>(kLineBytes / kSectorBytes);
    double units = 0;
    long long previous = *lines.begin();
    for (long long l : lines) {
        if (l != *lines.begin() && l != previous + 1) units += kGapUnits;
        units += kSectorsPerLine;
        previous = l;
    }
    const double unit = area.width() / units;
    std::map<long long, double> line_x;
    double x = area.left();
    previous = *lines.begin();
    std::vector<std::pair<double, long long>> run_starts;  // where each run of lines begins
    std::vector<double> gaps;
    for (long long l : lines) {
        if (l == *lines.begin() || l != previous + 1) {
            if (l != *lines.begin()) {
                gaps.push_back(x + kGapUnits * unit / 2);
                x += kGapUnits * unit;
            }
            run_starts.emplace_back(x, l);
        }
        line_x[l] = x;
        x += kSectorsPerLine * unit;
        previous = l;
    }
    const auto x_of = [&](long long byte) {
        const long long line = byte / kLineBytes;
        return line_x.at(line) +
               static_cast<double>(byte - line * kLineBytes) / kSectorBytes * unit;
    };

    const std::vector<QPointF> lanes = paintLanes(p, area, active);
    const double strip_top = area.top() + area.height() * 0.55;
    const double strip_height = std::min(34.0, area.bottom() - strip_top - 16);
    for (int lane = 0; lane < active; ++lane) {
        const long long first = r.offsets[static_cast<std::size_t>(lane)];
        QColor c = kLane;
        c.setAlpha(110);
        p.setPen(QPen(c, 1.0));
        p.drawLine(lanes[static_cast<std::size_t>(lane)],
                   QPointF(x_of(first) + r.bytes_per_lane * unit / kSectorBytes / 2, strip_top));
    }
    for (const auto& [line, left] : line_x)
        for (int s = 0; s < kSectorsPerLine; ++s) {
            const QRectF cell(left + s * unit, strip_top, unit, strip_height);
            const bool touched = sectors.count(line * kSectorsPerLine + s) > 0;
            p.setPen(QPen(kGrid, 0.8));
            p.setBrush(touched ? kTouched : QColor(Qt::white));
            p.drawRect(cell);
        }
    p.setPen(Qt::NoPen);
    p.setBrush(kUseful);
    for (int lane = 0; lane < active; ++lane) {
        const long long first = r.offsets[static_cast<std::size_t>(lane)];
        const double left = x_of(first);
        const double width = std::max(1.0, r.bytes_per_lane * unit / kSectorBytes);
        p.drawRect(QRectF(left, strip_top + strip_height * 0.55, width, strip_height * 0.45));
    }
    p.setPen(QPen(Qt::black, 2.0));
    for (const auto& [line, left] : line_x)
        p.drawLine(QPointF(left, strip_top - 3), QPointF(left, strip_top + strip_height + 3));
    QFont small = p.font();
    small.setPointSizeF(7.5);
    p.setFont(small);
    p.setPen(Qt::black);
    for (double gap : gaps)
        p.drawText(QRectF(gap - 10, strip_top, 20, strip_height), Qt::AlignCenter,
                   QStringLiteral("…"));
    for (const auto& [left, line] : run_starts)
        p.drawText(QPointF(left + 2, strip_top + strip_height + 12),
                   QStringLiteral("byte %1").arg(line * kLineBytes));
}

// The 32 banks along the bottom, each with the number of distinct words the lanes ask of it
// (red past one: those words are served one after another), each lane joined to its bank.
void WarpCanvas::paintBanks(QPainter& p, const QRectF& area) const {
    const WarpRequest& r = request_->request;
    const int active = std::clamp(r.active_lanes, 0, 32);
    std::array<std::set<long long>, kBanks> words;
    for (int lane = 0; lane < active; ++lane) {
        const long long offset = r.offsets[static_cast<std::size_t>(lane)];
        words[static_cast<std::size_t>(bank_of(offset))].insert(offset / kBankWordBytes);
    }
    const std::vector<QPointF> lanes = paintLanes(p, area, active);
    const double w = area.width() / kBanks;
    const double bank_top = area.top() + area.height() * 0.55;
    const double bank_height = std::min(30.0, area.bottom() - bank_top - 14);
    for (int lane = 0; lane < active; ++lane) {
        const int bank = request_->lane_bank[static_cast<std::size_t>(lane)];
        QColor c = kLane;
        c.setAlpha(110);
        p.setPen(QPen(c, 1.0));
        p.drawLine(lanes[static_cast<std::size_t>(lane)],
                   QPointF(area.left() + (bank + 0.5) * w, bank_top));
    }
    QFont small = p.font();
    small.setPointSizeF(7.5);
    p.setFont(small);
    const int worst = std::max(1, request_->conflict_degree);
    for (int bank = 0; bank < kBanks; ++bank) {
        const int n = static_cast<int>(words[static_cast<std::size_t>(bank)].size());
        const QRectF cell(area.left() + bank * w, bank_top, w, bank_height);
        QColor fill = Qt::white;
        if (n == 1) fill = QColor(0xc8, 0xe6, 0xc9);
        if (n > 1) {
            const double t = worst > 1 ? static_cast<double>(n - 1) / (worst - 1) : 1.0;
            fill = QColor::fromRgbF(1.0f, static_cast<float>(0.85 - 0.55 * t),
                                    static_cast<float>(0.8 - 0.6 * t));
        }
        p.setPen(QPen(kGrid, 0.8));
        p.setBrush(fill);
        p.drawRect(cell);
        p.setPen(Qt::black);
        if (n > 0) p.drawText(cell, Qt::AlignCenter, QString::number(n));
    }
    p.drawText(QPointF(area.left(), bank_top + bank_height + 12),
               QStringLiteral("banks 0..31: distinct words asked of each"));
}

WarpPicture::WarpPicture(QWidget* parent) : QWidget(parent) {
    setObjectName("warpPicture");
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    title_ = new QLabel(this);
    title_->setObjectName("warpTitle");
    title_->setWordWrap(true);
    requests_ = new QComboBox(this);
    requests_->setObjectName("warpRequest");
    requests_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    requests_->setToolTip(
        "The requests one typical warp of this variant makes, as its model "
        "declares them.");
    top->addWidget(title_, 1);
    top->addWidget(requests_);
    layout->addLayout(top);
    canvas_ = new WarpCanvas(this);
    layout->addWidget(canvas_, 1);
    summary_ = new QLabel(this);
    summary_->setObjectName("warpSummary");
    summary_->setWordWrap(true);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(summary_);
    connect(requests_, &QComboBox::currentIndexChanged, this, &WarpPicture::showRequest);
    setView({});
}

void WarpPicture::setView(WarpView view) {
    view_ = std::move(view);
    title_->setText(view_.title.isEmpty() ? QStringLiteral("Select a result to see one warp.")
                                          : view_.title);
    {
        const QSignalBlocker block(requests_);
        requests_->clear();
        for (const WarpRequestView& r : view_.requests) requests_->addItem(r.label);
    }
    requests_->setVisible(view_.requests.size() > 1);
    showRequest(view_.requests.empty() ? -1 : view_.shown);
}

int WarpPicture::shownRequest() const {
    return view_.requests.empty() ? -1 : requests_->currentIndex();
}

void WarpPicture::showRequest(int index) {
    if (index < 0 || index >= static_cast<int>(view_.requests.size())) {
        canvas_->setRequest(nullptr);
        summary_->setText(view_.message);
        return;
    }
    if (requests_->currentIndex() != index) {
        const QSignalBlocker block(requests_);
        requests_->setCurrentIndex(index);
    }
    const WarpRequestView& r = view_.requests[static_cast<std::size_t>(index)];
    canvas_->setRequest(&r);
    summary_->setText(QStringLiteral("%1 — %2").arg(r.label, r.summary));
}

QString WarpPicture::summaryText() const { return summary_->text(); }

}  // namespace coalesce::gui
