// A well-formed plugin: four variants, one of which fails at launch with a message and one of
// which refuses wide inputs as unsupported.
#include "test_variant.hpp"

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    coalesce_variant_desc descs[4] = {
        host_copy_desc("copy/test-host-copy", "copy"),
        host_copy_desc("copy/test-launch-fails", "copy"),
        host_copy_desc("filter_x/test-clamp-and-mirror", "filter_x",
                       (1u << COALESCE_BORDER_CLAMP) | (1u << COALESCE_BORDER_MIRROR)),
        host_copy_desc("copy/test-narrow-only", "copy"),
    };
    descs[1].launch = &launch_refused;
    descs[3].create = &create_narrow_only;
    descs[3].tier = "tuned";
    descs[3].kernel = "host_copy_narrow";
    for (const coalesce_variant_desc& desc : descs)
        if (int status = host->add_variant(host->context, &desc, err, err_len); status != 0)
            return status;
    return 0;
}
