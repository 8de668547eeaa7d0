// Exports coalesce_plugin_register but not the version function.
#include "test_variant.hpp"

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    const coalesce_variant_desc desc = host_copy_desc("copy/test-no-version", "copy");
    return host->add_variant(host->context, &desc, err, err_len);
}
