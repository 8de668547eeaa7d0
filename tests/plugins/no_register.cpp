// Exports the version but not coalesce_plugin_register.
#include "test_variant.hpp"

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}
