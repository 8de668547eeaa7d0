#include "coalesce/ncu_csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace coalesce::ncu {
namespace {

namespace metric {
constexpr const char* dram_read = "dram__bytes_read.sum";
constexpr const char* dram_write = "dram__bytes_write.sum";
constexpr const char* ld_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* ld_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
constexpr const char* st_sectors = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
constexpr const char* st_requests = "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum";
constexpr const char* ld_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* st_conflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
constexpr const char* ld_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* st_wavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* l1_hit = "l1tex__t_sector_hit_rate.pct";
constexpr const char* l1_sectors = "l1tex__t_sectors.sum";
constexpr const char* l2_hit = "lts__t_sector_hit_rate.pct";
constexpr const char* l2_sectors = "lts__t_sectors.sum";
constexpr const char* occupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
constexpr const char* active_cycles = "sm__cycles_active.sum";
}  // namespace metric

// Units ncu prints with --print-units base; a prefixed one ("Mbyte") would mean the option
// was lost and every number scaled.
bool base_unit(const std::string& unit) {
    static const std::vector<std::string> units = {"",      "byte",    "sector", "%",
                                                   "cycle", "request", "warp",   "wavefront"};
    return std::find(units.begin(), units.end(), unit) != units.end();
}

// One line of ncu's CSV: every field quoted, quotes inside doubled.
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> fields;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char ch = line[i];
        if (quoted) {
            if (ch != '"')
                field += ch;
            else if (i + 1 < line.size() && line[i + 1] == '"')
                field += line[++i];
            else
                quoted = false;
        } else if (ch == '"') {
            quoted = true;
        } else if (ch == ',') {
            fields.push_back(std::move(field));
            field.clear();
        } else if (ch != '\r') {
            field += ch;
        }
    }
    fields.push_back(std::move(field));
    return fields;
}

// "1,677,894.40" -> 1677894.4; "n/a" and other text -> nothing.
std::optional<double> ncu_number(std::string text) {
    text.erase(std::remove(text.begin(), text.end(), ','), text.end());
    double v = 0;
    const auto res = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || res.ec != std::errc{} || res.ptr != text.data() + text.size() ||
        !std::isfinite(v))
        return std::nullopt;
    return v;
}

std::optional<std::size_t> run_of(const std::vector<std::string>& fields) {
    static const std::regex marker("coalesce-run-([0-9]+)");
    for (const std::string& f : fields) {
        std::smatch m;
        if (std::regex_search(f, m, marker)) return std::stoull(m[1].str());
    }
    return std::nullopt;
}

std::uint64_t count(const KernelRow& k, const char* name) {
    return static_cast<std::uint64_t>(std::llround(std::max(0.0, k.metrics.at(name))));
}

// The rate of the whole launch: each kernel's rate weighted by what it is a fraction of.
double weighted_rate(const std::vector<const KernelRow*>& kernels, const char* rate,
                     const char* weight) {
    double sum = 0, weights = 0;
    for (const KernelRow* k : kernels) {
        const double w = k->metrics.at(weight);
        sum += w * k->metrics.at(rate);
        weights += w;
    }
    return weights > 0 ? sum / weights : std::nan("");
}

}  // namespace

const std::vector<std::string>& metric_names() {
    static const std::vector<std::string> names = {
        metric::dram_read,     metric::dram_write,    metric::ld_sectors,   metric::ld_requests,
        metric::st_sectors,    metric::st_requests,   metric::ld_conflicts, metric::st_conflicts,
        metric::ld_wavefronts, metric::st_wavefronts, metric::l1_hit,       metric::l1_sectors,
        metric::l2_hit,        metric::l2_sectors,    metric::occupancy,    metric::active_cycles};
    return names;
}

std::string metrics_argument() {
    std::string out;
    for (const std::string& name : metric_names()) out += (out.empty() ? "" : ",") + name;
    return out;
}

std::string range_name(std::size_t run_index) {
    return "coalesce-run-" + std::to_string(run_index);
}

std::vector<KernelRow> parse_raw_csv(const std::string& log) {
    std::vector<std::vector<std::string>> rows;
    std::istringstream lines(log);
    bool in_table = false;
    for (std::string line; std::getline(lines, line);) {
        if (!in_table) in_table = line.rfind("\"ID\",", 0) == 0;
        if (in_table && !line.empty() && line.front() == '"') rows.push_back(csv_fields(line));
    }
    if (rows.empty())
        throw std::runtime_error("ncu printed no CSV table (no header row starting with \"ID\")");
    const std::vector<std::string>& header = rows[0];
    if (rows.size() < 2) throw std::runtime_error("ncu's CSV table has no units row");
    const std::vector<std::string>& units = rows[1];

    std::map<std::string, std::size_t> column;
    for (std::size_t i = 0; i < header.size(); ++i) column.emplace(header[i], i);
    const auto kernel_column = column.find("Kernel Name");
    for (const std::string& name : metric_names()) {
        const auto it = column.find(name);
        if (it == column.end())
            throw std::runtime_error("ncu's CSV has no column for metric " + name);
        const std::string unit = it->second < units.size() ? units[it->second] : "";
        if (!base_unit(unit))
            throw std::runtime_error("ncu printed metric " + name + " in '" + unit +
                                     "', not in base units (--print-units base)");
    }

    std::vector<KernelRow> kernels;
    for (std::size_t r = 2; r < rows.size(); ++r) {
        const std::vector<std::string>& fields = rows[r];
        if (fields.size() != header.size())
            throw std::runtime_error("ncu's CSV row " + std::to_string(r - 1) + " has " +
                                     std::to_string(fields.size()) + " fields, the header " +
                                     std::to_string(header.size()));
        KernelRow k;
        k.run = run_of(fields);
        if (kernel_column != column.end()) k.kernel = fields[kernel_column->second];
        for (const std::string& name : metric_names()) {
            const std::string& text = fields[column.at(name)];
            const auto value = ncu_number(text);
            if (!value)
                throw std::runtime_error("ncu's value of " + name + " for kernel '" + k.kernel +
                                         "' is not a number: '" + text + "'");
            k.metrics[name] = *value;
        }
        kernels.push_back(std::move(k));
    }
    return kernels;
}

Counters combine(const std::vector<const KernelRow*>& kernels) {
    if (kernels.empty()) throw std::invalid_argument("combine: no kernel rows");
    Counters c;
    c.kernels = kernels.size();
    for (const KernelRow* k : kernels) {
        c.dram_read_bytes += count(*k, metric::dram_read);
        c.dram_write_bytes += count(*k, metric::dram_write);
        c.global_load_sectors += count(*k, metric::ld_sectors);
        c.global_load_requests += count(*k, metric::ld_requests);
        c.global_store_sectors += count(*k, metric::st_sectors);
        c.global_store_requests += count(*k, metric::st_requests);
        c.shared_load_conflicts += count(*k, metric::ld_conflicts);
        c.shared_store_conflicts += count(*k, metric::st_conflicts);
        c.shared_load_wavefronts += count(*k, metric::ld_wavefronts);
        c.shared_store_wavefronts += count(*k, metric::st_wavefronts);
    }
    c.l1_hit_rate_pct = weighted_rate(kernels, metric::l1_hit, metric::l1_sectors);
    c.l2_hit_rate_pct = weighted_rate(kernels, metric::l2_hit, metric::l2_sectors);
    c.occupancy_pct = weighted_rate(kernels, metric::occupancy, metric::active_cycles);
    return c;
}

std::string known_problem(const std::string& output) {
    if (output.find("ERR_NVGPUCTRPERM") != std::string::npos)
        return "no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM): run as "
               "root or allow every user to profile (NVreg_RestrictProfilingToAdminUsers=0), see "
               "https://developer.nvidia.com/ERR_NVGPUCTRPERM";
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind("==ERROR==", 0) == 0) {
            while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
            return "ncu: " + line.substr(9 + (line.size() > 9 && line[9] == ' '));
        }
    if (output.find("==WARNING== No kernels were profiled") != std::string::npos)
        return "ncu profiled no kernel (no launch inside a run's NVTX range)";
    return {};
}

}  // namespace coalesce::ncu
