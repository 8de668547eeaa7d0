// The application window: menus, docks and the glue between its parts. It computes nothing
// itself: files are decoded and pictures drawn off its thread (InputLoader, ImagePanes), runs
// happen on the worker thread (RunController), results are shown by the ResultsPage.
#pragma once

#include "generate_dialog.hpp"
#include "image_loader.hpp"

#include "coalesce/lessons.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>
#include <optional>

class QAction;
class QDockWidget;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QTableView;

namespace coalesce::gui {

class ImagePanes;
class InputLoader;
class InputPanel;
class LessonsPanel;
class MatrixView;
class RecentFiles;
class ResultsChartsWidget;
class ResultsModel;
class ResultsPage;
class RunController;
class RunPanel;
class WarpPicture;
struct LoadedInput;

class MainWindow : public QMainWindow {
    Q_OBJECT
    // What the close prompt answers without asking: NoButton (the default) asks the person;
    // Discard, Cancel or Save answer for them (tests, scripts).
    Q_PROPERTY(QMessageBox::StandardButton closePromptAnswer READ closePromptAnswer WRITE
                   setClosePromptAnswer)

public:
    // plugin_dirs: extra folders for coalesce::load_plugins. lessons: the Lessons panel's
    // entries (the course's, unless a test gives its own).
    explicit MainWindow(const QStringList& plugin_dirs = {}, QWidget* parent = nullptr,
                        const std::vector<Lesson>& lessons = coalesce::lessons());
    ~MainWindow() override;

    // Input, read off the window's thread: inputChanged() or inputFailed() says when it is done.
    // The previous input stays until then, and after a failure (whose reason is shown).
    void openFile(const QString& path);
    void generate(const GenerateRequest& request);
    // The sample image the app opens when nothing else is given; empty when none is found.
    static QString defaultSampleImage();

    // Runs. startRun returns false (with the reason shown) when the settings cannot run.
    bool startRun();
    void cancelRun();
    bool isRunning() const;
    bool hasDevice() const;
    bool deviceProbed() const;
    // Selects the lesson's variants, sizes and parameters in the run panel and runs them; false,
    // with the reason shown, when the lesson cannot run here.
    bool runLesson(const Lesson& lesson);

    // Files. Each returns false with the reason shown in the window.
    bool openResults(const QString& path);
    bool compareResults(const QString& a, const QString& b);
    bool saveResults(const QString& path);
    bool saveOutputImage(const QString& path);
    bool exportChart(const QString& path);
    // "bandwidth", "sweep", "compare", "parameter", "dram-model" or "sectors"
    void showChart(const QString& which);

    // An input is being read or pictures drawn; idle() is emitted when that ends.
    bool isBusy() const;

    bool hasUnsavedResults() const { return unsaved_; }
    QMessageBox::StandardButton closePromptAnswer() const { return close_prompt_answer_; }
    void setClosePromptAnswer(QMessageBox::StandardButton answer) { close_prompt_answer_ = answer; }

    // The About box's text, with the version.
    static QString aboutText();

    // For tests and scripts.
    const std::optional<LoadedImage>& input() const { return input_; }
    QString errorText() const;  // the message shown in the window's error bar; empty when hidden
    QString logText() const;
    ResultsModel* resultsModel() const;
    QTableView* resultsView() const;
    ResultsChartsWidget* charts() const;
    ResultsPage* resultsPage() const { return results_page_; }
    RunPanel* runPanel() const { return run_panel_; }
    InputPanel* inputPanel() const { return input_panel_; }
    RunController* runController() const { return runs_; }
    ImagePanes* imagePanes() const { return panes_; }
    LessonsPanel* lessonsPanel() const { return lessons_panel_; }
    WarpPicture* warpPicture() const { return warp_; }
    MatrixView* inputView() const;
    MatrixView* outputView() const;
    MatrixView* differenceView() const;
    const Registry& registry() const { return registry_; }
    // Selects row `row` of the results model (model order) and shows its output.
    void selectResult(int row);

signals:
    void inputChanged();
    void inputFailed(const QString& message);
    void deviceReady();
    void runFinished(bool cancelled);
    void runFailed(const QString& message);
    void errorShown(const QString& message);
    void picturesShown();                         // the selected result's pictures are on screen
    void idle();                                  // nothing is being read or drawn any more
    void closePrompted(const QString& question);  // the close prompt was asked (or answered)

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // Building the window (main_window_layout.cpp).
    void createActions();
    void createMenus();
    void createLessonsMenu();
    QWidget* createCentralArea();
    void createDocks();
    void createStatusBar();
    // Its state (main_window.cpp).
    void restoreSettings();
    void saveSettings() const;
    bool confirmDiscardResults(const QString& question);
    void emitIdleIfDone();

    // Starts a run of the run panel's settings, `adjust` (when set) changing the config first.
    bool startRun(const std::function<void(RunConfig&)>& adjust);

    // Messages.
    void showError(const QString& message);
    void clearError();
    void log(const QString& line);

    // Input (main_window_input.cpp).
    void setInput(const LoadedInput& input, const QString& path);
    void chooseAndOpen();
    void chooseAndGenerate();
    void reloadWithChannel();
    QString lastFolder() const;
    void rememberFolder(const QString& file);

    // Running (main_window_run.cpp).
    void connectRuns();
    void onDeviceProbed(int count, const DeviceInfo& device, const QString& summary);
    void onRunStarted(const RunConfig& config);
    void onFinished(const RunRecord& record);
    void onFailed(const QString& message);
    void setRunning(bool running);
    void showResult(int row);
    void showNoOutputs(const RunRecord& record, const QString& why);

    // Results files and images (main_window_files.cpp).
    void chooseAndOpenResults();
    void chooseAndCompare();
    bool chooseAndSaveResults();
    void chooseAndSaveOutputImage();
    void chooseAndExportChart();

    Registry registry_;
    std::vector<PluginReport> plugin_reports_;
    std::vector<Lesson> lessons_;
    bool unsaved_ = false;
    QMessageBox::StandardButton close_prompt_answer_ = QMessageBox::NoButton;
    std::optional<LoadedImage> input_;
    GenerateRequest last_generate_;

    RunController* runs_ = nullptr;
    InputLoader* loader_ = nullptr;
    InputPanel* input_panel_ = nullptr;
    RunPanel* run_panel_ = nullptr;
    ImagePanes* panes_ = nullptr;
    ResultsPage* results_page_ = nullptr;
    LessonsPanel* lessons_panel_ = nullptr;
    WarpPicture* warp_ = nullptr;
    QDockWidget* lessons_dock_ = nullptr;
    QLabel* error_bar_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QLabel* device_label_ = nullptr;
    QLabel* cursor_label_ = nullptr;
    QProgressBar* progress_ = nullptr;
    RecentFiles* recent_ = nullptr;

    QAction* open_action_ = nullptr;
    QAction* generate_action_ = nullptr;
    QAction* open_results_action_ = nullptr;
    QAction* compare_action_ = nullptr;
    QAction* save_results_action_ = nullptr;
    QAction* save_image_action_ = nullptr;
    QAction* export_chart_action_ = nullptr;
    QAction* quit_action_ = nullptr;
    QAction* run_action_ = nullptr;
    QAction* cancel_action_ = nullptr;
    QAction* zoom_in_action_ = nullptr;
    QAction* zoom_out_action_ = nullptr;
    QAction* fit_action_ = nullptr;
    QAction* experiments_action_ = nullptr;
    QAction* counters_action_ = nullptr;
    QMenu* recent_menu_ = nullptr;
    QMenu* view_menu_ = nullptr;
};

}  // namespace coalesce::gui
