// The plugin's own CUDA check and RAII deleters. The plugin speaks only the C ABI and links only
// the CUDA runtime, so it cannot use the engine's throw_cuda_error/log_cuda_error; these twins
// throw (or, in destructors, log) the same way: the call's text, file:line and CUDA's reason.
#pragma once

#include "coalesce/cuda_raii.hpp"  // UniqueHandle only: header-only, no engine symbols

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace coalesce::textures {

class TextureError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_cuda(cudaError_t code, const char* call, const char* file, int line);
void log_cuda(cudaError_t code, const char* call, const char* file, int line) noexcept;
void check_launch(const char* kernel, const char* file, int line);

struct FreeDevice {
    void operator()(float* d_ptr) const noexcept;
};
struct FreeArray {
    void operator()(cudaArray_t array) const noexcept;
};
struct DestroyTexture {
    void operator()(cudaTextureObject_t texture) const noexcept;
};

using DevicePtr = UniqueHandle<float*, FreeDevice>;
using ArrayPtr = UniqueHandle<cudaArray_t, FreeArray>;
using TexturePtr = UniqueHandle<cudaTextureObject_t, DestroyTexture>;

}  // namespace coalesce::textures

#define TEX_CUDA(call)                                                                          \
    do {                                                                                        \
        const cudaError_t tex_status_ = (call);                                                 \
        if (tex_status_ != cudaSuccess)                                                         \
            ::coalesce::textures::throw_cuda(tex_status_, #call, __FILE__, __LINE__);           \
    } while (0)

#define TEX_CUDA_NOTHROW(call)                                                                  \
    do {                                                                                        \
        const cudaError_t tex_status_ = (call);                                                 \
        if (tex_status_ != cudaSuccess)                                                         \
            ::coalesce::textures::log_cuda(tex_status_, #call, __FILE__, __LINE__);             \
    } while (0)

#define TEX_CHECK_LAUNCH(kernel) ::coalesce::textures::check_launch((kernel), __FILE__, __LINE__)
