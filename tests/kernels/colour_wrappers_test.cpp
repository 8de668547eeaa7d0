// The colour wrappers (kernels/colour_wrappers.cu) without a device: wrapped around the host
// variants, the planar form (planes split at upload, stacked or plane by plane, merged at
// download) and the interleaved form (rows as grey rows of cols * channels elements) must give
// the typed reference exactly, for u8/u16, 3 and 4 channels, odd shapes and every border, under
// both output poisons; and the forms that would not be the same computation are refused.
#include "colour_wrappers.hpp"

#include "coalesce/registry.hpp"
#include "coalesce/typed_run.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

namespace coalesce {
namespace {

const Registry& host_registry() {
    static const Registry registry = [] {
        Registry r;
        register_cpu_variants(r);
        return r;
    }();
    return registry;
}

void expect_exact(const Variant& variant, Shape shape, const OpParams& params) {
    for (ElemType type : {ElemType::u8, ElemType::u16})
        for (int channels : {3, 4}) {
            const AnyImage input = typed::random_input(type, shape, 9, channels);
            const AnyImage ref = typed::reference(variant.info.op, input, params);
            for (std::uint8_t poison : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
                std::unique_ptr<Instance> instance = variant.make(shape, params);
                instance->upload_typed(input);
                instance->poison_bytes(poison);
                instance->launch(nullptr);
                const Verification v = typed::verify_exact(ref, instance->download_typed());
                EXPECT_TRUE(v.ok) << variant.info.id << " " << shape.rows << "x" << shape.cols
                                  << " " << elem_type_name(type) << " x" << channels << " r"
                                  << params.radius << " " << border_name(params.border)
                                  << " poison " << +poison << ": " << v.message;
            }
        }
}

std::vector<OpParams> params_for(Op op) {
    if (!is_filter(op)) return {OpParams{}};
    std::vector<OpParams> out;
    for (int radius : {0, 2, 9})
        for (Border border : all_borders()) out.push_back({radius, border, {}});
    return out;
}

TEST(ColourWrappers, PlanarAndInterleavedFormsOfTheHostLoopsAreExact) {
    for (const char* op : {"copy", "transpose", "row_sums", "col_sums", "filter_x", "filter_y"}) {
        const Variant* grey = host_registry().find(std::string(op) + "/cpu-naive");
        ASSERT_NE(grey, nullptr) << op;
        std::vector<Variant> wrapped = {
            colour::wrap(*grey, std::string(op) + "/planar", colour::Layout::planar, "planar")};
        const std::string name = op;
        if (name == "copy" || name == "filter_y" || name == "col_sums")
            wrapped.push_back(colour::wrap(*grey, name + "/interleaved",
                                           colour::Layout::interleaved, "interleaved"));
        for (const Variant& v : wrapped) {
            EXPECT_EQ(v.info.channels, (std::vector<int>{3, 4}));
            EXPECT_EQ(v.info.types, (std::vector<ElemType>{ElemType::u8, ElemType::u16}));
            for (Shape shape :
                 {Shape{1, 1}, Shape{37, 1}, Shape{1, 37}, Shape{33, 65}, Shape{5, 3}})
                for (const OpParams& params : params_for(v.info.op)) expect_exact(v, shape, params);
        }
    }
}

TEST(ColourWrappers, FormsThatAreNotTheSameComputationAreRefused) {
    for (const char* op : {"transpose", "row_sums", "filter_x"}) {
        const Variant* grey = host_registry().find(std::string(op) + "/cpu-naive");
        ASSERT_NE(grey, nullptr);
        try {
            colour::wrap(*grey, "x/interleaved", colour::Layout::interleaved, "");
            ADD_FAILURE() << op << " was wrapped as interleaved";
        } catch (const std::invalid_argument& e) {
            EXPECT_THAT(e.what(), ::testing::HasSubstr("x/interleaved"));
        }
    }
    const Variant* f32_only = host_registry().find("copy/cpu-blocked");
    ASSERT_NE(f32_only, nullptr);
    EXPECT_THROW(colour::wrap(*f32_only, "copy/x", colour::Layout::planar, ""),
                 std::invalid_argument);
}

TEST(ColourWrappers, AGreyImageIsNotAColourRun) {
    const Variant v = colour::wrap(*host_registry().find("copy/cpu-naive"), "copy/planar",
                                   colour::Layout::planar, "");
    std::unique_ptr<Instance> instance = v.make({2, 2}, {});
    EXPECT_THROW(instance->upload_typed(typed::random_input(ElemType::u8, {2, 2}, 1)),
                 std::logic_error);
}

}  // namespace
}  // namespace coalesce
