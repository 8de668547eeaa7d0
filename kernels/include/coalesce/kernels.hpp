// The built-in variants: each kernels file defines register_<stem>(Registry&) listing its variants;
// register_builtin_variants() (generated from cmake/operations.cmake and kernels/CMakeLists.txt)
// calls the host variants' registration and then each file's, in a stable order.
#pragma once

#include "coalesce/registry.hpp"

namespace coalesce {

void register_builtin_variants(Registry& registry);

}  // namespace coalesce
