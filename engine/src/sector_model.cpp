#include "coalesce/sector_model.hpp"

#include <algorithm>
#include <set>

namespace coalesce {

RequestCost request_cost(const WarpRequest& request) {
    std::set<long long> sectors, lines;
    RequestCost cost;
    for (int lane = 0; lane < request.active_lanes; ++lane) {
        const long long first = request.offsets[static_cast<std::size_t>(lane)];
        const long long last = first + request.bytes_per_lane - 1;
        for (long long s = first / kSectorBytes; s <= last / kSectorBytes; ++s) sectors.insert(s);
        for (long long l = first / kLineBytes; l <= last / kLineBytes; ++l) lines.insert(l);
        cost.useful_bytes += request.bytes_per_lane;
    }
    cost.sectors = static_cast<int>(sectors.size());
    cost.lines = static_cast<int>(lines.size());
    return cost;
}

WarpRequest affine_request(bool store, long long base, long long stride, int bytes_per_lane,
                           int active_lanes) {
    WarpRequest r;
    r.store = store;
    r.bytes_per_lane = bytes_per_lane;
    r.active_lanes = std::clamp(active_lanes, 1, 32);
    for (int lane = 0; lane < 32; ++lane)
        r.offsets[static_cast<std::size_t>(lane)] = base + lane * stride;
    return r;
}

AccessModel model_of(const std::vector<WarpRequest>& requests) {
    AccessModel m;
    int loads = 0, stores = 0;
    long long useful = 0, moved = 0;
    for (const WarpRequest& r : requests) {
        const RequestCost c = request_cost(r);
        (r.store ? m.store_sectors : m.load_sectors) += c.sectors;
        ++(r.store ? stores : loads);
        useful += c.useful_bytes;
        moved += c.sectors * kSectorBytes;
    }
    if (loads) m.load_sectors /= loads;
    if (stores) m.store_sectors /= stores;
    m.efficiency = moved > 0 ? static_cast<double>(useful) / static_cast<double>(moved) : 1.0;
    return m;
}

}  // namespace coalesce
