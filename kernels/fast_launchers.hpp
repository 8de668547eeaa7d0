// Launchers of the register-staged fast kernels that the bulk-copy variants fall back to for
// matrices the copy engine cannot take (rows not 16-byte aligned, radii they were not built for).
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"

#include <cuda_runtime_api.h>

namespace coalesce {

// row_sums/fast-warp-float4's kernel.
void launch_fast_row_sums_warp(MatView in, MatView out, const OpParams& params, cudaStream_t stream);
// filter_x/fast-seg4096-occ5's kernel.
void launch_fast_filter_x_occ5(MatView in, MatView out, const OpParams& params, cudaStream_t stream);

}  // namespace coalesce
