#include "image_input.hpp"

#include "exit_status.hpp"

#include "coalesce/imageio/image_loader.hpp"

#include <stdexcept>

namespace coalesce::cli {

InputImage load_input_image(const std::filesystem::path& path, bool keep_colour) {
    try {
        imageio::LoadOptions options;
        options.keep_colour = keep_colour;
        imageio::LoadedImage image = imageio::load_image(path, options);
        return {std::move(image.matrix), std::move(image.source_type), std::move(image.typed),
                image.elem_type,         std::move(image.colour),      image.channels};
    } catch (const std::runtime_error& e) {
        throw UsageError(std::string("--input: ") + e.what());
    }
}

}  // namespace coalesce::cli
