// What the native peer programs (peers_native.cu: f32, peers_native_typed.cu: u8/u16) share: the
// throwing check, RAII owners, the Runner's timing method (one event pair per launch after
// warm-ups, the median), the sampled-check bookkeeping, the JSON line and the command line.
// Header-only; each program is its own executable.
#pragma once

#include <cuda_runtime.h>
#if COALESCE_BENCH_NPP
#include <npp.h>
#endif

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace peers {

inline void check(cudaError_t e, const char* what, const char* where) {
    if (e != cudaSuccess)
        throw std::runtime_error(std::string(where) + ": " + what + ": " + cudaGetErrorString(e));
}
#if COALESCE_BENCH_NPP
inline void check(NppStatus s, const char* what, const char* where) {
    if (s != NPP_SUCCESS)
        throw std::runtime_error(std::string(where) + ": " + what + ": NPP status " +
                                 std::to_string(s));
}
#endif

#define PEERS_STR2(x) #x
#define PEERS_STR(x) PEERS_STR2(x)
// Overloads of peers::check for other libraries' status types (cuBLAS) go into namespace peers.
#define CHECK(call) ::peers::check((call), #call, __FILE__ ":" PEERS_STR(__LINE__))

// [elements] of T on the device; at least one, so an empty size still has a valid pointer.
template <class T>
struct DeviceBuffer {
    T* p = nullptr;
    explicit DeviceBuffer(std::size_t count) {
        CHECK(cudaMalloc(&p, std::max<std::size_t>(count, 1) * sizeof(T)));
    }
    ~DeviceBuffer() { cudaFree(p); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct EventPair {
    cudaEvent_t start{}, end{};
    EventPair() {
        CHECK(cudaEventCreate(&start));
        CHECK(cudaEventCreate(&end));
    }
    ~EventPair() {
        cudaEventDestroy(start);
        cudaEventDestroy(end);
    }
    EventPair(EventPair&& o) noexcept : start(o.start), end(o.end) { o.start = o.end = nullptr; }
    EventPair(const EventPair&) = delete;
};

struct Stream {
    cudaStream_t s{};
    Stream() { CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking)); }
    ~Stream() { cudaStreamDestroy(s); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
};

// [ms] median of `reps` launches, each between its own event pair, after `warmups`.
inline double time_ms(const std::function<void()>& launch, cudaStream_t stream, int warmups,
                      int reps) {
    for (int i = 0; i < warmups; ++i) launch();
    std::vector<EventPair> ev(static_cast<std::size_t>(reps));
    for (auto& e : ev) {
        CHECK(cudaEventRecord(e.start, stream));
        launch();
        CHECK(cudaEventRecord(e.end, stream));
    }
    CHECK(cudaStreamSynchronize(stream));
    std::vector<double> ms;
    for (auto& e : ev) {
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, e.start, e.end));
        ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const std::size_t n = ms.size();
    return n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
}

// [GB/s] for `bytes` moved in `ms`.
inline double gbps(std::size_t bytes, double ms) {
    return static_cast<double>(bytes) / (ms * 1e-3) / 1e9;
}

template <class T>
std::vector<T> download(const T* d, std::size_t count) {
    std::vector<T> h(count);
    CHECK(cudaMemcpy(h.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
}

struct Size {
    std::size_t rows, cols;
};

// The outcome of a check: every compared output within its tolerance; the largest error seen;
// the first failure (or, where a program says so, a remark such as the rounding it observed).
struct Check {
    bool ok = true;
    double max_err = 0;
    std::string why;

    void add(std::size_t i, std::size_t j, double got, double want, double tol) {
        const double err = std::fabs(got - want);
        max_err = std::max(max_err, err);
        if (err <= tol) return;  // NaN fails too
        ok = false;
        if (why.empty()) {
            std::ostringstream m;
            m << "(" << i << "," << j << ") got " << got << " want " << want;
            why = m.str();
        }
    }
};

// Calls visit(i, j) for the four corners of an out_rows x out_cols output, then for random
// points, `count` in all.
template <class Visit>
void for_sampled_points(std::size_t out_rows, std::size_t out_cols, int count, std::mt19937_64& rng,
                        Visit&& visit) {
    std::uniform_int_distribution<std::size_t> ri(0, out_rows - 1), ci(0, out_cols - 1);
    for (int k = 0; k < count; ++k) {
        std::size_t i = ri(rng), j = ci(rng);
        if (k < 4) {
            i = (k & 1) ? out_rows - 1 : 0;
            j = (k & 2) ? out_cols - 1 : 0;
        }
        visit(i, j);
    }
}

// One JSON object per line on stdout; `type` (the element type) is left out when null, as the
// f32 peers always wrote it.
inline void emit(const char* source, const char* op, const std::string& impl, Size s, int radius,
                 double ms, std::size_t bytes, double copy_gbps, const Check& c,
                 const char* type = nullptr) {
    const double g = gbps(bytes, ms);
    const std::string type_field = type ? std::string("\"type\":\"") + type + "\"," : "";
    std::printf(
        "{\"source\":\"%s\",\"op\":\"%s\",\"impl\":\"%s\",%s\"rows\":%zu,\"cols\":%zu,"
        "\"radius\":%d,\"ms\":%.6f,\"bytes\":%zu,\"gbps\":%.2f,\"copy_gbps\":%.2f,"
        "\"pct_of_copy\":%.2f,\"verified\":%s,\"max_err\":%.3g,\"note\":\"%s\"}\n",
        source, op, impl.c_str(), type_field.c_str(), s.rows, s.cols, radius, ms, bytes, g,
        copy_gbps, copy_gbps > 0 ? 100.0 * g / copy_gbps : 0.0, c.ok ? "true" : "false", c.max_err,
        c.why.c_str());
    std::fflush(stdout);
}

inline std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string part; std::getline(in, part, sep);)
        if (!part.empty()) out.push_back(part);
    return out;
}

struct Options {
    std::vector<Size> sizes{{8192, 8192}, {8000, 6000}};
    std::vector<int> radii{4, 32};
    int reps = 50;
    int warmups = 5;
    std::vector<std::string> types;  // only where the program takes --types
};

// --sizes RxC,... --radii r,... --reps n, and --types a,b where `takes_types`; starts from
// `defaults`. Throws std::invalid_argument on anything else.
inline Options parse_options(int argc, char** argv, Options defaults, bool takes_types) {
    Options o = std::move(defaults);
    if (argc % 2 == 0) throw std::invalid_argument("every option takes a value");
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string key = argv[i], value = argv[i + 1];
        if (key == "--sizes") {
            o.sizes.clear();
            for (const std::string& part : split(value, ',')) {
                const auto x = part.find('x');
                if (x == std::string::npos) throw std::invalid_argument("bad size " + part);
                o.sizes.push_back({std::stoul(part.substr(0, x)), std::stoul(part.substr(x + 1))});
            }
        } else if (key == "--radii") {
            o.radii.clear();
            for (const std::string& part : split(value, ',')) o.radii.push_back(std::stoi(part));
        } else if (key == "--reps") {
            o.reps = std::stoi(value);
        } else if (key == "--types" && takes_types) {
            o.types = split(value, ',');
        } else {
            throw std::invalid_argument("unknown option " + key);
        }
    }
    return o;
}

#if COALESCE_BENCH_NPP
// NPP's application-managed stream context for `stream` on the current device.
inline NppStreamContext npp_context(cudaStream_t stream) {
    NppStreamContext ctx{};
    int dev = 0;
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, dev));
    ctx.hStream = stream;
    ctx.nCudaDeviceId = dev;
    ctx.nMultiProcessorCount = prop.multiProcessorCount;
    ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
    ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
    ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
    ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
    ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
    unsigned flags = 0;
    CHECK(cudaStreamGetFlags(stream, &flags));
    ctx.nStreamFlags = flags;
    return ctx;
}
#endif

}  // namespace peers
