#include "texture_error.hpp"

#include <cstdio>

namespace coalesce::textures {

namespace {
std::string describe(cudaError_t code, const char* call, const char* file, int line) {
    return std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
           cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
}
}  // namespace

void throw_cuda(cudaError_t code, const char* call, const char* file, int line) {
    throw TextureError(describe(code, call, file, line));
}

void log_cuda(cudaError_t code, const char* call, const char* file, int line) noexcept {
    try {
        std::fprintf(stderr, "coalesce_textures: %s\n", describe(code, call, file, line).c_str());
    } catch (...) {
        std::fprintf(stderr, "coalesce_textures: %s failed\n", call);
    }
}

void check_launch(const char* kernel, const char* file, int line) {
    if (const cudaError_t code = cudaGetLastError(); code != cudaSuccess) throw_cuda(code, kernel, file, line);
}

void FreeDevice::operator()(float* d_ptr) const noexcept { TEX_CUDA_NOTHROW(cudaFree(d_ptr)); }
void FreeArray::operator()(cudaArray_t array) const noexcept { TEX_CUDA_NOTHROW(cudaFreeArray(array)); }
void DestroyTexture::operator()(cudaTextureObject_t texture) const noexcept {
    TEX_CUDA_NOTHROW(cudaDestroyTextureObject(texture));
}

}  // namespace coalesce::textures
