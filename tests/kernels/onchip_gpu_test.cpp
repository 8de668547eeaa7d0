// Every built-in variant of the on-chip experiments against its CPU reference, over the parameters
// and small shapes of support/onchip_cases.hpp: the suite the GPU machine runs under
// compute-sanitizer memcheck and racecheck. Skips without a device.
#include "support/builtin_registry.hpp"
#include "support/onchip_cases.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace coalesce {
namespace {

std::vector<std::string> onchip_gpu_ids() {
    std::vector<std::string> ids;
    for (const Variant& v : test::builtin_registry().variants())
        if (v.info.gpu && test::is_onchip(v.info.op)) ids.push_back(v.info.id);
    return ids;
}

using OnchipGpuTest = test::GpuTestWithParam<std::string>;

TEST_P(OnchipGpuTest, MatchesTheReferenceForEveryParameterAndShape) {
    const Variant* v = test::builtin_registry().find(GetParam());
    ASSERT_NE(v, nullptr);
    test::expect_every_onchip_case_verifies(*v);
}

INSTANTIATE_TEST_SUITE_P(Onchip, OnchipGpuTest, testing::ValuesIn(onchip_gpu_ids()),
                         [](const auto& param_info) { return test::sanitized(param_info.param); });

// The one __constant__ table is shared by every instance of constant_read/constant: two instances
// uploaded one after the other, launched alternately, each still reads its own input's table.
TEST(OnchipConstantTable, InstancesSideBySideEachReadTheirOwnTable) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    const Variant* v = test::builtin_registry().find("constant_read/constant");
    ASSERT_NE(v, nullptr);
    const OpParams params = test::named({{"distinct", 32}, {"repeat", 40}});
    const Matrix a = Matrix::random(40, 64, 1), b = Matrix::random(40, 64, 2);
    std::unique_ptr<Instance> first = v->make(a.shape(), params),
                              second = v->make(b.shape(), params);
    first->upload(a);
    second->upload(b);  // the table now holds b's entries
    const Stream stream = Stream::create();
    for (int round = 0; round < 2; ++round) {
        const std::vector<std::pair<Instance*, const Matrix*>> pairs = {{first.get(), &a},
                                                                        {second.get(), &b}};
        for (const auto& [instance, input] : pairs) {
            instance->poison();
            instance->launch(stream.get());
            stream.synchronize();
            const Verification check =
                verify(v->info.op, cpu_reference(v->info.op, *input, params), instance->download());
            EXPECT_TRUE(check.ok) << "round " << round << ": " << check.message;
        }
    }
}

// A tile height the kernels are not compiled for is refused, never launched with a wrong tile.
TEST(OnchipSharedTiles, AnotherTileHeightIsRefused) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    const Variant* v = test::builtin_registry().find("smem_transpose_tile/set-row-read-col");
    ASSERT_NE(v, nullptr);
    std::unique_ptr<Instance> instance = v->make({64, 64}, test::named({{"tile_rows", 24}}));
    instance->upload(Matrix::random(64, 64, 3));
    const Stream stream = Stream::create();
    EXPECT_THROW(instance->launch(stream.get()), std::invalid_argument);
}

}  // namespace
}  // namespace coalesce
