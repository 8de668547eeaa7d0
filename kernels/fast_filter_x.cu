// filter X, fast: a block stages row segments of up to 4096 columns (plus a halo rounded up to 4)
// in shared memory; every thread has four coalesced float4 loads in flight (plus one float4 of the
// halo for the first r/2 threads) before its first shared-memory store. Each thread then computes
// 16 consecutive outputs (fast_window.cuh), parks them in shared memory, and after a second
// barrier the block writes the segment back with coalesced float4 stores: a thread writing its
// own 16 outputs as four float4 would leave lanes 64 bytes apart, half a sector per lane per
// instruction. Positions outside the row are filled in through the border rule after the staging,
// in the blocks at a row's ends only; the interior never sees it.
// Threads 16 elements apart would read one bank 16 at a time (stride 16 words): the shared lines
// skip one word after every 32, which spreads a warp's accesses over (nearly) all 32 banks.
// Odd widths (dense rows with cols % 4 != 0 start on every 4-byte phase) take aligned float4 too:
// each row stages its line from the 16-byte boundary at or before its segment (phase phi back,
// one more float4 of right halo), so the windows start phi positions later; the write-back starts
// its float4 at the output row's first 16-byte boundary and peels the head and tail as scalars.
// (They used to fall back to scalar loads and stores: on an H100, 58.8 us and 2.5x the L2 write
// bytes at 4097x3001 against 37.5 us at 4096x3000.) Rows that all start on 16 bytes run the
// instance with phase 0 compiled in (AnyPhase false): no phase arithmetic where it cannot help.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_border.cuh"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"
#include "fast_window.cuh"

#include <cstdint>

namespace coalesce {
namespace {

constexpr int kThreads = 256;
constexpr int kPer = 16;  // outputs (and staged inputs) per thread

struct XPlan {
    int tx = 256;        // threads along a row segment (power of two, 32..256)
    int seg = 4096;      // columns per segment: tx * 16
    int ty = 1;          // row segments per block
    int halo = 0;        // radius rounded up to 4 [elements]
    int line = 0;        // tx * 16 + 2 * halo (+ 4 at a phase: it starts phi early) [elements]
    int padded = 0;      // line + line / 32 + 1: the line's length in shared memory [floats]
    int out_padded = 0;  // tx * 16 + tx / 2 + 1: one row's outputs in shared memory [floats]
    int chunks = 0;      // long windows: sums of 16 staged values per row (0: windows summed whole)
    unsigned gx = 1, gy = 1;
};

// The widest segment that wastes little of its last block (6000 columns: 3 x 2048, not 2 x 4096).
// any_phase: rows may start off 16 bytes, so a line holds up to 4 more staged values.
XPlan plan_for(const MatView& in, int radius, bool any_phase = false, bool prefix = false) {
    XPlan p;
    int best = 32;
    double best_use = 0;
    for (int tx = kThreads; tx >= 32; tx /= 2) {
        const std::size_t w = static_cast<std::size_t>(tx) * kPer;
        const double use =
            static_cast<double>(in.cols) / static_cast<double>(gpu::ceil_div(in.cols, w) * w);
        if (use >= 0.9) {
            best = tx;
            break;
        }
        if (use > best_use + 1e-9) {
            best_use = use;
            best = tx;
        }
    }
    // At a phase the right halo takes one more float4: one per thread needs 2 * halo / 4 + 1
    // threads (33 for r > 60, so 64 threads per segment there).
    if (any_phase && 2 * ((radius + 3) / 4) + 1 > best) best *= 2;
    p.tx = best;
    p.seg = p.tx * kPer;
    p.ty = kThreads / p.tx;
    p.halo = (radius + 3) / 4 * 4;
    p.line = p.tx * kPer + 2 * p.halo + (any_phase ? 4 : 0);
    p.padded = p.line + p.line / 32 + 1;
    p.out_padded = p.tx * kPer + p.tx * kPer / 32 + 1;
    // Chunked middles pay once a thread's common middle holds two whole chunks (r >= 23).
    const int whole = (2 * radius - kPer + 2) / kPer;
    p.chunks = whole >= 2 && !prefix ? p.tx + whole - 1 : 0;
    p.gx = gpu::ceil_div(in.cols, static_cast<std::size_t>(p.seg));
    p.gy = gpu::ceil_div(in.rows, p.ty);
    return p;
}

// Shared-memory position of element i of a staged line: one skipped word per 32.
__device__ __forceinline__ int padded_index(int i) { return i + (i >> 5); }

// Four words at line position pos (a multiple of 4: the group never straddles a skipped word).
__device__ __forceinline__ void stage4(float* line, int pos, float4 v) {
    float* d = line + padded_index(pos);
    d[0] = v.x;
    d[1] = v.y;
    d[2] = v.z;
    d[3] = v.w;
}

// Elements x .. x+3 of a row, zeros for those outside [0, cols): the border rule fills those in
// after the staging (fill_border); here it would cost registers in every block.
__device__ __forceinline__ float4 load4_guarded(const float* row, long long x, long long cols) {
    float e[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) e[k] = x + k >= 0 && x + k < cols ? row[x + k] : 0.0f;
    return make_float4(e[0], e[1], e[2], e[3]);
}

// How far (in floats, 0..3) p lies past the 16-byte boundary below it; 0 compiled in where every
// row starts on 16 bytes (AnyPhase false).
template <bool AnyPhase>
__device__ __forceinline__ int phase_of(const float* p) {
    if constexpr (!AnyPhase) return 0;
    return fast::floats_past_boundary<16>(p);
}

// Elements x .. x+3 (x on a 16-byte boundary of the row): one aligned float4 when all four lie in
// the row, single floats (zeros outside the row) otherwise. Body float4 can start before column 0
// only at some phase (column -phi of the first segment), so aligned rows skip that test.
template <bool AnyPhase, bool MayStartLeft>
__device__ __forceinline__ float4 load4_staged(const float* row, long long x, long long cols) {
    const bool inside = (!(AnyPhase || MayStartLeft) || x >= 0) && x + 4 <= cols;
    return inside ? fast::load4(row + x) : load4_guarded(row, x, cols);
}

// The staged positions of a row whose columns lie outside [0, cols), through the border rule:
// before column 0, and past the row's end as far as a window of an output in the row reaches.
// first_col: the column at line position 0; staged: the positions the loads filled.
__device__ __forceinline__ void fill_border(float* line, const float* row, long long first_col,
                                            int staged, long long cols, int halo, Border border,
                                            int t, int threads) {
    const int left_end =
        static_cast<int>(min(static_cast<long long>(staged), max(0LL, -first_col)));
    for (int i = t; i < left_end; i += threads) {
        const long long j = gpu::border_index_near(first_col + i, cols, border);
        line[padded_index(i)] = j < 0 ? 0.0f : row[j];
    }
    const long long reach = min(first_col + staged, cols + halo + 4);  // columns past the end
    for (long long c = max(cols, first_col) + t; c < reach; c += threads) {
        const long long j = gpu::border_index_near(c, cols, border);
        line[padded_index(static_cast<int>(c - first_col))] = j < 0 ? 0.0f : row[j];
    }
}

// Line position of halo float4 k: k < halo4 on the left, the rest (halo4, or halo4 + 1 when the
// line starts phi > 0 early) after the segment's body.
__device__ __forceinline__ int halo_pos(int k, int halo4, int halo, int width) {
    return k < halo4 ? 4 * k : halo + width + 4 * (k - halo4);
}

// Registers capped at 48 (launch bounds 256, 5) so a fifth block, a fifth more loads in flight,
// fits beside the four the compiler's 57 registers allow (at the price of 8 bytes of spill the
// compiler reports on the long-window path of the aligned instance).
// Line position i holds column c0 - halo - phi + i (phi: the input row's phase), so every global
// load is an aligned float4; the outputs are parked by column - c0 whatever the phases.
//
// Prefix: the outputs' window sums as prefix sums instead (filter_x/fast-seg4096-prefix): thread
// t's 16 outputs are the window sum before them plus the running sum of d(x) = in(x + r) -
// in(x - r - 1), in double (as filter_y/fast-walk-prefix, fast_filter_y_walk_prefix.cu), and the
// sums before each thread come from a scan of the threads' totals over the row segment plus the
// segment's first window, summed by its first warp. Two shared loads per output at every radius.
template <bool AnyPhase, bool Prefix = false>
__global__ void __launch_bounds__(kThreads, Prefix ? 3 : 5)
    fast_filter_x_kernel(MatView in, MatView out, int radius, Border border, float inv,
                         XPlan plan) {
    extern __shared__ float sh[];
    unsigned bx, by;
    gpu::block_xy(plan.gx, bx, by);
    const long long cols = static_cast<long long>(in.cols);
    const int width = plan.tx * kPer;  // this block's columns per row
    const long long c0 = static_cast<long long>(bx) * width;
    const int tx = threadIdx.x % plan.tx, ty = threadIdx.x / plan.tx;
    const std::size_t row = static_cast<std::size_t>(by) * plan.ty + ty;
    float* line = sh + ty * plan.padded;
    float* outs = sh + plan.ty * plan.padded + ty * plan.out_padded;
    float* chunk = sh + plan.ty * (plan.padded + plan.out_padded) + ty * plan.chunks;
    const int stride4 = 4 * plan.tx;  // a row segment's threads cover it in 4 coalesced passes

    if (row < in.rows) {
        const float* p = gpu::pitched_row(in, row);
        const int phi = phase_of<AnyPhase>(p);
        const long long xs = c0 - phi;  // the column at line position halo: on 16 bytes
        // Loads first (five independent 16-byte loads in flight), shared-memory stores after.
        float4 v[4];
#pragma unroll
        for (int m = 0; m < 4; ++m)
            v[m] = load4_staged<AnyPhase, false>(p, xs + 4 * tx + stride4 * m, cols);
        const int halo4 = plan.halo / 4;  // float4 on the left (and right, + 1 at a phase)
        const int nh = 2 * halo4 + (AnyPhase && phi > 0 ? 1 : 0);
        int hpos = -1;
        float4 h = make_float4(0, 0, 0, 0);
        if (tx < nh) {
            hpos = halo_pos(tx, halo4, plan.halo, width);
            h = load4_staged<AnyPhase, true>(p, xs - plan.halo + hpos, cols);
        }
#pragma unroll
        for (int m = 0; m < 4; ++m) stage4(line, plan.halo + 4 * tx + stride4 * m, v[m]);
        if (hpos >= 0) stage4(line, hpos, h);
    }
    __syncthreads();
    // Segments at a row's ends (block-uniform: every row of a block shares c0; 3 covers any phase).
    if (c0 - plan.halo - 3 < 0 || c0 + width + plan.halo + 4 > cols) {
        if (row < in.rows) {
            const float* p = gpu::pitched_row(in, row);
            const int phi = phase_of<AnyPhase>(p);
            fill_border(line, p, c0 - plan.halo - phi,
                        width + 2 * plan.halo + (AnyPhase && phi > 0 ? 4 : 0), cols, plan.halo,
                        border, tx, plan.tx);
        }
        __syncthreads();
    }

    // The phase again rather than kept across the loads: kept, it cost 20 bytes of spill.
    const int phi = phase_of<AnyPhase>(gpu::pitched_row(in, row));
    const int base = tx * kPer + plan.halo + phi - radius;  // line position of output 0's first tap
    if (plan.chunks > 0) {
        // Chunk k sums line[g + 16k .. g + 16k + 15], g = the middle's start for thread 0, so
        // thread t's middle starts with chunk t. Threads 16 words apart: conflict-free (padding).
        const int g = plan.halo + phi - radius + kPer - 1;
        for (int k = tx; k < plan.chunks && row < in.rows; k += plan.tx)
            chunk[k] = fast::chunk_sum<float, kPer>(
                [line, g, k](int j) { return line[padded_index(g + kPer * k + j)]; });
        __syncthreads();
    }
    const long long x = c0 + static_cast<long long>(tx) * kPer;  // this thread's first output
    if constexpr (Prefix) {
        // Every thread of the block takes part (the scan's shuffles and barrier); a warp never
        // spans two rows (tx >= 32). Positions a thread past the row's end reads hold zeros or
        // border values: finite, and its outputs are not written.
        __shared__ double warp_total[kThreads / 32];
        __shared__ double first_window[kThreads / 32];  // per row of the block
        const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
        const auto at = [line](int j) { return static_cast<double>(line[padded_index(j)]); };
        const int span = 2 * radius + 1;
        double pre[kPer];
        double run = 0.0;
#pragma unroll
        for (int k = 0; k < kPer; ++k) {
            if (tx > 0 || k > 0) run += at(base + k + span - 1) - at(base + k - 1);
            pre[k] = run;
        }
        if (tx < 32) {  // the row's first warp: the window of its output 0, lane-strided
            double w = 0.0;
            for (int j = lane; j < span; j += 32) w += at(plan.halo + phi - radius + j);
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) w += __shfl_xor_sync(0xffffffffu, w, o);
            if (lane == 0) first_window[ty] = w;
        }
        double scan = run;  // inclusive scan of the totals within the warp
#pragma unroll
        for (int o = 1; o < 32; o <<= 1) {
            const double u = __shfl_up_sync(0xffffffffu, scan, o);
            if (lane >= o) scan += u;
        }
        if (lane == 31) warp_total[warp] = scan;
        __syncthreads();
        double before = first_window[ty];
        for (int w = ty * plan.tx / 32; w < warp; ++w) before += warp_total[w];
        before += scan - run;
        if (row < in.rows && x < cols) {
            const double dinv = 1.0 / span;
            const double before_mean = before * dinv;
            const int first = tx * kPer;
#pragma unroll
            for (int k = 0; k < kPer; ++k)
                outs[padded_index(first + k)] = static_cast<float>(fma(pre[k], dinv, before_mean));
        }
    } else if (row < in.rows && x < cols) {
        const int first = tx * kPer;
        if (plan.chunks > 0) {
            fast::window_means_chunked<float, kPer>(
                radius, inv, [line, base](int j) { return line[padded_index(base + j)]; },
                [chunk, tx](int i) { return chunk[tx + i]; },
                [outs, first](int k, float s) { outs[padded_index(first + k)] = s; });
        } else if (2 * radius >= kPer - 1) {
            fast::window_means<float, kPer>(
                radius, inv, [line, base](int j) { return line[padded_index(base + j)]; },
                [outs, first](int k, float s) { outs[padded_index(first + k)] = s; });
        } else {
            // Short windows: two groups of 8 share their middles better than one of 16.
            fast::window_means<float, 8>(
                radius, inv, [line, base](int j) { return line[padded_index(base + j)]; },
                [outs, first](int k, float s) { outs[padded_index(first + k)] = s; });
            fast::window_means<float, 8>(
                radius, inv, [line, base](int j) { return line[padded_index(base + 8 + j)]; },
                [outs, first](int k, float s) { outs[padded_index(first + 8 + k)] = s; });
        }
    }
    __syncthreads();
    if (row >= in.rows) return;
    float* o = gpu::pitched_row(out, row);
    if constexpr (!AnyPhase) {
#pragma unroll
        for (int m = 0; m < 4; ++m) {
            const int pos = 4 * tx + stride4 * m;
            const long long xo = c0 + pos;
            const float* s = outs + padded_index(pos);
            if (xo + 4 <= cols) {
                fast::store4(o + xo, make_float4(s[0], s[1], s[2], s[3]));
            } else {
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    if (xo + e < cols) o[xo + e] = s[e];
            }
        }
    } else {
        // float4 from the output row's first 16-byte boundary at or after c0 (head columns on):
        // the head columns are scalars, and so is what of the last float4 passes the segment or
        // row. A group of four may straddle a skipped word of outs: each element finds its own.
        const int head = (4 - phase_of<true>(o)) & 3;
        const long long end = c0 + width < cols ? c0 + width : cols;
#pragma unroll
        for (int m = 0; m < 4; ++m) {
            const int pos = head + 4 * tx + stride4 * m;
            const long long xo = c0 + pos;
            if (xo + 4 <= end) {
                fast::store4(o + xo,
                             make_float4(outs[padded_index(pos)], outs[padded_index(pos + 1)],
                                         outs[padded_index(pos + 2)], outs[padded_index(pos + 3)]));
            } else {
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    if (xo + e < end) o[xo + e] = outs[padded_index(pos + e)];
            }
        }
        if (tx < head && c0 + tx < end) o[c0 + tx] = outs[padded_index(tx)];
    }
}

// The radius compiled in (1..8): the same staging (four float4 loads plus a halo float4 in flight
// per thread), but into an unpadded line with 16-byte stores, one barrier, and then each thread
// computes four consecutive outputs at a time from 1 + 2 * halo / 4 aligned float4 shared loads
// (consecutive lanes, consecutive float4: conflict-free) with the window in registers
// (fast::window4), storing them straight to global memory as one float4 (a warp writes 512
// contiguous bytes). No second trip through shared memory, no padded index arithmetic: a third of
// the instructions of the kernel above (Nsight Compute put that one at two thirds of the issue
// slots). (kThreads, 6): 40 registers without a spill, six blocks per multiprocessor.
//
// AnyPhase (dense rows whose width is not a multiple of 4 start on every 4-byte phase phi): the
// kernel works in the row's aligned coordinates a = column + phi, so its loads and stores are
// still aligned float4 (input and output rows share their phase). The positions a < phi and
// a >= phi + cols are not the row's: loads there read the neighbouring rows' bytes (the last
// float4 of a row element by element, so nothing past the allocation), the border rule
// overwrites them in the line, and the stores there are element by element within the row.
// H200, clamp, % of copy, dense: 4097x3001 r = 1 / 4 / 8 94.7 / 94.9 / 90.0 (occ5, which stages
// through padded lines and parks its outputs, 75.8 / 85.2 / 85.8), 3001x4097 95.4 / 96.1 / 89.8,
// 8000x6001 93.7 / 94.3 / 89.5; rows on 16 bytes unchanged (8192x8192 96.3-96.8).
template <int R, int MinBlocks, bool AnyPhase = false>
__global__ void __launch_bounds__(kThreads, MinBlocks)
    fast_filter_x_quad_kernel(MatView in, MatView out, Border border, float inv, XPlan plan) {
    constexpr int H = (R + 3) / 4 * 4;
    extern __shared__ float4 sh4[];
    unsigned bx, by;
    gpu::block_xy(plan.gx, bx, by);
    const long long cols = static_cast<long long>(in.cols);
    const int width = plan.tx * kPer;
    const long long c0 = static_cast<long long>(bx) * width;  // aligned coordinate
    const int tx = threadIdx.x % plan.tx, ty = threadIdx.x / plan.tx;
    const std::size_t row = static_cast<std::size_t>(by) * plan.ty + ty;
    float* line = reinterpret_cast<float*>(sh4) + ty * (width + 2 * H);  // line[i]: a = c0 - H + i
    const int stride4 = 4 * plan.tx;
    const float4 zero = make_float4(0, 0, 0, 0);
    // The row in aligned coordinates: p[a] is column a - phi, for a in [phi, end).
    const float* row_in = gpu::pitched_row(in, row < in.rows ? row : 0);
    const int phi = phase_of<AnyPhase>(row_in);
    const float* p = row_in - phi;
    const long long end = cols + phi;
    if (row < in.rows) {
        // Plain loads only (zeros past the row's ends): border arithmetic here, unrolled five
        // times, cost registers and spills; the few positions outside the row are fixed up below.
        float4 v[4];
#pragma unroll
        for (int m = 0; m < 4; ++m) {
            const long long x = c0 + 4 * tx + stride4 * m;
            v[m] = x + 4 <= end ? fast::load4(p + x) : AnyPhase ? load4_guarded(p, x, end) : zero;
        }
        int hpos = -1;
        float4 h = zero;
        if (tx < 2 * (H / 4)) {
            hpos = tx < H / 4 ? 4 * tx : H + width + 4 * (tx - H / 4);
            const long long hx = c0 - H + hpos;
            if (hx >= 0 && hx + 4 <= end)
                h = fast::load4(p + hx);
            else if (AnyPhase && hx >= 0)
                h = load4_guarded(p, hx, end);
        }
#pragma unroll
        for (int m = 0; m < 4; ++m)
            *reinterpret_cast<float4*>(line + H + 4 * tx + stride4 * m) = v[m];
        if (hpos >= 0) *reinterpret_cast<float4*>(line + hpos) = h;
    }
    __syncthreads();
    // A segment at either end of its row: the positions before column 0 or past the last column
    // get their values through border_index() (block-uniform branch: every row of a block shares
    // c0; phi is at most 3).
    if (c0 == 0 || c0 + width + H + (AnyPhase ? 3 : 0) > cols) {
        if (row < in.rows) {
            if constexpr (AnyPhase) {
                for (int i = tx; i < width + 2 * H; i += plan.tx) {
                    const long long col = c0 - H + i - phi;
                    if (col >= 0 && col < cols) continue;
                    const long long j = gpu::border_index_near(col, cols, border);
                    line[i] = j < 0 ? 0.0f : row_in[j];
                }
            } else if (tx < 2 * H) {
                const int pos = tx < H ? tx : static_cast<int>(cols - c0) + H + (tx - H);
                if ((tx < H ? c0 == 0 : true) && pos < width + 2 * H) {
                    const long long j = gpu::border_index_near(c0 - H + pos, cols, border);
                    line[pos] = j < 0 ? 0.0f : row_in[j];
                }
            }
        }
        __syncthreads();
    }
    if (row >= in.rows) return;
    float* o = gpu::pitched_row(out, row) - phi + c0;  // o[4q + k]: a = c0 + 4q + k
    // Not unrolled: unrolled, ptxas hoists all four groups' shared loads (48 registers of window).
#pragma unroll 1
    for (int m = 0; m < 4; ++m) {
        const int q = tx + plan.tx * m;  // this thread's m-th float4 of outputs
        const long long a = c0 + 4 * q;
        if (a >= end) break;
        const float4 w = fast::window4_from_line<R, H>(line, q, inv);
        if (!AnyPhase || (a >= phi && a + 4 <= end)) {
            fast::store4(o + 4 * q, w);  // without a phase, a float4 is wholly in or out
        } else {
            const float e[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
            for (int k = 0; k < 4; ++k)
                if (a + k >= phi && a + k < end) o[4 * q + k] = e[k];
        }
    }
}

constexpr int kMaxQuadRadius = 8;

// Rows on 16 bytes run the aligned instance; dense rows of any width the AnyPhase one, which needs
// the input's and the output's rows to share their phase (they do for two dense matrices of one
// shape).
void launch_fast_filter_x_quad(MatView in, MatView out, const OpParams& params,
                               cudaStream_t stream) {
    const auto phase = [](const void* d) { return reinterpret_cast<std::uintptr_t>(d) & 15; };
    const bool aligned =
        fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out) && in.cols % 4 == 0;
    if (!aligned && (phase(in.data) != phase(out.data) ||
                     in.pitch_bytes % 16 != out.pitch_bytes % 16 || in.pitch_bytes % 4 != 0))
        throw Unsupported("filter_x/fast-seg4096-quad needs input and output rows on one phase");
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const bool launched = fast::with_compiled_radius<kMaxQuadRadius>(params.radius, [&](auto r) {
        constexpr int R = decltype(r)::value;
        XPlan plan = plan_for(in, R);
        if (!aligned)  // the aligned coordinates reach 3 past the last column
            plan.gx = gpu::ceil_div(in.cols + 3, static_cast<std::size_t>(plan.seg));
        const std::size_t smem = static_cast<std::size_t>(plan.ty) *
                                 (plan.tx * kPer + 2 * ((R + 3) / 4 * 4)) * sizeof(float);
        if (aligned)
            fast_filter_x_quad_kernel<R, 6, false>
                <<<plan.gx * plan.gy, kThreads, smem, stream>>>(in, out, params.border, inv, plan);
        else
            fast_filter_x_quad_kernel<R, 5, true>  // 48 registers: 40 spilled
                <<<plan.gx * plan.gy, kThreads, smem, stream>>>(in, out, params.border, inv, plan);
        COALESCE_CHECK_LAUNCH("fast_filter_x_quad_kernel");
    });
    if (!launched) throw Unsupported("filter_x/fast-seg4096-quad has radii 1..8 compiled in");
}

template <bool Prefix>
void launch_filter_x(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    const bool any_phase = !(fast::rows_are_16b_aligned(in) && fast::rows_are_16b_aligned(out));
    const XPlan plan = plan_for(in, params.radius, any_phase, Prefix);
    const float inv = static_cast<float>(1.0 / (2 * params.radius + 1));
    const std::size_t smem = static_cast<std::size_t>(plan.ty) *
                             (plan.padded + plan.out_padded + plan.chunks) *
                             sizeof(float);  // <= 39 KiB
    if (any_phase)
        fast_filter_x_kernel<true, Prefix><<<plan.gx * plan.gy, kThreads, smem, stream>>>(
            in, out, params.radius, params.border, inv, plan);
    else
        fast_filter_x_kernel<false, Prefix><<<plan.gx * plan.gy, kThreads, smem, stream>>>(
            in, out, params.radius, params.border, inv, plan);
    COALESCE_CHECK_LAUNCH("fast_filter_x_kernel");
}

void launch_fast_filter_x(MatView in, MatView out, const OpParams& params, cudaStream_t stream) {
    launch_filter_x<false>(in, out, params, stream);
}

void launch_fast_filter_x_prefix(MatView in, MatView out, const OpParams& params,
                                 cudaStream_t stream) {
    launch_filter_x<true>(in, out, params, stream);
}

}  // namespace

void register_fast_filter_x(Registry& registry) {
    const Limits quad_limits{.min_radius = 1, .max_radius = kMaxQuadRadius};
    registry.add(fast::device_variant(
        {"filter_x/fast-seg4096-occ5",
         Op::filter_x,
         space::shared,
         "row segments of up to 4096 columns staged with coalesced float4 loads (4 + halo in "
         "flight per thread), 16 outputs per thread sharing the windows' middle, written back "
         "through shared memory as coalesced float4 stores; borders filled in after the staging; "
         "at odd widths (rows off 16 bytes) aligned float4 both ways, the head and tail "
         "peeled; registers capped at 48 (launch bounds) so five blocks fit per multiprocessor",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_filter_x_kernel",
         {}},
        launch_fast_filter_x));
    registry.add(fast::device_variant(
        {"filter_x/fast-seg4096-prefix",
         Op::filter_x,
         space::shared,
         "row segments staged as in filter_x/fast-seg4096-occ5, each output's window sum the "
         "one before plus prefix sums (in double) of the column entering minus the one leaving, "
         "the sums before each thread from a scan of the threads' totals: two shared loads per "
         "output at every radius. Lost to filter_x/fast-seg4096-occ5 on an H200 (8192x8192 and "
         "8000x6000, clamp): 66.6-67.8% "
         "of copy at every r from 1 to 64, against occ5's 79-91 (82.4 at r = 64): three double "
         "conversions per output and the registers of 16 doubles (three blocks per "
         "multiprocessor instead of five), where filter_y/fast-walk-prefix has a ring of bytes "
         "in flight to hide them",
         gpu::Layout::dense,
         Tier::experiment,
         "fast_filter_x_kernel<AnyPhase, Prefix = true>",
         {}},
        launch_fast_filter_x_prefix));
    registry.add(fast::device_variant(
        {"filter_x/fast-seg4096-quad", Op::filter_x, space::shared,
         "row segments staged as in filter_x/fast-seg4096-occ5, radius 1-8 compiled in: each "
         "thread computes four consecutive outputs at a time from aligned float4 shared loads with "
         "the window in registers and stores them straight out as a float4 (one barrier, no second "
         "pass through shared memory); dense rows of any width (off 16 bytes) in the row's "
         "aligned coordinates, the ends element by element",
         gpu::Layout::dense, Tier::tuned,
         "fast_filter_x_quad_kernel<R = radius, 6 (5 at a phase), AnyPhase>", quad_limits},
        launch_fast_filter_x_quad));
    registry.add(fast::device_variant(
        {"filter_x/fast-seg4096-quad-pitched", Op::filter_x, space::pitched,
         "filter_x/fast-seg4096-quad on cudaMallocPitch rows (every row starts on a 512-byte "
         "boundary)",
         gpu::Layout::pitched, Tier::tuned, "fast_filter_x_quad_kernel<R = radius, 6>",
         quad_limits},
        launch_fast_filter_x_quad));
}

}  // namespace coalesce
