// The fast variants (kernels/fast_*.cu) on the shapes that reach their special paths, which the
// registry-wide test (gpu_variants_test.cpp) does not: 16-byte aligned rows with partial edge
// tiles, segments and strips; few rows (a block per row); many row chunks (the last-block
// ticket); and launch-to-launch determinism of every fast variant, bit for bit.
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <ostream>
#include <memory>
#include <string>
#include <vector>

namespace coalesce {
namespace {

const Registry& registry() {
    static const Registry r = [] {
        Registry reg;
        register_builtin_variants(reg);
        return reg;
    }();
    return r;
}

std::vector<std::string> fast_ids() {
    std::vector<std::string> ids;
    for (const Variant& v : registry().variants())
        if (v.info.gpu && v.info.id.find("/fast-") != std::string::npos) ids.push_back(v.info.id);
    return ids;
}

struct FastCase {
    std::string id;
    Shape shape;
    OpParams params;
};

// cols % 4 == 0 everywhere (the float4 paths), but rows and cols not multiples of the tiles:
// 100x4100 (block per row; partial last tile, segment and thread), 4100x36 (narrow: one strip,
// many chunks), 517x1028, 2x8192 (two rows, one chunk per strip), 4500x260 (warp per row, 260
// columns: a partial strip and a partial filter segment), 37x4 (one float4 per row: every filter
// window reaches past both ends of the row).
const std::vector<Shape>& shapes() {
    static const std::vector<Shape> s = {{100, 4100}, {4100, 36}, {517, 1028}, {2, 8192}, {4500, 260}, {37, 4}};
    return s;
}

void PrintTo(const FastCase& c, std::ostream* os) {
    *os << c.id << " " << c.shape.rows << "x" << c.shape.cols << " r=" << c.params.radius << " "
        << border_name(c.params.border);
}

std::vector<FastCase> cases() {
    std::vector<FastCase> out;
    for (const std::string& id : fast_ids()) {
        const Op op = registry().find(id)->info.op;
        for (Shape s : shapes()) {
            if (!is_filter(op)) {
                out.push_back({id, s, {}});
                continue;
            }
            for (int radius : {0, 2, 3, 4, 8, 17, 32, kMaxRadius})
                for (Border b : all_borders()) out.push_back({id, s, {radius, b}});
        }
    }
    return out;
}

std::string case_name(const testing::TestParamInfo<FastCase>& info) {
    const FastCase& c = info.param;
    std::string name = c.id + "_" + std::to_string(c.shape.rows) + "x" + std::to_string(c.shape.cols);
    if (is_filter(registry().find(c.id)->info.op))
        name += "_r" + std::to_string(c.params.radius) + "_" + std::string(border_name(c.params.border));
    std::replace_if(name.begin(), name.end(), [](unsigned char ch) { return !std::isalnum(ch); }, '_');
    return name;
}

const Matrix& input_for(Shape s) {
    static std::map<std::pair<std::size_t, std::size_t>, Matrix> cache;
    auto key = std::make_pair(s.rows, s.cols);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, Matrix::random(s.rows, s.cols, 77u * s.rows + s.cols)).first;
    return it->second;
}

class FastVariantTest : public testing::TestWithParam<FastCase> {
protected:
    void SetUp() override {
        if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    }
};

// Matches the CPU reference, and a second launch on the same instance writes the same bits (the
// column sums' ticket counters reset themselves; no result depends on block scheduling).
TEST_P(FastVariantTest, MatchesReferenceAndRepeatsBitForBit) {
    const FastCase& c = GetParam();
    const Variant* v = registry().find(c.id);
    ASSERT_NE(v, nullptr);
    const Op op = v->info.op;
    const Matrix& input = input_for(c.shape);
    const Reference ref = cpu_reference(op, input, c.params);

    std::unique_ptr<Instance> instance = v->make(c.shape, c.params);
    instance->upload(input);
    instance->poison();
    const Stream stream = Stream::create();
    instance->launch(stream.get());
    stream.synchronize();
    const Matrix first = instance->download();
    const Verification check = verify(op, ref, first);
    EXPECT_TRUE(check.ok) << check.message;

    instance->poison();
    instance->launch(stream.get());
    stream.synchronize();
    const Matrix second = instance->download();
    ASSERT_EQ(first.shape(), second.shape());
    EXPECT_EQ(0, std::memcmp(first.data(), second.data(), first.size() * sizeof(float)))
        << "two launches on the same input differ";
}

INSTANTIATE_TEST_SUITE_P(Fast, FastVariantTest, testing::ValuesIn(cases()), case_name);

// Every operation has a fast variant (the bandwidth comparison of bench/ relies on it); needs no device.
TEST(FastVariants, EveryOperationHasOne) {
    for (Op op : test::matrix_ops()) {
        bool found = false;
        for (const Variant* v : registry().for_op(op))
            found = found || v->info.id.find("/fast-") != std::string::npos;
        EXPECT_TRUE(found) << op_name(op);
    }
}

}  // namespace
}  // namespace coalesce
