// The built-in GPU variants. Each kernels/<op>.cu ends with its register_<op>() listing its variants.
#pragma once

#include "coalesce/registry.hpp"

namespace coalesce {

void register_copy(Registry& registry);
void register_transpose(Registry& registry);
void register_row_sums(Registry& registry);
void register_col_sums(Registry& registry);
void register_filter_x(Registry& registry);
void register_filter_y(Registry& registry);
// Tuned variants grown from the lessons (kernels/tuned_from_lessons.cu).
void register_tuned_from_lessons(Registry& registry);

// The fast variants of the bandwidth-at-the-limit work (kernels/fast_*.cu), defined in
// kernels/fast_variants.cu; called by register_builtin_variants() after the teaching variants.
void register_fast_variants(Registry& registry);

// Every built-in variant: the host ones (engine) and the GPU ones above, in a stable order.
void register_builtin_variants(Registry& registry);

}  // namespace coalesce
