// The plugin's errors and RAII deleters. CUDA calls are checked with the engine's header-only
// COALESCE_CUDA (coalesce/cuda_check.hpp): the plugin links only the CUDA runtime, never the
// engine.
#pragma once

#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"  // UniqueHandle only: header-only, no engine symbols

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace coalesce::textures {

class TextureError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// An input outside what a texture can address (the device's 2-D texture limits, coordinate
// precision): create() reports it as COALESCE_STATUS_UNSUPPORTED and the run is skipped.
class TextureUnsupported : public TextureError {
public:
    using TextureError::TextureError;
};

struct FreeDevice {
    void operator()(float* d_ptr) const noexcept;
};
struct FreeBytes {
    void operator()(void* d_ptr) const noexcept;
};
struct FreeArray {
    void operator()(cudaArray_t array) const noexcept;
};
struct DestroyTexture {
    void operator()(cudaTextureObject_t texture) const noexcept;
};

using DevicePtr = UniqueHandle<float*, FreeDevice>;
using BytesPtr = UniqueHandle<void*, FreeBytes>;  // a typed output, any element size
using ArrayPtr = UniqueHandle<cudaArray_t, FreeArray>;
using TexturePtr = UniqueHandle<cudaTextureObject_t, DestroyTexture>;

}  // namespace coalesce::textures
