// The run panel's parameter inputs: each takes what coalesce-bench --param takes, is checked as it
// is typed (red, the engine's message as tooltip, Run disabled), shows only for the chosen
// operations, and becomes the run's sweep.
#include "param_inputs.hpp"
#include "run_panel.hpp"
#include "window_helpers.hpp"

#include "coalesce/kernels.hpp"

#include <QAction>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace coalesce;
using namespace coalesce::gui;

namespace {

const Op kOffsetRead("offset_read");
const Op kGather("gather");
const Op kScatter("scatter");

std::vector<long long> values_of(const QString& name, const QString& text, std::vector<Op> ops) {
    const ParamInputCheck check = check_param_input(name, text, ops);
    EXPECT_TRUE(check.error.isEmpty()) << check.error.toStdString();
    return check.axis ? check.axis->values : std::vector<long long>{};
}

}  // namespace

TEST(ParamInput, AcceptsWhatTheCommandLineAccepts) {
    EXPECT_EQ(values_of("offset", "0:32", {kOffsetRead}).size(), 33u);
    EXPECT_EQ(values_of("offset", "0:32:8", {kOffsetRead}),
              (std::vector<long long>{0, 8, 16, 24, 32}));
    EXPECT_EQ(values_of("stride", "1,2,4,8", {kGather, kScatter}),
              (std::vector<long long>{1, 2, 4, 8}));
    EXPECT_EQ(values_of("offset", " 3 ", {kOffsetRead}), (std::vector<long long>{3}));
    const ParamInputCheck empty = check_param_input("offset", "", {kOffsetRead});
    EXPECT_FALSE(empty.axis.has_value()) << "empty: the operation's default";
    EXPECT_TRUE(empty.error.isEmpty());
}

TEST(ParamInput, RefusesBadTextWithTheEnginesReason) {
    const ParamInputCheck words = check_param_input("offset", "abc", {kOffsetRead});
    EXPECT_FALSE(words.axis.has_value());
    EXPECT_TRUE(words.error.contains("not a whole number")) << words.error.toStdString();
    const ParamInputCheck backwards = check_param_input("offset", "8:2", {kOffsetRead});
    EXPECT_TRUE(backwards.error.contains("FIRST <= LAST")) << backwards.error.toStdString();
    const ParamInputCheck range = check_param_input("offset", "0:40", {kOffsetRead});
    EXPECT_TRUE(range.error.contains("out of range 0..32")) << range.error.toStdString();
    EXPECT_TRUE(range.error.contains("offset_read")) << range.error.toStdString();
    // Out of range only for operations that take the parameter.
    EXPECT_TRUE(check_param_input("offset", "0:40", {kGather}).error.isEmpty());
}

TEST(ParamInput, ShowsOnlyTheChosenOperationsParametersAndFeedsTheSweep) {
    Registry registry;
    register_builtin_variants(registry);
    RunPanel panel(registry);
    panel.setCheckedOps({"offset_read", "gather"});
    ParamInputs* inputs = panel.paramInputs();
    EXPECT_TRUE(inputs->isShown("offset"));
    EXPECT_TRUE(inputs->isShown("stride"));
    EXPECT_FALSE(inputs->isShown("span"));
    EXPECT_FALSE(inputs->isShown("angle"));

    QSignalSpy validity(&panel, &RunPanel::parametersValidChanged);
    QLineEdit* offset = inputs->input("offset");
    ASSERT_NE(offset, nullptr);
    offset->setText("0:99");
    EXPECT_FALSE(panel.parametersValid());
    ASSERT_EQ(validity.count(), 1);
    EXPECT_FALSE(validity.front().front().toBool());
    EXPECT_TRUE(offset->toolTip().contains("out of range")) << offset->toolTip().toStdString();
    EXPECT_TRUE(offset->styleSheet().contains("background")) << "a bad input is marked";
    panel.setSweep(true, "8x64");
    QString error;
    EXPECT_FALSE(panel.makeConfig(&error).has_value());
    EXPECT_TRUE(error.contains("out of range")) << error.toStdString();

    // The operation unticked: its input no longer counts.
    panel.setCheckedOps({"gather"});
    EXPECT_TRUE(panel.parametersValid());
    panel.setCheckedOps({"offset_read", "gather"});
    EXPECT_FALSE(panel.parametersValid());

    offset->setText("0:32:8");
    inputs->input("stride")->setText("1,2,4");
    EXPECT_TRUE(panel.parametersValid());
    EXPECT_TRUE(offset->styleSheet().isEmpty());
    const auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    ASSERT_EQ(config->sweep.size(), 2u);
    EXPECT_EQ(config->sweep[0].name, "offset");
    EXPECT_EQ(config->sweep[0].values, (std::vector<long long>{0, 8, 16, 24, 32}));
    EXPECT_EQ(config->sweep[1].name, "stride");
    EXPECT_EQ(config->sweep[1].values.size(), 3u);
}

TEST(ParamInput, ABadInputDisablesRunInTheWindow) {
    auto window = test::make_ready_window();
    QAction* run = nullptr;
    for (QAction* a : window->findChildren<QAction*>())
        if (a->shortcut() == QKeySequence(Qt::CTRL | Qt::Key_R)) run = a;
    ASSERT_NE(run, nullptr);
    window->runPanel()->setCheckedOps({"offset_read"});
    EXPECT_TRUE(run->isEnabled());
    window->runPanel()->paramInputs()->input("offset")->setText("0:x");
    EXPECT_FALSE(run->isEnabled());
    window->runPanel()->paramInputs()->input("offset")->setText("0:4");
    EXPECT_TRUE(run->isEnabled());
}

TEST(ParamInput, EveryOperationCanBeChosenAndExperimentsRunOnceShown) {
    Registry registry;
    register_builtin_variants(registry);
    RunPanel panel(registry);
    QStringList all;
    for (Op op : all_ops()) all << QString::fromUtf8(op.name().data(), op.name().size());
    panel.setCheckedOps(all);
    EXPECT_EQ(panel.checkedOps(), all) << "every operation has its box, on-chip ones included";

    // An experiment (a tuning idea kept because it lost) runs once experiments are shown.
    const Variant* experiment = nullptr;
    for (const Variant& v : registry.variants())
        if (v.info.tier == Tier::experiment && v.info.op.name() == "smem_transpose_tile")
            experiment = &v;
    ASSERT_NE(experiment, nullptr);
    const QString id = QString::fromStdString(experiment->info.id);
    panel.setDeviceAvailable(true);
    panel.setCheckedOps({"smem_transpose_tile"});
    panel.setCheckedVariants({id});
    panel.setSweep(true, "64x64");
    QString error;
    EXPECT_FALSE(panel.makeConfig(&error).has_value()) << "hidden, so not run";
    EXPECT_TRUE(error.contains("at least one variant")) << error.toStdString();
    panel.setShowExperiments(true);
    const auto config = panel.makeConfig(&error);
    ASSERT_TRUE(config.has_value()) << error.toStdString();
    EXPECT_EQ(config->variants, std::vector<std::string>{experiment->info.id});
}

TEST(ParamInput, TheTextIsRememberedBetweenStarts) {
    QTemporaryDir dir;
    ASSERT_TRUE(dir.isValid());
    QSettings settings(dir.filePath("settings.ini"), QSettings::IniFormat);
    Registry registry;
    register_builtin_variants(registry);
    {
        RunPanel panel(registry);
        panel.paramInputs()->input("offset")->setText("0:8");
        panel.paramInputs()->input("angle")->setText("-90,90");
        panel.saveSettings(settings);
    }
    RunPanel again(registry);
    again.restoreSettings(settings);
    EXPECT_EQ(again.paramInputs()->input("offset")->text(), "0:8");
    EXPECT_EQ(again.paramInputs()->input("angle")->text(), "-90,90");
    EXPECT_TRUE(again.paramInputs()->input("stride")->text().isEmpty());
}
