#include "coalesce/kernels.hpp"

namespace coalesce {

void register_builtin_variants(Registry& registry) {
    register_cpu_variants(registry);
    register_copy(registry);
    register_transpose(registry);
    register_row_sums(registry);
    register_col_sums(registry);
    register_filter_x(registry);
    register_filter_y(registry);
    register_tuned_from_lessons(registry);
    // The fast variants (issue 5) come after every teaching variant.
    register_fast_variants(registry);
}

}  // namespace coalesce
