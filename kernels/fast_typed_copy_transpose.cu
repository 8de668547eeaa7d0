// copy and transpose of u8 and u16, tuned: bytes moved as 16-byte vectors on both sides.
// Copy: rows cut into 2 KiB warp segments, four uint4 in flight per lane, heads and tails peeled
// so rows at any byte phase still move in whole aligned vectors. Transpose: tiles of 128 input
// rows x 128 bytes, read as uint4 rows, transposed in registers with byte permutes (4x4 blocks of
// u8, 2x2 of u16) into 4-byte words, through an XOR-swizzled shared tile, written as uint4 rows:
// every warp reads and writes whole 128-byte lines, and no shared access has a bank conflict.
#include "coalesce/cuda_check.hpp"
#include "coalesce/kernels.hpp"
#include "device_index.cuh"
#include "device_instance.hpp"
#include "fast_variant.hpp"
#include "fast_variants.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace coalesce {
namespace {

using Byte = unsigned char;

// A typed run's device image as bytes (gpu::RawView, typed pointers for the kernels).
struct Bytes {
    Byte* data = nullptr;
    std::size_t rows = 0;
    std::size_t cols = 0;
    std::size_t pitch = 0;  // [bytes] between row starts
};

Bytes bytes_of(gpu::RawView v) {
    return {static_cast<Byte*>(v.data), v.rows, v.cols, v.pitch_bytes};
}

__host__ __device__ inline std::uintptr_t address(const void* p) {
    return reinterpret_cast<std::uintptr_t>(p);
}

// Every row starts on 16 bytes: base and pitch both multiples of 16.
bool rows_on_16b(const Bytes& v) { return address(v.data) % 16 == 0 && v.pitch % 16 == 0; }

template <class F>
void with_element(ElemType type, F&& f) {
    if (type == ElemType::u8) return f(std::uint8_t{});
    if (type == ElemType::u16) return f(std::uint16_t{});
    throw std::invalid_argument("fast typed copy/transpose: " + std::string(elem_type_name(type)) +
                                " is not u8 or u16");
}

// ---------------------------------------------------------------------------------------------
// copy

constexpr int kCopyThreads = 256;
constexpr int kCopyWarps = kCopyThreads / 32;
constexpr int kCopyUnroll = 4;                 // uint4 in flight per lane
constexpr int kSegVectors = 32 * kCopyUnroll;  // uint4 per warp segment
constexpr int kSegBytes = 16 * kSegVectors;    // 2 KiB
constexpr unsigned kCopyMaxBlocks = 1u << 16;  // 128 MiB a grid step; then grid-stride

// The rows to copy: `bytes` of each, from and to rows `in_pitch` / `out_pitch` apart. Dense
// images are one row of all their bytes. On the vector path every row has the same 16-byte
// phase, so its split is the same: `head` bytes before the first 16-byte boundary, `body` aligned
// uint4, the rest (under 16 bytes) from byte head + 16 body on.
struct CopyRows {
    const Byte* in = nullptr;
    Byte* out = nullptr;
    std::size_t rows = 0, bytes = 0, in_pitch = 0, out_pitch = 0;
    std::size_t head = 0, body = 0;
    unsigned segments = 1;  // per row
};

// Segment s of a row on the vector path: segment 0 also takes the head, the last also the tail,
// byte by byte; the body goes in aligned uint4, 128 a segment, four loads in flight per lane
// before the first store. Lanes stride by one vector: each load instruction of the warp is 512
// contiguous bytes.
__device__ __forceinline__ void copy_segment_vectors(const CopyRows& m, const Byte* src, Byte* dst,
                                                     unsigned s, unsigned lane) {
    const uint4* s4 = reinterpret_cast<const uint4*>(src + m.head);
    uint4* d4 = reinterpret_cast<uint4*>(dst + m.head);
    const std::size_t first = static_cast<std::size_t>(s) * kSegVectors + lane;
    if (first + 32 * (kCopyUnroll - 1) < m.body) {
        uint4 v[kCopyUnroll];
#pragma unroll
        for (int k = 0; k < kCopyUnroll; ++k) v[k] = __ldg(s4 + first + 32 * k);
#pragma unroll
        for (int k = 0; k < kCopyUnroll; ++k) d4[first + 32 * k] = v[k];
    } else {  // the row's last segment
#pragma unroll
        for (int k = 0; k < kCopyUnroll; ++k)
            if (first + 32 * k < m.body) d4[first + 32 * k] = __ldg(s4 + first + 32 * k);
    }
    if (s == 0 && lane < m.head) dst[lane] = src[lane];
    const std::size_t tail = m.head + 16 * m.body + lane;
    if (s == m.segments - 1 && tail < m.bytes) dst[tail] = src[tail];
}

// Segment s of a row whose source and destination differ in phase, or whose phase changes from
// row to row (no image the runner makes, but a correct path for any view): byte by byte, 2 KiB a
// segment.
__device__ __forceinline__ void copy_segment_bytes(const CopyRows& m, const Byte* src, Byte* dst,
                                                   unsigned s, unsigned lane) {
    const std::size_t end = min(m.bytes, (static_cast<std::size_t>(s) + 1) * kSegBytes);
    for (std::size_t i = static_cast<std::size_t>(s) * kSegBytes + lane; i < end; i += 32)
        dst[i] = src[i];
}

// One warp per (row, segment) item, grid-stride over the items. Items are counted in 32 bits
// (the launcher refuses more): 64-bit division doubled the registers.
template <bool Vectors>
__global__ void __launch_bounds__(kCopyThreads) fast_typed_copy_kernel(CopyRows m) {
    const unsigned lane = threadIdx.x & 31;
    const unsigned items = static_cast<unsigned>(m.rows) * m.segments;
    const unsigned stride = gridDim.x * kCopyWarps;
    for (unsigned item = blockIdx.x * kCopyWarps + threadIdx.x / 32; item < items; item += stride) {
        const unsigned r = item / m.segments, s = item - r * m.segments;
        const Byte* src = m.in + r * m.in_pitch;
        Byte* dst = m.out + r * m.out_pitch;
        if constexpr (Vectors)
            copy_segment_vectors(m, src, dst, s, lane);
        else
            copy_segment_bytes(m, src, dst, s, lane);
    }
}

void launch_fast_typed_copy(ElemType type, gpu::RawView raw_in, gpu::RawView raw_out, gpu::RawView,
                            const OpParams&, cudaStream_t stream) {
    const Bytes in = bytes_of(raw_in), out = bytes_of(raw_out);
    CopyRows m{in.data, out.data, in.rows, in.cols * elem_size(type), in.pitch, out.pitch};
    if (m.in_pitch == m.bytes && m.out_pitch == m.bytes) {  // dense: one row of every byte
        m.bytes *= m.rows;
        m.rows = 1;
    }
    // The vector path: every row of source and destination on one and the same 16-byte phase.
    const bool vectors = address(m.in) % 16 == address(m.out) % 16 &&
                         (m.rows == 1 || (m.in_pitch % 16 == 0 && m.out_pitch % 16 == 0));
    std::size_t per_row = m.bytes, per_segment = kSegBytes;
    if (vectors) {
        m.head = std::min<std::size_t>(m.bytes, (16 - address(m.in) % 16) % 16);
        m.body = (m.bytes - m.head) / 16;
        per_row = m.body;
        per_segment = kSegVectors;
    }
    const std::size_t segments =
        std::max<std::size_t>(1, (per_row + per_segment - 1) / per_segment);
    // Items and the grid-stride loop's last step (up to a grid's warps past them) in 32 bits.
    const std::size_t items = m.rows * segments;
    if (items + std::size_t{kCopyWarps} * kCopyMaxBlocks > 0xffffffffull)
        throw Unsupported("fast typed copy: more than 2^32 - 2^19 warp segments");
    m.segments = static_cast<unsigned>(segments);
    const unsigned blocks = gpu::blocks_for(items, kCopyWarps, kCopyMaxBlocks);
    if (vectors)
        fast_typed_copy_kernel<true><<<blocks, kCopyThreads, 0, stream>>>(m);
    else
        fast_typed_copy_kernel<false><<<blocks, kCopyThreads, 0, stream>>>(m);
    COALESCE_CHECK_LAUNCH("fast_typed_copy_kernel");
}

// ---------------------------------------------------------------------------------------------
// transpose, 16-byte aligned rows on both sides

constexpr int kThreads = 256;

// The tile of one block for elements of T: kRows input rows x 128 bytes of input columns. A
// thread's register block is R rows x one uint4 (V elements): after the permutes, one 4-byte word
// per column, which holds the column's R elements of those rows (R * sizeof(T) = 4).
template <class T>
struct Tile {
    static constexpr int E = sizeof(T);
    static constexpr int V = 16 / E;                            // elements per uint4
    static constexpr int R = 4 / E;                             // rows per register block
    static constexpr int kRows = 128;                           // output runs of 128 E bytes
    static constexpr int kCols = 8 * V;                         // input runs of 128 bytes
    static constexpr int kWords = kRows / R;                    // words per tile column
    static constexpr int kChunks = kWords / 4;                  // uint4 per output row of a tile
    static constexpr int kBlocks = 8 * kWords / kThreads;       // register blocks per thread: 1, 2
    static constexpr int kPasses = kCols * kChunks / kThreads;  // output uint4 per thread: 4
};
static_assert(Tile<std::uint8_t>::kBlocks == 1 && Tile<std::uint16_t>::kBlocks == 2);
static_assert(Tile<std::uint8_t>::kPasses == 4 && Tile<std::uint16_t>::kPasses == 4);

// The 4x4 byte transpose: x[k] holds bytes 0..3 of row k; y[i] gets byte i of each row, row 0 in
// its lowest byte (the lowest address). Eight byte permutes.
__device__ __forceinline__ void transpose4x4_u8(const unsigned (&x)[4], unsigned (&y)[4]) {
    const unsigned t0 = __byte_perm(x[0], x[1], 0x5140);  // x0.b0 x1.b0 x0.b1 x1.b1
    const unsigned t1 = __byte_perm(x[0], x[1], 0x7362);  // x0.b2 x1.b2 x0.b3 x1.b3
    const unsigned t2 = __byte_perm(x[2], x[3], 0x5140);
    const unsigned t3 = __byte_perm(x[2], x[3], 0x7362);
    y[0] = __byte_perm(t0, t2, 0x5410);
    y[1] = __byte_perm(t0, t2, 0x7632);
    y[2] = __byte_perm(t1, t3, 0x5410);
    y[3] = __byte_perm(t1, t3, 0x7632);
}

__device__ __forceinline__ unsigned word_of(const uint4& v, int w) {
    return w == 0 ? v.x : w == 1 ? v.y : w == 2 ? v.z : v.w;
}

// The element count a row has from column `at` on, as an int no larger than `cap`.
__device__ __forceinline__ int left_from(std::size_t extent, std::size_t at, int cap) {
    return at >= extent ? 0 : static_cast<int>(min(extent - at, static_cast<std::size_t>(cap)));
}

// The first n (< V) elements at p in a uint4, zeros after (a pitched row's last vector).
template <class T>
__device__ __forceinline__ uint4 load_part(const T* p, int n) {
    constexpr int E = sizeof(T);
    unsigned w[4] = {0, 0, 0, 0};
#pragma unroll
    for (int e = 0; e < 16 / E; ++e)
        if (e < n) w[e * E / 4] |= static_cast<unsigned>(p[e]) << (8 * (e * E % 4));
    return make_uint4(w[0], w[1], w[2], w[3]);
}

template <class T>
__device__ __forceinline__ void store_part(T* p, const uint4& v, int n) {
    constexpr int E = sizeof(T);
#pragma unroll
    for (int e = 0; e < 16 / E; ++e)
        if (e < n) p[e] = static_cast<T>(word_of(v, e * E / 4) >> (8 * (e * E % 4)));
}

// The shared tile holds tile column c (output row c0 + c) as kWords words, word g = input rows
// R g .. R g + R - 1. Word g sits at g ^ 4 (c / V mod 8): a warp's stores (8 column groups x 4
// row groups) then reach 32 banks, and the reads (8 lanes of a quarter-warp on one output row)
// find the output's uint4 q whole at chunk q ^ (c / V mod 8).
template <class T>
__device__ __forceinline__ int swizzled_word(int c, int g) {
    return c * Tile<T>::kWords + (g ^ (4 * ((c / Tile<T>::V) & 7)));
}

// One tile per block. Input: thread t takes column group cg = t mod 8 (V columns, 16 bytes) of
// rows R g .. R g + R - 1 for each of its register blocks (g = t / 8 + 32 b): a warp's load
// instruction reads four rows' whole 128-byte runs. Rows past the matrix read zeros, a pitched
// row's last vector its own elements only.
template <class T>
__global__ void __launch_bounds__(kThreads)
    fast_typed_transpose_kernel(Bytes in, Bytes out, unsigned gx) {
    using G = Tile<T>;
    __shared__ unsigned tile[G::kCols * G::kWords];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const std::size_t r0 = static_cast<std::size_t>(by) * G::kRows,
                      c0 = static_cast<std::size_t>(bx) * G::kCols;
    const int cg = threadIdx.x & 7;
    const int col_left = left_from(in.cols, c0 + G::V * cg, G::V);
    const int rows_left = left_from(in.rows, r0, G::kRows);

    uint4 a[G::kBlocks][G::R];
#pragma unroll
    for (int b = 0; b < G::kBlocks; ++b) {
#pragma unroll
        for (int k = 0; k < G::R; ++k) {
            const int y = G::R * (static_cast<int>(threadIdx.x >> 3) + 32 * b) + k;
            a[b][k] = make_uint4(0, 0, 0, 0);
            if (y >= rows_left || col_left == 0) continue;
            const T* p = reinterpret_cast<const T*>(in.data + (r0 + y) * in.pitch) + c0 + G::V * cg;
            a[b][k] = col_left == G::V ? __ldg(reinterpret_cast<const uint4*>(p))
                                       : load_part(p, col_left);
        }
    }
#pragma unroll
    for (int b = 0; b < G::kBlocks; ++b) {
        const int g = static_cast<int>(threadIdx.x >> 3) + 32 * b;
#pragma unroll
        for (int w = 0; w < 4; ++w) {  // word w of each row: columns V cg + (4 / E) w ..
            if constexpr (G::E == 1) {
                const unsigned x[4] = {word_of(a[b][0], w), word_of(a[b][1], w),
                                       word_of(a[b][2], w), word_of(a[b][3], w)};
                unsigned y[4];
                transpose4x4_u8(x, y);
#pragma unroll
                for (int i = 0; i < 4; ++i) tile[swizzled_word<T>(16 * cg + 4 * w + i, g)] = y[i];
            } else {  // 2x2 of u16: the low halves, then the high halves, row 0 below
                const unsigned x0 = word_of(a[b][0], w), x1 = word_of(a[b][1], w);
                tile[swizzled_word<T>(8 * cg + 2 * w, g)] = __byte_perm(x0, x1, 0x5410);
                tile[swizzled_word<T>(8 * cg + 2 * w + 1, g)] = __byte_perm(x0, x1, 0x7632);
            }
        }
    }
    __syncthreads();

    // Output: uint4 q of output row c0 + j is input rows r0 + V q .. r0 + V q + V - 1; a warp's
    // store instruction writes whole 128-byte runs (four u8 rows, two u16 rows).
    const int out_rows_left = left_from(in.cols, c0, G::kCols);
#pragma unroll
    for (int k = 0; k < G::kPasses; ++k) {
        const int idx = static_cast<int>(threadIdx.x) + kThreads * k;
        const int j = idx / G::kChunks, q = idx % G::kChunks;
        if (j >= out_rows_left) continue;
        const int n = left_from(in.rows, r0 + G::V * q, G::V);
        if (n == 0) continue;
        const uint4 v =
            *reinterpret_cast<const uint4*>(&tile[j * G::kWords + 4 * (q ^ ((j / G::V) & 7))]);
        T* p = reinterpret_cast<T*>(out.data + (c0 + j) * out.pitch) + r0 + G::V * q;
        if (n == G::V)
            *reinterpret_cast<uint4*>(p) = v;
        else
            store_part(p, v, n);
    }
}

// ---------------------------------------------------------------------------------------------
// transpose, rows at any phase (dense images whose rows are not 16-byte multiples): element by
// element through a 64x64 tile padded so that a warp reading down a tile column reaches 32
// different banks (rows of 68 u8 = 17 words, of 66 u16 = 33 words).

constexpr int kScalarTile = 64;

template <class T>
__global__ void __launch_bounds__(kThreads)
    fast_typed_transpose_scalar_kernel(Bytes in, Bytes out, unsigned gx) {
    constexpr int kStride = kScalarTile + 4 / sizeof(T);
    __shared__ T tile[kScalarTile * kStride];
    unsigned bx, by;
    gpu::block_xy(gx, bx, by);
    const std::size_t r0 = static_cast<std::size_t>(by) * kScalarTile,
                      c0 = static_cast<std::size_t>(bx) * kScalarTile;
    const int rows_left = left_from(in.rows, r0, kScalarTile),
              cols_left = left_from(in.cols, c0, kScalarTile);
    const int tx = threadIdx.x & (kScalarTile - 1), ty = threadIdx.x / kScalarTile;
    for (int y = ty; y < rows_left; y += kThreads / kScalarTile)
        if (tx < cols_left)
            tile[y * kStride + tx] =
                reinterpret_cast<const T*>(in.data + (r0 + y) * in.pitch)[c0 + tx];
    __syncthreads();
    for (int y = ty; y < cols_left; y += kThreads / kScalarTile)
        if (tx < rows_left)
            reinterpret_cast<T*>(out.data + (c0 + y) * out.pitch)[r0 + tx] = tile[tx * kStride + y];
}

template <class T>
void launch_transpose_of(Bytes in, Bytes out, cudaStream_t stream) {
    const bool vectors = rows_on_16b(in) && rows_on_16b(out);
    const std::size_t rows_per = vectors ? Tile<T>::kRows : kScalarTile;
    const std::size_t cols_per = vectors ? Tile<T>::kCols : kScalarTile;
    const std::size_t gx = (in.cols + cols_per - 1) / cols_per,
                      gy = (in.rows + rows_per - 1) / rows_per;
    if (gx * gy > gpu::kMaxGridX)
        throw Unsupported("fast typed transpose: more than 2^31 - 1 tiles");
    const unsigned blocks = static_cast<unsigned>(gx * gy);
    if (vectors)
        fast_typed_transpose_kernel<T>
            <<<blocks, kThreads, 0, stream>>>(in, out, static_cast<unsigned>(gx));
    else
        fast_typed_transpose_scalar_kernel<T>
            <<<blocks, kThreads, 0, stream>>>(in, out, static_cast<unsigned>(gx));
    COALESCE_CHECK_LAUNCH("fast_typed_transpose_kernel");
}

void launch_fast_typed_transpose(ElemType type, gpu::RawView in, gpu::RawView out, gpu::RawView,
                                 const OpParams&, cudaStream_t stream) {
    with_element(type, [&](auto element) {
        launch_transpose_of<decltype(element)>(bytes_of(in), bytes_of(out), stream);
    });
}

Variant typed_variant(gpu::DeviceVariantSpec spec, gpu::TypedLauncher launcher) {
    return fast::refusing_unsupported(
        gpu::make_typed_device_variant(std::move(spec), std::move(launcher)));
}

}  // namespace

void register_fast_typed_copy_transpose(Registry& registry) {
    registry.add(typed_variant(
        {"copy/fast-typed-uint4",
         Op::copy,
         space::global,
         "u8/u16 copy in 16-byte vectors, four in flight per lane, one warp per 2 KiB of a row: "
         "a dense image is one flat run; a row at any byte phase peels its head and tail byte by "
         "byte and moves the rest as aligned uint4, so every warp reads and writes whole sectors",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_typed_copy_kernel",
         {}},
        launch_fast_typed_copy));
    registry.add(typed_variant(
        {"copy/fast-typed-uint4-pitched",
         Op::copy,
         space::pitched,
         "copy/fast-typed-uint4 on cudaMallocPitch rows: each row its own 2 KiB warp segments, "
         "the row's last partial vector byte by byte",
         gpu::Layout::pitched,
         Tier::tuned,
         "fast_typed_copy_kernel",
         {}},
        launch_fast_typed_copy));
    registry.add(typed_variant(
        {"transpose/fast-typed-prmt",
         Op::transpose,
         space::shared,
         "u8/u16 transpose in tiles of 128 rows x 128 bytes: uint4 loads of four rows' whole "
         "128-byte runs per warp instruction, 4x4 u8 (2x2 u16) blocks transposed in registers "
         "with byte permutes (prmt) into 4-byte words, an XOR-swizzled shared tile without bank "
         "conflicts, uint4 stores of whole 128-byte output runs: bytes move like float4s, where "
         "one byte per thread would waste most of each sector. Rows not on 16 bytes (odd dense "
         "widths) take an element-by-element 64x64 tile",
         gpu::Layout::dense,
         Tier::tuned,
         "fast_typed_transpose_kernel",
         {}},
        launch_fast_typed_transpose));
    registry.add(typed_variant(
        {"transpose/fast-typed-prmt-pitched",
         Op::transpose,
         space::pitched,
         "transpose/fast-typed-prmt on cudaMallocPitch rows (every row on 512 bytes): the "
         "vector path at every width, the rows' last partial vectors element by element",
         gpu::Layout::pitched,
         Tier::tuned,
         "fast_typed_transpose_kernel",
         {}},
        launch_fast_typed_transpose));
}

}  // namespace coalesce
