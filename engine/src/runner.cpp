#include "coalesce/runner.hpp"

#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
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
            throw std::invalid_argument("bad size '" + std::string(whole) +
                                        "': expected ROWSxCOLS with positive whole numbers, e.g. 4096x4096");
        const unsigned long long v = std::stoull(std::string(part));
        if (v == 0)
            throw std::invalid_argument("bad size '" + std::string(whole) + "': rows and columns must be at least 1");
        if (v > (1ull << 30))
            throw std::invalid_argument("bad size '" + std::string(whole) + "': a dimension above 2^30 is not supported");
        return static_cast<std::size_t>(v);
    };
    std::size_t begin = 0;
    while (begin <= text.size()) {
        const std::size_t end = std::min(text.find(',', begin), text.size());
        const std::string_view item = text.substr(begin, end - begin);
        const std::size_t x = item.find_first_of("xX");
        if (x == std::string_view::npos)
            throw std::invalid_argument("bad size '" + std::string(item) +
                                        "': expected ROWSxCOLS with positive whole numbers, e.g. 4096x4096");
        Shape s{parse_dim(item.substr(0, x), item), parse_dim(item.substr(x + 1), item)};
        if (s.elements() > (1ull << 34))
            throw std::invalid_argument("bad size '" + std::string(item) + "': more than 2^34 elements");
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

struct Timing {
    double median_ms = 0, min_ms = 0, max_ms = 0;
};

Timing summarize(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    Timing t;
    t.min_ms = ms.front();
    t.max_ms = ms.back();
    t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    return t;
}

double host_ms(const std::function<void()>& work) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// Times `launch` on `stream` with one event pair per launch, after `warmups` untimed launches.
std::vector<double> time_on_device(const std::function<void(cudaStream_t)>& launch, cudaStream_t stream,
                                   int warmups, int reps) {
    for (int i = 0; i < warmups; ++i) launch(stream);
    std::vector<Event> starts, ends;
    for (int i = 0; i < reps; ++i) {
        starts.push_back(Event::create());
        ends.push_back(Event::create());
    }
    for (int i = 0; i < reps; ++i) {
        starts[i].record(stream);
        launch(stream);
        ends[i].record(stream);
    }
    std::vector<double> ms;
    for (int i = 0; i < reps; ++i) ms.push_back(Event::elapsed_ms(starts[i], ends[i]));
    return ms;
}

// Host variants repeat only as often as fits in about half a second, so a CPU suite stays short.
int host_reps(double one_ms, int requested) {
    if (one_ms <= 0) return requested;
    return std::clamp(static_cast<int>(500.0 / one_ms), 1, requested);
}

// [GB/s] of a device-to-device cudaMemcpy of the input's size, counting bytes read + written.
double measure_device_copy(Shape shape, const RunConfig& config) {
    const std::size_t bytes = shape.elements() * sizeof(float);
    DeviceBuffer src(bytes), dst(bytes);
    COALESCE_CUDA(cudaMemset(src.get(), 0x3F, bytes));
    Stream stream = Stream::create();
    auto copy = [&](cudaStream_t s) {
        COALESCE_CUDA(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s));
    };
    const Timing t = summarize(time_on_device(copy, stream.get(), config.warmups, std::max(config.reps, 5)));
    return 2.0 * static_cast<double>(bytes) / (t.median_ms * 1e-3) / 1e9;
}

double measure_host_copy(const Matrix& input, const RunConfig& config) {
    Matrix dst(input.rows(), input.cols());
    auto copy = [&] { std::copy(input.data(), input.data() + input.size(), dst.data()); };
    for (int i = 0; i < config.warmups; ++i) copy();
    std::vector<double> ms;
    for (int i = 0; i < std::max(config.reps, 5); ++i) ms.push_back(host_ms(copy));
    const double median = summarize(ms).median_ms;
    return 2.0 * static_cast<double>(input.size() * sizeof(float)) / (std::max(median, 1e-6) * 1e-3) / 1e9;
}

// A sticky CUDA error (an illegal address, say) poisons the context: reset it so the next variant
// starts clean instead of failing with the same error.
void recover_device(int device) {
    if (cudaDeviceSynchronize() != cudaSuccess || cudaGetLastError() != cudaSuccess) {
        cudaDeviceReset();
        cudaSetDevice(device);
        cudaGetLastError();
    }
}

std::size_t device_bytes_needed(Op op, Shape s) {
    const std::size_t in = s.elements() * sizeof(float);
    const std::size_t out = output_shape(op, s).elements() * sizeof(float);
    // Pitched rows round up to the texture alignment (<= 512 bytes); leave slack for scratch too.
    const std::size_t slack = (s.rows + s.cols) * 1024 + (64u << 20);
    return std::max(2 * in, in + out) + slack;
}

}  // namespace

std::vector<const Variant*> Runner::select(const RunConfig& config, bool have_gpu) const {
    std::vector<const Variant*> out;
    const std::vector<Op>& ops = config.ops.empty() ? all_ops() : config.ops;
    for (const Variant& v : registry_.variants()) {
        if (std::find(ops.begin(), ops.end(), v.info.op) == ops.end()) continue;
        if (!config.variants.empty()) {
            if (selected_by(v.info, config.variants)) out.push_back(&v);
        } else if (v.info.gpu ? have_gpu : (!have_gpu || config.include_cpu)) {
            out.push_back(&v);
        }
    }
    return out;
}

RunRecord Runner::run(const RunConfig& config) {
    cancelled_ = false;
    if (config.params.radius < 0 || config.params.radius > kMaxRadius)
        throw std::invalid_argument("radius " + std::to_string(config.params.radius) + " is out of range 0.." +
                                    std::to_string(kMaxRadius));
    if (config.reps < 1) throw std::invalid_argument("repetitions must be at least 1");
    if (config.warmups < 0) throw std::invalid_argument("warm-up launches must not be negative");
    for (const std::string& pattern : config.variants) {
        const bool known = std::any_of(registry_.variants().begin(), registry_.variants().end(),
                                       [&](const Variant& v) { return selected_by(v.info, {pattern}); });
        if (!known) throw std::invalid_argument("unknown variant '" + pattern + "' (see --list)");
    }
    if (config.input && config.input->empty()) throw std::invalid_argument("the input matrix is empty");

    const int device_count = cuda_device_count();
    const bool have_gpu = device_count > 0;
    RunRecord record;
    record.config = config;
    if (have_gpu) {
        if (config.device < 0 || config.device >= device_count)
            throw std::invalid_argument("device " + std::to_string(config.device) + " does not exist (" +
                                        std::to_string(device_count) + " CUDA device(s) found)");
        COALESCE_CUDA(cudaSetDevice(config.device));
        record.device = query_device(config.device);
    } else {
        record.device = host_info();
    }

    std::vector<Shape> sizes = config.input ? std::vector<Shape>{config.input->shape()}
                                            : (config.sizes.empty() ? default_sizes(have_gpu) : config.sizes);
    for (Shape s : sizes)
        if (s.rows == 0 || s.cols == 0) throw std::invalid_argument("size " + size_text(s) + " is empty");
    record.config.sizes = sizes;

    const std::vector<const Variant*> variants = select(config, have_gpu);
    const bool any_gpu = have_gpu && std::any_of(variants.begin(), variants.end(), [](auto* v) { return v->info.gpu; });
    if (any_gpu) {
        const std::size_t free_bytes = device_free_bytes();
        for (Shape s : sizes)
            for (const Variant* v : variants)
                if (v->info.gpu && device_bytes_needed(v->info.op, s) > free_bytes)
                    throw std::invalid_argument(
                        "size " + size_text(s) + " needs about " +
                        std::to_string(device_bytes_needed(v->info.op, s) >> 20) + " MiB of device memory; " +
                        record.device.name + " has " + std::to_string(free_bytes >> 20) + " MiB free");
    }

    const std::time_t now = std::time(nullptr);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    record.started_at = stamp;

    Progress progress{0, sizes.size() * variants.size(), {}};
    for (Shape shape : sizes) {
        const Matrix input = config.input ? *config.input : Matrix::random(shape.rows, shape.cols, config.seed);
        double copy_gbps = 0;
        if (!cancelled_ && !variants.empty()) {
            progress.what = "copy baseline " + size_text(shape);
            if (on_progress) on_progress(progress);
            copy_gbps = any_gpu ? measure_device_copy(shape, config) : measure_host_copy(input, config);
        }
        std::map<Op, std::shared_ptr<const Reference>> references;

        for (const Variant* variant : variants) {
            const VariantInfo& info = variant->info;
            RunResult r;
            r.op = op_name(info.op);
            r.variant = info.id;
            r.memory_space = info.memory_space;
            r.origin = info.origin;
            r.tier = std::string(tier_name(info.tier));
            r.kernel = info.kernel;
            r.rows = shape.rows;
            r.cols = shape.cols;
            r.radius = config.params.radius;
            r.border = border_name(config.params.border);
            r.bytes = bytes_moved(info.op, shape);
            r.copy_gbps = copy_gbps;
            r.gpu = info.gpu;
            r.cache_resident = info.gpu && have_gpu && r.bytes <= record.device.l2_bytes;

            progress.what = info.id + " " + size_text(shape);
            if (on_progress) on_progress(progress);

            if (cancelled_) {
                r.status = Status::cancelled;
                r.error = "cancelled before it ran";
            } else if (is_filter(info.op) && !info.supports(config.params.border)) {
                r.status = Status::skipped;
                r.error = "border mode '" + std::string(border_name(config.params.border)) +
                          "' is not supported by this variant";
            } else if (const std::string why = info.limits.unsupported_reason(info.op, shape, config.params);
                       !why.empty()) {
                r.status = Status::skipped;
                r.error = why;
            } else if (info.gpu && !have_gpu) {
                r.status = Status::skipped;
                r.error = no_device_reason();
            } else {
                try {
                    auto& ref = references[info.op];
                    if (!ref) ref = std::make_shared<Reference>(cpu_reference(info.op, input, config.params));

                    std::unique_ptr<Instance> instance = variant->make(shape, config.params);
                    instance->upload(input);
                    std::optional<Stream> stream;
                    if (info.gpu) stream = Stream::create();
                    cudaStream_t s = stream ? stream->get() : nullptr;

                    // Verify first, on a poisoned output, so a variant that writes nothing fails.
                    instance->poison();
                    const double first_ms = host_ms([&] {
                        instance->launch(s);
                        if (stream) stream->synchronize();
                    });
                    Matrix output = instance->download();
                    const Verification v = verify(info.op, *ref, output);
                    r.max_abs_error = v.max_abs_error;
                    r.verified = v.ok;
                    if (config.keep_outputs) {
                        r.output = std::make_shared<const Matrix>(std::move(output));
                        r.reference = std::shared_ptr<const Matrix>(ref, &ref->value);
                    }
                    if (!v.ok) {
                        r.status = Status::failed;
                        r.error = "verification failed: " + v.message;
                    } else {
                        std::vector<double> ms;
                        if (info.gpu) {
                            ms = time_on_device([&](cudaStream_t st) { instance->launch(st); }, s,
                                                config.warmups, config.reps);
                        } else {
                            const int reps = host_reps(first_ms, config.reps);
                            for (int i = 0; i < std::min(config.warmups, 1); ++i) instance->launch(nullptr);  // caches warm
                            for (int i = 0; i < reps; ++i) ms.push_back(host_ms([&] { instance->launch(nullptr); }));
                        }
                        const Timing t = summarize(ms);
                        r.reps = static_cast<int>(ms.size());
                        r.median_ms = t.median_ms;
                        r.min_ms = t.min_ms;
                        r.max_ms = t.max_ms;
                        r.gbps = static_cast<double>(r.bytes) / (std::max(t.median_ms, 1e-9) * 1e-3) / 1e9;
                        r.pct_of_copy = copy_gbps > 0 ? 100.0 * r.gbps / copy_gbps : 0.0;
                    }
                } catch (const Unsupported& e) {
                    r.status = Status::skipped;
                    r.error = e.what();
                    r.verified = false;
                    r.output.reset();
                    r.reference.reset();
                    if (info.gpu) recover_device(config.device);
                } catch (const std::exception& e) {
                    r.status = Status::failed;
                    r.error = e.what();
                    r.verified = false;
                    if (info.gpu) recover_device(config.device);
                }
            }
            ++progress.done;
            if (on_result) on_result(r);
            record.runs.push_back(std::move(r));
        }
    }
    record.cancelled = cancelled_;
    progress.what = cancelled_ ? "cancelled" : "done";
    if (on_progress) on_progress(progress);
    return record;
}

}  // namespace coalesce
