// Reports ABI version 2, the layout before element types; its register must never be called.
#include "test_variant.hpp"

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) { return 2u; }

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    const coalesce_variant_desc desc = host_copy_desc("copy/test-old-abi", "copy");
    return host->add_variant(host->context, &desc, err, err_len);
}
