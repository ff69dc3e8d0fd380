// Tests of models/datapath: hand-checked numerics of the vector and cube kernels and their rounding.
#include "core/datapath.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <limits>

namespace cvsim {
namespace {

TileData tile(DType t, int64_t rows, int64_t cols, std::initializer_list<double> values) {
    TileData d{t, Matrix(rows, cols)};
    EXPECT_EQ(static_cast<int64_t>(values.size()), rows * cols);
    std::copy(values.begin(), values.end(), d.m.data());
    return d;
}

const double kInf = std::numeric_limits<double>::infinity();

TEST(DatapathTest, OpNamesFollowOpsMd) {
    EXPECT_EQ(binary_op_from_name("add"), BinaryOp::Add);
    EXPECT_EQ(binary_op_from_name("tile.maximum"), BinaryOp::Maximum);
    EXPECT_EQ(scalar_op_from_name("muls"), BinaryOp::Mul);
    EXPECT_EQ(scalar_op_from_name("mul"), std::nullopt);
    EXPECT_EQ(unary_op_from_name("rsqrt"), UnaryOp::Rsqrt);
    EXPECT_EQ(reduce_op_from_name("row_max"), ReduceOp::RowMax);
    EXPECT_EQ(row_expand_op_from_name("tile.row_expand_sub"), RowExpandOp::Sub);
    EXPECT_EQ(cast_mode_from_name("trunc"), CastMode::Trunc);
    EXPECT_EQ(cast_mode_from_name("tile.trunc"), std::nullopt);
    EXPECT_EQ(unary_op_from_name("softmax"), std::nullopt);
    EXPECT_EQ(binary_op_name(BinaryOp::Minimum), "minimum");
    EXPECT_EQ(row_expand_op_name(RowExpandOp::Mul), "row_expand_mul");
    EXPECT_EQ(unary_op_name(UnaryOp::Relu), "relu");
}

TEST(DatapathTest, Fp16MulRoundsToHalfPrecision) {
    const double x = 1.0 + std::ldexp(1.0, -10);  // 1.0009765625, the fp16 successor of 1
    const TileData a = tile(DType::FP16, 1, 2, {x, 300.0});
    const TileData r = binary(BinaryOp::Mul, a, a);
    EXPECT_EQ(r.dtype, DType::FP16);
    // Exact square 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9 in fp16; fp32 would keep 1.0019540786743164.
    EXPECT_EQ(r.m(0, 0), 1.001953125);
    EXPECT_EQ(r.m(0, 1), kInf);  // 90000 overflows fp16
    const TileData f = binary(BinaryOp::Mul, TileData{DType::FP32, a.m}, TileData{DType::FP32, a.m});
    EXPECT_EQ(f.m(0, 0), 1.0019540786743164);
}

TEST(DatapathTest, ResultDtypeIsTheLhsDtype) {
    const TileData a = tile(DType::BF16, 1, 1, {1.0});
    const TileData b = tile(DType::FP32, 1, 1, {std::ldexp(1.0, -9)});
    EXPECT_EQ(binary(BinaryOp::Add, a, b).dtype, DType::BF16);
    EXPECT_EQ(binary(BinaryOp::Add, a, b).m(0, 0), 1.0);  // 1 + 2^-9 is below bf16's half ulp at 1
}

TEST(DatapathTest, DivisionByZeroIsIeeeForFloatsAndZeroForIntegers) {
    const TileData f = tile(DType::FP32, 1, 3, {1.0, -1.0, 0.0});
    const TileData z = tile(DType::FP32, 1, 3, {0.0, 0.0, 0.0});
    const TileData q = binary(BinaryOp::Div, f, z);
    EXPECT_EQ(q.m(0, 0), kInf);
    EXPECT_EQ(q.m(0, 1), -kInf);
    EXPECT_TRUE(std::isnan(q.m(0, 2)));
    const TileData i = tile(DType::INT32, 1, 3, {7.0, -7.0, 7.0});
    const TileData d = tile(DType::INT32, 1, 3, {2.0, 2.0, 0.0});
    const TileData iq = binary(BinaryOp::Div, i, d);
    EXPECT_EQ(iq.m(0, 0), 3.0);  // truncates toward zero
    EXPECT_EQ(iq.m(0, 1), -3.0);
    EXPECT_EQ(iq.m(0, 2), 0.0);  // x / 0 = 0
    EXPECT_EQ(binary_scalar(BinaryOp::Div, i, 0.0).m(0, 0), 0.0);
    EXPECT_EQ(unary(UnaryOp::Recip, tile(DType::INT32, 1, 1, {0.0})).m(0, 0), 0.0);
}

TEST(DatapathTest, IntegerResultsSaturate) {
    const TileData a = tile(DType::INT8, 1, 2, {100.0, -100.0});
    const TileData s = binary(BinaryOp::Add, a, a);
    EXPECT_EQ(s.m(0, 0), 127.0);
    EXPECT_EQ(s.m(0, 1), -128.0);
    EXPECT_EQ(binary(BinaryOp::Sub, tile(DType::UINT8, 1, 1, {3.0}), tile(DType::UINT8, 1, 1, {5.0})).m(0, 0), 0.0);
    EXPECT_EQ(unary(UnaryOp::Log, tile(DType::INT16, 1, 1, {0.0})).m(0, 0), -32768.0);
}

TEST(DatapathTest, MaximumAndMinimumPropagateNan) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const TileData a = tile(DType::FP32, 1, 3, {nan, 1.0, -2.0});
    const TileData b = tile(DType::FP32, 1, 3, {1.0, nan, 3.0});
    const TileData mx = binary(BinaryOp::Maximum, a, b);
    EXPECT_TRUE(std::isnan(mx.m(0, 0)));
    EXPECT_TRUE(std::isnan(mx.m(0, 1)));
    EXPECT_EQ(mx.m(0, 2), 3.0);
    EXPECT_EQ(binary(BinaryOp::Minimum, a, b).m(0, 2), -2.0);
    EXPECT_TRUE(std::isnan(reduce_rows(ReduceOp::RowMax, a).m(0, 0)));
}

TEST(DatapathTest, ScalarOperandTakesTheTileDtype) {
    const TileData a = tile(DType::FP16, 1, 1, {1.0});
    // 0.1 becomes fp16 0.0999755859375 before the multiply.
    EXPECT_EQ(binary_scalar(BinaryOp::Mul, a, 0.1).m(0, 0), 0.0999755859375);
    EXPECT_EQ(binary_scalar(BinaryOp::Sub, tile(DType::FP32, 1, 1, {5.0}), 2.0).m(0, 0), 3.0);
}

TEST(DatapathTest, UnaryOpsRoundToTheTileDtype) {
    const TileData x = tile(DType::FP32, 1, 4, {1.0, 4.0, -3.0, -0.5});
    EXPECT_EQ(unary(UnaryOp::Exp, x).m(0, 0), static_cast<double>(static_cast<float>(std::exp(1.0))));
    EXPECT_EQ(unary(UnaryOp::Sqrt, x).m(0, 1), 2.0);
    EXPECT_EQ(unary(UnaryOp::Rsqrt, x).m(0, 1), 0.5);
    EXPECT_EQ(unary(UnaryOp::Recip, x).m(0, 1), 0.25);
    EXPECT_EQ(unary(UnaryOp::Abs, x).m(0, 2), 3.0);
    EXPECT_EQ(unary(UnaryOp::Neg, x).m(0, 2), 3.0);
    const TileData relu = unary(UnaryOp::Relu, x);
    EXPECT_EQ(relu.m(0, 1), 4.0);
    EXPECT_EQ(relu.m(0, 2), 0.0);
    EXPECT_FALSE(std::signbit(relu.m(0, 3)));
    EXPECT_TRUE(std::isnan(unary(UnaryOp::Log, x).m(0, 2)));
    EXPECT_EQ(unary(UnaryOp::Log, tile(DType::FP16, 1, 1, {0.0})).m(0, 0), -kInf);
    // exp(1) in fp16 is 2.71875, not the fp32 2.71828...
    EXPECT_EQ(unary(UnaryOp::Exp, tile(DType::FP16, 1, 1, {1.0})).m(0, 0), 2.71875);
}

TEST(DatapathTest, CastRoundingModes) {
    const TileData x = tile(DType::FP32, 1, 6, {2.5, 3.5, -2.5, -2.7, 300.0, std::numeric_limits<double>::quiet_NaN()});
    const TileData round = cast(x, DType::INT8);
    EXPECT_EQ(round.dtype, DType::INT8);
    // PyPTO's default mode "round" is pto CAST_ROUND: nearest, ties away from zero (pto-isa TCVT).
    EXPECT_EQ(round.m(0, 0), 3.0);
    EXPECT_EQ(round.m(0, 1), 4.0);
    EXPECT_EQ(round.m(0, 2), -3.0);
    EXPECT_EQ(round.m(0, 3), -3.0);
    EXPECT_EQ(round.m(0, 4), 127.0);  // saturates
    EXPECT_EQ(round.m(0, 5), 0.0);    // NaN -> 0
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Floor).m(0, 2), -3.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Ceil).m(0, 2), -2.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Ceil).m(0, 0), 3.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Trunc).m(0, 3), -2.0);
    EXPECT_EQ(cast(x, DType::UINT8, CastMode::Trunc).m(0, 3), 0.0);
    // PyPTO's rint / none round to nearest even; odd takes the odd neighbour of an inexact value.
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Rint).m(0, 0), 2.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Rint).m(0, 1), 4.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Rint).m(0, 2), -2.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::None).m(0, 0), 2.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Odd).m(0, 0), 3.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Odd).m(0, 1), 3.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Odd).m(0, 3), -3.0);
    EXPECT_EQ(cast(x, DType::INT8, CastMode::Odd).m(0, 4), 127.0);
    EXPECT_EQ(cast_mode_from_name("odd"), CastMode::Odd);
    // Float -> float rounds to nearest even whatever the mode.
    const TileData p1 = tile(DType::FP32, 1, 1, {static_cast<float>(0.1)});
    EXPECT_EQ(cast(p1, DType::FP16, CastMode::Floor).m(0, 0), 0.0999755859375);
    EXPECT_EQ(cast(p1, DType::BF16).m(0, 0), 0.10009765625);
    // Integer -> float rounds once: 2^24 + 2^16 + 1 is just above a bf16 tie and must round up.
    EXPECT_EQ(cast(tile(DType::INT32, 1, 1, {16842753.0}), DType::BF16).m(0, 0), 16908288.0);
}

TEST(DatapathTest, IntegerZeroHasNoSign) {
    // -0.3 casts to integer 0, not -0: otherwise a later cast back to float and recip would give -inf in the
    // reference but +inf in a model that stored the tile as bytes.
    const TileData z = cast(tile(DType::FP32, 1, 1, {-0.3}), DType::INT8);
    EXPECT_FALSE(std::signbit(z.m(0, 0)));
    EXPECT_EQ(unary(UnaryOp::Recip, cast(z, DType::FP32)).m(0, 0), kInf);
}

TEST(DatapathTest, RowSumAndRowMax) {
    const TileData x = tile(DType::FP32, 2, 3, {1.0, 2.0, 3.0, -1.0, -5.0, -2.0});
    const TileData s = reduce_rows(ReduceOp::RowSum, x);
    ASSERT_EQ(s.m.rows(), 2);
    ASSERT_EQ(s.m.cols(), 1);
    EXPECT_EQ(s.m(0, 0), 6.0);
    EXPECT_EQ(s.m(1, 0), -8.0);
    const TileData mx = reduce_rows(ReduceOp::RowMax, x);
    EXPECT_EQ(mx.m(0, 0), 3.0);
    EXPECT_EQ(mx.m(1, 0), -1.0);
}

TEST(DatapathTest, RowSumRoundsOnceWithoutDoubleRounding) {
    // 1 + 2^-8 + 2^-30 lies just above the bf16 tie between 1 and 1 + 2^-7. Rounding through fp32 first would
    // drop the 2^-30 and tie to 1; a single rounding gives 1 + 2^-7.
    const TileData x = tile(DType::BF16, 1, 3, {1.0, std::ldexp(1.0, -8), std::ldexp(1.0, -30)});
    EXPECT_EQ(reduce_rows(ReduceOp::RowSum, x).m(0, 0), 1.0078125);
    // In fp16 the sum of 2048 and 1 (a tie at ulp 2) rounds to even: 2048.
    EXPECT_EQ(reduce_rows(ReduceOp::RowSum, tile(DType::FP16, 1, 2, {2048.0, 1.0})).m(0, 0), 2048.0);
}

TEST(DatapathTest, RowExpandBroadcastsTheColumnAlongEachRow) {
    const TileData x = tile(DType::FP32, 2, 2, {1.0, 2.0, 3.0, 4.0});
    const TileData row = tile(DType::FP32, 2, 1, {1.0, 3.0});
    const TileData sub = row_expand(RowExpandOp::Sub, x, row);
    EXPECT_EQ(sub.m, (Matrix(2, 2) << 0.0, 1.0, 0.0, 1.0).finished());
    const TileData mul = row_expand(RowExpandOp::Mul, x, row);
    EXPECT_EQ(mul.m, (Matrix(2, 2) << 1.0, 2.0, 9.0, 12.0).finished());
    const TileData add = row_expand(RowExpandOp::Add, x, row);
    EXPECT_EQ(add.m, (Matrix(2, 2) << 2.0, 3.0, 6.0, 7.0).finished());
    EXPECT_THROW(row_expand(RowExpandOp::Sub, x, tile(DType::FP32, 1, 2, {1.0, 2.0})), std::invalid_argument);
}

TEST(DatapathTest, ShapeMismatchesAreRejected) {
    const TileData a = tile(DType::FP32, 2, 2, {1, 2, 3, 4});
    const TileData b = tile(DType::FP32, 1, 4, {1, 2, 3, 4});
    EXPECT_THROW(binary(BinaryOp::Add, a, b), std::invalid_argument);
    EXPECT_THROW(matmul(a, tile(DType::FP32, 3, 1, {1, 2, 3})), std::invalid_argument);
    const TileData bad_bias = tile(DType::FP32, 2, 1, {1, 2});
    EXPECT_THROW(matmul(a, a, nullptr, &bad_bias), std::invalid_argument);
    EXPECT_THROW(matmul(a, a, &b), std::invalid_argument);
}

TEST(DatapathTest, TransposeAndFull) {
    const TileData x = tile(DType::INT16, 2, 3, {1, 2, 3, 4, 5, 6});
    const TileData t = transpose(x);
    EXPECT_EQ(t.dtype, DType::INT16);
    EXPECT_EQ(t.m, (Matrix(3, 2) << 1, 4, 2, 5, 3, 6).finished());
    const TileData f = full(2, 3, DType::FP16, 0.1);
    EXPECT_EQ(f.m.rows(), 2);
    EXPECT_EQ(f.m.cols(), 3);
    EXPECT_TRUE((f.m.array() == 0.0999755859375).all());
    EXPECT_TRUE((full(1, 2, DType::INT8, 1000).m.array() == 127).all());
}

TEST(DatapathTest, MatmulFp16GivesFp32) {
    const TileData a = tile(DType::FP16, 2, 3, {1, 2, 3, 4, 5, 6});
    const TileData b = tile(DType::FP16, 3, 2, {7, 8, 9, 10, 11, 12});
    const TileData c = matmul(a, b);
    EXPECT_EQ(c.dtype, DType::FP32);
    EXPECT_EQ(c.m, (Matrix(2, 2) << 58, 64, 139, 154).finished());
}

TEST(DatapathTest, MatmulAccumulatesInDoubleAndRoundsOnceToFp32) {
    // 2^24 + 1 + 1 is exact in double; summing in fp32 would lose each +1 (2^24 + 1 rounds to 2^24).
    const TileData a = tile(DType::FP32, 1, 3, {16777216.0, 1.0, 1.0});
    const TileData b = tile(DType::FP32, 3, 1, {1.0, 1.0, 1.0});
    EXPECT_EQ(matmul(a, b).m(0, 0), 16777218.0);
    // Products of fp16 values beyond fp16 range are fine in the fp32 result.
    const TileData h = tile(DType::FP16, 1, 1, {60000.0});
    EXPECT_EQ(matmul(h, h).m(0, 0), 3.6e9);
}

TEST(DatapathTest, MatmulInt8GivesExactInt32) {
    const TileData a = tile(DType::INT8, 2, 3, {127, 127, 127, -128, 1, 0});
    const TileData b = tile(DType::INT8, 3, 1, {127, 127, 127});
    const TileData c = matmul(a, b);
    EXPECT_EQ(c.dtype, DType::INT32);
    EXPECT_EQ(c.m(0, 0), 48387.0);  // 3 * 127 * 127, far outside int8
    EXPECT_EQ(c.m(1, 0), -16129.0);
}

TEST(DatapathTest, MatmulAccAndBias) {
    const TileData a = tile(DType::BF16, 2, 2, {1, 2, 3, 4});
    const TileData b = tile(DType::BF16, 2, 2, {1, 0, 0, 1});
    const TileData acc = tile(DType::FP32, 2, 2, {10, 20, 30, 40});
    const TileData bias = tile(DType::FP32, 1, 2, {0.5, -0.5});
    EXPECT_EQ(matmul(a, b, &acc).m, (Matrix(2, 2) << 11, 22, 33, 44).finished());
    EXPECT_EQ(matmul(a, b, nullptr, &bias).m, (Matrix(2, 2) << 1.5, 1.5, 3.5, 3.5).finished());
    const TileData iacc = tile(DType::INT32, 1, 1, {2147483600.0});
    EXPECT_EQ(matmul(tile(DType::INT8, 1, 1, {100}), tile(DType::INT8, 1, 1, {100}), &iacc).m(0, 0),
              2147483647.0);  // saturates
}

RC_GTEST_PROP(DatapathProperty, MatmulRowsDoNotDependOnTheOtherRows, ()) {
    // A gemv of one row must give exactly the matching row of the full matmul (the expander may split work).
    const int64_t M = *rc::gen::inRange<int64_t>(1, 9), K = *rc::gen::inRange<int64_t>(1, 40),
                  N = *rc::gen::inRange<int64_t>(1, 9);
    const auto gen_tile = [](int64_t r, int64_t c) {
        TileData t{DType::FP16, Matrix(r, c)};
        for (Eigen::Index i = 0; i < t.m.size(); ++i)
            t.m.data()[i] = round_to(DType::FP16, *rc::gen::inRange(-3000, 3000) / 97.0);
        return t;
    };
    const TileData a = gen_tile(M, K), b = gen_tile(K, N);
    const TileData full_result = matmul(a, b);
    const int64_t row = *rc::gen::inRange<int64_t>(0, M);
    const TileData one = matmul(TileData{DType::FP16, a.m.row(row)}, b);
    RC_ASSERT(one.m == full_result.m.row(row));
}

RC_GTEST_PROP(DatapathProperty, ElementwiseFp32MatchesNativeFloatArithmetic, (float x, float y)) {
    // Computing in double and rounding once equals IEEE single-precision arithmetic for + - * /.
    const TileData a{DType::FP32, Matrix::Constant(1, 1, x)};
    const TileData b{DType::FP32, Matrix::Constant(1, 1, y)};
    const auto same = [](double got, float want) {
        return (std::isnan(got) && std::isnan(want)) || got == static_cast<double>(want);
    };
    RC_ASSERT(same(binary(BinaryOp::Add, a, b).m(0, 0), x + y));
    RC_ASSERT(same(binary(BinaryOp::Sub, a, b).m(0, 0), x - y));
    RC_ASSERT(same(binary(BinaryOp::Mul, a, b).m(0, 0), x * y));
    RC_ASSERT(same(binary(BinaryOp::Div, a, b).m(0, 0), x / y));
}

}  // namespace
}  // namespace cvsim
