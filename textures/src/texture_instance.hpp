// One prepared run of a texture variant: the texture input, the dense output, and the operation.
#pragma once

#include "texture_source.hpp"

#include "coalesce/plugin_abi.h"

#include <cstddef>
#include <cstdint>

namespace coalesce::textures {

// What a variant's texels are: float32 (the f32 runs), or 8-bit / 16-bit integers read as
// normalized floats (u8 and u16 runs; the filters only).
enum class Texels { float32, unorm };

class TextureInstance {
public:
    // Validates the operation, radius, border and size (device limits, normalized-coordinate
    // precision); throws TextureError with the reason.
    TextureInstance(int op, Family family, std::size_t rows, std::size_t cols,
                    const coalesce_params& params, Texels texels = Texels::float32);

    void upload(const float* h_input);  // synchronous; allocates the output too
    void poison();                      // output := NaN, synchronous
    void launch(cudaStream_t stream);   // the kernel only
    void download(float* h_output);     // waits for every launch

    // Typed runs of the unorm variants: elem_type a coalesce_elem_type (u8 or u16), rows x cols
    // those of the constructor; the output holds the input's element type.
    void upload_typed(const void* h_input, int elem_type, std::size_t rows, std::size_t cols);
    void poison_bytes(std::uint8_t byte);  // every output byte := byte, synchronous
    void download_typed(void* h_output, std::size_t rows, std::size_t cols,
                        std::size_t out_elem_size);

private:
    void launch_unorm(const TexInput& in, cudaStream_t stream);
    std::size_t output_bytes() const;

    int op_;
    Texels texels_;
    std::size_t rows_, cols_;
    int radius_ = 0;
    // The on-chip experiments' named parameters (random_sample: area, samples; resample: the
    // mapping and the output's size).
    int area_ = 0, samples_ = 0;
    onchip::ResampleMap map_;
    Shape out_shape_;
    TextureSource source_;
    DevicePtr d_out_;
    std::size_t out_elements_ = 0;
    BytesPtr d_typed_out_;        // the unorm variants' output, typed_size_ bytes an element
    std::size_t typed_size_ = 0;  // [bytes] 1 (u8) or 2 (u16); 0 before upload_typed
};

}  // namespace coalesce::textures
