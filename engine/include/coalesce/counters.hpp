// Hardware counters of one profiled launch of a variant (Nsight Compute, see counters_pass.hpp):
// what the memory system did, beside the bytes and sectors the engine's models count. Nothing
// here is estimated: a run either has counters measured on the GPU or says why it has none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

namespace coalesce {

struct Counters {
    // Sums over every kernel the variant's launch ran.
    std::uint64_t kernels = 0;           // kernel launches profiled and summed
    std::uint64_t dram_read_bytes = 0;   // [bytes] dram__bytes_read.sum
    std::uint64_t dram_write_bytes = 0;  // [bytes] dram__bytes_write.sum
    // Global memory through the LSU: 32-byte sectors and warp-wide requests
    // (l1tex__t_{sectors,requests}_pipe_lsu_mem_global_op_{ld,st}.sum).
    std::uint64_t global_load_sectors = 0;
    std::uint64_t global_load_requests = 0;
    std::uint64_t global_store_sectors = 0;
    std::uint64_t global_store_requests = 0;
    // Shared memory: bank conflicts and wavefronts (passes through the 32 banks)
    // (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum,
    //  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}.sum).
    std::uint64_t shared_load_conflicts = 0;
    std::uint64_t shared_store_conflicts = 0;
    std::uint64_t shared_load_wavefronts = 0;
    std::uint64_t shared_store_wavefronts = 0;
    // Rates [%], combined over the kernels weighted by what each rate is a fraction of (L1 and L2
    // sectors, active SM cycles), which gives the rate of the whole launch. NaN: nothing to rate.
    double l1_hit_rate_pct = std::numeric_limits<double>::quiet_NaN();  // l1tex__t_sector_hit_rate
    double l2_hit_rate_pct = std::numeric_limits<double>::quiet_NaN();  // lts__t_sector_hit_rate
    double occupancy_pct = std::numeric_limits<double>::quiet_NaN();    // achieved occupancy

    std::uint64_t dram_bytes() const { return dram_read_bytes + dram_write_bytes; }  // [bytes]
    // Sectors per warp request; NaN without requests (texture fetches and bulk copies do not
    // go through the LSU's global pipe).
    double load_sectors_per_request() const {
        return ratio(global_load_sectors, global_load_requests);
    }
    double store_sectors_per_request() const {
        return ratio(global_store_sectors, global_store_requests);
    }

    bool operator==(const Counters&) const;  // NaN rates compare equal to NaN

private:
    static double ratio(std::uint64_t a, std::uint64_t b) {
        return b ? static_cast<double>(a) / static_cast<double>(b)
                 : std::numeric_limits<double>::quiet_NaN();
    }
};

// Measured DRAM bytes (read + written) over the bytes model; NaN when the model is 0.
double dram_model_ratio(const Counters& counters, std::size_t model_bytes);

// How far measured DRAM traffic may stray from the model before a table marks it.
inline constexpr double kModelMismatchTolerance = 0.10;

// |measured / model - 1| > tolerance.
bool dram_differs_from_model(const Counters& counters, std::size_t model_bytes,
                             double tolerance = kModelMismatchTolerance);

}  // namespace coalesce
