#include "bench_options.hpp"

#include "exit_status.hpp"
#include "lesson_list.hpp"

#include "coalesce/operation.hpp"
#include "coalesce/shortened.hpp"

#ifdef COALESCE_HAVE_OPENCV
#include "coalesce/imageio/image_loader.hpp"
#endif

#include <CLI/CLI.hpp>

#include <charconv>
#include <iostream>
#include <limits>

namespace coalesce::cli {
namespace {

constexpr const char* kFooter = R"(
Exit status: 0 every run verified (skipped runs excepted); 1 a variant failed verification, a run
failed, Ctrl-C cancelled the rest, or a results file could not be written at the end (what ran is
still printed, and the other results file still written); 2 bad usage or input (nothing ran).
The first Ctrl-C stops the run within a launch or two: the run it interrupts and those after it
are marked cancelled, the finished ones are printed and written to --json/--csv, and the exit
status is 1. A second Ctrl-C ends the program at once.

Border modes, for a line a b c d: clamp repeats the edge (a a | a b c d | d d); zero reads 0;
wrap is periodic (c d | a b c d | a b); mirror reflects with the edge repeated (b a | a b c d |
d c), which is OpenCV's BORDER_REFLECT (abcd|dcba, not BORDER_REFLECT_101) and CUDA's
cudaAddressModeMirror.

--input reads PNG, JPEG, TIFF (8/16-bit and float), BMP, PBM/PGM/PPM/PAM/PFM and WebP images,
told apart by their contents, and OpenCV YAML/XML matrix files (also gzipped). Colour becomes
luminance (0.299 R + 0.587 G + 0.114 B); an alpha channel is reported, not used; a JPEG's or
PNG's EXIF orientation is applied. Values keep the file's own scale: 8-bit pixels become 0..255,
16-bit 0..65535, floating-point values stay as they are and must be finite. Larger images than
@MAX_PIXELS@ pixels are refused, as is anything that is not a regular file.

--type u8,u16 runs the six matrix operations on 8- and 16-bit random data: copy, transpose and
the filters keep the type (the filters round the exact integer mean to nearest, (2s+k)/(2k) for
k = 2r+1 neighbours), row and column sums are exact integer sums in 32 bits, or 64 where 32
could overflow for the line's length. Bytes moved count each element's own size (a sum's 4 or
8), and % of copy is against a device copy of the same input bytes. Variants that do not take
a type skip its runs, saying so; --save-output writes u8/u16 runs in their own types.

--channels 3 or 4 runs u8/u16 colour images: random data of that many interleaved channels, or
--input's colour image as it is stored (OpenCV's B, G, R order and A; the file must have that
many channels) instead of its luminance. Every operation works per channel: the sums give one
sum per channel, transpose moves whole pixels. Bytes moved and the copy baseline count every
channel; variants that do not take colour skip its runs, saying so. Where colour sits on the
device is the variant's own choice: "-interleaved" variants run on the pixels as stored,
"-planar" ones on one plane per channel (split and merged outside the timing), so each pair
shows what the layout costs. f32 runs are single-channel and refuse --channels 3 or 4.

--input keeps the file's element type: an 8-bit image runs as u8, a 16-bit one as u16, a float
TIFF or PFM (and matrix files, and other depths) as f32; a colour image's luminance is taken in
its own depth as OpenCV's cvtColor rounds it there. --type runs it as other types: to f32 the
values are kept (colour as unrounded luminance, as before types existed); u8 <-> u16 and f32 ->
u8/u16 need --convert values (each value kept; a value that does not fit is named and refused)
or --convert scale (u8 -> u16 x257, u16 -> u8 /257 rounded, f32 [0,1] -> 0..255 or 0..65535
rounded and saturated as cv::Mat::convertTo does).

--json and --csv write through a symbolic link to its target and to a device such as /dev/null
directly; a folder, a named pipe or two names for one file are refused before anything runs.

--save-output DIR writes, as each run is verified, its output matrix as a NumPy .npy file
(format 1.0, C order, shape (rows, cols); float32 '<f4', or a u8/u16 run's own type: '|u1', '<u2',
the sums' '<u4' or '<u8', with the type after the size in the name) named after the operation,
variant, size and parameters, e.g. filter_x__fast-seg4096-occ5__8192x8192__r4-clamp.npy, and the input matrix
once per size, e.g. input__8192x8192__seed42.npy (input__ROWSxCOLS__FILE.npy with --input), so
that numpy.load can check or recompute a result. Files of the same names are replaced; runs that
fail verification or are skipped write nothing. Only one output is held at a time. A folder that
cannot be made or written is refused before anything runs; a write that fails later stops the
saving, the runs and results files still finish, and the exit status is 1.)";

std::string footer() {
    std::string text = kFooter;
#ifdef COALESCE_HAVE_OPENCV
    text.replace(text.find("@MAX_PIXELS@"), 12, std::to_string(imageio::kMaxPixels));
#else
    const auto at = text.find("--input reads");
    text.replace(at, text.find("\n\n", at) - at,
                 "--input needs a coalesce-bench built with OpenCV; this one was not.");
#endif
    return text;
}

std::string joined_op_names() {
    std::string names;
    for (Op op : all_ops()) names += (names.empty() ? "" : ", ") + std::string(op_name(op));
    return names;
}

// "a,,b" -> {"a", "", "b"}: CLI11's own splitting drops the empty item, which then means "all".
std::vector<std::string> split_items(const std::vector<std::string>& raw) {
    std::vector<std::string> items;
    for (const std::string& text : raw) {
        std::size_t begin = 0;
        for (;;) {
            const std::size_t end = text.find(',', begin);
            items.push_back(
                text.substr(begin, end == std::string::npos ? std::string::npos : end - begin));
            if (end == std::string::npos) break;
            begin = end + 1;
        }
    }
    return items;
}

std::uint64_t parse_seed(const std::string& text) {
    std::uint64_t seed = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, seed);
    if (text.empty() || text.front() < '0' || text.front() > '9' || ec != std::errc{} || ptr != end)
        throw UsageError("--seed " + shortened(text) + ": must be a whole number from 0 to " +
                         std::to_string(std::numeric_limits<std::uint64_t>::max()));
    return seed;
}

}  // namespace

std::variant<BenchOptions, int> parse_command_line(int argc, char** argv) {
    BenchOptions o;
    CLI::App app{
        "coalesce-bench: measures how memory access patterns (global, pitched, shared, "
        "texture memory) shape the bandwidth of matrix operations; every result is "
        "verified against a CPU reference.",
        "coalesce-bench"};
    app.footer(footer());
    app.set_version_flag("--version", std::string("coalesce-bench ") + COALESCE_VERSION);

    std::vector<std::string> ops, variants, sizes, types;
    std::string seed = std::to_string(o.seed);
    app.add_flag("--list", o.list,
                 "List every variant (id, operation, memory space, origin, description) and exit");
    app.add_option("--ops", ops,
                   "Operations to run, comma-separated: " + joined_op_names() + " (default: all)")
        ->type_name("OP,...");
    app.add_option(
           "--variants", variants,
           "Variant ids or id prefixes, comma-separated (e.g. transpose/,row_sums/global-warp)")
        ->type_name("ID,...");
    auto* sizes_option = app.add_option("--sizes", sizes,
                                        "Matrix sizes ROWSxCOLS, comma-separated (default: larger "
                                        "than the L2 on a GPU, small on a CPU)")
                             ->type_name("RxC,...");
    app.add_option("--type", types,
                   "Element types of the input, comma-separated: u8, u16, f32 (default: f32, or "
                   "--input's own type). Each type is a run of every chosen variant that takes "
                   "it; u8 and u16 run on random data over the type's full range or on --input, "
                   "for copy, transpose, row_sums, col_sums, filter_x and filter_y only, "
                   "verified exactly (see below)")
        ->type_name("TYPE,...");
    app.add_option("--channels", o.channels,
                   "Interleaved channels of the u8/u16 input: 1 (grey), 3 or 4 (colour, each "
                   "channel filtered and summed on its own; see below)")
        ->capture_default_str()
        ->type_name("N");
    app.add_option("--convert", o.convert,
                   "How --input becomes a --type it is not: values (each value kept; refused "
                   "where one does not fit) or scale (u8 <-> u16 x257, f32 [0,1] onto the "
                   "integer range); u8/u16 -> f32 needs none")
        ->type_name("HOW");
    app.add_option("--radius", o.radius,
                   "Filter radius: the mean of 2r+1 neighbours, 0.." + std::to_string(kMaxRadius))
        ->capture_default_str()
        ->type_name("R");
    app.add_option("--border", o.border,
                   "Filter border mode: clamp, zero, wrap or mirror (OpenCV's BORDER_REFLECT, "
                   "abcd|dcba; see below)")
        ->capture_default_str()
        ->type_name("MODE");
    app.add_option("--reps", o.reps,
                   "Timed launches per variant, 1.." + std::to_string(kMaxReps) +
                       " (host variants may stop sooner)")
        ->capture_default_str()
        ->type_name("N");
    app.add_option("--warmups", o.warmups,
                   "Untimed launches before timing, 0.." + std::to_string(kMaxWarmups))
        ->capture_default_str()
        ->type_name("N");
    app.add_option("--seed", seed, "Seed of the random input matrices, 0..2^64-1")
        ->capture_default_str()
        ->type_name("N");
    int device = 0;
    auto* device_option =
        app.add_option("--device", device, "CUDA device index (default 0)")->type_name("N");
    app.add_option("--plugins", o.plugin_dirs,
                   "Also load variant plugins from this folder (repeatable)")
        ->type_name("DIR");
    app.add_flag("--cpu", o.include_cpu, "Also run the host variants when a GPU is present");
    auto* input = app.add_option("--input", o.input,
                                 "Run on this image or OpenCV YAML/XML matrix (see below) instead "
                                 "of random matrices")
                      ->type_name("FILE");
    input->excludes(sizes_option);
    app.add_option("--param", o.params,
                   "Sweep a named parameter of the operations that take it: NAME=FIRST:LAST[:STEP] "
                   "or NAME=V1,V2,... (repeatable; each combination is a run; --list shows each "
                   "operation's parameters)")
        ->type_name("NAME=VALUES");
    app.add_option("--tier", o.tiers,
                   "Variant tiers to run, comma-separated: classic (the course's lessons), tuned "
                   "(what the hardware can do), experiment (tuning ideas that lost) (default: "
                   "classic,tuned; with --variants: every tier)")
        ->delimiter(',')
        ->type_name("TIER,...");
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
    app.add_flag("--lessons", o.list_lessons,
                 "List the course's findings (id, whether Coalesce runs them) and exit");
    app.add_option("--lesson", o.lesson,
                   "Run one finding of the course: its variants at its sizes, its parameter "
                   "sweep and filter parameters (--sizes, --param, --tier, --radius and --border, "
                   "when given, replace the lesson's)")
        ->type_name("ID");
    auto* json = app.add_option("--json", o.json_path,
                                "Write the results as JSON (schema coalesce-results/1)")
                     ->type_name("FILE");
    auto* csv = app.add_option("--csv", o.csv_path, "Write the results as CSV, one row per run")
                    ->type_name("FILE");
    auto* save_output =
        app.add_option("--save-output", o.save_output,
                       "Write each verified run's output matrix, and each input matrix, to this "
                       "folder as NumPy .npy files (made if missing; see below)")
            ->type_name("DIR");

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {  // --help, --version
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::cerr << "coalesce-bench: " << shortened(one_line(e.what()), 4 * kQuoteLimit)
                  << " (see --help)\n";
        return exit_status::bad_usage;
    }
    if (device_option->count() > 0) o.device = device;
    if (o.list_lessons) {
        print_lesson_list(std::cout);
        return exit_status::ok;
    }
    o.ops = split_items(ops);
    o.variants = split_items(variants);
    o.sizes = split_items(sizes);
    o.types = split_items(types);
    o.seed = parse_seed(seed);
    if (json->count() > 0 && o.json_path.empty())
        throw UsageError("--json: the file name is empty");
    if (csv->count() > 0 && o.csv_path.empty()) throw UsageError("--csv: the file name is empty");
    if (save_output->count() > 0 && o.save_output.empty())
        throw UsageError("--save-output: the folder name is empty");
    return o;
}

}  // namespace coalesce::cli
