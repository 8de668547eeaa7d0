// Every GPU variant of a registry filled by register_builtin_variants(), against the CPU reference,
// at awkward and large sizes, every filter radius class and border mode. A variant is tested the
// moment it is registered: the cases are generated from the registry.
#include "support/builtin_registry.hpp"
#include "support/variant_test_support.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/device.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/run_steps.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace coalesce {
namespace {

using test::builtin_registry;

std::vector<const Variant*> gpu_variants() {
    std::vector<const Variant*> out;
    for (const Variant& v : builtin_registry().variants())
        if (v.info.gpu && v.info.takes(ElemType::f32)) out.push_back(&v);  // float32 cases only
    return out;
}

// One test per (variant, shape); filters loop over their radii and border modes inside it, each
// combination reported by a SCOPED_TRACE. (One process per combination made CTest spend most of
// its time creating CUDA contexts.)
struct GpuCase {
    std::string variant_id;
    Shape shape;
};

void PrintTo(const GpuCase& c, std::ostream* os) {
    *os << c.variant_id << " " << c.shape.rows << "x" << c.shape.cols;
}

const std::vector<Shape>& test_shapes() {
    // 2200000x1: more than 65535 tiles of 32 rows, so every kernel's grid-stride loop over
    // gridDim.y runs more than once.
    static const std::vector<Shape> shapes = {{1, 1},   {1, 37},      {37, 1},      {38, 1},
                                              {33, 65}, {1000, 1001}, {4096, 4096}, {2200000, 1}};
    return shapes;
}

bool is_large(Shape s) { return s.elements() >= 2000000u; }  // 4096x4096 and 2200000x1

// Filters: radii 0, 1, 5, 32 and the maximum, every border; the large sizes only at r = 5 with
// clamp and mirror, to keep the suite short.
std::vector<OpParams> params_for(Op op, Shape shape) {
    if (!is_filter(op)) return {OpParams{}};
    std::vector<OpParams> out;
    if (is_large(shape)) {
        out.push_back({5, Border::clamp});
        out.push_back({5, Border::mirror});
        return out;
    }
    for (int radius : {0, 1, 5, 32, kMaxRadius})
        for (Border border : all_borders()) out.push_back({radius, border});
    return out;
}

// Whether the variant's factory takes this input (its declared limits and run-time refusals); no
// device work.
bool takes(const Variant& v, Shape shape, const OpParams& params) {
    if (!v.info.limits.unsupported_reason(v.info.op, shape, params).empty()) return false;
    try {
        v.make(shape, params);
    } catch (const Unsupported&) {
        return false;
    }
    return true;
}

// Shapes a variant takes with none of its parameters are not cases (the runner skips them): on a
// GPU machine no case here skips.
std::vector<GpuCase> all_cases() {
    std::vector<GpuCase> cases;
    for (const Variant* v : gpu_variants())
        for (Shape shape : test_shapes()) {
            const std::vector<OpParams> params = params_for(v->info.op, shape);
            const auto taken = [&](const OpParams& p) { return takes(*v, shape, p); };
            if (std::any_of(params.begin(), params.end(), taken))
                cases.push_back({v->info.id, shape});
        }
    return cases;
}

std::string case_name(const testing::TestParamInfo<GpuCase>& info) {
    return test::case_name(info.param.variant_id, info.param.shape);
}

class GpuTest {
protected:
    static bool have_device() { return cuda_device_count() > 0; }
};

class GpuVariantTest : public testing::TestWithParam<GpuCase>, protected GpuTest {
protected:
    void SetUp() override {
        if (!have_device()) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    }
};

TEST_P(GpuVariantTest, MatchesCpuReference) {
    const GpuCase& c = GetParam();
    const Variant* variant = builtin_registry().find(c.variant_id);
    ASSERT_NE(variant, nullptr);
    const Op op = variant->info.op;
    const Matrix& input = test::cached_input(c.shape);
    const Stream stream = Stream::create();

    for (const OpParams& params : params_for(op, c.shape)) {
        SCOPED_TRACE(is_filter(op) ? "radius " + std::to_string(params.radius) + ", border " +
                                         std::string(border_name(params.border))
                                   : std::string("no parameters"));
        // Inputs the variant does not take are skipped by the runner: not run here.
        if (!takes(*variant, c.shape, params)) continue;
        std::unique_ptr<Instance> instance = variant->make(c.shape, params);
        const Reference& ref = test::cached_reference(op, c.shape, params);
        instance->upload(input);
        instance->poison();
        // Launched twice: the runner times repeated launches, which must each produce the same
        // result.
        instance->launch(stream.get());
        instance->launch(stream.get());
        stream.synchronize();
        const Matrix out = instance->download();

        ASSERT_EQ(out.shape(), output_shape(op, c.shape));
        const Verification v = verify(op, ref, out);
        EXPECT_TRUE(v.ok) << v.message << " (max abs error " << v.max_abs_error << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Builtin, GpuVariantTest, testing::ValuesIn(all_cases()), case_name);

// The poison must be visible: an output that no launch wrote fails verification.
class GpuPoisonTest : public testing::TestWithParam<std::string>, protected GpuTest {
protected:
    void SetUp() override {
        if (!have_device()) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    }
};

TEST_P(GpuPoisonTest, UnwrittenOutputFailsVerification) {
    const Variant* variant = builtin_registry().find(GetParam());
    ASSERT_NE(variant, nullptr);
    // The default parameters, or the smallest radius a filter takes (filter_y/fast-walk-scan's 32).
    OpParams params{};
    params.radius = std::max(params.radius, variant->info.limits.min_radius);
    // 33x65, or for variants limited to whole float4 (and 4x4 blocks) 36x64.
    const Shape shape = takes(*variant, {33, 65}, params) ? Shape{33, 65} : Shape{36, 64};
    ASSERT_TRUE(takes(*variant, shape, params)) << "no poison shape for " << variant->info.id;
    const Op op = variant->info.op;
    std::unique_ptr<Instance> instance = variant->make(shape, params);
    instance->upload(test::cached_input(shape));
    instance->poison();
    const Matrix out = instance->download();
    ASSERT_EQ(out.shape(), output_shape(op, shape));
    const Verification v = verify(op, test::cached_reference(op, shape, params), out);
    EXPECT_FALSE(v.ok) << "a poisoned, never launched output passed verification";
    EXPECT_FALSE(v.message.empty());
}

std::vector<std::string> gpu_variant_ids() {
    std::vector<std::string> ids;
    for (const Variant* v : gpu_variants()) ids.push_back(v->info.id);
    return ids;
}

std::string poison_case_name(const testing::TestParamInfo<std::string>& info) {
    return test::sanitized(info.param);
}

INSTANTIATE_TEST_SUITE_P(Builtin, GpuPoisonTest, testing::ValuesIn(gpu_variant_ids()),
                         poison_case_name);

// What the registry says about the built-in GPU variants; needs no device.
TEST(BuiltinGpuVariants, EveryOperationHasGlobalPitchedAndSharedVariants) {
    for (Op op : test::matrix_ops()) {
        std::vector<std::string> spaces;
        for (const Variant* v : builtin_registry().for_op(op))
            if (v->info.gpu) spaces.push_back(v->info.memory_space);
        const auto has = [&](const char* s) {
            return std::find(spaces.begin(), spaces.end(), s) != spaces.end();
        };
        EXPECT_TRUE(has(space::global)) << op_name(op);
        EXPECT_TRUE(has(space::pitched)) << op_name(op);
        if (op != Op::copy) {
            EXPECT_TRUE(has(space::shared)) << op_name(op);
        }
    }
}

TEST(BuiltinGpuVariants, IdsNameTheirOperationAndDescribeTheirLesson) {
    for (const Variant* v : gpu_variants()) {
        const std::string prefix = std::string(op_name(v->info.op)) + "/";
        EXPECT_EQ(v->info.id.rfind(prefix, 0), 0u) << v->info.id;
        EXPECT_GT(v->info.id.size(), prefix.size()) << v->info.id;
        EXPECT_GE(v->info.description.size(), 40u) << v->info.id;
        EXPECT_FALSE(v->info.memory_space.empty()) << v->info.id;
        EXPECT_TRUE(static_cast<bool>(v->make)) << v->info.id;
    }
}

TEST(BuiltinGpuVariants, FiltersRefuseRadiiOutsideTheLimits) {
    for (const Variant* v : gpu_variants()) {
        if (!is_filter(v->info.op)) continue;
        EXPECT_THROW(v->make({16, 16}, OpParams{-1, Border::clamp}), std::invalid_argument)
            << v->info.id;
        EXPECT_THROW(v->make({16, 16}, OpParams{kMaxRadius + 1, Border::clamp}),
                     std::invalid_argument)
            << v->info.id;
    }
}

TEST(BuiltinGpuVariants, RefuseEmptyShapes) {
    for (const Variant* v : gpu_variants()) {
        EXPECT_THROW(v->make({0, 16}, OpParams{}), std::invalid_argument) << v->info.id;
        EXPECT_THROW(v->make({16, 0}, OpParams{}), std::invalid_argument) << v->info.id;
    }
}

// A timing table at 8192x8192 for the GPU machine, run only on request
// (--gtest_also_run_disabled_tests). It reports; it asserts only that every variant verifies.
TEST(GpuVariantTiming, DISABLED_Table8192) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    const Shape shape{8192, 8192};
    constexpr int kWarmups = 3;
    constexpr int kReps = 20;
    const Stream stream = Stream::create();
    const Event start = Event::create();
    const Event stop = Event::create();
    const auto median_ms = [&](auto&& body) {
        for (int i = 0; i < kWarmups; ++i) body();
        std::vector<float> times;
        for (int i = 0; i < kReps; ++i) {
            start.record(stream.get());
            body();
            stop.record(stream.get());
            times.push_back(Event::elapsed_ms(start, stop));
        }
        std::sort(times.begin(), times.end());
        return static_cast<double>(times[times.size() / 2]);
    };

    const std::size_t bytes = shape.elements() * sizeof(float);
    DeviceBuffer d_src(bytes), d_dst(bytes);
    const double copy_ms = median_ms([&] {
        COALESCE_CUDA(cudaMemcpyAsync(d_dst.get(), d_src.get(), bytes, cudaMemcpyDeviceToDevice,
                                      stream.get()));
    });
    const double copy_gbps = 2.0 * static_cast<double>(bytes) / (copy_ms * 1e-3) / 1e9;
    std::printf("device: %s\n", query_device(0).name.c_str());
    std::printf("%-34s %10s %10s %8s %s\n", "variant (8192x8192, r=4 clamp)", "ms", "GB/s", "%copy",
                "verified");
    std::printf("%-34s %10.4f %10.1f %8.1f %s\n", "cudaMemcpy D2D", copy_ms, copy_gbps, 100.0, "-");

    const OpParams params{};
    const Matrix& input = test::cached_input(shape);
    for (const Variant* v : gpu_variants()) {
        const Op op = v->info.op;
        std::unique_ptr<Instance> instance = v->make(shape, params);
        instance->upload(input);
        instance->poison();
        instance->launch(stream.get());
        stream.synchronize();
        const Verification check =
            verify(op, test::cached_reference(op, shape, params), instance->download());
        EXPECT_TRUE(check.ok) << v->info.id << ": " << check.message;
        const double ms = median_ms([&] { instance->launch(stream.get()); });
        const double gbps = static_cast<double>(bytes_moved(op, shape)) / (ms * 1e-3) / 1e9;
        std::printf("%-34s %10.4f %10.1f %8.1f %s\n", v->info.id.c_str(), ms, gbps,
                    100.0 * gbps / copy_gbps, check.ok ? "yes" : "NO");
    }
}

// A cancel raised on the host after the fifth enqueued timed launch stops the device timing loop
// at once: no more than the launches already queued run, and those come back timed.
TEST(GpuTiming, ACancelStopsTheTimingLoopWithinALaunchOrTwo) {
    if (cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device: " << no_device_reason();
    class Counting final : public Instance {
    public:
        Counting(std::unique_ptr<Instance> inner, std::atomic<bool>& flag, int stop_after)
            : inner_(std::move(inner)), flag_(flag), stop_after_(stop_after) {}
        void upload(const Matrix& in) override { inner_->upload(in); }
        void poison() override { inner_->poison(); }
        void launch(cudaStream_t s) override {
            inner_->launch(s);
            if (++launches == stop_after_) flag_ = true;
        }
        Matrix download() override { return inner_->download(); }
        int launches = 0;

    private:
        std::unique_ptr<Instance> inner_;
        std::atomic<bool>& flag_;
        int stop_after_;
    };
    const Variant* copy = builtin_registry().find("copy/global");
    ASSERT_NE(copy, nullptr);
    const Shape shape{1024, 1024};
    std::atomic<bool> flag{false};
    Counting instance(copy->make(shape, {}), flag, 3 + 5);  // three warm-ups, five timed
    instance.upload(test::cached_input(shape));
    Stream stream = Stream::create();
    const run_steps::Launches timed =
        run_steps::time_launches(instance, stream.get(), true, 3, 1000, 0.0, &flag);
    EXPECT_TRUE(timed.cancelled);
    EXPECT_EQ(instance.launches, 8);
    ASSERT_EQ(timed.ms.size(), 5u);
    for (double ms : timed.ms) EXPECT_GT(ms, 0.0);
}

}  // namespace
}  // namespace coalesce
