#include "coalesce/runner.hpp"

#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/run_steps.hpp"
#include "coalesce/bank_model.hpp"
#include "coalesce/sector_model.hpp"
#include "coalesce/typed_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <map>
#include <stdexcept>

namespace coalesce {

std::string_view status_name(Status s) {
    switch (s) {
    case Status::ok: return "ok";
    case Status::failed: return "failed";
    case Status::skipped: return "skipped";
    case Status::cancelled: return "cancelled";
    }
    return "?";
}

std::optional<Status> parse_status(std::string_view s) {
    for (Status st : {Status::ok, Status::failed, Status::skipped, Status::cancelled})
        if (status_name(st) == s) return st;
    return std::nullopt;
}

bool RunRecord::all_verified() const {
    for (const RunResult& r : runs)
        if (r.status != Status::skipped && (r.status != Status::ok || !r.verified)) return false;
    return true;
}

std::vector<Shape> default_sizes(bool have_gpu) {
    // On a GPU 8192x8192 float32 (256 MiB) is several times any current L2: DRAM is measured.
    if (have_gpu) return {{8192, 8192}};
    return {{512, 512}, {1024, 1024}};
}

std::vector<Shape> parse_sizes(std::string_view text) {
    std::vector<Shape> sizes;
    auto parse_dim = [](std::string_view part, std::string_view whole) -> std::size_t {
        if (part.empty() || part.size() > 10 ||
            !std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; }))
            throw std::invalid_argument(
                "bad size '" + std::string(whole) +
                "': expected ROWSxCOLS with positive whole numbers, e.g. 4096x4096");
        const unsigned long long v = std::stoull(std::string(part));
        if (v == 0)
            throw std::invalid_argument("bad size '" + std::string(whole) +
                                        "': rows and columns must be at least 1");
        if (v > (1ull << 30))
            throw std::invalid_argument("bad size '" + std::string(whole) +
                                        "': a dimension above 2^30 is not supported");
        return static_cast<std::size_t>(v);
    };
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string_view item = text.substr(begin, end - begin);
        const std::size_t x = item.find_first_of("xX");
        if (x == std::string_view::npos)
            throw std::invalid_argument(
                "bad size '" + std::string(item) +
                "': expected ROWSxCOLS with positive whole numbers, e.g. 4096x4096");
        Shape s{parse_dim(item.substr(0, x), item), parse_dim(item.substr(x + 1), item)};
        if (s.elements() > (1ull << 34))
            throw std::invalid_argument("bad size '" + std::string(item) +
                                        "': more than 2^34 elements");
        sizes.push_back(s);
        begin = end + 1;
    }
    return sizes;
}

namespace {

std::string size_text(Shape s) { return std::to_string(s.rows) + "x" + std::to_string(s.cols); }

bool selected_by(const VariantInfo& info, const std::vector<std::string>& patterns) {
    for (const std::string& p : patterns)
        if (info.id == p || info.id.rfind(p, 0) == 0) return true;
    return false;
}

double host_ms(const std::function<void()>& work) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Launches queued ahead of the one the host waits for: enough to keep the device busy back to
// back, few enough that a cancel stops the loop within a launch or two rather than after a queue
// of hundreds.
constexpr int kLaunchesInFlight = 2;

// Times `launch` on `stream` with one event pair per launch, after `warmups` untimed launches.
run_steps::Launches time_on_device(const std::function<void(cudaStream_t)>& launch,
                                   cudaStream_t stream, int warmups, int reps,
                                   run_steps::CancelFlag cancel) {
    run_steps::Launches out;
    std::vector<Event> warm;
    for (int i = 0; i < std::min(warmups, kLaunchesInFlight); ++i) warm.push_back(Event::create());
    const int warmed = run_steps::run_unless_cancelled(warmups, cancel, [&](int i) {
        const Event& done = warm[i % warm.size()];
        if (i >= kLaunchesInFlight) done.synchronize();
        launch(stream);
        done.record(stream);
    });
    if (warmed < warmups) {
        out.cancelled = true;
        return out;
    }
    std::vector<Event> starts, ends;
    for (int i = 0; i < reps; ++i) {
        starts.push_back(Event::create());
        ends.push_back(Event::create());
    }
    const int timed = run_steps::run_unless_cancelled(reps, cancel, [&](int i) {
        if (i >= kLaunchesInFlight) ends[i - kLaunchesInFlight].synchronize();
        starts[i].record(stream);
        launch(stream);
        ends[i].record(stream);
    });
    out.cancelled = timed < reps;
    for (int i = 0; i < timed; ++i) out.ms.push_back(Event::elapsed_ms(starts[i], ends[i]));
    return out;
}

// [bytes] per pixel: a float32, or for colour up to `channels` u16 elements (sums of a pixel's
// channels up to 8 bytes each live in outputs far smaller than the input).
std::size_t device_bytes_needed(Op op, Shape s, const OpParams& params, int channels) {
    const std::size_t pixel = std::max<std::size_t>(sizeof(float), 2 * channels);
    const std::size_t in = s.elements() * pixel;
    const std::size_t out = output_shape(op, s, params).elements() * pixel;
    // Pitched rows round up to the texture alignment (<= 512 bytes); leave slack for scratch too.
    const std::size_t slack = (s.rows + s.cols) * 1024 + (64u << 20);
    return std::max(2 * in, in + out) + slack;
}

std::string utc_now() {
    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return stamp;
}

// The reference cache's key: the operation and its resolved named parameters (radius and border
// are the same for every run of a config).
std::string reference_key(Op op, const OpParams& params) {
    std::string key(op.name());
    for (const auto& [name, value] : resolved_params(op, params).values)
        key += " " + name + "=" + std::to_string(value);
    return key;
}

// Runs one variant on one input from instance to figures; throws what the variant throws.
void run_variant(const Variant& variant, const Matrix& input, const Reference& ref,
                 const RunConfig& config, const OpParams& params, bool keep_output,
                 run_steps::CancelFlag cancel, RunResult& r) {
    const VariantInfo& info = variant.info;
    std::unique_ptr<Instance> instance = variant.make(input.shape(), params);
    instance->upload(input);
    std::optional<Stream> stream;
    if (info.gpu) stream = Stream::create();
    const cudaStream_t s = stream ? stream->get() : nullptr;

    run_steps::Checked checked =
        run_steps::verify_one_launch(*instance, s, info.gpu, ref, info, input.shape());
    r.max_abs_error = checked.verification.max_abs_error;
    r.verified = checked.verification.ok;
    if (keep_output) r.output = std::make_shared<const Matrix>(std::move(checked.output));
    if (!r.verified) {
        r.status = Status::failed;
        r.error = "verification failed: " + checked.verification.message;
        return;
    }
    const run_steps::Launches timed = run_steps::time_launches(
        *instance, s, info.gpu, config.warmups, config.reps, checked.first_ms, cancel);
    if (timed.cancelled) {  // verified, but a part-timed run has no figures worth showing
        r.status = Status::cancelled;
        r.error = "cancelled while timing, after " + std::to_string(timed.ms.size()) +
                  " timed launch(es)";
        return;
    }
    run_steps::record_timing(r, timed.ms);
}

// The variants that run on `type`: all of them for f32; for u8 and u16, with every operation
// selected, only those of operations with typed semantics (the lesson operations run f32 only);
// variants named on purpose stay, to be skipped with the reason.
std::vector<const Variant*> typed_variants(const run_steps::Plan& plan, const RunConfig& config,
                                           ElemType type) {
    if (type == ElemType::f32 || !config.variants.empty()) return plan.variants;
    std::vector<const Variant*> out;
    for (const Variant* v : plan.variants)
        if (typed::has_typed_semantics(v->info.op)) out.push_back(v);
    return out;
}

// Verifies one launch on an output poisoned with `byte` in every byte; the failure names the
// poison, since an unwritten element shows only under one of the two.
bool verify_typed_launch(Instance& instance, cudaStream_t stream, bool gpu, const AnyImage& ref,
                         std::uint8_t byte, double& first_ms, RunResult& r, bool keep_output) {
    instance.poison_bytes(byte);
    first_ms = host_ms([&] {
        instance.launch(stream);
        if (gpu) COALESCE_CUDA(cudaStreamSynchronize(stream));
    });
    AnyImage got = instance.download_typed();
    const Verification v = typed::verify_exact(ref, got);
    r.max_abs_error = std::max(r.max_abs_error, v.max_abs_error);
    if (v.ok) {
        if (keep_output) r.typed_output = std::make_shared<const AnyImage>(std::move(got));
        return true;
    }
    char poison[8];
    std::snprintf(poison, sizeof poison, "0x%02X", static_cast<unsigned>(byte));
    r.status = Status::failed;
    r.verified = false;
    r.error = "verification failed: " + v.message + " (output bytes poisoned with " + poison + ")";
    return false;
}

// run_variant for a typed input: verified exactly under two poisons, then timed.
void run_typed_variant(const Variant& variant, const AnyImage& input, const AnyImage& ref,
                       const RunConfig& config, const OpParams& params, bool keep_output,
                       run_steps::CancelFlag cancel, RunResult& r) {
    const VariantInfo& info = variant.info;
    std::unique_ptr<Instance> instance = variant.make(typed::shape_of(input), params);
    instance->upload_typed(input);
    std::optional<Stream> stream;
    if (info.gpu) stream = Stream::create();
    const cudaStream_t s = stream ? stream->get() : nullptr;
    double first_ms = 0;
    for (std::uint8_t byte : {std::uint8_t{0x00}, std::uint8_t{0xFF}})
        if (!verify_typed_launch(*instance, s, info.gpu, ref, byte, first_ms, r, keep_output))
            return;
    r.verified = true;
    if (r.typed_output) {  // the pictures read float32; saving reads typed_output
        r.output = std::make_shared<const Matrix>(to_matrix(*r.typed_output));
        r.reference = std::make_shared<const Matrix>(to_matrix(ref));
    }
    const run_steps::Launches timed = run_steps::time_launches(
        *instance, s, info.gpu, config.warmups, config.reps, first_ms, cancel);
    if (timed.cancelled) {
        r.status = Status::cancelled;
        r.error = "cancelled while timing, after " + std::to_string(timed.ms.size()) +
                  " timed launch(es)";
        return;
    }
    run_steps::record_timing(r, timed.ms);
}

}  // namespace

namespace run_steps {

void recover_device(int device) {
    if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        cudaDeviceReset();
        cudaSetDevice(device);
        cudaGetLastError();
    }
}

namespace {

// Element types: at least one; u8/u16 only on random data and only for operations with typed
// semantics when operations are named (with all operations, the others run f32 only).
void check_types(const RunConfig& config) {
    if (config.types.empty()) throw std::invalid_argument("no element type to run (u8, u16, f32)");
    if (config.channels != 1 && config.channels != 3 && config.channels != 4)
        throw std::invalid_argument(std::to_string(config.channels) +
                                    " channels: an image has 1, 3 or 4 channels");
    if (config.channels != 1 &&
        std::find(config.types.begin(), config.types.end(), ElemType::f32) != config.types.end())
        throw std::invalid_argument("f32 runs take 1 channel, not " +
                                    std::to_string(config.channels) +
                                    " (a float run is a single-channel float32 matrix): colour "
                                    "runs u8 and u16");
    for (ElemType t : config.types) {
        if (t == ElemType::f32) continue;
        const std::string name(elem_type_name(t));
        if (config.input && !config.typed_input)
            throw std::invalid_argument(
                name +
                " does not run on a float32 matrix alone (a matrix file or generated "
                "data); it runs as f32");
        for (Op op : config.ops)
            if (!typed::has_typed_semantics(op))
                throw std::invalid_argument(std::string(op.name()) + " takes f32 only, not " +
                                            name + " (" + name +
                                            " runs copy, transpose, row_sums, col_sums, filter_x "
                                            "and filter_y)");
    }
}

// The opened image's own type runs as it is; another type needs a conversion, refused here
// naming both choices before anything runs (convert_image's message).
void check_typed_input(const AnyImage& image, const RunConfig& config) {
    const std::optional<ElemType> own = elem_type_of(image);
    if (!own) throw std::invalid_argument("the input image holds sums, not u8, u16 or f32 values");
    const Shape shape = typed::shape_of(image);
    if (shape.rows == 0 || shape.cols == 0) throw std::invalid_argument("the input image is empty");
    if (typed::channels_of(image) != config.channels)
        throw std::invalid_argument(
            "the input image has " + std::to_string(typed::channels_of(image)) +
            " channel(s); the run asks for " + std::to_string(config.channels));
    for (ElemType t : config.types)
        if (t != *own && t != ElemType::f32 && config.conversion == Conversion::none)
            convert_image(image, t, Conversion::none);  // throws the refusal
}

}  // namespace

Plan validate(const Runner& runner, const RunConfig& config) {
    if (config.reps < 1) throw std::invalid_argument("repetitions must be at least 1");
    if (config.warmups < 0) throw std::invalid_argument("warm-up launches must not be negative");
    const std::vector<Op> ops = config.ops.empty() ? all_ops() : config.ops;
    for (const ParamAxis& axis : config.sweep) {
        const bool taken = std::any_of(ops.begin(), ops.end(), [&](Op op) {
            const auto& specs = describe(op).params;
            return std::any_of(specs.begin(), specs.end(),
                               [&](const ParamSpec& p) { return p.name == axis.name; });
        });
        if (!taken)
            throw std::invalid_argument("parameter '" + axis.name +
                                        "' is not taken by any of the chosen operations");
    }
    for (Op op : ops)  // throws naming a parameter value out of range
        for (const ParamValues& values : param_combinations(op, config.sweep)) {
            OpParams p = config.params;
            p.values = values;
            resolved_params(op, p);
        }
    for (const std::string& pattern : config.variants) {
        const auto& all = runner.registry().variants();
        if (std::none_of(all.begin(), all.end(),
                         [&](const Variant& v) { return selected_by(v.info, {pattern}); }))
            throw std::invalid_argument("unknown variant '" + pattern + "' (see --list)");
    }
    if (config.input && config.input->empty())
        throw std::invalid_argument("the input matrix is empty");
    if (config.input && config.typed_input &&
        config.input->shape() != typed::shape_of(*config.typed_input))
        throw std::invalid_argument("the float32 input and the typed input differ in shape");
    if (config.typed_input) check_typed_input(*config.typed_input, config);
    check_types(config);

    Plan plan;
    const int device_count = cuda_device_count();
    plan.have_gpu = device_count > 0;
    if (plan.have_gpu) {
        if (config.device < 0 || config.device >= device_count)
            throw std::invalid_argument("device " + std::to_string(config.device) +
                                        " does not exist (" + std::to_string(device_count) +
                                        " CUDA device(s) found)");
        COALESCE_CUDA(cudaSetDevice(config.device));
        plan.device = query_device(config.device);
    } else {
        plan.device = host_info();
    }
    plan.sizes = config.input ? std::vector<Shape>{config.input->shape()}
                 : config.typed_input
                     ? std::vector<Shape>{typed::shape_of(*config.typed_input)}
                     : (config.sizes.empty() ? default_sizes(plan.have_gpu) : config.sizes);
    for (Shape s : plan.sizes)
        if (s.rows == 0 || s.cols == 0)
            throw std::invalid_argument("size " + size_text(s) + " is empty");
    plan.variants = runner.select(config, plan.have_gpu);
    // Parameters that do not fit a size (a stride longer than the buffer) are a bad config, not
    // a column of skipped runs: refused here, naming the parameter, before anything runs.
    std::vector<Op> chosen_ops;
    for (const Variant* v : plan.variants)
        if (std::find(chosen_ops.begin(), chosen_ops.end(), v->info.op) == chosen_ops.end())
            chosen_ops.push_back(v->info.op);
    for (Op op : chosen_ops)
        for (const ParamValues& values : param_combinations(op, config.sweep))
            for (Shape s : plan.sizes) {
                OpParams p = config.params;
                p.values = values;
                if (const std::string why = input_problem(op, s, p); !why.empty())
                    throw std::invalid_argument(std::string(op.name()) + " at " + size_text(s) +
                                                ": " + why);
            }
    plan.any_gpu = plan.have_gpu && std::any_of(plan.variants.begin(), plan.variants.end(),
                                                [](const Variant* v) { return v->info.gpu; });
    if (!plan.any_gpu) return plan;
    const std::size_t free_bytes = device_free_bytes();
    for (Shape s : plan.sizes)
        for (const Variant* v : plan.variants) {
            const std::size_t need =
                device_bytes_needed(v->info.op, s, config.params, config.channels);
            if (v->info.gpu && need > free_bytes)
                throw std::invalid_argument("size " + size_text(s) + " needs about " +
                                            std::to_string(need >> 20) + " MiB of device memory; " +
                                            plan.device.name + " has " +
                                            std::to_string(free_bytes >> 20) + " MiB free");
        }
    return plan;
}

RunResult describe_result(const VariantInfo& info, Shape shape, const OpParams& params,
                          const DeviceInfo& device, double copy_gbps) {
    RunResult r;
    r.op = op_name(info.op);
    r.variant = info.id;
    r.memory_space = info.memory_space;
    r.origin = info.origin;
    r.tier = std::string(tier_name(info.tier));
    r.kernel = info.kernel;
    r.rows = shape.rows;
    r.cols = shape.cols;
    const OpParams resolved = resolved_params(info.op, params);
    r.radius = params.radius;
    r.border = border_name(params.border);
    r.params = resolved.values;
    r.bytes = bytes_moved(info.op, shape, resolved);
    if (info.access) {
        const AccessModel model = model_of(info.access(shape, resolved));
        r.model_load_sectors = model.load_sectors;
        r.model_store_sectors = model.store_sectors;
        r.model_efficiency = model.efficiency;
    }
    if (info.shared_access)
        r.model_bank_conflict_degree =
            worst_bank_conflict_degree(info.shared_access(shape, resolved));
    if (info.constant_access)
        r.model_constant_serialization =
            worst_constant_serialization(info.constant_access(shape, resolved));
    if (const OpDesc& desc = describe(info.op); desc.accesses) {
        const double loads = desc.accesses(shape, resolved);
        r.accesses = info.gpu ? loads / 32.0 / std::max(device.sm_count, 1) : loads;
    }
    r.copy_gbps = copy_gbps;
    r.gpu = info.gpu;
    // Against the cache the run's own processor has: the device's L2, or the host's last level.
    r.cache_resident = info.gpu == device.gpu && device.l2_bytes > 0 && r.bytes <= device.l2_bytes;
    return r;
}

std::string skip_reason(const VariantInfo& info, Shape shape, const OpParams& params,
                        bool have_gpu) {
    if (is_filter(info.op) && !info.supports(params.border))
        return "border mode '" + std::string(border_name(params.border)) +
               "' is not supported by this variant";
    if (std::string why = info.limits.unsupported_reason(info.op, shape, params); !why.empty())
        return why;
    if (std::string why = input_problem(info.op, shape, params); !why.empty()) return why;
    if (info.gpu && !have_gpu) {
        const std::string why = no_device_reason();
        return why.empty() ? "no CUDA device in use" : why;
    }
    return {};
}

RunResult describe_typed_result(const VariantInfo& info, Shape shape, ElemType type,
                                const OpParams& params, const DeviceInfo& device, double copy_gbps,
                                int channels) {
    RunResult r = describe_result(info, shape, params, device, copy_gbps);
    r.type = std::string(elem_type_name(type));
    r.channels = channels;
    if (type == ElemType::f32) return r;
    constexpr double none = std::numeric_limits<double>::quiet_NaN();
    r.model_load_sectors = r.model_store_sectors = r.model_efficiency = none;
    r.model_bank_conflict_degree = r.model_constant_serialization = none;
    r.bytes =
        typed::type_problem(info.op, type, shape).empty()
            ? typed::bytes_moved(info.op, type, shape, resolved_params(info.op, params), channels)
            : 0;
    r.cache_resident =
        info.gpu == device.gpu && device.l2_bytes > 0 && r.bytes > 0 && r.bytes <= device.l2_bytes;
    return r;
}

std::string type_refusal(const VariantInfo& info, ElemType type) {
    if (info.takes(type)) return {};
    std::string takes;
    for (ElemType t : info.types)
        takes += (takes.empty() ? "" : ", ") + std::string(elem_type_name(t));
    return info.id + " does not take " + std::string(elem_type_name(type)) + " (it takes " +
           (takes.empty() ? std::string("nothing") : takes) + ")";
}

std::string channel_refusal(const VariantInfo& info, int channels) {
    if (info.takes_channels(channels)) return {};
    std::string takes;
    for (int n : info.channels) takes += (takes.empty() ? "" : ", ") + std::to_string(n);
    return info.id + " does not take " + std::to_string(channels) + " channel" +
           (channels == 1 ? "" : "s") + " (it takes " +
           (takes.empty() ? std::string("none") : takes) + ")";
}

std::string typed_skip_reason(const VariantInfo& info, Shape shape, ElemType type,
                              const OpParams& params, bool have_gpu, int channels) {
    if (std::string why = typed::type_problem(info.op, type, shape); !why.empty()) return why;
    if (std::string why = type_refusal(info, type); !why.empty()) return why;
    if (std::string why = channel_refusal(info, channels); !why.empty()) return why;
    return skip_reason(info, shape, params, have_gpu);
}

Checked verify_one_launch(Instance& instance, cudaStream_t stream, bool gpu, const Reference& ref,
                          const VariantInfo& info, Shape shape) {
    // On a poisoned output, so a variant that writes nothing fails.
    Checked c;
    instance.poison();
    c.first_ms = host_ms([&] {
        instance.launch(stream);
        if (gpu) COALESCE_CUDA(cudaStreamSynchronize(stream));
    });
    c.output = instance.download();
    const std::optional<std::size_t> chain =
        info.chain ? std::optional<std::size_t>(info.chain(shape, ref.terms)) : std::nullopt;
    c.verification = verify(info.op, ref, c.output, chain);
    return c;
}

int run_unless_cancelled(int count, CancelFlag cancel, const std::function<void(int)>& one) {
    int done = 0;
    while (done < count && !(cancel && cancel->load())) one(done++);
    return done;
}

Launches time_launches(Instance& instance, cudaStream_t stream, bool gpu, int warmups, int reps,
                       double first_ms, CancelFlag cancel) {
    if (gpu)
        return time_on_device([&](cudaStream_t s) { instance.launch(s); }, stream, warmups, reps,
                              cancel);
    // Host variants repeat only as often as fits in about half a second: a CPU suite stays short.
    const int host_reps =
        first_ms > 0 ? std::clamp(static_cast<int>(500.0 / first_ms), 1, reps) : reps;
    Launches out;
    const int warm = std::min(warmups, 1);  // one launch warms the caches
    if (run_unless_cancelled(warm, cancel, [&](int) { instance.launch(nullptr); }) < warm) {
        out.cancelled = true;
        return out;
    }
    const int timed = run_unless_cancelled(host_reps, cancel, [&](int) {
        out.ms.push_back(host_ms([&] { instance.launch(nullptr); }));
    });
    out.cancelled = timed < host_reps;
    return out;
}

Timing summarize(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    Timing t;
    t.min_ms = ms.front();
    t.max_ms = ms.back();
    t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return t;
}

void record_timing(RunResult& r, const std::vector<double>& ms) {
    const Timing t = summarize(ms);
    r.reps = static_cast<int>(ms.size());
    r.median_ms = t.median_ms;
    r.min_ms = t.min_ms;
    r.max_ms = t.max_ms;
    r.gbps = static_cast<double>(r.bytes) / (std::max(t.median_ms, 1e-9) * 1e-3) / 1e9;
    r.pct_of_copy = r.copy_gbps > 0 ? 100.0 * r.gbps / r.copy_gbps : 0.0;
    if (r.accesses > 0) r.ns_per_access = t.median_ms * 1e6 / r.accesses;
}

double measure_device_copy(std::size_t bytes, int warmups, int reps, CancelFlag cancel) {
    DeviceBuffer src(bytes), dst(bytes);
    COALESCE_CUDA(cudaMemset(src.get(), 0x3F, bytes));
    Stream stream = Stream::create();
    auto copy = [&](cudaStream_t s) {
        COALESCE_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s));
    };
    const Launches timed = time_on_device(copy, stream.get(), warmups, std::max(reps, 5), cancel);
    if (timed.ms.empty()) return 0.0;
    return 2.0 * static_cast<double>(bytes) / (summarize(timed.ms).median_ms * 1e-3) / 1e9;
}

double measure_host_copy(std::size_t bytes, int warmups, int reps, CancelFlag cancel) {
    // A small copy takes microseconds, below what one clock reading resolves reliably: time
    // batches of copies lasting at least a millisecond each, median of the batches.
    const std::size_t count = std::max<std::size_t>(bytes / sizeof(float), 1);
    std::vector<float> src(count, 1.0f), dst(count);
    auto copy = [&] { std::copy(src.begin(), src.end(), dst.begin()); };
    const int warm = std::max(warmups, 1);
    if (run_unless_cancelled(warm, cancel, [&](int) { copy(); }) < warm) return 0.0;
    int batch = 1;
    while (batch < (1 << 20) && !(cancel && cancel->load()) && host_ms([&] {
                                                                   for (int i = 0; i < batch; ++i)
                                                                       copy();
                                                               }) < 1.0)
        batch *= 2;
    std::vector<double> ms;
    run_unless_cancelled(std::max(reps, 11), cancel, [&](int) {
        ms.push_back(host_ms([&] {
                         for (int k = 0; k < batch; ++k) copy();
                     }) /
                     batch);
    });
    if (ms.empty()) return 0.0;
    const double median = summarize(ms).median_ms;
    return 2.0 * static_cast<double>(count * sizeof(float)) / (std::max(median, 1e-9) * 1e-3) / 1e9;
}

}  // namespace run_steps

// Chosen implicitly (no variant named), a variant that takes none of the run's element types (with
// its channel count) is left out rather than listed as skipped: a float run does not list every
// byte-only kernel, nor a grey run every colour one.
namespace {
bool takes_any(const VariantInfo& info, const std::vector<ElemType>& types, int channels) {
    const auto takes = [&](ElemType t) {
        return info.takes(t) && info.takes_channels(t == ElemType::f32 ? 1 : channels);
    };
    if (types.empty()) return takes(ElemType::f32);
    return std::any_of(types.begin(), types.end(), takes);
}

// The run an exception ended: skipped with the reason where the variant could not take the input
// (Unsupported), failed with the message otherwise; a GPU variant's device is left usable for the
// runs after it. Call from a catch block of std::exception.
void record_exception(RunResult& r, bool gpu, int device) {
    try {
        throw;
    } catch (const Unsupported& e) {
        r.status = Status::skipped;
        r.error = e.what();
        r.output.reset();
    } catch (const std::exception& e) {
        r.status = Status::failed;
        r.error = e.what();
        r.verified = false;
    }
    if (gpu) run_steps::recover_device(device);
}

}  // namespace

std::vector<const Variant*> Runner::select(const RunConfig& config, bool have_gpu) const {
    const std::vector<Op> ops = config.ops.empty() ? all_ops() : config.ops;
    std::vector<const Variant*> candidates;
    for (const Variant& v : registry_.variants()) {
        if (std::find(ops.begin(), ops.end(), v.info.op) == ops.end()) continue;
        if (!config.tiers.empty() &&
            std::find(config.tiers.begin(), config.tiers.end(), v.info.tier) == config.tiers.end())
            continue;
        candidates.push_back(&v);
    }
    std::vector<const Variant*> out;
    if (config.variants.empty()) {
        for (const Variant* v : candidates)
            if ((v->info.gpu ? have_gpu : (!have_gpu || config.include_cpu)) &&
                takes_any(v->info, config.types, config.channels))
                out.push_back(v);
        return out;
    }
    // A pattern keeps what it matches, except that where some of its matches take the run's
    // types, those that do not are left out ("filter_x/texture-array" on f32 does not list the
    // byte-only "-unorm" twin as skipped). A whole id, or a pattern none of whose matches takes
    // the types ("gather/" on u8), keeps them all, to be skipped with the reason.
    const auto keeps = [&](const std::string& pattern, const VariantInfo& info) {
        if (info.id == pattern) return true;
        if (info.id.rfind(pattern, 0) != 0) return false;
        if (takes_any(info, config.types, config.channels)) return true;
        return std::none_of(candidates.begin(), candidates.end(), [&](const Variant* other) {
            return other->info.id.rfind(pattern, 0) == 0 &&
                   takes_any(other->info, config.types, config.channels);
        });
    };
    for (const Variant* v : candidates)
        if (std::any_of(config.variants.begin(), config.variants.end(),
                        [&](const std::string& p) { return keeps(p, v->info); }))
            out.push_back(v);
    return out;
}

RunResult Runner::run_one(const Variant& variant, const Matrix& input, const RunConfig& config,
                          const OpParams& params, const run_steps::Plan& plan, double copy_gbps,
                          ReferenceCache& references,
                          const std::function<void(std::string)>& report) {
    const VariantInfo& info = variant.info;
    const Shape shape = input.shape();
    RunResult r = run_steps::describe_result(info, shape, params, plan.device, copy_gbps);
    report(info.id + " " + size_text(shape));
    if (cancelled_) {
        r.status = Status::cancelled;
        r.error = "cancelled before it ran";
        return r;
    }
    std::string why = run_steps::type_refusal(info, ElemType::f32);
    if (why.empty()) why = run_steps::channel_refusal(info, 1);
    if (why.empty()) why = run_steps::skip_reason(info, shape, params, plan.have_gpu);
    if (!why.empty()) {
        r.status = Status::skipped;
        r.error = why;
        return r;
    }
    try {
        const OpParams resolved = resolved_params(info.op, params);
        auto& ref = references[reference_key(info.op, params)];
        if (!ref) ref = std::make_shared<Reference>(cpu_reference(info.op, input, resolved));
        const bool keep_output = config.keep_outputs || static_cast<bool>(on_output);
        run_variant(variant, input, *ref, config, resolved, keep_output, &cancelled_, r);
        if (config.keep_outputs && r.output)
            r.reference = std::shared_ptr<const Matrix>(ref, &ref->value);
    } catch (const std::exception&) {
        record_exception(r, info.gpu, config.device);
    }
    return r;
}

RunResult Runner::run_one_typed(const Variant& variant, const AnyImage& input, ElemType type,
                                const RunConfig& config, const OpParams& params,
                                const run_steps::Plan& plan, double copy_gbps,
                                TypedReferenceCache& references,
                                const std::function<void(std::string)>& report) {
    const VariantInfo& info = variant.info;
    const Shape shape = typed::shape_of(input);
    const int channels = typed::channels_of(input);
    RunResult r = run_steps::describe_typed_result(info, shape, type, params, plan.device,
                                                   copy_gbps, channels);
    report(info.id + " " + size_text(shape) + " " + r.type +
           (channels > 1 ? " x" + std::to_string(channels) : ""));
    if (cancelled_) {
        r.status = Status::cancelled;
        r.error = "cancelled before it ran";
        return r;
    }
    if (std::string why =
            run_steps::typed_skip_reason(info, shape, type, params, plan.have_gpu, channels);
        !why.empty()) {
        r.status = Status::skipped;
        r.error = why;
        return r;
    }
    try {
        const OpParams resolved = resolved_params(info.op, params);
        auto& ref = references[reference_key(info.op, params)];
        if (!ref)
            ref = std::make_shared<const AnyImage>(typed::reference(info.op, input, resolved));
        const bool keep_output = config.keep_outputs || static_cast<bool>(on_typed_output);
        run_typed_variant(variant, input, *ref, config, resolved, keep_output, &cancelled_, r);
    } catch (const std::exception&) {
        record_exception(r, info.gpu, config.device);
    }
    return r;
}

RunRecord Runner::run(const RunConfig& config) {
    cancelled_ = false;
    const run_steps::Plan plan = run_steps::validate(*this, config);
    RunRecord record;
    record.config = config;
    record.config.sizes = plan.sizes;
    record.device = plan.device;
    record.started_at = utc_now();

    // One run per (size, type, variant, combination of the parameters its operation takes).
    std::size_t total = 0;
    for (ElemType type : config.types)
        for (const Variant* v : typed_variants(plan, config, type))
            total += param_combinations(v->info.op, config.sweep).size();
    Progress progress{0, plan.sizes.size() * total, {}};
    auto report = [&](std::string what) {
        progress.what = std::move(what);
        if (on_progress) on_progress(progress);
    };
    const AnyImage* typed_input = nullptr;  // the input of the typed runs being finished
    auto finish = [&](RunResult r, const Matrix* input) {
        ++progress.done;
        if (input && on_output && r.verified && r.output) on_output(r, *input);
        if (typed_input && on_typed_output && r.verified && r.typed_output)
            on_typed_output(r, *typed_input);
        if (!config.keep_outputs) r.output.reset();
        if (!config.keep_outputs) r.typed_output.reset();
        if (on_result) on_result(r);
        record.runs.push_back(std::move(r));
    };
    // The opened image as each type runs it, converted once before anything runs, so that a
    // value the conversion cannot keep refuses the whole config.
    std::map<ElemType, std::shared_ptr<const AnyImage>> typed_inputs;
    if (config.typed_input)
        for (ElemType type : config.types)
            if (type != ElemType::f32 || !config.input)
                typed_inputs[type] = elem_type_of(*config.typed_input) == type
                                         ? config.typed_input
                                         : std::make_shared<const AnyImage>(convert_image(
                                               *config.typed_input, type, config.conversion));
    for (Shape shape : plan.sizes) {
        // The copy baseline of each input byte count the size's types need, measured once.
        std::map<std::size_t, double> copy_by_bytes;
        auto copy_gbps_of = [&](std::size_t bytes, const std::string& what) {
            const auto known = copy_by_bytes.find(bytes);
            if (known != copy_by_bytes.end()) return known->second;
            double gbps = 0;
            if (!cancelled_) {
                report("copy baseline " + what);
                gbps = plan.any_gpu ? run_steps::measure_device_copy(bytes, config.warmups,
                                                                     config.reps, &cancelled_)
                                    : run_steps::measure_host_copy(bytes, config.warmups,
                                                                   config.reps, &cancelled_);
            }
            return copy_by_bytes[bytes] = gbps;
        };
        for (ElemType type : config.types) {
            const std::vector<const Variant*> variants = typed_variants(plan, config, type);
            if (variants.empty()) continue;
            const std::size_t input_bytes =
                shape.elements() * elem_size(type) *
                static_cast<std::size_t>(type == ElemType::f32 ? 1 : config.channels);
            const auto opened = typed_inputs.find(type);
            if (type == ElemType::f32) {
                const Matrix input = config.input ? *config.input
                                     : opened != typed_inputs.end()
                                         ? to_matrix(*opened->second)
                                         : Matrix::random(shape.rows, shape.cols, config.seed);
                const double copy_gbps = copy_gbps_of(input_bytes, size_text(shape));
                run_f32(variants, input, config, plan, copy_gbps, report, finish);
                continue;
            }
            const AnyImage input =
                opened != typed_inputs.end()
                    ? *opened->second
                    : typed::random_input(type, shape, config.seed, config.channels);
            const double copy_gbps = copy_gbps_of(
                input_bytes,
                size_text(shape) + " " + std::string(elem_type_name(type)) +
                    (config.channels > 1 ? " x" + std::to_string(config.channels) : ""));
            TypedReferenceCache references;
            typed_input = &input;
            for (const Variant* variant : variants)
                for (const ParamValues& values :
                     param_combinations(variant->info.op, config.sweep)) {
                    OpParams params = config.params;
                    params.values = values;
                    finish(run_one_typed(*variant, input, type, config, params, plan, copy_gbps,
                                         references, report),
                           nullptr);
                }
            typed_input = nullptr;
        }
    }
    record.cancelled = cancelled_;
    report(cancelled_ ? "cancelled" : "done");
    return record;
}

void Runner::run_f32(const std::vector<const Variant*>& variants, const Matrix& input,
                     const RunConfig& config, const run_steps::Plan& plan, double copy_gbps,
                     const std::function<void(std::string)>& report,
                     const std::function<void(RunResult, const Matrix*)>& finish) {
    // A reference is kept only while a run still needs it: a sweep of 33 offsets at
    // 8192x8192 would otherwise hold 33 references of 512 MiB each.
    std::map<std::string, std::size_t> uses;
    for (const Variant* variant : variants)
        for (const ParamValues& values : param_combinations(variant->info.op, config.sweep)) {
            OpParams params = config.params;
            params.values = values;
            ++uses[reference_key(variant->info.op, params)];
        }
    std::map<std::string, std::shared_ptr<const Reference>> references;
    for (const Variant* variant : variants) {
        for (const ParamValues& values : param_combinations(variant->info.op, config.sweep)) {
            OpParams params = config.params;
            params.values = values;
            RunResult r =
                run_one(*variant, input, config, params, plan, copy_gbps, references, report);
            const std::string key = reference_key(variant->info.op, params);
            if (--uses[key] == 0) references.erase(key);
            finish(std::move(r), &input);
        }
    }
}

}  // namespace coalesce
