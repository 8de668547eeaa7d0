// The fast variants (issue 5, "Bandwidth at the limit"): each kernels/fast_<op>.cu registers its
// own; this is the one list, called by register_builtin_variants() after the teaching variants.
#include "coalesce/kernels.hpp"
#include "fast_variants.hpp"

namespace coalesce {

void register_fast_variants(Registry& registry) {
    register_fast_copy(registry);
    register_fast_transpose(registry);
    register_fast_row_sums(registry);
    register_fast_row_sums_bulk(registry);
    register_fast_col_sums(registry);
    register_fast_filter_x(registry);
    register_fast_filter_x_bulk(registry);
    register_fast_filter_x_running(registry);
    register_fast_filter_y(registry);
    register_fast_filter_y_running(registry);
}

}  // namespace coalesce
