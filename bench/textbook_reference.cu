// The course's ideas written the straightforward textbook way, outside Coalesce, to check that its
// classic variants are the lessons and not slower versions of them. Nothing here comes from the
// project: int indices, __restrict__ pointers, the block shapes of NVIDIA's transpose example and
// of the DLI notebook, launched once per matrix. Timed with CUDA events after warm-up (one event
// pair per launch, launches back to back, the median), beside a device-to-device cudaMemcpy of the
// same bytes in the same process; bytes are counted as Coalesce counts them (input read once plus
// output written once). Every kernel's output is checked on sampled rows before its time is shown.
//
//   textbook_reference [--reps N] [--csv FILE] [ROWSxCOLS ...]   (default 8192x8192 16384x16384)
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#define CHECK(call)                                                            \
    do {                                                                       \
        cudaError_t status_ = (call);                                          \
        if (status_ != cudaSuccess) {                                          \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
                         cudaGetErrorString(status_));                         \
            std::exit(1);                                                      \
        }                                                                      \
    } while (0)

namespace {

constexpr int TILE_DIM = 32;
constexpr int BLOCK_ROWS = 8;
constexpr int THREADS = 256;  // the notebook's threads_per_block
constexpr int RADIUS = 4;
constexpr int FILTER_Y_ROWS = 16;

// ---- transpose: NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++", bounds-checked ----

__global__ void transposeNaive(float* __restrict__ odata, const float* __restrict__ idata,
                               int width, int height) {
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x >= width) return;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (y + j < height) odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transposeCoalesced(float* __restrict__ odata, const float* __restrict__ idata,
                                   int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeNoBankConflicts(float* __restrict__ odata, const float* __restrict__ idata,
                                         int width, int height) {
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        if (x < height && y + j < width)
            odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// ---- the notebook's row_sums and col_sums, in C ----

__global__ void rowSums(const float* __restrict__ a, float* __restrict__ sums, int rows, int cols) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= rows) return;
    float sum = 0.0f;
    for (int i = 0; i < cols; ++i) sum += a[idx * cols + i];
    sums[idx] = sum;
}

__global__ void colSums(const float* __restrict__ a, float* __restrict__ sums, int rows, int cols) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= cols) return;
    float sum = 0.0f;
    for (int i = 0; i < rows; ++i) sum += a[i * cols + idx];
    sums[idx] = sum;
}

// ---- box filters through shared memory, radius 4, clamp at the borders ----

__device__ int clampIndex(int i, int n) { return min(max(i, 0), n - 1); }

// The 1-D stencil of NVIDIA's CUDA C introduction: a block of THREADS outputs of one row stages
// them and RADIUS neighbours on each side in shared memory.
__global__ void filterXShared(const float* __restrict__ in, float* __restrict__ out, int width,
                              int height) {
    __shared__ float temp[THREADS + 2 * RADIUS];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    int first = blockIdx.x * blockDim.x - RADIUS;
    for (int i = threadIdx.x; i < THREADS + 2 * RADIUS; i += THREADS)
        temp[i] = in[y * width + clampIndex(first + i, width)];
    __syncthreads();
    if (x >= width) return;
    float sum = 0.0f;
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += temp[threadIdx.x + k];
    out[y * width + x] = sum / (2 * RADIUS + 1);
}

// The same down the columns: a 32x16 block stages 16 + 2 RADIUS rows of its 32 columns.
__global__ void filterYShared(const float* __restrict__ in, float* __restrict__ out, int width,
                              int height) {
    __shared__ float temp[FILTER_Y_ROWS + 2 * RADIUS][TILE_DIM];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * FILTER_Y_ROWS + threadIdx.y;
    int top = blockIdx.y * FILTER_Y_ROWS - RADIUS;
    for (int i = threadIdx.y; i < FILTER_Y_ROWS + 2 * RADIUS; i += FILTER_Y_ROWS)
        temp[i][threadIdx.x] = x < width ? in[clampIndex(top + i, height) * width + x] : 0.0f;
    __syncthreads();
    if (x >= width || y >= height) return;
    float sum = 0.0f;
    for (int k = 0; k <= 2 * RADIUS; ++k) sum += temp[threadIdx.y + k][threadIdx.x];
    out[y * width + x] = sum / (2 * RADIUS + 1);
}

// ---- timing and checking ----

struct Options {
    int reps = 30;
    int warmups = 3;
    std::string csv;
    std::vector<std::pair<int, int>> sizes;
};

double median_ms(const std::function<void()>& launch, const Options& o) {
    for (int i = 0; i < o.warmups; ++i) launch();
    std::vector<cudaEvent_t> start(o.reps), stop(o.reps);
    for (int i = 0; i < o.reps; ++i) {
        CHECK(cudaEventCreate(&start[i]));
        CHECK(cudaEventCreate(&stop[i]));
    }
    for (int i = 0; i < o.reps; ++i) {
        CHECK(cudaEventRecord(start[i]));
        launch();
        CHECK(cudaEventRecord(stop[i]));
    }
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<double> ms(o.reps);
    for (int i = 0; i < o.reps; ++i) {
        float t = 0;
        CHECK(cudaEventElapsedTime(&t, start[i], stop[i]));
        ms[i] = t;
        CHECK(cudaEventDestroy(start[i]));
        CHECK(cudaEventDestroy(stop[i]));
    }
    std::sort(ms.begin(), ms.end());
    return o.reps % 2 ? ms[o.reps / 2] : 0.5 * (ms[o.reps / 2 - 1] + ms[o.reps / 2]);
}

// Checks up to 16 sampled output rows of `rows` x `cols` against expected(r, c): transposes
// exactly, sums and means within `tolerance` relative (float sums of up to 16384 terms). NaN (an
// unwritten output) fails.
bool check(const char* name, const float* d_out, int rows, int cols,
           const std::function<double(int, int)>& expected, double tolerance) {
    std::vector<float> row(cols);
    const int samples = std::min(rows, 16);
    for (int s = 0; s < samples; ++s) {
        int r = samples == 1
                    ? 0
                    : static_cast<int>(static_cast<long long>(s) * (rows - 1) / (samples - 1));
        CHECK(cudaMemcpy(row.data(), d_out + static_cast<size_t>(r) * cols, cols * sizeof(float),
                         cudaMemcpyDeviceToHost));
        for (int c = 0; c < cols; ++c) {
            double want = expected(r, c);
            if (!(std::fabs(row[c] - want) <= tolerance * std::max(1.0, std::fabs(want)))) {
                std::fprintf(stderr, "%s: wrong result at (%d, %d): %g, expected %g\n", name, r, c,
                             row[c], want);
                return false;
            }
        }
    }
    return true;
}

void run_size(int rows, int cols, const Options& o, FILE* csv) {
    const size_t n = static_cast<size_t>(rows) * cols;
    std::vector<float> h_in(n);
    unsigned state = 12345u;
    for (float& v : h_in) {
        state = state * 1664525u + 1013904223u;
        v = static_cast<float>(state >> 8) / 16777216.0f;  // [0, 1)
    }
    float *d_in = nullptr, *d_out = nullptr;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, h_in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    auto in = [&](int r, int c) {
        return static_cast<double>(h_in[static_cast<size_t>(r) * cols + c]);
    };

    const double copy_ms = median_ms(
        [&] { CHECK(cudaMemcpyAsync(d_out, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice)); },
        o);
    const double copy_gbps = 2.0 * n * sizeof(float) / (copy_ms * 1e-3) / 1e9;
    std::printf("\n%d x %d floats\n%-26s %9s %9s %10s\n", rows, cols, "kernel", "ms", "GB/s",
                "% of copy");
    std::printf("%-26s %9.4f %9.1f %10.1f\n", "cudaMemcpy D2D", copy_ms, copy_gbps, 100.0);
    if (csv) std::fprintf(csv, "copy,%d,%d,%.5f,%.1f,100.0\n", rows, cols, copy_ms, copy_gbps);

    auto report = [&](const char* name, size_t out_elems, const std::function<void()>& launch,
                      bool ok) {
        if (!ok) {
            std::printf("%-26s %9s\n", name, "WRONG");
            return;
        }
        const double ms = median_ms(launch, o);
        const double gbps = (n + out_elems) * sizeof(float) / (ms * 1e-3) / 1e9;
        std::printf("%-26s %9.4f %9.1f %10.1f\n", name, ms, gbps, 100.0 * gbps / copy_gbps);
        if (csv)
            std::fprintf(csv, "%s,%d,%d,%.5f,%.1f,%.1f\n", name, rows, cols, ms, gbps,
                         100.0 * gbps / copy_gbps);
    };
    auto run_checked = [&](const char* name, size_t out_elems, int out_rows, int out_cols,
                           const std::function<void()>& launch,
                           const std::function<double(int, int)>& expected, double tolerance) {
        CHECK(cudaMemset(d_out, 0xFF, n * sizeof(float)));  // NaN: an unwritten output fails
        launch();
        CHECK(cudaGetLastError());
        CHECK(cudaDeviceSynchronize());
        report(name, out_elems, launch,
               check(name, d_out, out_rows, out_cols, expected, tolerance));
    };

    const dim3 tile_block(TILE_DIM, BLOCK_ROWS);
    const dim3 tile_grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    auto transposed = [&](int r, int c) { return in(c, r); };
    run_checked(
        "transposeNaive", n, cols, rows,
        [&] { transposeNaive<<<tile_grid, tile_block>>>(d_out, d_in, cols, rows); }, transposed,
        0.0);
    run_checked(
        "transposeCoalesced", n, cols, rows,
        [&] { transposeCoalesced<<<tile_grid, tile_block>>>(d_out, d_in, cols, rows); }, transposed,
        0.0);
    run_checked(
        "transposeNoBankConflicts", n, cols, rows,
        [&] { transposeNoBankConflicts<<<tile_grid, tile_block>>>(d_out, d_in, cols, rows); },
        transposed, 0.0);

    // Both sums in one row-major pass over the input, in double.
    std::vector<double> row_sum(rows, 0.0), col_sum(cols, 0.0);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            row_sum[r] += in(r, c);
            col_sum[c] += in(r, c);
        }
    run_checked(
        "rowSums (thread per row)", rows, 1, rows,
        [&] { rowSums<<<(rows + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, rows, cols); },
        [&](int, int r) { return row_sum[r]; }, 1e-4);
    run_checked(
        "colSums (thread per col)", cols, 1, cols,
        [&] { colSums<<<(cols + THREADS - 1) / THREADS, THREADS>>>(d_in, d_out, rows, cols); },
        [&](int, int c) { return col_sum[c]; }, 1e-4);

    auto box_x = [&](int r, int c) {
        double s = 0;
        for (int k = -RADIUS; k <= RADIUS; ++k) s += in(r, std::min(std::max(c + k, 0), cols - 1));
        return s / (2 * RADIUS + 1);
    };
    run_checked(
        "filterXShared (r=4)", n, rows, cols,
        [&] {
            filterXShared<<<dim3((cols + THREADS - 1) / THREADS, rows), THREADS>>>(d_in, d_out,
                                                                                   cols, rows);
        },
        box_x, 1e-5);
    auto box_y = [&](int r, int c) {
        double s = 0;
        for (int k = -RADIUS; k <= RADIUS; ++k) s += in(std::min(std::max(r + k, 0), rows - 1), c);
        return s / (2 * RADIUS + 1);
    };
    const dim3 y_grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + FILTER_Y_ROWS - 1) / FILTER_Y_ROWS);
    run_checked(
        "filterYShared (r=4)", n, rows, cols,
        [&] { filterYShared<<<y_grid, dim3(TILE_DIM, FILTER_Y_ROWS)>>>(d_in, d_out, cols, rows); },
        box_y, 1e-5);

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        int r = 0, c = 0;
        if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) {
            o.reps = std::max(20, std::atoi(argv[++i]));
        } else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) {
            o.csv = argv[++i];
        } else if (std::sscanf(argv[i], "%dx%d", &r, &c) == 2 && r > 0 && c > 0 && r <= 46340 &&
                   c <= 46340) {
            o.sizes.emplace_back(r, c);  // int indices: up to 2^31 floats
        } else {
            std::fprintf(stderr, "usage: %s [--reps N>=20] [--csv FILE] [ROWSxCOLS ...]\n",
                         argv[0]);
            return 2;
        }
    }
    if (o.sizes.empty()) o.sizes = {{8192, 8192}, {16384, 16384}};
    cudaDeviceProp prop{};
    CHECK(cudaGetDeviceProperties(&prop, 0));
    std::printf("device: %s; median of %d launches after %d warm-ups\n", prop.name, o.reps,
                o.warmups);
    FILE* csv = o.csv.empty() ? nullptr : std::fopen(o.csv.c_str(), "w");
    if (!o.csv.empty() && !csv) {
        std::fprintf(stderr, "cannot write %s\n", o.csv.c_str());
        return 2;
    }
    if (csv) std::fprintf(csv, "kernel,rows,cols,ms,gbps,pct_of_copy\n");
    for (auto [rows, cols] : o.sizes) run_size(rows, cols, o, csv);
    if (csv) std::fclose(csv);
    return 0;
}
