// Every variant the texture plugin offers, as C descriptors. Building the table makes no CUDA
// call, so the plugin registers (and --list works) on machines without a GPU or driver.
#pragma once

#include "coalesce/plugin_abi.h"

#include <vector>

namespace coalesce::textures {

const std::vector<coalesce_variant_desc>& variant_table();

}  // namespace coalesce::textures
