// Compute kernels on logical tiles (OPS.md vector and cube compute), shared by the reference interpreter and
// the models.
//
// Numerics: every op computes in double and rounds each result element once with round_to(result dtype). For
// +, -, *, / and sqrt on FP32/FP16/BF16 operands this equals the IEEE single-rounding result of the target
// type. Reductions and matmul accumulate in double in a fixed order that depends only on the reduced length,
// so the reference and the models, and two correct programs, agree bit for bit.
//
// Integer tiles (documented choices, since hardware behaviour is not given by the spec):
//  * div/divs truncate toward zero; division by zero (div, divs, recip(0), rsqrt(0)) gives 0;
//  * other results round to nearest even and saturate to the dtype range, NaN giving 0 (round_to), e.g.
//    log(0) is the dtype minimum and sqrt(-1) is 0.
// Floats follow IEEE: x/0 = +-inf, 0/0 and log(-1) = NaN. maximum/minimum/row_max propagate NaN, so a
// poisoned (NaN) input stays visible in the output.
#pragma once

#include <optional>
#include <string_view>

#include "models/dtype.h"
#include "models/layout.h"

namespace cvsim {

// A tile value: rows x cols logical elements of `dtype`.
struct TileData {
    DType dtype = DType::FP32;
    Matrix m;
};

enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Maximum, Minimum };
enum class UnaryOp : uint8_t { Exp, Log, Sqrt, Rsqrt, Recip, Abs, Neg, Relu };
enum class ReduceOp : uint8_t { RowSum, RowMax };
enum class RowExpandOp : uint8_t { Mul, Add, Sub };
enum class CastMode : uint8_t { Round, Floor, Ceil, Trunc };

// OPS.md names, with or without the "tile." prefix: "add", "tile.exp", "row_sum", "row_expand_sub", ...
std::optional<BinaryOp> binary_op_from_name(std::string_view name);
std::optional<BinaryOp> scalar_op_from_name(std::string_view name);  // "adds", "subs", "muls", "divs"
std::optional<UnaryOp> unary_op_from_name(std::string_view name);
std::optional<ReduceOp> reduce_op_from_name(std::string_view name);
std::optional<RowExpandOp> row_expand_op_from_name(std::string_view name);
std::optional<CastMode> cast_mode_from_name(std::string_view name);  // "round", "floor", "ceil", "trunc"
std::string_view binary_op_name(BinaryOp op);                        // "add"
std::string_view unary_op_name(UnaryOp op);
std::string_view reduce_op_name(ReduceOp op);
std::string_view row_expand_op_name(RowExpandOp op);  // "row_expand_mul"
std::string_view cast_mode_name(CastMode mode);

// Shape errors are caller bugs (the type checker rejects such programs): they throw std::invalid_argument.

// Elementwise lhs (op) rhs; shapes must be equal; result dtype = lhs dtype.
TileData binary(BinaryOp op, const TileData& lhs, const TileData& rhs);
// lhs (op) scalar (adds/subs/muls/divs). The scalar is first rounded to lhs.dtype, as the hardware's scalar
// operand has the tile's element type.
TileData binary_scalar(BinaryOp op, const TileData& lhs, double scalar);
TileData unary(UnaryOp op, const TileData& x);
// Float -> integer applies `mode` then saturates (NaN -> 0); every other conversion rounds to nearest even.
TileData cast(const TileData& x, DType to, CastMode mode = CastMode::Round);
// [M, N] -> [M, 1].
TileData reduce_rows(ReduceOp op, const TileData& x);
// x [M, N] (op) row [M, 1], the row's value broadcast along each row; result dtype = x dtype.
TileData row_expand(RowExpandOp op, const TileData& x, const TileData& row);
TileData transpose(const TileData& x);
TileData full(int64_t rows, int64_t cols, DType t, double value);

// FP32 for float inputs (FP16/BF16/FP32), INT32 for integer inputs (INT8).
DType matmul_result_dtype(DType input);
// acc + lhs @ rhs + bias: lhs M x K, rhs K x N, acc M x N and bias 1 x N optional (nullptr). Each element
// starts from acc + bias (as L0C is initialised) and adds the K products in ascending k, all in double, then
// rounds once to matmul_result_dtype(lhs.dtype).
TileData matmul(const TileData& lhs, const TileData& rhs, const TileData* acc = nullptr,
                const TileData* bias = nullptr);

}  // namespace cvsim
