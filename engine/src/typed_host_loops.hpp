// The naive host loops of the six matrix operations on u8 and u16 images of 1, 3 or 4 interleaved
// channels (each channel on its own), written apart from the typed CPU reference
// (typed_reference.cpp) so that verifying a host run checks a second implementation: sums
// accumulate in the output's own type, the filters round through floor((s + r) / k), which equals
// the reference's (2s + k) / (2k) for odd k = 2r + 1.
#pragma once

#include "coalesce/operation.hpp"
#include "coalesce/typed_image.hpp"

namespace coalesce::host_loops {

// An output of the right shape, channel count and element type for `op` on `input` (its element
// type, or the sums' uint32/uint64), every element zero. Throws as typed::output_elem_size does.
AnyImage typed_output(Op op, const AnyImage& input, const OpParams& params);

// Writes op(input) into `out` (made by typed_output); `input` holds u8 or u16.
void run_typed(Op op, const AnyImage& input, const OpParams& params, AnyImage& out);

}  // namespace coalesce::host_loops
