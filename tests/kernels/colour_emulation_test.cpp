// The tuned colour kernels on interleaved pixels (kernels/colour_interleaved.cu) run on the host,
// thread by thread and block by block, through the very functions the kernels call
// (kernels/colour_interleaved.cuh): every global read inside the input allocation and aligned to
// its size, every shared access inside the block's shared memory, every output byte written
// exactly once, every value equal to the typed reference, for u8/u16, 3 and 4 channels, odd
// shapes, dense rows at every phase and pitched rows, the four borders and radii up to 64.
#include "colour_interleaved.cuh"

#include "coalesce/typed_reference.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <variant>
#include <vector>

namespace coalesce {
namespace {

namespace ck = colour_kernels;

// An allocation of exactly `bytes` on a 16-byte boundary, as cudaMalloc gives.
struct Buffer {
    unsigned char* p = nullptr;
    std::size_t n = 0;
    explicit Buffer(std::size_t bytes)
        : p(static_cast<unsigned char*>(::operator new (bytes ? bytes : 1, std::align_val_t{16}))),
          n(bytes) {}
    ~Buffer() { ::operator delete (p, std::align_val_t{16}); }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
};

struct Range {
    const unsigned char* lo = nullptr;
    const unsigned char* hi = nullptr;
    bool holds(const void* p, std::size_t n) const {
        const auto* c = static_cast<const unsigned char*>(p);
        return c >= lo && c + n <= hi && reinterpret_cast<std::uintptr_t>(c) % n == 0;
    }
};

struct Checks {
    Range read, write, shared, shared2;  // shared2: a block's second shared array
    std::vector<int>* counts = nullptr;  // per byte of the output allocation
    int bad_reads = 0, bad_writes = 0, bad_shared = 0;
};
Checks g;

void on_read(const void* p, std::size_t n) {
    if (!g.read.holds(p, n)) ++g.bad_reads;
}
void on_write(const void* p, std::size_t n) {
    if (!g.write.holds(p, n)) {
        ++g.bad_writes;
        return;
    }
    const auto* c = static_cast<const unsigned char*>(p);
    for (std::size_t i = 0; i < n; ++i) ++(*g.counts)[c + i - g.write.lo];
}
void on_shared(const void* p, std::size_t n) {
    if (!g.shared.holds(p, n) && !g.shared2.holds(p, n)) ++g.bad_shared;
}

struct Hooks {
    Hooks() {
        g = Checks{};
        ck::g_read_hook = on_read;
        ck::g_write_hook = on_write;
        ck::g_shared_hook = on_shared;
    }
    // Reads inside `in` and writes inside `out` (each counted per byte in `counts`) are allowed.
    Hooks(const Buffer& in, const Buffer& out, std::vector<int>& counts) : Hooks() {
        g.read = {in.p, in.p + in.n};
        g.write = {out.p, out.p + out.n};
        g.counts = &counts;
    }
    ~Hooks() {
        ck::g_read_hook = nullptr;
        ck::g_write_hook = nullptr;
        ck::g_shared_hook = nullptr;
    }
};

// A device-like image: rows of cols pixels, `pitch` bytes apart, starting `offset` bytes into a
// 16-aligned allocation of exactly offset + rows * pitch bytes.
template <class T, int CH>
struct DevImage {
    static constexpr std::size_t P = CH * sizeof(T);
    std::size_t rows, cols, pitch, offset;
    Buffer buf;
    DevImage(std::size_t r, std::size_t c, std::size_t pitch_bytes, std::size_t off)
        : rows(r), cols(c), pitch(pitch_bytes), offset(off), buf(off + r * pitch_bytes) {}
    ck::Img img() {
        return {buf.p + offset, static_cast<long long>(rows), static_cast<long long>(cols),
                static_cast<long long>(pitch)};
    }
    T get(std::size_t r, std::size_t c, int ch) const {
        T v;
        std::memcpy(&v, buf.p + offset + r * pitch + c * P + ch * sizeof(T), sizeof(T));
        return v;
    }
};

template <class T, int CH>
TypedImage<T> random_image(std::size_t rows, std::size_t cols, unsigned seed) {
    TypedImage<T> image(rows, cols, CH);
    std::mt19937 gen(seed);
    for (std::size_t i = 0; i < image.size(); ++i) image.data()[i] = static_cast<T>(gen());
    return image;
}

template <class T, int CH>
void put(DevImage<T, CH>& dev, const TypedImage<T>& image) {
    std::memset(dev.buf.p, 0x5A, dev.buf.n);
    for (std::size_t r = 0; r < image.rows(); ++r)
        std::memcpy(dev.buf.p + dev.offset + r * dev.pitch, image.data() + r * image.cols() * CH,
                    image.cols() * CH * sizeof(T));
}

// Every byte of the output image written once, none of the padding or the offset.
template <class T, int CH>
void expect_written_once(const DevImage<T, CH>& out, std::size_t elem,
                         const std::vector<int>& counts, const std::string& what) {
    int wrong = 0;
    for (std::size_t b = 0; b < out.buf.n; ++b) {
        const bool inside = b >= out.offset &&
                            (b - out.offset) % out.pitch < out.cols * CH * elem &&
                            (b - out.offset) / out.pitch < out.rows;
        if (counts[b] != (inside ? 1 : 0) && ++wrong <= 3)
            ADD_FAILURE() << what << ": byte " << b << " written " << counts[b] << " times";
    }
    EXPECT_EQ(g.bad_reads, 0) << what;
    EXPECT_EQ(g.bad_writes, 0) << what;
    EXPECT_EQ(g.bad_shared, 0) << what;
}

// Dense rows (pitch = cols * P) at offset 0 and, where it changes the row phase, at offsets that
// keep elements aligned; pitched rows on 512 bytes.
struct Layout {
    bool pitched;
    std::size_t offset;
};
template <class T>
std::vector<Layout> layouts() {
    return {{false, 0}, {false, 2 * sizeof(T)}, {false, 6 * sizeof(T) + 4}, {true, 0}};
}

std::size_t pitch_of(std::size_t row_bytes, bool pitched) {
    return pitched ? (row_bytes + 511) / 512 * 512 : row_bytes;
}

const std::vector<std::pair<std::size_t, std::size_t>> kShapes = {
    {1, 1}, {37, 1}, {1, 37}, {33, 65}, {65, 1029}, {4097, 3}, {3, 2100}};

// ---- transpose ----

template <class T, int CH>
void check_transpose() {
    constexpr int P = CH * sizeof(T);
    for (auto [rows, cols] : kShapes)
        for (Layout layout : layouts<T>()) {
            const std::string what = std::to_string(rows) + "x" + std::to_string(cols) + " x" +
                                     std::to_string(CH) + " " + std::to_string(sizeof(T) * 8) +
                                     "-bit offset " + std::to_string(layout.offset) +
                                     (layout.pitched ? " pitched" : "");
            const TypedImage<T> image = random_image<T, CH>(rows, cols, 7);
            DevImage<T, CH> in(rows, cols, pitch_of(cols * P, layout.pitched), layout.offset);
            DevImage<T, CH> out(cols, rows, pitch_of(rows * P, layout.pitched), layout.offset);
            put(in, image);
            std::memset(out.buf.p, 0xEE, out.buf.n);
            std::vector<int> counts(out.buf.n);
            Hooks hooks(in.buf, out.buf, counts);
            Buffer tile(ck::TransposeTile<P>::bytes);
            g.shared = {tile.p, tile.p + tile.n};
            const long long tx = (cols + ck::kTile - 1) / ck::kTile;
            const long long ty = (rows + ck::kTile - 1) / ck::kTile;
            for (long long b = 0; b < tx * ty; ++b) {
                const long long r0 = b / tx * ck::kTile, c0 = b % tx * ck::kTile;
                const bool words = ck::transpose_words(in.img(), out.img(), r0, c0);
                for (int t = 0; t < ck::kTThreads; ++t)
                    ck::transpose_load<P>(in.img(), tile.p, r0, c0, words, t);
                for (int t = 0; t < ck::kTThreads; ++t)
                    ck::transpose_store<P>(out.img(), tile.p, r0, c0, words, t);
            }
            expect_written_once(out, sizeof(T), counts, what);
            const TypedImage<T> want = typed::transpose(image);
            int wrong = 0;
            for (std::size_t r = 0; r < cols; ++r)
                for (std::size_t c = 0; c < rows; ++c)
                    for (int ch = 0; ch < CH; ++ch)
                        if (out.get(r, c, ch) != want.at(r, c, ch) && ++wrong <= 3)
                            ADD_FAILURE() << what << ": (" << r << ", " << c << ", " << ch << ")";
        }
}

TEST(ColourTransposeEmulation, EveryPixelMovesOnceToItsPlace) {
    check_transpose<std::uint8_t, 3>();
    check_transpose<std::uint8_t, 4>();
    check_transpose<std::uint16_t, 3>();
    check_transpose<std::uint16_t, 4>();
}

// ---- row sums ----

template <class T, int CH, class Acc>
void check_row_sums() {
    constexpr int P = CH * sizeof(T);
    for (auto [rows, cols] : kShapes)
        for (Layout layout : layouts<T>()) {
            const std::string what = std::to_string(rows) + "x" + std::to_string(cols) + " x" +
                                     std::to_string(CH) + " " + std::to_string(sizeof(T) * 8) +
                                     "-bit offset " + std::to_string(layout.offset);
            const TypedImage<T> image = random_image<T, CH>(rows, cols, 11);
            DevImage<T, CH> in(rows, cols, pitch_of(cols * P, layout.pitched), layout.offset);
            put(in, image);
            Hooks hooks;
            g.read = {in.buf.p, in.buf.p + in.buf.n};
            const ck::Img img = in.img();
            const typed::IntegerSums want_sums = typed::row_sums(image);
            for (std::size_t r = 0; r < rows; ++r) {
                Acc total[CH] = {};
                int head = -1;
                for (int lane = 0; lane < 32; ++lane) {
                    Acc acc[CH];
                    const int h = ck::row_sums_lane<T, CH, Acc>(img.data + r * img.pitch, img.cols,
                                                                lane, acc);
                    if (head >= 0) {
                        EXPECT_EQ(h, head) << "every lane peels the same head";
                    }
                    head = h;
                    for (int s = 0; s < CH; ++s) total[s] += acc[s];
                }
                for (int s = 0; s < CH; ++s) {
                    const int ch = (s + head) % CH;
                    const auto want = std::visit(
                        [&](const auto& sums) { return static_cast<Acc>(sums.at(r, 0, ch)); },
                        want_sums);
                    ASSERT_EQ(total[s], want) << what << ": row " << r << " channel " << ch;
                }
            }
            EXPECT_EQ(g.bad_reads, 0) << what;
        }
}

TEST(ColourRowSumsEmulation, EveryLaneReadsItsShareOnceAndTheChannelsComeOutRight) {
    check_row_sums<std::uint8_t, 3, std::uint32_t>();
    check_row_sums<std::uint8_t, 4, std::uint32_t>();
    check_row_sums<std::uint16_t, 3, std::uint32_t>();
    check_row_sums<std::uint16_t, 4, std::uint64_t>();
}

// ---- filter X ----

template <class T, int CH>
void check_filter_x(int radius, Border border) {
    constexpr int P = CH * sizeof(T);
    for (auto [rows, cols] : kShapes)
        for (Layout layout : layouts<T>()) {
            const std::string what = std::to_string(rows) + "x" + std::to_string(cols) + " x" +
                                     std::to_string(CH) + " " + std::to_string(sizeof(T) * 8) +
                                     "-bit offset " + std::to_string(layout.offset) + " r" +
                                     std::to_string(radius) + " " +
                                     std::string(border_name(border));
            const TypedImage<T> image = random_image<T, CH>(rows, cols, 5 + radius);
            const std::size_t pitch = pitch_of(cols * P, layout.pitched);
            DevImage<T, CH> in(rows, cols, pitch, layout.offset);
            DevImage<T, CH> out(rows, cols, pitch, layout.offset);
            put(in, image);
            std::memset(out.buf.p, 0xEE, out.buf.n);
            std::vector<int> counts(out.buf.n);
            Hooks hooks(in.buf, out.buf, counts);
            Buffer sin(static_cast<std::size_t>(ck::x_in_bytes<P>(radius)));
            Buffer sout(static_cast<std::size_t>(ck::x_out_bytes<P>()));
            const long long segments =
                (static_cast<long long>(cols) + ck::kXSegment - 1) / ck::kXSegment;
            for (std::size_t r = 0; r < rows; ++r)
                for (long long seg = 0; seg < segments; ++seg) {
                    const ck::XSegment s =
                        ck::x_segment<T, CH>(static_cast<long long>(cols), radius, seg);
                    const unsigned char* src = in.img().data + r * pitch;
                    unsigned char* dst = out.img().data + r * pitch;
                    const bool words = ck::aligned4(src) && ck::aligned4(dst);
                    g.shared = {sin.p, sin.p + sin.n};
                    g.shared2 = {};
                    for (int t = 0; t < ck::kXThreads; ++t)
                        ck::x_load<T, CH>(src, static_cast<long long>(cols), border, s, words,
                                          sin.p, t);
                    g.shared2 = {sout.p, sout.p + sout.n};
                    for (int t = 0; t < ck::kXThreads; ++t)
                        ck::x_compute<T, CH>(s, radius, ck::x_reciprocal(radius), sin.p, sout.p, t);
                    g.shared = {sout.p, sout.p + sout.n};
                    for (int t = 0; t < ck::kXThreads; ++t)
                        ck::x_store<T, CH>(dst, s, words, sout.p, t);
                }
            expect_written_once(out, sizeof(T), counts, what);
            const TypedImage<T> want = typed::filter_x(image, radius, border);
            int wrong = 0;
            for (std::size_t r = 0; r < rows; ++r)
                for (std::size_t c = 0; c < cols; ++c)
                    for (int ch = 0; ch < CH; ++ch)
                        if (out.get(r, c, ch) != want.at(r, c, ch) && ++wrong <= 3)
                            ADD_FAILURE()
                                << what << ": (" << r << ", " << c << ", " << ch << ") got "
                                << +out.get(r, c, ch) << ", expected " << +want.at(r, c, ch);
        }
}

TEST(ColourFilterXEmulation, EveryOutputWrittenOnceAndExactAtEveryBorderAndRadius) {
    for (Border border : {Border::clamp, Border::zero, Border::wrap, Border::mirror})
        for (int radius : {0, 1, 4, 64}) {
            check_filter_x<std::uint8_t, 3>(radius, border);
            check_filter_x<std::uint16_t, 4>(radius, border);
        }
    for (int radius : {3, 17}) {
        check_filter_x<std::uint8_t, 4>(radius, Border::mirror);
        check_filter_x<std::uint16_t, 3>(radius, Border::wrap);
    }
}

// The multiply-high mean is floor(s / k) for every biased window sum (s < 2^24), every k.
TEST(ColourFilterXEmulation, TheMeanIsExactOverTheWholeRange) {
    for (int r = 0; r <= kMaxRadius; ++r) {
        const std::uint32_t k = 2 * r + 1, m = ck::x_reciprocal(r);
        const std::uint32_t step = r == kMaxRadius || r == 1 ? 1 : 97;
        for (std::uint32_t s = 0; s < (1u << 24); s += step)
            ASSERT_EQ(ck::x_mean(s, m), s / k) << "s " << s << " k " << k;
    }
}

}  // namespace
}  // namespace coalesce
