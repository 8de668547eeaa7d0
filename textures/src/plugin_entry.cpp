// The plugin's two exports (plugin_abi.h). Registration only hands descriptors to the host: no
// CUDA call happens before a variant is created.
#include "variant_abi.hpp"
#include "variant_table.hpp"

#include "coalesce/plugin_abi.h"

#include <cstddef>
#include <exception>
#include <string>

#define COALESCE_TEXTURES_EXPORT extern "C" __attribute__((visibility("default")))

COALESCE_TEXTURES_EXPORT uint32_t coalesce_plugin_abi_version(void) {
    return COALESCE_PLUGIN_ABI_VERSION;
}

COALESCE_TEXTURES_EXPORT int coalesce_plugin_register(const coalesce_host* host, size_t host_size,
                                                      char* err, size_t err_len) {
    using coalesce::textures::write_message;
    try {
        constexpr std::size_t needed =
            offsetof(coalesce_host, add_variant) + sizeof(host->add_variant);
        if (host == nullptr || host_size < needed || host->struct_size < needed ||
            host->add_variant == nullptr) {
            write_message(err, err_len,
                          "coalesce_textures: the host's coalesce_host is missing or too old");
            return 2;
        }
        for (const coalesce_variant_desc& desc : coalesce::textures::variant_table()) {
            char host_err[512] = {};
            if (const int status =
                    host->add_variant(host->context, &desc, host_err, sizeof host_err);
                status != 0) {
                const std::string message =
                    std::string("host refused '") + desc.id + "': " + host_err;
                write_message(err, err_len, message.c_str());
                return status;
            }
        }
        return 0;
    } catch (const std::exception& e) {
        write_message(err, err_len, e.what());
    } catch (...) {
        write_message(err, err_len, "unknown error while registering");
    }
    return 1;
}
