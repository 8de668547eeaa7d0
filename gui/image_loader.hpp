// The window reads images and matrix files through the loader coalesce-bench uses too
// (engine/imageio: coalesce/imageio/image_loader.hpp), so both accept the same files and read
// them the same way. These names keep the window's code unchanged.
#pragma once

#include "coalesce/imageio/image_loader.hpp"

namespace coalesce::gui {

using imageio::channel_name;
using imageio::ChannelChoice;
using imageio::describe_generated;
using imageio::finite_range;
using imageio::is_matrix_file;
using imageio::load_image;
using imageio::LoadedImage;
using imageio::LoadOptions;

}  // namespace coalesce::gui
