#include "coalesce/device.hpp"

#include "coalesce/cuda_check.hpp"

#include <algorithm>
#include <fstream>
#include <string>
#include <thread>

namespace coalesce {
namespace {

cudaError_t probe(int* count) {
    *count = 0;
    const cudaError_t status = cudaGetDeviceCount(count);
    if (status != cudaSuccess) {
        *count = 0;
        cudaGetLastError();  // clear the sticky-free error so later calls start clean
    }
    return status;
}

}  // namespace

int cuda_device_count() {
    int count = 0;
    probe(&count);
    return count;
}

std::string no_device_reason() {
    int count = 0;
    const cudaError_t status = probe(&count);
    if (status == cudaSuccess && count > 0) return {};
    if (status == cudaSuccess) return "no CUDA device found";
    if (status == cudaErrorInsufficientDriver || status == cudaErrorNoDevice)
        return std::string("no CUDA device found (") + cudaGetErrorString(status) + ")";
    return std::string("CUDA is unavailable (") + cudaGetErrorName(status) + ": " +
           cudaGetErrorString(status) + ")";
}

DeviceInfo query_device(int index) {
    cudaDeviceProp prop{};
    COALESCE_CUDA(cudaGetDeviceProperties(&prop, index));
    DeviceInfo info;
    info.index = index;
    info.name = prop.name;
    info.gpu = true;
    info.sm_count = prop.multiProcessorCount;
    info.cc_major = prop.major;
    info.cc_minor = prop.minor;
    info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.memory_bytes = prop.totalGlobalMem;
    info.memory_bus_bits = prop.memoryBusWidth;
    info.texture_pitch_alignment = prop.texturePitchAlignment;
    // CUDA 13 dropped memoryClockRate from cudaDeviceProp; the attribute still reports it.
    int clock_khz = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, index) == cudaSuccess) {
        info.memory_clock_khz = clock_khz;
        // Double data rate: two transfers per clock over the whole bus.
        info.theoretical_gbps = 2.0 * clock_khz * 1e3 * (prop.memoryBusWidth / 8.0) / 1e9;
    } else {
        cudaGetLastError();
    }
    return info;
}

namespace {

// [bytes] The largest data cache sysfs lists for CPU 0 (the last level, usually L3); 0 when it
// says nothing. The host's "cache resident" flag compares a run's bytes with it.
std::size_t host_last_level_cache_bytes() {
    std::size_t largest = 0;
    for (int index = 0; index < 8; ++index) {
        const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
        std::ifstream type_file(dir + "/type"), size_file(dir + "/size");
        std::string type, size;
        if (!(type_file >> type) || !(size_file >> size) || type == "Instruction") continue;
        std::size_t value = 0, used = 0;
        try {
            value = std::stoul(size, &used);
        } catch (const std::exception&) {
            continue;
        }
        const std::string unit = size.substr(used);
        if (unit == "K")
            value <<= 10;
        else if (unit == "M")
            value <<= 20;
        else if (unit == "G")
            value <<= 30;
        largest = std::max(largest, value);
    }
    return largest;
}

}  // namespace

DeviceInfo host_info() {
    DeviceInfo info;
    info.gpu = false;
    info.name = "host CPU";
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) info.name = line.substr(colon + 2);
            break;
        }
    }
    info.sm_count = static_cast<int>(std::thread::hardware_concurrency());
    info.l2_bytes = host_last_level_cache_bytes();
    return info;
}

std::size_t device_free_bytes() {
    std::size_t free_bytes = 0, total = 0;
    COALESCE_CUDA(cudaMemGetInfo(&free_bytes, &total));
    return free_bytes;
}

}  // namespace coalesce
