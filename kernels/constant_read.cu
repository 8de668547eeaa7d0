// constant_read: seed 003's constant-memory example. Each thread sums `repeat` entries of a
// 1024-float table; the warp's lanes read 1 address (uniform: c[i], c[blockIdx.x + i]) or up to
// 32 different ones (c[threadIdx.x + i]) per access. The constant cache serves one address per
// pass, so a divergent warp is serialized; global memory and the read-only path serve the 32
// neighbours as one request of a few sectors.
#include "coalesce/cuda_check.hpp"
#include "coalesce/onchip.hpp"
#include "coalesce/registry.hpp"
#include "device_instance.hpp"

#include <algorithm>
#include <cstddef>

namespace coalesce {
namespace {

using onchip::kTableSize;

constexpr int kThreads = 256;
constexpr long long kMaxRowsPerLaunch = 65535;  // gridDim.y

// One table for the process. prepare() fills it from the instance's copy of the table (its
// scratch matrix) and records whose copy it holds; a launch of another instance refills it first,
// so instances used side by side stay correct, and the runner's one-at-a-time runs never pay for
// a copy inside the timed launches.
__constant__ float c_table[kTableSize];
const float* g_table_owner = nullptr;

// The table every variant reads: entry k is input element k mod n (n elements, row-major).
__global__ void fill_table_kernel(const float* in, std::size_t n, float* table) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < kTableSize) table[k] = in[static_cast<std::size_t>(k) % n];
}

__global__ void constant_read_kernel(float* out, int cols, int row0, int repeat, int distinct) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    const int row = row0 + blockIdx.y;
    const int base = onchip::table_base(row, col, distinct);
    float sum = 0.0f;
    for (int i = 0; i < repeat; ++i) sum += c_table[onchip::table_index(base, i)];
    out[static_cast<std::size_t>(row) * cols + col] = sum;
}

// The same reads from global memory: plain loads (the output may alias the table, as far as
// the compiler knows, so they stay ordinary global loads).
__global__ void global_read_kernel(const float* table, float* out, int cols, int row0, int repeat,
                                   int distinct) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    const int row = row0 + blockIdx.y;
    const int base = onchip::table_base(row, col, distinct);
    float sum = 0.0f;
    for (int i = 0; i < repeat; ++i) sum += table[onchip::table_index(base, i)];
    out[static_cast<std::size_t>(row) * cols + col] = sum;
}

// Through the read-only data cache: __ldg, as the course's const __restrict__ pointers get.
__global__ void ldg_read_kernel(const float* __restrict__ table, float* __restrict__ out, int cols,
                                int row0, int repeat, int distinct) {
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= cols) return;
    const int row = row0 + blockIdx.y;
    const int base = onchip::table_base(row, col, distinct);
    float sum = 0.0f;
    for (int i = 0; i < repeat; ++i) sum += __ldg(&table[onchip::table_index(base, i)]);
    out[static_cast<std::size_t>(row) * cols + col] = sum;
}

enum class Source { constant, global, ldg };

void prepare_table(MatView in, MatView scratch, Source source) {
    fill_table_kernel<<<kTableSize / kThreads, kThreads>>>(in.data, in.rows * in.cols,
                                                           scratch.data);
    COALESCE_CHECK_LAUNCH("fill_table_kernel");
    if (source == Source::constant) {
        COALESCE_CUDA(cudaMemcpyToSymbol(c_table, scratch.data, kTableSize * sizeof(float), 0,
                                         cudaMemcpyDeviceToDevice));
        g_table_owner = scratch.data;
    }
}

void launch_reads(Source source, MatView out, MatView table, const OpParams& p,
                  cudaStream_t stream) {
    const int cols = static_cast<int>(out.cols);
    const int repeat = static_cast<int>(p.value("repeat"));
    const int distinct = static_cast<int>(p.value("distinct"));
    if (source == Source::constant && g_table_owner != table.data) {
        COALESCE_CUDA(cudaMemcpyToSymbolAsync(c_table, table.data, kTableSize * sizeof(float), 0,
                                              cudaMemcpyDeviceToDevice, stream));
        g_table_owner = table.data;
    }
    for (long long row0 = 0; row0 < static_cast<long long>(out.rows); row0 += kMaxRowsPerLaunch) {
        const long long rows = std::min(kMaxRowsPerLaunch, static_cast<long long>(out.rows) - row0);
        const dim3 grid(static_cast<unsigned>((cols + kThreads - 1) / kThreads),
                        static_cast<unsigned>(rows));
        const int first = static_cast<int>(row0);
        if (source == Source::constant) {
            constant_read_kernel<<<grid, kThreads, 0, stream>>>(out.data, cols, first, repeat,
                                                                distinct);
            COALESCE_CHECK_LAUNCH("constant_read_kernel");
        } else if (source == Source::global) {
            global_read_kernel<<<grid, kThreads, 0, stream>>>(table.data, out.data, cols, first,
                                                              repeat, distinct);
            COALESCE_CHECK_LAUNCH("global_read_kernel");
        } else {
            ldg_read_kernel<<<grid, kThreads, 0, stream>>>(table.data, out.data, cols, first,
                                                           repeat, distinct);
            COALESCE_CHECK_LAUNCH("ldg_read_kernel");
        }
    }
}

// Read 0 of warp 1 of row 1: each lane's table entry, as a byte offset into the table.
std::vector<WarpRequest> table_request(Shape, const OpParams& p) {
    WarpRequest r;
    const int distinct = static_cast<int>(p.value("distinct"));
    for (int lane = 0; lane < 32; ++lane)
        r.offsets[static_cast<std::size_t>(lane)] =
            4LL * onchip::table_index(onchip::table_base(1, 32 + lane, distinct), 0);
    return {r};
}

struct SourceText {
    Source source;
    const char* name;
    const char* memory_space;
    const char* kernel;
    const char* description;
};

const SourceText kSources[] = {
    {Source::constant, "constant", space::constant, "constant_read_kernel",
     "The table in __constant__ memory (cudaMemcpyToSymbol): one address per warp is served in a "
     "single pass of the constant cache; n different addresses take n passes (the seed: 25 ns "
     "uniform, 1195 ns with c[threadIdx.x + i])."},
    {Source::global, "global", space::global, "global_read_kernel",
     "The table in global memory read with plain loads: a warp's 32 neighbouring addresses are "
     "one request of 4-5 sectors, so divergence costs little (the seed: 84 ns uniform, 127 ns "
     "divergent)."},
    {Source::ldg, "global-ldg", space::global, "ldg_read_kernel",
     "The table in global memory read through the read-only data cache (__ldg, what const "
     "__restrict__ pointers compile to): the seed's LDU/ld.global rows, 84 and 127 ns."},
};

}  // namespace

void register_constant_read(Registry& registry) {
    const Op op("constant_read");
    for (const SourceText& s : kSources) {
        gpu::DeviceVariantSpec spec;
        spec.id = std::string("constant_read/") + s.name;
        spec.op = op;
        spec.memory_space = s.memory_space;
        spec.description = s.description;
        spec.layout = gpu::Layout::dense;
        spec.kernel = s.kernel;
        if (s.source == Source::constant) spec.constant_access = table_request;
        const Source source = s.source;
        spec.prepare = [source](MatView in, MatView scratch) {
            prepare_table(in, scratch, source);
        };
        registry.add(gpu::make_device_variant(
            std::move(spec),
            [](Shape, const OpParams&) {
                return Shape{1, kTableSize};
            },
            [source](MatView, MatView out, MatView scratch, const OpParams& p, cudaStream_t s) {
                launch_reads(source, out, scratch, p, s);
            }));
    }
}

}  // namespace coalesce
