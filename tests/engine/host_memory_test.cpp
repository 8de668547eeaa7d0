// The host memory check the CLI and the window share: what a run holds, what its kept outputs
// add, and the message that names the size, the need and what there is.
#include "coalesce/host_memory.hpp"
#include "coalesce/registry.hpp"

#include <gtest/gtest.h>

using namespace coalesce;

namespace {

std::vector<const Variant*> host_variants(const Registry& registry, Op op) {
    std::vector<const Variant*> out;
    for (const Variant* v : registry.for_op(op))
        if (!v->info.gpu) out.push_back(v);
    return out;
}

}  // namespace

TEST(HostMemory, ARunFitsOrIsRefusedWithItsSizeWhatItNeedsAndWhatThereIs) {
    Registry registry;
    register_cpu_variants(registry);
    const auto selected = host_variants(registry, Op::transpose);
    ASSERT_FALSE(selected.empty());
    RunConfig config;
    config.sizes = {{1024, 1024}, {100000, 100000}};
    // Four input-sized and four output-sized float32 buffers: 8 x 4 bytes per element.
    EXPECT_EQ(host_bytes_needed({1024, 1024}, selected), std::size_t{32} << 20);
    EXPECT_EQ(host_memory_shortfall(config, selected, std::size_t{1} << 40), "");
    const std::string why = host_memory_shortfall(config, selected, std::size_t{1} << 30);
    EXPECT_EQ(why,
              "size 100000x100000 needs about 305175 MiB of host memory; 1024 MiB are "
              "available");
}

TEST(HostMemory, KeptOutputsAddUpOverTheRun) {
    Registry registry;
    register_cpu_variants(registry);
    const auto selected = host_variants(registry, Op::row_sums);  // outputs of rows x 1
    ASSERT_EQ(selected.size(), 2u);
    RunConfig config;
    config.sizes = {{1000, 10}, {2000, 10}};
    EXPECT_EQ(kept_output_bytes(config, selected), 0u);  // nothing kept unless asked
    config.keep_outputs = true;
    // Per size: an output per variant, and the reference's value and magnitude once.
    EXPECT_EQ(kept_output_bytes(config, selected), (4 * 1000 + 4 * 2000) * sizeof(float));
    // Exactly enough for the run itself: not for it and its kept outputs.
    config.sizes = {{1024, 1024}};
    const std::size_t bare = host_bytes_needed({1024, 1024}, selected);
    const std::string why = host_memory_shortfall(config, selected, bare);
    EXPECT_EQ(why.rfind("size 1024x1024 needs about", 0), 0u) << why;
    config.keep_outputs = false;
    EXPECT_EQ(host_memory_shortfall(config, selected, bare), "");
}

// A colour run keeps every channel of its outputs: three times a grey run's.
TEST(HostMemory, KeptOutputsOfAColourRunCountTheirChannels) {
    Registry registry;
    register_cpu_variants(registry);
    const auto selected = host_variants(registry, Op::row_sums);
    RunConfig config;
    config.keep_outputs = true;
    config.sizes = {{1000, 10}};
    config.types = {ElemType::u8};
    const std::size_t grey = kept_output_bytes(config, selected);
    EXPECT_EQ(grey, 4 * 1000 * (sizeof(float) + 8));
    config.channels = 3;
    EXPECT_EQ(kept_output_bytes(config, selected), 3 * grey);
}

TEST(HostMemory, KeptOutputsCountEveryPointOfASweepAtItsOwnShape) {
    Registry registry;
    register_cpu_variants(registry);
    const Op resample("resample");
    const auto selected = host_variants(registry, resample);
    ASSERT_EQ(selected.size(), 1u);
    RunConfig config;
    config.keep_outputs = true;
    config.sizes = {{100, 100}};
    config.sweep = {parse_param_axis("scale=100,200")};
    // Per scale: the variant's output and the reference's value and magnitude, at that scale.
    OpParams at;
    at.values["scale"] = 100;
    const std::size_t once = output_shape(resample, {100, 100}, at).elements();
    at.values["scale"] = 200;
    const std::size_t twice = output_shape(resample, {100, 100}, at).elements();
    EXPECT_GT(twice, once);
    EXPECT_EQ(kept_output_bytes(config, selected), 3 * (once + twice) * sizeof(float));
}
