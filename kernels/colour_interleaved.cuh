// The per-thread work of the tuned colour kernels on interleaved pixels (colour_interleaved.cu),
// written once for the device and the host: a host test (tests/kernels/colour_emulation_test.cpp)
// runs these very functions thread by thread, block by block, to show that every global read
// stays inside the image, every shared access inside the block's shared memory, every output
// byte is written exactly once and every value equals the reference, on odd shapes.
//
// A pixel is P = channels * sizeof(T) bytes (3, 4, 6 or 8). The kernels move bytes as 4-byte
// words wherever rows start on 4 bytes (every image of the benchmark sizes) and element by
// element elsewhere; a pixel's channels are told apart in registers or in shared memory.
#pragma once

#include "coalesce/operation.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__CUDACC__)
#define CI_HD __host__ __device__ __forceinline__
#else
#define CI_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define CI_UNROLL _Pragma("unroll")
#else
#define CI_UNROLL
#endif

namespace coalesce::colour_kernels {

using u8 = std::uint8_t;
using u32 = std::uint32_t;

// An image as the kernels see it: rows of cols pixels, pitch bytes apart.
struct Img {
    unsigned char* data = nullptr;
    long long rows = 0;
    long long cols = 0;   // pixels
    long long pitch = 0;  // [bytes]
};

struct alignas(16) Vec16 {
    u32 w[4];
};

#if !defined(__CUDA_ARCH__)
// Host emulation only: every global read and write and every shared access (address, bytes).
inline void (*g_read_hook)(const void*, std::size_t) = nullptr;
inline void (*g_write_hook)(const void*, std::size_t) = nullptr;
inline void (*g_shared_hook)(const void*, std::size_t) = nullptr;
#define CI_HOOK(hook, p, n) \
    if (hook) hook(p, n)
#else
#define CI_HOOK(hook, p, n)
#endif

template <class U>
CI_HD U load(const unsigned char* p) {
    CI_HOOK(g_read_hook, p, sizeof(U));
    return *reinterpret_cast<const U*>(p);
}
template <class U>
CI_HD void store(unsigned char* p, U v) {
    CI_HOOK(g_write_hook, p, sizeof(U));
    *reinterpret_cast<U*>(p) = v;
}
template <class U>
CI_HD U sload(const unsigned char* p) {
    CI_HOOK(g_shared_hook, p, sizeof(U));
    return *reinterpret_cast<const U*>(p);
}
template <class U>
CI_HD void sstore(unsigned char* p, U v) {
    CI_HOOK(g_shared_hook, p, sizeof(U));
    *reinterpret_cast<U*>(p) = v;
}

CI_HD bool aligned4(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 4 == 0; }

// floor(a / b) for b > 0 and any a.
CI_HD long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// ---- transpose: tiles of 32 x 32 pixels through shared memory ----

inline constexpr int kTile = 32;  // pixels each way
inline constexpr int kTThreads = 256;

template <int P>
struct TransposeTile {
    static constexpr int row_bytes = kTile * P;  // one tile row of pixels (96..256 bytes)
    static constexpr int words = row_bytes / 4;
    static constexpr int stride = row_bytes + 4;  // a spare word per row: rows fall on other banks
    static constexpr int bytes = kTile * stride;
};

// Whole tiles of images whose rows start on 4 bytes move as words; the rest byte by byte.
CI_HD bool transpose_words(const Img& in, const Img& out, long long r0, long long c0) {
    return r0 + kTile <= in.rows && c0 + kTile <= in.cols && aligned4(in.data) &&
           in.pitch % 4 == 0 && aligned4(out.data) && out.pitch % 4 == 0;
}

// Tile row q holds the pixels of input row r0 + q, columns c0.., as bytes.
template <int P>
CI_HD void transpose_load(const Img& in, unsigned char* tile, long long r0, long long c0,
                          bool words, int tid) {
    using G = TransposeTile<P>;
    if (words) {
        CI_UNROLL
        for (int k = 0; k < P; ++k) {  // 32 rows x 8P words: P per thread
            const int w = tid + kTThreads * k;
            const int q = w / G::words, wi = w % G::words;
            sstore<u32>(tile + q * G::stride + 4 * wi,
                        load<u32>(in.data + (r0 + q) * in.pitch + c0 * P + 4 * wi));
        }
        return;
    }
    for (int b = tid; b < kTile * G::row_bytes; b += kTThreads) {
        const int q = b / G::row_bytes, bi = b % G::row_bytes;
        if (r0 + q < in.rows && c0 + bi / P < in.cols)
            sstore<u8>(tile + q * G::stride + bi,
                       load<u8>(in.data + (r0 + q) * in.pitch + c0 * P + bi));
    }
}

// Output row c0 + i is input column c0 + i: its bytes r0 * P.. are tile column i, row by row.
template <int P>
CI_HD void transpose_store(const Img& out, const unsigned char* tile, long long r0, long long c0,
                           bool words, int tid) {
    using G = TransposeTile<P>;
    if (words) {
        CI_UNROLL
        for (int k = 0; k < P; ++k) {
            const int w = tid + kTThreads * k;
            const int i = w / G::words, wi = w % G::words;
            u32 v = 0;
            CI_UNROLL
            for (int j = 0; j < 4; ++j) {
                const int b = 4 * wi + j;
                v |= static_cast<u32>(sload<u8>(tile + (b / P) * G::stride + i * P + b % P))
                     << (8 * j);
            }
            store<u32>(out.data + (c0 + i) * out.pitch + r0 * P + 4 * wi, v);
        }
        return;
    }
    for (int b = tid; b < kTile * G::row_bytes; b += kTThreads) {
        const int i = b / G::row_bytes, bi = b % G::row_bytes;
        const int q = bi / P;
        if (c0 + i < out.rows && r0 + q < out.cols)
            store<u8>(out.data + (c0 + i) * out.pitch + r0 * P + bi,
                      sload<u8>(tile + q * G::stride + i * P + bi % P));
    }
}

// ---- row sums: a warp per row, 16-byte loads of whole pixel groups ----

inline constexpr int kRThreads = 256;  // 8 warps, a row each

// The bytes of one load group: a whole number of 16-byte vectors and of pixels.
template <int P>
inline constexpr int kChunk = P % 3 == 0 ? 48 : 16;

// The stream channel of true channel t when the aligned body starts at element `head`.
template <int CH>
CI_HD int stream_of(int t, int head) {
    return (t - head % CH + CH) % CH;
}

template <int CH, class Acc>
CI_HD void add_at(Acc (&acc)[CH], int s, u32 v) {
    CI_UNROLL
    for (int i = 0; i < CH; ++i)
        if (i == s) acc[i] += v;
}

// Bytes k of a word whose element (4 w + k) falls on stream channel s, as a dp4a mask.
template <int CH>
CI_HD constexpr u32 byte_mask(int w, int s) {
    u32 m = 0;
    for (int k = 0; k < 4; ++k)
        if ((4 * w + k) % CH == s) m |= 1u << (8 * k);
    return m;
}

CI_HD u32 dot4(u32 v, u32 mask, u32 acc) {
#if defined(__CUDA_ARCH__)
    return __dp4a(v, mask, acc);
#else
    for (int k = 0; k < 4; ++k) acc += ((v >> (8 * k)) & 0xffu) * ((mask >> (8 * k)) & 0xffu);
    return acc;
#endif
}

// One load group's elements added to part[stream channel].
template <class T, int CH>
CI_HD void add_chunk(const Vec16 (&v)[kChunk<CH * sizeof(T)> / 16], u32 (&part)[CH]) {
    constexpr int kWords = kChunk<CH * sizeof(T)> / 4;
    CI_UNROLL
    for (int w = 0; w < kWords; ++w) {
        const u32 word = v[w / 4].w[w % 4];
        if constexpr (sizeof(T) == 1) {
            CI_UNROLL
            for (int s = 0; s < CH; ++s) part[s] = dot4(word, byte_mask<CH>(w, s), part[s]);
        } else {
            part[(2 * w) % CH] += word & 0xffffu;
            part[(2 * w + 1) % CH] += word >> 16;
        }
    }
}

// Lane `lane`'s partial sums of one row, by stream channel (element e of the row is on stream
// channel (e - head) mod CH); returns head, the elements peeled before the first 16-byte
// boundary, so that stream channel s is true channel (s + head) mod CH.
template <class T, int CH, class Acc>
CI_HD int row_sums_lane(const unsigned char* row, long long cols, int lane, Acc (&acc)[CH]) {
    constexpr int sz = sizeof(T), P = CH * sz, CB = kChunk<P>, V = CB / 16;
    const long long nbytes = cols * P;
    const long long mis = static_cast<long long>(reinterpret_cast<std::uintptr_t>(row) % 16);
    const long long head_bytes = mis == 0 ? 0 : (16 - mis < nbytes ? 16 - mis : nbytes);
    const int head = static_cast<int>(head_bytes / sz);
    CI_UNROLL
    for (int s = 0; s < CH; ++s) acc[s] = 0;
    if (lane < head) add_at<CH>(acc, stream_of<CH>(lane % CH, head), load<T>(row + lane * sz));
    const unsigned char* body = row + head_bytes;
    const long long chunks = (nbytes - head_bytes) / CB;
    long long c = lane;
    for (; c + 3 * 32 < chunks; c += 4 * 32) {  // four groups in flight
        Vec16 v[4][V];
        CI_UNROLL
        for (int u = 0; u < 4; ++u) CI_UNROLL
        for (int i = 0; i < V; ++i) v[u][i] = load<Vec16>(body + (c + 32 * u) * CB + 16 * i);
        u32 part[CH] = {};
        CI_UNROLL
        for (int u = 0; u < 4; ++u) add_chunk<T, CH>(v[u], part);
        CI_UNROLL
        for (int s = 0; s < CH; ++s) acc[s] += part[s];
    }
    for (; c < chunks; c += 32) {
        Vec16 v[V];
        CI_UNROLL
        for (int i = 0; i < V; ++i) v[i] = load<Vec16>(body + c * CB + 16 * i);
        u32 part[CH] = {};
        add_chunk<T, CH>(v, part);
        CI_UNROLL
        for (int s = 0; s < CH; ++s) acc[s] += part[s];
    }
    for (long long b = head_bytes + chunks * CB + lane * sz; b < nbytes; b += 32 * sz)
        add_at<CH>(acc, stream_of<CH>(static_cast<int>((b / sz) % CH), head), load<T>(row + b));
    return head;
}

// ---- filter X: a block per row segment of 1024 pixels, running sums per thread ----

inline constexpr int kXThreads = 128;
inline constexpr int kXRun = 8;                      // consecutive pixels per thread
inline constexpr int kXSegment = kXThreads * kXRun;  // pixels per block

// A spare word after every thread's run of kXRun pixels in shared memory: a run is 2P words,
// so neighbouring threads start 2P + 1 words apart, an odd stride, on different banks.
// In 32 bits (shared offsets are small): a division by a constant is a multiply-high.
template <int P>
CI_HD long long padded(long long b) {
    const auto u = static_cast<unsigned>(b);
    return u + 4u * (u / static_cast<unsigned>(kXRun * P));
}

// [bytes] of the block's shared memory: the input segment with its halo, then the output.
template <int P>
CI_HD long long x_in_bytes(int r) {
    return (padded<P>((kXSegment + 2LL * r) * P + 8) + 4 + 15) / 16 * 16;
}
template <int P>
CI_HD long long x_out_bytes() {
    return (padded<P>(static_cast<long long>(kXSegment) * P) + 4 + 15) / 16 * 16;
}

// A block's segment: pixels p0..pend of its row, read with r pixels of halo each side as
// elements e_begin..e_end of the row; shared byte ph + (e - e_begin) * sizeof(T) (then padded)
// holds element e, so that row byte b sits at b - base, base = e_begin * sizeof(T) rounded down
// to 4 bytes: words of the row are words of shared memory.
struct XSegment {
    long long p0 = 0, pend = 0;
    long long e_begin = 0, e_end = 0;
    long long base = 0;
    int ph = 0;
};

template <class T, int CH>
CI_HD XSegment x_segment(long long cols, int r, long long seg) {
    XSegment g;
    g.p0 = seg * kXSegment;
    g.pend = g.p0 + kXSegment < cols ? g.p0 + kXSegment : cols;
    g.e_begin = (g.p0 - r) * CH;
    g.e_end = (g.pend + r) * CH;
    const long long b = g.e_begin * static_cast<long long>(sizeof(T));
    g.base = floor_div(b, 4) * 4;
    g.ph = static_cast<int>(b - g.base);
    return g;
}

template <class T, int CH>
CI_HD void x_load(const unsigned char* row, long long cols, Border border, const XSegment& g,
                  bool words, unsigned char* sin, int tid) {
    constexpr int sz = sizeof(T), P = CH * sz;
    const long long n = cols * CH;  // elements of the row
    const long long lo = g.e_begin > 0 ? g.e_begin : 0;
    const long long hi = g.e_end < n ? g.e_end : n;
    if (words) {
        const long long row_bytes = n * sz;
        for (long long w = lo * sz / 4 + tid; w < (hi * sz + 3) / 4; w += kXThreads) {
            const long long b = 4 * w;
            if (b + 4 <= row_bytes) {
                sstore<u32>(sin + padded<P>(b - g.base), load<u32>(row + b));
            } else {
                for (long long x = b; x < row_bytes; ++x)
                    sstore<u8>(sin + padded<P>(x - g.base), load<u8>(row + x));
            }
        }
    } else {
        for (long long e = lo + tid; e < hi; e += kXThreads)
            sstore<T>(sin + padded<P>(g.ph + (e - g.e_begin) * sz), load<T>(row + e * sz));
    }
    // The halo outside the row, through the border rule (only the first and last segments).
    const auto halo = [&](long long e) {
        const long long px = floor_div(e, CH);
        const long long i = border_index(px, cols, border);
        const T v = i < 0 ? T{0} : load<T>(row + (i * CH + (e - px * CH)) * sz);
        sstore<T>(sin + padded<P>(g.ph + (e - g.e_begin) * sz), v);
    };
    const long long left_end = g.e_end < 0 ? g.e_end : 0;
    for (long long e = g.e_begin + tid; e < left_end; e += kXThreads) halo(e);
    const long long right_begin = g.e_begin > n ? g.e_begin : n;
    for (long long e = right_begin + tid; e < g.e_end; e += kXThreads) halo(e);
}

CI_HD u32 mulhi(u32 a, u32 b) {
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return static_cast<u32>((static_cast<std::uint64_t>(a) * b) >> 32);
#endif
}

// ceil(2^32 / k) for the window length k = 2r + 1 >= 3; 0 for k = 1 (the mean is the value).
// floor(n M / 2^32) = floor(n / k) for every n < 2^24 and odd k <= 129 (proved and checked over
// the whole range in fast_typed_filters.cuh and its emulation test), and a window's sum biased
// by r is below 129 * 65535 + 64 < 2^24: the rounded mean (2s + k) / (2k) is one multiply-high.
CI_HD u32 x_reciprocal(int r) {
    const std::uint64_t k = 2 * static_cast<std::uint64_t>(r) + 1;
    return k == 1 ? 0u : static_cast<u32>(((std::uint64_t{1} << 32) + k - 1) / k);
}

CI_HD u32 x_mean(u32 biased_sum, u32 m) { return m == 0 ? biased_sum : mulhi(biased_sum, m); }

// Pixel h's channels from shared byte b = ph + h * P. An RGBA pixel of u8 (P = 4) or u16
// (P = 8) starts on 4 bytes (the segment starts on a whole pixel, ph = 0) and a run's padding
// falls between pixels, so it is one or two word loads; RGB takes its elements one by one.
template <class T, int CH>
CI_HD void pixel_at(const unsigned char* sin, unsigned b, u32 (&v)[CH]) {
    constexpr int sz = sizeof(T), P = CH * sz;
    if constexpr (P == 4 || P == 8) {
        const unsigned char* p = sin + padded<P>(b);
        const u32 w0 = sload<u32>(p);
        if constexpr (P == 4) {
            CI_UNROLL
            for (int c = 0; c < 4; ++c) v[c] = (w0 >> (8 * c)) & 0xffu;
        } else {
            const u32 w1 = sload<u32>(p + 4);
            v[0] = w0 & 0xffffu;
            v[1] = w0 >> 16;
            v[2] = w1 & 0xffffu;
            v[3] = w1 >> 16;
        }
    } else {
        CI_UNROLL
        for (int c = 0; c < CH; ++c) v[c] = sload<T>(sin + padded<P>(b + c * sz));
    }
}

// Output pixel j's channels to shared byte j * P, in the layout pixel_at reads.
template <class T, int CH>
CI_HD void put_pixel(unsigned char* sout, unsigned b, const u32 (&v)[CH]) {
    constexpr int sz = sizeof(T), P = CH * sz;
    if constexpr (P == 4) {
        sstore<u32>(sout + padded<P>(b), v[0] | (v[1] << 8) | (v[2] << 16) | (v[3] << 24));
    } else if constexpr (P == 8) {
        unsigned char* p = sout + padded<P>(b);
        sstore<u32>(p, v[0] | (v[1] << 16));
        sstore<u32>(p + 4, v[2] | (v[3] << 16));
    } else {
        CI_UNROLL
        for (int c = 0; c < CH; ++c) sstore<T>(sout + padded<P>(b + c * sz), static_cast<T>(v[c]));
    }
}

// Thread tid's run of kXRun output pixels: one exact running sum per channel (add the entering
// pixel, subtract the leaving one), so an output costs the same at every radius. m is
// x_reciprocal(r).
template <class T, int CH>
CI_HD void x_compute(const XSegment& g, int r, u32 m, const unsigned char* sin, unsigned char* sout,
                     int tid) {
    constexpr int P = CH * static_cast<int>(sizeof(T));
    const int j0 = tid * kXRun;
    const long long n = g.pend - g.p0;
    if (j0 >= n) return;
    const int len = n - j0 < kXRun ? static_cast<int>(n - j0) : kXRun;
    // Pixel h of the halo'd segment (h = j + r for output pixel j) starts at shared byte
    // ph + h * P.
    const auto at = [&](int h) { return static_cast<unsigned>(g.ph + h * P); };
    u32 s[CH], v[CH], w[CH];
    CI_UNROLL
    for (int c = 0; c < CH; ++c) s[c] = static_cast<u32>(r);
    for (int d = 0; d <= 2 * r; ++d) {
        pixel_at<T, CH>(sin, at(j0 + d), v);
        CI_UNROLL
        for (int c = 0; c < CH; ++c) s[c] += v[c];
    }
    for (int i = 0;; ++i) {
        CI_UNROLL
        for (int c = 0; c < CH; ++c) v[c] = x_mean(s[c], m);
        put_pixel<T, CH>(sout, static_cast<unsigned>((j0 + i) * P), v);
        if (i + 1 >= len) break;
        pixel_at<T, CH>(sin, at(j0 + i + 1 + 2 * r), v);
        pixel_at<T, CH>(sin, at(j0 + i), w);
        CI_UNROLL
        for (int c = 0; c < CH; ++c) s[c] += v[c] - w[c];
    }
}

// The segment's output bytes p0 * P.. (on 4 bytes when rows are: kXSegment * P is a multiple
// of 4) as words, the row's last partial word byte by byte; element by element otherwise.
template <class T, int CH>
CI_HD void x_store(unsigned char* row, const XSegment& g, bool words, const unsigned char* sout,
                   int tid) {
    constexpr int sz = sizeof(T), P = CH * sz;
    const long long bytes = (g.pend - g.p0) * P;
    unsigned char* dst = row + g.p0 * P;
    if (words) {
        for (long long b = 4LL * tid; b < bytes; b += 4LL * kXThreads) {
            if (b + 4 <= bytes) {
                store<u32>(dst + b, sload<u32>(sout + padded<P>(b)));
            } else {
                for (long long x = b; x < bytes; ++x)
                    store<u8>(dst + x, sload<u8>(sout + padded<P>(x)));
            }
        }
        return;
    }
    for (long long b = static_cast<long long>(tid) * sz; b < bytes;
         b += static_cast<long long>(kXThreads) * sz)
        store<T>(dst + b, sload<T>(sout + padded<P>(b)));
}

}  // namespace coalesce::colour_kernels
