// --input: an image or matrix file read by the loader the window uses too (coalesce::imageio),
// so both front ends accept the same files and read them the same way.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/typed_image.hpp"

#include <filesystem>
#include <memory>
#include <string>

namespace coalesce::cli {

struct InputImage {
    std::shared_ptr<const Matrix> matrix;  // luminance, float32, the file's own scale
    std::string description;               // "PNG, 8-bit unsigned, 4 channels (RGBA) → luminance"
    // The luminance in the file's own depth (u8, u16; null for f32, which `matrix` holds).
    std::shared_ptr<const AnyImage> typed;
    ElemType type = ElemType::f32;  // the type it runs as unless --type says otherwise
    // With keep_colour, an 8/16-bit image of 3 or 4 channels as stored (B, G, R, A); else null.
    std::shared_ptr<const AnyImage> colour;
    int channels = 1;  // as decoded
};

// Throws UsageError "--input: '<path>': <what is wrong>" (see coalesce/imageio/image_loader.hpp).
InputImage load_input_image(const std::filesystem::path& path, bool keep_colour = false);

}  // namespace coalesce::cli
