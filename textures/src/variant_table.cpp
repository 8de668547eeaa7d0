#include "variant_table.hpp"

#include "addressing.hpp"
#include "variant_abi.hpp"

#include <cstdint>
#include <iterator>
#include <string>

namespace coalesce::textures {

namespace {

constexpr std::uint32_t kAllBorders = (1u << COALESCE_BORDER_CLAMP) | (1u << COALESCE_BORDER_ZERO) |
                                      (1u << COALESCE_BORDER_WRAP) | (1u << COALESCE_BORDER_MIRROR);

struct OpText {
    int op;
    const char* name;    // the operation's stable name in the ABI
    const char* kernel;  // the __global__ function
    const char* what;    // what reading through a texture changes for this operation
};

const OpText kOps[] = {
    {TEX_OP_COPY, "copy", "copy_kernel",
     "Copy whose reads go through the texture unit and its cache instead of plain loads: the cost "
     "of the "
     "texture path itself, against which the other texture variants are read."},
    {TEX_OP_TRANSPOSE, "transpose", "transpose_kernel",
     "Transpose with coalesced writes; the column-wise reads that make the naive version slow are "
     "served by "
     "the texture cache, with no shared-memory tile."},
    {TEX_OP_ROW_SUMS, "row_sums", "row_sums_kernel",
     "Row sums, one warp per row reading neighbouring texels through the texture cache, shuffle "
     "reduction."},
    {TEX_OP_COL_SUMS, "col_sums", "col_sums_kernel",
     "Column sums, each warp reading 32 neighbouring texels of a row through the texture cache, "
     "partial sums "
     "combined in shared memory."},
    {TEX_OP_FILTER_X, "filter_x", "filter_x_kernel",
     "Row filter whose border handling is done in hardware: the texture address mode (clamp; "
     "border for zero; "
     "wrap and mirror with normalized coordinates) resolves reads past the row ends, and "
     "overlapping windows "
     "hit the texture cache."},
    {TEX_OP_FILTER_Y, "filter_y", "filter_y_kernel",
     "Column filter whose border handling is done in hardware: the texture address mode (clamp; "
     "border for "
     "zero; wrap and mirror with normalized coordinates) resolves reads past the top and bottom, "
     "and the 2r+1 "
     "rows a block shares stay in the texture cache."},
    {TEX_OP_RANDOM_SAMPLE, "random_sample", "tex_random_sample_kernel",
     "The seed's texRandomSample: the same hashed samples in an area x area window as the "
     "global variants, each a point-sampled tex2D through the texture cache, built for 2-D "
     "neighbourhoods (the seed: 355 GB/s against 112 from global memory; on an H100, whose L1 "
     "is the texture cache, global loads won: 267 against 254 GB/s at area 4, 248 against 120 "
     "at 32)."},
    {TEX_OP_RESAMPLE, "resample", "tex_resample_kernel",
     "Bilinear resample by the texture unit: one tex2D per output pixel on a texture with "
     "cudaFilterModeLinear does the four reads, the clamped edges and the 1/256-step weights that "
     "resample/global computes by hand."},
    {TEX_OP_U8_TO_FLOAT, "u8_to_float", "tex_u8_to_float_kernel",
     "8-bit texels read with cudaReadModeNormalizedFloat: the texture fetch returns pixel / 255 "
     "as a float, the conversion u8_to_float/global does by hand."},
};

const char* const kArrayText =
    " Input in a cudaArray: an opaque block-linear layout in which 2-D neighbours share cache "
    "lines.";
const char* const kPitchedText =
    " Input in pitched linear memory (cudaMallocPitch, pitch a multiple of the texture pitch "
    "alignment): "
    "row-major lines, so the 2-D locality is the cache's alone.";

const char* const kUnormText =
    " Texels of 8 or 16 bits (u8 and u16 runs), read with cudaReadModeNormalizedFloat: the texture "
    "unit converts each to v / 255 or v / 65535, and the window's integer mean is recovered "
    "exactly, rounded as the typed reference rounds it (u8: one float sum, turned back into the "
    "integer sum once; u16: each texel turned back into its integer).";

constexpr std::uint32_t kF32Only = 1u << COALESCE_ELEM_F32;
constexpr std::uint32_t kU8AndU16 = (1u << COALESCE_ELEM_U8) | (1u << COALESCE_ELEM_U16);

using CreateFn = int (*)(size_t, size_t, const coalesce_params*, void**, char*, size_t);

template <Family F>
CreateFn create_for(int op) {
    switch (op) {
    case TEX_OP_COPY: return &create_variant<TEX_OP_COPY, F>;
    case TEX_OP_TRANSPOSE: return &create_variant<TEX_OP_TRANSPOSE, F>;
    case TEX_OP_ROW_SUMS: return &create_variant<TEX_OP_ROW_SUMS, F>;
    case TEX_OP_COL_SUMS: return &create_variant<TEX_OP_COL_SUMS, F>;
    case TEX_OP_FILTER_X: return &create_variant<TEX_OP_FILTER_X, F>;
    case TEX_OP_RANDOM_SAMPLE: return &create_variant<TEX_OP_RANDOM_SAMPLE, F>;
    case TEX_OP_RESAMPLE: return &create_variant<TEX_OP_RESAMPLE, F>;
    case TEX_OP_U8_TO_FLOAT: return &create_variant<TEX_OP_U8_TO_FLOAT, F>;
    default: return &create_variant<TEX_OP_FILTER_Y, F>;
    }
}

template <Family F>
CreateFn create_unorm_for(int op) {
    return op == TEX_OP_FILTER_X ? &create_variant<TEX_OP_FILTER_X, F, Texels::unorm>
                                 : &create_variant<TEX_OP_FILTER_Y, F, Texels::unorm>;
}

struct Table {
    std::vector<std::string> strings;  // ids and descriptions the descriptors point into
    std::vector<coalesce_variant_desc> descs;

    Table() {
        // no reallocation: descriptors keep c_str() pointers
        strings.reserve(8 * std::size(kOps));
        for (const OpText& op : kOps) {
            add(op, "texture-array", "texture-array", kArrayText, create_for<Family::array>(op.op));
            add(op, "texture-pitched", "texture-pitched", kPitchedText,
                create_for<Family::pitched>(op.op));
        }
        for (const OpText& op : kOps) {
            if (op.op != TEX_OP_FILTER_X && op.op != TEX_OP_FILTER_Y) continue;
            add_unorm(op, "texture-array-unorm", "texture-array", kArrayText,
                      create_unorm_for<Family::array>(op.op));
            add_unorm(op, "texture-pitched-unorm", "texture-pitched", kPitchedText,
                      create_unorm_for<Family::pitched>(op.op));
        }
    }

    // The same filter on u8 and u16 texels: only the typed functions, no f32 ones.
    void add_unorm(const OpText& op, const char* name, const char* memory_space,
                   const char* family_text, CreateFn create) {
        coalesce_variant_desc& desc =
            add(op, name, memory_space, (std::string(family_text) + kUnormText).c_str(), create);
        desc.kernel = op.op == TEX_OP_FILTER_X ? "filter_x_unorm_kernel" : "filter_y_unorm_kernel";
        desc.type_mask = kU8AndU16;
        desc.upload = nullptr;
        desc.poison = nullptr;
        desc.download = nullptr;
        desc.upload_typed = &upload_typed_variant;
        desc.poison_bytes = &poison_bytes_variant;
        desc.download_typed = &download_typed_variant;
    }

    coalesce_variant_desc& add(const OpText& op, const char* name, const char* memory_space,
                               const char* family_text, CreateFn create) {
        const std::string& id = strings.emplace_back(std::string(op.name) + "/" + name);
        const std::string& description = strings.emplace_back(std::string(op.what) + family_text);
        coalesce_variant_desc desc{};
        desc.struct_size = sizeof(coalesce_variant_desc);
        desc.id = id.c_str();
        desc.op = op.name;
        desc.tier = "classic";  // texture against global memory is one of the course's lessons
        desc.kernel = op.kernel;
        desc.memory_space = memory_space;
        desc.description = description.c_str();
        desc.border_mask = kAllBorders;
        desc.create = create;
        desc.upload = &upload_variant;
        desc.poison = &poison_variant;
        desc.launch = &launch_variant;
        desc.download = &download_variant;
        desc.destroy = &destroy_variant;
        desc.type_mask = kF32Only;
        return descs.emplace_back(desc);
    }
};

}  // namespace

const std::vector<coalesce_variant_desc>& variant_table() {
    static const Table table;
    return table.descs;
}

}  // namespace coalesce::textures
