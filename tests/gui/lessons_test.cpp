// The Lessons panel: the course's findings listed, one picked, its variants, size and parameters
// run, and the chart shown beside the finding's text; a lesson Coalesce cannot run yet says what
// is missing and cannot be started.
#include "lessons_panel.hpp"
#include "results/chart_widgets.hpp"
#include "results/results_model.hpp"
#include "window_helpers.hpp"

#include "coalesce/kernels.hpp"

#include <QAction>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTextBrowser>

#include <set>

using namespace coalesce;
using namespace coalesce::gui;
using namespace coalesce::gui::test;

namespace {

// A lesson the host variants can show on any machine: the naive and the cache-blocked transpose.
Lesson host_lesson() {
    Lesson lesson{};
    lesson.id = "host-blocking";
    lesson.title = "A cache-blocked transpose on the host";
    lesson.source = "made for this test";
    lesson.course_figure = "none";
    lesson.finding = "Blocking keeps a tile of the input and the output in the cache.";
    lesson.variants = {"transpose/cpu-naive", "transpose/cpu-blocked"};
    lesson.sizes = {{96, 80}, {64, 200}};
    lesson.runnable = true;
    return lesson;
}

Lesson missing_lesson() {
    Lesson lesson = host_lesson();
    lesson.id = "not-yet";
    lesson.title = "Strided access";
    lesson.variants.clear();
    lesson.runnable = false;
    lesson.missing = "the stride operation";
    return lesson;
}

}  // namespace

TEST(Lessons, TheCoursesFindingsAreListedAndOneNotRunnableSaysWhatIsMissing) {
    Registry registry;
    register_builtin_variants(registry);
    ResultsModel results;
    LessonsPanel panel(lessons(), registry, &results);
    panel.setDeviceAvailable(true);
    ASSERT_EQ(panel.list()->count(), static_cast<int>(lessons().size()));
    ASSERT_FALSE(lessons().empty());
    for (std::size_t i = 0; i < lessons().size(); ++i) {
        const Lesson& lesson = lessons()[i];
        panel.showLesson(QString::fromStdString(lesson.id));
        ASSERT_EQ(panel.currentLesson()->id, lesson.id);
        EXPECT_TRUE(panel.text()->toPlainText().contains(QString::fromStdString(lesson.title)));
        // Texture lessons need the plugin, which this registry does not load: the panel must say
        // so.
        const bool needs_plugin = std::any_of(
            lesson.variants.begin(), lesson.variants.end(),
            [](const std::string& id) { return id.find("/texture-") != std::string::npos; });
        if (lesson.runnable && needs_plugin) {
            EXPECT_TRUE(panel.whyNotRunnable(lesson).contains("plugin")) << lesson.id;
        } else if (lesson.runnable) {
            EXPECT_TRUE(panel.whyNotRunnable(lesson).isEmpty())
                << lesson.id << ": " << panel.whyNotRunnable(lesson).toStdString();
            EXPECT_TRUE(panel.runButton()->isEnabled()) << lesson.id;
            for (const std::string& id : lesson.variants)
                EXPECT_NE(registry.find(id), nullptr) << lesson.id << " names " << id;
        } else {
            EXPECT_FALSE(panel.runButton()->isEnabled()) << lesson.id;
            const QString missing = QString::fromStdString(lesson.missing);
            EXPECT_TRUE(panel.text()->toPlainText().contains(missing));
            auto* status = panel.findChild<QLabel*>("lessonStatus");
            EXPECT_TRUE(status->text().contains(missing.toHtmlEscaped()));
        }
    }
}

TEST(Lessons, WithoutADeviceAGpuLessonCannotBeStartedAndSaysWhy) {
    Registry registry;
    register_builtin_variants(registry);
    ResultsModel results;
    LessonsPanel panel(lessons(), registry, &results);
    panel.setDeviceAvailable(false);
    const auto gpu = std::find_if(lessons().begin(), lessons().end(), [&](const Lesson& l) {
        return l.runnable && !l.variants.empty() && registry.find(l.variants.front())->info.gpu;
    });
    ASSERT_NE(gpu, lessons().end());
    panel.showLesson(QString::fromStdString(gpu->id));
    EXPECT_FALSE(panel.runButton()->isEnabled());
    EXPECT_TRUE(panel.whyNotRunnable(*gpu).contains("CUDA device"));
}

TEST(Lessons, RunningALessonRunsItsVariantsAtItsSizesAndChartsThemBesideTheText) {
    MainWindow window({}, nullptr, {host_lesson(), missing_lesson()});
    window.setClosePromptAnswer(QMessageBox::Discard);
    if (!window.deviceProbed()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::deviceReady).wait(30000));
    }
    window.show();
    LessonsPanel* panel = window.lessonsPanel();

    // The Lessons menu opens the panel on the lesson picked.
    QMenu* menu = window.menuBar()->findChild<QMenu*>("lessonsMenu");
    ASSERT_NE(menu, nullptr);
    QAction* pick = nullptr;
    for (QAction* a : menu->actions())
        if (a->data().toString() == "host-blocking") pick = a;
    ASSERT_NE(pick, nullptr);
    panel->showLesson("not-yet");
    pick->trigger();
    EXPECT_TRUE(window.findChild<QDockWidget*>("lessonsDock")->isVisible());
    ASSERT_EQ(panel->currentLesson()->id, "host-blocking");
    EXPECT_TRUE(panel->text()->toPlainText().contains("Blocking keeps a tile"));
    ASSERT_TRUE(panel->runButton()->isEnabled());

    QSignalSpy finished(&window, &MainWindow::runFinished);
    panel->runButton()->click();
    ASSERT_TRUE(window.isRunning()) << window.errorText().toStdString();
    EXPECT_FALSE(panel->runButton()->isEnabled());  // one run at a time
    ASSERT_TRUE(finished.wait(120000));
    ASSERT_TRUE(wait_idle(window));

    const ResultsModel* model = window.resultsModel();
    std::set<std::string> variants;
    std::set<std::pair<std::size_t, std::size_t>> sizes;
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.status, Status::ok) << r.variant << ": " << r.error;
        variants.insert(r.variant);
        sizes.insert({r.rows, r.cols});
    }
    EXPECT_EQ(variants, (std::set<std::string>{"transpose/cpu-naive", "transpose/cpu-blocked"}));
    EXPECT_EQ(sizes, (std::set<std::pair<std::size_t, std::size_t>>{{96, 80}, {64, 200}}));
    EXPECT_TRUE(panel->chart()->hasData());
    EXPECT_TRUE(panel->chart()->legendLabels().contains("transpose"));
    EXPECT_TRUE(panel->runButton()->isEnabled());

    // The lesson that cannot run yet: its button stays disabled, and asking anyway is refused.
    panel->showLesson("not-yet");
    EXPECT_FALSE(panel->runButton()->isEnabled());
    EXPECT_FALSE(window.runLesson(missing_lesson()));
    EXPECT_TRUE(window.errorText().contains("the stride operation"))
        << window.errorText().toStdString();
}

// A lesson's parameter sweep reaches the run: one run per value, each recorded with its value, and
// the panel names the sweep beside the finding.
TEST(Lessons, RunningASweptLessonRunsOncePerValueOfItsParameter) {
    Lesson swept = host_lesson();
    swept.id = "host-offsets";
    swept.title = "Offset reads on the host";
    swept.variants = {"offset_read/cpu-naive"};
    swept.sizes = {{16, 96}};
    swept.sweep = {{"offset", {0, 1, 8}}};
    MainWindow window({}, nullptr, {swept});
    window.setClosePromptAnswer(QMessageBox::Discard);
    if (!window.deviceProbed()) {
        ASSERT_TRUE(QSignalSpy(&window, &MainWindow::deviceReady).wait(30000));
    }
    LessonsPanel* panel = window.lessonsPanel();
    panel->showLesson("host-offsets");
    EXPECT_TRUE(panel->text()->toPlainText().contains("offset = 0,1,8"));

    QSignalSpy finished(&window, &MainWindow::runFinished);
    ASSERT_TRUE(window.runLesson(swept)) << window.errorText().toStdString();
    ASSERT_TRUE(finished.wait(120000));
    ASSERT_TRUE(wait_idle(window));

    const ResultsModel* model = window.resultsModel();
    std::set<long long> offsets;
    for (int row = 0; row < model->rowCount(); ++row) {
        const RunResult& r = model->result(row);
        EXPECT_EQ(r.variant, "offset_read/cpu-naive");
        EXPECT_EQ(r.status, Status::ok) << r.error;
        offsets.insert(r.params.at("offset"));
    }
    EXPECT_EQ(model->rowCount(), 3);
    EXPECT_EQ(offsets, (std::set<long long>{0, 1, 8}));
}
