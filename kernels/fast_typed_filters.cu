// Tuned u8 and u16 box filters along X and Y: integer window sums are exact, so each thread
// slides a running sum (add the entering samples, subtract the leaving ones) and an output costs
// the same at every radius, 0 to 64, every border mode, any width. The per-thread work lives in
// fast_typed_filters.cuh, shared with a host emulation test.
//
// filter X: a block stages one row segment and its halo in shared memory with 16-byte cp.async
// copies (any row phase: the segments tile the row's 16-byte-aligned addresses, so only the
// blocks across the row's two ends go element by element through the border rule, spread over
// the block's threads), each thread slides across its own run of K words (K odd:
// conflict-free), each output's sum one pair of mixed-sign dp4a/dp2a from the sum before the
// word, and the block writes the outputs back as 16-byte stores. A segment belongs to 64
// threads (up to 33 words each: long runs spread each thread's staging, seed and write-back),
// or where its shared memory leaves too few warps resident, 128, or 64 in shorter segments
// (kXChoices).
// filter Y: the strip walk: a block owns a 512-byte strip of columns and walks a run of rows;
// the window's rows and the next two steps' rows sit in one shared-memory ring filled by
// 16-byte cp.async copies of the whole block, and G row groups of 128 threads (a word of columns
// each) sum each step side by side, exchanging their partial totals. Rows that are not all
// 16-byte aligned (filter Y on a dense odd width) take a line-per-thread kernel: exact, slower.
//
// Measured with coalesce-bench on an H200 (--type u8,u16 --tier tuned, 20 reps; best of this
// variant and its -pitched twin, % of a device copy of the same bytes), r = 1 / 4 / 16 / 32 / 64
// at clamp:
//   filter X u8   8192x8192 85 / 85 / 83 / 77 / 73   8000x6000 90 / 88 / 85 / 81 / 79
//   filter X u16  8192x8192 90 / 91 / 85 / 84 / 89   8000x6000 96 / 97 / 92 / 90 / 95
//   filter Y u8   8192x8192 87 / 87 / 85 / 82 / 80   8000x6000 71 / 69 / 68 / 67 / 63
//   filter Y u16  8192x8192 88 / 92 / 89 / 89 / 89   8000x6000 78 / 77 / 77 / 76 / 76
// (main's, the same day: X u8 55-60, u16 75-87; Y u8 75-77 at r = 1, 28-31 at r = 64, u16 78-81
// and 34). Other borders at r = 4 within 5 points of clamp; at r = 64 wrap and mirror cost filter
// X u8 5-10 points (each edge element's border_index divides), zero costs nothing.
// The seed of filter X's threads (2r + 1 samples) summed in four independent dp4a chains
// instead of one lost 1-3 points on the H200 (u8 8192x8192 r = 64 73.1 -> 72.2): the seed is
// not what holds u8 filter X back.
// Filter Y on 8000x6000 was 10-25 points below 8192x8192 until the ninth session timed every
// block: the strip across the row's end (8000 bytes are 15 5/8 strips) took 40% longer than the
// others, its threads past the end running the element-wise store path beside the live ones.
// They now return from yw_out. Filter Y, r = 1 / 4 / 64, bench/typed_at_the_limit.sh (H200,
// ninth session, with the copies' slot stepping of fast_typed_filters.cuh, which cost u16 2-3):
//   u8   8192x8192 87 / 87 / 81   8000x6000 93 / 92 / 85
//   u16  8192x8192 84 / 84 / 84   8000x6000 91 / 93 / 90
// Filter X on an H100 since the twenty-second session (staged lines at 32-byte leads, `310e47d`;
// bench/results/2026-11-27-h100-s22/final/typed), r = 1 / 4 / 64, best of dense and pitched:
//   u8   8192x8192 97.9 / 99.7 / 97.3   8000x6000 102.8 / 103.4 / 102.2
//   u16  8192x8192 99.1 / 98.9 / 98.9   8000x6000 102.8 / 102.3 / 102.2
#include "classic_launch.hpp"
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_instance.hpp"
#include "fast_common.cuh"
#include "fast_typed_filters.cuh"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <utility>

namespace coalesce {
namespace {

namespace tf = typed_filters;

// The filter X kernel's bound, as compiled and measured (ptxas sizes its registers for 128
// threads); its blocks take 64 or 128 threads (kXChoices).
constexpr int kXThreads = tf::kXMaxThreads;
constexpr int kLineThreads = 256;
constexpr long long kLineSegment = 256;  // outputs per thread of the line kernel

template <class T, bool Unit>
__global__ void __launch_bounds__(kXThreads)
    typed_filter_x_kernel(const unsigned char* in, unsigned char* out, long long cols,
                          std::size_t pitch, Border border, tf::XGeom g) {
    extern __shared__ __align__(128) tf::Vec16 x_smem[];
    const long long row = blockIdx.x / g.segs;
    const int seg = static_cast<int>(blockIdx.x - row * g.segs);
    const tf::XRow r = tf::x_row(in, out, pitch, cols, sizeof(T), row, seg, g);
    if (r.seg_rel >= r.row_bytes) return;  // past this row's end (its phase is below 15)
    unsigned char* line = tf::x_line(reinterpret_cast<unsigned char*>(x_smem), r, g);
    unsigned char* out_line = tf::x_out_line(reinterpret_cast<unsigned char*>(x_smem), g);
    tf::x_stage<T>(r, cols, border, g, static_cast<int>(threadIdx.x), line);
    tf::commit_copies();
    tf::wait_copies<0>();
    __syncthreads();
    tf::x_walk<T, Unit, 4>(g, static_cast<int>(threadIdx.x), line, out_line,
                           r.row_bytes - r.seg_rel);
    __syncthreads();
    tf::x_write<T>(r, g, static_cast<int>(threadIdx.x), out_line);
}

// Filter Y, strip walk (tf::yw_*): a block of G row groups of Lanes threads walks its strip's
// rows, Ahead groups of G L rows in flight into the block's ring; per step one barrier before
// the differences and one before the outputs.
template <class T, bool Unit, int Lanes, int G, int W, int L, int Ahead, int MinBlocks>
__global__ void __launch_bounds__(Lanes* G, MinBlocks)
    typed_filter_y_walk_kernel(const unsigned char* in, unsigned char* out, long long rows,
                               long long cols, std::size_t pitch, Border border, tf::YWGeom g) {
    constexpr int kThreads = Lanes * G;
    extern __shared__ tf::Vec16 yw_smem[];
    unsigned char* ring = reinterpret_cast<unsigned char*>(yw_smem);
    std::uint32_t* xch = reinterpret_cast<std::uint32_t*>(ring + tf::yw_smem_bytes(g));
    const int t = static_cast<int>(threadIdx.x);
    const long long row_bytes = cols * static_cast<long long>(sizeof(T));
    const tf::YWalk w = tf::yw_walk(g, rows, blockIdx.x);
    tf::YWGroup group;
    const auto load = [&](int k) {
        group.next(g, G * L, k);
        tf::yw_load<4 * W * Lanes, kThreads, G * L>(in, rows, row_bytes, pitch, border, g, w, group,
                                                    t, ring);
        tf::commit_copies();
    };
    for (int k = 0; k < Ahead; ++k) load(k);
    tf::wait_copies<Ahead - 1>();
    __syncthreads();
    tf::YWState<W, L> st;
    tf::yw_seed<T, W, G, L>(st, row_bytes, g, w, t, Lanes, ring, xch);
    __syncthreads();
    tf::yw_seed_out<T, Unit, W, G, L>(st, out, row_bytes, pitch, g, w, Lanes, xch);
    const int steps = static_cast<int>((w.n_out - 1 + G * L - 1) / (G * L));
    for (int k = 0; k < steps; ++k) {
        tf::wait_copies<Ahead - 1>();  // group k landed (this thread's copies)
        __syncthreads();  // everyone's copies of group k visible, everyone done with step k - 1
        load(k + Ahead);
        tf::yw_diff<T, W, G, L, 4 * W * Lanes>(st, g, Lanes, ring, xch);
        if constexpr (G > 1) __syncthreads();  // every row group's total posted
        tf::yw_out<T, Unit, W, G, L>(st, out, row_bytes, pitch, g, w, Lanes, k, xch);
    }
}

// One thread per line (a row for X, a column for Y) and segment of kLineSegment outputs.
template <class T, bool Unit>
__global__ void __launch_bounds__(kLineThreads)
    typed_filter_line_kernel(const unsigned char* in, unsigned char* out, long long lines,
                             long long n, long long elem_stride, long long line_stride, int r,
                             Border border, std::uint32_t m) {
    const long long i = static_cast<long long>(blockIdx.x) * kLineThreads + threadIdx.x;
    const long long line = i % lines;
    const long long y0 = i / lines * kLineSegment;
    if (y0 >= n) return;
    tf::line_thread<T, Unit>(in, out, n, elem_stride, line * line_stride, y0,
                             n - y0 < kLineSegment ? n - y0 : kLineSegment, r, border, m);
}

template <class T, bool Unit>
void launch_line(const gpu::RawView& in, const gpu::RawView& out, bool along_x, int r,
                 Border border, cudaStream_t stream) {
    const long long n = static_cast<long long>(along_x ? in.cols : in.rows);
    const long long lines = static_cast<long long>(along_x ? in.rows : in.cols);
    const long long elem_stride =
        along_x ? static_cast<long long>(sizeof(T)) : static_cast<long long>(in.pitch_bytes);
    const long long line_stride =
        along_x ? static_cast<long long>(in.pitch_bytes) : static_cast<long long>(sizeof(T));
    const long long threads = lines * ((n + kLineSegment - 1) / kLineSegment);
    const unsigned blocks = gpu::blocks_for(static_cast<std::size_t>(threads), kLineThreads);
    typed_filter_line_kernel<T, Unit><<<blocks, kLineThreads, 0, stream>>>(
        static_cast<const unsigned char*>(in.data), static_cast<unsigned char*>(out.data), lines, n,
        elem_stride, line_stride, r, border, tf::reciprocal(2 * r + 1));
    COALESCE_CHECK_LAUNCH("typed_filter_line_kernel");
}

// Threads and segments per filter X row: the first of tf::kXChoices whose blocks hold
// kXEnoughWarps warps per multiprocessor, else the one that holds most. 64 threads in the fewest
// segments come first: a thread walks up to 33 words, and its fixed costs (staging, seed and
// write-back, half of the u8 kernel's 53 instructions per word at 8192x8192 with 128 threads in
// Nsight Compute) spread over twice the outputs; then 128 threads (K about 17); then 64 threads
// in one more segment. The blocks per multiprocessor are bound by shared memory (the staged line
// and the outputs, about twice the segment; the kernels take 32 registers): the block counts
// below are computed from it for the H200's 228 KiB. The threshold sits between the 24 warps that
// lost and the 32 that won. coalesce-bench, H200, % of copy:
// - 6000-byte rows, u8 (16 blocks, 32 warps with 64 threads), 128 -> 64 threads, r = 1 / 4 / 64:
//   8000x6000 x 3 (planar) 85.0 / 83.2 / 70.6 -> 92.5 / 90.7 / 81.7, 8000x6000 89.6 / 89.5 /
//   76.8 -> 93.4 / 92.6 / 82.4;
// - 8192-byte rows, u8 (12 blocks: 24 warps with 64 threads, 48 with 128), 64 -> 128, r = 1 /
//   64, two runs: 83.0-83.4 -> 85.3-85.8, 72.2-73.0 -> 73.0-73.5;
// - 16384-byte rows, u16 (24 warps with 64 threads in two segments, 24 with 128 in one, 34 with
//   64 in three): 64 -> 128 threads 89.9-90.9 -> 87.9-89.3 (r = 1), 88.4-90.3 -> 88.3-89.4
//   (r = 64); two -> three segments, two runs, r = 1 / 4 / 64: 90.2-91.0 / 90.2-90.9 / 88.8-89.3
//   -> 92.0-92.6 / 92.1-92.6 / 89.6-90.0.
// With this rule, one call: u8 8192x8192 85.3 / 73.5 (128 threads), u8 8000x6000 93.0 / 81.8 and
// x 3 planar 92.6 / 82.2 (64 threads), r = 1 / 64.
constexpr int kXEnoughWarps = 28;

template <class T, bool Unit>
tf::XGeom x_plan(long long row_bytes, int radius) {
    tf::XGeom best;
    int best_warps = 0;
    for (const auto& [threads, more_segs] : tf::kXChoices) {
        const tf::XGeom g =
            tf::x_geometry(row_bytes, static_cast<int>(sizeof(T)), radius, threads, more_segs);
        const int warps = static_cast<int>(
            fast::residency(typed_filter_x_kernel<T, Unit>, threads, tf::x_smem_bytes(g)).per_sm *
            threads / 32);
        if (warps > best_warps) {
            best = g;
            best_warps = warps;
        }
        if (best_warps >= kXEnoughWarps) break;
    }
    return best;
}

template <class T, bool Unit>
void launch_x(const gpu::RawView& in, const gpu::RawView& out, const OpParams& p,
              cudaStream_t stream) {
    const auto phase = [](const void* d) { return reinterpret_cast<std::uintptr_t>(d) & 15; };
    if (in.pitch_bytes != out.pitch_bytes || phase(in.data) != phase(out.data)) {
        launch_line<T, Unit>(in, out, true, p.radius, p.border, stream);  // never for one image
        return;
    }
    const tf::XGeom g = x_plan<T, Unit>(static_cast<long long>(in.cols * sizeof(T)), p.radius);
    const std::size_t smem = tf::x_smem_bytes(g);  // at most 34 KiB: no opt-in needed
    const unsigned blocks = static_cast<unsigned>(in.rows * static_cast<std::size_t>(g.segs));
    typed_filter_x_kernel<T, Unit><<<blocks, g.threads, smem, stream>>>(
        static_cast<const unsigned char*>(in.data), static_cast<unsigned char*>(out.data),
        static_cast<long long>(in.cols), in.pitch_bytes, p.border, g);
    COALESCE_CHECK_LAUNCH("typed_filter_x_kernel");
}

bool rows_16b_aligned(const gpu::RawView& v) {
    return reinterpret_cast<std::uintptr_t>(v.data) % 16 == 0 && v.pitch_bytes % 16 == 0;
}

// How many output rows a walk should take: four steps, or 8r (u8) / 4r (u16) rows where more.
// Walks used to be one wave of the resident blocks, each walking rows / (resident / strips) rows
// (512 for u8 at 8192x8192, 2048 for u16). Shorter walks in several waves ran faster on an H100
// (twelfth session, % of copy, 8192x8192 / 8000x6000 x 3 channels, walk rows swept from 96 to
// 768; r = 1 / 4 / 16 / 32 / 64):
//   u8 (2 row groups, 32-row steps; 4 groups above r = 40): one wave 85.0 / 84.2 / 83.8 / 82.4 /
//     83.1 and 82.0 / 82.3 / 81.8 / 80.3 / 81.3; 128 rows 92.5 / 92.1 / 89.8 / 86.4 and 94.0 /
//     93.6 / 92.0 / 89.2; at r = 32 256 rows 86.5 / 89.5, 192 88.5 / 88.9; at r = 64 512 rows
//     86.7 / 84.2 (256: 79.0 / 80.6, 384: 82.7 / 85.2).
//   u16 (4 row groups, 64-row steps): one wave 89.5 / 90.7 / 89.4 / 89.9 / 88.3 and 92.8 / 92.7 /
//     93.0 / 92.9 / 92.1; 256 rows 95.0 / 95.4 / 94.8 / 94.0 / 91.6 and 97.6 / 97.9 / 96.8 / 95.0 /
//     90.6 (192: 95.5 / 94.8 / 94.4 / 92.7; 384: 95.3 / 94.9 / 94.5 / 92.5 / 90.3).
// At r = 64 the colour u16 image's 71 strips take one walk each (tf::yw_walks says when).
// Scratch builds of the one-wave u8 walk (outputs unverified, r = 1, 8192x8192) located the gap:
// the means replaced by a byte pick 88.1-88.7 (shipped 84.6-85.0), a pure copy through the ring
// 89.4-90.0, and that copy in four times as many walks 95.4-96.1. So most of it was the one-wave
// structure, about four points the arithmetic. Why shorter walks win (the spread of block
// durations in one wave, or DRAM locality: concurrent blocks then read nearby rows) was not
// measured apart.
template <class T>
long long y_walk_target_rows(int step, int radius) {
    const long long by_radius = (sizeof(T) == 1 ? 8LL : 4LL) * radius;
    return std::max<long long>(4LL * step, by_radius);
}

// A walk's kernel, its geometry on `in` and the blocks of it the device holds at once.
template <class T, bool Unit, int Lanes, int G, int W, int L, int Ahead, int MinBlocks>
struct YWalkPlan {
    static constexpr int kStrip = 4 * W * Lanes;
    static constexpr std::size_t kXch = static_cast<std::size_t>(Lanes) * G * 8 * W;
    static constexpr auto kernel =
        typed_filter_y_walk_kernel<T, Unit, Lanes, G, W, L, Ahead, MinBlocks>;
    std::size_t smem = 0;
    tf::YWGeom g;

    static std::size_t smem_for(int radius) {
        return static_cast<std::size_t>(tf::yw_alloc_rows(radius, G * L, Ahead, L)) * kStrip + kXch;
    }
    std::size_t resident = 0;  // blocks the device holds at once

    // one_wave: walks as long as one wave of the resident blocks allows (tf::yw_one_wave_rows)
    // instead of y_walk_target_rows.
    YWalkPlan(const gpu::RawView& in, int radius, bool one_wave = false) {
        static std::once_flag opt_in;
        std::call_once(opt_in, [] {
            COALESCE_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                               static_cast<int>(smem_for(kMaxRadius))));
        });
        smem = smem_for(radius);
        resident = fast::resident_blocks(kernel, Lanes * G, smem);
        const long long rows = static_cast<long long>(in.rows);
        const long long row_bytes = static_cast<long long>(in.cols * sizeof(T));
        const long long target = one_wave ? tf::yw_one_wave_rows(rows, row_bytes, kStrip,
                                                                 static_cast<long long>(resident))
                                          : y_walk_target_rows<T>(G * L, radius);
        g = tf::yw_geometry(rows, row_bytes, radius, kStrip, G * L, L, Ahead,
                            static_cast<long long>(resident), target, 2LL * G * L);
    }
    unsigned blocks() const {
        return static_cast<unsigned>(g.strips) * static_cast<unsigned>(g.walks);
    }
    void launch(const gpu::RawView& in, const gpu::RawView& out, Border border,
                cudaStream_t stream) const {
        kernel<<<blocks(), Lanes * G, smem, stream>>>(
            static_cast<const unsigned char*>(in.data), static_cast<unsigned char*>(out.data),
            static_cast<long long>(in.rows), static_cast<long long>(in.cols), in.pitch_bytes,
            border, g);
        COALESCE_CHECK_LAUNCH("typed_filter_y_walk_kernel");
    }
};

template <class T, bool Unit, int Lanes, int G, int W, int L, int Ahead, int MinBlocks = 1>
void launch_y_walk(const gpu::RawView& in, const gpu::RawView& out, const OpParams& p,
                   cudaStream_t stream) {
    YWalkPlan<T, Unit, Lanes, G, W, L, Ahead, MinBlocks>(in, p.radius)
        .launch(in, out, p.border, stream);
}

// u8 above r = 40 where it fills the chip in one wave: 256-byte strips, four row groups of 64
// threads, 16 rows per group and step, one step in flight, two blocks per multiprocessor, and
// each walk as long as one wave allows. Returns false (launching nothing) where that wave would
// leave more than a tenth of the resident blocks' slots idle.
template <class T, bool Unit>
bool launch_y_walk_one_wave(const gpu::RawView& in, const gpu::RawView& out, const OpParams& p,
                            cudaStream_t stream) {
    const YWalkPlan<T, Unit, 64, 4, 1, 16, 1, 2> plan(in, p.radius, true);
    if (!tf::yw_fills_one_wave(plan.blocks(), static_cast<long long>(plan.resident))) return false;
    plan.launch(in, out, p.border, stream);
    return true;
}

// The walk's shape for the type and radius (trial harness, H200, 8192x8192, % of copy): u8 2 row
// groups up to r = 40 (82-87 against 75-84 with 4), 4 above (80.5 against 75 with 2 at r = 64); u16
// 4 row groups (88-90: one 512-thread block per multiprocessor). 16-byte chunks per thread (64-77,
// registers), 8-byte ones (79-89 for u16, 56-83 for u8) and three steps in flight (67-86) lost.
// The u8 two-group kernel needs 124-128 registers: its bounds hold it to two blocks per
// multiprocessor (at 132 it got one, and 66-68%). Per-block timings (globaltimer at a block's
// start and end in a scratch copy of the kernel, bench/results/2026-11-26-h200-s9/README.md)
// showed the one-wave u8 walk issue-bound: 50 instructions per word of four outputs, issue slots
// 62% busy. Until the twelfth session u16 took one group of 8-row steps up to r = 16 where four
// groups' one wave left multiprocessors idle (the 8000x6000 colour image's 71 strips); with walks
// in several waves no multiprocessor idles there, and that branch is gone.
// Above r = 40 the u8 ring of two 16-row groups no longer fits twice in shared memory; until the
// twenty-third session u8 took four groups there (one 512-thread block per multiprocessor). Two
// groups of 8-row steps keep two 256-thread blocks (a 94 KB ring at r = 64). H100, % of copy,
// best of dense and pitched, over two to four calls (bench/results/2026-11-27-h100-s23/): r = 64
// 8192x8192 85.8-87.1 -> 86.4-88.4, 8000x6000 81.2-83.2 -> 88.5-92.1, the colour image's pitched
// wrapper 90.4-90.9 -> 91.3-91.5; r = 48 8000x6000 88.5-89.1 -> 93.1-93.6. Also tried there:
// 16-row steps with one in flight (two blocks; level at 8192x8192, up to 2 points lower at
// 8000x6000), 8-row steps with one in flight (78-80), three or four in flight (82-87: more bytes
// in flight lose, though Nsight Compute shows DRAM at 69% of peak and 1.15 eligible warps per
// scheduler), four groups of 8-row steps (85.8-86.5), 256-byte strips (80.9-88.6), the next
// group's copies issued before the seed (-1 to +1.5), and odd walk lengths against walks 4 MB
// apart moving in step (within a point).
// At r = 64, 8192x8192 (one wave, two blocks per multiprocessor), the block each multiprocessor
// took first ends about 12% before the one beside it (blocks 0-131 at 39-48 us, 132-255 at
// 46-51.5; bench/results/2026-11-27-h100-s24/). Evening that out does not help: pairs of walks
// meeting where their claims meet (84.4-85.8 against 87.0-88.2), or a fixed larger share for the
// first block (84.5-87.1 against 87.6-88.0; the remap both need, first blocks on every pair, costs
// 1.5-2 alone). The two blocks share one multiprocessor's rate. Also lost there:
// steps of 2 x 10 or 2 x 12 rows (84.6-86.5, 81.3-82.1), the walk's inside rows by the bulk copy
// engine (83.8-84.1), and clusters holding a walk's strips in step (85.5-86.2).
// Twenty-fourth session: above r = 40 the one-wave shape of launch_y_walk_one_wave, where it
// fills the chip. H100, best of dense and pitched, two rounds against the shape below
// (bench/results/2026-11-27-h100-s24/, r88): r = 64 8192x8192 86.7-88.3 -> 91.6 (1024-row walks,
// 8 per strip, 256 blocks), 8000x6000 91.1-91.2 -> 92.6-93.2 (24 strips x 11 walks), 6000x8000
// 91.7-93.2 -> 95.5; r = 48 8192x8192 88.4-88.8 -> 90.8-91.8, 8000x6000 93.2-93.3 -> 92.0-92.6;
// r = 41 8192x8192 86.1-87.0 -> 91.4-91.9. The colour image's 71 strips x 3 walks fill 81% of the
// wave and keep the shape below (91.4-91.6 against 89.6-90.3). The same shape with 512-row walks
// (two waves at 8192x8192) ran 88.5-89.6, with 640 88.1-89.3, 768 82.8, 384 83.6-84.5 (r87).
template <class T, bool Unit>
void launch_y_walk_for(const gpu::RawView& in, const gpu::RawView& out, const OpParams& p,
                       cudaStream_t stream) {
    if constexpr (sizeof(T) == 1 && !Unit) {
        if (p.radius > 40 && launch_y_walk_one_wave<T, Unit>(in, out, p, stream)) return;
    }
    if (sizeof(T) == 1 && p.radius <= 40)
        launch_y_walk<T, Unit, 128, 2, 1, 16, 2, 2>(in, out, p, stream);
    else if (sizeof(T) == 1)
        launch_y_walk<T, Unit, 128, 2, 1, 8, 2, 2>(in, out, p, stream);
    else
        launch_y_walk<T, Unit, 128, 4, 1, 16, 2>(in, out, p, stream);
}

template <class T>
void launch_y(const gpu::RawView& in, const gpu::RawView& out, const OpParams& p,
              cudaStream_t stream) {
    if (rows_16b_aligned(in) && rows_16b_aligned(out) && in.pitch_bytes == out.pitch_bytes)
        p.radius == 0 ? launch_y_walk_for<T, true>(in, out, p, stream)
                      : launch_y_walk_for<T, false>(in, out, p, stream);
    else if (p.radius == 0)
        launch_line<T, true>(in, out, false, p.radius, p.border, stream);
    else
        launch_line<T, false>(in, out, false, p.radius, p.border, stream);
}

gpu::TypedLauncher typed_launcher(bool along_x) {
    return [along_x](ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView,
                     const OpParams& p, cudaStream_t stream) {
        gpu::with_integer_type(type, [&](auto element) {
            using T = decltype(element);
            if (along_x)
                p.radius == 0 ? launch_x<T, true>(in, out, p, stream)
                              : launch_x<T, false>(in, out, p, stream);
            else
                launch_y<T>(in, out, p, stream);
        });
    };
}

// Grids are one-dimensional: filter X's rows x segments must fit blockIdx.x (u16 rows of
// 2^22 columns: 994 segments per row). The last of tf::kXChoices makes the most segments.
std::string x_grid_refusal(Shape input, const OpParams& params) {
    const tf::XGeom g = tf::x_geometry(static_cast<long long>(input.cols) * 2, 2, params.radius,
                                       tf::kXChoices[2].threads, tf::kXChoices[2].more_segs);
    if (input.rows * static_cast<std::size_t>(g.segs) <= gpu::kMaxGridX) return {};
    return "more rows times row segments than a grid holds";
}

Variant typed_variant(const char* id, Op op, gpu::Layout layout, const char* description,
                      const char* kernel) {
    gpu::DeviceVariantSpec spec;
    spec.id = id;
    spec.op = op;
    spec.memory_space = space::shared;
    spec.description = description;
    spec.layout = layout;
    spec.tier = Tier::tuned;
    spec.kernel = kernel;
    spec.limits = gpu::classic_limits();
    return fast::refusing_unsupported(
        gpu::make_typed_device_variant(std::move(spec), typed_launcher(op == Op::filter_x)),
        op == Op::filter_x ? fast::Refusal(x_grid_refusal) : fast::Refusal{});
}

constexpr const char* kXWhy =
    "u8/u16 box filter along rows with an exact integer running sum, so an output costs the "
    "same at every radius: a block stages a row segment and its halo in shared memory with "
    "16-byte cp.async copies at any row phase (the border elements spread over the block), each "
    "thread slides over its own odd run of words, every output's sum one pair of mixed-sign "
    "dp4a/dp2a against prefix masks from the sum before its word and its mean one "
    "multiply-high, and the block writes 16-byte vectors back. The staged line sits in shared "
    "memory at its global offset mod 128: on an H100 cp.async into shared memory 48 or 80 bytes "
    "off runs 6% slower, which cost u8 rows 10 points at r = 32 and 64";
constexpr const char* kYWhy =
    "u8/u16 box filter down columns with exact integer running sums in registers: a block of 2 "
    "or 4 row groups of 128 threads walks a 512-byte strip of columns down (or up: neighbours "
    "read their halo rows together) a run of rows, the window's rows in one shared-memory ring "
    "with the next two steps' rows already in flight (16-byte cp.async by the whole block); "
    "each row group takes the differences of its 16 rows of a step (8 for u8 above r = 40, "
    "where two blocks fit a multiprocessor only so), the groups exchange their "
    "totals and each slides its own rows from there, so the leaving row never comes from DRAM "
    "again and an output costs the same at every radius. u8 above r = 40, where one wave of "
    "blocks fills the chip, walks 256-byte strips instead (4 row groups of 64 threads, one step "
    "in flight) in walks as long as that one wave allows: half the seeds of 512-row walks. Rows "
    "not all on 16 bytes take an exact line-per-thread kernel";

}  // namespace

void register_fast_typed_filters(Registry& registry) {
    registry.add(typed_variant("filter_x/fast-int-running", Op::filter_x, gpu::Layout::dense, kXWhy,
                               "typed_filter_x_kernel"));
    registry.add(typed_variant("filter_x/fast-int-running-pitched", Op::filter_x,
                               gpu::Layout::pitched,
                               "filter_x/fast-int-running on cudaMallocPitch rows (every row on "
                               "16 bytes: no element-wise blocks but at the row's end)",
                               "typed_filter_x_kernel"));
    registry.add(typed_variant("filter_y/fast-int-running", Op::filter_y, gpu::Layout::dense, kYWhy,
                               "typed_filter_y_walk_kernel"));
    registry.add(typed_variant("filter_y/fast-int-running-pitched", Op::filter_y,
                               gpu::Layout::pitched,
                               "filter_y/fast-int-running on cudaMallocPitch rows (the walk at "
                               "any width: the last strip reads inside the pitch)",
                               "typed_filter_y_walk_kernel"));
}

}  // namespace coalesce
