#include "run_panel.hpp"

#include "param_inputs.hpp"

#include "coalesce/typed_run.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <stdexcept>

namespace coalesce::gui {
namespace {

QString qs(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// Shown on each memory-space group: what that kind of memory is.
QString space_tooltip(const QString& space) {
    if (space == space::host)
        return "Host memory: the CPU variants, timed with a host clock. They run on any machine.";
    if (space == space::global)
        return "Global memory from cudaMalloc: dense rows, every access goes through L2 to DRAM.";
    if (space == space::pitched)
        return "Global memory from cudaMallocPitch: each row starts on an aligned address.";
    if (space == space::shared)
        return "Tiles staged through on-chip shared memory, so both global reads and writes "
               "coalesce.";
    if (space == space::texture_array)
        return "Texture objects over a cudaArray: a 2-D cache layout and hardware border modes.";
    if (space == space::texture_pitched) return "Texture objects over pitched global memory.";
    return "Variants in the memory space \"" + space + "\".";
}

// The order memory spaces are listed in; spaces a plugin invents come after these.
int space_rank(const std::string& space) {
    static const std::vector<std::string> order = {space::host,          space::global,
                                                   space::pitched,       space::shared,
                                                   space::texture_array, space::texture_pitched};
    const auto it = std::find(order.begin(), order.end(), space);
    return it == order.end() ? static_cast<int>(order.size())
                             : static_cast<int>(it - order.begin());
}

constexpr int kIdRole = Qt::UserRole;
constexpr int kGroupRole = Qt::UserRole + 1;  // a memory space, "tuned" or "experiment"

// Each border mode in words; "mirror" is the one people guess wrong.
QString border_tooltip(Border b) {
    if (b == Border::clamp) return "clamp: the edge value repeats (aaa|abcd|ddd)";
    if (b == Border::zero) return "zero: outside reads 0 (000|abcd|000)";
    if (b == Border::wrap) return "wrap: periodic (bcd|abcd|abc)";
    return "mirror: reflected with the edge repeated (dcba|abcd|dcba): OpenCV's BORDER_REFLECT, "
           "CUDA's cudaAddressModeMirror (not BORDER_REFLECT_101, which skips the edge)";
}

}  // namespace

QString format_sizes(const std::vector<Shape>& sizes) {
    QStringList parts;
    for (const Shape& s : sizes) parts << QString("%1x%2").arg(s.rows).arg(s.cols);
    return parts.join(',');
}

RunPanel::RunPanel(const Registry& registry, QWidget* parent)
    : QWidget(parent), registry_(registry) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    device_note_ = new QLabel(this);
    device_note_->setObjectName("deviceNote");
    device_note_->setWordWrap(true);
    device_note_->setStyleSheet(
        "QLabel { background: #fff3cd; color: #664d03; border: 1px solid #ffe69c; padding: 4px; }");
    device_note_->hide();
    layout->addWidget(device_note_);
    layout->addWidget(makeOperationsBox());
    layout->addWidget(makeVariantsBox(), 1);
    layout->addWidget(makeParametersBox());
    param_inputs_ = new ParamInputs(this);
    connect(param_inputs_, &ParamInputs::validityChanged, this, &RunPanel::parametersValidChanged);
    layout->addWidget(param_inputs_);
    layout->addWidget(makeSizesBox());
    layout->addWidget(makeCountersBox());
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    layout->addWidget(summary_);
    connect(this, &RunPanel::selectionChanged, this, [this] {
        const auto n = selectedVariants().size();
        QString text = n == 0 ? "No variant selected."
                              : QString("%1 variant%2 selected.").arg(n).arg(n == 1 ? "" : "s");
        const ElemType type = runTypes().front();
        QStringList left_out;  // ticked operations the chosen type does not run
        for (const auto& [op, box] : op_boxes_)
            if (type != ElemType::f32 && box->isChecked() && !typed::has_typed_semantics(op))
                left_out << qs(op_name(op));
        if (!left_out.isEmpty())
            text += QString(
                        " %1 runs the six matrix operations; %2 take%3 f32 only and are left "
                        "out.")
                        .arg(qs(elem_type_name(type)), left_out.join(", "),
                             left_out.size() == 1 ? "s" : "");
        if (const int channels = runChannels(); channels > 1)
            text += type == ElemType::f32
                        ? QString(
                              " The input is colour (%1 channels): f32 runs take one channel, "
                              "so run it as u8 or u16, or read it as luminance.")
                              .arg(channels)
                        : QString(" Colour: %1 channels, each on its own.").arg(channels);
        summary_->setText(text);
    });
    setDeviceAvailable(false);
    updateVariantVisibility();
    emit selectionChanged();
}

QWidget* RunPanel::makeOperationsBox() {
    auto* box = new QGroupBox("Operations", this);
    auto* grid = new QGridLayout(box);
    int i = 0;
    for (Op op : all_ops()) {
        auto* check = new QCheckBox(qs(op_name(op)), box);
        check->setChecked(true);
        check->setObjectName("op_" + qs(op_name(op)));
        check->setToolTip(qs(describe(op).summary));
        connect(check, &QCheckBox::toggled, this, [this] {
            updateVariantVisibility();
            emit selectionChanged();
        });
        op_boxes_[op] = check;
        grid->addWidget(check, i / 2, i % 2);
        ++i;
    }
    grid->addWidget(makeTypeRow(box), (i + 1) / 2, 0, 1, 2);
    return box;
}

// "as opened" keeps the input's type; the others convert it the one way the window offers:
// u8 <-> u16 by scaling (x257, /257 rounded), to f32 as values, from f32 with the values kept
// (refused unless every value is an integer the type holds).
QWidget* RunPanel::makeTypeRow(QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    type_ = new QComboBox(row);
    type_->setObjectName("elemType");
    type_->addItem("as opened", QString());
    for (ElemType t : all_elem_types())
        type_->addItem(qs(elem_type_name(t)), qs(elem_type_name(t)));
    type_->setToolTip(
        "The element type the operations run on. As opened: the input's own (an 8-bit image as u8, "
        "a 16-bit one as u16, float files and generated matrices as f32; random sizes as f32). "
        "Another type converts the input: u8 <-> u16 scaled (x257, /257 rounded), to f32 with the "
        "values kept, from f32 with the values kept (refused unless they are integers the type "
        "holds). u8 and u16 run copy, transpose, row_sums, col_sums, filter_x and filter_y.");
    auto* label = new QLabel("Element &type:", row);
    label->setBuddy(type_);
    layout->addWidget(label);
    layout->addWidget(type_, 1);
    connect(type_, &QComboBox::currentIndexChanged, this, [this] {
        updateVariantVisibility();
        emit selectionChanged();
    });
    return row;
}

void RunPanel::setInputType(ElemType type) {
    input_type_ = type;
    emit selectionChanged();
}

void RunPanel::setInputChannels(int channels) {
    input_channels_ = channels;
    updateVariantVisibility();
    emit selectionChanged();
}

int RunPanel::runChannels() const {
    return loaded_input_ && useLoadedInput() ? input_channels_ : 1;
}

std::optional<ElemType> RunPanel::chosenType() const {
    return parse_elem_type(type_->currentData().toString().toStdString());
}

void RunPanel::setChosenType(std::optional<ElemType> type) {
    type_->setCurrentIndex(type ? type_->findData(qs(elem_type_name(*type))) : 0);
}

std::vector<ElemType> RunPanel::runTypes() const {
    if (const auto chosen = chosenType()) return {*chosen};
    if (!useLoadedInput()) return {ElemType::f32};
    // As opened, with only f32 operations (the course's access patterns) ticked: they take f32
    // only, so the image runs on the float path as they always did.
    const bool any_typed = std::any_of(op_boxes_.begin(), op_boxes_.end(), [](const auto& entry) {
        return entry.second->isChecked() && typed::has_typed_semantics(entry.first);
    });
    return {any_typed ? input_type_ : ElemType::f32};
}

QTreeWidgetItem* RunPanel::addGroup(const QString& text, const QString& tooltip,
                                    const QString& name) {
    auto* group = new QTreeWidgetItem(tree_, {text});
    group->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable | Qt::ItemIsAutoTristate);
    group->setToolTip(0, tooltip);
    group->setData(0, kGroupRole, name);
    group->setCheckState(0, Qt::Checked);
    return group;
}

void RunPanel::addVariantItem(QTreeWidgetItem* group, const Variant& v) {
    const QString id = qs(v.info.id);
    auto* item = new QTreeWidgetItem(group, {id});
    item->setData(0, kIdRole, id);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    item->setCheckState(0, Qt::Checked);
    QString tip = "<b>" + id.toHtmlEscaped() + "</b> (" + qs(tier_name(v.info.tier)) + ", " +
                  qs(v.info.memory_space).toHtmlEscaped() + ", " + (v.info.gpu ? "GPU" : "CPU") +
                  ")<br>" + qs(v.info.description).toHtmlEscaped();
    if (!v.info.kernel.empty())
        tip += "<br>kernel: <tt>" + qs(v.info.kernel).toHtmlEscaped() + "</tt>";
    if (v.info.origin != "built-in")
        tip += "<br><i>from " + qs(v.info.origin).toHtmlEscaped() + "</i>";
    item->setToolTip(0, tip);
    variant_items_[id] = item;
}

QWidget* RunPanel::makeVariantsBox() {
    auto* box = new QGroupBox("Variants", this);
    auto* layout = new QVBoxLayout(box);
    tree_ = new QTreeWidget(box);
    tree_->setObjectName("variantTree");
    tree_->setHeaderHidden(true);
    tree_->setColumnCount(1);
    tree_->setUniformRowHeights(true);
    tree_->setMinimumHeight(120);  // a few variants in view even when the settings scroll
    // Ids are never elided: the column is as wide as the longest one and the tree scrolls.
    tree_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    tree_->header()->setStretchLastSection(false);
    tree_->setTextElideMode(Qt::ElideNone);
    tree_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

    // The lessons first, by memory space; then what the hardware can do; the experiments last.
    std::vector<std::string> spaces;
    for (const Variant& v : registry_.variants())
        if (v.info.tier == Tier::classic &&
            std::find(spaces.begin(), spaces.end(), v.info.memory_space) == spaces.end())
            spaces.push_back(v.info.memory_space);
    std::stable_sort(spaces.begin(), spaces.end(), [](const std::string& a, const std::string& b) {
        return space_rank(a) < space_rank(b);
    });
    for (const std::string& space : spaces) {
        QTreeWidgetItem* group = addGroup(qs(space), space_tooltip(qs(space)), qs(space));
        for (const Variant& v : registry_.variants())
            if (v.info.tier == Tier::classic && v.info.memory_space == space)
                addVariantItem(group, v);
    }
    const auto add_tier = [this](Tier tier, const QString& text, const QString& tooltip) {
        QTreeWidgetItem* group = nullptr;
        for (const Variant& v : registry_.variants()) {
            if (v.info.tier != tier) continue;
            if (!group) group = addGroup(text, tooltip, qs(tier_name(tier)));
            addVariantItem(group, v);
        }
    };
    add_tier(Tier::tuned, "tuned: what the hardware can do",
             "Tuned variants: every trick that pays on this hardware, to show how close to the "
             "device's copy bandwidth each operation can get. The lessons are the groups above.");
    add_tier(Tier::experiment, "experiments: ideas that lost",
             "Tuning ideas kept because they lost; each description says why.");
    tree_->expandAll();
    connect(tree_, &QTreeWidget::itemChanged, this, [this] { emit selectionChanged(); });
    layout->addWidget(tree_);

    experiments_box_ = new QCheckBox("Show experiments (ideas that lost)", box);
    experiments_box_->setObjectName("showExperiments");
    experiments_box_->setToolTip(
        "Experiments are tuning ideas kept because they lost: hidden, "
        "and not run, unless shown.");
    connect(experiments_box_, &QCheckBox::toggled, this, &RunPanel::setShowExperiments);
    layout->addWidget(experiments_box_);
    return box;
}

QWidget* RunPanel::makeParametersBox() {
    auto* box = new QGroupBox("Parameters", this);
    auto* form = new QFormLayout(box);
    radius_ = new QSpinBox(box);
    radius_->setObjectName("radius");
    radius_->setRange(0, kMaxRadius);
    radius_->setValue(OpParams{}.radius);
    radius_->setToolTip("Filters: each output is the mean of the 2r+1 neighbours along one axis.");
    form->addRow("Filter radius", radius_);
    border_ = new QComboBox(box);
    border_->setObjectName("border");
    QStringList border_tips;
    for (Border b : all_borders()) {
        border_->addItem(qs(border_name(b)));
        border_->setItemData(border_->count() - 1, border_tooltip(b), Qt::ToolTipRole);
        border_tips << border_tooltip(b);
    }
    border_->setToolTip(
        "What a filter reads outside the matrix. Variants that do not offer the "
        "mode are skipped.\n" +
        border_tips.join('\n'));
    form->addRow("Border", border_);
    reps_ = new QSpinBox(box);
    reps_->setObjectName("reps");
    reps_->setRange(1, 10000);
    reps_->setValue(RunConfig{}.reps);
    reps_->setToolTip("Timed launches per variant; the table shows their median.");
    form->addRow("Repetitions", reps_);
    return box;
}

QWidget* RunPanel::makeSizesBox() {
    auto* box = new QGroupBox("Sizes", this);
    auto* layout = new QVBoxLayout(box);
    loaded_input_ = new QRadioButton("Loaded input", box);
    loaded_input_->setObjectName("useLoadedInput");
    sweep_ = new QRadioButton("Sweep of sizes (rows x cols, …):", box);
    sweep_->setObjectName("useSweep");
    sizes_ = new QLineEdit(box);
    sizes_->setObjectName("sizes");
    sizes_->setToolTip(
        "Random matrices of these sizes, comma separated, e.g. 1024x1024,4096x4096,8000x6000.");
    loaded_input_->setChecked(true);
    sizes_->setEnabled(false);
    connect(sweep_, &QRadioButton::toggled, sizes_, &QLineEdit::setEnabled);
    // Random sizes run one channel; the loaded input may be colour.
    connect(sweep_, &QRadioButton::toggled, this, [this] {
        updateVariantVisibility();
        emit selectionChanged();
    });
    layout->addWidget(loaded_input_);
    layout->addWidget(sweep_);
    layout->addWidget(sizes_);
    return box;
}

// One line, so the variant tree keeps its room; the tooltip says what the pass does.
QWidget* RunPanel::makeCountersBox() {
    counters_ = new QCheckBox("Hardware counters after the run (Nsight Compute)", this);
    counters_->setObjectName("hardwareCounters");
    counters_->setToolTip(
        "After the timed run, one profiled launch of each verified GPU run: coalesce-bench (next "
        "to this program) runs once more under Nsight Compute's ncu. DRAM bytes against the "
        "model, sectors per request, bank conflicts, hit rates and occupancy join each result; "
        "the timings are not touched. Where counters cannot be had (no GPU, no ncu, no "
        "permission to profile), each run says why.");
    connect(counters_, &QCheckBox::toggled, this, &RunPanel::countersRequestedChanged);
    return counters_;
}

bool RunPanel::countersRequested() const { return counters_->isChecked(); }

void RunPanel::setCountersRequested(bool on) { counters_->setChecked(on); }

void RunPanel::setDeviceAvailable(bool have_gpu, const QString& why) {
    // Short enough to read at a glance; the full reason is the tooltip.
    device_note_->setVisible(!have_gpu && !why.isEmpty());
    device_note_->setText(
        "<b>No CUDA device</b>: GPU variants are greyed out, the CPU variants run.");
    device_note_->setToolTip(why);
    const QString old_default = format_sizes(default_sizes(have_gpu_));
    have_gpu_ = have_gpu;
    if (sizes_->text().isEmpty() || sizes_->text() == old_default)
        sizes_->setText(format_sizes(default_sizes(have_gpu)));
    for (const Variant& v : registry_.variants()) {
        QTreeWidgetItem* item = variant_items_.at(qs(v.info.id));
        const bool usable = have_gpu || !v.info.gpu;
        item->setDisabled(!usable);
        // With a GPU the host variants start unchecked (they are slow at GPU sizes), unless the
        // person's own choice was restored.
        if (have_gpu && !v.info.gpu && !variants_restored_) item->setCheckState(0, Qt::Unchecked);
        if (!usable) {
            QString tip = item->toolTip(0);
            if (!tip.contains("No CUDA device"))
                item->setToolTip(0, tip + "<br><b>No CUDA device: not runnable here.</b>");
        }
    }
    emit selectionChanged();
}

void RunPanel::setInputShape(std::optional<Shape> shape) {
    input_shape_ = shape;
    loaded_input_->setText(shape
                               ? QString("Loaded input (%1 x %2)").arg(shape->rows).arg(shape->cols)
                               : QString("Loaded input (none loaded)"));
}

void RunPanel::setRunning(bool running) {
    for (QWidget* w : findChildren<QGroupBox*>()) w->setEnabled(!running);
    counters_->setEnabled(!running);
}

void RunPanel::updateVariantVisibility() {
    std::vector<Op> checked;
    for (Op op : all_ops())
        if (op_boxes_.at(op)->isChecked()) checked.push_back(op);
    param_inputs_->setOperations(checked);
    // Only variants that take the run's channels: a grey run hides the colour-only ones
    // (interleaved against planar), a colour run the grey-only ones, which the runner would skip.
    const int channels = runChannels();
    for (const Variant& v : registry_.variants())
        variant_items_.at(qs(v.info.id))
            ->setHidden(!op_boxes_.at(v.info.op)->isChecked() ||
                        (v.info.tier == Tier::experiment && !show_experiments_) ||
                        !v.info.takes_channels(channels));
    for (int i = 0; i < tree_->topLevelItemCount(); ++i) {
        QTreeWidgetItem* group = tree_->topLevelItem(i);
        bool any = false;
        for (int c = 0; c < group->childCount(); ++c) any = any || !group->child(c)->isHidden();
        group->setHidden(!any);
    }
}

std::vector<const Variant*> RunPanel::selectedVariants() const {
    std::vector<const Variant*> out;
    for (const Variant& v : registry_.variants()) {
        const QTreeWidgetItem* item = variant_items_.at(qs(v.info.id));
        if (item->checkState(0) == Qt::Checked && !item->isDisabled() && !item->isHidden() &&
            op_boxes_.at(v.info.op)->isChecked())
            out.push_back(&v);
    }
    return out;
}

bool RunPanel::useLoadedInput() const { return loaded_input_->isChecked(); }

std::optional<RunConfig> RunPanel::makeConfig(QString* error) const {
    RunConfig config;
    config.types = runTypes();
    config.channels = runChannels();
    const bool typed = config.types.front() != ElemType::f32;
    // u8 and u16 run the six operations with typed semantics; the lessons' stay f32.
    for (Op op : all_ops())
        if (op_boxes_.at(op)->isChecked() && (!typed || typed::has_typed_semantics(op)))
            config.ops.push_back(op);
    if (config.ops.empty()) {
        *error = typed ? QString(
                             "%1 runs copy, transpose, row_sums, col_sums, filter_x and "
                             "filter_y: choose one of them, or the f32 type.")
                             .arg(qs(elem_type_name(config.types.front())))
                       : QString("Choose at least one operation.");
        return std::nullopt;
    }
    for (const Variant* v : selectedVariants()) {
        if (typed && !typed::has_typed_semantics(v->info.op)) continue;
        config.variants.push_back(v->info.id);
        if (!v->info.gpu) config.include_cpu = true;
    }
    if (config.variants.empty()) {
        *error = have_gpu_ ? "Choose at least one variant of the chosen operations."
                           : "Choose at least one CPU variant (host): there is no CUDA device.";
        return std::nullopt;
    }
    if (!param_inputs_->isValid()) {
        *error = param_inputs_->problem();
        if (!error->isEmpty()) (*error)[0] = (*error)[0].toUpper();
        return std::nullopt;
    }
    config.sweep = param_inputs_->axes();
    config.params.radius = radius_->value();
    config.params.border = all_borders().at(static_cast<std::size_t>(border_->currentIndex()));
    config.reps = reps_->value();
    if (useLoadedInput()) {
        if (!input_shape_) {
            *error =
                "Nothing is loaded: open an image, generate a matrix, or choose a sweep of sizes.";
            return std::nullopt;
        }
    } else {
        try {
            config.sizes = parse_sizes(sizes_->text().toStdString());
        } catch (const std::exception& e) {
            *error = QString("Sizes: %1").arg(e.what());
            return std::nullopt;
        }
        if (config.sizes.empty()) {
            *error = "Sizes: give at least one size, e.g. 1024x1024.";
            return std::nullopt;
        }
    }
    return config;
}

QStringList RunPanel::checkedOps() const {
    QStringList out;
    for (Op op : all_ops())  // the table's order, not the map's
        if (const auto it = op_boxes_.find(op); it != op_boxes_.end() && it->second->isChecked())
            out << qs(op_name(op));
    return out;
}

void RunPanel::setCheckedOps(const QStringList& ops) {
    for (const auto& [op, box] : op_boxes_) box->setChecked(ops.contains(qs(op_name(op))));
}

QStringList RunPanel::checkedVariants() const {
    QStringList out;
    for (const auto& [id, item] : variant_items_)
        if (item->checkState(0) == Qt::Checked) out << id;
    return out;
}

void RunPanel::setCheckedVariants(const QStringList& ids) {
    for (const auto& [id, item] : variant_items_)
        item->setCheckState(0, ids.contains(id) ? Qt::Checked : Qt::Unchecked);
}

void RunPanel::setSweep(bool sweep, const QString& sizes) {
    (sweep ? sweep_ : loaded_input_)->setChecked(true);
    if (!sizes.isEmpty()) sizes_->setText(sizes);
}

bool RunPanel::parametersValid() const { return param_inputs_->isValid(); }

void RunPanel::setParams(const OpParams& params) {
    param_inputs_->setValues(params.values);
    radius_->setValue(params.radius);
    const auto& borders = all_borders();
    const auto it = std::find(borders.begin(), borders.end(), params.border);
    if (it != borders.end()) border_->setCurrentIndex(static_cast<int>(it - borders.begin()));
}

void RunPanel::setShowExperiments(bool show) {
    if (show == show_experiments_) return;
    show_experiments_ = show;
    {
        const QSignalBlocker block(experiments_box_);
        experiments_box_->setChecked(show);
    }
    updateVariantVisibility();
    emit experimentsShownChanged(show);
    emit selectionChanged();
}

void RunPanel::applyLesson(const Lesson& lesson) {
    QStringList ops, ids;
    bool experiment = false;
    for (const std::string& id : lesson.variants) {
        const Variant* v = registry_.find(id);
        if (!v) continue;
        ids << qs(id);
        if (!ops.contains(qs(op_name(v->info.op)))) ops << qs(op_name(v->info.op));
        experiment = experiment || v->info.tier == Tier::experiment;
    }
    setCheckedOps(ops);
    setCheckedVariants(ids);
    if (experiment) setShowExperiments(true);
    setParams(lesson.params);
    setSweep(true, format_sizes(lesson.sizes));
    setChosenType(std::nullopt);  // lessons are float32 experiments: random sizes run as f32
    updateVariantVisibility();
    emit selectionChanged();
}

void RunPanel::saveSettings(QSettings& settings) const {
    settings.setValue("run/ops", checkedOps());
    settings.setValue("run/variants", checkedVariants());
    // Variants unknown to this session (a plugin not loaded now) keep their remembered state.
    QStringList known;
    for (const auto& entry : variant_items_) known << entry.first;
    settings.setValue("run/knownVariants", known);
    settings.setValue("run/radius", radius_->value());
    settings.setValue("run/border", border_->currentText());
    settings.setValue("run/reps", reps_->value());
    settings.setValue("run/sweep", sweep_->isChecked());
    settings.setValue("run/sizes", sizes_->text());
    settings.setValue("run/showExperiments", show_experiments_);
    param_inputs_->saveSettings(settings);
    settings.setValue("run/counters", countersRequested());
    settings.setValue("run/type", type_->currentData().toString());
}

void RunPanel::restoreSettings(const QSettings& settings) {
    if (settings.contains("run/ops")) setCheckedOps(settings.value("run/ops").toStringList());
    if (settings.contains("run/variants")) {
        variants_restored_ = true;
        const QStringList checked = settings.value("run/variants").toStringList();
        const QStringList known = settings.value("run/knownVariants").toStringList();
        // A variant that appeared since the last start (new plugin) starts checked.
        for (const auto& [id, item] : variant_items_)
            item->setCheckState(
                0, checked.contains(id) || !known.contains(id) ? Qt::Checked : Qt::Unchecked);
    }
    radius_->setValue(settings.value("run/radius", radius_->value()).toInt());
    const int border = border_->findText(settings.value("run/border").toString());
    if (border >= 0) border_->setCurrentIndex(border);
    reps_->setValue(settings.value("run/reps", reps_->value()).toInt());
    setSweep(settings.value("run/sweep", false).toBool(), settings.value("run/sizes").toString());
    setShowExperiments(settings.value("run/showExperiments", false).toBool());
    param_inputs_->restoreSettings(settings);
    setCountersRequested(settings.value("run/counters", false).toBool());
    setChosenType(parse_elem_type(settings.value("run/type").toString().toStdString()));
    updateVariantVisibility();
    emit selectionChanged();
}

}  // namespace coalesce::gui
