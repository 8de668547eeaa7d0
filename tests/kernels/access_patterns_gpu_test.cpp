// Every GPU variant of the access-pattern operations against the CPU reference over several
// values of its parameters, at odd shapes, at 1000x1001, and at shapes past the grid's y limit
// (more than 65535 rows, more than 65535 tiles of rows or of columns). The registry-wide GPU
// suite runs these variants only at their default parameters. Skips without a device.
#include "support/builtin_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace coalesce {
namespace {

const std::vector<Op>& pattern_ops() {
    static const std::vector<Op> ops = {Op("offset_read"), Op("offset_write"), Op("gather"),
                                        Op("scatter"),     Op("scattered"),    Op("strided_add"),
                                        Op("matrix_add")};
    return ops;
}

bool is_large(Shape s) { return s.elements() >= 200000u; }

// The parameter values each operation is checked at: the defaults, the edges of each range and
// the values the course's lessons turn on. Large shapes take two values each.
std::vector<ParamValues> params_for(Op op, Shape shape) {
    std::vector<ParamValues> all;
    const std::string name(op.name());
    if (name == "offset_read" || name == "offset_write") {
        for (long long k : {0, 1, 7, 8, 31, 32}) all.push_back({{"offset", k}});
    } else if (name == "gather" || name == "scatter" || name == "strided_add") {
        for (long long s : {1, 2, 3, 8, 32, 1024}) all.push_back({{"stride", s}});
    } else if (name == "scattered") {
        for (const auto& [span, m] : std::vector<std::pair<long long, long long>>{
                 {0, 121}, {32, 7}, {32, 121}, {1024, 121}, {1, 121}, {0, 2}, {1 << 16, 121}})
            all.push_back({{"span", span}, {"multiplier", m}});
    } else {
        all.push_back({});
    }
    if (is_large(shape) && all.size() > 2) all = {all[1], all.back()};
    std::vector<ParamValues> fitting;
    for (const ParamValues& values : all) {
        OpParams p;
        p.values = values;
        if (input_problem(op, shape, p).empty()) fitting.push_back(values);
    }
    return fitting;
}

struct PatternCase {
    std::string variant_id;
    Shape shape;
};

void PrintTo(const PatternCase& c, std::ostream* os) {
    *os << c.variant_id << " " << c.shape.rows << "x" << c.shape.cols;
}

std::vector<PatternCase> all_cases() {
    const std::vector<Shape> shapes = {{1, 1},       {37, 1},    {1, 37},      {33, 65},
                                       {1000, 1001}, {70000, 3}, {2200000, 1}, {1, 2200000}};
    std::vector<PatternCase> cases;
    for (Op op : pattern_ops())
        for (const Variant* v : test::builtin_registry().for_op(op))
            if (v->info.gpu)
                for (Shape shape : shapes) cases.push_back({v->info.id, shape});
    return cases;
}

using PatternGpuTest = test::GpuTestWithParam<PatternCase>;

std::string params_text(const ParamValues& values) {
    std::string out;
    for (const auto& [name, value] : values) out += name + "=" + std::to_string(value) + " ";
    return out.empty() ? "no parameters" : out;
}

TEST_P(PatternGpuTest, MatchesTheReferenceOverItsParameters) {
    const PatternCase& c = GetParam();
    const Variant* variant = test::builtin_registry().find(c.variant_id);
    ASSERT_NE(variant, nullptr);
    const Op op = variant->info.op;
    const Matrix& input = test::cached_input(c.shape);
    const Stream stream = Stream::create();
    const std::vector<ParamValues> combos = params_for(op, c.shape);
    ASSERT_FALSE(combos.empty());
    for (const ParamValues& values : combos) {
        SCOPED_TRACE(params_text(values));
        OpParams params;
        params.values = values;
        const Reference ref = cpu_reference(op, input, params);
        std::unique_ptr<Instance> instance = variant->make(c.shape, params);
        instance->upload(input);
        instance->poison();
        // Launched twice: the runner times repeated launches, which must each give the result.
        instance->launch(stream.get());
        instance->launch(stream.get());
        stream.synchronize();
        const Matrix out = instance->download();
        ASSERT_EQ(out.shape(), output_shape(op, c.shape, params));
        const std::optional<std::size_t> chain =
            variant->info.chain ? std::optional(variant->info.chain(c.shape, ref.terms))
                                : std::nullopt;
        const Verification v = verify(op, ref, out, chain);
        EXPECT_TRUE(v.ok) << v.message << " (max abs error " << v.max_abs_error << ")";
    }
}

std::string case_name(const testing::TestParamInfo<PatternCase>& info) {
    return test::case_name(info.param.variant_id, info.param.shape);
}

INSTANTIATE_TEST_SUITE_P(Patterns, PatternGpuTest, testing::ValuesIn(all_cases()), case_name);

}  // namespace
}  // namespace coalesce
