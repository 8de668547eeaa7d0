// Registers a fresh id, then one the test puts in the registry first; it passes the host's
// refusal on, as a well-behaved plugin does.
#include "test_variant.hpp"

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    const coalesce_variant_desc fresh = host_copy_desc("copy/test-fresh", "copy");
    if (int status = host->add_variant(host->context, &fresh, err, err_len); status != 0)
        return status;
    const coalesce_variant_desc taken = host_copy_desc("copy/test-already-here", "copy");
    return host->add_variant(host->context, &taken, err, err_len);
}
