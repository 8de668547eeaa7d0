// The course's findings in the window: pick one, read what the course found and where, run the
// variants, sizes and parameters that reproduce it, and see the chart beside the text. A lesson
// whose experiment Coalesce does not run yet says what is missing, its Run button disabled.
#pragma once

#include "coalesce/lessons.hpp"
#include "coalesce/registry.hpp"

#include <QWidget>

#include <vector>

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace coalesce::gui {

class BandwidthChartWidget;
class ResultsModel;

class LessonsPanel : public QWidget {
    Q_OBJECT
public:
    // The registry and the results model must outlive the panel; the chart follows `results`.
    LessonsPanel(const std::vector<Lesson>& lessons, const Registry& registry,
                 ResultsModel* results, QWidget* parent = nullptr);

    void setDeviceAvailable(bool have_gpu);
    void setRunning(bool running);
    // Shows the lesson with this id (ignored when there is none).
    void showLesson(const QString& id);
    // nullptr when none is shown.
    const Lesson* currentLesson() const;
    // Empty when `lesson` can run here; otherwise why not, for the user.
    QString whyNotRunnable(const Lesson& lesson) const;

    QListWidget* list() const { return list_; }
    QTextBrowser* text() const { return text_; }
    QPushButton* runButton() const { return run_; }
    BandwidthChartWidget* chart() const { return chart_; }

signals:
    void runRequested(const coalesce::Lesson& lesson);

private:
    void showCurrent();

    std::vector<Lesson> lessons_;
    const Registry& registry_;
    bool have_gpu_ = false;
    bool running_ = false;
    QListWidget* list_ = nullptr;
    QTextBrowser* text_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* run_ = nullptr;
    BandwidthChartWidget* chart_ = nullptr;
};

}  // namespace coalesce::gui
