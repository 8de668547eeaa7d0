#include "coalesce/counters_pass.hpp"

#include <algorithm>

#include "child_process.hpp"

#include "coalesce/device.hpp"
#include "coalesce/results_io.hpp"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <stdexcept>
#include <system_error>

namespace coalesce {
namespace {

namespace fs = std::filesystem;

bool executable_file(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// A fresh folder under the temporary directory, removed with everything in it unless kept.
class WorkFolder {
public:
    explicit WorkFolder(bool keep) : keep_(keep) {
        std::string pattern = (fs::temp_directory_path() / "coalesce-counters-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            throw std::runtime_error("cannot create a folder for the counters pass in " +
                                     fs::temp_directory_path().string());
        path_ = pattern;
    }
    ~WorkFolder() {
        std::error_code ec;
        if (!keep_) fs::remove_all(path_, ec);
    }
    WorkFolder(const WorkFolder&) = delete;
    WorkFolder& operator=(const WorkFolder&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
    bool keep_;
};

std::string read_if_there(const fs::path& path) {
    std::error_code ec;
    return fs::exists(path, ec) ? read_text_file(path) : std::string();
}

std::string last_line(const std::string& text) {
    std::size_t end = text.find_last_not_of("\r\n ");
    if (end == std::string::npos) return {};
    const std::size_t begin = text.rfind('\n', end);
    return text.substr(begin == std::string::npos ? 0 : begin + 1,
                       end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

std::string why_not_profiled(Status status) {
    switch (status) {
    case Status::skipped: return "not profiled: the run was skipped";
    case Status::cancelled: return "not profiled: the run was cancelled";
    case Status::ok:  // ok but not verified: a figure nobody may read
    case Status::failed: return "not profiled: the run did not verify";
    }
    return "not profiled";
}

}  // namespace

fs::path find_ncu(const fs::path& explicit_path) {
    if (!explicit_path.empty()) return executable_file(explicit_path) ? explicit_path : fs::path();
    std::vector<fs::path> dirs;
    if (const char* path = std::getenv("PATH")) {
        const std::string text = path;
        std::size_t begin = 0;
        while (begin <= text.size()) {
            const std::size_t end = std::min(text.find(':', begin), text.size());
            if (end > begin) dirs.emplace_back(text.substr(begin, end - begin));
            begin = end + 1;
        }
    }
    if (const char* home = std::getenv("CUDA_HOME"); home && *home)
        dirs.push_back(fs::path(home) / "bin");
    dirs.emplace_back("/usr/local/cuda/bin");
    for (const fs::path& dir : dirs)
        if (executable_file(dir / "ncu")) return dir / "ncu";
    return {};
}

namespace counters_steps {

ProfilePlan plan(RunRecord& record, const std::vector<std::string>& plugin_dirs) {
    ProfilePlan p;
    p.device =
        record.device.gpu && record.device.index >= 0 ? record.device.index : record.config.device;
    p.seed = record.config.seed;
    p.plugin_dirs = plugin_dirs;
    for (std::size_t i = 0; i < record.runs.size(); ++i) {
        RunResult& r = record.runs[i];
        r.counters.reset();
        r.counters_status.clear();
        if (!r.gpu) {
            r.counters_status = "host variant: hardware counters are measured on the GPU only";
            continue;
        }
        if (r.type != "f32") {  // the profiled launch would upload float32 data
            r.counters_status = "not profiled: " + r.type + " runs are not profiled yet";
            continue;
        }
        if (r.status != Status::ok || !r.verified) {
            r.counters_status = why_not_profiled(r.status);
            continue;
        }
        const auto border = parse_border(r.border);
        if (!border) {
            r.counters_status = "not profiled: unknown border mode '" + r.border + "'";
            continue;
        }
        ProfileRun run;
        run.index = i;
        run.variant = r.variant;
        run.shape = {r.rows, r.cols};
        run.params.radius = r.radius;
        run.params.border = *border;
        run.params.values = r.params;
        p.runs.push_back(std::move(run));
    }
    return p;
}

std::string machine_problem(const RunRecord& record) {
    const int count = cuda_device_count();
    if (count == 0) return no_device_reason() + ": counters need the GPU the runs ran on";
    const int index = record.device.index >= 0 ? record.device.index : record.config.device;
    if (index >= count)
        return "the runs ran on device " + std::to_string(index) + ", and this machine has " +
               std::to_string(count) + " CUDA device(s)";
    try {
        const DeviceInfo here = query_device(index);
        if (record.device.gpu && here.name != record.device.name)
            return "the runs ran on " + record.device.name + " and device " +
                   std::to_string(index) + " here is " + here.name +
                   ": its counters would describe another GPU";
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

std::vector<std::string> ncu_command(const fs::path& ncu, const fs::path& bench,
                                     const fs::path& plan_file, const fs::path& log_file) {
    return {ncu.string(),
            "--target-processes",
            "application-only",
            "--nvtx",
            "--nvtx-include",
            ncu::kRangeFilter,
            "--metrics",
            ncu::metrics_argument(),
            "--cache-control",
            "all",
            "--clock-control",
            "none",
            "--csv",
            "--page",
            "raw",
            "--print-units",
            "base",
            "--log-file",
            log_file.string(),
            bench.string(),
            "--profile-plan",
            plan_file.string()};
}

std::size_t apply(RunRecord& record, const ProfilePlan& plan,
                  const std::vector<ProfileOutcome>& outcomes,
                  const std::vector<ncu::KernelRow>& kernels, const std::string& problem) {
    std::map<std::size_t, const ProfileOutcome*> outcome_of;
    for (const ProfileOutcome& o : outcomes) outcome_of[o.index] = &o;
    std::map<std::size_t, std::vector<const ncu::KernelRow*>> kernels_of;
    for (const ncu::KernelRow& k : kernels)
        if (k.run) kernels_of[*k.run].push_back(&k);

    std::size_t measured = 0;
    for (const ProfileRun& run : plan.runs) {
        RunResult& r = record.runs.at(run.index);
        r.counters.reset();
        const auto o = outcome_of.find(run.index);
        const auto k = kernels_of.find(run.index);
        const std::size_t got = k == kernels_of.end() ? 0 : k->second.size();
        if (o == outcome_of.end()) {
            r.counters_status =
                problem.empty() ? "the profiling process ended before this run" : problem;
        } else if (o->second->variant != run.variant) {
            r.counters_status =
                "the profiling process ran " + o->second->variant + " in this run's place";
        } else if (!o->second->launched) {
            r.counters_status = "the profiled launch failed: " + o->second->error;
        } else if (got == 0) {
            r.counters_status =
                problem.empty() ? "ncu reported no kernel in this run's range" : problem;
        } else if (o->second->kernels >= 0 && got != static_cast<std::size_t>(o->second->kernels)) {
            r.counters_status = "ncu reported " + std::to_string(got) +
                                " kernels for a launch "
                                "that runs " +
                                std::to_string(o->second->kernels);
        } else {
            r.counters = ncu::combine(k->second);
            r.counters_status.clear();
            ++measured;
        }
    }
    return measured;
}

void mark_all(RunRecord& record, const ProfilePlan& plan, const std::string& status) {
    for (const ProfileRun& run : plan.runs) {
        record.runs.at(run.index).counters.reset();
        record.runs.at(run.index).counters_status = status;
    }
}

CountersSummary profile(RunRecord& record, const ProfilePlan& plan, const fs::path& ncu,
                        const CountersOptions& options) {
    CountersSummary summary;
    summary.planned = plan.runs.size();
    const WorkFolder folder(options.keep_files);
    if (options.keep_files) summary.folder = folder.path();
    const fs::path plan_file = folder.path() / "plan.json";
    const fs::path log_file = folder.path() / "ncu.csv";
    const fs::path child_out = folder.path() / "child-stdout.txt";
    const fs::path child_err = folder.path() / "ncu-stderr.txt";
    write_file_atomically(plan_file, plan_to_json(plan));
    const detail::ChildExit exit =
        detail::run_child(ncu_command(ncu, options.bench, plan_file, log_file), child_out,
                          child_err, options.cancelled);
    if (exit.stopped) {
        mark_all(record, plan, "cancelled");
        summary.problem = "cancelled";
        return summary;
    }

    const std::string log = read_if_there(log_file);
    const std::string out = read_if_there(child_out);
    const std::string err = read_if_there(child_err);
    std::string problem = ncu::known_problem(log + "\n" + err + "\n" + out);
    std::vector<ncu::KernelRow> kernels;
    std::vector<ProfileOutcome> outcomes;
    std::string unreadable;
    try {
        outcomes = parse_outcomes(out);
        kernels = ncu::parse_raw_csv(log);
    } catch (const std::runtime_error& e) {
        unreadable = e.what();
    }
    if (problem.empty() && (!exit.exited || exit.code != 0) && kernels.empty()) {
        const std::string said = last_line(err.empty() ? log : err);
        problem = "ncu ended with " + detail::describe(exit) + (said.empty() ? "" : ": " + said);
    }
    if (problem.empty()) problem = unreadable;
    summary.measured = apply(record, plan, outcomes, kernels, problem);
    if (summary.measured < summary.planned) summary.problem = problem;
    return summary;
}

}  // namespace counters_steps

CountersSummary collect_counters(RunRecord& record, const CountersOptions& options) {
    CountersSummary summary;
    const ProfilePlan plan = counters_steps::plan(record, options.plugin_dirs);
    summary.planned = plan.runs.size();
    if (plan.runs.empty()) {
        const std::string reason = record.device.gpu ? std::string() : no_device_reason();
        summary.problem = record.device.gpu
                              ? "no verified GPU run to profile"
                              : (reason.empty() ? "the runs ran on the host" : reason) +
                                    ": hardware counters need GPU runs";
        return summary;
    }
    const auto fail = [&](const std::string& why) {
        counters_steps::mark_all(record, plan, why);
        summary.problem = why;
        return summary;
    };
    if (std::string why = counters_steps::machine_problem(record); !why.empty()) return fail(why);
    const fs::path ncu = find_ncu(options.ncu);
    if (ncu.empty())
        return fail(options.ncu.empty()
                        ? "Nsight Compute's ncu was not found on PATH, in $CUDA_HOME/bin or in "
                          "/usr/local/cuda/bin"
                        : "ncu '" + options.ncu.string() + "' is not an executable file");
    if (!executable_file(options.bench))
        return fail("coalesce-bench '" + options.bench.string() + "' is not an executable file");

    try {
        return counters_steps::profile(record, plan, ncu, options);
    } catch (const std::runtime_error& e) {  // no temporary folder, ncu would not start
        return fail(e.what());
    }
}

std::vector<std::pair<std::string, std::size_t>> missing_counters_reasons(const RunRecord& record) {
    std::vector<std::pair<std::string, std::size_t>> reasons;
    for (const RunResult& r : record.runs) {
        if (r.counters || r.counters_status.empty()) continue;
        auto it = std::find_if(reasons.begin(), reasons.end(),
                               [&](const auto& p) { return p.first == r.counters_status; });
        if (it == reasons.end())
            reasons.emplace_back(r.counters_status, 1);
        else
            ++it->second;
    }
    return reasons;
}

}  // namespace coalesce
