// A variant declaring an element type bit this Coalesce does not have (bit 7), beside a good one:
// the whole plugin is refused, naming the variant and the mask.
#include "test_variant.hpp"

#include <cstddef>

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    coalesce_variant_desc descs[2] = {
        host_copy_desc("copy/test-staged-typed", "copy"),
        typed_copy_desc("copy/test-unknown-type", "copy", (1u << COALESCE_ELEM_U8) | (1u << 7)),
    };
    return add_all(host, descs, err, err_len);
}
