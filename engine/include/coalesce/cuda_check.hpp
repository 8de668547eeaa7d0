// One throwing check for every CUDA runtime call, and a no-throw twin for destructors.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace coalesce {

// Thrown for every failed CUDA call; what() names the call, the place and CUDA's reason.
class CudaError : public std::runtime_error {
public:
    CudaError(cudaError_t code, const std::string& message)
        : std::runtime_error(message), code_(code) {}
    cudaError_t code() const noexcept { return code_; }

private:
    cudaError_t code_;
};

[[noreturn]] void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line);
void log_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept;

// Checks cudaGetLastError() after a kernel launch; `what` names the kernel in the message.
void check_launch(const char* what, const char* file, int line);

}  // namespace coalesce

#define COALESCE_CUDA(call)                                                          \
    do {                                                                             \
        const cudaError_t coalesce_status_ = (call);                                 \
        if (coalesce_status_ != cudaSuccess)                                         \
            ::coalesce::throw_cuda_error(coalesce_status_, #call, __FILE__, __LINE__); \
    } while (0)

#define COALESCE_CUDA_NOTHROW(call)                                                  \
    do {                                                                             \
        const cudaError_t coalesce_status_ = (call);                                 \
        if (coalesce_status_ != cudaSuccess)                                         \
            ::coalesce::log_cuda_error(coalesce_status_, #call, __FILE__, __LINE__); \
    } while (0)

#define COALESCE_CHECK_LAUNCH(what) ::coalesce::check_launch((what), __FILE__, __LINE__)
