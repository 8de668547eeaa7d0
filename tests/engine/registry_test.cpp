#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

using namespace coalesce;

TEST(Registry, RefusesDuplicateIdsAndNamesTheOrigin) {
    Registry registry;
    register_cpu_variants(registry);
    const std::size_t before = registry.size();
    Variant again = *registry.find("transpose/cpu-naive");
    again.info.origin = "second";
    try {
        registry.add(again);
        FAIL() << "duplicate accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(
            std::string(e.what()).find("'transpose/cpu-naive' already exists (from built-in)"),
            std::string::npos)
            << e.what();
    }
    EXPECT_EQ(registry.size(), before);
}

TEST(Registry, RefusesEmptyIdAndMissingFactory) {
    Registry registry;
    EXPECT_THROW(registry.add(Variant{}), std::invalid_argument);
    Variant no_factory;
    no_factory.info.id = "copy/x";
    EXPECT_THROW(registry.add(no_factory), std::invalid_argument);
    EXPECT_EQ(registry.size(), 0u);
}

TEST(Registry, HostVariantsCoverEveryOperation) {
    Registry registry;
    register_cpu_variants(registry);
    for (Op op : all_ops()) {
        const auto variants = registry.for_op(op);
        ASSERT_EQ(variants.size(), describe(op).host.size()) << op_name(op);
        ASSERT_GE(variants.size(), 1u) << op_name(op);
        for (const Variant* v : variants) {
            EXPECT_FALSE(v->info.gpu);
            EXPECT_EQ(v->info.memory_space, space::host);
            EXPECT_FALSE(v->info.description.empty());
            EXPECT_EQ(v->info.id.rfind(std::string(op_name(op)) + "/", 0), 0u) << v->info.id;
        }
    }
}
