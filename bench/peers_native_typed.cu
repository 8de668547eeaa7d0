// The native peers of Coalesce's u8 and u16 variants, measured in one run beside a device-to-device
// cudaMemcpy of the same bytes. NPP 8u/16u: Transpose; FilterBoxBorder along X (mask {2r+1, 1})
// and Y ({1, 2r+1}); FilterRowBorder / FilterColumnBorder with a kernel of 2r+1 ones (Npp32s) and
// nDivisor 2r+1; and, for one sum per row / column, SumWindowRow / SumWindowColumn (8u32f, 16u32f)
// with one window spanning the whole line over a one-pixel-wide (one-pixel-high) ROI: NPP has no
// per-line reduction, and this is the call that yields exactly one sum per line. Borders replicate
// (Coalesce's clamp). Timing, JSON line and options as peers_native (bench/peers_common.cuh); every
// line carries "type". Each output is checked against exact integer arithmetic on the CPU before
// it is printed: transposes exactly; sums exactly where float32 holds them; filters within 1 of
// the rounded mean, with the rounding NPP was seen to use in the note (see RoundingTally).
//
//   peers_native_typed --types u8,u16 --sizes 8192x8192,8000x6000 --radii 1,4,16,32,64 --reps 20
#include "peers_common.cuh"

#ifndef COALESCE_BENCH_NPP_ROWCOL
#define COALESCE_BENCH_NPP_ROWCOL COALESCE_BENCH_NPP
#endif

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using peers::Check;
using peers::DeviceBuffer;
using peers::Size;

template <class T>
struct Elem;
template <>
struct Elem<std::uint8_t> {
    static constexpr const char* name = "u8";
};
template <>
struct Elem<std::uint16_t> {
    static constexpr const char* name = "u16";
};

// The host copy of the input (uniform over the type's whole range) and exact references.
template <class T>
class HostImage {
public:
    explicit HostImage(Size s) : s_(s), px_(s.rows * s.cols) {
        std::mt19937_64 gen(s.rows * 1000003u + s.cols);
        std::uniform_int_distribution<unsigned> uni(0, std::numeric_limits<T>::max());
        for (T& v : px_) v = static_cast<T>(uni(gen));
    }
    Size size() const { return s_; }
    const std::vector<T>& pixels() const { return px_; }
    T at(std::size_t r, std::size_t c) const { return px_[r * s_.cols + c]; }

    // The sum of the 2r+1 neighbours of (r, c) along its row (along_x) or column, borders clamped.
    std::uint64_t window_sum(std::size_t r, std::size_t c, int radius, bool along_x) const {
        const long long n = static_cast<long long>(along_x ? s_.cols : s_.rows);
        const long long centre = static_cast<long long>(along_x ? c : r);
        std::uint64_t sum = 0;
        for (long long d = -radius; d <= radius; ++d) {
            const auto k = static_cast<std::size_t>(std::clamp(centre + d, 0LL, n - 1));
            sum += along_x ? at(r, k) : at(k, c);
        }
        return sum;
    }
    std::vector<std::uint64_t> row_sums() const {
        std::vector<std::uint64_t> out(s_.rows, 0);
        for (std::size_t r = 0; r < s_.rows; ++r)
            for (std::size_t c = 0; c < s_.cols; ++c) out[r] += at(r, c);
        return out;
    }
    std::vector<std::uint64_t> col_sums() const {
        std::vector<std::uint64_t> out(s_.cols, 0);
        for (std::size_t r = 0; r < s_.rows; ++r)
            for (std::size_t c = 0; c < s_.cols; ++c) out[c] += at(r, c);
        return out;
    }

private:
    Size s_;
    std::vector<T> px_;
};

template <class T>
Check check_transpose(const std::vector<T>& h_out, const HostImage<T>& img, std::mt19937_64& rng) {
    const Size s = img.size();
    Check c;
    peers::for_sampled_points(s.cols, s.rows, 3000, rng, [&](std::size_t i, std::size_t j) {
        c.add(i, j, h_out[i * s.rows + j], img.at(j, i), 0.0);
    });
    return c;
}

// NPP's window sums write float32, which holds every line sum exactly while the largest possible
// one fits its 24-bit significand (u8: lines up to 65793 elements; u16: up to 256). Longer u16
// lines are held to a relative 5e-5: far above float32 accumulation error over 8192 terms in
// practice (about sqrt(n) * 2^-24), below a dropped or doubled element of average size (about
// 1/n = 1.2e-4 of the sum at n = 8192).
[[maybe_unused]] Check check_sums(const std::vector<float>& got,
                                  const std::vector<std::uint64_t>& want, std::size_t terms,
                                  unsigned max_value) {
    const bool exact = static_cast<double>(terms) * max_value < 16777216.0;
    Check c;
    for (std::size_t i = 0; i < want.size(); ++i) {
        const double w = static_cast<double>(want[i]);
        c.add(i, 0, got[i], w, exact ? 0.0 : 5e-5 * w);
    }
    if (!exact && c.ok) c.why = "float32 output: exact only below 2^24";
    return c;
}

// NPP's documentation names no rounding for its integer averages: FilterBoxBorder "computes the
// average pixel values of the pixels under a rectangular mask", FilterRowBorder and
// FilterColumnBorder scale the sum back "via division by nDivisor" (nppi_filtering_functions.h
// and the NPP 11-13 reference pages); nothing says nearest or truncated. Coalesce rounds to
// nearest, (2s + k) / (2k) with k = 2r+1 (coalesce/typed_reference.hpp). So a filter passes
// within 1 of that, max_err is the largest difference, and the note names the rounding the
// samples fit.
template <class T>
struct RoundingTally {
    int samples = 0, nearest = 0, floor = 0;

    void add(T got, std::uint64_t sum, std::uint64_t k) {
        ++samples;
        nearest += got == (2 * sum + k) / (2 * k);
        floor += got == sum / k;
    }
    std::string describe() const {
        const std::string of = " of " + std::to_string(samples) + " samples";
        if (nearest == samples) return "rounds to nearest on all" + of;
        if (floor == samples) return "truncates (floor) on all" + of;
        return "nearest on " + std::to_string(nearest) + ", floor on " + std::to_string(floor) + of;
    }
};

template <class T>
Check check_filter(const std::vector<T>& h_out, const HostImage<T>& img, int radius, bool along_x,
                   std::mt19937_64& rng) {
    const Size s = img.size();
    const std::uint64_t k = 2 * static_cast<std::uint64_t>(radius) + 1;
    Check c;
    RoundingTally<T> tally;
    peers::for_sampled_points(s.rows, s.cols, 3000, rng, [&](std::size_t i, std::size_t j) {
        const std::uint64_t sum = img.window_sum(i, j, radius, along_x);
        const T got = h_out[i * s.cols + j];
        c.add(i, j, got, static_cast<double>((2 * sum + k) / (2 * k)), 1.0);
        tally.add(got, sum, k);
    });
    c.why = c.why.empty() ? tally.describe() : c.why + "; " + tally.describe();
    return c;
}

// What every peer of one element type and size shares.
struct Bench {
    const char* type;
    Size s;
    cudaStream_t stream;
    int warmups, reps;
    double copy_gbps;
    std::mt19937_64* rng;
    int* failures;
#if COALESCE_BENCH_NPP
    NppStreamContext ctx;
#endif
};

// The output a peer writes, filled with 0xFF before it runs so that an element it never writes
// fails the check (NaN for float32, 255 / 65535 for the integer filters).
struct Output {
    void* p;
    std::size_t bytes;
};

// Times `launch`, checks its output with `verify`, prints the line; returns whether it verified.
// A peer that throws is reported on stderr and counted, and the run goes on.
[[maybe_unused]] bool measure(const Bench& b, const char* op, const std::string& impl, int radius,
                              std::size_t bytes, Output out, const std::function<void()>& launch,
                              const std::function<Check()>& verify) {
    try {
        CHECK(cudaMemset(out.p, 0xFF, out.bytes));
        const double ms = peers::time_ms(launch, b.stream, b.warmups, b.reps);
        const Check c = verify();
        peers::emit("native", op, impl, b.s, radius, ms, bytes, b.copy_gbps, c, b.type);
        if (!c.ok) ++*b.failures;
        return c.ok;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "peers_native_typed: %s %s %s r=%d: %s\n", b.type, op, impl.c_str(),
                     radius, e.what());
        ++*b.failures;
        return false;
    }
}

#if COALESCE_BENCH_NPP
template <class T>
struct NppOps;
template <>
struct NppOps<Npp8u> {
    static constexpr auto transpose = &nppiTranspose_8u_C1R_Ctx;
    static constexpr auto box = &nppiFilterBoxBorder_8u_C1R_Ctx;
#if COALESCE_BENCH_NPP_ROWCOL
    static constexpr auto row_filter = &nppiFilterRowBorder_8u_C1R_Ctx;
    static constexpr auto column_filter = &nppiFilterColumnBorder_8u_C1R_Ctx;
#endif
    static constexpr auto sum_row = &nppiSumWindowRow_8u32f_C1R_Ctx;
    static constexpr auto sum_column = &nppiSumWindowColumn_8u32f_C1R_Ctx;
    static constexpr auto sum_row_border = &nppiSumWindowRowBorder_8u32f_C1R_Ctx;
    static constexpr auto sum_column_border = &nppiSumWindowColumnBorder_8u32f_C1R_Ctx;
};
template <>
struct NppOps<Npp16u> {
    static constexpr auto transpose = &nppiTranspose_16u_C1R_Ctx;
    static constexpr auto box = &nppiFilterBoxBorder_16u_C1R_Ctx;
#if COALESCE_BENCH_NPP_ROWCOL
    static constexpr auto row_filter = &nppiFilterRowBorder_16u_C1R_Ctx;
    static constexpr auto column_filter = &nppiFilterColumnBorder_16u_C1R_Ctx;
#endif
    static constexpr auto sum_row = &nppiSumWindowRow_16u32f_C1R_Ctx;
    static constexpr auto sum_column = &nppiSumWindowColumn_16u32f_C1R_Ctx;
    static constexpr auto sum_row_border = &nppiSumWindowRowBorder_16u32f_C1R_Ctx;
    static constexpr auto sum_column_border = &nppiSumWindowColumnBorder_16u32f_C1R_Ctx;
};

// [bytes] between the starts of two lines of `elems` elements of T.
template <class T>
int step_bytes(std::size_t elems) {
    return static_cast<int>(elems * sizeof(T));
}

template <class T>
void transpose_peer(const Bench& b, const HostImage<T>& img, const T* d_in, T* d_out) {
    const std::size_t n = b.s.rows * b.s.cols;
    const NppiSize src{static_cast<int>(b.s.cols), static_cast<int>(b.s.rows)};
    measure(
        b, "transpose", "NPP Transpose", 0, 2 * n * sizeof(T), Output{d_out, n * sizeof(T)},
        [&] {
            CHECK(NppOps<T>::transpose(d_in, step_bytes<T>(b.s.cols), d_out,
                                       step_bytes<T>(b.s.rows), src, b.ctx));
        },
        [&] { return check_transpose(peers::download(d_out, n), img, *b.rng); });
}

// One whole-line window per output: ROI {1, rows} with a mask of `cols` for row sums, ROI
// {cols, 1} with a mask of `rows` for column sums; anchor 0, so the window of output x is
// [x, x + mask), read as the anchor "offset of the kernel origin relative to the source pixel".
// The Border variant runs first: replicated borders keep every read inside the image whichever
// way nAnchor is read, and its check confirms the reading. Only then does the plain variant run,
// whose window would otherwise fall outside the image.
template <class T>
void sum_peers(const Bench& b, const HostImage<T>& img, const T* d_in, float* d_sums) {
    const int R = static_cast<int>(b.s.rows), C = static_cast<int>(b.s.cols);
    const NppiSize image{C, R};
    const NppiPoint origin{0, 0};
    for (bool rows : {true, false}) {
        const char* op = rows ? "row_sums" : "col_sums";
        const std::size_t outputs = rows ? b.s.rows : b.s.cols, terms = rows ? b.s.cols : b.s.rows;
        const std::vector<std::uint64_t> want = rows ? img.row_sums() : img.col_sums();
        const NppiSize roi = rows ? NppiSize{1, R} : NppiSize{C, 1};
        const int dst_step = step_bytes<float>(rows ? 1 : b.s.cols);
        const int mask = rows ? C : R;
        const std::size_t bytes = b.s.rows * b.s.cols * sizeof(T) + outputs * sizeof(float);
        const Output out{d_sums, outputs * sizeof(float)};
        auto verify = [&] {
            return check_sums(peers::download(d_sums, outputs), want, terms,
                              std::numeric_limits<T>::max());
        };
        const std::string line = rows ? "Row" : "Column";
        const bool anchor_confirmed = measure(
            b, op, "NPP SumWindow" + line + "Border (whole line)", 0, bytes, out,
            [&] {
                const auto f = rows ? NppOps<T>::sum_row_border : NppOps<T>::sum_column_border;
                CHECK(f(d_in, step_bytes<T>(b.s.cols), image, origin, d_sums, dst_step, roi, mask,
                        0, NPP_BORDER_REPLICATE, b.ctx));
            },
            verify);
        if (!anchor_confirmed) {
            std::fprintf(stderr, "peers_native_typed: %s %s: plain SumWindow%s not run\n", b.type,
                         op, line.c_str());
            continue;
        }
        measure(
            b, op, "NPP SumWindow" + line + " (whole line)", 0, bytes, out,
            [&] {
                const auto f = rows ? NppOps<T>::sum_row : NppOps<T>::sum_column;
                CHECK(f(d_in, step_bytes<T>(b.s.cols), d_sums, dst_step, roi, mask, 0, b.ctx));
            },
            verify);
    }
}

template <class T>
void filter_peers(const Bench& b, const HostImage<T>& img, const T* d_in, T* d_out, int radius,
                  const Npp32s* d_ones) {
    const std::size_t n = b.s.rows * b.s.cols;
    const NppiSize size{static_cast<int>(b.s.cols), static_cast<int>(b.s.rows)};
    const NppiPoint origin{0, 0};
    const int step = step_bytes<T>(b.s.cols), taps = 2 * radius + 1;
    const Output out{d_out, n * sizeof(T)};
    for (bool along_x : {true, false}) {
        const char* op = along_x ? "filter_x" : "filter_y";
        auto verify = [&] {
            return check_filter(peers::download(d_out, n), img, radius, along_x, *b.rng);
        };
#if COALESCE_BENCH_NPP_ROWCOL
        measure(
            b, op, along_x ? "NPP FilterRowBorder" : "NPP FilterColumnBorder", radius,
            2 * n * sizeof(T), out,
            [&] {
                const auto f = along_x ? NppOps<T>::row_filter : NppOps<T>::column_filter;
                CHECK(f(d_in, step, size, origin, d_out, step, size, d_ones, taps, radius, taps,
                        NPP_BORDER_REPLICATE, b.ctx));
            },
            verify);
#else
        (void)d_ones;
#endif
        const NppiSize mask = along_x ? NppiSize{taps, 1} : NppiSize{1, taps};
        const NppiPoint anchor = along_x ? NppiPoint{radius, 0} : NppiPoint{0, radius};
        measure(
            b, op, "NPP FilterBoxBorder", radius, 2 * n * sizeof(T), out,
            [&] {
                CHECK(NppOps<T>::box(d_in, step, size, origin, d_out, step, size, mask, anchor,
                                     NPP_BORDER_REPLICATE, b.ctx));
            },
            verify);
    }
}

template <class T>
void npp_peers(const Bench& b, const HostImage<T>& img, const T* d_in, T* d_out, float* d_sums,
               const std::vector<int>& radii) {
    transpose_peer(b, img, d_in, d_out);
    sum_peers(b, img, d_in, d_sums);
    const int max_radius = radii.empty() ? 0 : *std::max_element(radii.begin(), radii.end());
    const std::vector<Npp32s> h_ones(static_cast<std::size_t>(2 * std::max(max_radius, 0) + 1), 1);
    DeviceBuffer<Npp32s> ones(h_ones.size());
    CHECK(
        cudaMemcpy(ones.p, h_ones.data(), h_ones.size() * sizeof(Npp32s), cudaMemcpyHostToDevice));
    for (int radius : radii) filter_peers(b, img, d_in, d_out, radius, ones.p);
}
#endif

template <class T>
void run(Size s, const peers::Options& o, int& failures) {
    const std::size_t n = s.rows * s.cols, image_bytes = n * sizeof(T);
    const HostImage<T> img(s);
    DeviceBuffer<T> in(n), out(n);
    DeviceBuffer<float> sums(std::max(s.rows, s.cols));
    CHECK(cudaMemcpy(in.p, img.pixels().data(), image_bytes, cudaMemcpyHostToDevice));
    const peers::Stream stream;
    std::mt19937_64 rng(12345);

    // The copy ceiling: the same bytes read and written, measured here, in this process.
    const double copy_ms = peers::time_ms(
        [&] {
            CHECK(cudaMemcpyAsync(out.p, in.p, image_bytes, cudaMemcpyDeviceToDevice, stream.s));
        },
        stream.s, o.warmups, o.reps);
    const double copy_gbps = peers::gbps(2 * image_bytes, copy_ms);
    peers::emit("native", "copy", "cudaMemcpy D2D", s, 0, copy_ms, 2 * image_bytes, copy_gbps,
                Check{}, Elem<T>::name);

#if COALESCE_BENCH_NPP
    const Bench b{.type = Elem<T>::name,
                  .s = s,
                  .stream = stream.s,
                  .warmups = o.warmups,
                  .reps = o.reps,
                  .copy_gbps = copy_gbps,
                  .rng = &rng,
                  .failures = &failures,
                  .ctx = peers::npp_context(stream.s)};
    npp_peers(b, img, in.p, out.p, sums.p, o.radii);
#else
    (void)failures;
    std::fprintf(stderr, "peers_native_typed: built without NPP; only the copy measured\n");
#endif
}

}  // namespace

int main(int argc, char** argv) {
    peers::Options defaults;
    defaults.radii = {1, 4, 16, 32, 64};
    defaults.reps = 20;
    defaults.types = {"u8", "u16"};
    peers::Options o;
    try {
        o = peers::parse_options(argc, argv, defaults, true);
        for (const std::string& t : o.types)
            if (t != "u8" && t != "u16")
                throw std::invalid_argument("unknown type " + t + " (u8 or u16)");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "peers_native_typed: %s\n", e.what());
        return 2;
    }
    int failures = 0;
    for (const std::string& t : o.types) {
        for (Size s : o.sizes) {
            try {
                if (t == "u8")
                    run<std::uint8_t>(s, o, failures);
                else
                    run<std::uint16_t>(s, o, failures);
            } catch (const std::exception& e) {  // one failing size never ends the run
                std::fprintf(stderr, "peers_native_typed: %s %zux%zu: %s\n", t.c_str(), s.rows,
                             s.cols, e.what());
                ++failures;
            }
        }
    }
    return failures ? 1 : 0;
}
