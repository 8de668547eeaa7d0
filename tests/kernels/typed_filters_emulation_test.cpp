// The tuned u8/u16 box filters (kernels/fast_typed_filters.cu) run on the host, thread by thread,
// through the very functions the kernels call (kernels/fast_typed_filters.cuh): every global read
// inside the row (filter X) or the allocation (filter Y), every output byte written exactly once,
// every value equal to the rounded mean (2s + k) / (2k), for odd shapes, every row phase, the
// four borders and radii 0..64 (larger than the line too). Also the proof that the multiply-high
// mean is exact over the whole range of sums for every window length.
#include "fast_typed_filters.cuh"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <vector>

namespace coalesce {
namespace {

namespace tf = typed_filters;

// floor(n * ceil(2^32 / k) / 2^32) == floor(n / k) for every n < 2^24 and odd k in 3..129 (the
// sums of the u8 and u16 filters, biased by r, are below 129 * 65535 + 64 < 2^24). The quotient
// and remainder are tracked incrementally, so the check needs no division.
TEST(TypedFilterMean, MultiplyHighIsExactForEverySumAndWindow) {
    for (std::uint32_t k = 3; k <= 129; k += 2) {
        const std::uint32_t m = tf::reciprocal(static_cast<int>(k));
        std::uint32_t q = 0, rem = 0;
        for (std::uint32_t n = 0; n < (1u << 24); ++n) {
            if (tf::mulhi(n, m) != q) FAIL() << "k " << k << " n " << n;
            if (++rem == k) {
                rem = 0;
                ++q;
            }
        }
    }
    // The rounding it stands for: (2s + k) / (2k) == (s + r) / k.
    for (std::uint64_t k = 1; k <= 129; k += 2)
        for (std::uint64_t s = 0; s <= 129 * 65535; s += 7)
            ASSERT_EQ((2 * s + k) / (2 * k), (s + (k - 1) / 2) / k);
}

// An image in an allocation of exactly rows * pitch bytes on a 16-byte boundary (as cudaMalloc
// gives), so that AddressSanitizer would also catch what the hooks below miss.
struct Buffer {
    unsigned char* p = nullptr;
    std::size_t n = 0;
    explicit Buffer(std::size_t bytes)
        : p(static_cast<unsigned char*>(::operator new (bytes, std::align_val_t{16}))), n(bytes) {}
    ~Buffer() { ::operator delete (p, std::align_val_t{16}); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

// What the hooks check: reads inside [read_lo, read_hi), writes inside [write_lo, write_hi),
// each written byte counted.
struct Bounds {
    const unsigned char* read_lo = nullptr;
    const unsigned char* read_hi = nullptr;
    const unsigned char* write_lo = nullptr;
    const unsigned char* write_hi = nullptr;
    std::vector<int>* counts = nullptr;  // per byte of the output allocation
    const unsigned char* out_base = nullptr;
    int bad_reads = 0;
    int bad_writes = 0;
};
Bounds g_bounds;

void on_read(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    if (c < g_bounds.read_lo || c + n > g_bounds.read_hi) ++g_bounds.bad_reads;
}
void on_write(const void* p, std::size_t n) {
    const auto* c = static_cast<const unsigned char*>(p);
    if (c < g_bounds.write_lo || c + n > g_bounds.write_hi) {
        ++g_bounds.bad_writes;
        return;
    }
    for (std::size_t i = 0; i < n; ++i) ++(*g_bounds.counts)[c + i - g_bounds.out_base];
}

template <class T>
T at(const Buffer& b, std::size_t pitch, long long y, long long x) {
    T v;
    std::memcpy(&v, b.p + y * static_cast<long long>(pitch) + x * static_cast<long long>(sizeof(T)),
                sizeof(T));
    return v;
}

// The reference, line by line: the line's samples extended by r on each side through
// border_index, their prefix sums, and each window's exact sum rounded (2s + k) / (2k).
template <class T>
std::vector<T> expected(const Buffer& in, std::size_t pitch, long long rows, long long cols, int r,
                        Border border, bool along_x) {
    const long long n = along_x ? cols : rows;
    const long long lines = along_x ? rows : cols;
    const std::uint64_t k = 2 * static_cast<std::uint64_t>(r) + 1;
    std::vector<T> want(static_cast<std::size_t>(rows * cols));
    std::vector<std::uint64_t> prefix(static_cast<std::size_t>(n + 2 * r + 1));
    for (long long l = 0; l < lines; ++l) {
        for (long long j = 0; j < n + 2 * r; ++j) {
            const long long i = border_index(j - r, n, border);
            std::uint64_t v = 0;
            if (i >= 0) v = along_x ? at<T>(in, pitch, l, i) : at<T>(in, pitch, i, l);
            prefix[static_cast<std::size_t>(j + 1)] = prefix[static_cast<std::size_t>(j)] + v;
        }
        for (long long x = 0; x < n; ++x) {
            const std::uint64_t s = prefix[static_cast<std::size_t>(x + 2 * r + 1)] -
                                    prefix[static_cast<std::size_t>(x)];
            const long long y = along_x ? l : x, c = along_x ? x : l;
            want[static_cast<std::size_t>(y * cols + c)] = static_cast<T>((2 * s + k) / (2 * k));
        }
    }
    return want;
}

// One block of the strip-walk kernel, its threads run phase by phase between the barriers: the
// first Ahead groups of copies, the seed's halves, then per step the next group, the
// differences and the outputs. Copies land at once on the host, which the barriers make
// equivalent to the device's order.
template <class T, int Lanes, int G, int W, int L, int Ahead>
void y_walk_block(const unsigned char* in, unsigned char* out, long long rows, long long cols,
                  std::size_t pitch, Border border, const tf::YWGeom& g, int block,
                  unsigned char* ring, std::uint32_t* xch) {
    constexpr int kThreads = Lanes * G;
    const long long row_bytes = cols * static_cast<long long>(sizeof(T));
    const tf::YWalk w = tf::yw_walk(g, rows, block);
    tf::YWGroup group;
    const auto load = [&](int k) {
        group.next(g, G * L, k);
        for (int t = 0; t < kThreads; ++t)
            tf::yw_load<4 * W * Lanes, kThreads, G * L>(in, rows, row_bytes, pitch, border, g, w,
                                                        group, t, ring);
    };
    const bool unit = g.radius == 0;
    for (int k = 0; k < Ahead; ++k) load(k);
    std::vector<tf::YWState<W, L>> st(kThreads);
    for (int t = 0; t < kThreads; ++t)
        tf::yw_seed<T, W, G, L>(st[t], row_bytes, g, w, t, Lanes, ring, xch);
    for (int t = 0; t < kThreads; ++t) {
        if (unit)
            tf::yw_seed_out<T, true, W, G, L>(st[t], out, row_bytes, pitch, g, w, Lanes, xch);
        else
            tf::yw_seed_out<T, false, W, G, L>(st[t], out, row_bytes, pitch, g, w, Lanes, xch);
    }
    const int steps = static_cast<int>((w.n_out - 1 + G * L - 1) / (G * L));
    for (int k = 0; k < steps; ++k) {
        load(k + Ahead);
        for (int t = 0; t < kThreads; ++t)
            tf::yw_diff<T, W, G, L, 4 * W * Lanes>(st[t], g, Lanes, ring, xch);
        for (int t = 0; t < kThreads; ++t) {
            if (unit)
                tf::yw_out<T, true, W, G, L>(st[t], out, row_bytes, pitch, g, w, Lanes, k, xch);
            else
                tf::yw_out<T, false, W, G, L>(st[t], out, row_bytes, pitch, g, w, Lanes, k, xch);
        }
    }
}

template <class T, int Lanes, int G, int W, int L, int Ahead>
void y_walk_all(const unsigned char* in, unsigned char* out, long long rows, long long cols,
                std::size_t pitch, Border border, int r, long long resident,
                long long target_rows) {
    const int strip = 4 * W * Lanes;
    const tf::YWGeom g = tf::yw_geometry(rows, cols * static_cast<long long>(sizeof(T)), r, strip,
                                         G * L, L, Ahead, resident, target_rows, 2);
    std::vector<tf::Vec16> ring(tf::yw_smem_bytes(g) / 16);
    std::vector<std::uint32_t> xch(static_cast<std::size_t>(Lanes) * G * 2 * W);
    for (int b = 0; b < g.strips * g.walks; ++b)
        y_walk_block<T, Lanes, G, W, L, Ahead>(in, out, rows, cols, pitch, border, g, b,
                                               reinterpret_cast<unsigned char*>(ring.data()),
                                               xch.data());
}

enum class Kernel {
    x_tiled,
    x_line,
    y_line,
    y_walk,
    y_walk_two_groups,
    y_walk_two_groups_short,
    y_walk_one_wave,
    y_walk_narrow,
    y_walk_single
};

// Runs one kernel's threads on the host and checks bounds, write counts and values.
template <class T>
void check(Kernel kernel, long long rows, long long cols, bool pitched, int r, Border border,
           std::uint64_t seed) {
    const int elem = sizeof(T);
    const std::size_t row_bytes = static_cast<std::size_t>(cols) * elem;
    const std::size_t pitch = pitched ? (row_bytes + 511) / 512 * 512 : row_bytes;
    const std::size_t bytes = pitch * static_cast<std::size_t>(rows);
    Buffer in(bytes), out(bytes);
    std::mt19937_64 rng(seed);
    for (std::size_t i = 0; i < bytes; ++i) in.p[i] = static_cast<unsigned char>(rng());
    std::memset(out.p, 0xA5, bytes);
    std::vector<int> counts(bytes, 0);
    g_bounds = Bounds{};
    g_bounds.counts = &counts;
    g_bounds.out_base = out.p;
    g_bounds.read_lo = in.p;
    g_bounds.read_hi = in.p + bytes;
    g_bounds.write_lo = out.p;
    g_bounds.write_hi = out.p + bytes;
    tf::g_read_hook = on_read;
    tf::g_write_hook = on_write;
    // The hooks are off again however this check ends (a failed ASSERT returns early).
    struct HooksOff {
        ~HooksOff() {
            tf::g_read_hook = nullptr;
            tf::g_write_hook = nullptr;
        }
    } hooks_off;
    const bool unit = r == 0;

    // Every read inside bounds, every byte of each row written once, every output as expected.
    const auto verify = [&](const std::string& how) {
        const std::string what = std::to_string(static_cast<int>(kernel)) + " " +
                                 std::to_string(rows) + "x" + std::to_string(cols) + " u" +
                                 std::to_string(8 * elem) + (pitched ? " pitched" : " dense") +
                                 " r " + std::to_string(r) + " border " +
                                 std::to_string(static_cast<int>(border)) + how;
        ASSERT_EQ(g_bounds.bad_reads, 0) << what;
        ASSERT_EQ(g_bounds.bad_writes, 0) << what;
        const bool along_x = kernel == Kernel::x_tiled || kernel == Kernel::x_line;
        const std::vector<T> want = expected<T>(in, pitch, rows, cols, r, border, along_x);
        for (long long y = 0; y < rows; ++y) {
            for (std::size_t b = 0; b < pitch; ++b) {
                const int writes = b < row_bytes ? 1 : 0;
                ASSERT_EQ(counts[static_cast<std::size_t>(y) * pitch + b], writes)
                    << what << " writes of row " << y << " byte " << b;
            }
            for (long long x = 0; x < cols; ++x)
                ASSERT_EQ(at<T>(out, pitch, y, x), want[static_cast<std::size_t>(y * cols + x)])
                    << what << " at " << y << "," << x;
        }
    };

    if (kernel == Kernel::x_tiled) {
        // Each of the launcher's geometries (tf::kXChoices); the outputs are checked after each.
        for (const auto& [threads, more_segs] : tf::kXChoices) {
            std::memset(out.p, 0xA5, bytes);
            std::fill(counts.begin(), counts.end(), 0);
            const tf::XGeom g =
                tf::x_geometry(static_cast<long long>(row_bytes), elem, r, threads, more_segs);
            std::vector<tf::Vec16> smem(tf::x_smem_bytes(g) / 16);
            auto* smem_base = reinterpret_cast<unsigned char*>(smem.data());
            unsigned char* out_line = tf::x_out_line(smem_base, g);
            for (long long y = 0; y < rows; ++y) {
                for (int seg = 0; seg < g.segs; ++seg) {
                    const tf::XRow row = tf::x_row(in.p, out.p, pitch, cols, elem, y, seg, g);
                    if (row.seg_rel >= row.row_bytes) continue;
                    // Filter X reads only its own row.
                    g_bounds.read_lo = row.in;
                    g_bounds.read_hi = row.in + row_bytes;
                    g_bounds.write_lo = row.out;
                    g_bounds.write_hi = row.out + row_bytes;
                    std::memset(smem_base, 0xCD, tf::x_smem_bytes(g));
                    unsigned char* line = tf::x_line(smem_base, row, g);
                    for (int t = 0; t < g.threads; ++t)
                        tf::x_stage<T>(row, cols, border, g, t, line);
                    for (int t = 0; t < g.threads; ++t) {
                        if (unit)
                            tf::x_walk<T, true>(g, t, line, out_line, row.row_bytes - row.seg_rel);
                        else
                            tf::x_walk<T, false>(g, t, line, out_line, row.row_bytes - row.seg_rel);
                    }
                    for (int t = 0; t < g.threads; ++t) tf::x_write<T>(row, g, t, out_line);
                }
            }
            verify(", " + std::to_string(threads) + " threads, " + std::to_string(more_segs) +
                   " more segments");
            if (::testing::Test::HasFatalFailure()) break;
        }
        return;
    } else if (kernel == Kernel::y_walk) {
        // The u16 launcher shape (u8's above r = 40 until the twenty-third session): 4 row groups
        // of 128 threads, a word each, 16 rows per group and step, 2 steps in flight; about three
        // walks of every length the shapes give (down to 2 rows). The widths of kSmallShapes end
        // strips part way, so dead threads take every path.
        y_walk_all<T, 128, 4, 1, 16, 2>(in.p, out.p, rows, cols, pitch, border, r, 1 + rows / 3,
                                        2 + rows / 3);
    } else if (kernel == Kernel::y_walk_two_groups) {
        // The u8 launcher shape up to r = 40; short walks, in several waves of 1 + rows / 4.
        y_walk_all<T, 128, 2, 1, 16, 2>(in.p, out.p, rows, cols, pitch, border, r, 1 + rows / 4,
                                        3 + rows / 7);
    } else if (kernel == Kernel::y_walk_two_groups_short) {
        // The u8 launcher shape above r = 40 where one wave would not fill the chip: two groups
        // of 8-row steps.
        y_walk_all<T, 128, 2, 1, 8, 2>(in.p, out.p, rows, cols, pitch, border, r, 1 + rows / 4,
                                       3 + rows / 7);
    } else if (kernel == Kernel::y_walk_one_wave) {
        // The u8 launcher shape above r = 40 where it fills the chip: 256-byte strips, four
        // groups of 16-row steps, one step in flight, walks as long as one wave allows.
        const long long resident = 2 + rows / 5;
        y_walk_all<T, 64, 4, 1, 16, 1>(
            in.p, out.p, rows, cols, pitch, border, r, resident,
            tf::yw_one_wave_rows(rows, cols * static_cast<long long>(sizeof(T)), 256, resident));
    } else if (kernel == Kernel::y_walk_narrow) {
        // Narrow strips and short steps: many strips, a partial last step, the ring wrapping often.
        y_walk_all<T, 8, 3, 2, 2, 2>(in.p, out.p, rows, cols, pitch, border, r, 7 * (1 + rows / 5),
                                     1 + rows / 5);
    } else if (kernel == Kernel::y_walk_single) {
        // One row group (no exchange), two words a thread.
        y_walk_all<T, 4, 1, 2, 3, 3>(in.p, out.p, rows, cols, pitch, border, r, 1 + rows / 9,
                                     1 + rows / 9);
    } else {
        const bool along_x = kernel == Kernel::x_line;
        const long long n = along_x ? cols : rows;
        const long long lines = along_x ? rows : cols;
        const long long elem_stride = along_x ? elem : static_cast<long long>(pitch);
        const long long line_stride = along_x ? static_cast<long long>(pitch) : elem;
        const long long seg_len = 37;
        const std::uint32_t m = tf::reciprocal(2 * r + 1);
        for (long long y0 = 0; y0 < n; y0 += seg_len)
            for (long long l = 0; l < lines; ++l) {
                const long long n_out = n - y0 < seg_len ? n - y0 : seg_len;
                if (unit)
                    tf::line_thread<T, true>(in.p, out.p, n, elem_stride, l * line_stride, y0,
                                             n_out, r, border, m);
                else
                    tf::line_thread<T, false>(in.p, out.p, n, elem_stride, l * line_stride, y0,
                                              n_out, r, border, m);
            }
    }
    verify("");
}

const Border kBorders[] = {Border::clamp, Border::zero, Border::wrap, Border::mirror};

struct ShapeCase {
    long long rows, cols;
};
const ShapeCase kSmallShapes[] = {{1, 1},  {1, 37}, {37, 1},   {33, 65}, {37, 4},
                                  {3, 97}, {65, 3}, {7, 4097}, {70, 33}};

template <class T>
void sweep_small(Kernel kernel) {
    for (const ShapeCase s : kSmallShapes)
        for (bool pitched : {false, true})
            for (int r = 0; r <= 64; ++r)
                for (Border b : kBorders) {
                    const bool ring =
                        kernel == Kernel::y_walk || kernel == Kernel::y_walk_two_groups ||
                        kernel == Kernel::y_walk_two_groups_short ||
                        kernel == Kernel::y_walk_one_wave || kernel == Kernel::y_walk_narrow ||
                        kernel == Kernel::y_walk_single;
                    if (ring && !pitched && (s.cols * sizeof(T)) % 16 != 0)
                        continue;  // the ring kernel takes 16-byte aligned rows only
                    check<T>(kernel, s.rows, s.cols, pitched, r, b,
                             static_cast<std::uint64_t>(s.rows * 131 + s.cols + r));
                    if (::testing::Test::HasFatalFailure()) return;
                }
}

TEST(TypedFilterEmulation, FilterXTiledU8) { sweep_small<std::uint8_t>(Kernel::x_tiled); }
TEST(TypedFilterEmulation, FilterXTiledU16) { sweep_small<std::uint16_t>(Kernel::x_tiled); }
TEST(TypedFilterEmulation, FilterYWalkU8) {
    sweep_small<std::uint8_t>(Kernel::y_walk);
    sweep_small<std::uint8_t>(Kernel::y_walk_two_groups);
    sweep_small<std::uint8_t>(Kernel::y_walk_two_groups_short);
    sweep_small<std::uint8_t>(Kernel::y_walk_one_wave);
    sweep_small<std::uint8_t>(Kernel::y_walk_narrow);
    sweep_small<std::uint8_t>(Kernel::y_walk_single);
}
TEST(TypedFilterEmulation, FilterYWalkU16) {
    sweep_small<std::uint16_t>(Kernel::y_walk);
    sweep_small<std::uint16_t>(Kernel::y_walk_two_groups);
    sweep_small<std::uint16_t>(Kernel::y_walk_narrow);
    sweep_small<std::uint16_t>(Kernel::y_walk_single);
}
TEST(TypedFilterEmulation, LineKernelsU8) {
    sweep_small<std::uint8_t>(Kernel::x_line);
    sweep_small<std::uint8_t>(Kernel::y_line);
}
TEST(TypedFilterEmulation, LineKernelsU16) {
    sweep_small<std::uint16_t>(Kernel::x_line);
    sweep_small<std::uint16_t>(Kernel::y_line);
}

// Wider and taller shapes at a few radii: several segments per row (filter X), several row
// segments walking both ways (filter Y), rows of every phase.
TEST(TypedFilterEmulation, LargerShapes) {
    const ShapeCase shapes[] = {{4500, 260}, {65, 1029}, {12, 20000}, {301, 4097}, {1200, 48}};
    for (const ShapeCase s : shapes)
        for (int r : {0, 1, 4, 31, 64})
            for (Border b : kBorders) {
                check<std::uint8_t>(Kernel::x_tiled, s.rows, s.cols, false, r, b, 1);
                check<std::uint16_t>(Kernel::x_tiled, s.rows, s.cols, true, r, b, 2);
                if ((s.cols % 16) == 0)
                    check<std::uint8_t>(Kernel::y_walk, s.rows, s.cols, false, r, b, 6);
                check<std::uint8_t>(Kernel::y_walk_two_groups, s.rows, s.cols, true, r, b, 7);
                check<std::uint8_t>(Kernel::y_walk_two_groups_short, s.rows, s.cols, true, r, b, 9);
                check<std::uint8_t>(Kernel::y_walk_one_wave, s.rows, s.cols, true, r, b, 10);
                check<std::uint16_t>(Kernel::y_walk, s.rows, s.cols, true, r, b, 8);
                if (::testing::Test::HasFatalFailure()) return;
            }
}

// Where filter X's staged line lies in shared memory (a 128-byte-aligned base): at its first
// byte's global offset mod 128 for every row phase, segment, radius and geometry (cp.async is
// slow 48 or 80 bytes off), inside the block's allocation and clear of the output line.
TEST(TypedFilterXPlan, StagedLineAtItsGlobalOffsetModulo128AndClearOfTheOutputs) {
    alignas(128) static unsigned char smem[64 * 1024];
    for (int elem : {1, 2})
        for (long long row_bytes : {1LL * elem, 37LL * elem, 4097LL * elem, 8192LL, 24000LL})
            for (int r : {0, 1, 31, 32, 47, 64})
                for (const auto& [threads, more_segs] : tf::kXChoices) {
                    const tf::XGeom g = tf::x_geometry(row_bytes, elem, r, threads, more_segs);
                    ASSERT_LE(tf::x_smem_bytes(g), sizeof(smem));
                    unsigned char* out_line = tf::x_out_line(smem, g);
                    for (std::uintptr_t phase = 0; phase < 128; phase += elem) {
                        // A row starting `phase` bytes past a 128-byte boundary.
                        const auto* in = reinterpret_cast<const unsigned char*>(4096 + phase);
                        for (int seg = 0; seg < g.segs; ++seg) {
                            const tf::XRow row =
                                tf::x_row(in, nullptr, 0, row_bytes / elem, elem, 0, seg, g);
                            unsigned char* line = tf::x_line(smem, row, g);
                            const auto first = reinterpret_cast<std::uintptr_t>(in) +
                                               static_cast<std::uintptr_t>(row.seg_rel + g.lo);
                            EXPECT_EQ(static_cast<std::uintptr_t>(line - smem) % 128, first % 128)
                                << row_bytes << " " << r << " " << phase << " " << seg;
                            EXPECT_LE(line + g.in_bytes, out_line);
                            EXPECT_LE(out_line + g.seg_bytes, smem + tf::x_smem_bytes(g));
                        }
                    }
                    if (::testing::Test::HasFailure()) return;
                }
}

// The walk count the launcher's shapes get (tf::yw_walks), at the H100's resident blocks: u8 two
// row groups hold 2 x 132, four groups (and u16) 132.
TEST(TypedFilterWalkPlan, WalksOfTheTargetLengthInSeveralWaves) {
    // u8 8192x8192, r = 1: 16 strips; 64 walks of 128 rows would leave the fourth wave 88% full,
    // 66 of 125 rows fill four waves (65: 98.5%, less than two points better than 64's 97%).
    EXPECT_EQ(tf::yw_walks(8192, 16, 264, 128, 64, 1), 66);
    // u16 8192x8192, r = 64: 32 strips, 4r = 256 rows; 33 walks fill eight waves.
    EXPECT_EQ(tf::yw_walks(8192, 32, 132, 256, 128, 64), 33);
    // u8 colour, r = 64: 36 strips; 16 walks of 512 would leave the fifth wave 36% full, 18
    // fill 98% of five waves (17 only 93%).
    EXPECT_EQ(tf::yw_walks(8000, 36, 132, 512, 128, 64), 18);
    // Walks never shorter than min_rows, at least one.
    EXPECT_EQ(tf::yw_walks(300, 16, 264, 128, 128, 1), 2);
    EXPECT_EQ(tf::yw_walks(5, 16, 264, 128, 64, 1), 1);
}

// u8 above r = 40 (256-byte strips, two blocks per SM: 264 on an H100): walks as long as one wave
// allows, taken only where that wave keeps 90% of the slots busy.
TEST(TypedFilterWalkPlan, OneWaveWalksAndWhetherTheyFillTheChip) {
    // 8192x8192: 32 strips, 8 walks of 1024 rows, 256 blocks (97%).
    EXPECT_EQ(tf::yw_one_wave_rows(8192, 8192, 256, 264), 1024);
    EXPECT_EQ(tf::yw_walks(8192, 32, 264, 1024, 128, 64), 8);
    EXPECT_TRUE(tf::yw_fills_one_wave(256, 264));
    // 8000x6000: 24 strips, 11 walks of 728 rows, every slot.
    EXPECT_EQ(tf::yw_one_wave_rows(8000, 6000, 256, 264), 728);
    EXPECT_EQ(tf::yw_walks(8000, 24, 264, 728, 128, 64), 11);
    EXPECT_TRUE(tf::yw_fills_one_wave(264, 264));
    // The colour image, rows of 18000 bytes: 71 strips, 3 walks, 213 blocks (81%): not taken.
    EXPECT_EQ(tf::yw_one_wave_rows(8000, 18000, 256, 264), 2667);
    EXPECT_FALSE(tf::yw_fills_one_wave(213, 264));
    // More strips than slots: one walk per strip, and more than one wave.
    EXPECT_EQ(tf::yw_one_wave_rows(100, 100000, 256, 264), 100);
    EXPECT_FALSE(tf::yw_fills_one_wave(391, 264));
}

TEST(TypedFilterWalkPlan, OneWalkPerStripWhereSeedsCostHalfAWalkAndStripsFillHalfTheChip) {
    // u16 colour 8000x6000 x 3, r = 64: 71 strips of 132 blocks.
    EXPECT_EQ(tf::yw_walks(8000, 71, 132, 256, 128, 64), 1);
    // Not at r = 32 (a seed of 64 rows per 256), nor with 32 strips.
    EXPECT_GT(tf::yw_walks(8000, 71, 132, 256, 128, 32), 1);
    EXPECT_GT(tf::yw_walks(8192, 32, 132, 256, 128, 64), 1);
}

}  // namespace
}  // namespace coalesce
