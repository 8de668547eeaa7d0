// The operation table: every descriptor complete, names unique, aliases parsed, parameters checked.
#include "coalesce/operation.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace coalesce;

TEST(OpTable, EveryDescriptorIsComplete) {
    ASSERT_FALSE(op_table().empty());
    std::set<std::string_view> names;
    for (const OpDesc* d : op_table()) {
        EXPECT_TRUE(names.insert(d->op.name()).second) << d->op.name();
        EXPECT_FALSE(d->summary.empty()) << d->op.name();
        EXPECT_TRUE(d->output_shape && d->bytes_moved && d->reference) << d->op.name();
        EXPECT_FALSE(d->host.empty()) << d->op.name() << " has no host variant";
        for (const ParamSpec& p : d->params) {
            EXPECT_LE(p.min, p.default_value) << p.name;
            EXPECT_LE(p.default_value, p.max) << p.name;
        }
    }
}

TEST(OpTable, TheBuiltInsAreInTheTableInOrder) {
    const std::vector<Op> ops = all_ops();
    ASSERT_GE(ops.size(), 6u);
    EXPECT_EQ(ops[0], Op::copy);
    EXPECT_EQ(ops[1], Op::transpose);
    EXPECT_EQ(describe(Op::filter_y).op, Op::filter_y);
    EXPECT_THROW(describe(Op("warp_drive")), std::invalid_argument);
}

TEST(OpTable, ParseReturnsTheTablesOwnName) {
    const std::string runtime_name = std::string("row") + "-sums";
    const auto op = parse_op(runtime_name);
    ASSERT_TRUE(op.has_value());
    EXPECT_EQ(*op, Op::row_sums);
    EXPECT_EQ(op->name().data(), describe(Op::row_sums).op.name().data());
}

TEST(OpTable, ResolvedParamsRefusesARadiusOutOfRangeOnFiltersOnly) {
    OpParams p;
    p.radius = -1;
    EXPECT_THROW(resolved_params(Op::filter_x, p), std::invalid_argument);
    EXPECT_NO_THROW(resolved_params(Op::transpose, p));
}
