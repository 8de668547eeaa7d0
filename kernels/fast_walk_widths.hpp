// What filter_y/fast-walk's plan (fast_walk_runs.cuh) chooses on the current device, for tests that
// must reach each of its strip widths: their threads and steps differ (fast_filter_y_walk.cu).
#pragma once

#include "coalesce/kernels.hpp"

namespace coalesce {

// The strip width, in columns, of the walk's one wave for this shape and radius.
int fast_walk_strip_columns(Shape shape, int radius);

}  // namespace coalesce
