// A well-formed ABI 3 plugin with typed variants: a u8/u16 copy, a u8-only filter (a copy, as
// radius 0 makes it) for the type refusals, and one descriptor in the ABI 2 layout (struct_size
// ending before type_mask), which must take f32 only.
#include "test_variant.hpp"

#include <cstddef>

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    coalesce_variant_desc descs[3] = {
        typed_copy_desc("copy/test-typed-copy", "copy",
                        (1u << COALESCE_ELEM_U8) | (1u << COALESCE_ELEM_U16)),
        typed_copy_desc("filter_x/test-u8-only", "filter_x", 1u << COALESCE_ELEM_U8),
        host_copy_desc("copy/test-v2-layout", "copy"),
    };
    descs[2].struct_size = offsetof(coalesce_variant_desc, type_mask);
    descs[2].type_mask = 1u << COALESCE_ELEM_U8;  // beyond struct_size: must not be read
    return add_all(host, descs, err, err_len);
}
