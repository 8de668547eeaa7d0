// Runs (operation, size, variant) combinations: untimed set-up, verification against the CPU
// reference on a poisoned output, warm-up, then timed launches; one failure never ends the run.
#pragma once

#include "coalesce/counters.hpp"
#include "coalesce/device.hpp"
#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/registry.hpp"
#include "coalesce/type_conversion.hpp"
#include "coalesce/typed_image.hpp"

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace coalesce {

namespace run_steps {
struct Plan;
}

enum class Status { ok, failed, skipped, cancelled };
std::string_view status_name(Status s);
std::optional<Status> parse_status(std::string_view s);

struct RunConfig {
    std::vector<Op> ops;  // empty: all operations
    std::vector<std::string>
        variants;                  // ids or id prefixes; empty: every variant of the chosen kind
    std::vector<Tier> tiers;       // only variants of these tiers; empty: every tier
    std::vector<ParamAxis> sweep;  // named parameters swept: each combination is a run
    std::vector<Shape> sizes;      // ignored when `input` is set
    // Element types: each (operation, size, type, variant) is a run. u8 and u16 run on random data
    // over the type's whole range, or on `typed_input`, for the six operations only (an operation
    // named in `ops` without typed semantics is refused), against the typed references, exactly;
    // variants that do not take a type skip its runs. Typed runs give on_output nothing; with
    // keep_outputs they keep their exact output (RunResult::typed_output) and its values as
    // float32 (output, reference) for pictures.
    std::vector<ElemType> types = {ElemType::f32};
    // Run the f32 runs on this matrix (an opened image's float32 values: the float path, colour
    // as unrounded luminance) instead of random data; alone, it takes f32 runs only.
    std::shared_ptr<const Matrix> input;
    // Run on this image in its own element type (imageio's typed load) instead of random data:
    // each type of `types` runs on it as convert_image(*typed_input, type, conversion) makes it
    // (f32 runs take `input` when it is set), so u8 <-> u16 and f32 -> u8/u16 need a conversion
    // (refused before anything runs, as is a value that `values` cannot keep). With `input`, the
    // two must have one shape.
    std::shared_ptr<const AnyImage> typed_input;
    Conversion conversion = Conversion::none;
    // Interleaved channels of the u8/u16 inputs: 1 (grey), 3 or 4 (colour, each channel on its
    // own). Random inputs get this many; a typed_input must have this many. f32 runs are
    // single-channel matrices: with channels != 1, f32 is refused by name.
    int channels = 1;
    OpParams params;
    int reps = 20;  // timed launches per variant
    int warmups = 3;
    std::uint64_t seed = 42;
    int device = 0;
    bool include_cpu = false;   // with a GPU, also run the host variants
    bool keep_outputs = false;  // keep output and reference matrices (GUI image views)
    // The file `input` was read from, as the user named it (results files record it); empty for
    // random or generated data.
    std::string input_file;
};

// One variant at one size.
struct RunResult {
    std::string op;
    std::string variant;  // id
    std::string memory_space;
    std::string origin;
    std::string tier = "classic";  // classic, tuned or experiment
    std::string kernel;            // the __global__ function(s) that ran (empty for host variants)
    std::size_t rows = 0, cols = 0;  // input shape
    std::string type = "f32";        // the input's element type: "u8", "u16" or "f32"
    int channels = 1;                // interleaved channels of the input (3, 4: colour)
    int radius = 0;
    std::string border;
    ParamValues params;  // the operation's named parameters for this run (offset, stride...)
    // The sector model's prediction (sector_model.hpp); NaN where the variant has none.
    double model_load_sectors = std::numeric_limits<double>::quiet_NaN();   // per request
    double model_store_sectors = std::numeric_limits<double>::quiet_NaN();  // per request
    double model_efficiency = std::numeric_limits<double>::quiet_NaN();     // useful / moved
    // The bank model's prediction (bank_model.hpp): the worst conflict degree among the variant's
    // shared-memory requests (1: conflict-free, 32: fully serialized); NaN where it has none.
    double model_bank_conflict_degree = std::numeric_limits<double>::quiet_NaN();
    // Distinct addresses per constant-memory request of the variant (the constant cache serves
    // one per pass); NaN where it reads no __constant__ table.
    double model_constant_serialization = std::numeric_limits<double>::quiet_NaN();
    Status status = Status::ok;
    std::string error;  // why it failed or was skipped
    bool verified = false;
    double max_abs_error = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0;  // [ms]
    int reps = 0;
    std::size_t bytes = 0;  // [bytes] from the bytes-moved model
    double gbps = 0;        // [GB/s] bytes / median
    // [GB/s] device-to-device copy of the input's bytes (elements x channels x element size)
    // measured in the same run
    double copy_gbps = 0;
    double pct_of_copy = 0;  // [%]
    // Operations timed per access (OpDesc::accesses): warp-wide loads one SM performs in a launch
    // (element loads / 32 / SMs; host variants: element loads), 0 for the others, and the median
    // time per such load.
    double accesses = 0;
    double ns_per_access = std::numeric_limits<double>::quiet_NaN();  // [ns]
    bool cache_resident = false;  // input + output fit in the L2: this measures the cache, not DRAM
    bool gpu = true;
    // Hardware counters of one profiled launch (collect_counters in counters_pass.hpp); absent
    // unless a counters pass ran, and then `counters_status` says why they are missing.
    std::optional<Counters> counters;
    std::string counters_status;
    std::shared_ptr<const Matrix> output;     // with keep_outputs
    std::shared_ptr<const Matrix> reference;  // with keep_outputs
    // With keep_outputs, a u8/u16 run's output exactly as the variant wrote it (u8, u16, or the
    // sums' u32/u64); `output` then holds its values as float32. Null for f32 runs.
    std::shared_ptr<const AnyImage> typed_output;
};

// The run's element type as people read it: "u8", or "u8x3" for a colour run of 3 interleaved
// channels (tables, chart series).
inline std::string type_label(const RunResult& r) {
    return r.channels > 1 ? r.type + "x" + std::to_string(r.channels) : r.type;
}

struct RunRecord {
    DeviceInfo device;
    RunConfig config;
    std::string started_at;  // ISO 8601 UTC
    std::vector<RunResult> runs;
    bool cancelled = false;
    bool all_verified() const;  // every run ok and verified (skipped runs excepted)
};

struct Progress {
    std::size_t done = 0, total = 0;
    std::string what;  // "transpose/shared-padded 8192x8192"
};

class Runner {
public:
    explicit Runner(const Registry& registry) : registry_(registry) {}

    std::function<void(const Progress&)> on_progress;
    std::function<void(const RunResult&)> on_result;  // each result as soon as it is known
    // Each verified run's output (result.output, never null here) and the input it ran on, as
    // soon as the run ends and before on_result. Without keep_outputs the runner drops the output
    // right after: a sweep then holds one output at a time, however many runs it makes. Called
    // on the thread that runs; an exception from it ends run(), so catch what can fail.
    std::function<void(const RunResult&, const Matrix& input)> on_output;
    // The same for u8/u16 runs: each verified run's exact output (result.typed_output, never
    // null here) and the typed input it ran on; dropped after unless keep_outputs.
    std::function<void(const RunResult&, const AnyImage& input)> on_typed_output;

    // Thread-safe and async-signal-safe (sets an atomic): the run stops within a launch or two,
    // marks the run it interrupted and the rest cancelled, and returns what finished.
    void cancel() { cancelled_ = true; }

    const Registry& registry() const { return registry_; }

    // Variants the config selects, in registry order (GPU variants only when a device exists,
    // unless include_cpu).
    std::vector<const Variant*> select(const RunConfig& config, bool have_gpu) const;

    // Throws std::invalid_argument for a config that cannot run (unknown variant, bad size or
    // radius, too large for device memory).
    RunRecord run(const RunConfig& config);

private:
    using ReferenceCache = std::map<std::string, std::shared_ptr<const Reference>>;
    using TypedReferenceCache = std::map<std::string, std::shared_ptr<const AnyImage>>;
    RunResult run_one(const Variant& variant, const Matrix& input, const RunConfig& config,
                      const OpParams& params, const run_steps::Plan& plan, double copy_gbps,
                      ReferenceCache& references, const std::function<void(std::string)>& report);
    RunResult run_one_typed(const Variant& variant, const AnyImage& input, ElemType type,
                            const RunConfig& config, const OpParams& params,
                            const run_steps::Plan& plan, double copy_gbps,
                            TypedReferenceCache& references,
                            const std::function<void(std::string)>& report);
    // The f32 runs of one size: each variant and parameter combination on `input`.
    void run_f32(const std::vector<const Variant*>& variants, const Matrix& input,
                 const RunConfig& config, const run_steps::Plan& plan, double copy_gbps,
                 const std::function<void(std::string)>& report,
                 const std::function<void(RunResult, const Matrix*)>& finish);

    const Registry& registry_;
    std::atomic<bool> cancelled_{false};
};

// Default sizes: larger than the L2 on a GPU, small enough for a quick CPU run.
std::vector<Shape> default_sizes(bool have_gpu);

// Parses "4096x4096,8000x6000"; throws std::invalid_argument naming the bad part.
std::vector<Shape> parse_sizes(std::string_view text);

}  // namespace coalesce
