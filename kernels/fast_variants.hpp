// The tuned ("fast") variants, which show what the hardware can do: one register function per
// kernels/fast_<op>.cu file.
#pragma once

#include "coalesce/registry.hpp"

namespace coalesce {

void register_fast_copy(Registry& registry);
void register_fast_transpose(Registry& registry);
void register_fast_transpose_odd(Registry& registry);
void register_fast_row_sums(Registry& registry);
void register_fast_row_sums_bulk(Registry& registry);
void register_fast_col_sums(Registry& registry);
void register_fast_filter_x(Registry& registry);
void register_fast_filter_x_bulk(Registry& registry);
void register_fast_filter_x_running(Registry& registry);
void register_fast_filter_y(Registry& registry);
void register_fast_filter_y_running(Registry& registry);
void register_fast_filter_y_walk(Registry& registry);
void register_fast_filter_y_walk_scan(Registry& registry);
void register_fast_filter_y_walk_prefix(Registry& registry);
void register_fast_typed_copy_transpose(Registry& registry);  // u8 and u16 only
void register_fast_typed_sums(Registry& registry);  // u8 and u16 row and column sums
void register_fast_typed_filters(Registry& registry);

}  // namespace coalesce
