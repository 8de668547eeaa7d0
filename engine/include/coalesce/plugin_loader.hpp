// Finds and loads variant plugins (dlopen); every refusal is a message naming the file and why.
#pragma once

#include "coalesce/registry.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace coalesce {

struct PluginReport {
    std::filesystem::path file;
    bool loaded = false;
    std::size_t variants = 0;  // registered by this plugin
    std::string message;       // why it was refused: "<file>: <reason>"
};

// Folders searched, in order: extra_dirs, each entry of COALESCE_PLUGIN_PATH (':'-separated), the
// "plugins" folder next to the running executable, and ../lib/coalesce/plugins relative to it
// (the installed layout).
std::vector<std::filesystem::path> plugin_search_path(
    const std::vector<std::filesystem::path>& extra_dirs = {});

// Loads one file. A refused plugin adds nothing to the registry (its variants are all-or-none).
// The library stays loaded for the life of the process.
PluginReport load_plugin(const std::filesystem::path& file, Registry& registry);

// Loads every shared library (*.so) in the search path, each file once.
std::vector<PluginReport> load_plugins(Registry& registry,
                                       const std::vector<std::filesystem::path>& extra_dirs = {});

}  // namespace coalesce
