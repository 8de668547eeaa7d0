#include "coalesce/operation.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace coalesce;

TEST(BorderIndex, InsideIsIdentityForEveryMode) {
    for (Border b : all_borders())
        for (long long i = 0; i < 5; ++i) EXPECT_EQ(border_index(i, 5, b), i);
}

TEST(BorderIndex, ClampRepeatsTheEdge) {
    EXPECT_EQ(border_index(-3, 5, Border::clamp), 0);
    EXPECT_EQ(border_index(7, 5, Border::clamp), 4);
}

TEST(BorderIndex, ZeroReadsNothing) {
    EXPECT_EQ(border_index(-1, 5, Border::zero), -1);
    EXPECT_EQ(border_index(5, 5, Border::zero), -1);
}

TEST(BorderIndex, WrapIsPeriodicEvenFarOutside) {
    EXPECT_EQ(border_index(-1, 5, Border::wrap), 4);
    EXPECT_EQ(border_index(5, 5, Border::wrap), 0);
    EXPECT_EQ(border_index(-11, 5, Border::wrap), 4);
    EXPECT_EQ(border_index(32, 1, Border::wrap), 0);
}

TEST(BorderIndex, MirrorReflectsWithTheEdgeRepeated) {
    // n = 3:  ... c b a | a b c | c b a | a b c ...
    EXPECT_EQ(border_index(-1, 3, Border::mirror), 0);
    EXPECT_EQ(border_index(-3, 3, Border::mirror), 2);
    EXPECT_EQ(border_index(-4, 3, Border::mirror), 2);
    EXPECT_EQ(border_index(3, 3, Border::mirror), 2);
    EXPECT_EQ(border_index(5, 3, Border::mirror), 0);
    EXPECT_EQ(border_index(6, 3, Border::mirror), 0);
    EXPECT_EQ(border_index(-32, 1, Border::mirror), 0);
}

TEST(OpNames, RoundTripAndAliases) {
    for (Op op : all_ops()) EXPECT_EQ(parse_op(op_name(op)), op);
    for (Border b : all_borders()) EXPECT_EQ(parse_border(border_name(b)), b);
    EXPECT_EQ(parse_op("row-sums"), Op::row_sums);
    EXPECT_EQ(parse_op("Filter_X"), Op::filter_x);
    EXPECT_FALSE(parse_op("blur").has_value());
    EXPECT_FALSE(parse_border("nearest").has_value());
}

TEST(BytesModel, CountsInputReadOnceAndOutputWrittenOnce) {
    const Shape s{1000, 1001};
    EXPECT_EQ(bytes_moved(Op::copy, s), 2u * 1000 * 1001 * 4);
    EXPECT_EQ(bytes_moved(Op::transpose, s), 2u * 1000 * 1001 * 4);
    EXPECT_EQ(bytes_moved(Op::row_sums, s), (1000u * 1001 + 1000) * 4);
    EXPECT_EQ(bytes_moved(Op::col_sums, s), (1000u * 1001 + 1001) * 4);
    EXPECT_EQ(output_shape(Op::transpose, s), (Shape{1001, 1000}));
    EXPECT_EQ(output_shape(Op::row_sums, s), (Shape{1000, 1}));
    EXPECT_EQ(output_shape(Op::col_sums, s), (Shape{1, 1001}));
}

namespace {
Matrix two_by_three() {
    Matrix m(2, 3);
    const float v[] = {1, 2, 3, 4, 5, 6};
    std::copy(v, v + 6, m.data());
    return m;
}
}  // namespace

TEST(CpuReference, HandComputedTransposeAndSums) {
    const Matrix m = two_by_three();
    const Matrix t = cpu_reference(Op::transpose, m, {}).value;
    ASSERT_EQ(t.shape(), (Shape{3, 2}));
    EXPECT_EQ(t.at(0, 1), 4);
    EXPECT_EQ(t.at(2, 0), 3);
    const Reference rows = cpu_reference(Op::row_sums, m, {});
    EXPECT_EQ(rows.value.at(0, 0), 6);
    EXPECT_EQ(rows.value.at(1, 0), 15);
    EXPECT_EQ(rows.terms, 3u);
    const Matrix cols = cpu_reference(Op::col_sums, m, {}).value;
    EXPECT_EQ(cols.at(0, 0), 5);
    EXPECT_EQ(cols.at(0, 2), 9);
}

TEST(CpuReference, HandComputedFilterXForEveryBorder) {
    const Matrix m = two_by_three();  // row 0: 1 2 3
    auto at00 = [&](Border b) { return cpu_reference(Op::filter_x, m, {1, b}).value.at(0, 0); };
    EXPECT_FLOAT_EQ(at00(Border::clamp), (1 + 1 + 2) / 3.0f);
    EXPECT_FLOAT_EQ(at00(Border::zero), (0 + 1 + 2) / 3.0f);
    EXPECT_FLOAT_EQ(at00(Border::wrap), (3 + 1 + 2) / 3.0f);
    EXPECT_FLOAT_EQ(at00(Border::mirror), (1 + 1 + 2) / 3.0f);
    // Radius 2 reaches two outside: mirror reads b a | a b c.
    EXPECT_FLOAT_EQ(cpu_reference(Op::filter_x, m, {2, Border::mirror}).value.at(0, 0),
                    (2 + 1 + 1 + 2 + 3) / 5.0f);
    EXPECT_FLOAT_EQ(cpu_reference(Op::filter_x, m, {0, Border::clamp}).value.at(1, 2), 6.0f);
}

TEST(CpuReference, FilterYRunsDownColumns) {
    const Matrix m = two_by_three();  // column 1: 2 5
    EXPECT_FLOAT_EQ(cpu_reference(Op::filter_y, m, {1, Border::zero}).value.at(0, 1),
                    (0 + 2 + 5) / 3.0f);
    EXPECT_FLOAT_EQ(cpu_reference(Op::filter_y, m, {1, Border::wrap}).value.at(1, 1),
                    (2 + 5 + 2) / 3.0f);
}

TEST(Verify, ExactOpsRejectAnyDifference) {
    const Matrix m = two_by_three();
    const Reference ref = cpu_reference(Op::copy, m, {});
    EXPECT_TRUE(verify(Op::copy, ref, m).ok);
    Matrix off = m;
    off.at(1, 2) = std::nextafter(6.0f, 7.0f);
    const Verification v = verify(Op::copy, ref, off);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("element (1, 2)"), std::string::npos) << v.message;
}

TEST(Verify, NanIsNeverWithinTolerance) {
    const Matrix m = Matrix::random(4, 64, 7);
    const Reference ref = cpu_reference(Op::row_sums, m, {});
    Matrix out = ref.value;
    out.at(3, 0) = std::nanf("");
    const Verification v = verify(Op::row_sums, ref, out);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("NaN"), std::string::npos) << v.message;
}

TEST(Verify, SumsAcceptRoundingButNotAMissingTerm) {
    // Sixteen interleaved partial sums, then their total: chains of 5000/16 + 16 additions, the
    // shape of a GPU reduction. The rounding passes; one term left out is caught.
    constexpr std::size_t kCols = 5000, kParts = 16;
    const Matrix m = Matrix::random(3, kCols, 11);
    const Reference ref = cpu_reference(Op::row_sums, m, {});
    const std::size_t chain = kCols / kParts + kParts;
    std::size_t skip = 0;  // a term of row 1 that is not tiny
    while (std::fabs(m.at(1, skip)) < 0.5f) ++skip;
    Matrix out(3, 1), missing(3, 1);
    for (std::size_t r = 0; r < 3; ++r) {
        float part[kParts] = {}, part_missing[kParts] = {};
        for (std::size_t c = 0; c < kCols; ++c) {
            part[c % kParts] += m.at(r, c);
            if (c != skip || r != 1) part_missing[c % kParts] += m.at(r, c);
        }
        for (std::size_t k = 0; k < kParts; ++k) {
            out.at(r, 0) += part[k];
            missing.at(r, 0) += part_missing[k];
        }
    }
    EXPECT_TRUE(verify(Op::row_sums, ref, out, chain).ok);
    EXPECT_FALSE(verify(Op::row_sums, ref, missing, chain).ok);
}

TEST(Verify, ASequentialChainIsAcceptedWhereverItsRoundingGoes) {
    // Adding the same value 129 times rounds in one direction at every step: the case of a
    // repeated edge pixel under a clamp border at radius 64. The bound must hold for it.
    const float v = 20.850853f;
    const Matrix line(129, 1, v);
    OpParams p{64, Border::clamp};
    const Reference ref = cpu_reference(Op::filter_y, line, p);
    Matrix out(129, 1);
    for (std::size_t r = 0; r < 129; ++r) {
        float sum = 0.0f;
        for (int k = -64; k <= 64; ++k) sum += v;
        out.at(r, 0) = sum * (1.0f / 129.0f);
    }
    const Verification check = verify(Op::filter_y, ref, out);
    EXPECT_TRUE(check.ok) << check.message;
}

TEST(Verify, ToleranceGrowsWithTheChainAndIsExactlyTheRigorousBound) {
    constexpr double u = 0x1p-24;
    EXPECT_DOUBLE_EQ(tolerance_factor(0), 4 * u);
    EXPECT_DOUBLE_EQ(tolerance_factor(128), 128 * u / (1 - 128 * u) + 4 * u);
    EXPECT_LT(tolerance_factor(10), tolerance_factor(11));
}

TEST(Verify, ShapeMismatchIsReported) {
    const Matrix m = two_by_three();
    const Verification v = verify(Op::transpose, cpu_reference(Op::transpose, m, {}), m);
    EXPECT_FALSE(v.ok);
    EXPECT_NE(v.message.find("expected 3x2"), std::string::npos) << v.message;
}
