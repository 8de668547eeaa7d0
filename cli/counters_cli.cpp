#include "counters_cli.hpp"

#include "interrupt.hpp"

#include "coalesce/counters_pass.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace coalesce::cli {

bool run_counters_pass(RunRecord& record, const BenchOptions& options, std::ostream& err) {
    CountersOptions pass;
    std::error_code ec;
    pass.bench = std::filesystem::read_symlink("/proc/self/exe", ec);
    pass.ncu = options.ncu_path;
    pass.plugin_dirs = options.plugin_dirs;
    pass.cancelled = [] { return CancelOnInterrupt::interrupted(); };
    const auto profiled = [](const RunResult& r) {
        return r.gpu && r.status == Status::ok && r.verified;
    };
    const auto planned = std::count_if(record.runs.begin(), record.runs.end(), profiled);
    if (planned > 0)
        err << "coalesce-bench: counters: profiling one launch of each of " << planned
            << " verified GPU runs under Nsight Compute\n"
            << std::flush;
    const CountersSummary summary = collect_counters(record, pass);
    if (summary.planned == 0 || summary.measured == 0)
        err << "coalesce-bench: counters: none: " << summary.problem << '\n';
    else if (summary.measured < summary.planned)
        err << "coalesce-bench: counters: " << summary.measured << " of " << summary.planned
            << " runs measured" << (summary.problem.empty() ? "" : "; " + summary.problem)
            << " (the table's footnotes say why for each)\n";
    else
        err << "coalesce-bench: counters: all " << summary.measured << " runs measured\n";
    return !CancelOnInterrupt::interrupted();
}

}  // namespace coalesce::cli
