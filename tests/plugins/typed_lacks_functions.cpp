// A variant taking u8 without the typed functions to run it: refused, naming what is missing.
#include "test_variant.hpp"

#include <cstddef>

using namespace coalesce_test_plugin;

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t, char* err,
                                                size_t err_len) {
    coalesce_variant_desc desc =
        typed_copy_desc("copy/test-typed-lacks", "copy", 1u << COALESCE_ELEM_U8);
    desc.download_typed = nullptr;
    return host->add_variant(host->context, &desc, err, err_len);
}
