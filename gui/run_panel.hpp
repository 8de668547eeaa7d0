// The run settings: operations and the element type they run on, variants (classic ones by memory
// space, tuned ones in their own group, experiments only on request; tooltips from each variant's
// own description), filter radius, border mode, repetitions, the operations' named parameters (a
// value or a sweep each) and the sizes to run.
#pragma once

#include "coalesce/lessons.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"

#include <QSettings>
#include <QStringList>
#include <QWidget>

#include <map>
#include <optional>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QRadioButton;
class QSpinBox;
class QTreeWidget;
class QTreeWidgetItem;

namespace coalesce::gui {

class ParamInputs;

class RunPanel : public QWidget {
    Q_OBJECT
public:
    // The registry must outlive the panel.
    explicit RunPanel(const Registry& registry, QWidget* parent = nullptr);

    // Without a GPU the GPU variants are shown disabled, the default sizes are the CPU ones and
    // `why` (the reason there is no device) is shown above the settings.
    void setDeviceAvailable(bool have_gpu, const QString& why = {});
    // The loaded matrix's shape, shown on the "loaded input" choice; nullopt: nothing loaded.
    void setInputShape(std::optional<Shape> shape);
    // The loaded input's own element type, which "as opened" runs (random data: f32).
    void setInputType(ElemType type);
    // The loaded input's channels: 1, or 3 / 4 for a colour image opened with its colour kept.
    // Its runs are then colour runs: the variants that take that many channels are offered (the
    // colour-only ones among them) and the others hidden; grey runs hide the colour-only ones.
    void setInputChannels(int channels);
    // The channels the config runs: the loaded input's, or 1 for random sizes.
    int runChannels() const;
    // The element type control: nullopt is "as opened" (the loaded input's own type).
    std::optional<ElemType> chosenType() const;
    void setChosenType(std::optional<ElemType> type);
    // Locks the settings while a run is in progress.
    void setRunning(bool running);

    // A config from the current settings, without the input matrix (the window adds it when
    // useLoadedInput()). nullopt with *error set when the settings cannot run.
    std::optional<RunConfig> makeConfig(QString* error) const;
    bool useLoadedInput() const;

    QStringList checkedOps() const;
    void setCheckedOps(const QStringList& ops);
    QStringList checkedVariants() const;  // ids, including those of unchecked operations
    void setCheckedVariants(const QStringList& ids);
    void setSweep(bool sweep, const QString& sizes = {});
    // Radius, border and the named parameters (one value each; the others back to default).
    void setParams(const OpParams& params);
    // The named parameters' inputs (offset, stride, ...: one value or a sweep each).
    ParamInputs* paramInputs() const { return param_inputs_; }
    // Every shown parameter input can run (a bad one is red and keeps Run disabled).
    bool parametersValid() const;

    // Experiments (tuning ideas kept because they lost) are listed, and run when checked, only
    // while this is on.
    void setShowExperiments(bool show);
    bool showExperiments() const { return show_experiments_; }

    // After the timed run, one profiled launch of each verified GPU run under Nsight Compute
    // (hardware counters); off by default.
    bool countersRequested() const;
    void setCountersRequested(bool on);

    // Chooses exactly the lesson's variants (and their operations), sizes and parameters.
    void applyLesson(const Lesson& lesson);

    void saveSettings(QSettings& settings) const;
    void restoreSettings(const QSettings& settings);

signals:
    void selectionChanged();
    void experimentsShownChanged(bool shown);
    void parametersValidChanged(bool valid);
    void countersRequestedChanged(bool on);

private:
    QWidget* makeOperationsBox();
    QWidget* makeTypeRow(QWidget* parent);
    // The types the config runs, from the control and the input. As opened: the input's own type,
    // which runs the six matrix operations (ticked f32-only operations are left out), or f32 when
    // only f32-only operations are ticked, or for random sizes.
    std::vector<ElemType> runTypes() const;
    QWidget* makeVariantsBox();
    QTreeWidgetItem* addGroup(const QString& text, const QString& tooltip, const QString& name);
    void addVariantItem(QTreeWidgetItem* group, const Variant& v);
    QWidget* makeParametersBox();
    QWidget* makeSizesBox();
    QWidget* makeCountersBox();
    void updateVariantVisibility();
    std::vector<const Variant*> selectedVariants() const;

    const Registry& registry_;
    bool have_gpu_ = false;
    bool variants_restored_ = false;  // the variant choice came from the settings
    bool show_experiments_ = false;
    QCheckBox* experiments_box_ = nullptr;
    std::map<Op, QCheckBox*> op_boxes_;
    QTreeWidget* tree_ = nullptr;
    std::map<QString, QTreeWidgetItem*> variant_items_;  // by id
    QSpinBox* radius_ = nullptr;
    QComboBox* border_ = nullptr;
    QSpinBox* reps_ = nullptr;
    ParamInputs* param_inputs_ = nullptr;
    QRadioButton* loaded_input_ = nullptr;
    QRadioButton* sweep_ = nullptr;
    QLineEdit* sizes_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* device_note_ = nullptr;
    QCheckBox* counters_ = nullptr;
    QComboBox* type_ = nullptr;
    std::optional<Shape> input_shape_;
    ElemType input_type_ = ElemType::f32;
    int input_channels_ = 1;
};

// "1024x1024,2048x2048" from shapes, the format parse_sizes reads.
QString format_sizes(const std::vector<Shape>& sizes);

}  // namespace coalesce::gui
