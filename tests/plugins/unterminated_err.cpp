// Fails registration with an error buffer it fills to the last byte without a terminating NUL:
// the loader must not read past the buffer (AddressSanitizer watches in the sanitizer build).
#include "test_variant.hpp"

#include <cstring>

TEST_PLUGIN_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

TEST_PLUGIN_EXPORT int coalesce_plugin_register(const coalesce_host*, size_t, char* err,
                                                size_t err_len) {
    std::memset(err, 'x', err_len);
    return 4;
}
