// The registry of the texture plugin's variants, loaded once per test process from the plugin the
// build made (COALESCE_TEXTURES_PLUGIN); throws with the loader's message when it is refused.
#pragma once

#include "coalesce/plugin_loader.hpp"
#include "coalesce/registry.hpp"

#include <stdexcept>

namespace coalesce::test {

inline const Registry& texture_registry() {
    static const Registry registry = [] {
        Registry r;
        const PluginReport report = load_plugin(COALESCE_TEXTURES_PLUGIN, r);
        if (!report.loaded) throw std::runtime_error(report.message);
        return r;
    }();
    return registry;
}

}  // namespace coalesce::test
