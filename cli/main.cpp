// coalesce-bench: the headless front end. Table on stdout, progress and problems on stderr, results
// files on request; the exit status says whether everything verified (see exit_status.hpp).
#include "bench_config.hpp"
#include "bench_options.hpp"
#include "counters_cli.hpp"
#include "exit_status.hpp"
#include "interrupt.hpp"
#include "output_paths.hpp"
#include "output_saver.hpp"
#include "progress_printer.hpp"
#include "report.hpp"

#include "coalesce/device.hpp"
#include "coalesce/host_memory.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/profile_plan.hpp"
#include "coalesce/results_io.hpp"
#include "coalesce/runner.hpp"
#include "coalesce/shortened.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>

namespace coalesce::cli {
namespace {

// Built-in variants plus every plugin found; each refused plugin is one line on stderr.
void load_variants(Registry& registry, const std::vector<std::string>& plugin_dirs) {
    register_builtin_variants(registry);
    std::vector<std::filesystem::path> dirs;
    for (const std::string& dir : plugin_dirs) {
        if (!std::filesystem::is_directory(dir))
            throw UsageError("--plugins " + dir + ": not a folder");
        dirs.emplace_back(dir);
    }
    for (const PluginReport& report : load_plugins(registry, dirs))
        if (!report.loaded)
            std::cerr << "coalesce-bench: plugin refused: " << report.message << '\n';
}

// Writes every results file asked for. A failure here (a full disk, /dev/full) comes after the
// runs were made and printed: the other file is still written, and the caller exits 1, not 2.
bool save_all(const BenchOptions& options, const RunRecord& record) {
    bool saved = true;
    const auto save = [&](const std::string& path, auto&& contents) {
        if (path.empty()) return;
        try {
            write_file_atomically(path, contents(record));
        } catch (const std::runtime_error& e) {
            std::cerr << "coalesce-bench: " << one_line(e.what())
                      << " (the results are in the table above)\n";
            saved = false;
        }
    };
    save(options.json_path, [](const RunRecord& r) { return to_json(r); });
    save(options.csv_path, [](const RunRecord& r) { return to_csv(r); });
    return saved;
}

// One line on stderr: how many .npy files went to the folder, or the write that failed (after
// the results files, which hold the runs whatever happened here). False after a failure.
bool report_outputs(const OutputSaver& saver, const std::string& dir) {
    if (!saver.error().empty()) {
        std::cerr << "coalesce-bench: --save-output: " << one_line(saver.error()) << "; "
                  << saver.files_written() << " file(s) were saved to " << shortened(dir)
                  << " before it, none after (the results are in the table above)\n";
        return false;
    }
    std::cerr << "coalesce-bench: saved " << saver.files_written() << " .npy file(s) to "
              << shortened(dir) << '\n';
    return true;
}

// The counters pass's child (--profile-plan): one launch per planned run, each inside the NVTX
// range ncu profiles; one outcome line per run on stdout and nothing else there.
int profile_child(const BenchOptions& options) {
    ProfilePlan plan;
    try {
        plan = plan_from_json(read_text_file(options.profile_plan));
    } catch (const std::runtime_error& e) {
        throw UsageError(std::string("--profile-plan: ") + e.what());
    }
    Registry registry;
    std::vector<std::string> plugin_dirs = plan.plugin_dirs;
    plugin_dirs.insert(plugin_dirs.end(), options.plugin_dirs.begin(), options.plugin_dirs.end());
    load_variants(registry, plugin_dirs);
    if (cuda_device_count() == 0) throw UsageError("--profile-plan: " + no_device_reason());
    run_profile_plan(registry, plan, std::cout);
    return exit_status::ok;
}

int run(const BenchOptions& options) {
    if (!options.profile_plan.empty()) return profile_child(options);
    Registry registry;
    load_variants(registry, options.plugin_dirs);
    if (options.list) {
        print_variant_list(std::cout, registry);
        return exit_status::ok;
    }

    const int device_count = cuda_device_count();
    if (!options.json_path.empty()) check_writable(options.json_path, "--json");
    if (!options.csv_path.empty()) check_writable(options.csv_path, "--csv");
    if (!options.json_path.empty() && !options.csv_path.empty())
        check_distinct(options.json_path, options.csv_path);
    std::string input_description;
    const RunConfig config = make_run_config(options, registry, device_count, &input_description);

    Runner runner(registry);
    const std::vector<const Variant*> selected = runner.select(config, device_count > 0);
    if (selected.empty())
        throw UsageError("no variant matches the chosen operations and variants (see --list)");
    if (auto why = host_memory_shortfall(config, selected); !why.empty()) throw UsageError(why);
    // Made only now, when nothing else can refuse the call: bad usage leaves no empty folder.
    std::optional<OutputSaver> saver;
    if (!options.save_output.empty()) {
        prepare_folder(options.save_output, "--save-output");
        saver.emplace(options.save_output, config.seed, config.input_file);
    }

    if (device_count == 0) {
        // The engine's reason may already begin with "no CUDA device"; say it once.
        const std::string reason = no_device_reason();
        std::cerr << (reason.rfind("no CUDA device", 0) == 0 ? "" : "no CUDA device: ") << reason
                  << "; running CPU variants\n";
    }
    std::cout << device_line(device_count > 0 ? query_device(config.device) : host_info()) << '\n';
    if (config.input)
        std::cout << "input: " << shortened(options.input) << " (" << input_description << ", "
                  << size_text(config.input->rows(), config.input->cols()) << ")\n";
    std::cout << std::flush;

    ProgressPrinter progress(std::cerr, ::isatty(STDERR_FILENO) != 0);
    runner.on_progress = [&](const Progress& p) { progress.on_progress(p); };
    runner.on_result = [&](const RunResult& r) { progress.on_result(r); };
    if (saver) {
        runner.on_output = [&](const RunResult& r, const Matrix& in) { saver->save(r, in); };
        runner.on_typed_output = [&](const RunResult& r, const AnyImage& in) {
            saver->save_typed(r, in);
        };
    }
    RunRecord record;
    {
        const CancelOnInterrupt cancel_on_ctrl_c(runner);
        try {
            record = runner.run(config);
        } catch (const std::invalid_argument&
                     e) {  // a config the Runner refuses: too large for the device, say
            progress.finish();
            throw UsageError(e.what());
        }
    }
    progress.finish();

    bool counters_interrupted = false;
    if (options.counters && record.cancelled) {
        std::cerr << "coalesce-bench: counters: not collected: the run was cancelled\n";
    } else if (options.counters) {
        const CancelOnInterrupt cancel_on_ctrl_c(runner);
        counters_interrupted = !run_counters_pass(record, options, std::cerr);
    }

    std::cout << '\n';
    print_results(std::cout, record);
    std::cout << std::flush;
    const bool saved = save_all(options, record);
    const bool outputs_saved = !saver || report_outputs(*saver, options.save_output);

    if (record.cancelled) {
        std::cerr << "coalesce-bench: cancelled (Ctrl-C); the runs marked cancelled did not run\n";
        return exit_status::run_failed;
    }
    if (counters_interrupted) {
        std::cerr << "coalesce-bench: counters pass cancelled (Ctrl-C): no counters saved\n";
        return exit_status::run_failed;
    }
    return record.all_verified() && saved && outputs_saved ? exit_status::ok
                                                           : exit_status::run_failed;
}

}  // namespace
}  // namespace coalesce::cli

int main(int argc, char** argv) {
    using namespace coalesce::cli;
    try {
        const auto parsed = parse_command_line(argc, argv);
        if (const int* status = std::get_if<int>(&parsed)) return *status;
        return run(std::get<BenchOptions>(parsed));
    } catch (const std::bad_alloc&) {  // the pre-check estimates; the machine has the last word
        std::cerr
            << "coalesce-bench: out of host memory: the sizes are too large for this machine\n";
        return exit_status::bad_usage;
    } catch (const UsageError& e) {
        std::cerr << "coalesce-bench: " << one_line(e.what()) << '\n';
        return exit_status::bad_usage;
    } catch (const std::exception& e) {
        std::cerr << "coalesce-bench: error: " << one_line(e.what()) << '\n';
        return exit_status::run_failed;
    }
}
