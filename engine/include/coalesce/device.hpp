// What the machine offers: CUDA devices (or none), their properties and theoretical peak.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace coalesce {

struct DeviceInfo {
    int index = -1;
    std::string name;  // "NVIDIA H200", or the host CPU description without a GPU
    bool gpu = false;
    int sm_count = 0;
    int cc_major = 0, cc_minor = 0;
    std::size_t l2_bytes = 0;      // [bytes]
    std::size_t memory_bytes = 0;  // [bytes] total device memory
    int memory_bus_bits = 0;
    double memory_clock_khz = 0;              // [kHz]
    double theoretical_gbps = 0;              // [GB/s] 2 (DDR) * clock * bus width; 0 when unknown
    std::size_t texture_pitch_alignment = 0;  // [bytes]
};

// Number of usable CUDA devices; 0 (never an exception) when there is no driver or no device.
int cuda_device_count();
// Why there is no device, for the one line front ends print ("CUDA driver not found (...)").
std::string no_device_reason();
// Properties of device `index`; throws CudaError for a bad index.
DeviceInfo query_device(int index);
// A description of the host for CPU-only runs.
DeviceInfo host_info();
// [bytes] free device memory on the current device.
std::size_t device_free_bytes();

}  // namespace coalesce
