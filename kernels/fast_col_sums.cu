// column sums, fast: each thread owns a float4 of columns and walks a chunk of rows (a warp reads
// 512 contiguous bytes per row, eight rows per batch as written; ptxas keeps three or four of the
// loads in flight); the warps of a block split the chunk and meet in shared memory. The grid is
// one wave of resident blocks (no tail). Chunks of one column strip meet in a single launch: the
// last block to finish a strip (an acquire-release ticket, no full fence) adds the strip's
// partial sums, its warps each a fixed subset of the chunks in chunk order (four loads in
// flight), then in warp order, so the result does not depend on which block finished last.
// Configurations: shallow (8 warps, 8 loads in flight, 32 registers), deep (16 warps, 16 in
// flight, one block per multiprocessor: about three chunks per strip at 4097x3001 instead of 29),
// deep8 (8 warps, 16 in flight, two blocks per multiprocessor) and wide (deep's loads as two
// float4 per lane and row, strips of 256 columns). And whole: strips narrow enough (24 to 64
// columns) that one wave of blocks sums every strip whole, so no strip has partials or a ticket.
#include "coalesce/cuda_check.hpp"
#include "coalesce/cuda_raii.hpp"
#include "coalesce/kernels.hpp"
#include "col_sums_whole_plan.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <cuda/atomic>

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace coalesce {
namespace {

// Shape of a kernel: warps per block, rows in flight per thread, float4s per lane and row (a
// strip is 128 * Vec columns, 4 fewer when rows start on any phase).
template <int Warps, int Unroll, int Vec = 1>
struct Config {
    static constexpr int kWarps = Warps;
    static constexpr int kThreads = 32 * Warps;
    static constexpr int kUnroll = Unroll;
    static constexpr int kVec = Vec;
};
using Shallow = Config<8, 8>;   // 256 threads, 8 float4 loads in flight (fits 32 registers)
using Deep = Config<16, 16>;    // 512 threads, 16 in flight (96 registers): one block per SM
using Deep8 = Config<8, 16>;    // 256 threads, 16 in flight: two blocks per SM
using Wide = Config<16, 8, 2>;  // Deep's loads as 8 rows of 2 float4: 1 KB pieces, half the strips

// Partials of other blocks are read through L2 (ld.global.cg): L1 is not coherent between blocks.
__device__ __forceinline__ float4 load4_l2(const float* p) {
    return __ldcg(reinterpret_cast<const float4*>(p));
}

// Stores the float4 of columns c .. c + 3 of a row that may end inside it.
__device__ __forceinline__ void store4_upto(float* row, long long c, long long cols, float4 v) {
    if (c + 3 < cols) {
        fast::store4(row + c, v);
    } else {
        if (c < cols) row[c] = v.x;
        if (c + 1 < cols) row[c + 1] = v.y;
        if (c + 2 < cols) row[c + 2] = v.z;
    }
}

// The first of the last rows whose float4 may reach past the end of a dense allocation (the
// shifted path's "tail"): the last row; with one column, every row of the last, partial float4
// (up to three rows, so the kernels' row strides of 8 or more give each thread at most one).
__device__ __forceinline__ unsigned tail_begin(unsigned rows, long long cols) {
    return cols == 1 && rows % 4 > 1 ? rows - rows % 4 : rows - 1;
}

// The first of rows first, first + stride, ... at or past r.
__device__ __forceinline__ unsigned next_in_stride(unsigned first, unsigned r, unsigned stride) {
    return first >= r ? first : first + (r - first + stride - 1) / stride * stride;
}

// The float4 at a, columns c .. c + 3 (c < cols) of a tail row, which may end inside it: only
// the floats before cols are read (past them may lie the end of the allocation).
__device__ __forceinline__ float4 load4_tail_row(const float* a, long long c, long long cols) {
    float4 v = make_float4(a[0], 0, 0, 0);
    if (c + 3 < cols) {
        v = fast::load4(a);
    } else {
        if (c + 1 < cols) v.y = a[1];
        if (c + 2 < cols) v.z = a[2];
    }
    return v;
}

struct ColPlan {
    unsigned strips = 1;             // column strips, one warp wide
    unsigned chunks = 1;             // row chunks per strip
    std::size_t chunk_rows = 0;      // a multiple of kWarps
    int lanes = 32;                  // float4 lanes per strip row (the whole-strip kernel's width)
    int strip_cols = 128;            // 4 x lanes x kVec, 4 fewer when rows start on any phase
    std::size_t partial_stride = 0;  // floats per chunk of partial sums: cols rounded up to 4
    bool shifted = false;            // dense rows with cols % 4 != 0 (see the kernel)
    unsigned blocks = 1;             // the grid: strips x chunks, or the even split's wave
};

// One wave: as many row chunks as fit next to the strips in the blocks the chip holds at once
// (`capacity`), so every block starts at once and none waits for a second wave; chunks are
// multiples of kWarps rows. One chunk (no partials, no ticket) when the strips alone fill the chip.
ColPlan plan_for(Shape s, bool shifted, std::size_t capacity, int kWarps, int kVec) {
    ColPlan p;
    p.shifted = shifted;
    p.strip_cols = 128 * kVec - (shifted ? 4 : 0);
    p.strips = gpu::ceil_div(s.cols, static_cast<std::size_t>(p.strip_cols));
    p.partial_stride = (s.cols + 3) / 4 * 4;
    const std::size_t max_chunks = std::max<std::size_t>(1, (s.rows + kWarps - 1) / kWarps);
    const std::size_t chunks = std::clamp<std::size_t>(capacity / p.strips, 1, max_chunks);
    std::size_t rows = (s.rows + chunks - 1) / chunks;
    rows = (rows + kWarps - 1) / kWarps * kWarps;
    p.chunk_rows = rows;
    p.chunks = gpu::ceil_div(s.rows, rows);
    return p;
}

// Each lane owns a float4 of columns: warp w of a block walks rows r_begin + w, + W, + 2W, ... of
// its chunk (W = kWarps, 8 or 16). Rows W apart start on the same 4-byte phase p (W * cols is a
// multiple of 4), so on a
// dense matrix with cols % 4 != 0 ("shifted") a warp reads every row from the same 16-byte
// boundary, p floats before the strip: lane l's float4 holds columns 4l - p .. 4l - p + 3 of the
// strip in every row, and 32 lanes cover strip columns 0 .. 123 at every phase (strips of 124).
// The warps meet per column, each at its own phase; the float4 of the row's last columns, which
// reaches into the next row, reads only its own floats in the tail rows (tail_begin: the last
// row, or with one column the rows of the last float4; a chunk leaves those it holds to its end).
// Unshifted (16-byte aligned rows), p = 0 and strips are 128 columns. The last row of floats of a
// row that ends inside a float4 is stored float by float. The 4-byte phase of row `row` at the
// strip: how many floats the strip's first column lies past the 16-byte boundary below it (0 when
// rows are 16-byte aligned or the row is past the end).
__device__ __forceinline__ int strip_phase(const MatView& in, long long strip_col, unsigned row,
                                           bool shifted) {
    return shifted && row < in.rows
               ? static_cast<int>(
                     (reinterpret_cast<std::uintptr_t>(gpu::pitched_row(in, row) + strip_col) >>
                      2) &
                     3)
               : 0;
}

// This warp's sum of rows r_begin + warp, + W, + 2W, ... below r_end of the strip at strip_col:
// lane l's float4 j of columns strip_col - p + 128j + 4l .. + 3, where p = strip_phase of those
// rows, in acc[j].
template <class Cfg>
__device__ __forceinline__ void strip_rows_sum(const MatView& in, long long strip_col,
                                               unsigned r_begin, unsigned r_end, bool shifted,
                                               int warp, int lane, int p,
                                               float4 (&acc)[Cfg::kVec]) {
    constexpr int kWarps = Cfg::kWarps, kUnroll = Cfg::kUnroll, kVec = Cfg::kVec;
    const long long cols = static_cast<long long>(in.cols);
    // Row numbers in 32 bits (the variants declare at most 2^32 - 1 rows): fewer registers in the
    // loop, which the 32-register kernel needs.
    const unsigned rows = static_cast<unsigned>(in.rows);
    const unsigned first = r_begin + warp;           // this warp's first row
    const long long col = strip_col - p + 4 * lane;  // column of this lane's float4's first float
#pragma unroll
    for (int j = 0; j < kVec; ++j) acc[j] = make_float4(0, 0, 0, 0);
    if (col >= cols) return;
    bool live[kVec];  // float4 j starts inside the row
#pragma unroll
    for (int j = 0; j < kVec; ++j) live[j] = col + 128 * j < cols;
    const float* base = in.data + col;  // may point p floats before a row: the previous row's
    const auto at = [&](unsigned rr, int j) {
        return reinterpret_cast<const float*>(reinterpret_cast<const char*>(base) +
                                              rr * in.pitch_bytes) +
               128 * j;
    };
    const float4 zero = make_float4(0, 0, 0, 0);
    // Full batches unguarded, so all kUnroll loads are issued before the first add; then one
    // guarded batch (zeros past the chunk change no sum): no serial remainder of full-latency
    // loads. Shifted, the matrix's tail rows come last, on their own (a piece of the even split
    // may end inside the tail, or lie in it whole).
    const unsigned r_stop = shifted ? min(r_end, tail_begin(rows, cols)) : r_end;
    unsigned r = first;
    for (; r + (kUnroll - 1) * kWarps < r_stop; r += kUnroll * kWarps) {
        float4 v[kUnroll][kVec];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k)
#pragma unroll
            for (int j = 0; j < kVec; ++j)
                v[k][j] = j == 0 || live[j] ? fast::load4(at(r + k * kWarps, j)) : zero;
#pragma unroll
        for (int k = 0; k < kUnroll; ++k)
#pragma unroll
            for (int j = 0; j < kVec; ++j) acc[j] = fast::add4(acc[j], v[k][j]);
    }
    if (r < r_stop) {
        float4 v[kUnroll][kVec];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k)
#pragma unroll
            for (int j = 0; j < kVec; ++j)
                v[k][j] = r + k * kWarps < r_stop && (j == 0 || live[j])
                              ? fast::load4(at(r + k * kWarps, j))
                              : zero;
#pragma unroll
        for (int k = 0; k < kUnroll; ++k)
#pragma unroll
            for (int j = 0; j < kVec; ++j) acc[j] = fast::add4(acc[j], v[k][j]);
    }
    const unsigned t = next_in_stride(first, r_stop, kWarps);
    if (t < r_end) {
        // This warp's row in the tail: a float4 past the row's end takes its own floats.
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
            const long long c = col + 128 * j;
            if (c >= cols) break;
            acc[j] = fast::add4(acc[j], load4_tail_row(at(t, j), c, cols));
        }
    }
}

// Warp 0's sum of the warps' float4s per column (fixed order), after a barrier: lane l's float4 j
// is strip columns 128j + 4l .. + 3 (meaningless past the strip's width, which is never stored).
// part[k] is warp k's row of 128 * kVec floats from its 16-byte boundary.
template <class Cfg>
__device__ __forceinline__ float4 merge_warps(const float4 (&part)[Cfg::kWarps][32 * Cfg::kVec],
                                              const int (&phases)[Cfg::kWarps], bool shifted,
                                              int lane, int j) {
    constexpr int kWarps = Cfg::kWarps, kRow = 128 * Cfg::kVec;
    if (!shifted) {
        float4 sum = part[0][32 * j + lane];
#pragma unroll
        for (int k = 1; k < kWarps; ++k) sum = fast::add4(sum, part[k][32 * j + lane]);
        return sum;
    }
    // Column c of warp k's sums is float c + p_k of its row of part.
    const float* f = reinterpret_cast<const float*>(part);
    float s[4];
#pragma unroll
    for (int e = 0; e < 4; ++e) {
        const int i = min(128 * j + 4 * lane + e, kRow - 4 - 1);  // past the strip: never stored
        s[e] = f[i + phases[0]];
#pragma unroll
        for (int k = 1; k < kWarps; ++k) s[e] += f[k * kRow + i + phases[k]];
    }
    return make_float4(s[0], s[1], s[2], s[3]);
}

// Takes the strip's ticket for the partial warp 0 just stored (call from all of warp 0; lane 0's
// answer is true for the block that arrives last). The warp's stores come before lane 0's release
// (the __syncwarp orders them, the release is cumulative); its acquire makes every earlier
// block's partials visible to this block after a __syncthreads. Lighter than a full fence on
// each side.
__device__ __forceinline__ bool take_ticket(unsigned* ticket_word, unsigned arrivals, int lane) {
    __syncwarp();
    if (lane != 0) return false;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> ticket(*ticket_word);
    return ticket.fetch_add(1u, cuda::memory_order_acq_rel) == arrivals - 1;
}

// The last block of a strip: warp k adds partials k, k + W, k + 2W, ... (of n, slot(i) its row of
// floats) in order, four loads in flight, then warp 0 adds the W results in warp order and stores
// (float4 j of lane l: column out_col + 128j, where has_out[j]). The order depends only on n:
// deterministic. Ends on a barrier (part is free again).
template <class Cfg, class Slot>
__device__ __forceinline__ void add_partials(float4 (&part)[Cfg::kWarps][32 * Cfg::kVec],
                                             unsigned n, Slot slot,
                                             const bool (&has_out)[Cfg::kVec], float* out_row,
                                             long long out_col, long long cols, int warp,
                                             int lane) {
    constexpr int kWarps = Cfg::kWarps, kVec = Cfg::kVec;
#pragma unroll
    for (int j = 0; j < kVec; ++j) {
        float4 total = make_float4(0, 0, 0, 0);
        if (has_out[j])
            for (unsigned k = warp; k < n; k += 4 * kWarps) {
                float4 v[4];
#pragma unroll
                for (int i = 0; i < 4; ++i) {
                    const unsigned c = k + i * kWarps;
                    v[i] = c < n ? load4_l2(slot(c) + out_col + 128 * j) : make_float4(0, 0, 0, 0);
                }
#pragma unroll
                for (int i = 0; i < 4; ++i) total = fast::add4(total, v[i]);
            }
        part[warp][32 * j + lane] = total;
    }
    __syncthreads();
    if (warp == 0) {
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
            float4 total = part[0][32 * j + lane];
#pragma unroll
            for (int k = 1; k < kWarps; ++k) total = fast::add4(total, part[k][32 * j + lane]);
            if (has_out[j]) store4_upto(out_row, out_col + 128 * j, cols, total);
        }
    }
    __syncthreads();
}

// One piece of a strip: rows r_begin .. r_end - 1 of the strip `strip`, its partial in row
// `slot` of the partials; the strip's n partials are rows first .. first + n - 1, added by the
// block that takes the strip's ticket last (n == 1: the piece is the whole strip and stores the
// result). Returns on a uniform condition; call __syncthreads before reusing it in the block.
template <class Cfg>
__device__ __forceinline__ void col_sums_piece(const MatView& in, const MatView& out,
                                               float* partials, unsigned* tickets,
                                               const ColPlan& plan, unsigned strip,
                                               unsigned r_begin, unsigned r_end, unsigned first,
                                               unsigned slot, unsigned n) {
    constexpr int kWarps = Cfg::kWarps, kVec = Cfg::kVec;
    __shared__ float4 part[kWarps][32 * kVec];
    __shared__ int phases[kWarps];
    __shared__ bool last;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const long long cols = static_cast<long long>(in.cols);
    const long long strip_col = static_cast<long long>(strip) * plan.strip_cols;
    const int p = strip_phase(in, strip_col, r_begin + warp, plan.shifted);
    if (lane == 0) phases[warp] = p;  // read after the barrier below
    {
        float4 acc[kVec];
        strip_rows_sum<Cfg>(in, strip_col, r_begin, r_end, plan.shifted, warp, lane, p, acc);
#pragma unroll
        for (int j = 0; j < kVec; ++j) part[warp][32 * j + lane] = acc[j];
    }
    __syncthreads();
    // Warp 0 adds the warps' sums and, with several pieces, publishes them and takes the strip's
    // ticket; the other warps wait at the barrier below, since the last block of a strip uses all
    // of them for the final sum.
    const long long out_col = strip_col + 4 * lane;  // + 128j for float4 j
    bool has_out[kVec];  // inside the matrix and the strip (shifted strips end 4 columns early)
#pragma unroll
    for (int j = 0; j < kVec; ++j)
        has_out[j] = out_col + 128 * j < cols && 128 * j + 4 * lane < plan.strip_cols;
    if (warp == 0) {
#pragma unroll
        for (int j = 0; j < kVec; ++j) {
            const float4 sum = merge_warps<Cfg>(part, phases, plan.shifted, lane, j);
            if (!has_out[j]) continue;
            if (n == 1)
                store4_upto(gpu::pitched_row(out, 0), out_col + 128 * j, cols, sum);
            else
                fast::store4(partials + static_cast<std::size_t>(slot) * plan.partial_stride +
                                 out_col + 128 * j,
                             sum);
        }
        if (n > 1) {
            const bool is_last = take_ticket(&tickets[strip], n, lane);
            if (lane == 0) last = is_last;
        }
    }
    if (n == 1) return;  // uniform across the block
    __syncthreads();
    if (!last) return;  // uniform across the block
    add_partials<Cfg>(
        part, n,
        [&](unsigned c) {
            return partials + static_cast<std::size_t>(first + c) * plan.partial_stride;
        },
        has_out, gpu::pitched_row(out, 0), out_col, cols, warp, lane);
    if (threadIdx.x == 0)
        tickets[strip] = 0;  // ready for the next launch (launches on one stream are ordered)
}

// Whole strips cut into plan.chunks chunks of plan.chunk_rows rows: block = chunk * strips + strip.
template <class Cfg>
__device__ __forceinline__ void col_sums_body(MatView in, MatView out, float* partials,
                                              unsigned* tickets, ColPlan plan) {
    const unsigned strip = blockIdx.x % plan.strips, chunk = blockIdx.x / plan.strips;
    const unsigned chunks = gridDim.x / plan.strips;
    const unsigned rows = static_cast<unsigned>(in.rows);
    const unsigned r_begin = chunk * static_cast<unsigned>(plan.chunk_rows);
    const unsigned r_end = min(r_begin + static_cast<unsigned>(plan.chunk_rows), rows);
    col_sums_piece<Cfg>(in, out, partials, tickets, plan, strip, r_begin, r_end, 0, chunk, chunks);
}

// The block holding strip-row x (strips one after another, rows within each) when the
// strips x rows strip-rows are cut into `blocks` equal runs: run b is [b W / B, (b + 1) W / B).
__host__ __device__ __forceinline__ unsigned long long even_block_of(unsigned long long x,
                                                                     unsigned long long total,
                                                                     unsigned long long blocks) {
    return ((x + 1) * blocks - 1) / total;
}

// Equal shares: block b sums strip-rows [b W / B, (b + 1) W / B) of the W = strips x rows, at
// most two pieces (the end of one strip and the start of the next) when a share is shorter than
// a strip. Every block of the wave then ends at the same time, where whole chunks per strip
// leave a third of the chip idle at some widths (4097 columns: 34 strips x 3 chunks = 102 blocks
// on 132 multiprocessors).
template <class Cfg>
__device__ __forceinline__ void col_sums_even_body(MatView in, MatView out, float* partials,
                                                   unsigned* tickets, ColPlan plan) {
    const unsigned long long rows = in.rows, blocks = gridDim.x;
    const unsigned long long total = rows * plan.strips;
    const unsigned long long b = blockIdx.x;
    unsigned long long x = b * total / blocks;
    const unsigned long long x_end = (b + 1) * total / blocks;
    while (x < x_end) {
        const unsigned strip = static_cast<unsigned>(x / rows);
        const unsigned long long strip_end = (strip + 1ull) * rows;
        const unsigned long long piece_end = x_end < strip_end ? x_end : strip_end;
        const unsigned first = static_cast<unsigned>(even_block_of(strip * rows, total, blocks));
        const unsigned last = static_cast<unsigned>(even_block_of(strip_end - 1, total, blocks));
        col_sums_piece<Cfg>(in, out, partials, tickets, plan, strip,
                            static_cast<unsigned>(x - strip * rows),
                            static_cast<unsigned>(piece_end - strip * rows), first,
                            static_cast<unsigned>(b), last - first + 1);
        __syncthreads();  // the shared sums are free for the next piece
        x = piece_end;
    }
}

__global__ void __launch_bounds__(Shallow::kThreads)
    fast_col_sums_kernel(MatView in, MatView out, float* partials, unsigned* tickets,
                         ColPlan plan) {
    col_sums_body<Shallow>(in, out, partials, tickets, plan);
}

// Registers capped at 32: eight blocks per multiprocessor instead of six (a separate kernel, since
// __launch_bounds__(256, 1) is not the same as none to ptxas).
__global__ void __launch_bounds__(Shallow::kThreads, 8)
    fast_col_sums_occ8_kernel(MatView in, MatView out, float* partials, unsigned* tickets,
                              ColPlan plan) {
    col_sums_body<Shallow>(in, out, partials, tickets, plan);
}

// 16 warps, 16 loads in flight per thread: one block per multiprocessor, a third as many chunks.
__global__ void __launch_bounds__(Deep::kThreads, 1)
    fast_col_sums_deep_kernel(MatView in, MatView out, float* partials, unsigned* tickets,
                              ColPlan plan) {
    col_sums_body<Deep>(in, out, partials, tickets, plan);
}

// 8 warps, 16 loads in flight per thread: two blocks per multiprocessor.
__global__ void __launch_bounds__(Deep8::kThreads, 2)
    fast_col_sums_deep8_kernel(MatView in, MatView out, float* partials, unsigned* tickets,
                               ColPlan plan) {
    col_sums_body<Deep8>(in, out, partials, tickets, plan);
}

// Deep with two float4 per lane and row: strips of 252 columns (1 KB per warp and row), half as
// many, so more chunks fill the multiprocessors (17 x 7 = 119 blocks at 4097 columns, not 102).
__global__ void __launch_bounds__(Wide::kThreads, 1)
    fast_col_sums_wide_kernel(MatView in, MatView out, float* partials, unsigned* tickets,
                              ColPlan plan) {
    col_sums_body<Wide>(in, out, partials, tickets, plan);
}

// Deep's shape with equal shares of strip-rows per block (col_sums_even_body).
__global__ void __launch_bounds__(Deep::kThreads, 1)
    fast_col_sums_even_kernel(MatView in, MatView out, float* partials, unsigned* tickets,
                              ColPlan plan) {
    col_sums_even_body<Deep>(in, out, partials, tickets, plan);
}

// Narrow strips, each summed whole by one block (no chunks: no partials, no ticket). A strip is
// L float4 lanes wide and a warp reads G = 32 / L rows of it per load, so a block of 16 warps
// has 64 rows (G = 4) or 32 (G = 2) in each pass and 16 passes in flight, as deep has. Each lane
// group walks rows slot, slot + kRows, ... (slot = its warp's G rows); those rows share a 4-byte
// phase (kRows x cols is a multiple of 4), read from their 16-byte boundary as in
// strip_rows_sum. At the end the block adds its kRows partial rows per column in a fixed order
// (eight groups of kRows / 8, then the eight), each at its own phase.
template <int L>
struct Whole {
    static constexpr int kG = 32 / L;  // rows per warp load
    static constexpr int kWarps = 16;
    static constexpr int kThreads = 32 * kWarps;
    static constexpr int kRows = kWarps * kG;  // rows per pass of the block
    static constexpr int kUnroll = 16;
    static constexpr int kGroups = 8;  // the end's first level: kRows / 8 partials each
};

template <int L>
__global__ void __launch_bounds__(Whole<L>::kThreads, 1)
    fast_col_sums_whole_kernel(MatView in, MatView out, float*, unsigned*, ColPlan plan) {
    using W = Whole<L>;
    constexpr int kRows = W::kRows, kUnroll = W::kUnroll, kGroups = W::kGroups;
    __shared__ __align__(16) float part[kRows][4 * L];  // written as float4
    __shared__ int phases[kRows];
    __shared__ float level[kGroups][4 * L];
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const int g = lane / L, l = lane % L;
    const bool active = g < W::kG;
    const int slot = warp * W::kG + g;
    const long long cols = static_cast<long long>(in.cols);
    const unsigned rows = static_cast<unsigned>(in.rows);
    const long long strip_col = static_cast<long long>(blockIdx.x) * plan.strip_cols;
    const int p =
        active ? strip_phase(in, strip_col, static_cast<unsigned>(slot), plan.shifted) : 0;
    const long long col = strip_col - p + 4 * l;
    float4 acc = make_float4(0, 0, 0, 0);
    if (active && col < cols) {
        const float* base = in.data + col;
        const auto at = [&](unsigned r) {
            return reinterpret_cast<const float*>(reinterpret_cast<const char*>(base) +
                                                  static_cast<std::size_t>(r) * in.pitch_bytes);
        };
        // The matrix's tail rows come last, on their own, where a float4 may reach past its end.
        const unsigned r_stop = plan.shifted ? tail_begin(rows, cols) : rows;
        const float4 zero = make_float4(0, 0, 0, 0);
        unsigned r = static_cast<unsigned>(slot);
        for (; r + (kUnroll - 1) * kRows < r_stop; r += kUnroll * kRows) {
            float4 v[kUnroll];
#pragma unroll
            for (int k = 0; k < kUnroll; ++k) v[k] = fast::load4(at(r + k * kRows));
#pragma unroll
            for (int k = 0; k < kUnroll; ++k) acc = fast::add4(acc, v[k]);
        }
        if (r < r_stop) {
            float4 v[kUnroll];
#pragma unroll
            for (int k = 0; k < kUnroll; ++k)
                v[k] = r + k * kRows < r_stop ? fast::load4(at(r + k * kRows)) : zero;
#pragma unroll
            for (int k = 0; k < kUnroll; ++k) acc = fast::add4(acc, v[k]);
        }
        const unsigned t = next_in_stride(static_cast<unsigned>(slot), r_stop, kRows);
        if (t < rows) acc = fast::add4(acc, load4_tail_row(at(t), col, cols));
    }
    if (active) {
        reinterpret_cast<float4*>(part[slot])[l] = acc;
        if (l == 0) phases[slot] = p;
    }
    __syncthreads();
    // Column c of slot k's sums is float c + phases[k] of its row of part (c + phase < 4L).
    const int t = static_cast<int>(threadIdx.x);
    if (t < kGroups * plan.strip_cols) {
        const int c = t % plan.strip_cols, h = t / plan.strip_cols;
        float sum = 0;
#pragma unroll
        for (int k = 0; k < kRows / kGroups; ++k) {
            const int slot_k = h * (kRows / kGroups) + k;
            sum += part[slot_k][c + phases[slot_k]];
        }
        level[h][c] = sum;
    }
    __syncthreads();
    if (t < plan.strip_cols && strip_col + t < cols) {
        float sum = level[0][t];
#pragma unroll
        for (int h = 1; h < kGroups; ++h) sum += level[h][t];
        gpu::pitched_row(out, 0)[strip_col + t] = sum;
    }
}

using KernelFn = void (*)(MatView, MatView, float*, unsigned*, ColPlan);

KernelFn whole_kernel_of(int lanes) {
    switch (lanes) {
    case 7: return fast_col_sums_whole_kernel<7>;
    case 8: return fast_col_sums_whole_kernel<8>;
    case 12: return fast_col_sums_whole_kernel<12>;
    default: return fast_col_sums_whole_kernel<16>;
    }
}

// One block per strip, of the width col_sums_whole::choose_width takes. One chunk: the instance
// allocates no partials or tickets, and the kernel reads no chunk rows or partial stride.
ColPlan whole_plan(Shape s, bool shifted, std::size_t capacity) {
    const col_sums_whole::Width w = col_sums_whole::choose_width(s.rows, s.cols, shifted, capacity);
    ColPlan p;
    p.shifted = shifted;
    p.lanes = w.lanes;
    p.strip_cols = w.strip_cols;
    p.strips = static_cast<unsigned>(w.strips);
    p.chunks = 1;
    return p;
}

enum class Kernel { shallow, occ8, deep, deep8, wide, even, whole };

KernelFn kernel_of(Kernel k) {
    switch (k) {
    case Kernel::occ8: return fast_col_sums_occ8_kernel;
    case Kernel::deep: return fast_col_sums_deep_kernel;
    case Kernel::deep8: return fast_col_sums_deep8_kernel;
    case Kernel::wide: return fast_col_sums_wide_kernel;
    case Kernel::even: return fast_col_sums_even_kernel;
    case Kernel::whole: return whole_kernel_of(16);  // every width has the same bounds
    default: return fast_col_sums_kernel;
    }
}

int warps_of(Kernel k) {
    return k == Kernel::deep || k == Kernel::wide || k == Kernel::even || k == Kernel::whole
               ? Deep::kWarps
               : Shallow::kWarps;
}

int vec_of(Kernel k) { return k == Kernel::wide ? Wide::kVec : 1; }

// One kernel per variant, at any width and layout.
template <Kernel K>
class FastColSumsInstance final : public Instance {
public:
    FastColSumsInstance(Shape shape, DeviceMatrix::Layout layout)
        : shape_(shape), layout_(layout) {}

    void upload(const Matrix& input) override {
        if (input.shape() != shape_)
            throw std::invalid_argument("upload: input shape differs from the instance's shape");
        in_ = DeviceMatrix(shape_, layout_);
        out_ = DeviceMatrix(output_shape(Op::col_sums, shape_), layout_);
        in_.upload(input);
        int device = 0, sms = 0, per_sm = 0;
        COALESCE_CUDA(cudaGetDevice(&device));
        COALESCE_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        const bool shifted = !fast::rows_are_16b_aligned(in_.view());
        COALESCE_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_of(K),
                                                                    32 * warps_of(K), 0));
        const auto capacity = static_cast<std::size_t>(std::max(1, sms * per_sm));
        plan_ = K == Kernel::whole ? whole_plan(shape_, shifted, capacity)
                                   : plan_for(shape_, shifted, capacity, warps_of(K), vec_of(K));
        plan_.blocks = plan_.strips * plan_.chunks;
        if (K == Kernel::even)  // one wave, a block per share, at most a share per strip-row
            plan_.blocks =
                static_cast<unsigned>(std::min<std::size_t>(capacity, plan_.strips * shape_.rows));
        const std::size_t partial_rows = K == Kernel::even ? plan_.blocks : plan_.chunks;
        if (partial_rows > 1) {
            partials_ = DeviceBuffer(partial_rows * plan_.partial_stride * sizeof(float));
            tickets_ = DeviceBuffer(plan_.strips * sizeof(unsigned));
            COALESCE_CUDA(cudaMemset(tickets_.get(), 0, tickets_.bytes()));
        }
        COALESCE_CUDA(
            cudaDeviceSynchronize());  // the runner's stream does not wait for the default stream
    }

    void poison() override {
        out_.fill_nan();
        COALESCE_CUDA(cudaDeviceSynchronize());
    }

    void launch(cudaStream_t stream) override {
        auto* partials = static_cast<float*>(partials_.get());
        auto* tickets = static_cast<unsigned*>(tickets_.get());
        const KernelFn kernel = K == Kernel::whole ? whole_kernel_of(plan_.lanes) : kernel_of(K);
        kernel<<<plan_.blocks, 32 * warps_of(K), 0, stream>>>(in_.view(), out_.view(), partials,
                                                              tickets, plan_);
        COALESCE_CHECK_LAUNCH("fast_col_sums_kernel");
    }

    Matrix download() override {
        COALESCE_CUDA(cudaDeviceSynchronize());
        return out_.download();
    }

private:
    Shape shape_;
    DeviceMatrix::Layout layout_;
    DeviceMatrix in_, out_;
    DeviceBuffer partials_, tickets_;
    ColPlan plan_;
};

template <Kernel K, DeviceMatrix::Layout Layout = DeviceMatrix::Layout::dense>
Variant make_col_sums_variant(const char* id, const char* description, const char* kernel,
                              Tier tier = Tier::tuned) {
    Variant v;
    v.info.id = id;
    v.info.op = Op::col_sums;
    v.info.memory_space = Layout == DeviceMatrix::Layout::pitched ? space::pitched : space::global;
    v.info.description = description;
    v.info.gpu = true;
    v.info.tier = tier;
    v.info.limits.max_rows = 0xffffffffu;  // 32-bit row numbers in the kernel
    v.info.kernel = kernel;
    v.make = [](Shape input, const OpParams&) -> std::unique_ptr<Instance> {
        return std::make_unique<FastColSumsInstance<K>>(input, Layout);
    };
    return fast::refusing_unsupported(std::move(v));
}

}  // namespace

void register_fast_col_sums(Registry& registry) {
    registry.add(make_col_sums_variant<Kernel::shallow>(
        "col_sums/fast-strip-float4",
        "a thread per float4 of columns walks a chunk of rows, 8 loads in flight; warps meet in "
        "shared memory, chunks in one launch through a last-block ticket (deterministic order, all "
        "eight warps of the last block add the partials); rows that do not start on 16 bytes are "
        "read from their 16-byte boundary, each warp at its rows' phase, in the same kernel",
        "fast_col_sums_kernel"));
    registry.add(make_col_sums_variant<Kernel::occ8>(
        "col_sums/fast-strip-occ8",
        "col_sums/fast-strip-float4 with registers capped at 32 (no spill): eight blocks per "
        "multiprocessor instead of six, a wave of 1056 blocks",
        "fast_col_sums_occ8_kernel"));
    registry.add(make_col_sums_variant<Kernel::deep>(
        "col_sums/fast-strip-deep",
        "col_sums/fast-strip-float4 with 16 warps per block and 16 float4 loads in flight per "
        "thread (96 registers, one block per multiprocessor): about three chunks per strip at "
        "4097x3001 instead of 29, so the last block of a strip adds three partials",
        "fast_col_sums_deep_kernel"));
    registry.add(make_col_sums_variant<Kernel::deep8>(
        "col_sums/fast-strip-deep8",
        "col_sums/fast-strip-deep with 8 warps per block, two blocks per multiprocessor (7 chunks "
        "per strip at 4097x3001); in a standalone H100 trial it and deep traded places within "
        "noise, both ahead of occ8",
        "fast_col_sums_deep8_kernel"));
    registry.add(make_col_sums_variant<Kernel::wide>(
        "col_sums/fast-strip-wide",
        "col_sums/fast-strip-deep with two float4 per lane and row: strips of 256 columns (252 "
        "when rows start on any phase), 1 KB contiguous per warp and row, half as many strips, so "
        "more chunks fill the multiprocessors (119 blocks at 4097 columns where deep has 102). "
        "Lost "
        "to col_sums/fast-strip-deep at 4097x3001 in every round of a standalone H100 trial (about "
        "1.14x row-sums time against 1.10x)",
        "fast_col_sums_wide_kernel", Tier::experiment));
    registry.add(make_col_sums_variant<Kernel::even>(
        "col_sums/fast-strip-even",
        "col_sums/fast-strip-deep with the work cut into equal shares instead of whole chunks: "
        "one wave of a block per multiprocessor, each summing the same number of strip-rows (at "
        "most two pieces, the end of one strip and the start of the next), the pieces of a strip "
        "met through its last-block ticket; at 4097x3001 deep's 34 strips x 3 chunks leave 30 of "
        "132 multiprocessors idle. Lost to col_sums/fast-strip-deep on an H200: 91.4% of copy at "
        "4097x3001 against 106.4 (and 98.5 against 100.6 at 8192x8192): the shares start on "
        "scattered rows, where deep's chunks keep neighbouring blocks on the same rows",
        "fast_col_sums_even_kernel", Tier::experiment));
    registry.add(make_col_sums_variant<Kernel::whole>(
        "col_sums/fast-strip-whole",
        "narrow strips (24 to 64 columns, as many as fill the chip in one wave), each summed whole "
        "by one block of 16 warps, a warp reading 2 or 4 rows of its strip per load, 16 loads in "
        "flight; no chunks, so no partials through L2 and no ticket: the block adds its rows' "
        "sums in shared memory in a fixed order and stores. H100, % of copy, three rounds against "
        "col_sums/fast-strip-deep: 4097x3001 92.2-92.5 (88.6-89.3; 126 strips of 24 columns "
        "where deep has 25 x 5 chunks), 3001x4097 93.9-94.9 (89.6-91.0), 8192x8192 99.8-99.9 "
        "(98.5), 6000x8000 98.0-98.8 (95.7-96.0); at 8000x6000 deep8 stays ahead (93.9-94.2 "
        "against 93.2-93.3)",
        "fast_col_sums_whole_kernel"));
    registry.add(make_col_sums_variant<Kernel::shallow, DeviceMatrix::Layout::pitched>(
        "col_sums/fast-strip-pitched",
        "col_sums/fast-strip-float4 on cudaMallocPitch rows: every row starts on a 512-byte "
        "boundary (dense 6000-column rows start 64 bytes into a 128-byte line on every other row)",
        "fast_col_sums_kernel"));
}

}  // namespace coalesce
