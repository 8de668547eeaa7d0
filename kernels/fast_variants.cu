// The fast variants (issue 5, "Bandwidth at the limit") register here; the kernels live in
// kernels/fast_*.cu. Empty until that work adds them.
#include "coalesce/kernels.hpp"

namespace coalesce {

void register_fast_variants(Registry&) {}

}  // namespace coalesce
