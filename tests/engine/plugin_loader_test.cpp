// The plugin loader against deliberately broken plugins (tests/plugins/) and the real texture
// plugin. Needs no GPU: registration makes no CUDA call, and the good test plugin runs on the host.
#include "support/variant_test_support.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/typed_image.hpp"
#include "coalesce/typed_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace coalesce {
namespace {

namespace fs = std::filesystem;
using testing::HasSubstr;

const fs::path kTestPluginDir = COALESCE_TEST_PLUGIN_DIR;
const fs::path kTexturesPlugin = COALESCE_TEXTURES_PLUGIN;

fs::path test_plugin(const std::string& name) { return kTestPluginDir / (name + ".so"); }

std::vector<std::string> ids_of(const Registry& registry) {
    std::vector<std::string> ids;
    for (const Variant& v : registry.variants()) ids.push_back(v.info.id);
    return ids;
}

// A registry as an application starts with: the host variants, plus one id a test plugin reuses.
Registry starting_registry() {
    Registry registry;
    register_cpu_variants(registry);
    Variant taken;
    taken.info.id = "copy/test-already-here";
    taken.info.op = Op::copy;
    taken.info.memory_space = space::host;
    taken.info.gpu = false;
    taken.make = [](Shape, const OpParams&) -> std::unique_ptr<Instance> {
        throw std::logic_error("never made");
    };
    registry.add(std::move(taken));
    return registry;
}

class PluginLoaderTest : public testing::Test {
protected:
    void SetUp() override { unsetenv("COALESCE_PLUGIN_PATH"); }
};

struct Refusal {
    std::string plugin;
    std::vector<std::string> reason_parts;
};

class RefusedPluginTest : public testing::TestWithParam<Refusal> {};

TEST_P(RefusedPluginTest, IsRefusedWithAMessageNamingTheFileAndTheRegistryIsUnchanged) {
    const Refusal& refusal = GetParam();
    Registry registry = starting_registry();
    const std::vector<std::string> before = ids_of(registry);
    const fs::path file = test_plugin(refusal.plugin);

    const PluginReport report = load_plugin(file, registry);

    EXPECT_FALSE(report.loaded);
    EXPECT_EQ(report.variants, 0u);
    EXPECT_THAT(report.message, HasSubstr(file.filename().string()));
    EXPECT_EQ(report.message.rfind(fs::canonical(file).string() + ": ", 0), 0u) << report.message;
    for (const std::string& part : refusal.reason_parts)
        EXPECT_THAT(report.message, HasSubstr(part));
    EXPECT_EQ(ids_of(registry), before);
}

INSTANTIATE_TEST_SUITE_P(
    BrokenPlugins, RefusedPluginTest,
    testing::Values(
        Refusal{"wrong_abi",
                {"ABI version mismatch", "the plugin has version 999", "this Coalesce expects 3"}},
        Refusal{"old_abi",
                {"ABI version mismatch", "the plugin has version 2", "this Coalesce expects 3"}},
        Refusal{"unknown_type",
                {"variant 'copy/test-unknown-type'", "element types this Coalesce does not have",
                 "type_mask 0x81"}},
        Refusal{"no_types", {"variant 'copy/test-no-types'", "takes no element type"}},
        Refusal{"typed_lacks_functions",
                {"variant 'copy/test-typed-lacks'",
                 "takes u8 or u16 but lacks upload_typed, poison_bytes or download_typed"}},
        Refusal{"unterminated_err", {"registration failed (status 4)", "xxxx"}},
        Refusal{"data_exports", {"coalesce_plugin_abi_version is exported as data"}},
        Refusal{"unknown_op", {"does not have ('warp_drive')"}},
        Refusal{"no_register", {"missing entry point coalesce_plugin_register"}},
        Refusal{"no_version", {"missing entry point coalesce_plugin_abi_version"}},
        Refusal{"register_fails", {"registration failed", "out of widgets on purpose"}},
        Refusal{"duplicate_registry", {"duplicate variant id 'copy/test-already-here'"}},
        Refusal{"duplicate_within", {"duplicate variant id 'copy/test-twice'", "twice"}},
        Refusal{"not_a_library", {"not a loadable library", "not_a_library.so"}}),
    [](const testing::TestParamInfo<Refusal>& param_info) { return param_info.param.plugin; });

TEST_F(PluginLoaderTest, AMissingFileIsRefusedWithItsName) {
    Registry registry = starting_registry();
    const std::size_t before = registry.size();
    const PluginReport report = load_plugin(kTestPluginDir / "does_not_exist.so", registry);
    EXPECT_FALSE(report.loaded);
    EXPECT_THAT(report.message, HasSubstr("does_not_exist.so"));
    EXPECT_THAT(report.message, HasSubstr("cannot open"));
    EXPECT_EQ(registry.size(), before);
}

TEST_F(PluginLoaderTest, GoodPluginVariantsCarryOriginSpaceAndBorders) {
    Registry registry = starting_registry();
    const std::size_t before = registry.size();
    const PluginReport report = load_plugin(test_plugin("good_plugin"), registry);
    ASSERT_TRUE(report.loaded) << report.message;
    EXPECT_TRUE(report.message.empty());
    EXPECT_EQ(report.variants, 4u);
    EXPECT_EQ(registry.size(), before + 4);

    const std::string origin = fs::canonical(test_plugin("good_plugin")).string();
    const Variant* copy = registry.find("copy/test-host-copy");
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->info.origin, origin);
    EXPECT_EQ(copy->info.op, Op::copy);
    EXPECT_EQ(copy->info.memory_space, "test-host");
    EXPECT_EQ(copy->info.description, "copies its input on the host (loader tests)");
    EXPECT_EQ(copy->info.tier, Tier::classic);  // no tier given

    const Variant* narrow = registry.find("copy/test-narrow-only");
    ASSERT_NE(narrow, nullptr);
    EXPECT_EQ(narrow->info.tier, Tier::tuned);
    EXPECT_EQ(narrow->info.kernel, "host_copy_narrow");

    const Variant* filter = registry.find("filter_x/test-clamp-and-mirror");
    ASSERT_NE(filter, nullptr);
    EXPECT_EQ(filter->info.borders, (std::vector<Border>{Border::clamp, Border::mirror}));
    EXPECT_TRUE(filter->info.supports(Border::mirror));
    EXPECT_FALSE(filter->info.supports(Border::wrap));
}

TEST_F(PluginLoaderTest, InstanceAdapterRunsThePluginFunctions) {
    Registry registry = starting_registry();
    ASSERT_TRUE(load_plugin(test_plugin("good_plugin"), registry).loaded);
    const Variant* copy = registry.find("copy/test-host-copy");
    ASSERT_NE(copy, nullptr);

    const Matrix input = Matrix::random(3, 5, 7);
    std::unique_ptr<Instance> instance = copy->make(input.shape(), OpParams{});
    instance->upload(input);
    instance->poison();
    const Matrix poisoned = instance->download();
    ASSERT_EQ(poisoned.shape(), input.shape());
    EXPECT_TRUE(std::isnan(poisoned.at(2, 4)));
    instance->launch(nullptr);
    const Matrix out = instance->download();
    ASSERT_EQ(out.shape(), input.shape());
    EXPECT_TRUE(std::equal(out.data(), out.data() + out.size(), input.data()));

    EXPECT_THROW(instance->upload(Matrix(5, 3)), std::invalid_argument);
}

TEST_F(PluginLoaderTest, APluginFailureBecomesAnExceptionWithItsMessageAndTheFile) {
    Registry registry = starting_registry();
    ASSERT_TRUE(load_plugin(test_plugin("good_plugin"), registry).loaded);
    const Variant* failing = registry.find("copy/test-launch-fails");
    ASSERT_NE(failing, nullptr);
    std::unique_ptr<Instance> instance = failing->make({2, 2}, OpParams{});
    instance->upload(Matrix(2, 2, 1.0f));
    try {
        instance->launch(nullptr);
        FAIL() << "launch did not throw";
    } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), HasSubstr("launch refused on purpose"));
        EXPECT_THAT(e.what(), HasSubstr("good_plugin.so"));
        EXPECT_THAT(e.what(), HasSubstr("copy/test-launch-fails"));
    }
}

TEST_F(PluginLoaderTest, TheSameFileTwiceIntoOneRegistryIsRefusedButAFreshRegistryGetsIt) {
    Registry registry = starting_registry();
    ASSERT_TRUE(load_plugin(test_plugin("good_plugin"), registry).loaded);
    const std::size_t after_first = registry.size();
    const PluginReport again = load_plugin(test_plugin("good_plugin"), registry);
    EXPECT_FALSE(again.loaded);
    EXPECT_THAT(again.message, HasSubstr("already loaded"));
    EXPECT_EQ(registry.size(), after_first);

    Registry fresh = starting_registry();
    EXPECT_TRUE(load_plugin(test_plugin("good_plugin"), fresh).loaded);
    EXPECT_NE(fresh.find("copy/test-host-copy"), nullptr);
}

TEST_F(PluginLoaderTest, SearchPathIsExtraDirsThenEnvironmentThenNextToTheExecutable) {
    setenv("COALESCE_PLUGIN_PATH", "/env/one::/env/two:", 1);
    const std::vector<fs::path> dirs = plugin_search_path({"/extra/a", "/extra/b"});
    const fs::path exe_dir = fs::read_symlink("/proc/self/exe").parent_path();
    const std::vector<fs::path> expected = {
        "/extra/a",          "/extra/b",
        "/env/one",          "/env/two",
        exe_dir / "plugins", (exe_dir / ".." / "lib" / "coalesce" / "plugins").lexically_normal()};
    EXPECT_EQ(dirs, expected);
}

// One folder holding every broken plugin, the good one, a text file named *.so and a README:
// each .so gets one report, the README none, and the refusals do not stop the good plugins.
TEST_F(PluginLoaderTest, LoadingAFolderRefusesTheBrokenAndLoadsTheRest) {
    Registry registry = starting_registry();
    const std::size_t before = registry.size();
    // The folder twice, once through the environment: still one load per file.
    setenv("COALESCE_PLUGIN_PATH", kTestPluginDir.c_str(), 1);
    const std::vector<PluginReport> reports = load_plugins(registry, {kTestPluginDir});

    std::map<std::string, PluginReport> by_name;
    for (const PluginReport& r : reports) {
        EXPECT_TRUE(by_name.emplace(r.file.filename().string(), r).second)
            << "loaded twice: " << r.file;
        if (!r.loaded) {
            EXPECT_EQ(r.message.rfind(r.file.string() + ": ", 0), 0u) << r.message;
        }
    }
    EXPECT_EQ(by_name.count("README.txt"), 0u);
    for (const char* refused :
         {"wrong_abi.so", "no_register.so", "no_version.so", "register_fails.so",
          "duplicate_registry.so", "duplicate_within.so", "not_a_library.so", "unterminated_err.so",
          "data_exports.so", "unknown_op.so", "old_abi.so", "unknown_type.so", "no_types.so",
          "typed_lacks_functions.so"}) {
        ASSERT_EQ(by_name.count(refused), 1u) << refused;
        EXPECT_FALSE(by_name[refused].loaded) << refused;
    }
    for (const char* good : {"good_plugin.so", "typed_plugin.so"}) {
        ASSERT_EQ(by_name.count(good), 1u) << good;
        EXPECT_TRUE(by_name[good].loaded) << by_name[good].message;
    }

    // The texture plugin sits in bin/plugins next to this test executable.
    const std::string textures_name = kTexturesPlugin.filename().string();
    ASSERT_EQ(by_name.count(textures_name), 1u)
        << "the texture plugin was not found next to the executable";
    EXPECT_TRUE(by_name[textures_name].loaded) << by_name[textures_name].message;

    EXPECT_EQ(registry.size(), before + 4 + 3 + by_name[textures_name].variants);
    for (const char* absent :
         {"copy/test-wrong-abi", "copy/test-no-version", "copy/test-staged-then-failed",
          "copy/test-fresh", "copy/test-twice", "copy/test-old-abi", "copy/test-staged-typed",
          "copy/test-unknown-type", "copy/test-no-types", "copy/test-typed-lacks"})
        EXPECT_EQ(registry.find(absent), nullptr) << absent;
}

// The operations the texture plugin implements: the six matrix operations and the on-chip
// experiments that read through textures.
std::vector<Op> texture_plugin_ops() {
    std::vector<Op> ops = test::matrix_ops();
    for (const char* name : {"random_sample", "resample", "u8_to_float"})
        ops.push_back(*parse_op(name));
    return ops;
}

TEST_F(PluginLoaderTest, TexturePluginRegistersBothFamiliesForEveryOperation) {
    Registry registry = starting_registry();
    const std::size_t before = registry.size();
    const PluginReport report = load_plugin(kTexturesPlugin, registry);
    ASSERT_TRUE(report.loaded) << report.message;
    // Both families of every operation, and of the two filters on unorm (u8, u16) texels too.
    EXPECT_EQ(report.variants, 2 * texture_plugin_ops().size() + 4);
    EXPECT_EQ(registry.size(), before + report.variants);

    const std::string origin = fs::canonical(kTexturesPlugin).string();
    for (Op op : texture_plugin_ops()) {
        for (const char* family : {space::texture_array, space::texture_pitched}) {
            const std::string id = std::string(op_name(op)) + "/" + family;
            const Variant* v = registry.find(id);
            ASSERT_NE(v, nullptr) << id;
            EXPECT_EQ(v->info.op, op);
            EXPECT_EQ(v->info.memory_space, family);
            EXPECT_EQ(v->info.origin, origin);
            EXPECT_TRUE(v->info.gpu);
            EXPECT_THAT(v->info.description, HasSubstr("texture"));
            EXPECT_EQ(v->info.borders, all_borders()) << id;
            EXPECT_EQ(v->info.types, std::vector<ElemType>{ElemType::f32}) << id;
        }
    }
    for (const char* op : {"filter_x", "filter_y"}) {
        for (const char* family : {space::texture_array, space::texture_pitched}) {
            const std::string id = std::string(op) + "/" + family + "-unorm";
            const Variant* v = registry.find(id);
            ASSERT_NE(v, nullptr) << id;
            EXPECT_EQ(v->info.op, *parse_op(op));
            EXPECT_EQ(v->info.memory_space, family);
            EXPECT_EQ(v->info.types, (std::vector<ElemType>{ElemType::u8, ElemType::u16})) << id;
            EXPECT_EQ(v->info.borders, all_borders()) << id;
            EXPECT_EQ(v->info.kernel, std::string(op) + "_unorm_kernel");
            EXPECT_THAT(v->info.description, HasSubstr("cudaReadModeNormalizedFloat"));
        }
    }
}

// ---- element types (ABI 3) ----

TEST_F(PluginLoaderTest, VariantsCarryTheTypesTheyDeclareAndAnOlderLayoutTakesF32Only) {
    Registry registry = starting_registry();
    const PluginReport report = load_plugin(test_plugin("typed_plugin"), registry);
    ASSERT_TRUE(report.loaded) << report.message;
    EXPECT_EQ(report.variants, 3u);
    const std::map<std::string, std::vector<ElemType>> expected = {
        {"copy/test-typed-copy", {ElemType::u8, ElemType::u16}},
        {"filter_x/test-u8-only", {ElemType::u8}},
        {"copy/test-v2-layout", {ElemType::f32}},  // its type_mask lies beyond its struct_size
    };
    for (const auto& [id, types] : expected) {
        const Variant* v = registry.find(id);
        ASSERT_NE(v, nullptr) << id;
        EXPECT_EQ(v->info.types, types) << id;
    }
    ASSERT_TRUE(load_plugin(test_plugin("good_plugin"), registry).loaded);
    EXPECT_EQ(registry.find("copy/test-host-copy")->info.types,
              std::vector<ElemType>{ElemType::f32});
}

// The id by value: a reference parameter bound to the caller's temporary string would make g++
// 13 warn that the returned reference may dangle (-Wdangling-reference), though it points into
// the registry.
const Variant& typed_variant(Registry& registry, std::string_view id) {
    if (registry.find(id) == nullptr) {
        const PluginReport report = load_plugin(test_plugin("typed_plugin"), registry);
        if (!report.loaded) throw std::runtime_error(report.message);
    }
    return *registry.find(id);
}

template <class T>
TypedImage<T> counting_image(std::size_t rows, std::size_t cols, T step) {
    TypedImage<T> image(rows, cols, 1);
    for (std::size_t i = 0; i < image.size(); ++i)
        image.data()[i] = static_cast<T>(static_cast<T>(i) * step + 1);
    return image;
}

TEST_F(PluginLoaderTest, TypedInstanceAdapterRunsTheTypedFunctionsOnU8AndU16) {
    Registry registry;
    const Variant& copy = typed_variant(registry, "copy/test-typed-copy");
    const AnyImage inputs[] = {counting_image<std::uint8_t>(3, 5, 17),
                               counting_image<std::uint16_t>(3, 5, 4099)};
    for (const AnyImage& input : inputs) {
        std::unique_ptr<Instance> instance = copy.make({3, 5}, OpParams{});
        instance->upload_typed(input);
        for (std::uint8_t byte : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
            instance->poison_bytes(byte);
            const AnyImage poisoned = instance->download_typed();
            ASSERT_EQ(poisoned.index(), input.index()) << typed::type_name_of(input);
            std::visit(
                [&](const auto& image) {
                    for (std::size_t i = 0; i < image.size(); ++i)
                        ASSERT_EQ(reinterpret_cast<const std::uint8_t*>(image.data())[i], byte);
                },
                poisoned);
        }
        instance->launch(nullptr);
        EXPECT_EQ(instance->download_typed(), input) << typed::type_name_of(input);
    }
}

TEST_F(PluginLoaderTest, ATypeTheVariantDoesNotTakeIsRefusedNamingTheVariantAndTheType) {
    Registry registry;
    const Variant& u8_only = typed_variant(registry, "filter_x/test-u8-only");
    std::unique_ptr<Instance> instance = u8_only.make({3, 5}, OpParams{});
    try {
        instance->upload_typed(counting_image<std::uint16_t>(3, 5, 1));
        FAIL() << "a u16 image was uploaded into a u8-only variant";
    } catch (const Unsupported& e) {
        EXPECT_THAT(e.what(), HasSubstr("typed_plugin.so"));
        EXPECT_THAT(e.what(), HasSubstr("filter_x/test-u8-only does not take u16 (it takes u8)"));
    }
    EXPECT_THROW(instance->upload(Matrix(3, 5)), Unsupported);  // nor f32
    EXPECT_THROW(instance->poison_bytes(0), std::logic_error);  // nothing uploaded yet
    EXPECT_THROW(instance->upload_typed(TypedImage<float>(3, 5, 1)), std::invalid_argument);
    EXPECT_THROW(instance->upload_typed(counting_image<std::uint8_t>(5, 3, 1)),
                 std::invalid_argument);  // not create()'s shape
    instance->upload_typed(counting_image<std::uint8_t>(3, 5, 1));
    instance->launch(nullptr);
    EXPECT_EQ(instance->download_typed(), AnyImage(counting_image<std::uint8_t>(3, 5, 1)));

    Registry f32_registry = starting_registry();
    ASSERT_TRUE(load_plugin(test_plugin("good_plugin"), f32_registry).loaded);
    std::unique_ptr<Instance> f32_only =
        f32_registry.find("copy/test-host-copy")->make({3, 5}, OpParams{});
    try {
        f32_only->upload_typed(counting_image<std::uint8_t>(3, 5, 1));
        FAIL() << "a u8 image was uploaded into an f32-only variant";
    } catch (const Unsupported& e) {
        EXPECT_THAT(e.what(), HasSubstr("copy/test-host-copy does not take u8 (it takes f32)"));
    }
}

// As a user meets it: a u16 (or f32) run of a u8-only variant is skipped, the reason naming the
// variant and the type, and the record still counts as verified; nothing crashes. (Without a
// device the u8 run is skipped too, for want of one: the loader marks plugin variants as GPU.)
TEST_F(PluginLoaderTest, TheRunnerSkipsATypeAVariantDoesNotTakeNamingBoth) {
    Registry registry;
    typed_variant(registry, "filter_x/test-u8-only");
    RunConfig config;
    config.variants = {"filter_x/test-u8-only"};
    config.sizes = {{3, 5}};
    config.types = {ElemType::u8, ElemType::u16, ElemType::f32};
    config.params.radius = 0;  // the test variant copies: a filter of radius 0
    config.reps = 1;
    config.warmups = 0;
    const RunRecord record = Runner(registry).run(config);
    ASSERT_EQ(record.runs.size(), 3u);
    std::map<std::string, const RunResult*> by_type;
    for (const RunResult& r : record.runs) by_type[r.type] = &r;
    ASSERT_EQ(by_type.size(), 3u);
    EXPECT_EQ(by_type["u16"]->status, Status::skipped);
    EXPECT_EQ(by_type["u16"]->error, "filter_x/test-u8-only does not take u16 (it takes u8)");
    EXPECT_EQ(by_type["f32"]->status, Status::skipped);
    EXPECT_EQ(by_type["f32"]->error, "filter_x/test-u8-only does not take f32 (it takes u8)");
    EXPECT_THAT(by_type["u8"]->error, testing::Not(HasSubstr("does not take")));
    EXPECT_TRUE(record.all_verified());
}

}  // namespace
}  // namespace coalesce

namespace coalesce {

TEST(PluginLoader, AnUnsupportedCreateIsThrownAsUnsupportedWithThePluginsReason) {
    Registry registry;
    ASSERT_TRUE(load_plugin(test_plugin("good_plugin"), registry).loaded);
    const Variant* narrow = registry.find("copy/test-narrow-only");
    ASSERT_NE(narrow, nullptr);
    EXPECT_NO_THROW(narrow->make({2, 8}, OpParams{}));
    try {
        narrow->make({2, 9}, OpParams{});
        FAIL() << "a 9-column input was accepted";
    } catch (const Unsupported& e) {
        EXPECT_THAT(e.what(), HasSubstr("wider than the 8 columns"));
    }
}

}  // namespace coalesce
