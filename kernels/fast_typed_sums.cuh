// The kernels of kernels/fast_typed_sums.cu (u8 and u16 row and column sums, exact integer sums),
// in a header of their own so that a timing harness can run them without the registry. The
// launchers, the instance and the registration stay in the .cu file; its header comment says how
// the kernels work.
#pragma once

#include "device_instance.hpp"

#include <cuda/atomic>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace coalesce::typed_sums {

using gpu::RawView;

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kRowUnroll = 4;  // 16-byte loads in flight per lane (row sums)
constexpr int kColUnroll = 8;  // rows in flight per thread (column sums)

__device__ __forceinline__ uint4 load16(const unsigned char* p) {
    return __ldg(reinterpret_cast<const uint4*>(p));
}

// The sum of the 16 / sizeof(T) elements of a 16-byte vector plus s, exactly (at most 16 * 255 or
// 8 * 65535 per vector, far below 2^32 for the few vectors summed before widening).
__device__ __forceinline__ unsigned add_vec(unsigned s, uint4 v, std::uint8_t) {
    s = __dp4a(v.x, 0x01010101u, s);
    s = __dp4a(v.y, 0x01010101u, s);
    s = __dp4a(v.z, 0x01010101u, s);
    return __dp4a(v.w, 0x01010101u, s);
}
__device__ __forceinline__ unsigned add_vec(unsigned s, uint4 v, std::uint16_t) {
    s = __dp2a_lo(v.x, 0x0101u, s);
    s = __dp2a_lo(v.y, 0x0101u, s);
    s = __dp2a_lo(v.z, 0x0101u, s);
    return __dp2a_lo(v.w, 0x0101u, s);
}

// ---- Row sums -----------------------------------------------------------------------------------

// Thread t of a team of `team` threads (>= 32, so more than the elements of a vector) sums its
// share of a row of `cols` elements starting at `row` (on a multiple of sizeof(T), at any 16-byte
// phase): the head up to the first 16-byte boundary and the tail after the last one element by
// element, the vectors between in batches of kRowUnroll loads issued before their adds. Each
// batch is summed in 32 bits and widened into Acc, so uint64 rows of any length stay exact.
//
// The full batches run in a rotated order, starting at batch `rotation` mod their number (the
// row's index): with every team starting at its row's first batch, the whole grid read the first
// halves of 8 KiB rows together and the second halves after. H200, u8 8192^2, in one process,
// % of copy, the warp kernel in a harness, three calls: 86.3-88.7 in order against 90.0-91.6
// rotated; coalesce-bench in a later call 88.8-88.9, where a grid-stride read of the same bytes
// with no arithmetic ran at 89.3-90.0 (bench/NOTES.md, tenth round).
template <class T, class Acc, int Unroll = kRowUnroll>
__device__ __forceinline__ Acc row_share(const unsigned char* row, unsigned long long cols,
                                         unsigned t, unsigned team, unsigned long long rotation) {
    constexpr unsigned kPerVec = 16 / sizeof(T);
    const T* elems = reinterpret_cast<const T*>(row);
    const unsigned misalign = static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(row) & 15);
    const unsigned long long head =
        min(static_cast<unsigned long long>(((16 - misalign) & 15) / sizeof(T)), cols);
    const unsigned long long nvec = (cols - head) / kPerVec;
    const unsigned char* vecs = row + head * sizeof(T);  // on a 16-byte boundary
    Acc sum = t < head ? static_cast<Acc>(elems[t]) : Acc{0};
    const unsigned long long batch = static_cast<unsigned long long>(Unroll) * team;
    const unsigned long long full = nvec / batch;
    // A 32-bit remainder (any start below `full` is as exact as any other).
    unsigned long long b =
        full > 1 ? static_cast<unsigned>(rotation) % static_cast<unsigned>(min(full, 0xffffffffull))
                 : 0;
    for (unsigned long long n = 0; n < full; ++n) {
        const unsigned long long i = b * batch + t;
        b = b + 1 == full ? 0 : b + 1;
        uint4 v[Unroll];
#pragma unroll
        for (int k = 0; k < Unroll; ++k) v[k] = load16(vecs + (i + k * team) * 16);
        unsigned s = 0;
#pragma unroll
        for (int k = 0; k < Unroll; ++k) s = add_vec(s, v[k], T{});
        sum += s;
    }
    const unsigned long long i = full * batch + t;
    if (i < nvec) {  // the last, partial batch: guarded loads, still all issued before the adds
        uint4 v[Unroll];
#pragma unroll
        for (int k = 0; k < Unroll; ++k)
            v[k] =
                i + k * team < nvec ? load16(vecs + (i + k * team) * 16) : make_uint4(0, 0, 0, 0);
        unsigned s = 0;
#pragma unroll
        for (int k = 0; k < Unroll; ++k) s = add_vec(s, v[k], T{});
        sum += s;
    }
    const unsigned long long done = head + nvec * kPerVec;  // the tail: fewer than kPerVec
    if (done + t < cols) sum += elems[done + t];
    return sum;
}

template <class Acc>
__device__ __forceinline__ Acc warp_total(Acc s) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
    return s;  // in lane 0
}

template <class Acc>
__device__ __forceinline__ void store_row_sum(RawView out, unsigned long long r, Acc s) {
    *reinterpret_cast<Acc*>(static_cast<unsigned char*>(out.data) + r * out.pitch_bytes) = s;
}

// A warp per row; the grid's warps walk the rows (one wave, so each warp usually takes one row).
template <class T, class Acc, int Unroll = kRowUnroll>
__global__ void __launch_bounds__(kThreads) typed_row_sums_warp_kernel(RawView in, RawView out) {
    const unsigned lane = threadIdx.x & 31;
    const unsigned long long warps = static_cast<unsigned long long>(gridDim.x) * kWarps;
    for (unsigned long long r =
             (static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
         r < in.rows; r += warps) {
        const auto* row = static_cast<const unsigned char*>(in.data) + r * in.pitch_bytes;
        const Acc s = warp_total(row_share<T, Acc, Unroll>(row, in.cols, lane, 32, r));
        if (lane == 0) store_row_sum(out, r, s);
    }
}

// A block per row, for few long rows: the eight warps' totals meet in shared memory.
template <class T, class Acc, int Unroll = kRowUnroll>
__global__ void __launch_bounds__(kThreads) typed_row_sums_block_kernel(RawView in, RawView out) {
    __shared__ Acc part[kWarps];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (unsigned long long r = blockIdx.x; r < in.rows; r += gridDim.x) {
        const auto* row = static_cast<const unsigned char*>(in.data) + r * in.pitch_bytes;
        const Acc s = warp_total(row_share<T, Acc, Unroll>(row, in.cols, threadIdx.x, kThreads, r));
        if (lane == 0) part[warp] = s;
        __syncthreads();
        if (threadIdx.x == 0) {
            Acc total = part[0];
#pragma unroll
            for (int k = 1; k < kWarps; ++k) total += part[k];
            store_row_sum(out, r, total);
        }
        __syncthreads();  // part is rewritten for the next row
    }
}
// ---- Column sums --------------------------------------------------------------------------------

// Rows per chunk at most: a thread adds at most 256 rows of a chunk (one in kWarps, or in the
// more row slots of a wider block), so the u8 path's 16-bit lanes (at most 257 * 255 = 65535) and
// every chunk's uint32 sums stay exact.
constexpr unsigned kMaxChunkRows = 256 * kWarps;

struct ColPlan {
    unsigned strips = 1;           // column strips of strip_cols, one row's threads wide
    unsigned chunks = 1;           // row chunks per strip
    unsigned chunk_rows = kWarps;  // a multiple of the block's row slots, at most kMaxChunkRows
    unsigned strip_cols = 32;      // a row's threads (32 or 16) x columns per thread
};

// One wave: as many row chunks as fit next to the strips in the blocks the chip holds at once
// (`capacity`), so every block starts at once; more only where a chunk would pass kMaxChunkRows.
// `warps`: the block's row slots (each takes every warps-th row of its chunk), `row_lanes` the
// threads across a row (32, or 16 where a warp reads two rows).
inline ColPlan col_plan(Shape s, unsigned cols_per_thread, std::size_t capacity,
                        unsigned warps = kWarps, unsigned row_lanes = 32) {
    ColPlan p;
    p.strip_cols = row_lanes * cols_per_thread;
    p.strips = static_cast<unsigned>((s.cols + p.strip_cols - 1) / p.strip_cols);
    const std::size_t max_chunks = (s.rows + warps - 1) / warps;
    const std::size_t chunks = std::clamp<std::size_t>(capacity / p.strips, 1, max_chunks);
    std::size_t rows = (s.rows + chunks - 1) / chunks;
    rows = std::min<std::size_t>((rows + warps - 1) / warps * warps, kMaxChunkRows);
    p.chunk_rows = static_cast<unsigned>(rows);
    p.chunks = static_cast<unsigned>((s.rows + rows - 1) / rows);
    return p;
}

// Whether a thread's columns are summed as packed 16-bit lanes: u8 in 16-byte vectors.
template <class T, int V>
constexpr bool kPackedCols = sizeof(T) == 1 && V == 16;

// One batch of U rows for a thread's columns: the loads of the first `valid` rows (`step` bytes
// apart), all in flight together; the others read as zero. V == 1: one element per row in .x.
template <class T, int V, int U>
__device__ __forceinline__ void load_batch(uint4 (&v)[U], const unsigned char* p, std::size_t step,
                                           unsigned valid) {
#pragma unroll
    for (int k = 0; k < U; ++k) {
        if (k >= static_cast<int>(valid))
            v[k] = make_uint4(0, 0, 0, 0);
        else if constexpr (V == 1)
            v[k] = make_uint4(__ldg(reinterpret_cast<const T*>(p + k * step)), 0, 0, 0);
        else
            v[k] = load16(p + k * step);
    }
}

// Adds a loaded batch: into one uint32 per column (V == 1: one element; u16: eight), or for u8
// vectors into packed sums, each 32-bit word of the vector split into its even and its odd bytes
// as two 16-bit lanes (one byte_perm each, then one add per two columns: half the instructions of
// a sum per column).
template <class T, int V, int U, int N>
__device__ __forceinline__ void add_batch(unsigned (&acc)[N], const uint4 (&v)[U]) {
#pragma unroll
    for (int k = 0; k < U; ++k) {
        if constexpr (V == 1) {
            acc[0] += v[k].x;
        } else {
            const unsigned w[4] = {v[k].x, v[k].y, v[k].z, v[k].w};
#pragma unroll
            for (int q = 0; q < 4; ++q) {
                if constexpr (kPackedCols<T, V>) {
                    acc[2 * q] += __byte_perm(w[q], 0, 0x4240);      // bytes 0 and 2
                    acc[2 * q + 1] += __byte_perm(w[q], 0, 0x4341);  // bytes 1 and 3
                } else {  // u16: the low and the high half
                    acc[2 * q] += w[q] & 0xffffu;
                    acc[2 * q + 1] += w[q] >> 16;
                }
            }
        }
    }
}

// Where column c of a block's row of partial sums lives in shared memory. Threads that own V >= 4
// columns store them as 16-byte groups of four, and group g goes to g ^ ((g / 8) % 8): the eight
// threads of a quarter warp, whose groups are V / 4 apart, then store to eight different sets of
// four banks, where in column order they met in two; a warp reading 32 neighbouring columns
// still finds them in 32 banks. (Before, the PTX held V scalar stores per thread, a warp's
// 32 lanes V words apart: for u8, two banks, so 16-way conflicts on every store.)
template <int V>
__device__ __forceinline__ unsigned part_word(unsigned c) {
    if constexpr (V % 4 != 0)
        return c;
    else
        return (((c >> 2) ^ ((c >> 5) & 7u)) << 2) | (c & 3u);
}

// A thread's V column sums, from its accumulators, into `row` (a row slot of partial sums) for the
// columns first .. first + V - 1.
template <class T, int V, int N>
__device__ __forceinline__ void unpack_sums(const unsigned (&acc)[N], unsigned* row,
                                            unsigned first) {
    unsigned v[V];
    if constexpr (kPackedCols<T, V>) {
#pragma unroll
        for (int q = 0; q < 4; ++q) {
            v[4 * q] = acc[2 * q] & 0xffffu;
            v[4 * q + 1] = acc[2 * q + 1] & 0xffffu;
            v[4 * q + 2] = acc[2 * q] >> 16;
            v[4 * q + 3] = acc[2 * q + 1] >> 16;
        }
    } else {
#pragma unroll
        for (int e = 0; e < V; ++e) v[e] = acc[e];
    }
    if constexpr (V % 4 == 0) {
#pragma unroll
        for (int q = 0; q < V / 4; ++q)
            *reinterpret_cast<uint4*>(row + part_word<V>(first + 4 * q)) =
                make_uint4(v[4 * q], v[4 * q + 1], v[4 * q + 2], v[4 * q + 3]);
    } else {
#pragma unroll
        for (int e = 0; e < V; ++e) row[first + e] = v[e];
    }
}

__device__ __forceinline__ void add_to(std::uint32_t* p, unsigned v) { atomicAdd(p, v); }
__device__ __forceinline__ void add_to(std::uint64_t* p, unsigned v) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}

// Block (strip, chunk): thread t owns columns strip * strip_cols + (t % RowLanes) * V .. + V - 1
// and rows r_begin + s, + S, + 2S, ... of the chunk, s = t / RowLanes of the block's S row slots
// (a warp reads one row, or with RowLanes = 16 two). V == 16 / sizeof(T) needs every row
// to start on 16 bytes (its vector may reach past the last column into the row's padding, whose
// sums are never stored); V == 1 reads any layout.
//
// The chunks of a strip meet in the output itself, zeroed first. Each block takes a ticket when
// it starts (atomicInc wraps the strip's counter back to 0 after the last chunk, ready for the
// next launch). Warp 0 of the block with ticket 0 zeroes the strip's outputs while its first
// loads are in flight, then publishes `epoch` (this launch's number) in the strip's flag; every
// block adds its sums with atomicAdd once it sees that flag, which by then has long been raised.
// Integer sums are exact, so the order of the adds cannot change the result. A block waits only
// for a block that has already started (it took ticket 0), so nothing depends on which blocks
// are resident. Every output element is written in every launch: no zeroing outside the kernel.
// Until the fifteenth session the ticket-0 block stored its sums at its end and the others added
// theirs after its flag, so at the end of the launch every block waited for one that finished
// no earlier than they did. Zeroing first, in three alternating A/B rounds of one call (H100,
// best of dense and pitched, % of copy): u8 8192x8192 88.3-89.2 against 86.6-87.8, u8 8000x6000
// 93.0-94.5 against 87.8-88.6, u16 8192x8192 95.6-96.1 against 94.5-95.7, u16 8000x6000
// 96.4-96.7 against 95.5-96.0.
template <int Cols, class Acc>
__device__ __forceinline__ void zero_strip_if_first(Acc* __restrict__ out, unsigned* flags,
                                                    unsigned strip, unsigned long long strip_col,
                                                    unsigned long long cols, unsigned lane,
                                                    unsigned my_ticket, unsigned epoch) {
    if (__shfl_sync(0xffffffffu, my_ticket, 0) != 0) return;  // lane 0 took the block's ticket
    for (unsigned c = lane; c < Cols; c += 32)
        if (strip_col + c < cols) out[strip_col + c] = 0;
    __threadfence();  // the zeros, before the flag below
    __syncwarp();
    if (lane == 0) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[strip]);
        flag.store(epoch, cuda::memory_order_release);
    }
}

// Waits until the strip's outputs are zeroed (its flag holds this launch's epoch). One thread
// looks: the first of the last warp where the block's first `Reducers` threads, which add up the
// row slots' partial sums just before, leave that warp out, so that the flag's round trip runs
// beside their sums rather than after them; else thread 0. With the swizzle of part_word, H100,
// six alternating rounds, best of dense and pitched, % of copy (twenty-sixth session,
// bench/results/2026-11-27-h100-s26/ r102): u8 8192x8192 90.1-90.7 against 89.1-90.6 before
// and 89.3-90.5 with the swizzle alone; u8 8000x6000, u16 and colour within noise. Timed per
// block (r101), the swizzle took the end's sum over the row slots from 0.45 to 0.26 us (median);
// the flag's look and the atomics after it took 0.35 us. A relaxed look at the flag early in
// the walk, with an acquire fence here in place of this load, lost 2-3 points at u8 8192x8192
// (twenty-fifth session, bench/results/2026-11-27-h100-s25/ section 5).
template <int Threads, int Reducers>
__device__ __forceinline__ void wait_for_zeros(unsigned* flags, unsigned strip, unsigned epoch) {
    constexpr unsigned kWaiter = Reducers <= Threads - 32 ? Threads - 32 : 0;
    if (threadIdx.x == kWaiter) {
        cuda::atomic_ref<unsigned, cuda::thread_scope_device> flag(flags[strip]);
        while (flag.load(cuda::memory_order_acquire) != epoch) __nanosleep(32);
    }
    __syncthreads();
}

// The u8 strips' uint32 sums go two neighbouring columns to one 64-bit atomic add: half the
// atomics that end the launch, where every round trip is paid with the memory full (fifteenth
// round). Exact: a uint32 output is chosen only where no column's total reaches 2^32, so no
// partial sum of the low column carries into the high one. A strip starts on an even column, so a
// pair is on 8 bytes wherever the output is; a last odd column takes a 32-bit add. H100, three
// alternating rounds, best of dense and pitched, % of copy: u8 8192x8192 89.0-89.4 against
// 88.2-89.1, 8000x6000 93.2-94.0 against 92.5-93.3, colour interleaved 95.1-95.2 against 94.5
// (twenty-first session, bench/results/2026-11-27-h100-s21/). The u16 strips (two columns per
// thread of half the block) lost about a point at 8000x6000 that way (pitched 95.7-96.6 against
// 96.8-97.4) and keep one add per column.
template <int Threads, int Slots, int kCols, int V>
__device__ __forceinline__ void add_pairs(std::uint32_t* out, unsigned* flags,
                                          const unsigned (&part)[Slots][kCols], unsigned strip,
                                          unsigned long long strip_col, unsigned long long cols,
                                          unsigned epoch) {
    static_assert(kCols % 2 == 0 && kCols / 2 <= Threads, "at most one pair of columns a thread");
    const unsigned c = 2 * threadIdx.x;
    unsigned lo = 0, hi = 0;
    if (c < kCols)
#pragma unroll
        for (int k = 0; k < Slots; ++k) {  // c is even: the pair is on 8 bytes
            const uint2 pair = *reinterpret_cast<const uint2*>(&part[k][part_word<V>(c)]);
            lo += pair.x;
            hi += pair.y;
        }
    // An output that starts off 8 bytes (a plane of an odd-width image, say) adds one by one.
    const bool aligned = reinterpret_cast<std::uintptr_t>(out) % 8 == 0;
    wait_for_zeros<Threads, kCols / 2>(flags, strip, epoch);
    const unsigned long long at = strip_col + c;
    if (c >= kCols || at >= cols) return;
    if (at + 1 < cols && aligned) {
        atomicAdd(reinterpret_cast<unsigned long long*>(out + at),
                  static_cast<unsigned long long>(hi) << 32 | lo);
    } else {
        atomicAdd(out + at, lo);
        if (at + 1 < cols) atomicAdd(out + at + 1, hi);
    }
}

template <class T, int V, class Acc, int U = kColUnroll, bool Interleaved = false,
          int Threads = kThreads, int RowLanes = 32>
__global__ void __launch_bounds__(Threads)
    typed_col_sums_kernel(RawView in, Acc* __restrict__ out, unsigned* __restrict__ tickets,
                          unsigned* __restrict__ flags, ColPlan plan, unsigned epoch) {
    static_assert(RowLanes == 32 || RowLanes == 16, "a warp reads one row or two");
    constexpr int kCols = RowLanes * V;                   // the strip's columns
    constexpr int kW = (Threads / 32) * (32 / RowLanes);  // row slots: each takes every kW-th row
    __shared__ alignas(16) unsigned part[kW][kCols];
    const unsigned strip = blockIdx.x % plan.strips, chunk = blockIdx.x / plan.strips;
    const bool one_chunk = plan.chunks == 1;  // uniform across the grid
    // The ticket stays in lane 0's register until warp 0 needs it, after its first loads.
    unsigned my_ticket = 0;
    if (!one_chunk && threadIdx.x == 0) my_ticket = atomicInc(&tickets[strip], plan.chunks - 1);
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const unsigned slot = threadIdx.x / RowLanes, sub = threadIdx.x % RowLanes;
    const unsigned long long cols = in.cols;
    const unsigned long long strip_col = static_cast<unsigned long long>(strip) * plan.strip_cols;
    const unsigned long long col = strip_col + sub * V;
    // Interleaved: chunk c takes rows c * kW + slot + k * chunks * kW, so that at any time
    // the whole grid reads one band of rows, as a plain stream does (measured no faster than a
    // contiguous run of rows per chunk, the default).
    const unsigned long long row_step =
        Interleaved ? static_cast<unsigned long long>(plan.chunks) * kW : kW;
    const unsigned long long r_end =
        Interleaved ? static_cast<unsigned long long>(in.rows)
                    : min(static_cast<unsigned long long>(chunk + 1) * plan.chunk_rows,
                          static_cast<unsigned long long>(in.rows));
    unsigned long long r =
        (Interleaved ? static_cast<unsigned long long>(chunk) * kW
                     : static_cast<unsigned long long>(chunk) * plan.chunk_rows) +
        slot;
    const auto rows_left = [&] {
        return r < r_end && col < cols
                   ? static_cast<unsigned>(min((r_end - r + row_step - 1) / row_step,
                                               static_cast<unsigned long long>(U)))
                   : 0u;
    };

    unsigned acc[kPackedCols<T, V> ? 8 : V];
#pragma unroll
    for (auto& a : acc) a = 0;
    const std::size_t step = row_step * in.pitch_bytes;
    const unsigned char* p =
        static_cast<const unsigned char*>(in.data) + r * in.pitch_bytes + col * sizeof(T);
    {  // the first batch, with warp 0's zeroing between its loads and its adds
        uint4 v[U];
        load_batch<T, V, U>(v, p, step, rows_left());
        if (!one_chunk && warp == 0)
            zero_strip_if_first<kCols>(out, flags, strip, strip_col, cols, lane, my_ticket, epoch);
        add_batch<T, V, U>(acc, v);
        r += U * row_step;
        p += U * step;
    }
    if (col < cols) {
        for (; r + (U - 1) * row_step < r_end; r += U * row_step, p += U * step) {
            uint4 v[U];
            load_batch<T, V, U>(v, p, step, U);
            add_batch<T, V, U>(acc, v);
        }
        if (r < r_end) {
            uint4 v[U];
            load_batch<T, V, U>(v, p, step, rows_left());
            add_batch<T, V, U>(acc, v);
        }
    }
    unpack_sums<T, V>(acc, part[slot], sub * V);
    __syncthreads();

    if constexpr (std::is_same_v<Acc, std::uint32_t> && kPackedCols<T, V>) {
        if (!one_chunk) {
            add_pairs<Threads, kW, kCols, V>(out, flags, part, strip, strip_col, cols, epoch);
            return;
        }
    }
    // The warps' sums per column (uint32: a chunk has at most kMaxChunkRows rows).
    constexpr int kPerThread = (kCols + Threads - 1) / Threads;
    unsigned sums[kPerThread];
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) {
        const unsigned c = threadIdx.x + i * Threads;
        sums[i] = 0;
        if (c < kCols)
#pragma unroll
            for (int k = 0; k < kW; ++k) sums[i] += part[k][part_word<V>(c)];
    }
    const auto in_strip = [&](int i) {
        const unsigned c = threadIdx.x + i * Threads;
        return c < kCols && strip_col + c < cols;
    };
    if (one_chunk) {
#pragma unroll
        for (int i = 0; i < kPerThread; ++i)
            if (in_strip(i)) out[strip_col + threadIdx.x + i * Threads] = sums[i];
        return;
    }
    wait_for_zeros<Threads, kCols>(flags, strip, epoch);
#pragma unroll
    for (int i = 0; i < kPerThread; ++i)
        if (in_strip(i)) add_to(out + strip_col + threadIdx.x + i * Threads, sums[i]);
}

}  // namespace coalesce::typed_sums
