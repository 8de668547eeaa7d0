// A variant whose type_mask is 0: it takes nothing, and is refused saying so.
#include "test_variant.hpp"

#include <cstddef>

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    coalesce_variant_desc desc = host_copy_desc("copy/test-no-types", "copy");
    desc.type_mask = 0;
    return host->add_variant(host->context, &desc, err, err_len);
}
