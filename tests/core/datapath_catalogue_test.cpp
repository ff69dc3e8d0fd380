// Hand-computed values of the catalogue's datapath kernels (issue 12): broadcasts, column reductions, remainder
// and bitwise ops, predicate masks (the documented packed layout), fills, generators and transforms.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/datapath.h"

using namespace cvsim;

namespace {

TileData T(DType d, int64_t r, int64_t c, std::initializer_list<double> v) {
    TileData t{d, Matrix(r, c)};
    int64_t i = 0;
    for (double x : v) t.m.data()[i++] = x;
    return t;
}

void expect_eq(const TileData& got, const TileData& want) {
    ASSERT_EQ(got.m.rows(), want.m.rows());
    ASSERT_EQ(got.m.cols(), want.m.cols());
    EXPECT_EQ(got.dtype, want.dtype);
    for (int64_t i = 0; i < got.m.size(); ++i) EXPECT_EQ(got.m.data()[i], want.m.data()[i]) << "element " << i;
}

constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

TEST(DatapathCatalogue, BroadcastsByRowAndByColumn) {
    TileData x = T(DType::FP32, 2, 2, {1, 2, 3, 4});
    expect_eq(col_expand(RowExpandOp::Sub, x, T(DType::FP32, 1, 2, {10, 20})),
              T(DType::FP32, 2, 2, {-9, -18, -7, -16}));
    expect_eq(col_expand(RowExpandOp::Max, x, T(DType::FP32, 1, 2, {2, 5})), T(DType::FP32, 2, 2, {2, 5, 3, 5}));
    expect_eq(row_expand(RowExpandOp::Copy, T(DType::FP32, 2, 3, {0, 0, 0, 0, 0, 0}), T(DType::FP32, 2, 1, {5, 6})),
              T(DType::FP32, 2, 3, {5, 5, 5, 6, 6, 6}));
    expect_eq(row_expand(RowExpandOp::Div, x, T(DType::FP32, 2, 1, {2, 4})), T(DType::FP32, 2, 2, {0.5, 1, 0.75, 1}));
    expect_eq(row_expand(RowExpandOp::Expdif, T(DType::FP32, 1, 2, {3, 1}), T(DType::FP32, 1, 1, {3})),
              T(DType::FP32, 1, 2, {1, round_to(DType::FP32, std::exp(-2.0))}));
    EXPECT_THROW(col_expand(RowExpandOp::Add, x, T(DType::FP32, 2, 1, {1, 2})), std::invalid_argument);
}

TEST(DatapathCatalogue, ColumnAndRowReductions) {
    TileData x = T(DType::FP32, 2, 2, {1, 2, 3, 4});
    expect_eq(reduce_cols(ReduceOp::RowSum, x), T(DType::FP32, 1, 2, {4, 6}));
    expect_eq(reduce_cols(ReduceOp::RowMax, x), T(DType::FP32, 1, 2, {3, 4}));
    expect_eq(reduce_cols(ReduceOp::RowMin, x), T(DType::FP32, 1, 2, {1, 2}));
    expect_eq(reduce_cols(ReduceOp::RowProd, x), T(DType::FP32, 1, 2, {3, 8}));
    expect_eq(reduce_rows(ReduceOp::RowMin, x), T(DType::FP32, 2, 1, {1, 3}));
    expect_eq(reduce_rows(ReduceOp::RowProd, x), T(DType::FP32, 2, 1, {2, 12}));
}

TEST(DatapathCatalogue, RemainderFollowsTheDivisorAndFmodTheDividend) {
    expect_eq(binary(BinaryOp::Rem, T(DType::FP32, 1, 2, {-7, 7}), T(DType::FP32, 1, 2, {3, -3})),
              T(DType::FP32, 1, 2, {2, -2}));
    expect_eq(binary(BinaryOp::Fmod, T(DType::FP32, 1, 2, {-7, 7}), T(DType::FP32, 1, 2, {3, -3})),
              T(DType::FP32, 1, 2, {-1, 1}));
    expect_eq(binary(BinaryOp::Rem, T(DType::INT32, 1, 1, {5}), T(DType::INT32, 1, 1, {0})),
              T(DType::INT32, 1, 1, {0}));
    expect_eq(binary_scalar(BinaryOp::Maximum, T(DType::FP32, 1, 3, {-1, 0.5, 2}), 0.25),
              T(DType::FP32, 1, 3, {0.25, 0.5, 2}));
    expect_eq(binary_scalar(BinaryOp::Minimum, T(DType::FP32, 1, 3, {-1, 0.5, 2}), 0.25),
              T(DType::FP32, 1, 3, {-1, 0.25, 0.25}));
}

TEST(DatapathCatalogue, BitwiseOpsWrapToTheDtypeWidth) {
    TileData a = T(DType::INT32, 1, 2, {6, -8}), b = T(DType::INT32, 1, 2, {3, 1});
    expect_eq(binary(BinaryOp::And, a, b), T(DType::INT32, 1, 2, {2, 0}));
    expect_eq(binary(BinaryOp::Or, a, b), T(DType::INT32, 1, 2, {7, -7}));
    expect_eq(binary(BinaryOp::Xor, a, b), T(DType::INT32, 1, 2, {5, -7}));
    expect_eq(binary(BinaryOp::Shr, a, b), T(DType::INT32, 1, 2, {0, -4}));
    expect_eq(binary_scalar(BinaryOp::Shl, T(DType::INT8, 1, 2, {64, 3}), 1),
              T(DType::INT8, 1, 2, {-128, 6}));  // wraps, no saturation
    expect_eq(binary_scalar(BinaryOp::Shl, T(DType::INT32, 1, 1, {1}), 40),
              T(DType::INT32, 1, 1, {0}));  // shift >= width
    expect_eq(unary(UnaryOp::Not, T(DType::INT32, 1, 2, {0, 5})), T(DType::INT32, 1, 2, {-1, -6}));
    expect_eq(unary(UnaryOp::Not, T(DType::UINT8, 1, 1, {0})), T(DType::UINT8, 1, 1, {255}));
}

TEST(DatapathCatalogue, TernaryOpsRoundEachStep) {
    // FP16: 2048 + 1 is a tie that rounds to 2048, plus 1 again 2048 (one rounding of 2050 would give 2050).
    TileData a = T(DType::FP16, 1, 1, {2048}), one = T(DType::FP16, 1, 1, {1});
    expect_eq(ternary(BinaryOp::Add, BinaryOp::Add, a, one, one), T(DType::FP16, 1, 1, {2048}));
    expect_eq(ternary(BinaryOp::Sub, BinaryOp::Add, T(DType::FP32, 1, 1, {1}), T(DType::FP32, 1, 1, {2}),
                      T(DType::FP32, 1, 1, {3})),
              T(DType::FP32, 1, 1, {2}));  // TSUBC: src0 - src1 + src2
    expect_eq(ternary_scalar(BinaryOp::Sub, BinaryOp::Add, T(DType::FP32, 1, 1, {1}), 0.5, T(DType::FP32, 1, 1, {3})),
              T(DType::FP32, 1, 1, {3.5}));
    expect_eq(prelu(T(DType::FP32, 1, 2, {-2, 3}), T(DType::FP32, 1, 2, {0.5, 0.5})), T(DType::FP32, 1, 2, {-1, 3}));
    expect_eq(lrelu(T(DType::FP32, 1, 2, {-2, 3}), 0.25), T(DType::FP32, 1, 2, {-0.5, 3}));
}

TEST(DatapathCatalogue, PredicateMasksArePackedLsbFirstAndSelectReadsThem) {
    TileData x = T(DType::FP32, 1, 10, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    TileData m = compare_scalar(CmpMode::GT, x, 5, 32);
    ASSERT_EQ(m.dtype, DType::UINT8);
    ASSERT_EQ(m.m.cols(), 32);
    EXPECT_EQ(m.m(0, 0), 0xE0);  // elements 5, 6, 7 (values 6..8)
    EXPECT_EQ(m.m(0, 1), 0x03);  // elements 8, 9
    for (int c = 2; c < 32; ++c) EXPECT_EQ(m.m(0, c), 0);
    expect_eq(select_scalar(m, x, 0), T(DType::FP32, 1, 10, {0, 0, 0, 0, 0, 6, 7, 8, 9, 10}));
    TileData y = T(DType::FP32, 1, 10, {10, 9, 8, 7, 6, 5, 4, 3, 2, 1});
    TileData lt = compare(CmpMode::LT, x, y, 32);
    EXPECT_EQ(lt.m(0, 0), 0x1F);
    expect_eq(select(lt, x, y), T(DType::FP32, 1, 10, {1, 2, 3, 4, 5, 5, 4, 3, 2, 1}));
    TileData nan = T(DType::FP32, 1, 2, {std::nan(""), 1});
    EXPECT_EQ(compare_scalar(CmpMode::EQ, nan, 1, 32).m(0, 0), 0x02);
    EXPECT_EQ(compare_scalar(CmpMode::NE, nan, 1, 32).m(0, 0), 0x01);
}

TEST(DatapathCatalogue, FillsAndGenerators) {
    TileData x = T(DType::FP32, 2, 3, {1, 1, 1, 1, 1, 1});
    expect_eq(fillpad(x, 1, 2, 2, 3, kInf), T(DType::FP32, 2, 3, {1, 1, kInf, kInf, kInf, kInf}));
    expect_eq(fillpad(T(DType::INT8, 1, 2, {4, 4}), 1, 1, 2, 3, kInf),
              T(DType::INT8, 2, 3, {4, 127, 127, 127, 127, 127}));
    expect_eq(fillpad(T(DType::INT16, 1, 1, {4}), 1, 1, 1, 2, -kInf), T(DType::INT16, 1, 2, {4, -32768}));
    expect_eq(iota(2, 3, DType::INT32, 3, false), T(DType::INT32, 2, 3, {3, 4, 5, 6, 7, 8}));
    expect_eq(iota(1, 3, DType::INT32, 2, true), T(DType::INT32, 1, 3, {2, 1, 0}));
    expect_eq(tri(3, 3, DType::INT32, 0, false, 3, 3), T(DType::INT32, 3, 3, {1, 0, 0, 1, 1, 0, 1, 1, 1}));
    expect_eq(tri(3, 3, DType::INT32, 1, true, 3, 3), T(DType::INT32, 3, 3, {0, 1, 1, 0, 0, 1, 0, 0, 0}));
    expect_eq(tri(2, 2, DType::FP32, 0, false, 1, 2), T(DType::FP32, 2, 2, {1, 0, 0, 0}));
}

TEST(DatapathCatalogue, Transforms) {
    expect_eq(concat_cols(T(DType::FP32, 2, 1, {1, 2}), 1, T(DType::FP32, 2, 2, {3, 4, 5, 6}), 2, 3),
              T(DType::FP32, 2, 3, {1, 3, 4, 2, 5, 6}));
    expect_eq(concat_cols(T(DType::FP32, 1, 2, {1, 2}), 1, T(DType::FP32, 1, 2, {3, 4}), 2, 4),
              T(DType::FP32, 1, 4, {1, 3, 4, 0}));
    expect_eq(assemble(T(DType::FP32, 3, 3, {0, 0, 0, 0, 0, 0, 0, 0, 0}), T(DType::FP32, 1, 2, {1, 2}), 1, 1),
              T(DType::FP32, 3, 3, {0, 0, 0, 0, 1, 2, 0, 0, 0}));
    TileData x = iota(3, 3, DType::FP32, 0, false);
    expect_eq(window(x, 1, 1, 2, 2), T(DType::FP32, 2, 2, {4, 5, 7, 8}));
}
