#include "texture_error.hpp"

namespace coalesce::textures {

void FreeDevice::operator()(float* d_ptr) const noexcept { COALESCE_CUDA_NOTHROW(cudaFree(d_ptr)); }
void FreeBytes::operator()(void* d_ptr) const noexcept { COALESCE_CUDA_NOTHROW(cudaFree(d_ptr)); }
void FreeArray::operator()(cudaArray_t array) const noexcept {
    COALESCE_CUDA_NOTHROW(cudaFreeArray(array));
}
void DestroyTexture::operator()(cudaTextureObject_t texture) const noexcept {
    COALESCE_CUDA_NOTHROW(cudaDestroyTextureObject(texture));
}

}  // namespace coalesce::textures
