#include "bench_options.hpp"

#include "exit_status.hpp"
#include "lesson_list.hpp"

#include "coalesce/operation.hpp"

#include <CLI/CLI.hpp>

#include <iostream>

namespace coalesce::cli {
namespace {

constexpr const char* kFooter = R"(
Exit status: 0 every run verified (skipped runs excepted); 1 a variant failed verification, a run
failed, or Ctrl-C cancelled the rest (what ran is still printed and saved); 2 bad usage or input
(nothing ran). A second Ctrl-C ends the program at once.

--input reads any image OpenCV can decode. Colour becomes luminance (0.299 R + 0.587 G + 0.114 B),
alpha is ignored, and values keep the file's own scale: 8-bit pixels become 0..255, 16-bit
0..65535, floating-point images stay as they are.)";

}  // namespace

std::variant<BenchOptions, int> parse_command_line(int argc, char** argv) {
    BenchOptions o;
    CLI::App app{"coalesce-bench: measures how memory access patterns (global, pitched, shared, texture memory) "
                 "shape the bandwidth of matrix operations; every result is verified against a CPU reference.",
                 "coalesce-bench"};
    app.footer(kFooter);
    app.set_version_flag("--version", std::string("coalesce-bench ") + COALESCE_VERSION);

    app.add_flag("--list", o.list, "List every variant (id, operation, memory space, origin, description) and exit");
    std::string op_list;
    for (Op op : all_ops()) op_list += (op_list.empty() ? "" : ", ") + std::string(op_name(op));
    app.add_option("--ops", o.ops, "Operations to run, comma-separated: " + op_list + " (default: all)")
        ->delimiter(',')->type_name("OP,...");
    app.add_option("--variants", o.variants, "Variant ids or id prefixes, comma-separated (e.g. transpose/,row_sums/global-warp)")
        ->delimiter(',')->type_name("ID,...");
    auto* sizes = app.add_option("--sizes", o.sizes, "Matrix sizes ROWSxCOLS, comma-separated (default: larger than the L2 on a GPU, small on a CPU)")
        ->delimiter(',')->type_name("RxC,...");
    app.add_option("--radius", o.radius, "Filter radius: the mean of 2r+1 neighbours, 0.." + std::to_string(kMaxRadius))
        ->capture_default_str()->type_name("R");
    app.add_option("--border", o.border, "Filter border mode: clamp, zero, wrap or mirror")->capture_default_str()->type_name("MODE");
    app.add_option("--reps", o.reps, "Timed launches per variant (host variants stop after about 2 s)")->capture_default_str()->type_name("N");
    app.add_option("--warmups", o.warmups, "Untimed launches before timing")->capture_default_str()->type_name("N");
    app.add_option("--seed", o.seed, "Seed of the random input matrices")->capture_default_str()->type_name("N");
    int device = 0;
    auto* device_option = app.add_option("--device", device, "CUDA device index (default 0)")->type_name("N");
    app.add_option("--plugins", o.plugin_dirs, "Also load variant plugins from this folder (repeatable)")->type_name("DIR");
    app.add_flag("--cpu", o.include_cpu, "Also run the host variants when a GPU is present");
    auto* input = app.add_option("--input", o.input, "Run on this image (float32 luminance) instead of random matrices")->type_name("IMAGE");
    input->excludes(sizes);
    app.add_option("--param", o.params,
                   "Sweep a named parameter of the operations that take it: NAME=FIRST:LAST[:STEP] or "
                   "NAME=V1,V2,... (repeatable; each combination is a run; --list shows each operation's parameters)")
        ->type_name("NAME=VALUES");
    app.add_option("--tier", o.tiers,
                   "Variant tiers to run, comma-separated: classic (the course's lessons), tuned (what the "
                   "hardware can do), experiment (tuning ideas that lost) (default: classic,tuned; with "
                   "--variants: every tier)")
        ->delimiter(',')->type_name("TIER,...");
    app.add_flag("--counters", o.counters,
                 "After the timed run, profile one launch of each verified GPU run under Nsight "
                 "Compute (ncu) and show its hardware counters: DRAM bytes against the bytes "
                 "model, global sectors per request, shared-memory bank conflicts, hit rates, "
                 "occupancy (timings are never profiled)");
    app.add_option("--ncu", o.ncu_path,
                   "Nsight Compute's command line for --counters (default: ncu on PATH, in "
                   "$CUDA_HOME/bin or in /usr/local/cuda/bin)")
        ->type_name("PATH");
    // The counters pass's child: coalesce-bench under ncu, one launch per planned run.
    app.add_option("--profile-plan", o.profile_plan)->group("");
    app.add_option("--json", o.json_path, "Write the results as JSON (schema coalesce-results/1)")->type_name("FILE");
    app.add_option("--csv", o.csv_path, "Write the results as CSV, one row per run")->type_name("FILE");
    app.add_flag("--lessons", o.list_lessons,
                 "List the course's findings (id, whether Coalesce runs them) and exit");
    app.add_option("--lesson", o.lesson,
                   "Run one finding of the course: its variants at its sizes and filter parameters "
                   "(--sizes, --radius and --border, when given, replace the lesson's)")
        ->type_name("ID");

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "coalesce-bench: " << one_line(e.what()) << " (see --help)\n";
        return exit_status::bad_usage;
    }
    if (device_option->count() > 0) o.device = device;
    if (o.list_lessons) {
        print_lesson_list(std::cout);
        return exit_status::ok;
    }
    return o;
}

}  // namespace coalesce::cli
