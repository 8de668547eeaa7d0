// The run settings panel: variants grouped by memory space with their own descriptions as
// tooltips, what a config holds, what a GPU changes.
#include "run_panel.hpp"

#include "coalesce/kernels.hpp"

#include <QTreeWidget>

#include <gtest/gtest.h>

#include <set>

using namespace coalesce;
using namespace coalesce::gui;

namespace {

Registry builtin() {
    Registry r;
    register_builtin_variants(r);
    return r;
}

}  // namespace

TEST(RunPanel, GroupsVariantsByMemorySpaceWithTheirDescriptionsAsTooltips) {
    const Registry registry = builtin();
    RunPanel panel(registry);
    auto* tree = panel.findChild<QTreeWidget*>("variantTree");
    ASSERT_NE(tree, nullptr);
    std::set<std::string> spaces;
    for (const Variant& v : registry.variants()) spaces.insert(v.info.memory_space);
    ASSERT_EQ(static_cast<std::size_t>(tree->topLevelItemCount()), spaces.size());
    int leaves = 0;
    for (int g = 0; g < tree->topLevelItemCount(); ++g) {
        QTreeWidgetItem* group = tree->topLevelItem(g);
        for (int i = 0; i < group->childCount(); ++i, ++leaves) {
            const Variant* v = registry.find(group->child(i)->text(0).toStdString());
            ASSERT_NE(v, nullptr) << group->child(i)->text(0).toStdString();
            EXPECT_EQ(QString::fromStdString(v->info.memory_space), group->text(0));
            EXPECT_TRUE(group->child(i)->toolTip(0).contains(QString::fromStdString(v->info.description).toHtmlEscaped()))
                << v->info.id;
        }
    }
    EXPECT_EQ(static_cast<std::size_t>(leaves), registry.size());
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
        EXPECT_FALSE(registry.find(id)->info.gpu) << id << ": no device, yet a GPU variant was chosen";
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
    for (const Variant& v : registry.variants()) gpu_variants += v.info.gpu;
    EXPECT_EQ(config->variants.size(), gpu_variants);
    EXPECT_FALSE(config->include_cpu);
}
