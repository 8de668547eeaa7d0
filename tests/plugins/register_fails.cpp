// Adds a valid variant, then fails: the staged variant must not reach the registry.
#include "test_variant.hpp"

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    const coalesce_variant_desc desc = host_copy_desc("copy/test-staged-then-failed", "copy");
    if (int status = host->add_variant(host->context, &desc, err, err_len); status != 0)
        return status;
    write_message(err, err_len, "out of widgets on purpose");
    return 3;
}
