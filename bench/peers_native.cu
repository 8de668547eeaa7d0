// The native peers of Coalesce's fast variants, timed the way the engine's Runner times: one CUDA
// event pair per launch after warm-ups, the median of the launches (bench/peers_common.cuh).
// cuBLAS: Sgeam (transpose), Sgemv with a ones vector (row and column sums). NPP (when built with
// it): Transpose, the row and column filters and the box filter with replicated borders
// (Coalesce's clamp). Each result is checked on a sample of outputs against a double-precision CPU
// computation before it is printed, so a wrong call is never reported as fast. One JSON object per
// line on stdout. The u8/u16 peers are bench/peers_native_typed.cu.
//
//   peers_native --sizes 8192x8192,8000x6000 --radii 4,32 --reps 50
#include "peers_common.cuh"

#include <cublas_v2.h>
#ifndef COALESCE_BENCH_NPP_ROWCOL
#define COALESCE_BENCH_NPP_ROWCOL COALESCE_BENCH_NPP
#endif

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace peers {
inline void check(cublasStatus_t s, const char* what, const char* where) {
    if (s != CUBLAS_STATUS_SUCCESS)
        throw std::runtime_error(std::string(where) + ": " + what + ": cuBLAS status " +
                                 std::to_string(s));
}
}  // namespace peers

namespace {

using peers::Check;
using peers::download;
using peers::emit;
using peers::Size;
using peers::time_ms;
using DeviceFloats = peers::DeviceBuffer<float>;

struct Blas {
    cublasHandle_t h{};
    explicit Blas(cudaStream_t s) {
        CHECK(cublasCreate(&h));
        CHECK(cublasSetStream(h, s));
    }
    ~Blas() { cublasDestroy(h); }
};

// Sampled check against double precision: transpose exact, sums and filters within a relative
// 1e-4 of the sum of |terms| (far above float rounding, far below any indexing mistake).
class Checker {
public:
    Checker(const std::vector<float>& in, Size s) : in_(in), s_(s), rng_(12345) {}
    long long clampi(long long i, long long n) const { return std::min(std::max(i, 0LL), n - 1); }
    float at(long long r, long long c) const {
        return in_[static_cast<std::size_t>(r) * s_.cols + static_cast<std::size_t>(c)];
    }

    // `got(i, j)` reads output element (i, j); `want(i, j, &mag)` computes it in double.
    Check sample(std::size_t out_rows, std::size_t out_cols,
                 const std::function<double(std::size_t, std::size_t)>& got,
                 const std::function<double(std::size_t, std::size_t, double*)>& want, bool exact) {
        Check c;
        peers::for_sampled_points(out_rows, out_cols, 3000, rng_,
                                  [&](std::size_t i, std::size_t j) {
                                      double mag = 0;
                                      const double w = want(i, j, &mag);
                                      c.add(i, j, got(i, j), w, exact ? 0.0 : 1e-4 * mag + 1e-30);
                                  });
        return c;
    }
    double row_sum(std::size_t r, double* mag) const {
        double s = 0;
        *mag = 0;
        for (std::size_t c = 0; c < s_.cols; ++c) {
            s += at(r, c);
            *mag += std::fabs(at(r, c));
        }
        return s;
    }
    double col_sum(std::size_t c, double* mag) const {
        double s = 0;
        *mag = 0;
        for (std::size_t r = 0; r < s_.rows; ++r) {
            s += at(r, c);
            *mag += std::fabs(at(r, c));
        }
        return s;
    }
    // Mean of 2r+1 neighbours with clamped borders, along x (horizontal) or y.
    [[maybe_unused]] double filter(std::size_t r, std::size_t c, int radius, bool along_x,
                                   double* mag) const {
        double s = 0;
        *mag = 0;
        for (int d = -radius; d <= radius; ++d) {
            const long long rr = along_x ? static_cast<long long>(r)
                                         : clampi(static_cast<long long>(r) + d, s_.rows);
            const long long cc = along_x ? clampi(static_cast<long long>(c) + d, s_.cols)
                                         : static_cast<long long>(c);
            s += at(rr, cc);
            *mag += std::fabs(at(rr, cc));
        }
        *mag /= (2 * radius + 1);
        return s / (2 * radius + 1);
    }

private:
    const std::vector<float>& in_;
    Size s_;
    std::mt19937_64 rng_;
};

void run_size(Size s, const std::vector<int>& radii, int reps, int warmups) {
    const std::size_t n = s.rows * s.cols;
    const int R = static_cast<int>(s.rows), C = static_cast<int>(s.cols);
    std::vector<float> h_in(n);
    std::mt19937_64 gen(s.rows * 1000003u + s.cols);
    std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
    for (float& v : h_in) v = uni(gen);
    DeviceFloats in(n), out(n), ones(std::max(s.rows, s.cols)), vec_out(std::max(s.rows, s.cols));
    CHECK(cudaMemcpy(in.p, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const std::vector<float> h_ones(std::max(s.rows, s.cols), 1.0f);
    CHECK(cudaMemcpy(ones.p, h_ones.data(), h_ones.size() * sizeof(float), cudaMemcpyHostToDevice));
    const peers::Stream owned_stream;
    const cudaStream_t stream = owned_stream.s;
    Checker checker(h_in, s);
    const std::size_t full_bytes = 2 * n * sizeof(float);

    // The copy ceiling, measured here, in this process.
    const double copy_ms = time_ms(
        [&] {
            CHECK(
                cudaMemcpyAsync(out.p, in.p, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
        },
        stream, warmups, reps);
    const double copy_gbps = static_cast<double>(full_bytes) / (copy_ms * 1e-3) / 1e9;
    emit("native", "copy", "cudaMemcpy D2D", s, 0, copy_ms, full_bytes, copy_gbps, Check{});

    Blas blas(stream);
    const float one = 1.0f, zero = 0.0f;
    // cuBLAS is column-major: the row-major R x C input is a column-major C x R matrix (ld = C).
    {
        CHECK(cudaMemset(out.p, 0xFF, n * sizeof(float)));
        auto launch = [&] {
            CHECK(cublasSgeam(blas.h, CUBLAS_OP_T, CUBLAS_OP_N, R, C, &one, in.p, C, &zero, out.p,
                              R, out.p, R));
        };
        const double ms = time_ms(launch, stream, warmups, reps);
        const std::vector<float> h = download(out.p, n);
        const Check c = checker.sample(
            s.cols, s.rows, [&](std::size_t i, std::size_t j) { return h[i * s.rows + j]; },
            [&](std::size_t i, std::size_t j, double*) { return checker.at(j, i); }, true);
        emit("native", "transpose", "cuBLAS Sgeam", s, 0, ms, full_bytes, copy_gbps, c);
    }
    {
        auto launch = [&] {
            CHECK(cublasSgemv(blas.h, CUBLAS_OP_T, C, R, &one, in.p, C, ones.p, 1, &zero, vec_out.p,
                              1));
        };
        const double ms = time_ms(launch, stream, warmups, reps);
        const std::vector<float> h = download(vec_out.p, s.rows);
        const Check c = checker.sample(
            s.rows, 1, [&](std::size_t i, std::size_t) { return h[i]; },
            [&](std::size_t i, std::size_t, double* m) { return checker.row_sum(i, m); }, false);
        emit("native", "row_sums", "cuBLAS Sgemv(T, ones)", s, 0, ms, (n + s.rows) * sizeof(float),
             copy_gbps, c);
    }
    {
        auto launch = [&] {
            CHECK(cublasSgemv(blas.h, CUBLAS_OP_N, C, R, &one, in.p, C, ones.p, 1, &zero, vec_out.p,
                              1));
        };
        const double ms = time_ms(launch, stream, warmups, reps);
        const std::vector<float> h = download(vec_out.p, s.cols);
        const Check c = checker.sample(
            1, s.cols, [&](std::size_t, std::size_t j) { return h[j]; },
            [&](std::size_t, std::size_t j, double* m) { return checker.col_sum(j, m); }, false);
        emit("native", "col_sums", "cuBLAS Sgemv(N, ones)", s, 0, ms, (n + s.cols) * sizeof(float),
             copy_gbps, c);
    }

#if COALESCE_BENCH_NPP
    const NppStreamContext ctx = peers::npp_context(stream);
    const int step = C * static_cast<int>(sizeof(float));
    const NppiSize size{C, R};
    const NppiPoint origin{0, 0};
    {
        CHECK(cudaMemset(out.p, 0xFF, n * sizeof(float)));
        auto launch = [&] {
            CHECK(nppiTranspose_32f_C1R_Ctx(in.p, step, out.p, R * static_cast<int>(sizeof(float)),
                                            size, ctx));
        };
        const double ms = time_ms(launch, stream, warmups, reps);
        const std::vector<float> h = download(out.p, n);
        const Check c = checker.sample(
            s.cols, s.rows, [&](std::size_t i, std::size_t j) { return h[i * s.rows + j]; },
            [&](std::size_t i, std::size_t j, double*) { return checker.at(j, i); }, true);
        emit("native", "transpose", "NPP Transpose", s, 0, ms, full_bytes, copy_gbps, c);
    }
    for (int radius : radii) {
        const int taps = 2 * radius + 1;
        const std::vector<float> h_kernel(static_cast<std::size_t>(taps),
                                          1.0f / static_cast<float>(taps));
        DeviceFloats kernel(h_kernel.size());
        CHECK(cudaMemcpy(kernel.p, h_kernel.data(), h_kernel.size() * sizeof(float),
                         cudaMemcpyHostToDevice));
        for (bool along_x : {true, false}) {
            const char* op = along_x ? "filter_x" : "filter_y";
            auto verify_filter = [&](const std::vector<float>& h) {
                return checker.sample(
                    s.rows, s.cols, [&](std::size_t i, std::size_t j) { return h[i * s.cols + j]; },
                    [&](std::size_t i, std::size_t j, double* m) {
                        return checker.filter(i, j, radius, along_x, m);
                    },
                    false);
            };
#if COALESCE_BENCH_NPP_ROWCOL
            try {
                CHECK(cudaMemset(out.p, 0xFF, n * sizeof(float)));
                auto launch = [&] {
                    if (along_x)
                        CHECK(nppiFilterRowBorder_32f_C1R_Ctx(in.p, step, size, origin, out.p, step,
                                                              size, kernel.p, taps, radius,
                                                              NPP_BORDER_REPLICATE, ctx));
                    else
                        CHECK(nppiFilterColumnBorder_32f_C1R_Ctx(in.p, step, size, origin, out.p,
                                                                 step, size, kernel.p, taps, radius,
                                                                 NPP_BORDER_REPLICATE, ctx));
                };
                const double ms = time_ms(launch, stream, warmups, reps);
                emit("native", op, along_x ? "NPP FilterRowBorder" : "NPP FilterColumnBorder", s,
                     radius, ms, full_bytes, copy_gbps, verify_filter(download(out.p, n)));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "peers_native: %s r=%d: %s\n", op, radius, e.what());
            }
#endif
            try {
                CHECK(cudaMemset(out.p, 0xFF, n * sizeof(float)));
                const NppiSize mask = along_x ? NppiSize{taps, 1} : NppiSize{1, taps};
                const NppiPoint anchor = along_x ? NppiPoint{radius, 0} : NppiPoint{0, radius};
                auto launch = [&] {
                    CHECK(nppiFilterBoxBorder_32f_C1R_Ctx(in.p, step, size, origin, out.p, step,
                                                          size, mask, anchor, NPP_BORDER_REPLICATE,
                                                          ctx));
                };
                const double ms = time_ms(launch, stream, warmups, reps);
                emit("native", op, "NPP FilterBoxBorder", s, radius, ms, full_bytes, copy_gbps,
                     verify_filter(download(out.p, n)));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "peers_native: box %s r=%d: %s\n", op, radius, e.what());
            }
        }
    }
#else
    (void)radii;
    std::fprintf(stderr,
                 "peers_native: built without NPP; transpose and filters by NPP not measured\n");
#endif
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const peers::Options o = peers::parse_options(argc, argv, peers::Options{}, false);
        for (Size s : o.sizes) run_size(s, o.radii, o.reps, o.warmups);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "peers_native: %s\n", e.what());
        return 1;
    }
    return 0;
}
