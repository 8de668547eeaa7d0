// Registers a variant of an operation this Coalesce does not have (a plugin for a newer version).
#include "test_variant.hpp"

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    const coalesce_variant_desc desc = host_copy_desc("warp_drive/test-future", "warp_drive");
    return host->add_variant(host->context, &desc, err, err_len);
}
