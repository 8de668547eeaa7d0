// The on-chip experiments' operations on the CPU: references checked against cases worked by
// hand, the parameters they refuse, their bytes and access counts, and the allowance that
// verification grants the texture unit's interpolation.
#include "coalesce/onchip.hpp"
#include "coalesce/operation.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace coalesce;

namespace {

OpParams with(std::initializer_list<std::pair<const char*, long long>> values) {
    OpParams p;
    for (const auto& [name, value] : values) p.values[name] = value;
    return p;
}

Matrix counting(std::size_t rows, std::size_t cols) {
    Matrix m(rows, cols);
    for (std::size_t i = 0; i < m.size(); ++i) m.data()[i] = static_cast<float>(i);
    return m;
}

const Op kCopyTile("smem_copy_tile");
const Op kTransposeTile("smem_transpose_tile");
const Op kConstantRead("constant_read");
const Op kRandomSample("random_sample");
const Op kResample("resample");
const Op kU8ToFloat("u8_to_float");

}  // namespace

// ---- shared-memory tiles --------------------------------------------------------------------

TEST(SmemTiles, TheCopyIsTheIdentityAndCountsSharedBytes) {
    const Matrix in = counting(40, 70);
    EXPECT_EQ(cpu_reference(kCopyTile, in, with({{"repeat", 3}})).value.size(), in.size());
    const Reference ref = cpu_reference(kCopyTile, in, with({{"repeat", 3}}));
    EXPECT_TRUE(std::equal(in.data(), in.data() + in.size(), ref.value.data()));
    // Whole 32x32 tiles of 40x70: one row of two tiles, 2048 cells, a store and a load per round.
    EXPECT_EQ(bytes_moved(kCopyTile, in.shape(), with({{"repeat", 3}})), 2048u * 2 * 4 * 3);
    // 32x16 tiles: two rows of two.
    EXPECT_EQ(bytes_moved(kCopyTile, in.shape(), with({{"repeat", 1}, {"tile_rows", 16}})),
              32u * 64 * 2 * 4);
}

TEST(SmemTiles, OnlyTheBooksTwoTileHeightsRun) {
    EXPECT_EQ(input_problem(kCopyTile, {64, 64}, with({{"tile_rows", 16}})), "");
    EXPECT_EQ(input_problem(kTransposeTile, {64, 64}, with({{"tile_rows", 32}})), "");
    EXPECT_NE(input_problem(kTransposeTile, {64, 64}, with({{"tile_rows", 20}})).find("16 or 32"),
              std::string::npos);
    EXPECT_THROW(resolved_params(kCopyTile, with({{"repeat", 0}})), std::invalid_argument);
}

TEST(SmemTiles, OneRoundOnTheSquareTileTransposesEachTile) {
    const Matrix in = counting(32, 64);
    const Matrix out = cpu_reference(kTransposeTile, in, with({{"repeat", 1}})).value;
    for (std::size_t r = 0; r < 32; ++r)
        for (std::size_t c = 0; c < 64; ++c)
            ASSERT_EQ(out.at(r, c), in.at(c % 32, c / 32 * 32 + r)) << r << "," << c;
}

TEST(SmemTiles, TwoRoundsOnTheSquareTileUndoEachOther) {
    const Matrix in = counting(64, 32);
    const Matrix out = cpu_reference(kTransposeTile, in, with({{"repeat", 2}})).value;
    EXPECT_TRUE(std::equal(in.data(), in.data() + in.size(), out.data()));
}

TEST(SmemTiles, OneRoundOnTheRectangularTileReadsTheBooksIcolIrow) {
    // Thread t = ty * 32 + tx ends with tile cell (t % 16, t / 16): the book's tile[icol][irow].
    const Matrix in = counting(16, 32);
    const Matrix out =
        cpu_reference(kTransposeTile, in, with({{"repeat", 1}, {"tile_rows", 16}})).value;
    for (std::size_t t = 0; t < 512; ++t) ASSERT_EQ(out.data()[t], in.at(t % 16, t / 16)) << t;
    EXPECT_EQ(out.at(0, 1), in.at(1, 0));
    EXPECT_EQ(out.at(0, 2), in.at(2, 0));
    EXPECT_EQ(out.at(0, 16), in.at(0, 1));
}

TEST(SmemTiles, TheRectangularPermutationHasOrderNine) {
    // 9-bit cell indices rotated by 5 bits each round: nine rounds bring every cell home.
    const Matrix in = counting(32, 64);
    for (long long repeat = 1; repeat <= 9; ++repeat) {
        const Matrix out =
            cpu_reference(kTransposeTile, in, with({{"repeat", repeat}, {"tile_rows", 16}})).value;
        EXPECT_EQ(std::equal(in.data(), in.data() + in.size(), out.data()), repeat == 9) << repeat;
    }
}

TEST(SmemTiles, PartialTilesAreCopied) {
    const Matrix in = counting(40, 70);  // whole tiles cover rows 0..31, columns 0..63
    const Matrix out = cpu_reference(kTransposeTile, in, with({{"repeat", 1}})).value;
    EXPECT_EQ(out.at(0, 1), in.at(1, 0));
    for (std::size_t r = 0; r < 40; ++r)
        for (std::size_t c = 64; c < 70; ++c) ASSERT_EQ(out.at(r, c), in.at(r, c));
    for (std::size_t r = 32; r < 40; ++r)
        for (std::size_t c = 0; c < 70; ++c) ASSERT_EQ(out.at(r, c), in.at(r, c));
    const Matrix tiny = counting(1, 1);
    EXPECT_EQ(cpu_reference(kTransposeTile, tiny, {}).value.at(0, 0), 0.0f);
}

// ---- the constant table ---------------------------------------------------------------------

TEST(ConstantRead, EachOutputSumsItsWindowOfTheTable) {
    const Matrix in = Matrix::random(40, 50, 7);
    for (long long distinct : {0, 1, 3, 32}) {
        const OpParams p = with({{"repeat", 100}, {"distinct", distinct}});
        const Reference ref = cpu_reference(kConstantRead, in, p);
        EXPECT_EQ(ref.terms, 100u);
        for (std::size_t r : {0u, 1u, 39u})
            for (std::size_t c : {0u, 5u, 31u, 49u}) {
                const int base =
                    onchip::table_base(static_cast<long long>(r), static_cast<long long>(c),
                                       static_cast<int>(distinct));
                double sum = 0.0;
                for (int i = 0; i < 100; ++i) sum += in.data()[onchip::table_index(base, i)];
                EXPECT_FLOAT_EQ(ref.value.at(r, c), static_cast<float>(sum)) << distinct;
            }
    }
}

TEST(ConstantRead, DistinctSaysHowManyAddressesAWarpReads) {
    const Matrix in = Matrix::random(4, 64, 3);
    const auto row_values = [&](long long distinct, std::size_t row) {
        const Reference ref =
            cpu_reference(kConstantRead, in, with({{"repeat", 5}, {"distinct", distinct}}));
        std::vector<float> v(ref.value.row(row), ref.value.row(row) + 32);
        std::sort(v.begin(), v.end());
        return static_cast<long long>(std::unique(v.begin(), v.end()) - v.begin());
    };
    EXPECT_EQ(row_values(0, 2), 1);
    EXPECT_EQ(row_values(1, 2), 1);
    EXPECT_EQ(row_values(4, 2), 4);
    EXPECT_EQ(row_values(32, 2), 32);
    // c[i] is the same for the whole grid; c[row + i] changes from row to row.
    const Reference grid = cpu_reference(kConstantRead, in, with({{"distinct", 0}}));
    EXPECT_EQ(grid.value.at(0, 0), grid.value.at(3, 63));
    const Reference rows = cpu_reference(kConstantRead, in, with({{"distinct", 1}}));
    EXPECT_NE(rows.value.at(0, 0), rows.value.at(1, 0));
}

TEST(ConstantRead, ASmallInputFillsTheTableByRepeating) {
    Matrix in(1, 3);
    in.data()[0] = 1.0f;
    in.data()[1] = 10.0f;
    in.data()[2] = 100.0f;
    // Entries 0..1023 are 1, 10, 100, 1, 10, ...; c[i] for i < 5 sums 1 + 10 + 100 + 1 + 10.
    const Reference ref = cpu_reference(kConstantRead, in, with({{"repeat", 5}, {"distinct", 0}}));
    EXPECT_EQ(ref.value.at(0, 0), 122.0f);
    // 1024 = 3 * 341 + 1: the table ends with entry 1023 = element 0, then wraps to entry 0.
    const Reference wrap =
        cpu_reference(kConstantRead, in, with({{"repeat", 1025}, {"distinct", 0}}));
    EXPECT_EQ(wrap.value.at(0, 0), 341.0f * 111.0f + 1.0f + 1.0f);
}

TEST(ConstantRead, CountsItsAccesses) {
    const OpDesc& d = describe(kConstantRead);
    ASSERT_TRUE(static_cast<bool>(d.accesses));
    EXPECT_EQ(d.accesses({100, 30}, resolved_params(kConstantRead, with({{"repeat", 7}}))),
              21000.0);
    EXPECT_EQ(bytes_moved(kConstantRead, {100, 30}, {}), (1024u + 3000u) * 4);
    EXPECT_FALSE(static_cast<bool>(describe(kResample).accesses));
}

// ---- random sampling ------------------------------------------------------------------------

TEST(RandomSample, WindowsStayInsideTheImage) {
    EXPECT_EQ(onchip::window_start(10, 100, 8), 6);
    EXPECT_EQ(onchip::window_start(1, 100, 8), 0);
    EXPECT_EQ(onchip::window_start(99, 100, 8), 92);
    EXPECT_EQ(onchip::window_start(3, 5, 8), 0);  // the whole axis
    EXPECT_EQ(onchip::window_size(5, 8), 5);
    for (int n : {1, 2, 7, 33})
        for (int area : {1, 4, 8, 32, 64})
            for (int i = 0; i < n; ++i) {
                const int s = onchip::window_start(i, n, area);
                ASSERT_GE(s, 0);
                ASSERT_LE(s + onchip::window_size(n, area), n);
                ASSERT_LE(s, i);
                ASSERT_GT(s + onchip::window_size(n, area), i);
            }
}

TEST(RandomSample, SamplesFallInsideTheWindowAndCoverIt) {
    for (int w : {1, 3, 4, 16, 32, 64}) {
        std::vector<int> seen(static_cast<std::size_t>(w * w), 0);
        for (unsigned k = 0; k < 200000; ++k) {  // 49 draws per cell of 64 x 64 at least
            const unsigned h = onchip::sample_hash(17, 5, k);
            const int dx = onchip::sample_dx(h, w), dy = onchip::sample_dy(h, w);
            ASSERT_GE(dx, 0);
            ASSERT_LT(dx, w);
            ASSERT_GE(dy, 0);
            ASSERT_LT(dy, w);
            ++seen[static_cast<std::size_t>(dy * w + dx)];
        }
        EXPECT_EQ(std::count(seen.begin(), seen.end(), 0), 0) << "window " << w;
    }
    EXPECT_NE(onchip::sample_hash(1, 2, 3), onchip::sample_hash(2, 1, 3));
}

TEST(RandomSample, AWindowOfOneSamplesThePixelItself) {
    const Matrix in = Matrix::random(9, 13, 5);
    const Reference ref = cpu_reference(kRandomSample, in, with({{"area", 1}, {"samples", 4}}));
    for (std::size_t i = 0; i < in.size(); ++i) EXPECT_FLOAT_EQ(ref.value.data()[i], in.data()[i]);
}

TEST(RandomSample, TheMeanLiesWithinItsWindow) {
    const Matrix in = counting(20, 30);  // value = 30 * row + col
    const Reference ref = cpu_reference(kRandomSample, in, with({{"area", 4}, {"samples", 16}}));
    EXPECT_EQ(ref.terms, 16u);
    for (std::size_t y = 0; y < 20; ++y)
        for (std::size_t x = 0; x < 30; ++x) {
            const int x0 = onchip::window_start(static_cast<int>(x), 30, 4);
            const int y0 = onchip::window_start(static_cast<int>(y), 20, 4);
            ASSERT_GE(ref.value.at(y, x),
                      in.at(static_cast<std::size_t>(y0), static_cast<std::size_t>(x0)));
            ASSERT_LE(ref.value.at(y, x),
                      in.at(static_cast<std::size_t>(y0 + 3), static_cast<std::size_t>(x0 + 3)));
        }
}

// ---- resampling -----------------------------------------------------------------------------

TEST(Resample, OutputSizeFollowsTheScale) {
    EXPECT_EQ(output_shape(kResample, {33, 65}, with({{"scale", 150}})), (Shape{50, 98}));
    EXPECT_EQ(output_shape(kResample, {33, 65}, with({{"scale", 100}})), (Shape{33, 65}));
    EXPECT_EQ(output_shape(kResample, {1, 1}, with({{"scale", 10}})), (Shape{1, 1}));
    EXPECT_EQ(bytes_moved(kResample, {10, 10}, with({{"scale", 200}})), (100u + 400u) * 4);
}

TEST(Resample, OutputsPastIntCoordinatesAreRefused) {
    EXPECT_EQ(input_problem(kResample, {1, 1u << 30}, with({{"scale", 100}})), "");
    EXPECT_NE(input_problem(kResample, {1, 1u << 30}, with({{"scale", 200}})).find("2^31 - 1"),
              std::string::npos);
}

TEST(Resample, WeightsComeInStepsOfA256th) {
    EXPECT_EQ(onchip::quantized_weight(0.0f), 0.0f);
    EXPECT_EQ(onchip::quantized_weight(0.3f), 77.0f / 256.0f);       // 76.8 rounds to 77
    EXPECT_EQ(onchip::quantized_weight(0.5f / 256.0f), 1.0f / 256);  // halves round upwards
    EXPECT_EQ(onchip::quantized_weight(1.4999f / 256.0f), 1.0f / 256);
    EXPECT_EQ(onchip::quantized_weight(0.999f), 1.0f);  // 9 bits hold 1.0 exactly
    const onchip::BilinearTap t = onchip::bilinear_tap(2.75f, 0.25f, 10, 10);
    EXPECT_EQ(t.x0, 2);
    EXPECT_EQ(t.x1, 3);
    EXPECT_EQ(t.a, 0.25f);
    EXPECT_EQ(t.y0, 0);  // y - 0.5 = -0.25: texels -1 and 0, clamped
    EXPECT_EQ(t.y1, 0);
    EXPECT_EQ(t.b, 0.75f);
}

TEST(Resample, TheCornerWeightIsRoundedAndTheOthersKeepTheSumAtOne) {
    // alpha = 100/256, beta = 200/256: alpha * beta = 78.125/256 rounds to 78/256.
    const onchip::BilinearTap t =
        onchip::bilinear_tap(0.5f + 100.0f / 256, 0.5f + 200.0f / 256, 4, 4);
    EXPECT_EQ(t.a, 100.0f / 256);
    EXPECT_EQ(t.b, 200.0f / 256);
    EXPECT_EQ(t.w11, 78.0f / 256);
    EXPECT_EQ(t.w10, 22.0f / 256);
    EXPECT_EQ(t.w01, 122.0f / 256);
    EXPECT_EQ(t.w00, 34.0f / 256);
    EXPECT_EQ(t.w00 + t.w10 + t.w01 + t.w11, 1.0f);
    // Small fractions: 3/256 * 5/256 is below half a step, so the corner gets nothing.
    const onchip::BilinearTap s = onchip::bilinear_tap(0.5f + 3.0f / 256, 0.5f + 5.0f / 256, 4, 4);
    EXPECT_EQ(s.w11, 0.0f);
    EXPECT_EQ(s.w10, 3.0f / 256);
    EXPECT_EQ(s.w01, 5.0f / 256);
}

TEST(Resample, CoordinatesAreTheSameBitsWhateverTheMagnitude) {
    // A 2.2-million-row column scaled and turned: centre coordinates are differences of numbers
    // near 10^6, where one rounding more or less moves a sample by a tenth of a texel. The formula
    // rounds at fixed places (fmul, fadd, fma), so the CPU reproduces the kernels' value exactly.
    const onchip::ResampleMap m = onchip::resample_map({2200000, 1}, 150, 15);
    float sx = 0.0f, sy = 0.0f;
    onchip::resample_source(m, 0, 0, sx, sy);
    const float u = (0.0f + 0.5f) - m.out_cx, v = (0.0f + 0.5f) - m.out_cy;
    EXPECT_EQ(sy, std::fma(std::fma(m.cos_a, v, -(m.sin_a * u)), m.inv_scale, m.in_cy));
    EXPECT_EQ(sx, std::fma(std::fma(m.cos_a, u, m.sin_a * v), m.inv_scale, m.in_cx));
}

TEST(Resample, UnitScaleWithoutRotationIsTheIdentity) {
    const Matrix in = Matrix::random(17, 23, 9);
    const Reference ref = cpu_reference(kResample, in, with({{"scale", 100}, {"angle", 0}}));
    ASSERT_EQ(ref.value.shape(), in.shape());
    EXPECT_TRUE(std::equal(in.data(), in.data() + in.size(), ref.value.data()));
}

TEST(Resample, HalfATurnFlipsTheImage) {
    const Matrix in = Matrix::random(6, 9, 4);
    const Reference ref = cpu_reference(kResample, in, with({{"scale", 100}, {"angle", 180}}));
    for (std::size_t y = 0; y < 6; ++y)
        for (std::size_t x = 0; x < 9; ++x)
            ASSERT_EQ(ref.value.at(y, x), in.at(5 - y, 8 - x)) << y << "," << x;
}

TEST(Resample, DoublingARowInterpolatesQuarterSteps) {
    Matrix in(1, 4);
    for (int i = 0; i < 4; ++i) in.data()[i] = 4.0f * static_cast<float>(i);
    const Reference ref = cpu_reference(kResample, in, with({{"scale", 200}, {"angle", 0}}));
    ASSERT_EQ(ref.value.shape(), (Shape{2, 8}));
    const float expected[] = {0, 1, 3, 5, 7, 9, 11, 12};
    for (std::size_t r = 0; r < 2; ++r)
        for (std::size_t x = 0; x < 8; ++x) EXPECT_EQ(ref.value.at(r, x), expected[x]) << x;
}

// A checker of 2x2 texels has a mixed difference T00 - T10 - T01 + T11 of 2 * 256: there the
// rounding of alpha * beta matters, and the allowance is exactly what it moves the result by.
Matrix checker() {
    Matrix in(2, 2, 0.0f);
    in.at(0, 0) = 256.0f;
    in.at(1, 1) = 256.0f;
    return in;
}

TEST(Resample, TheAllowanceIsWhatRoundingTheCornerWeightMoves) {
    const Matrix in = checker();
    const OpParams p = with({{"scale", 370}, {"angle", 0}});
    const Reference ref = cpu_reference(kResample, in, p);
    const onchip::ResampleMap m = onchip::resample_map(in.shape(), 370, 0);
    int rounded = 0;
    for (std::size_t y = 0; y < ref.value.rows(); ++y)
        for (std::size_t x = 0; x < ref.value.cols(); ++x) {
            float sx = 0.0f, sy = 0.0f;
            onchip::resample_source(m, static_cast<int>(x), static_cast<int>(y), sx, sy);
            const onchip::BilinearTap t = onchip::bilinear_tap(sx, sy, 2, 2);
            const double exact = static_cast<double>(t.a) * t.b;
            const double mixed = t.x0 != t.x1 && t.y0 != t.y1 ? 512.0 : 0.0;
            EXPECT_FLOAT_EQ(ref.allowance.at(y, x),
                            static_cast<float>(std::fabs(t.w11 - exact) * mixed));
            rounded += ref.allowance.at(y, x) > 0.0f;
        }
    EXPECT_GT(rounded, 0);
    Matrix flat(3, 3, 5.0f);
    const Reference none = cpu_reference(kResample, flat, with({{"scale", 170}, {"angle", 33}}));
    for (std::size_t i = 0; i < none.allowance.size(); ++i)
        EXPECT_EQ(none.allowance.data()[i], 0.0f);
}

TEST(Resample, VerificationGrantsTheAllowanceAndNoMore) {
    const Reference ref = cpu_reference(kResample, checker(), with({{"scale", 370}, {"angle", 0}}));
    const float* allowance = ref.allowance.data();
    const std::size_t i = static_cast<std::size_t>(
        std::max_element(allowance, allowance + ref.allowance.size()) - allowance);
    ASSERT_GT(allowance[i], 0.5f);  // at most half a step (1/512) of 512
    Matrix out = ref.value;
    out.data()[i] += 0.9f * allowance[i];
    EXPECT_TRUE(verify(kResample, ref, out).ok);
    out.data()[i] += 0.2f * allowance[i];
    EXPECT_FALSE(verify(kResample, ref, out).ok);
}

// ---- 8-bit input ----------------------------------------------------------------------------

TEST(U8ToFloat, InputValuesBecomeRoundedSaturatedPixels) {
    EXPECT_EQ(onchip::to_u8(-3.0f), 0);
    EXPECT_EQ(onchip::to_u8(0.49f), 0);
    EXPECT_EQ(onchip::to_u8(1.5f), 2);
    EXPECT_EQ(onchip::to_u8(254.6f), 255);
    EXPECT_EQ(onchip::to_u8(300.0f), 255);
    EXPECT_EQ(onchip::to_u8(std::numeric_limits<float>::quiet_NaN()), 0);
}

TEST(U8ToFloat, PixelsBecomeFractionsOf255) {
    Matrix in(1, 4);
    in.data()[0] = 0.0f;
    in.data()[1] = 51.2f;
    in.data()[2] = 255.0f;
    in.data()[3] = 1000.0f;
    const Reference ref = cpu_reference(kU8ToFloat, in, {});
    EXPECT_EQ(ref.value.data()[0], 0.0f);
    EXPECT_EQ(ref.value.data()[1], 0.2f);
    EXPECT_EQ(ref.value.data()[2], 1.0f);
    EXPECT_EQ(ref.value.data()[3], 1.0f);
    EXPECT_EQ(bytes_moved(kU8ToFloat, {10, 10}, {}), 500u);
}
