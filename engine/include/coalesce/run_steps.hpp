// The steps Runner::run is made of, each short enough to audit and tested on its own:
// validate the config, then per (size, variant): describe the result, decide whether it can run,
// verify one launch on a poisoned output, time the launches, and record the figures.
#pragma once

#include "coalesce/runner.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace coalesce::run_steps {

// What validation settles before anything runs.
struct Plan {
    bool have_gpu = false;
    DeviceInfo device;
    std::vector<Shape> sizes;
    std::vector<const Variant*> variants;
    bool any_gpu = false;  // a GPU variant is among them (the copy baseline is then the device's)
};

// Throws std::invalid_argument, naming what is wrong, for a config that cannot run: bad radius,
// repetitions or parameters, parameters a size cannot take (the operation's check), unknown
// variant, empty input or size, missing device, not enough device memory. Sets the CUDA device
// when there is one.
Plan validate(const Runner& runner, const RunConfig& config);

// The result's description before it runs: names, shape, parameters, bytes model, sector model,
// copy baseline.
RunResult describe_result(const VariantInfo& info, Shape shape, const OpParams& params,
                          const DeviceInfo& device, double copy_gbps);

// Why this variant cannot run on this input (empty: it can): border, limits, no device.
std::string skip_reason(const VariantInfo& info, Shape shape, const OpParams& params,
                        bool have_gpu);

// describe_result for a run on `type` elements: the type recorded, the bytes model by element
// size (typed::bytes_moved; 0 while type_problem says the run cannot be made), and no sector or
// bank model (they describe float32 accesses).
// `channels` interleaved channels multiply the bytes.
RunResult describe_typed_result(const VariantInfo& info, Shape shape, ElemType type,
                                const OpParams& params, const DeviceInfo& device, double copy_gbps,
                                int channels = 1);

// Why `info` does not run `type` elements (empty: it does): "<variant> does not take u8 (it
// takes f32)". f32 runs check it too, for variants that take only other types.
std::string type_refusal(const VariantInfo& info, ElemType type);

// Why `info` does not run images of `channels` channels (empty: it does): "<variant> does not
// take 3 channels (it takes 1)".
std::string channel_refusal(const VariantInfo& info, int channels);

// skip_reason for a run on `type` elements, checked first: an operation without typed semantics
// or sums that could overflow (typed::type_problem), then a variant that does not take the type
// ("<variant> does not take u8 (it takes f32)").
// The channel count is checked after the type (channel_refusal).
std::string typed_skip_reason(const VariantInfo& info, Shape shape, ElemType type,
                              const OpParams& params, bool have_gpu, int channels = 1);

// One launch on a poisoned output, checked against the reference with the variant's chain of
// additions. Returns the host time of that launch [ms] in `first_ms` and the output.
struct Checked {
    Verification verification;
    Matrix output;
    double first_ms = 0;  // [ms]
};
Checked verify_one_launch(Instance& instance, cudaStream_t stream, bool gpu, const Reference& ref,
                          const VariantInfo& info, Shape shape);

// Set by another thread or a signal handler to stop a run; null: nothing can stop it. Every
// loop below polls it before each launch (or copy), so a cancel takes effect within a launch or
// two of a GPU variant and before the next launch of a host variant.
using CancelFlag = const std::atomic<bool>*;

// Runs `one(i)` for i = 0..count-1 unless `cancel` is set before an iteration; returns how many
// ran. The loop every timing loop (device, host, copies, warm-ups) goes through.
int run_unless_cancelled(int count, CancelFlag cancel, const std::function<void(int)>& one);

// Launch times [ms]: CUDA events on `stream` after `warmups` untimed launches for GPU variants;
// for host variants a steady clock, as many launches as fit in about half a second (at least one).
// A cancel stops it early: `cancelled` is then set and `ms` holds the launches timed so far.
struct Launches {
    std::vector<double> ms;  // [ms] one per timed launch
    bool cancelled = false;
};
Launches time_launches(Instance& instance, cudaStream_t stream, bool gpu, int warmups, int reps,
                       double first_ms, CancelFlag cancel = nullptr);

struct Timing {
    double median_ms = 0, min_ms = 0, max_ms = 0;  // [ms]
};
Timing summarize(std::vector<double> ms);  // ms must not be empty

// Fills reps, times, GB/s and % of copy from the launch times.
void record_timing(RunResult& r, const std::vector<double>& ms);

// A sticky CUDA error (an illegal address, say) poisons the context: resets the device so the
// next variant starts clean instead of failing with the same error.
void recover_device(int device);

// [GB/s] a copy of `bytes` (read + written) measured like the variants: warm, median of batches
// long enough for the clock. Device: cudaMemcpy device to device. Host: std::copy.
// 0 when `cancel` stopped the measurement before it had a figure.
double measure_device_copy(std::size_t bytes, int warmups, int reps, CancelFlag cancel = nullptr);
double measure_host_copy(std::size_t bytes, int warmups, int reps, CancelFlag cancel = nullptr);

}  // namespace coalesce::run_steps
