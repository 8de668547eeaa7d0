// coalesce-bench: the headless front end. Table on stdout, progress and problems on stderr, results
// files on request; the exit status says whether everything verified (see exit_status.hpp).
#include "bench_config.hpp"
#include "bench_options.hpp"
#include "exit_status.hpp"
#include "interrupt.hpp"
#include "output_paths.hpp"
#include "progress_printer.hpp"
#include "report.hpp"

#include "coalesce/device.hpp"
#include "coalesce/host_memory.hpp"
#include "coalesce/kernels.hpp"
#include "coalesce/plugin_loader.hpp"
#include "coalesce/results_io.hpp"
#include "coalesce/runner.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <new>
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
        if (!std::filesystem::is_directory(dir)) throw UsageError("--plugins " + dir + ": not a folder");
        dirs.emplace_back(dir);
    }
    for (const PluginReport& report : load_plugins(registry, dirs))
        if (!report.loaded) std::cerr << "coalesce-bench: plugin refused: " << report.message << '\n';
}

void save(const std::string& path, const std::string& contents) {
    try {
        write_file_atomically(path, contents);
    } catch (const std::runtime_error& e) {
        throw UsageError(e.what());
    }
}

int run(const BenchOptions& options) {
    Registry registry;
    load_variants(registry, options.plugin_dirs);
    if (options.list) {
        print_variant_list(std::cout, registry);
        return exit_status::ok;
    }

    const int device_count = cuda_device_count();
    const RunConfig config = make_run_config(options, registry, device_count);
    if (!options.json_path.empty()) check_writable(options.json_path, "--json");
    if (!options.csv_path.empty()) check_writable(options.csv_path, "--csv");

    Runner runner(registry);
    const std::vector<const Variant*> selected = runner.select(config, device_count > 0);
    if (selected.empty()) throw UsageError("no variant matches the chosen operations and variants (see --list)");
    if (auto why = host_memory_shortfall(config, selected); !why.empty()) throw UsageError(why);

    if (device_count == 0) {
        // The engine's reason may already begin with "no CUDA device"; say it once.
        const std::string reason = no_device_reason();
        std::cerr << (reason.rfind("no CUDA device", 0) == 0 ? "" : "no CUDA device: ") << reason << "; running CPU variants\n";
    }
    std::cout << device_line(device_count > 0 ? query_device(config.device) : host_info()) << '\n' << std::flush;

    ProgressPrinter progress(std::cerr, ::isatty(STDERR_FILENO) != 0);
    runner.on_progress = [&](const Progress& p) { progress.on_progress(p); };
    runner.on_result = [&](const RunResult& r) { progress.on_result(r); };
    RunRecord record;
    {
        const CancelOnInterrupt cancel_on_ctrl_c(runner);
        try {
            record = runner.run(config);
        } catch (const std::invalid_argument& e) {  // a config the Runner refuses: too large for the device, say
            progress.finish();
            throw UsageError(e.what());
        }
    }
    progress.finish();

    std::cout << '\n';
    print_results(std::cout, record);
    std::cout << std::flush;
    if (!options.json_path.empty()) save(options.json_path, to_json(record));
    if (!options.csv_path.empty()) save(options.csv_path, to_csv(record));

    if (record.cancelled) {
        std::cerr << "coalesce-bench: cancelled (Ctrl-C); the runs marked cancelled did not run\n";
        return exit_status::run_failed;
    }
    return record.all_verified() ? exit_status::ok : exit_status::run_failed;
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
        std::cerr << "coalesce-bench: out of host memory: the sizes are too large for this machine\n";
        return exit_status::bad_usage;
    } catch (const UsageError& e) {
        std::cerr << "coalesce-bench: " << one_line(e.what()) << '\n';
        return exit_status::bad_usage;
    } catch (const std::exception& e) {
        std::cerr << "coalesce-bench: error: " << one_line(e.what()) << '\n';
        return exit_status::run_failed;
    }
}
