// What offset_read.cu and offset_write.cu share: a copy of each row in which one side of every
// thread's access is moved `offset` floats along the row (wrapping at its end). Only the kernels
// differ, in which side moves; the launch, the sector model and the registration are here.
#pragma once

#include "coalesce/cuda_check.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/sector_model.hpp"
#include "device_instance.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace coalesce::gpu::offset_copy {

inline constexpr int kThreads = 256;
inline constexpr unsigned kMaxRowsPerLaunch = 65535;  // gridDim.y

using Kernel = void (*)(const float* in, float* out, int cols, std::size_t in_pitch,
                        std::size_t out_pitch, int offset);

// kernel(in, out, cols, in_pitch, out_pitch, offset) as the course writes it: one thread per
// element, x along the row, one block row per matrix row, in bands of at most 65535 rows.
inline void launch(Kernel kernel, const char* name, MatView in, MatView out, const OpParams& p,
                   cudaStream_t stream) {
    const int cols = static_cast<int>(in.cols);
    const int offset = static_cast<int>(p.value("offset") % static_cast<long long>(in.cols));
    const std::size_t in_pitch = in.pitch_bytes / sizeof(float);
    const std::size_t out_pitch = out.pitch_bytes / sizeof(float);
    for (std::size_t row0 = 0; row0 < in.rows; row0 += kMaxRowsPerLaunch) {
        const unsigned rows =
            static_cast<unsigned>(std::min<std::size_t>(kMaxRowsPerLaunch, in.rows - row0));
        const dim3 grid(static_cast<unsigned>((cols + kThreads - 1) / kThreads), rows);
        kernel<<<grid, kThreads, 0, stream>>>(in.data + row0 * in_pitch,
                                              out.data + row0 * out_pitch, cols, in_pitch,
                                              out_pitch, offset);
        COALESCE_CHECK_LAUNCH(name);
    }
}

// Warp 1 of row 1: a load and a store at the row start plus 32 floats, the side that moves
// (the store when `store_moves`) `offset` floats further.
inline std::vector<WarpRequest> access(Shape in, const OpParams& p, bool pitched,
                                       bool store_moves) {
    const long long row_bytes = row_bytes_of(in.cols, pitched);
    const long long k = p.value("offset") % static_cast<long long>(in.cols);
    const int lanes = static_cast<int>(std::min<std::size_t>(32, in.cols));
    const long long moved = row_bytes + 128 + k * 4, fixed = row_bytes + 128;
    return {affine_request(false, store_moves ? fixed : moved, 4, 4, lanes),
            affine_request(true, store_moves ? moved : fixed, 4, 4, lanes)};
}

struct Spec {
    const char* op;       // "offset_read" or "offset_write"
    Kernel kernel;        // the one kernel both of its variants run
    const char* name;     // its name
    bool store_moves;     // the store is the side moved by the offset
    const char* dense;    // description of the cudaMalloc variant
    const char* pitched;  // and of the cudaMallocPitch one
};

// Registers <op>/global and <op>/pitched: the same kernel on the two layouts.
inline void register_pair(Registry& registry, const Spec& s) {
    for (const bool pitched : {false, true}) {
        DeviceVariantSpec spec;
        spec.id = std::string(s.op) + (pitched ? "/pitched" : "/global");
        spec.op = Op(s.op);
        spec.memory_space = pitched ? space::pitched : space::global;
        spec.description = pitched ? s.pitched : s.dense;
        spec.layout = pitched ? Layout::pitched : Layout::dense;
        spec.kernel = s.name;
        spec.access = [pitched, store_moves = s.store_moves](Shape in, const OpParams& p) {
            return access(in, p, pitched, store_moves);
        };
        registry.add(make_device_variant(
            std::move(spec), [kernel = s.kernel, name = s.name](
                                 MatView in, MatView out, const OpParams& p, cudaStream_t stream) {
                launch(kernel, name, in, out, p, stream);
            }));
    }
}

}  // namespace coalesce::gpu::offset_copy
