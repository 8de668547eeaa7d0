#include "lessons_panel.hpp"

#include "results/chart_widgets.hpp"
#include "run_panel.hpp"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace coalesce::gui {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }
QString html(const std::string& s) { return qs(s).toHtmlEscaped(); }

QString lesson_html(const Lesson& lesson) {
    QString out = "<h3>" + html(lesson.title) + "</h3><p>" + html(lesson.finding) + "</p>";
    out += "<p><b>In the course</b> (" + html(lesson.source) + "): " + html(lesson.course_figure) +
           "</p>";
    if (!lesson.variants.empty()) {
        QStringList ids;
        for (const std::string& id : lesson.variants) ids << "<tt>" + html(id) + "</tt>";
        out += "<p><b>Variants:</b> " + ids.join(", ") + "<br><b>Size:</b> " +
               format_sizes(lesson.sizes).toHtmlEscaped();
        if (!lesson.sweep.empty())
            out += "<br><b>Parameters</b> (one run per combination): " +
                   html(sweep_text(lesson.sweep));
        out += "</p>";
    }
    if (!lesson.runnable) out += "<p><b>Not runnable yet:</b> " + html(lesson.missing) + "</p>";
    return out;
}

}  // namespace

LessonsPanel::LessonsPanel(const std::vector<Lesson>& lessons, const Registry& registry,
                           ResultsModel* results, QWidget* parent)
    : QWidget(parent), lessons_(lessons), registry_(registry) {
    auto* top = new QWidget(this);
    auto* top_layout = new QVBoxLayout(top);
    top_layout->setContentsMargins(4, 4, 4, 4);
    list_ = new QListWidget(top);
    list_->setObjectName("lessonList");
    list_->setWordWrap(true);
    for (const Lesson& lesson : lessons_) {
        auto* item = new QListWidgetItem(qs(lesson.title), list_);
        item->setData(Qt::UserRole, qs(lesson.id));
        item->setToolTip(qs(lesson.source));
        if (!lesson.runnable) {
            item->setText(qs(lesson.title) + " (not runnable yet)");
            item->setForeground(QColor(0x70, 0x70, 0x70));
        }
    }
    list_->setMaximumHeight(list_->sizeHintForRow(0) * 5 + 8);
    text_ = new QTextBrowser(top);
    text_->setObjectName("lessonText");
    text_->setOpenExternalLinks(false);
    status_ = new QLabel(top);
    status_->setObjectName("lessonStatus");
    status_->setWordWrap(true);
    run_ = new QPushButton("Run this lesson", top);
    run_->setObjectName("runLesson");
    top_layout->addWidget(list_);
    top_layout->addWidget(text_, 1);
    top_layout->addWidget(status_);
    top_layout->addWidget(run_);

    chart_ = new BandwidthChartWidget(results, this);
    chart_->setObjectName("lessonChart");

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName("lessonSplitter");
    splitter->addWidget(top);
    splitter->addWidget(chart_);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(splitter);

    connect(list_, &QListWidget::currentRowChanged, this, [this] { showCurrent(); });
    connect(run_, &QPushButton::clicked, this, [this] {
        if (const Lesson* lesson = currentLesson()) emit runRequested(*lesson);
    });
    if (!lessons_.empty()) list_->setCurrentRow(0);
    showCurrent();
}

const Lesson* LessonsPanel::currentLesson() const {
    const int row = list_->currentRow();
    if (row < 0 || row >= static_cast<int>(lessons_.size())) return nullptr;
    return &lessons_[static_cast<std::size_t>(row)];
}

void LessonsPanel::showLesson(const QString& id) {
    for (int i = 0; i < list_->count(); ++i)
        if (list_->item(i)->data(Qt::UserRole).toString() == id) list_->setCurrentRow(i);
}

QString LessonsPanel::whyNotRunnable(const Lesson& lesson) const {
    if (!lesson.runnable) return "not runnable yet: " + qs(lesson.missing);
    if (lesson.variants.empty() || lesson.sizes.empty()) return "it names no variants or sizes";
    for (const std::string& id : lesson.variants) {
        const Variant* v = registry_.find(id);
        if (!v)
            return QString("the variant %1 is not registered here (is its plugin loaded?)")
                .arg(qs(id));
        if (v->info.gpu && !have_gpu_)
            return "its variants need a CUDA device, and there is none here";
    }
    return {};
}

void LessonsPanel::setDeviceAvailable(bool have_gpu) {
    have_gpu_ = have_gpu;
    showCurrent();
}

void LessonsPanel::setRunning(bool running) {
    running_ = running;
    showCurrent();
}

void LessonsPanel::showCurrent() {
    const Lesson* lesson = currentLesson();
    if (!lesson) {
        text_->setHtml("<p>No lessons.</p>");
        status_->clear();
        run_->setEnabled(false);
        return;
    }
    text_->setHtml(lesson_html(*lesson));
    const QString why = whyNotRunnable(*lesson);
    status_->setText(why.isEmpty() ? QString("Runs its variants at its size; the chart below shows "
                                             "the result.")
                                   : "Cannot run here: " + why.toHtmlEscaped());
    run_->setEnabled(why.isEmpty() && !running_);
}

}  // namespace coalesce::gui
