// The input of a texture variant: the matrix in a cudaArray or in pitched linear memory, and the
// texture object that reads it: float texels with point sampling (every operation but two), float
// texels with linear filtering (resample), or 8-bit / 16-bit texels read as normalized floats
// (u8_to_float, the unorm filters).
#pragma once

#include "addressing.hpp"
#include "texture_error.hpp"
#include "texture_ops.hpp"

#include <cstddef>

namespace coalesce::textures {

enum class TexelFormat { float_point, float_linear, u8_normalized, u16_normalized };

class TextureSource {
public:
    // Checks the size against this device's texture limits for the family (the current device);
    // throws TextureError with the limit when it is exceeded.
    TextureSource(Family family, std::size_t rows, std::size_t cols, Addressing addressing,
                  TexelFormat format = TexelFormat::float_point);

    // Allocates the storage, copies rows x cols row-major floats in (as 8-bit pixels for
    // u8_normalized: rounded, saturated) and creates the texture object. Synchronous; may be called
    // again (replaces everything).
    void upload(const float* h_input);
    // Allocates the storage for texels of `format`, copies rows x cols of them in as they are, and
    // creates the texture object; the format replaces the constructor's. Synchronous.
    void upload_texels(const void* h_texels, TexelFormat format);

    TexInput input() const;
    std::size_t pitch_bytes() const { return pitch_bytes_; }  // [bytes], 0 for a cudaArray

private:
    void upload_array(const void* h_texels);
    void upload_pitched(const void* h_texels);
    void create_texture(const cudaResourceDesc& resource);
    std::size_t texel_bytes() const;
    cudaChannelFormatDesc channel() const;

    Family family_;
    std::size_t rows_, cols_;
    Addressing addressing_;
    TexelFormat format_;
    std::size_t pitch_alignment_ = 0;    // [bytes] cudaDevAttrTexturePitchAlignment
    std::size_t texture_alignment_ = 0;  // [bytes] cudaDevAttrTextureAlignment (base address)
    std::size_t max_pitch_ = 0;          // [bytes]
    ArrayPtr array_;
    DevicePtr pitched_;
    std::size_t pitch_bytes_ = 0;
    TexturePtr texture_;  // declared last: destroyed before the storage it reads
};

}  // namespace coalesce::textures
