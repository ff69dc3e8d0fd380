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

#include <memory>
#include <optional>
#include <string_view>

#include "core/dtype.h"
#include "core/layout.h"

namespace cvsim {

// A tile value: rows x cols logical elements of `dtype`.
struct TileData {
    DType dtype = DType::FP32;
    Matrix m;
};

// Logical values shared without copying (a ring slot, the pops of it and the memo's recorded push hold the
// same values); never modified once shared. Null reads as an empty matrix.
using SharedMatrix = std::shared_ptr<const Matrix>;
inline const Matrix& values(const SharedMatrix& m) {
    static const Matrix empty;
    return m ? *m : empty;
}

// Bitwise ops (And..Shr) work on the two's-complement integer and wrap to the dtype's width (no saturation);
// shifts by a negative amount or by >= the width give 0 (shr of a negative signed value: -1). Rem takes the
// divisor's sign (a - floor(a/b)*b), Fmod the dividend's; integer x rem/fmod 0 is 0.
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Maximum, Minimum, Rem, Fmod, And, Or, Xor, Shl, Shr };
enum class UnaryOp : uint8_t { Exp, Log, Sqrt, Rsqrt, Recip, Abs, Neg, Relu, Sin, Cos, Not };
// Sum / max / min / product; the row_ names reduce rows ([M, N] -> [M, 1]), reduce_cols the columns.
enum class ReduceOp : uint8_t { RowSum, RowMax, RowMin, RowProd };
// Broadcast ops of row_expand_* / col_expand_*: Expdif = exp(x - v) (the difference rounded first), Copy = v.
enum class RowExpandOp : uint8_t { Mul, Add, Sub, Div, Max, Min, Expdif, Copy };
// cmp/cmps modes (PyPTO cmp_type 0..5).
enum class CmpMode : uint8_t { EQ, NE, LT, LE, GT, GE };
// PyPTO's names (pto RoundMode CAST_*): round is nearest with ties away from zero (TCVT CAST_ROUND), rint and
// none nearest even (docs/DECISIONS.md), odd rounds an inexact value to the odd neighbour. Float -> float
// conversions round to nearest even whatever the mode.
enum class CastMode : uint8_t { Round, Floor, Ceil, Trunc, Rint, None, Odd };

// OPS.md names, with or without the "tile." prefix: "add", "tile.exp", "row_sum", "row_expand_sub", ...
std::optional<BinaryOp> binary_op_from_name(std::string_view name);
std::optional<BinaryOp> scalar_op_from_name(std::string_view name);  // "adds", "subs", "muls", "divs"
std::optional<UnaryOp> unary_op_from_name(std::string_view name);
std::optional<ReduceOp> reduce_op_from_name(std::string_view name);
std::optional<RowExpandOp> row_expand_op_from_name(std::string_view name);
std::optional<CastMode> cast_mode_from_name(
    std::string_view name);                    // "round", "floor", "ceil", "trunc", "rint", "none", "odd"
std::string_view binary_op_name(BinaryOp op);  // "add"
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
// x [M, N] (op) col [1, N], the column's value broadcast down each column.
TileData col_expand(RowExpandOp op, const TileData& x, const TileData& col);
// [M, N] -> [1, N], top to bottom in double, rounded once.
TileData reduce_cols(ReduceOp op, const TileData& x);
// (a op1 b) op2 c, each step rounded to a's dtype (addc: Add, Add; subc: Sub, Add — the ISA's src0 - src1 + src2).
TileData ternary(BinaryOp op1, BinaryOp op2, const TileData& a, const TileData& b, const TileData& c);
// (a op1 s) op2 c with the scalar rounded to a's dtype first (addsc / subsc).
TileData ternary_scalar(BinaryOp op1, BinaryOp op2, const TileData& a, double s, const TileData& c);
// x > 0 ? x : x * slope (prelu: slope per element; lrelu: one scalar slope rounded to x's dtype).
TileData prelu(const TileData& x, const TileData& slope);
TileData lrelu(const TileData& x, double slope);
// Packed predicate mask of cmp/cmps (documented layout, the ISA leaves it implementation-defined): UINT8
// [M, mask_cols]; bit (j % 8) of byte (j / 8) of row i (LSB first) is a[i, j] (mode) b[i, j] (or the scalar,
// rounded to a's dtype). NaN compares false except NE.
TileData compare(CmpMode mode, const TileData& a, const TileData& b, int64_t mask_cols);
TileData compare_scalar(CmpMode mode, const TileData& a, double s, int64_t mask_cols);
// sel: mask bit (i, j) (the layout above; a wider mask dtype packs 8*bytes bits per element) ? a : b.
// sels: ... ? a : the scalar rounded to a's dtype.
TileData select(const TileData& mask, const TileData& a, const TileData& b);
TileData select_scalar(const TileData& mask, const TileData& a, double s);
// Elements outside [vr, vc] (and everything beyond x in a larger rows x cols result) become `pad` (rounded to
// x's dtype: +-inf saturate to the integer range).
TileData fillpad(const TileData& x, int64_t vr, int64_t vc, int64_t rows, int64_t cols, double pad);
// ci: element k of the row-major order = start + k (start - k descending), rounded to t.
TileData iota(int64_t rows, int64_t cols, DType t, double start, bool descending);
// tri: 1 where j <= i + diagonal (lower) / j >= i + diagonal (upper), else 0; outside [vr, vc] 0.
TileData tri(int64_t rows, int64_t cols, DType t, int64_t diagonal, bool upper, int64_t vr, int64_t vc);
// Columns [0, vc0) of a then [0, vc1) of b, side by side, zero beyond.
TileData concat_cols(const TileData& a, int64_t vc0, const TileData& b, int64_t vc1, int64_t cols);
// target with src written at (r0, c0) (the part inside target).
TileData assemble(const TileData& target, const TileData& src, int64_t r0, int64_t c0);
// The rows x cols window of x at (r0, c0), zero where it leaves x.
TileData window(const TileData& x, int64_t r0, int64_t c0, int64_t rows, int64_t cols);
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
