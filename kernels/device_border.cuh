// The GPU filters use the engine's border rule itself (coalesce::border_index in operation.hpp is
// __host__ __device__), so they read exactly the neighbours the CPU reference reads.
#pragma once

#include "coalesce/operation.hpp"

namespace coalesce::gpu {
using coalesce::border_index;
}  // namespace coalesce::gpu
