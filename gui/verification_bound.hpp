// The bound the engine's verification allows an output element, so the difference heat map can be
// scaled against it (white = at the bound) rather than against the largest difference, which
// paints a verified filter's rounding noise bright red.
#pragma once

#include "coalesce/operation.hpp"

#include <cstddef>

namespace coalesce::gui {

// Largest |output - reference| verify() accepts per unit of magnitude (sum of |terms|) for an
// operation whose outputs sum `terms` values; 0 for exact operations.
double bound_factor(Op op, std::size_t terms);

// factor * magnitude (+ the reference's allowance, where it has one) per element: the largest
// |output - reference| verify() accepts there.
Matrix verification_bounds(Op op, const Reference& reference);

}  // namespace coalesce::gui
