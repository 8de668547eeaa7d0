// One throwing check for every CUDA runtime call, and a no-throw twin for destructors.
// Header-only, so the texture plugin (which links only the CUDA runtime) checks the same way.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
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

namespace detail {
inline std::string describe_cuda_error(cudaError_t code, const char* call, const char* file,
                                       int line) {
    return std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
           cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
}
}  // namespace detail

[[noreturn]] inline void throw_cuda_error(cudaError_t code, const char* call, const char* file,
                                          int line) {
    throw CudaError(code, detail::describe_cuda_error(code, call, file, line));
}

inline void log_cuda_error(cudaError_t code, const char* call, const char* file,
                           int line) noexcept {
    try {
        std::fprintf(stderr, "coalesce: %s\n",
                     detail::describe_cuda_error(code, call, file, line).c_str());
    } catch (...) {
        std::fprintf(stderr, "coalesce: %s failed\n", call);
    }
}

// Checks cudaGetLastError() after a kernel launch; `what` names the kernel in the message.
inline void check_launch(const char* what, const char* file, int line) {
    const cudaError_t code = cudaGetLastError();
    if (code != cudaSuccess)
        throw CudaError(code, detail::describe_cuda_error(
                                  code, (std::string("launch of ") + what).c_str(), file, line));
}

}  // namespace coalesce

#define COALESCE_CUDA(call)                                                            \
    do {                                                                               \
        const cudaError_t coalesce_status_ = (call);                                   \
        if (coalesce_status_ != cudaSuccess)                                           \
            ::coalesce::throw_cuda_error(coalesce_status_, #call, __FILE__, __LINE__); \
    } while (0)

#define COALESCE_CUDA_NOTHROW(call)                                                  \
    do {                                                                             \
        const cudaError_t coalesce_status_ = (call);                                 \
        if (coalesce_status_ != cudaSuccess)                                         \
            ::coalesce::log_cuda_error(coalesce_status_, #call, __FILE__, __LINE__); \
    } while (0)

#define COALESCE_CHECK_LAUNCH(what) ::coalesce::check_launch((what), __FILE__, __LINE__)
