#include "sample_record.hpp"

#include "coalesce/operation.hpp"

#include <array>
#include <stdexcept>

namespace coalesce::gui::testing {

namespace {

struct Entry {
    const char* op;
    const char* variant;
    const char* space;
    double gbps;  // [GB/s] at 8192×8192 on the reference device
};

// Shaped like a run on an H200 (about 4 TB/s device copy): the uncoalesced variants far below
// the tiled and vectorised ones.
constexpr std::array<Entry, 16> kEntries = {{
    {"copy", "copy/global", "global", 3951.0},
    {"copy", "copy/pitched", "pitched", 3938.0},
    {"transpose", "transpose/global-naive", "global", 1012.0},
    {"transpose", "transpose/pitched", "pitched", 1020.0},
    {"transpose", "transpose/shared-tile", "shared", 2710.0},
    {"transpose", "transpose/shared-padded", "shared", 3544.0},
    {"transpose", "transpose/texture-array", "texture-array", 2890.0},
    {"row_sums", "row_sums/global-thread-per-row", "global", 402.0},
    {"row_sums", "row_sums/global-warp-per-row", "global", 3420.0},
    {"row_sums", "row_sums/fast-warp-float4", "global", 3702.0},
    {"col_sums", "col_sums/global-thread-per-col", "global", 3300.0},
    {"col_sums", "col_sums/shared-reduce", "shared", 3490.0},
    {"filter_x", "filter_x/global", "global", 2950.0},
    {"filter_x", "filter_x/shared-tile", "shared", 3480.0},
    {"filter_y", "filter_y/global", "global", 3390.0},
    {"filter_y", "filter_y/texture-pitched", "texture-pitched", 3100.0},
}};

constexpr std::array<std::size_t, 3> kSides = {1024, 4096, 8192};

}  // namespace

RunResult sampleResult(const std::string& op, const std::string& variant, const std::string& space,
                       std::size_t rows, std::size_t cols, double gbps) {
    const auto parsed = parse_op(op);
    if (!parsed) throw std::invalid_argument("sampleResult: unknown operation " + op);
    RunResult r;
    r.op = op;
    r.variant = variant;
    r.memory_space = space;
    // The fast variants are the tuned tier; everything else teaches a lesson.
    r.tier = variant.find("/fast-") != std::string::npos ? "tuned" : "classic";
    r.rows = rows;
    r.cols = cols;
    r.radius = 4;
    r.border = "clamp";
    r.status = Status::ok;
    r.verified = true;
    r.reps = 20;
    r.bytes = bytes_moved(*parsed, Shape{rows, cols});
    r.gbps = gbps;
    r.median_ms = static_cast<double>(r.bytes) / (gbps * 1e9) * 1e3;
    r.min_ms = r.median_ms * 0.98;
    r.max_ms = r.median_ms * 1.05;
    return r;
}

RunRecord countersRecord() {
    RunRecord record = sampleRecord("NVIDIA H100 80GB HBM3");
    record.runs.clear();
    const auto with = [&](const char* op, const char* variant, const char* space, double gbps,
                          std::uint64_t read, std::uint64_t written) -> RunResult& {
        RunResult r = sampleResult(op, variant, space, 8192, 8192, gbps);
        Counters c;
        c.kernels = 1;
        c.dram_read_bytes = read;
        c.dram_write_bytes = written;
        c.global_load_requests = c.global_store_requests = 2097152;
        c.global_load_sectors = c.global_store_sectors = 4 * 2097152ull;
        c.l1_hit_rate_pct = 0.0;
        c.l2_hit_rate_pct = 51.8;
        c.occupancy_pct = 82.0;
        r.counters = c;
        record.runs.push_back(r);
        return record.runs.back();
    };
    with("copy", "copy/global", "global", 2962.6, 268444416, 248645376);
    RunResult& naive =
        with("transpose", "transpose/global-naive", "global", 424.0, 328100000, 311200000);
    naive.counters->global_store_sectors = 32 * 2097152ull;
    naive.counters->l1_hit_rate_pct = 73.7;
    RunResult& tile =
        with("transpose", "transpose/shared-tile", "shared", 1455.0, 268400000, 252100000);
    tile.counters->shared_load_conflicts = 65860843;
    tile.counters->shared_load_wavefronts = 67957995;
    tile.counters->shared_store_conflicts = 84224;
    tile.counters->shared_store_wavefronts = 2181376;
    RunResult& padded =
        with("transpose", "transpose/shared-padded", "shared", 2355.0, 268400000, 251400000);
    padded.counters->shared_load_conflicts = 237764;
    padded.counters->shared_load_wavefronts = 2334916;
    padded.model_load_sectors = 4.0;
    padded.model_store_sectors = 4.0;
    RunResult& texture =
        with("copy", "copy/texture-array", "texture-array", 2575.0, 268400000, 251700000);
    texture.counters->global_load_requests = texture.counters->global_load_sectors = 0;
    RunResult host = sampleResult("copy", "copy/host-naive", "host", 8192, 8192, 9.5);
    host.gpu = false;
    host.counters_status = kHostStatus;
    record.runs.push_back(host);
    return record;
}

RunRecord sampleRecord(const std::string& device_name, double scale) {
    RunRecord record;
    record.device.index = 0;
    record.device.name = device_name;
    record.device.gpu = true;
    record.device.sm_count = 132;
    record.device.cc_major = 9;
    record.device.l2_bytes = 60u * 1024u * 1024u;
    record.device.memory_bytes = 141ull * 1024u * 1024u * 1024u;
    record.device.memory_bus_bits = 6144;
    record.device.memory_clock_khz = 2619000;
    record.device.theoretical_gbps = 4800;
    record.config.reps = 20;
    record.started_at = "2026-11-21T23:40:00Z";

    for (std::size_t side : kSides) {
        // Small inputs live in the L2 (faster than DRAM); mid sizes sit a little below the plateau.
        const double size_factor = side == 1024 ? 1.45 : side == 4096 ? 0.93 : 1.0;
        const double copy = kEntries[0].gbps * size_factor * scale;
        for (const Entry& e : kEntries) {
            RunResult r =
                sampleResult(e.op, e.variant, e.space, side, side, e.gbps * size_factor * scale);
            r.copy_gbps = copy;
            r.pct_of_copy = 100.0 * r.gbps / copy;
            r.cache_resident = r.bytes <= record.device.l2_bytes;
            if (std::string(e.op) != "copy" && std::string(e.op) != "transpose")
                r.max_abs_error = 2.4e-6;
            record.runs.push_back(r);
        }
        RunResult failed =
            sampleResult("filter_y", "filter_y/shared-tile", "shared", side, side, 1.0);
        failed.status = Status::failed;
        failed.verified = false;
        failed.gbps = 0;
        failed.max_abs_error = 0.75;
        failed.error = "element (0, 17): 0.25 vs reference 1.0";
        record.runs.push_back(failed);
    }
    RunResult skipped =
        sampleResult("transpose", "transpose/texture-pitched", "texture-pitched", 8192, 8192, 1.0);
    skipped.status = Status::skipped;
    skipped.verified = false;
    skipped.gbps = 0;
    skipped.error = "texture pitch alignment not met";
    record.runs.push_back(skipped);
    return record;
}

}  // namespace coalesce::gui::testing
