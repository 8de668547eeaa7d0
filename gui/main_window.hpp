// The application window: input, run settings, image views, results table and charts. All CUDA
// work happens in a RunWorker on its own thread; this class only sends configs and shows values.
#pragma once

#include "engine_metatypes.hpp"
#include "generate_dialog.hpp"
#include "image_loader.hpp"

#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <QMainWindow>
#include <QMessageBox>
#include <QThread>

#include <optional>

class QAction;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace coalesce::gui {

class InputPanel;
class MatrixView;
class RecentFiles;
class ResultsChartsWidget;
class ResultsModel;
class RunPanel;
class RunWorker;

class MainWindow : public QMainWindow {
    Q_OBJECT
    // What closing with unsaved results answers without asking: NoButton (the default) asks the
    // person; Discard, Cancel or Save answer for them (tests, scripts).
    Q_PROPERTY(QMessageBox::StandardButton closePromptAnswer READ closePromptAnswer WRITE setClosePromptAnswer)

public:
    // plugin_dirs: extra folders for coalesce::load_plugins.
    explicit MainWindow(const QStringList& plugin_dirs = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Input. Each returns false and shows the reason in the window, keeping the previous input.
    bool openFile(const QString& path);
    void generate(const GenerateRequest& request);
    // The sample image the app opens when nothing else is given; empty when none is found.
    static QString defaultSampleImage();

    // Runs. startRun returns false (with the reason shown) when the settings cannot run.
    bool startRun();
    void cancelRun();
    bool isRunning() const { return running_; }
    bool hasDevice() const { return device_count_ > 0; }
    bool deviceProbed() const { return device_probed_; }

    // Files. Each returns false with the reason shown in the window.
    bool openResults(const QString& path);
    bool compareResults(const QString& a, const QString& b);
    bool saveResults(const QString& path);
    bool saveOutputImage(const QString& path);
    bool exportChart(const QString& path);
    void showChart(const QString& which);  // "bandwidth", "sweep" or "compare"

    bool hasUnsavedResults() const { return unsaved_; }
    QMessageBox::StandardButton closePromptAnswer() const { return close_prompt_answer_; }
    void setClosePromptAnswer(QMessageBox::StandardButton answer) { close_prompt_answer_ = answer; }

    // For tests and scripts.
    const std::optional<LoadedImage>& input() const { return input_; }
    QString errorText() const;  // the message shown in the window's error bar; empty when hidden
    QString logText() const;
    ResultsModel* resultsModel() const { return results_model_; }
    QTableView* resultsView() const { return results_view_; }
    ResultsChartsWidget* charts() const { return charts_; }
    RunPanel* runPanel() const { return run_panel_; }
    MatrixView* inputView() const { return input_view_; }
    MatrixView* outputView() const { return output_view_; }
    MatrixView* differenceView() const { return difference_view_; }
    const Registry& registry() const { return registry_; }
    // Selects row `row` of the results model (model order) and shows its output.
    void selectResult(int row);

signals:
    void inputChanged();
    void deviceReady();
    void runFinished(bool cancelled);
    void runFailed(const QString& message);
    void errorShown(const QString& message);
    void requestRun(const coalesce::RunConfig& config, quint64 run_id);  // to the worker

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // Building the window (main_window.cpp).
    void createActions();
    void createMenus();
    QWidget* createCentralArea();
    void createDocks();
    void createStatusBar();
    void restoreSettings();
    void saveSettings() const;
    bool confirmDiscardResults();

    // Messages.
    void showError(const QString& message);
    void clearError();
    void log(const QString& line);

    // Input (main_window_input.cpp).
    void setInput(LoadedImage image);
    void chooseAndOpen();
    void chooseAndGenerate();
    void reloadWithChannel();
    QString lastFolder() const;
    void rememberFolder(const QString& file);

    // Running (main_window_run.cpp).
    void startWorker();
    void onDeviceProbed(int count, const DeviceInfo& device, const QString& summary);
    void onProgress(const Progress& progress);
    void onResult(const RunResult& result);
    void onFinished(const RunRecord& record);
    void onFailed(const QString& message);
    void setRunning(bool running);
    void showSelectedResult();
    void showRunInput(const RunResult& result);

    // Results files and images (main_window_files.cpp).
    void chooseAndOpenResults();
    void chooseAndCompare();
    bool chooseAndSaveResults();
    void chooseAndSaveOutputImage();
    void chooseAndExportChart();

    Registry registry_;
    std::vector<PluginReport> plugin_reports_;
    QThread worker_thread_;
    RunWorker* worker_ = nullptr;  // lives on worker_thread_
    int device_count_ = 0;
    bool device_probed_ = false;
    DeviceInfo device_;
    bool running_ = false;
    quint64 run_id_ = 0;  // the latest run sent to the worker
    bool unsaved_ = false;
    QMessageBox::StandardButton close_prompt_answer_ = QMessageBox::NoButton;
    std::optional<LoadedImage> input_;
    GenerateRequest last_generate_;
    std::shared_ptr<const Matrix> run_input_;  // a sweep's random input, made again for the view
    std::uint64_t run_input_seed_ = 0;

    InputPanel* input_panel_ = nullptr;
    RunPanel* run_panel_ = nullptr;
    MatrixView* input_view_ = nullptr;
    MatrixView* output_view_ = nullptr;
    MatrixView* difference_view_ = nullptr;
    MatrixView* active_view_ = nullptr;  // the view zoom shortcuts act on
    ResultsModel* results_model_ = nullptr;
    QSortFilterProxyModel* results_proxy_ = nullptr;
    QTableView* results_view_ = nullptr;
    ResultsChartsWidget* charts_ = nullptr;
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
    QMenu* recent_menu_ = nullptr;
    QMenu* view_menu_ = nullptr;
};

}  // namespace coalesce::gui
