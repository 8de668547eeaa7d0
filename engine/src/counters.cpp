#include "coalesce/counters.hpp"

#include <cmath>

namespace coalesce {
namespace {

bool same_rate(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

}  // namespace

bool Counters::operator==(const Counters& o) const {
    return kernels == o.kernels && dram_read_bytes == o.dram_read_bytes &&
           dram_write_bytes == o.dram_write_bytes && global_load_sectors == o.global_load_sectors &&
           global_load_requests == o.global_load_requests &&
           global_store_sectors == o.global_store_sectors &&
           global_store_requests == o.global_store_requests &&
           shared_load_conflicts == o.shared_load_conflicts &&
           shared_store_conflicts == o.shared_store_conflicts &&
           shared_load_wavefronts == o.shared_load_wavefronts &&
           shared_store_wavefronts == o.shared_store_wavefronts &&
           same_rate(l1_hit_rate_pct, o.l1_hit_rate_pct) &&
           same_rate(l2_hit_rate_pct, o.l2_hit_rate_pct) &&
           same_rate(occupancy_pct, o.occupancy_pct);
}

double dram_model_ratio(const Counters& counters, std::size_t model_bytes) {
    if (model_bytes == 0) return std::nan("");
    return static_cast<double>(counters.dram_bytes()) / static_cast<double>(model_bytes);
}

bool dram_differs_from_model(const Counters& counters, std::size_t model_bytes, double tolerance) {
    // In bytes rather than as a ratio, so that exactly 10% off is not past 10% by a rounding.
    const double model = static_cast<double>(model_bytes);
    return model_bytes > 0 &&
           std::abs(static_cast<double>(counters.dram_bytes()) - model) > tolerance * model;
}

}  // namespace coalesce
