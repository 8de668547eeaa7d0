// Launchers of the texture kernels, one .cu per operation. Each reads its input only through the
// texture object and writes a dense row-major output in plain device memory.
#pragma once

#include "coalesce/onchip.hpp"  // header-only: ResampleMap

#include <cuda_runtime_api.h>

#include <cstddef>

namespace coalesce::textures {

// The operations the plugin implements, as its own numbers; the ABI names them by string.
enum : int {
    TEX_OP_COPY,
    TEX_OP_TRANSPOSE,
    TEX_OP_ROW_SUMS,
    TEX_OP_COL_SUMS,
    TEX_OP_FILTER_X,
    TEX_OP_FILTER_Y,
    TEX_OP_RANDOM_SAMPLE,
    TEX_OP_RESAMPLE,
    TEX_OP_U8_TO_FLOAT
};

// What a kernel needs to address the input texture.
struct TexInput {
    cudaTextureObject_t texture = 0;
    int rows = 0;
    int cols = 0;
    bool normalized = false;  // coordinates in [0, 1): then x * inv_cols addresses texel x
    float inv_cols = 1.0f;    // 1.0f / cols, rounded as the host precision check assumes
    float inv_rows = 1.0f;
};

void launch_copy(const TexInput& in, float* d_out, cudaStream_t stream);       // rows x cols
void launch_transpose(const TexInput& in, float* d_out, cudaStream_t stream);  // cols x rows
void launch_row_sums(const TexInput& in, float* d_out, cudaStream_t stream);   // rows
void launch_col_sums(const TexInput& in, float* d_out, cudaStream_t stream);   // cols
void launch_filter_x(const TexInput& in, int radius, float* d_out,
                     cudaStream_t stream);  // rows x cols
void launch_filter_y(const TexInput& in, int radius, float* d_out,
                     cudaStream_t stream);  // rows x cols
// The same filters on 8-bit (T = uint8_t) or 16-bit (uint16_t) texels read as normalized floats,
// writing T: the exact integer mean of the window (unorm_mean.hpp). Both T are instantiated.
template <class T>
void launch_filter_x_unorm(const TexInput& in, int radius, T* d_out, cudaStream_t stream);
template <class T>
void launch_filter_y_unorm(const TexInput& in, int radius, T* d_out, cudaStream_t stream);
// The on-chip experiments: random sampling (point sampling), bilinear resampling (the texture's
// linear filtering; out_rows x out_cols) and 8-bit pixels read as normalized floats.
void launch_random_sample(const TexInput& in, int area, int samples, float* d_out,
                          cudaStream_t stream);  // rows x cols
void launch_resample(const TexInput& in, const onchip::ResampleMap& map, int out_rows, int out_cols,
                     float* d_out, cudaStream_t stream);
void launch_u8_to_float(const TexInput& in, float* d_out, cudaStream_t stream);  // rows x cols

}  // namespace coalesce::textures
