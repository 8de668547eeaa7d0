// Exports both entry point names as data, not functions: calling them would crash the host.
#include "coalesce/plugin_abi.h"

#include <cstdint>

extern "C" __attribute__((visibility("default"))) const std::uint32_t coalesce_plugin_abi_version =
    2;
extern "C" __attribute__((visibility("default"))) const std::uint32_t coalesce_plugin_register = 0;
