// The per-thread work of the tuned u8/u16 box filters (fast_typed_filters.cu), written once for
// the device and for the host: a host test (tests/kernels/typed_filters_emulation_test.cpp) runs
// these very functions thread by thread to show that every output is written once, every read
// stays inside the row (filter X) or the allocation (filter Y), and every value matches the
// reference, for odd shapes, every phase, every border and radii 0..64.
//
// Exactness. Sums of at most 129 samples of at most 65535 stay below 2^24, so a running sum in
// 32 bits (add the entering sample, subtract the leaving one) is exact at every step. The
// rounded mean (2s + k) / (2k), k = 2r + 1 odd, equals floor((s + r) / k) (no multiple of k lies
// in (s + r, s + r + 1/2]), so each sum starts at r and the mean is one multiply-high by
// M = ceil(2^32 / k): with e = M k - 2^32 < k, floor(n M / 2^32) = floor(n / k) whenever
// n e < 2^32, which holds for every n < 2^24 and k <= 129 (n e < 2^24 * 2^8). The test checks
// it over the whole range for every k. k = 1 (r = 0) has no 32-bit M and is the identity.
#pragma once

#include "coalesce/operation.hpp"

#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define TF_HD __host__ __device__ __forceinline__
#else
#define TF_HD inline
#endif
#if defined(__CUDA_ARCH__)  // the device pass only: host compilers do not know the pragma
#define TF_UNROLL _Pragma("unroll")
#define TF_UNROLL_1 _Pragma("unroll 1")
#define TF_PRAGMA(x) _Pragma(#x)
#define TF_UNROLL_N(n) TF_PRAGMA(unroll n)
#else
#define TF_UNROLL_N(n)
#define TF_UNROLL
#define TF_UNROLL_1
#endif

namespace coalesce::typed_filters {

// 16 bytes: the unit of every global load and store and of the filter Y ring.
struct alignas(16) Vec16 {
    std::uint32_t w[4];
};

// ---- integer helpers (one instruction each on the device) ----

// __byte_perm: byte n of the result is byte (selector nibble n) of the pair (y:x).
TF_HD std::uint32_t perm(std::uint32_t x, std::uint32_t y, std::uint32_t s) {
#if defined(__CUDA_ARCH__)
    return __byte_perm(x, y, s);
#else
    const std::uint64_t v = x | (static_cast<std::uint64_t>(y) << 32);
    std::uint32_t r = 0;
    for (int n = 0; n < 4; ++n)
        r |= static_cast<std::uint32_t>((v >> (8 * ((s >> (4 * n)) & 7))) & 0xffu) << (8 * n);
    return r;
#endif
}

TF_HD std::uint32_t mulhi(std::uint32_t a, std::uint32_t b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<std::uint32_t>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

// The sum of the elements of one 32-bit word (4 u8 or 2 u16) added to acc.
template <class T>
TF_HD std::uint32_t add_word(std::uint32_t v, std::uint32_t acc) {
#if defined(__CUDA_ARCH__)
    if constexpr (sizeof(T) == 1)
        return __dp4a(v, 0x01010101u, acc);
    else
        return __dp2a_lo(v, 0x0101u, acc);
#else
    if constexpr (sizeof(T) == 1)
        return acc + (v & 0xffu) + ((v >> 8) & 0xffu) + ((v >> 16) & 0xffu) + (v >> 24);
    else
        return acc + (v & 0xffffu) + (v >> 16);
#endif
}

// acc + the sum of a's unsigned bytes times b's signed bytes (u8) or of a's unsigned 16-bit
// halves times b's two low signed bytes (u16): one dp4a / dp2a.lo with mixed signs, so a mask of
// 1s adds entering samples and a mask of -1s takes leaving ones away in the same instruction.
template <class T>
TF_HD std::uint32_t dot_signed(std::uint32_t a, std::uint32_t b, std::uint32_t acc) {
#if defined(__CUDA_ARCH__)
    std::uint32_t d;
    if constexpr (sizeof(T) == 1)
        asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(acc));
    else
        asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(acc));
    return d;
#else
    constexpr int kLanes = sizeof(T) == 1 ? 4 : 2;
    constexpr int kBits = 8 * static_cast<int>(sizeof(T));
    for (int i = 0; i < kLanes; ++i) {
        const std::uint32_t x = (a >> (kBits * i)) & ((1u << kBits) - 1u);
        const std::int32_t y = static_cast<std::int8_t>((b >> (8 * i)) & 0xffu);
        acc += x * static_cast<std::uint32_t>(y);
    }
    return acc;
#endif
}

// ceil(2^32 / k) for odd k >= 3; 0 for k = 1 (Unit kernels never use it).
inline std::uint32_t reciprocal(int k) {
    if (k <= 1) return 0;
    const std::uint64_t kk = static_cast<std::uint64_t>(k);
    return static_cast<std::uint32_t>(((std::uint64_t{1} << 32) + kk - 1) / kk);
}

// floor(n / k) for a sum n = s + r biased at its seed (see the top of the file).
template <bool Unit>
TF_HD std::uint32_t mean(std::uint32_t n, std::uint32_t m) {
    if constexpr (Unit)
        return n;
    else
        return mulhi(n, m);
}

// ---- memory steps: asynchronous 16-byte copies on the device, plain copies on the host ----

#if !defined(__CUDA_ARCH__)
// Host emulation only: called with every global read and write (address, bytes), so that the
// emulation test can check bounds and count the writes of each output byte.
inline void (*g_read_hook)(const void*, std::size_t) = nullptr;
inline void (*g_write_hook)(const void*, std::size_t) = nullptr;
#endif

TF_HD void note_read(const void* p, std::size_t n) {
#if !defined(__CUDA_ARCH__)
    if (g_read_hook) g_read_hook(p, n);
#else
    (void)p;
    (void)n;
#endif
}

// A global store of one element (u16 elements lie on even addresses).
template <class T>
TF_HD void put(unsigned char* dst, std::uint32_t v) {
#if !defined(__CUDA_ARCH__)
    if (g_write_hook) g_write_hook(dst, sizeof(T));
#endif
    *reinterpret_cast<T*>(dst) = static_cast<T>(v);
}

TF_HD void copy16(void* dst_shared, const void* src_global) {
#if defined(__CUDA_ARCH__)
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst_shared));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src_global) : "memory");
#else
    note_read(src_global, 16);
    std::memcpy(dst_shared, src_global, 16);
#endif
}

TF_HD void commit_copies() {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

template <int Pending>
TF_HD void wait_copies() {
#if defined(__CUDA_ARCH__)
    asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
#endif
}

TF_HD Vec16 load16(const void* p) {
#if defined(__CUDA_ARCH__)
    const uint4 v = *static_cast<const uint4*>(p);
    return Vec16{{v.x, v.y, v.z, v.w}};
#else
    Vec16 v;
    std::memcpy(&v, p, 16);
    return v;
#endif
}

TF_HD void store16(void* p, const Vec16& v) {
#if defined(__CUDA_ARCH__)
    *static_cast<uint4*>(p) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
#else
    if (g_write_hook) g_write_hook(p, 16);
    std::memcpy(p, &v, 16);
#endif
}

TF_HD std::uint32_t load_word(const unsigned char* p) {
    return *reinterpret_cast<const std::uint32_t*>(p);
}

// Element c of a line of n through the border rule: 0 for Border::zero outside.
template <class T>
TF_HD std::uint32_t sample(const unsigned char* line, long long c, long long n,
                           long long elem_stride, Border border) {
    if (c < 0 || c >= n) c = border_index(c, n, border);
    if (c < 0) return 0;
    note_read(line + c * elem_stride, sizeof(T));
    return *reinterpret_cast<const T*>(line + c * elem_stride);
}

// ======================================= filter X =======================================
// A block owns one segment of one row: L = threads * K * 4 output bytes, the segments of a row
// tiling the 16-byte-aligned addresses from the one at or below the row's start, so that any
// row phase (a u8 row of 4097 bytes starts anywhere) reads and writes whole aligned 16-byte
// blocks inside the row and single elements only at its two ends. Shared memory mirrors the
// addresses: the staged input line holds the segment and its halo at the same offsets mod 16,
// the output line the segment. Thread t walks the K words of outputs t*K .. t*K + K - 1 (K odd,
// so the 32 lanes' words fall in 32 different banks), reading the entering and the leaving
// samples a word at a time, aligned by one byte permute each.

struct XGeom {
    int threads = 128;
    int k_words = 1;    // K, odd
    int seg_bytes = 0;  // L = threads * K * 4
    int lo = 0;         // staged line: offsets lo .. lo + in_bytes from the segment's start
                        // (lo a multiple of 32: see x_geometry)
    int in_bytes = 0;   // staged bytes (16-byte multiple, with 16 bytes of slack at the end)
    int segs = 1;       // segments per row (for the row phase 15, the widest)
    int radius = 0;
    std::uint32_t m = 0;  // reciprocal(2r + 1)
};

inline int round_up16(int v) { return (v + 15) / 16 * 16; }

// Threads and segment length for rows of row_bytes bytes: as few segments as K <= 33 allows
// (long runs amortise each thread's seed of 2r + 1 samples), plus `more_segs` (shorter segments,
// more blocks per multiprocessor), K odd and just long enough.
inline XGeom x_geometry(long long row_bytes, int elem, int radius, int threads = 128,
                        int more_segs = 0) {
    XGeom g;
    g.threads = threads;
    g.radius = radius;
    g.m = reciprocal(2 * radius + 1);
    constexpr long long kMaxK = 33;
    const long long span = row_bytes + 15;  // the widest phase
    const long long per_k = 4LL * threads;
    const long long segs = (span + per_k * kMaxK - 1) / (per_k * kMaxK) + more_segs;
    long long k = ((span + segs - 1) / segs + per_k - 1) / per_k;
    k |= 1;
    g.k_words = static_cast<int>(k);
    g.seg_bytes = static_cast<int>(per_k * k);
    g.segs = static_cast<int>((span + g.seg_bytes - 1) / g.seg_bytes);
    // The lead is a multiple of 32 bytes, not just 16. cp.async copies of a 128-byte-aligned
    // stretch of global memory into shared memory 48 or 80 bytes (mod 128) past an aligned
    // address run about 6% slower on an H100 than at any other multiple of 16 (a plain staging
    // copy: 88.5% of copy against 93-94.5, bench/results/2026-11-27-h100-s22/lab/async_offset.cu).
    // A lead of 16-byte rounding hit 48 at r = 31..46 and 80 at r = 64 (u8): the u8 8192x8192
    // kernel ran at 85-88% of copy there against 96-98 at r = 48..63, same geometry and blocks
    // per SM; rounded to 32: 97-98.6 at r = 32 and 64, u16 r = 32 89.9 -> 98.6 (r57, r58).
    // x_line now also places the line at its global offset mod 128, which suits any lead; the
    // rounding stays, as measured (16 bytes of shared memory at most).
    g.lo = -(((radius + 1) * elem + 31) / 32 * 32);
    g.in_bytes = g.seg_bytes - g.lo + round_up16(radius * elem) + 16;
    return g;
}

// The filter X launcher's geometries, in the order it tries them (x_plan in
// fast_typed_filters.cu): 64 threads in as few segments as K <= 33 allows, 128 threads (the
// kernel's launch bound), 64 threads in one segment more. The emulation test runs each.
struct XChoice {
    int threads;
    int more_segs;
};
constexpr int kXMaxThreads = 128;
constexpr XChoice kXChoices[] = {{64, 0}, {kXMaxThreads, 0}, {64, 1}};

// The staged line starts up to kXLineShift bytes into shared memory (x_line), the output line
// after its latest end.
constexpr int kXLineShift = 112;

inline std::size_t x_smem_bytes(const XGeom& g) {
    return static_cast<std::size_t>(g.in_bytes) + kXLineShift +
           static_cast<std::size_t>(g.seg_bytes);
}

// One row of the launch: its start and the byte offset of segment `seg` from it (negative for
// the first segment of a row that does not start on 16 bytes).
struct XRow {
    const unsigned char* in = nullptr;
    unsigned char* out = nullptr;
    long long row_bytes = 0;
    long long seg_rel = 0;
};

TF_HD XRow x_row(const void* in, void* out, std::size_t pitch, long long cols, int elem,
                 long long row, int seg, const XGeom& g) {
    XRow r;
    r.in = static_cast<const unsigned char*>(in) + row * static_cast<long long>(pitch);
    r.out = static_cast<unsigned char*>(out) + row * static_cast<long long>(pitch);
    r.row_bytes = cols * elem;
    const long long phase = static_cast<long long>(reinterpret_cast<std::uintptr_t>(r.in) & 15);
    r.seg_rel = -phase + static_cast<long long>(seg) * g.seg_bytes;
    return r;
}

// Where a row segment's staged line starts in shared memory (smem 128-byte aligned): at the
// same offset mod 128 as its first byte's global address, so that the asynchronous copies of
// every row phase (dense rows of any width) land at the offset the copies like best (see the
// lead in x_geometry: 48 or 80 bytes off cost 6%).
TF_HD unsigned char* x_line(unsigned char* smem, const XRow& row, const XGeom& g) {
    const long long first =
        static_cast<long long>(reinterpret_cast<std::uintptr_t>(row.in)) + row.seg_rel + g.lo;
    return smem + (first & 127);
}

TF_HD unsigned char* x_out_line(unsigned char* smem, const XGeom& g) {
    return smem + g.in_bytes + kXLineShift;
}

// Stage: thread t copies the staged blocks t, t + threads, ...: whole 16-byte blocks inside the
// row asynchronously, blocks across either end (and beyond) element by element through the
// border rule.
// Stage: the staged blocks wholly inside the row go as 16-byte asynchronous copies, thread t
// taking blocks t, t + threads, ...; the elements of the blocks across either end (and beyond)
// come through the border rule, spread over all threads one element each (a block's 16 elements
// in one thread were 16 dependent trips to memory that the whole block waited on at its barrier).
// Blocks from the row's end plus r samples on hold nothing an output inside the row reads (the
// segment of a row's last part reaches up to a segment past it): they stay unstaged, and the
// threads whose outputs all lie past the row's end do not walk.
template <class T>
TF_HD void x_stage(const XRow& row, long long cols, Border border, const XGeom& g, int t,
                   unsigned char* line) {
    constexpr int kElems = 16 / sizeof(T);
    const long long blocks = g.in_bytes / 16;
    const long long base = row.seg_rel + g.lo;  // block j starts at base + 16 j from the row
    const long long used = row.row_bytes + static_cast<long long>(g.radius) * sizeof(T);
    const auto clamp = [blocks](long long j) { return j < 0 ? 0 : j > blocks ? blocks : j; };
    // Blocks [ja, jb) lie inside the row, [0, bu) hold what the outputs read.
    const long long ja = clamp(base >= 0 ? 0 : (-base + 15) / 16);
    const long long jb = clamp(row.row_bytes - base >= 16 ? (row.row_bytes - base) / 16 : 0);
    const long long bu = clamp(used - base > 0 ? (used - base + 15) / 16 : 0);
    for (long long j = ja + t; j < jb; j += g.threads)
        copy16(line + 16 * j, row.in + base + 16 * j);
    const long long left = (ja < bu ? ja : bu) * kElems;  // elements of blocks [0, min(ja, bu))
    const long long r0 = ja > jb ? ja : jb;               // right edge: blocks [r0, bu)
    const long long right = bu > r0 ? (bu - r0) * kElems : 0;
    const long long edge = left + right;
    const auto at_of = [&](long long e) { return e < left ? e : r0 * kElems + (e - left); };
    const auto read = [&](long long at) {  // exact division: base % size == 0
        const long long c =
            (base + at * static_cast<long long>(sizeof(T))) / static_cast<long long>(sizeof(T));
        return sample<T>(row.in, c, cols, sizeof(T), border);
    };
    // Two elements a thread per pass, both read before either is stored: at r = 64 a u8 row's
    // edges hold 160 elements for 128 threads, and a second pass of the one-element loop waited
    // for the first pass's read (the shared-memory store may alias the global read for the
    // compiler). H100, u8 8000x6000 at r = 48..64: 93-97 -> 98-103% of copy (r57).
    for (long long e = t; e < edge; e += 2LL * g.threads) {
        const long long e2 = e + g.threads;
        const long long a1 = at_of(e), a2 = at_of(e2);
        const std::uint32_t v1 = read(a1);
        const std::uint32_t v2 = e2 < edge ? read(a2) : 0;
        *reinterpret_cast<T*>(line + a1 * sizeof(T)) = static_cast<T>(v1);
        if (e2 < edge) *reinterpret_cast<T*>(line + a2 * sizeof(T)) = static_cast<T>(v2);
    }
}

// The elements in bytes [a, b) of the staged line (a, b multiples of the element size, b > a),
// a word at a time, the end words masked.
template <class T>
TF_HD std::uint32_t line_sum(const unsigned char* line, int a, int b, std::uint32_t acc) {
    const int fw = a >> 2, lw = (b - 1) >> 2;
    const std::uint32_t head = 0xffffffffu << (8 * (a & 3));
    const std::uint32_t tail = 0xffffffffu >> (8 * (3 - ((b - 1) & 3)));
    if (fw == lw) return add_word<T>(load_word(line + 4 * fw) & head & tail, acc);
    acc = add_word<T>(load_word(line + 4 * fw) & head, acc);
    for (int w = fw + 1; w < lw; ++w) acc = add_word<T>(load_word(line + 4 * w), acc);
    return add_word<T>(load_word(line + 4 * lw) & tail, acc);
}

// Four u8 outputs (bytes of one word) or two u16 outputs from the entering and leaving words.
// Each output's sum comes straight from the running sum before the word, s + (its entering
// prefix) - (its leaving prefix), two mixed-sign dot products against prefix masks: eight dp4a
// for four u8 outputs where adding and subtracting byte by byte took eight permutes and four
// adds, and the dependent chain is two instructions per word, not two per element.
template <class T, bool Unit>
TF_HD std::uint32_t x_step_word(std::uint32_t enter, std::uint32_t leave, std::uint32_t& s,
                                std::uint32_t m) {
    if constexpr (sizeof(T) == 1) {
        const std::uint32_t s0 = dot_signed<T>(leave, 0x000000ffu, dot_signed<T>(enter, 0x01u, s));
        const std::uint32_t s1 =
            dot_signed<T>(leave, 0x0000ffffu, dot_signed<T>(enter, 0x0101u, s));
        const std::uint32_t s2 =
            dot_signed<T>(leave, 0x00ffffffu, dot_signed<T>(enter, 0x010101u, s));
        s = dot_signed<T>(leave, 0xffffffffu, dot_signed<T>(enter, 0x01010101u, s));
        const std::uint32_t q0 = mean<Unit>(s0, m), q1 = mean<Unit>(s1, m);
        const std::uint32_t q2 = mean<Unit>(s2, m), q3 = mean<Unit>(s, m);
        return perm(perm(q0, q1, 0x0040u), perm(q2, q3, 0x0040u), 0x5410u);
    } else {
        const std::uint32_t s0 = dot_signed<T>(leave, 0x00ffu, dot_signed<T>(enter, 0x0001u, s));
        s = dot_signed<T>(leave, 0xffffu, dot_signed<T>(enter, 0x0101u, s));
        return perm(mean<Unit>(s0, m), mean<Unit>(s, m), 0x5410u);
    }
}

// Walk: thread t's outputs at segment bytes t*K*4 .. (t+1)*K*4 - 1, a word per step.
// `inside`: the segment's bytes before the row's end.
template <class T, bool Unit, int Unroll = 1>
TF_HD void x_walk(const XGeom& g, int t, const unsigned char* line, unsigned char* out_line,
                  long long inside) {
    constexpr int kSize = sizeof(T);
    const int r = g.radius;
    const int i0 = t * g.k_words * 4;
    if (i0 >= inside) return;
    // The window before the first output, biased by r: samples i0 - (r+1) .. i0 + r - 1.
    std::uint32_t s = line_sum<T>(line, i0 - (r + 1) * kSize - g.lo, i0 + r * kSize - g.lo,
                                  static_cast<std::uint32_t>(r));
    const int e_at = i0 + r * kSize - g.lo;        // entering sample of the first output
    const int l_at = i0 - (r + 1) * kSize - g.lo;  // leaving sample of the first output
    const std::uint32_t e_sel = 0x3210u + 0x1111u * static_cast<std::uint32_t>(e_at & 3);
    const std::uint32_t l_sel = 0x3210u + 0x1111u * static_cast<std::uint32_t>(l_at & 3);
    const unsigned char* ep = line + (e_at & ~3);
    const unsigned char* lp = line + (l_at & ~3);
    std::uint32_t e_prev = load_word(ep), l_prev = load_word(lp);
    std::uint32_t* o = reinterpret_cast<std::uint32_t*>(out_line + i0);
    TF_UNROLL_N(Unroll)
    for (int j = 0; j < g.k_words; ++j) {
        ep += 4;
        lp += 4;
        const std::uint32_t e_next = load_word(ep), l_next = load_word(lp);
        o[j] =
            x_step_word<T, Unit>(perm(e_prev, e_next, e_sel), perm(l_prev, l_next, l_sel), s, g.m);
        e_prev = e_next;
        l_prev = l_next;
    }
}

// Write back: thread t stores the output blocks t, t + threads, ... of the segment: whole
// 16-byte blocks inside the row, single elements across its ends, nothing outside it.
template <class T>
TF_HD void x_write(const XRow& row, const XGeom& g, int t, const unsigned char* out_line) {
    const int blocks = g.seg_bytes / 16;
    for (int j = t; j < blocks; j += g.threads) {
        const long long rel = row.seg_rel + 16LL * j;
        if (rel + 16 <= 0 || rel >= row.row_bytes) continue;
        const unsigned char* src = out_line + 16 * j;
        if (rel >= 0 && rel + 16 <= row.row_bytes) {
            store16(row.out + rel, load16(src));
        } else {
            for (int e = 0; e < 16; e += static_cast<int>(sizeof(T))) {
                const long long b = rel + e;
                if (b >= 0 && b < row.row_bytes)
                    put<T>(row.out + b, *reinterpret_cast<const T*>(src + e));
            }
        }
    }
}

// ======================================= filter Y =======================================
// A thread's W words (4W bytes) of one row, and their store.
template <int W>
struct alignas(4 * W) Chunk {
    std::uint32_t w[W];
};

template <int W>
TF_HD void store_chunk(unsigned char* p, const Chunk<W>& v) {
#if defined(__CUDA_ARCH__)
    if constexpr (W == 4)
        *reinterpret_cast<uint4*>(p) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
    else if constexpr (W == 2)
        *reinterpret_cast<uint2*>(p) = make_uint2(v.w[0], v.w[1]);
    else
        *reinterpret_cast<std::uint32_t*>(p) = v.w[0];
#else
    if (g_write_hook) g_write_hook(p, 4 * W);
    std::memcpy(p, &v, 4 * W);
#endif
}

// The strip walk: a block of G row groups of Lanes threads owns a strip of 4 W Lanes bytes of
// columns (thread t the W words at 4 W (t % Lanes)) and walks a run of rows with its sums in
// registers. The rows stream through one ring in shared memory shared by the whole block, filled
// with 16-byte cp.async copies by every thread, Ahead groups of Step = G L rows beyond the step
// being summed. The ring holds the step's leaving and entering rows and the groups in flight:
// 2r + 1 + (Ahead + 1) Step rows. Stream position p is input row first + dir p; the seed sums
// positions 0 .. 2r (output 0), then output j >= 1 adds position 2r + j and takes position j - 1
// away. Group 0 is positions 0 .. 2r + Step (the seed and step 0's entering rows), group k >= 1
// positions 2r + 1 + k Step .. 2r + (k + 1) Step: step k's entering rows, whose slots last held
// positions up to (k - 1) Step + Step - 1, read in step k - 1 at the latest, before the barrier
// that opens step k. Even walks go down, odd ones up, so neighbours read their shared halo rows
// at the same moment (once from DRAM). The ring's first L - 1 rows are copied a second time past
// its end (its tail), so the L rows a row group reads in a step are L consecutive slots from
// any start: without the tail, about a third of the u8 walk's steps took a path that wrapped
// row by row, 245 instructions per 16 rows against 144 (sm_90 SASS).

struct YWGeom {
    int strip_bytes = 512;  // 4 W Threads
    int strips = 1;
    int walks = 1;
    long long walk_rows = 1;
    int ring = 1;  // rows: 2r + 1 + (Ahead + 1) Step
    int tail = 0;  // L - 1: the ring's first rows again past its end
    int radius = 0;
    std::uint32_t m = 0;
};

inline int yw_ring_rows(int radius, int step, int ahead) {
    return 2 * radius + 1 + (ahead + 1) * step;
}

// The rows of shared memory the ring takes: the ring and its tail of group_rows - 1.
inline int yw_alloc_rows(int radius, int step, int ahead, int group_rows) {
    return yw_ring_rows(radius, step, ahead) + group_rows - 1;
}

// The walks' count: about one per `target_rows` (>= 1) output rows, each of at least min_rows (a
// walk pays a seed of 2r rows and its pipeline's fill), nudged by up to a quarter where another
// count fills the last wave of `resident` blocks better. But where such a walk would seed at
// least half as many rows as it outputs and the strips alone take half of the resident blocks,
// one walk per strip: no seeds but the image's own ends. (H100, r = 64, four row groups, one
// block per multiprocessor: the 8000x6000 colour u16 image, 71 strips of its 36000-byte rows for
// 132 blocks, ran at 92.1-92.5% of copy in one walk per strip, three calls, against 88.1-90.6 in
// walks of 256 rows and 88.2-89.7 in 384 or 512; the 8192x8192 u16 image, 32 strips, at 88.3-88.9
// in one wave of four walks per strip against 90.9-91.6 in walks of 256 rows.)
inline long long yw_walks(long long rows, int strips, long long resident, long long target_rows,
                          long long min_rows, int radius) {
    const long long most = rows / min_rows > 0 ? rows / min_rows : 1;
    const auto clamp = [most](long long w) { return w < 1 ? 1 : w > most ? most : w; };
    if (4LL * radius >= target_rows && 2LL * strips >= resident) return 1;
    const auto busy = [&](long long w) {
        const long long walk_rows = (rows + w - 1) / w;
        const long long blocks = strips * ((rows + walk_rows - 1) / walk_rows);
        const long long waves = (blocks + resident - 1) / resident;
        return static_cast<double>(blocks) / static_cast<double>(waves * resident);
    };
    const long long w0 = clamp((rows + target_rows / 2) / target_rows);
    long long best = w0;
    for (long long d = 1; d <= w0 / 4; ++d)
        for (long long w : {w0 - d, w0 + d})
            if (clamp(w) == w && busy(w) > busy(best) + 0.02) best = w;
    return best;
}

// The strips that cover a row (the last one may end past it).
inline long long yw_strips(long long row_bytes, int strip_bytes) {
    return (row_bytes + strip_bytes - 1) / strip_bytes;
}

// Rows per walk for one full wave: as many walks per strip as the resident blocks hold for every
// strip at once (at least one), the rows split evenly between them.
inline long long yw_one_wave_rows(long long rows, long long row_bytes, int strip_bytes,
                                  long long resident) {
    const long long strips = yw_strips(row_bytes, strip_bytes);
    const long long walks = resident / strips > 1 ? resident / strips : 1;
    return (rows + walks - 1) / walks;
}

// Whether `blocks` in one wave keep at least 90% of the `resident` slots busy.
inline bool yw_fills_one_wave(long long blocks, long long resident) {
    return blocks <= resident && 10 * blocks >= 9 * resident;
}

inline YWGeom yw_geometry(long long rows, long long row_bytes, int radius, int strip_bytes,
                          int step, int group_rows, int ahead, long long resident,
                          long long target_rows, long long min_rows) {
    YWGeom g;
    g.strip_bytes = strip_bytes;
    g.radius = radius;
    g.m = reciprocal(2 * radius + 1);
    g.ring = yw_ring_rows(radius, step, ahead);
    g.tail = group_rows - 1;
    g.strips = static_cast<int>(yw_strips(row_bytes, strip_bytes));
    const long long walks = yw_walks(rows, g.strips, resident, target_rows, min_rows, radius);
    g.walk_rows = (rows + walks - 1) / walks;
    g.walks = static_cast<int>((rows + g.walk_rows - 1) / g.walk_rows);
    return g;
}

TF_HD std::size_t yw_smem_bytes(const YWGeom& g) {
    return static_cast<std::size_t>(g.ring + g.tail) * static_cast<std::size_t>(g.strip_bytes);
}

// Block `block`'s strip and walk: blocks side by side along a row walk the same rows.
struct YWalk {
    long long sb = 0;         // the strip's first byte in a row
    long long n_out = 0;      // output rows
    long long first = 0;      // input row of stream position 0
    long long first_out = 0;  // output row of output 0
    long long dir = 1;        // +1 down, -1 up
    long long stream = 0;     // stream positions: n_out + 2r
};

TF_HD YWalk yw_walk(const YWGeom& g, long long rows, long long block) {
    YWalk w;
    const long long walk = block / g.strips;
    w.sb = (block - walk * g.strips) * static_cast<long long>(g.strip_bytes);
    const long long y0 = walk * g.walk_rows;
    w.n_out = rows - y0 < g.walk_rows ? rows - y0 : g.walk_rows;
    const bool up = (walk & 1) != 0;
    w.dir = up ? -1 : 1;
    w.first = up ? y0 + w.n_out - 1 + g.radius : y0 - g.radius;
    w.first_out = up ? y0 + w.n_out - 1 : y0;
    w.stream = w.n_out + 2 * g.radius;
    return w;
}

// Group k's stream positions [p0, p1) and the ring slot of p0. Called for k = 0, 1, 2, ... in
// turn, it steps the slot from the last group's: no division in the walk's loop. (With the strip
// a run-time value and the slot a 64-bit remainder, a thread's copies cost two divisions per
// step, about 60 of the 800 instructions of a u8 step; without them, in an A/B harness on an
// H200, the u8 walk ran 1-2 points of copy faster at r <= 4 and 2.5-8 at r = 64, u16 one group
// 1-5 faster, but u16 four groups 2-3 slower, for a reason not found: kept for the rest.)
struct YWGroup {
    long long p0 = 0, p1 = 0;
    int slot = 0;
    TF_HD void next(const YWGeom& g, int step, int k) {
        const long long base = 2LL * g.radius + 1;
        p0 = k == 0 ? 0 : base + static_cast<long long>(k) * step;
        p1 = base + static_cast<long long>(k + 1) * step;
        if (k == 1) {
            slot = static_cast<int>(p0 % g.ring);
        } else if (k > 1) {
            slot += step;  // step < ring
            if (slot >= g.ring) slot -= g.ring;
        }
    }
};

// Thread t of Threads' copies of group `gr`'s stream positions (clipped to the stream): 16-byte
// block t % (Strip / 16) of rows p0 + t / (Strip / 16), every rows-per-pass rows (fewer than the
// ring's). A row landing in one of the ring's first `tail` slots lands in the tail too. Blocks
// starting past the row's end copy nothing (their columns are never stored); a block across it
// reads inside the pitch (rows on 16 bytes). Rows past the matrix come through the border rule; a
// group wholly inside it (all but a walk's first and last few) steps its source pointer instead,
// and a whole group of Step rows, in a count of copies fixed at compile time.
template <int Strip, int Threads, int Step>
TF_HD void yw_load(const unsigned char* in, long long rows, long long row_bytes, std::size_t pitch,
                   Border border, const YWGeom& g, const YWalk& w, const YWGroup& gr, int t,
                   unsigned char* ring) {
    constexpr int bpr = Strip / 16;
    constexpr int rpp = Threads / bpr;
    const long long cb = w.sb + 16LL * (t % bpr);
    if (cb >= row_bytes) return;
    const long long p0 = gr.p0;
    const long long p1 = gr.p1 < w.stream ? gr.p1 : w.stream;
    long long p = p0 + t / bpr;
    if (p >= p1) return;
    int slot = gr.slot + t / bpr;
    if (slot >= g.ring) slot -= g.ring;
    unsigned char* dst = ring + 16 * (t % bpr);
    const long long tail_bytes = static_cast<long long>(g.ring) * Strip;
    const auto next_slot = [&] {
        slot += rpp;
        if (slot >= g.ring) slot -= g.ring;
    };
    const long long ya = w.first + w.dir * p0, yb = w.first + w.dir * (p1 - 1);
    if (ya >= 0 && ya < rows && yb >= 0 && yb < rows) {
        const long long step = w.dir * rpp * static_cast<long long>(pitch);
        const unsigned char* src = in + (w.first + w.dir * p) * static_cast<long long>(pitch) + cb;
        const auto copy = [&] {
            unsigned char* d = dst + static_cast<long long>(slot) * Strip;
            copy16(d, src);
            if (slot < g.tail) copy16(d + tail_bytes, src);
            src += step;
            next_slot();
        };
        if constexpr (Step % rpp == 0) {
            if (p1 - p0 == Step) {
                TF_UNROLL
                for (int j = 0; j < Step / rpp; ++j) copy();
                return;
            }
        }
        for (; p < p1; p += rpp) copy();
        return;
    }
    for (; p < p1; p += rpp) {
        long long y = w.first + w.dir * p;
        unsigned char* d = dst + static_cast<long long>(slot) * Strip;
        if (y < 0 || y >= rows) y = border_index(y, rows, border);
        const auto fill = [&](unsigned char* to) {
            if (y < 0)
                *reinterpret_cast<Vec16*>(to) = Vec16{};  // Border::zero
            else
                copy16(to, in + y * static_cast<long long>(pitch) + cb);
        };
        fill(d);
        if (slot < g.tail) fill(d + tail_bytes);
        next_slot();
    }
}

// A word of u8 as two words of two 16-bit lanes (columns 0, 1 and 2, 3), or of u16 as two
// words of one sample each: the form the sums take.
template <class T>
TF_HD void to_lanes(std::uint32_t x, std::uint32_t* v) {
    if constexpr (sizeof(T) == 1) {
        v[0] = perm(x, 0, 0x4140u);
        v[1] = perm(x, 0, 0x4342u);
    } else {
        v[0] = x & 0xffffu;
        v[1] = x >> 16;
    }
}

// The rounded means of the two sum words of one output word, packed back into it.
template <class T, bool Unit>
TF_HD std::uint32_t from_lanes(const std::uint32_t* s, std::uint32_t m) {
    if constexpr (sizeof(T) == 1) {
        const std::uint32_t q0 = mean<Unit>(s[0] & 0xffffu, m), q1 = mean<Unit>(s[0] >> 16, m);
        const std::uint32_t q2 = mean<Unit>(s[1] & 0xffffu, m), q3 = mean<Unit>(s[1] >> 16, m);
        return perm(perm(q0, q1, 0x0040u), perm(q2, q3, 0x0040u), 0x5410u);
    } else {
        return perm(mean<Unit>(s[0], m), mean<Unit>(s[1], m), 0x5410u);
    }
}

// A thread of the walk: word column w = t % Lanes of the strip, row group g = t / Lanes. In step
// k (Step = G L outputs) row group g owns the L outputs from 1 + k Step + g L on: it first takes
// their differences (entering minus leaving row, in the sums' lane form: packed 16-bit lanes go
// negative in between, but every sum the arithmetic modulo 2^32 lands on is a true window sum,
// whose lanes lie in [0, 2^16): 129 * 255 + 64 for u8) and posts their total to the exchange; after
// a barrier it starts from the step's opening sums plus the totals of the groups before it. Every
// group keeps the step's closing sums (all G totals). So the G row groups sum a step side by side,
// G times the warps on the same ring.
template <int W, int L>
struct YWState {
    std::uint32_t s[2 * W];     // the sums before this step's first output
    std::uint32_t d[L][2 * W];  // this step's differences
    long long cw = 0;           // the thread's first byte in a row
    bool live = false;          // owns columns inside the row
    bool whole = false;         // all of its 4W bytes inside the row
    int w = 0, g = 0;
    int es = 0, ls = 0;  // ring slots of the next step's first entering and leaving rows
};

// The exchange: 2W words per thread, row group g's at xch + (g Lanes + w) 2W.
template <int W>
TF_HD std::uint32_t* yw_xch(std::uint32_t* xch, int lanes, int g, int w) {
    return xch + (static_cast<long long>(g) * lanes + w) * 2 * W;
}

// One output chunk: whole, or element by element across the row's end.
template <class T, int W>
TF_HD void yw_store(unsigned char* dst, const Chunk<W>& v, long long cw, bool whole,
                    long long row_bytes) {
    if (whole) {
        store_chunk<W>(dst, v);
    } else {
        TF_UNROLL
        for (int e = 0; e < 4 * W; e += static_cast<int>(sizeof(T)))
            if (cw + e < row_bytes) put<T>(dst + e, v.w[e / 4] >> (8 * (e % 4)));
    }
}

// Seed, first half: row group g sums positions g, g + G, ... of 0 .. 2r (landed) and posts them.
template <class T, int W, int G, int L>
TF_HD void yw_seed(YWState<W, L>& st, long long row_bytes, const YWGeom& g, const YWalk& w, int t,
                   int lanes, const unsigned char* ring, std::uint32_t* xch) {
    st.w = t % lanes;
    st.g = t / lanes;
    st.cw = w.sb + 4LL * W * st.w;
    st.live = st.cw < row_bytes;
    st.whole = st.cw + 4 * W <= row_bytes;
    std::uint32_t part[2 * W] = {};
    const unsigned char* src = ring + 4 * W * st.w;
    TF_UNROLL_N(4)
    for (int p = st.g; p <= 2 * g.radius; p += G) {
        const Chunk<W> c = *reinterpret_cast<const Chunk<W>*>(src + p * g.strip_bytes);
        TF_UNROLL
        for (int i = 0; i < W; ++i) {
            std::uint32_t v[2];
            to_lanes<T>(c.w[i], v);
            part[2 * i] += v[0];
            part[2 * i + 1] += v[1];
        }
    }
    std::uint32_t* x = yw_xch<W>(xch, lanes, st.g, st.w);
    TF_UNROLL
    for (int i = 0; i < 2 * W; ++i) x[i] = part[i];
    // Step 0: outputs 1 + g L .. on, entering 2r + 1 + g L, leaving g L.
    st.es = (2 * g.radius + 1 + st.g * L) % g.ring;
    st.ls = (st.g * L) % g.ring;
}

// Seed, second half (after a barrier): the window of output 0, biased by r; row group 0 stores
// output 0.
template <class T, bool Unit, int W, int G, int L>
TF_HD void yw_seed_out(YWState<W, L>& st, unsigned char* out, long long row_bytes,
                       std::size_t pitch, const YWGeom& g, const YWalk& w, int lanes,
                       const std::uint32_t* xch) {
    const int r = g.radius;
    const std::uint32_t bias =
        sizeof(T) == 1 ? static_cast<std::uint32_t>(r) * 0x10001u : static_cast<std::uint32_t>(r);
    TF_UNROLL
    for (int i = 0; i < 2 * W; ++i) st.s[i] = bias;
    TF_UNROLL
    for (int h = 0; h < G; ++h) {
        const std::uint32_t* x = yw_xch<W>(const_cast<std::uint32_t*>(xch), lanes, h, st.w);
        TF_UNROLL
        for (int i = 0; i < 2 * W; ++i) st.s[i] += x[i];
    }
    if (st.live && st.g == 0) {
        Chunk<W> v;
        TF_UNROLL
        for (int i = 0; i < W; ++i) v.w[i] = from_lanes<T, Unit>(st.s + 2 * i, g.m);
        yw_store<T, W>(out + w.first_out * static_cast<long long>(pitch) + st.cw, v, st.cw,
                       st.whole, row_bytes);
    }
}

// Step k, first half: this row group's differences and their total, posted (group k landed).
// kStrip is the ring's row: the group's rows sit at fixed offsets from its first.
template <class T, int W, int G, int L, int kStrip>
TF_HD void yw_diff(YWState<W, L>& st, const YWGeom& g, int lanes, const unsigned char* ring,
                   std::uint32_t* xch) {
    const unsigned char* base = ring + 4 * W * st.w;
    std::uint32_t tot[2 * W] = {};
    const auto take = [&](int i, const Chunk<W>& e, const Chunk<W>& l) {
        TF_UNROLL
        for (int c = 0; c < W; ++c) {
            std::uint32_t ev[2], lv[2];
            to_lanes<T>(e.w[c], ev);
            to_lanes<T>(l.w[c], lv);
            st.d[i][2 * c] = ev[0] - lv[0];
            st.d[i][2 * c + 1] = ev[1] - lv[1];
            tot[2 * c] += st.d[i][2 * c];
            tot[2 * c + 1] += st.d[i][2 * c + 1];
        }
    };
    // The tail: L slots from es (or ls) < ring never wrap.
    const unsigned char* ep = base + st.es * kStrip;
    const unsigned char* lp = base + st.ls * kStrip;
    TF_UNROLL
    for (int i = 0; i < L; ++i)
        take(i, *reinterpret_cast<const Chunk<W>*>(ep + i * kStrip),
             *reinterpret_cast<const Chunk<W>*>(lp + i * kStrip));
    st.es += G * L;
    if (st.es >= g.ring) st.es -= g.ring;
    st.ls += G * L;
    if (st.ls >= g.ring) st.ls -= g.ring;
    if constexpr (G > 1) {
        std::uint32_t* x = yw_xch<W>(xch, lanes, st.g, st.w);
        TF_UNROLL
        for (int i = 0; i < 2 * W; ++i) x[i] = tot[i];
    } else {
        (void)xch;
        (void)lanes;
    }
}

// Step k, second half (after a barrier): this row group's outputs, and the step's closing sums.
template <class T, bool Unit, int W, int G, int L>
TF_HD void yw_out(YWState<W, L>& st, unsigned char* out, long long row_bytes, std::size_t pitch,
                  const YWGeom& g, const YWalk& w, int lanes, int k, const std::uint32_t* xch) {
    // Threads past the row's end (in a strip across it) store nothing, and no thread reads
    // their sums. Were they to run the element-wise path below, a warp holding both kinds would
    // run both paths, and its block would wait on it at every step: that strip's blocks took
    // 40% longer on an H200, and the whole filter with them.
    if (!st.live) return;
    std::uint32_t s[2 * W];
    TF_UNROLL
    for (int i = 0; i < 2 * W; ++i) s[i] = st.s[i];
    if constexpr (G > 1) {
        TF_UNROLL
        for (int h = 0; h < G; ++h) {
            const std::uint32_t* x = yw_xch<W>(const_cast<std::uint32_t*>(xch), lanes, h, st.w);
            TF_UNROLL
            for (int i = 0; i < 2 * W; ++i) {
                if (h < st.g) s[i] += x[i];
                st.s[i] += x[i];
            }
        }
    }
    const long long j0 = 1 + (static_cast<long long>(k) * G + st.g) * L;
    const long long step = w.dir * static_cast<long long>(pitch);
    unsigned char* dst = out + (w.first_out + w.dir * j0) * static_cast<long long>(pitch) + st.cw;
    const auto next = [&](int i) {
        Chunk<W> v;
        TF_UNROLL
        for (int c = 0; c < W; ++c) {
            s[2 * c] += st.d[i][2 * c];
            s[2 * c + 1] += st.d[i][2 * c + 1];
            v.w[c] = from_lanes<T, Unit>(s + 2 * c, g.m);
        }
        return v;
    };
    if (st.whole && j0 + L <= w.n_out) {  // the common case: whole chunks, every output inside
        TF_UNROLL
        for (int i = 0; i < L; ++i) {
            store_chunk<W>(dst, next(i));
            dst += step;
        }
    } else {
        TF_UNROLL
        for (int i = 0; i < L; ++i) {
            const Chunk<W> v = next(i);
            if (st.live && j0 + i < w.n_out) yw_store<T, W>(dst, v, st.cw, st.whole, row_bytes);
            dst += step;
        }
    }
    if constexpr (G == 1) {
        TF_UNROLL
        for (int i = 0; i < 2 * W; ++i) st.s[i] = s[i];
    }
}

// ============================ any alignment: one thread per line ============================
// Filter Y on rows that do not all start on 16 bytes (a dense u8 image of odd width), and
// filter X should its input and output rows ever differ in phase: a thread owns one line
// (a column for Y) and walks a segment of it with a running sum, every sample a scalar load;
// the leaving sample is read again from L1/L2. Slower, but exact for any shape.
template <class T, bool Unit>
TF_HD void line_thread(const unsigned char* in, unsigned char* out, long long n,
                       long long elem_stride, long long line_offset, long long y0, long long n_out,
                       int r, Border border, std::uint32_t m) {
    const unsigned char* src = in + line_offset;
    unsigned char* dst = out + line_offset;
    std::uint32_t s = static_cast<std::uint32_t>(r);
    for (long long d = -r - 1; d < r; ++d) s += sample<T>(src, y0 + d, n, elem_stride, border);
    for (long long y = y0; y < y0 + n_out; ++y) {
        s = s + sample<T>(src, y + r, n, elem_stride, border) -
            sample<T>(src, y - r - 1, n, elem_stride, border);
        put<T>(dst + y * elem_stride, mean<Unit>(s, m));
    }
}

}  // namespace coalesce::typed_filters
