// The run settings panel: variants grouped by memory space with their own descriptions as
// tooltips, what a config holds, what a GPU changes.
#include "input_loader.hpp"
#include "run_panel.hpp"

#include "coalesce/kernels.hpp"
#include "coalesce/typed_run.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QTemporaryDir>
#include <QSignalSpy>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

using namespace coalesce;
using namespace coalesce::gui;

namespace {

Registry builtin() {
    Registry r;
    register_builtin_variants(r);
    return r;
}

Variant made_up(const std::string& id, Op op, const char* space, Tier tier) {
    Variant v;
    v.info.id = id;
    v.info.op = op;
    v.info.memory_space = space;
    v.info.tier = tier;
    v.info.gpu = false;  // runnable without a device, so nothing is greyed out
    v.info.description = "a " + std::string(tier_name(tier)) + " variant";
    v.make = [](Shape, const OpParams&) -> std::unique_ptr<Instance> { return nullptr; };
    return v;
}

// Two lessons in two memory spaces, two tuned variants, one experiment.
Registry tiered() {
    Registry r;
    r.add(made_up("transpose/shared-padded", Op::transpose, space::shared, Tier::classic));
    r.add(made_up("transpose/fast-quad", Op::transpose, space::global, Tier::tuned));
    r.add(made_up("transpose/global-naive", Op::transpose, space::global, Tier::classic));
    r.add(made_up("row_sums/fast-warp", Op::row_sums, space::global, Tier::tuned));
    r.add(made_up("row_sums/fast-batch8", Op::row_sums, space::global, Tier::experiment));
    return r;
}

QStringList children(const QTreeWidgetItem* group) {
    QStringList out;
    for (int i = 0; i < group->childCount(); ++i) out << group->child(i)->text(0);
    return out;
}

}  // namespace

TEST(RunPanel, GroupsClassicVariantsByMemorySpaceWithTheirDescriptionsAsTooltips) {
    const Registry registry = builtin();
    RunPanel panel(registry);
    auto* tree = panel.findChild<QTreeWidget*>("variantTree");
    ASSERT_NE(tree, nullptr);
    int leaves = 0;
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i, ++leaves) {
            const Variant* v = registry.find(group->child(i)->text(0).toStdString());
            ASSERT_NE(v, nullptr) << group->child(i)->text(0).toStdString();
            if (v->info.tier == Tier::classic) {
                EXPECT_EQ(QString::fromStdString(v->info.memory_space), group->text(0));
            }
            EXPECT_TRUE(group->child(i)->toolTip(0).contains(
                QString::fromStdString(v->info.description).toHtmlEscaped()))
                << v->info.id;
        }
    }
    EXPECT_EQ(static_cast<std::size_t>(leaves), registry.size());
}

// A grey run does not offer a colour-only variant, nor run it even checked; a colour input
// offers it and hides the grey-only ones (the runner would skip them), and its config runs 3
// channels. Random sizes are grey again.
TEST(RunPanel, ColourVariantsAreOfferedOnlyForAColourInput) {
    Registry registry = tiered();
    Variant colour = made_up("row_sums/fast-interleaved", Op::row_sums, space::global, Tier::tuned);
    colour.info.channels = {3, 4};
    registry.add(std::move(colour));
    RunPanel panel(registry);
    panel.setInputShape(Shape{16, 16});
    panel.setChosenType(ElemType::u8);
    auto* tree = panel.findChild<QTreeWidget*>("variantTree");
    ASSERT_NE(tree, nullptr);
    const auto item = [tree](const char* id) {
        const QList<QTreeWidgetItem*> found =
            tree->findItems(id, Qt::MatchExactly | Qt::MatchRecursive);
        return found.size() == 1 ? found.front() : nullptr;
    };
    QTreeWidgetItem* interleaved = item("row_sums/fast-interleaved");
    QTreeWidgetItem* grey = item("row_sums/fast-warp");
    ASSERT_NE(interleaved, nullptr);
    ASSERT_NE(grey, nullptr);
    interleaved->setCheckState(0, Qt::Checked);
    EXPECT_TRUE(interleaved->isHidden());
    EXPECT_FALSE(grey->isHidden());
    QString error;
    auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->channels, 1);
    EXPECT_EQ(
        std::count(config->variants.begin(), config->variants.end(), "row_sums/fast-interleaved"),
        0);
    EXPECT_EQ(config->variants.size(), 4u);  // the other four non-experiments

    panel.setInputChannels(3);
    EXPECT_FALSE(interleaved->isHidden());
    EXPECT_TRUE(grey->isHidden());
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->channels, 3);
    EXPECT_EQ(config->variants, std::vector<std::string>{"row_sums/fast-interleaved"});

    panel.setSweep(true, "8x8");
    EXPECT_TRUE(interleaved->isHidden());
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->channels, 1);

    panel.setSweep(false);
    panel.setInputChannels(1);  // a grey image opened after the colour one
    EXPECT_TRUE(interleaved->isHidden());
}

TEST(RunPanel, TunedVariantsHaveTheirOwnGroupAndExperimentsShowOnlyOnRequest) {
    const Registry registry = tiered();
    RunPanel panel(registry);
    panel.setInputShape(Shape{16, 16});
    auto* tree = panel.findChild<QTreeWidget*>("variantTree");
    ASSERT_NE(tree, nullptr);
    // The lessons first, by memory space (global before shared), then tuned, then experiments.
    ASSERT_EQ(tree->topLevelItemCount(), 4);
    EXPECT_EQ(tree->topLevelItem(0)->text(0), "global");
    EXPECT_EQ(children(tree->topLevelItem(0)), (QStringList{"transpose/global-naive"}));
    EXPECT_EQ(tree->topLevelItem(1)->text(0), "shared");
    EXPECT_TRUE(tree->topLevelItem(2)->text(0).startsWith("tuned"));
    EXPECT_EQ(children(tree->topLevelItem(2)),
              (QStringList{"transpose/fast-quad", "row_sums/fast-warp"}));
    QTreeWidgetItem* experiments = tree->topLevelItem(3);
    EXPECT_TRUE(experiments->text(0).startsWith("experiments"));
    EXPECT_EQ(children(experiments), (QStringList{"row_sums/fast-batch8"}));

    // Hidden, and not run although checked, until asked for.
    EXPECT_TRUE(experiments->isHidden());
    QString error;
    auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->variants.size(), 4u);
    const auto& ids = config->variants;
    EXPECT_EQ(std::count(ids.begin(), ids.end(), "row_sums/fast-batch8"), 0);

    QSignalSpy shown(&panel, &RunPanel::experimentsShownChanged);
    auto* box = panel.findChild<QCheckBox*>("showExperiments");
    ASSERT_NE(box, nullptr);
    box->setChecked(true);
    EXPECT_EQ(shown.count(), 1);
    EXPECT_TRUE(panel.showExperiments());
    EXPECT_FALSE(experiments->isHidden());
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->variants.size(), 5u);

    // The choice is remembered.
    QSettings settings(QDir(QDir::tempPath()).filePath("coalesce-run-panel-test.ini"),
                       QSettings::IniFormat);
    panel.saveSettings(settings);
    RunPanel again(registry);
    again.restoreSettings(settings);
    EXPECT_TRUE(again.showExperiments());
    settings.clear();
    QFile::remove(settings.fileName());
}

TEST(RunPanel, ALessonChoosesExactlyItsVariantsSizesAndParameters) {
    const Registry registry = tiered();
    RunPanel panel(registry);
    Lesson lesson{};
    lesson.id = "padding";
    lesson.variants = {"transpose/global-naive", "transpose/shared-padded", "row_sums/fast-batch8"};
    lesson.sizes = {{64, 48}, {128, 128}};
    lesson.params.radius = 7;
    lesson.params.border = Border::mirror;
    panel.applyLesson(lesson);
    EXPECT_TRUE(panel.showExperiments());  // one of its variants is an experiment
    EXPECT_EQ(panel.checkedOps(), (QStringList{"transpose", "row_sums"}));
    QString error;
    const auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->variants,
              (std::vector<std::string>{"transpose/shared-padded", "transpose/global-naive",
                                        "row_sums/fast-batch8"}));
    EXPECT_EQ(config->sizes, lesson.sizes);
    EXPECT_EQ(config->params.radius, 7);
    EXPECT_EQ(config->params.border, Border::mirror);
}

TEST(RunPanel, TheBorderChoiceSaysMirrorIsOpenCVsBorderReflect) {
    const Registry registry = builtin();
    RunPanel panel(registry);
    auto* border = panel.findChild<QComboBox*>("border");
    ASSERT_NE(border, nullptr);
    EXPECT_TRUE(border->toolTip().contains("BORDER_REFLECT")) << border->toolTip().toStdString();
    const int mirror = border->findText("mirror");
    ASSERT_GE(mirror, 0);
    const QString tip = border->itemData(mirror, Qt::ToolTipRole).toString();
    EXPECT_TRUE(tip.contains("BORDER_REFLECT")) << tip.toStdString();
    EXPECT_TRUE(tip.contains("dcba|abcd|dcba")) << tip.toStdString();
}

TEST(RunPanel, VariantIdsInTheTreeAreNeverElided) {
    const Registry registry = builtin();
    RunPanel panel(registry);
    panel.resize(250, 700);  // the width of the settings column
    panel.show();
    QCoreApplication::processEvents();
    auto* tree = panel.findChild<QTreeWidget*>("variantTree");
    ASSERT_NE(tree, nullptr);
    EXPECT_EQ(tree->textElideMode(), Qt::ElideNone);
    // The width the widest visible id needs (the view's own measure, public on the base class).
    const int needed = static_cast<const QAbstractItemView*>(tree)->sizeHintForColumn(0);
    EXPECT_GE(tree->columnWidth(0), needed);
    EXPECT_LT(tree->viewport()->width(), needed);  // narrower than the ids: the tree scrolls
}

TEST(RunPanel, ConfigHoldsTheChosenOperationsVariantsAndParameters) {
    const Registry registry = builtin();
    RunPanel panel(registry);
    panel.setDeviceAvailable(false);
    panel.setInputShape(Shape{20, 30});
    panel.setCheckedOps({"filter_y"});
    QString error;
    auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->ops, std::vector<Op>{Op::filter_y});
    ASSERT_FALSE(config->variants.empty());
    for (const std::string& id : config->variants) {
        EXPECT_EQ(registry.find(id)->info.op, Op::filter_y) << id;
        EXPECT_FALSE(registry.find(id)->info.gpu)
            << id << ": no device, yet a GPU variant was chosen";
    }
    EXPECT_TRUE(config->include_cpu);
    EXPECT_TRUE(panel.useLoadedInput());

    panel.setSweep(true, "1x1,7x3");
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->sizes, (std::vector<Shape>{{1, 1}, {7, 3}}));

    panel.setSweep(true, "7by3");
    EXPECT_FALSE(panel.makeConfig(&error).has_value());
    EXPECT_TRUE(error.contains("7by3")) << error.toStdString();
}

TEST(RunPanel, WithAGpuTheGpuVariantsAreOfferedAndTheHostOnesStartUnchecked) {
    const Registry registry = builtin();
    RunPanel panel(registry);
    panel.setInputShape(Shape{64, 64});
    panel.setDeviceAvailable(true);
    QString error;
    const auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    std::size_t gpu_variants = 0;
    // Experiments stay hidden unless asked for; colour-only variants are not offered at all.
    for (const Variant& v : registry.variants())
        gpu_variants += v.info.gpu && v.info.tier != Tier::experiment && v.info.takes_channels(1);
    EXPECT_EQ(config->variants.size(), gpu_variants);
    EXPECT_FALSE(config->include_cpu);
}

// The element type control: beside the operations, reachable by its label's mnemonic, and what
// it shows is what the config runs ("as opened": the loaded input's own type).
TEST(RunPanel, TheTypeControlChangesTheConfigsTypes) {
    const Registry registry = builtin();
    RunPanel panel(registry);
    panel.setDeviceAvailable(false);
    panel.setInputShape(Shape{20, 30});
    auto* type = panel.findChild<QComboBox*>("elemType");
    ASSERT_NE(type, nullptr);
    QLabel* label = nullptr;
    for (QLabel* l : panel.findChildren<QLabel*>())
        if (l->buddy() == type) label = l;
    ASSERT_NE(label, nullptr) << "the type control has no label that leads to it";
    EXPECT_TRUE(label->text().contains("&")) << "no mnemonic for the keyboard";
    EXPECT_EQ(type->currentText(), "as opened");
    QStringList items;
    for (int i = 0; i < type->count(); ++i) items << type->itemText(i);
    EXPECT_EQ(items, (QStringList{"as opened", "u8", "u16", "f32"}));

    QString error;
    panel.setInputType(ElemType::u8);
    auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->types, std::vector<ElemType>{ElemType::u8});
    // u8 runs only the operations with typed semantics, and only their variants
    for (Op op : config->ops) EXPECT_TRUE(typed::has_typed_semantics(op)) << op_name(op);
    for (const std::string& id : config->variants)
        EXPECT_TRUE(typed::has_typed_semantics(registry.find(id)->info.op)) << id;

    type->setCurrentIndex(type->findText("u16"));
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->types, std::vector<ElemType>{ElemType::u16});
    EXPECT_EQ(panel.chosenType(), ElemType::u16);

    type->setCurrentIndex(type->findText("f32"));
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->types, std::vector<ElemType>{ElemType::f32});

    // random sizes "as opened" run as f32
    panel.setChosenType(std::nullopt);
    panel.setSweep(true, "8x8");
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->types, std::vector<ElemType>{ElemType::f32});

    // as opened with only f32-only operations ticked: the float path, as they always ran
    panel.setSweep(false);
    panel.setCheckedOps({"gather"});
    config = panel.makeConfig(&error);
    ASSERT_TRUE(config) << error.toStdString();
    EXPECT_EQ(config->types, std::vector<ElemType>{ElemType::f32});

    // u8 chosen with only lesson operations ticked says what u8 runs
    panel.setChosenType(ElemType::u8);
    panel.setCheckedOps({"gather"});
    EXPECT_FALSE(panel.makeConfig(&error));
    EXPECT_TRUE(error.contains("u8 runs copy, transpose")) << error.toStdString();
}

TEST(RunPanel, TheTypeChoiceIsRemembered) {
    const Registry registry = builtin();
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QSettings settings(dir.filePath("s.ini"), QSettings::IniFormat);
    {
        RunPanel panel(registry);
        panel.setChosenType(ElemType::u16);
        panel.saveSettings(settings);
    }
    RunPanel again(registry);
    again.restoreSettings(settings);
    EXPECT_EQ(again.chosenType(), ElemType::u16);
}

// The window's input for a run: an 8-bit image runs as u8 on its own values; f32 stays on the
// float path; u8 <-> u16 scales, from f32 keeps the values.
TEST(RunPanel, AttachingAnOpenedImageGivesTheRunItsTypedValues) {
    LoadedImage eight;
    eight.path = "eight.png";
    eight.matrix = std::make_shared<const Matrix>(Matrix(2, 3, 7.0f));
    eight.typed = std::make_shared<const AnyImage>(TypedImage<std::uint8_t>(2, 3, 1, 7));
    eight.elem_type = ElemType::u8;
    RunConfig config;
    config.types = {ElemType::u8};
    attach_input(config, eight);
    EXPECT_EQ(config.typed_input, eight.typed);
    EXPECT_EQ(config.input, eight.matrix);
    EXPECT_EQ(config.input_file, "eight.png");
    EXPECT_EQ(config.conversion, Conversion::scale);

    LoadedImage floats;
    floats.matrix = std::make_shared<const Matrix>(Matrix(2, 3, 0.5f));
    RunConfig f32;
    attach_input(f32, floats);
    EXPECT_FALSE(f32.typed_input) << "an f32 image run as f32 takes the float path only";
    EXPECT_EQ(f32.input, floats.matrix);

    RunConfig as_u16;
    as_u16.types = {ElemType::u16};
    attach_input(as_u16, floats);
    ASSERT_TRUE(as_u16.typed_input);
    EXPECT_EQ(as_u16.conversion, Conversion::values);
}

// An image opened with its colour kept: a colour run takes the colour as stored, a grey run (the
// same image read again as luminance has no colour) its one channel.
TEST(RunPanel, AttachingAColourImageGivesAColourRunItsChannels) {
    LoadedImage photo;
    photo.path = "photo.png";
    photo.matrix = std::make_shared<const Matrix>(Matrix(2, 3, 7.0f));
    photo.typed = std::make_shared<const AnyImage>(TypedImage<std::uint8_t>(2, 3, 1, 7));
    photo.colour = std::make_shared<const AnyImage>(TypedImage<std::uint8_t>(2, 3, 3, 9));
    photo.elem_type = ElemType::u8;
    RunConfig colour;
    colour.types = {ElemType::u8};
    colour.channels = 3;
    attach_input(colour, photo);
    EXPECT_EQ(colour.typed_input, photo.colour);
    EXPECT_EQ(colour.input, photo.matrix) << "the f32 path keeps the luminance";

    RunConfig grey;
    grey.types = {ElemType::u8};
    attach_input(grey, photo);
    EXPECT_EQ(grey.typed_input, photo.typed);
}
