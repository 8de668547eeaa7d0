#include "coalesce/cuda_check.hpp"

#include <cstdio>
#include <string>

namespace coalesce {
namespace {

std::string describe(cudaError_t code, const char* call, const char* file, int line) {
    return std::string(call) + " failed at " + file + ":" + std::to_string(line) + ": " +
           cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
}

}  // namespace

void throw_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
    throw CudaError(code, describe(code, call, file, line));
}

void log_cuda_error(cudaError_t code, const char* call, const char* file, int line) noexcept {
    std::fprintf(stderr, "coalesce: %s\n", describe(code, call, file, line).c_str());
}

void check_launch(const char* what, const char* file, int line) {
    const cudaError_t code = cudaGetLastError();
    if (code != cudaSuccess)
        throw CudaError(code, describe(code, (std::string("launch of ") + what).c_str(), file, line));
}

}  // namespace coalesce
