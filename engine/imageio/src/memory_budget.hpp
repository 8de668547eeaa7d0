// How much memory a decode may still take, so that a file declaring a size the machine cannot
// hold is refused before the decoder tries (and takes seconds and gigabytes to fail).
#pragma once

#include <cstddef>
#include <optional>

namespace coalesce::imageio {

// [bytes] the least of: MemAvailable, and what RLIMIT_AS and RLIMIT_DATA leave this process.
// nullopt where none of them is known.
std::optional<std::size_t> memory_available();

}  // namespace coalesce::imageio
