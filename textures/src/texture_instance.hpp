// One prepared run of a texture variant: the texture input, the dense output, and the operation.
#pragma once

#include "texture_source.hpp"

#include "coalesce/plugin_abi.h"

#include <cstddef>

namespace coalesce::textures {

class TextureInstance {
public:
    // Validates the operation, radius, border and size (device limits, normalized-coordinate
    // precision); throws TextureError with the reason.
    TextureInstance(int op, Family family, std::size_t rows, std::size_t cols,
                    const coalesce_params& params);

    void upload(const float* h_input);  // synchronous; allocates the output too
    void poison();                      // output := NaN, synchronous
    void launch(cudaStream_t stream);   // the kernel only
    void download(float* h_output);     // waits for every launch

private:
    int op_;
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
};

}  // namespace coalesce::textures
