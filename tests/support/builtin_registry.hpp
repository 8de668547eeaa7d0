// The registry of the built-in variants (kernels/), filled once per test process.
#pragma once

#include "coalesce/kernels.hpp"
#include "coalesce/registry.hpp"

namespace coalesce::test {

inline const Registry& builtin_registry() {
    static const Registry registry = [] {
        Registry r;
        register_builtin_variants(r);
        return r;
    }();
    return registry;
}

}  // namespace coalesce::test
