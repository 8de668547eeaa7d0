// The course's model of global memory: a warp's request is served in 32-byte sectors of 128-byte
// lines; what it costs is the number of sectors its 32 lanes' addresses touch. Variants describe
// the requests of a typical warp; the engine counts, so the prediction is computed, not drawn.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

namespace coalesce {

inline constexpr long long kSectorBytes = 32;
inline constexpr long long kLineBytes = 128;

// One warp-wide load or store: each active lane's byte offset from an allocation that starts on a
// line boundary (cudaMalloc's alignment is 256 bytes).
struct WarpRequest {
    bool store = false;
    int bytes_per_lane = 4;               // [bytes]
    int active_lanes = 32;                // lanes 0..active_lanes-1 take part
    std::array<long long, 32> offsets{};  // [bytes]
};

struct RequestCost {
    int sectors = 0;       // distinct 32-byte sectors touched
    int lines = 0;         // distinct 128-byte lines touched
    int useful_bytes = 0;  // bytes the lanes asked for
};
RequestCost request_cost(const WarpRequest& request);

// A warp request whose lane i touches base + i * stride (all in bytes): the affine case.
WarpRequest affine_request(bool store, long long base, long long stride, int bytes_per_lane = 4,
                           int active_lanes = 32);

// The prediction for a variant, over the requests of one typical warp.
struct AccessModel {
    double load_sectors = 0;   // sectors per load request (mean over the load requests)
    double store_sectors = 0;  // sectors per store request
    double efficiency = 1;     // useful bytes / bytes the sectors move, 0..1
};
AccessModel model_of(const std::vector<WarpRequest>& requests);

}  // namespace coalesce
