#include "report.hpp"

#include "text_table.hpp"

#include "coalesce/counters_pass.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <utility>

namespace coalesce::cli {
namespace {

std::string fixed(double value, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::string mib(std::size_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

std::string device_line(const DeviceInfo& d) {
    if (!d.gpu) return "device: " + d.name + " (host; no CUDA device, host variants only)";
    std::string line = "device: " + d.name + " (cc " + std::to_string(d.cc_major) + "." +
                       std::to_string(d.cc_minor) + ", " + std::to_string(d.sm_count) + " SMs, " +
                       mib(d.l2_bytes) + " L2, " + std::to_string(d.memory_bytes >> 30) + " GiB";
    if (d.theoretical_gbps > 0) line += ", " + fixed(d.theoretical_gbps, 0) + " GB/s theoretical";
    return line + ")";
}

std::string milliseconds_text(double ms) {
    if (ms >= 0.1) return fixed(ms, 3);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", ms);  // three significant digits for tiny runs
    return buf;
}

std::string size_text(std::size_t rows, std::size_t cols) {
    return std::to_string(rows) + "x" + std::to_string(cols);
}

std::string outcome_text(const RunResult& r) {
    switch (r.status) {
    case Status::ok: return r.verified ? "verified" : "FAILED: not verified";
    case Status::failed: return "FAILED: " + r.error;
    case Status::skipped: return "skipped: " + r.error;
    case Status::cancelled: return "cancelled";
    }
    return std::string(status_name(r.status));
}

void print_variant_list(std::ostream& out, const Registry& registry) {
    TextTable table(
        {{"id"}, {"operation"}, {"memory space"}, {"tier"}, {"origin"}, {"description"}});
    for (const Variant& v : registry.variants())
        table.add_row({v.info.id, std::string(op_name(v.info.op)), v.info.memory_space,
                       std::string(tier_name(v.info.tier)), v.info.origin, v.info.description});
    table.print(out);
    out << registry.size() << " variants\n\n";
    TextTable ops({{"operation"}, {"parameters (--param)"}, {"what it computes"}});
    for (const OpDesc* d : op_table()) {
        std::string params =
            d->filter ? "radius 0.." + std::to_string(kMaxRadius) + ", border" : "";
        for (const ParamSpec& p : d->params)
            params += (params.empty() ? "" : ", ") + p.name + " " + std::to_string(p.min) + ".." +
                      std::to_string(p.max) + " (default " + std::to_string(p.default_value) + ")";
        ops.add_row({std::string(d->op.name()), params.empty() ? "-" : params, d->summary});
    }
    ops.print(out);
}

// "offset=3 stride=2"
std::string params_cell(const RunResult& r) {
    std::string out;
    for (const auto& [name, value] : r.params)
        out += (out.empty() ? "" : " ") + name + "=" + std::to_string(value);
    return out;
}

bool has_model(const RunResult& r) {
    return !std::isnan(r.model_efficiency) || !std::isnan(r.model_bank_conflict_degree) ||
           !std::isnan(r.model_constant_serialization);
}

// The models' predictions: sectors per load / store request and the efficiency they imply; the
// worst shared-memory bank conflict; the constant cache's serialization.
std::string model_cell(const RunResult& r) {
    std::string cell;
    const auto add = [&](const std::string& part) { cell += (cell.empty() ? "" : ", ") + part; };
    if (!std::isnan(r.model_efficiency))
        add(fixed(r.model_load_sectors, 1) + "/" + fixed(r.model_store_sectors, 1) + " sect, " +
            fixed(100.0 * r.model_efficiency, 0) + "%");
    if (!std::isnan(r.model_bank_conflict_degree))
        add(fixed(r.model_bank_conflict_degree, 0) + "-way banks");
    if (!std::isnan(r.model_constant_serialization))
        add(fixed(r.model_constant_serialization, 0) + "x const");
    return cell;
}

namespace {

// "16.4M", "48.3k", "0": counts at a glance.
std::string count_text(std::uint64_t n) {
    const double v = static_cast<double>(n);
    if (n < 1000) return std::to_string(n);
    if (v < 1e6) return fixed(v / 1e3, 1) + "k";
    if (v < 1e9) return fixed(v / 1e6, 1) + "M";
    return fixed(v / 1e9, 1) + "G";
}

std::string ratio_text(double v) { return std::isnan(v) ? "-" : fixed(v, 1); }

// The counters' compact cells: DRAM bytes over the model (marked "!" past the tolerance), global
// sectors per load / store request, shared-memory bank conflicts of loads / stores.
std::vector<std::string> counters_cells(const RunResult& r) {
    if (!r.counters) return {"-", "-", "-"};
    const Counters& c = *r.counters;
    const double ratio = dram_model_ratio(c, r.bytes);
    std::string dram = std::isnan(ratio) ? "-" : fixed(ratio, 2);
    if (dram_differs_from_model(c, r.bytes)) dram += "!";
    return {
        dram,
        ratio_text(c.load_sectors_per_request()) + "/" + ratio_text(c.store_sectors_per_request()),
        count_text(c.shared_load_conflicts) + "/" + count_text(c.shared_store_conflicts)};
}

// Why runs have no counters, one line per reason, after a counters pass.
void print_counters_notes(std::ostream& out, const RunRecord& record, bool any_mark) {
    const bool any_counters =
        std::any_of(record.runs.begin(), record.runs.end(),
                    [](const RunResult& r) { return r.counters.has_value(); });
    if (any_counters)
        out << "counters (one profiled launch, caches flushed before it): DRAM/model = DRAM bytes "
               "read + written / bytes_moved; sect/req = global sectors per warp load/store "
               "request; bank conflicts of shared loads/stores\n";
    if (any_mark)
        out << "! measured DRAM bytes differ from the bytes model by more than "
            << fixed(100 * kModelMismatchTolerance, 0)
            << "%: see docs/counters.md (data the L2 kept, halo or texture re-reads, writes "
               "still in the L2 when the kernel ended)\n";
    for (const auto& [reason, n] : missing_counters_reasons(record))
        out << "no counters for " << n << (n == 1 ? " run: " : " runs: ") << reason << '\n';
}

}  // namespace

void print_results(std::ostream& out, const RunRecord& record) {
    using Align = TextTable::Align;
    const bool any_params = std::any_of(record.runs.begin(), record.runs.end(),
                                        [](const RunResult& r) { return !r.params.empty(); });
    const bool any_model = std::any_of(record.runs.begin(), record.runs.end(), has_model);
    const bool any_accesses = std::any_of(record.runs.begin(), record.runs.end(),
                                          [](const RunResult& r) { return r.accesses > 0; });
    // The element type shows once a run is not f32, so f32-only tables stay as they were.
    const bool any_typed = std::any_of(record.runs.begin(), record.runs.end(),
                                       [](const RunResult& r) { return r.type != "f32"; });
    std::vector<TextTable::Column> columns = {{"op"}, {"variant"}, {"memory"}, {"size"}};
    if (any_typed) columns.push_back({"type"});
    if (any_params) columns.push_back({"params"});
    for (TextTable::Column c : std::vector<TextTable::Column>{
             {"ms", Align::right}, {"GB/s", Align::right}, {"% of copy", Align::right}})
        columns.push_back(c);
    if (any_accesses) columns.push_back({"ns/access", Align::right});
    if (any_model) columns.push_back({"model (ld/st sectors, eff.; banks; const)"});
    const bool any_counters =
        std::any_of(record.runs.begin(), record.runs.end(),
                    [](const RunResult& r) { return r.counters.has_value(); });
    if (any_counters)
        for (TextTable::Column c :
             std::vector<TextTable::Column>{{"DRAM/model", Align::right},
                                            {"sect/req ld/st", Align::right},
                                            {"bank conflicts ld/st", Align::right}})
            columns.push_back(c);
    columns.push_back({"result"});
    TextTable table(columns);
    std::map<Status, std::size_t> counts;
    bool any_cache_resident = false;
    bool any_mark = false;
    std::vector<std::pair<std::string, double>> baselines;  // per size (and type), in run order
    for (const RunResult& r : record.runs) {
        ++counts[r.status == Status::ok && !r.verified ? Status::failed : r.status];
        const std::string size = size_text(r.rows, r.cols);
        // A typed run's baseline copies its own input bytes: one line per size and type.
        const std::string baseline = any_typed ? size + " " + type_label(r) : size;
        if (r.copy_gbps > 0 && (baselines.empty() || baselines.back().first != baseline))
            baselines.emplace_back(baseline, r.copy_gbps);

        const bool measured = r.status == Status::ok && r.verified;
        std::string gbps = measured ? fixed(r.gbps, 1) : "-";
        if (measured && r.cache_resident) {
            gbps += "*";
            any_cache_resident = true;
        }
        std::vector<std::string> cells = {r.op, r.variant, r.memory_space, size};
        if (any_typed) cells.push_back(type_label(r));
        if (any_params) cells.push_back(params_cell(r));
        cells.push_back(measured ? milliseconds_text(r.median_ms) : "-");
        cells.push_back(gbps);
        cells.push_back(measured && r.copy_gbps > 0 ? fixed(r.pct_of_copy, 1) + "%" : "-");
        if (any_accesses)
            cells.push_back(measured && r.accesses > 0 ? fixed(r.ns_per_access, 3) : "-");
        if (any_model) cells.push_back(model_cell(r));
        if (any_counters) {
            const std::vector<std::string> counters = counters_cells(r);
            cells.insert(cells.end(), counters.begin(), counters.end());
            any_mark = any_mark || (r.counters && dram_differs_from_model(*r.counters, r.bytes));
        }
        cells.push_back(outcome_text(r));
        table.add_row(cells);
    }
    table.print(out);

    out << '\n';
    if (any_cache_resident)
        out << "* input and output fit in the L2 cache: this measures the cache, not DRAM\n";
    print_counters_notes(out, record, any_mark);
    const char* copy_kind = record.device.gpu ? "device-to-device cudaMemcpy" : "host memory copy";
    for (const auto& [size, gbps] : baselines)
        out << "copy baseline " << size << ": " << fixed(gbps, 1) << " GB/s (" << copy_kind
            << ", bytes read + written)\n";
    out << kBandwidthFormula << "; ms is the median of the timed launches\n";
    if (any_accesses)
        out << "ns/access: median time per warp-wide load of one SM (element loads / 32 / SMs; "
               "host variants: per element load)\n";
    out << counts[Status::ok] << " verified, " << counts[Status::failed] << " failed, "
        << counts[Status::skipped] << " skipped, " << counts[Status::cancelled] << " cancelled\n";
}

}  // namespace coalesce::cli
