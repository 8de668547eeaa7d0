// Registers the same id twice and ignores the host's refusal, returning success anyway: the
// loader must still refuse the whole plugin.
#include "test_variant.hpp"

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    const coalesce_variant_desc desc = host_copy_desc("copy/test-twice", "copy");
    host->add_variant(host->context, &desc, err, err_len);
    host->add_variant(host->context, &desc, err, err_len);
    return 0;
}
