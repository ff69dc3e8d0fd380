// Compute kernels on logical tiles: elementwise, reductions, casts and matmul, each result rounded once.
#include "core/datapath.h"
#include "core/matmul_kernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace cvsim {

namespace {

std::string shape_str(const Matrix& m) {
    // fmt, not string concatenation: g++ 12 at -O3 raises a false -Wrestrict on "[" + std::to_string(...).
    return fmt::format("[{}, {}]", m.rows(), m.cols());
}

[[noreturn]] void shape_error(std::string_view op, const std::string& detail) {
    throw std::invalid_argument(std::string(op) + ": " + detail);
}

bool dtype_unsigned(DType t) {
    return t == DType::UINT8 || t == DType::UINT16 || t == DType::UINT32 || t == DType::UINT64 || t == DType::BOOL;
}

// Two's-complement wrap of v to t's width.
double wrap_int(DType t, int64_t v) {
    const unsigned bits = static_cast<unsigned>(dtype_bytes(t) * 8);
    if (bits >= 64) return static_cast<double>(v);
    const uint64_t mask = (uint64_t{1} << bits) - 1;
    uint64_t u = static_cast<uint64_t>(v) & mask;
    if (dtype_unsigned(t)) return static_cast<double>(u);
    if (u >> (bits - 1)) return static_cast<double>(static_cast<int64_t>(u | ~mask));
    return static_cast<double>(u);
}

// Bitwise and shift ops on integer values (already in t's range).
double apply_bitwise(BinaryOp op, DType t, double a, double b) {
    const int64_t x = static_cast<int64_t>(a), y = static_cast<int64_t>(b);
    const int64_t bits = static_cast<int64_t>(dtype_bytes(t) * 8);
    switch (op) {
        case BinaryOp::And:
            return wrap_int(t, x & y);
        case BinaryOp::Or:
            return wrap_int(t, x | y);
        case BinaryOp::Xor:
            return wrap_int(t, x ^ y);
        case BinaryOp::Shl:
            if (y < 0 || y >= bits) return 0;
            return wrap_int(t, static_cast<int64_t>(static_cast<uint64_t>(x) << y));
        case BinaryOp::Shr:
            if (y < 0 || y >= bits) return x < 0 ? -1 : 0;
            return wrap_int(t, x >> y);  // arithmetic for signed (unsigned values are non-negative here)
        default:
            return 0;
    }
}

double apply_binary(BinaryOp op, bool integer, double a, double b) {
    switch (op) {
        case BinaryOp::Rem:
            if (integer && b == 0) return 0;
            return a - std::floor(a / b) * b;
        case BinaryOp::Fmod:
            if (integer && b == 0) return 0;
            return std::fmod(a, b);
        case BinaryOp::And:
        case BinaryOp::Or:
        case BinaryOp::Xor:
        case BinaryOp::Shl:
        case BinaryOp::Shr:
            return 0;  // apply_binary_t handles them (they need the dtype)
        case BinaryOp::Add:
            return a + b;
        case BinaryOp::Sub:
            return a - b;
        case BinaryOp::Mul:
            return a * b;
        case BinaryOp::Div:
            return integer ? (b == 0 ? 0 : std::trunc(a / b)) : a / b;
        // NaN propagates (either side) so that poisoned inputs are not silently dropped.
        case BinaryOp::Maximum:
            return std::isnan(a) || std::isnan(b) ? a + b : (a >= b ? a : b);
        case BinaryOp::Minimum:
            return std::isnan(a) || std::isnan(b) ? a + b : (a <= b ? a : b);
    }
    return 0;
}

// Binary op with the dtype at hand (bitwise ops wrap instead of rounding).
double apply_binary_t(BinaryOp op, DType t, double a, double b) {
    if (op >= BinaryOp::And) return apply_bitwise(op, t, a, b);
    return round_to(t, apply_binary(op, dtype_is_int(t), a, b));
}

double apply_unary(UnaryOp op, bool integer, double x) {
    switch (op) {
        case UnaryOp::Sin:
            return std::sin(x);
        case UnaryOp::Cos:
            return std::cos(x);
        case UnaryOp::Not:
            return static_cast<double>(~static_cast<int64_t>(x));
        case UnaryOp::Exp:
            return std::exp(x);
        case UnaryOp::Log:
            return std::log(x);
        case UnaryOp::Sqrt:
            return std::sqrt(x);
        case UnaryOp::Rsqrt:
            return integer && x == 0 ? 0 : 1.0 / std::sqrt(x);
        case UnaryOp::Recip:
            return integer && x == 0 ? 0 : 1.0 / x;
        case UnaryOp::Abs:
            return std::fabs(x);
        case UnaryOp::Neg:
            return -x;
        // NaN stays NaN; negatives and -0 become +0.
        case UnaryOp::Relu:
            return std::isnan(x) ? x : (x > 0 ? x : 0.0);
    }
    return 0;
}

double apply_row_expand(RowExpandOp op, double a, double b) {
    switch (op) {
        case RowExpandOp::Mul:
            return a * b;
        case RowExpandOp::Add:
            return a + b;
        case RowExpandOp::Sub:
            return a - b;
        case RowExpandOp::Div:
            return apply_binary(BinaryOp::Div, false, a, b);
        case RowExpandOp::Max:
            return apply_binary(BinaryOp::Maximum, false, a, b);
        case RowExpandOp::Min:
            return apply_binary(BinaryOp::Minimum, false, a, b);
        case RowExpandOp::Expdif:
            return std::exp(a - b);  // the caller rounds the difference first
        case RowExpandOp::Copy:
            return b;
    }
    return 0;
}

// One broadcast element in dtype t.
double expand_element(RowExpandOp op, DType t, double a, double b) {
    if (op == RowExpandOp::Div && dtype_is_int(t)) return round_to(t, apply_binary(BinaryOp::Div, true, a, b));
    if (op == RowExpandOp::Expdif) return round_to(t, std::exp(round_to(t, a - b)));
    return round_to(t, apply_row_expand(op, a, b));
}

double reduce_init(ReduceOp op) {
    switch (op) {
        case ReduceOp::RowSum:
            return 0.0;
        case ReduceOp::RowMax:
            return -std::numeric_limits<double>::infinity();
        case ReduceOp::RowMin:
            return std::numeric_limits<double>::infinity();
        case ReduceOp::RowProd:
            return 1.0;
    }
    return 0;
}

double reduce_step(ReduceOp op, double acc, double v) {
    switch (op) {
        case ReduceOp::RowSum:
            return acc + v;
        case ReduceOp::RowMax:
            return apply_binary(BinaryOp::Maximum, false, acc, v);
        case ReduceOp::RowMin:
            return apply_binary(BinaryOp::Minimum, false, acc, v);
        case ReduceOp::RowProd:
            return acc * v;
    }
    return acc;
}

bool cmp_holds(CmpMode m, double a, double b) {
    switch (m) {
        case CmpMode::EQ:
            return a == b;
        case CmpMode::NE:
            return a != b;
        case CmpMode::LT:
            return a < b;
        case CmpMode::LE:
            return a <= b;
        case CmpMode::GT:
            return a > b;
        case CmpMode::GE:
            return a >= b;
    }
    return false;
}

template <class B>
TileData pack_mask(CmpMode m, const TileData& a, B&& rhs, int64_t mask_cols) {
    const Eigen::Index rows = a.m.rows(), cols = a.m.cols();
    TileData out{DType::UINT8, Matrix::Zero(rows, mask_cols)};
    for (Eigen::Index r = 0; r < rows; ++r)
        for (Eigen::Index c = 0; c < cols && c / 8 < mask_cols; ++c)
            if (cmp_holds(m, a.m(r, c), rhs(r, c))) out.m(r, c / 8) += static_cast<double>(1u << (c % 8));
    return out;
}

bool mask_bit(const TileData& mask, Eigen::Index r, Eigen::Index c) {
    const int64_t per = static_cast<int64_t>(dtype_bytes(mask.dtype) * 8);
    const Eigen::Index e = c / per;
    if (r >= mask.m.rows() || e >= mask.m.cols()) return false;
    const uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(mask.m(r, e)));
    return (v >> (c % per)) & 1u;
}

}  // namespace

TileData binary(BinaryOp op, const TileData& lhs, const TileData& rhs) {
    if (lhs.m.rows() != rhs.m.rows() || lhs.m.cols() != rhs.m.cols())
        shape_error(binary_op_name(op), "shapes differ: " + shape_str(lhs.m) + " vs " + shape_str(rhs.m));
    TileData out{lhs.dtype, Matrix(lhs.m.rows(), lhs.m.cols())};
    const double *a = lhs.m.data(), *b = rhs.m.data();
    double* o = out.m.data();
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) o[i] = apply_binary_t(op, lhs.dtype, a[i], b[i]);
    return out;
}

TileData binary_scalar(BinaryOp op, const TileData& lhs, double scalar) {
    const double s = round_to(lhs.dtype, scalar);
    TileData out{lhs.dtype, Matrix(lhs.m.rows(), lhs.m.cols())};
    const double* a = lhs.m.data();
    double* o = out.m.data();
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) o[i] = apply_binary_t(op, lhs.dtype, a[i], s);
    return out;
}

TileData unary(UnaryOp op, const TileData& x) {
    TileData out{x.dtype, Matrix(x.m.rows(), x.m.cols())};
    const double* a = x.m.data();
    double* o = out.m.data();
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i)
        o[i] = op == UnaryOp::Not ? wrap_int(x.dtype, static_cast<int64_t>(apply_unary(op, true, a[i])))
                                  : round_to(x.dtype, apply_unary(op, dtype_is_int(x.dtype), a[i]));
    return out;
}

TileData cast(const TileData& x, DType to, CastMode mode) {
    TileData out{to, Matrix(x.m.rows(), x.m.cols())};
    const bool float_to_int = dtype_is_float(x.dtype) && dtype_is_int(to);
    const double* a = x.m.data();
    double* o = out.m.data();
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) {
        double v = a[i];
        if (float_to_int) {
            switch (mode) {
                case CastMode::Round:
                    v = std::round(v);  // pto CAST_ROUND: nearest, ties away from zero (pto-isa TCVT)
                    break;
                case CastMode::Rint:
                case CastMode::None:
                    break;  // round_to rounds to nearest even (CAST_RINT; CAST_NONE's float -> int default)
                case CastMode::Odd:
                    if (std::isfinite(v) && std::trunc(v) != v)
                        v = std::fmod(std::floor(v), 2.0) != 0 ? std::floor(v) : std::ceil(v);
                    break;
                case CastMode::Floor:
                    v = std::floor(v);
                    break;
                case CastMode::Ceil:
                    v = std::ceil(v);
                    break;
                case CastMode::Trunc:
                    v = std::trunc(v);
                    break;
            }
        }
        o[i] = round_to(to, v);  // saturates, NaN -> 0 for integer targets
    }
    return out;
}

TileData reduce_rows(ReduceOp op, const TileData& x) {
    const Eigen::Index rows = x.m.rows(), cols = x.m.cols();
    TileData out{x.dtype, Matrix(rows, 1)};
    for (Eigen::Index r = 0; r < rows; ++r) {
        const double* a = x.m.data() + r * cols;
        // Left to right in double, rounded once. An empty row's max is -inf (the dtype minimum for integers).
        double acc = reduce_init(op);
        for (Eigen::Index c = 0; c < cols; ++c) acc = reduce_step(op, acc, a[c]);
        out.m(r, 0) = round_to(x.dtype, acc);
    }
    return out;
}

TileData row_expand(RowExpandOp op, const TileData& x, const TileData& row) {
    const Eigen::Index rows = x.m.rows(), cols = x.m.cols();
    if (row.m.rows() != rows || row.m.cols() != 1)
        shape_error(row_expand_op_name(op), "row operand " + shape_str(row.m) + " does not match " + shape_str(x.m) +
                                                " (expected [" + std::to_string(rows) + ", 1])");
    TileData out{x.dtype, Matrix(rows, cols)};
    for (Eigen::Index r = 0; r < rows; ++r) {
        const double b = row.m(r, 0);
        for (Eigen::Index c = 0; c < cols; ++c) out.m(r, c) = expand_element(op, x.dtype, x.m(r, c), b);
    }
    return out;
}

TileData col_expand(RowExpandOp op, const TileData& x, const TileData& col) {
    const Eigen::Index rows = x.m.rows(), cols = x.m.cols();
    if (col.m.rows() != 1 || col.m.cols() != cols)
        shape_error("col_expand", "column operand " + shape_str(col.m) + " does not match " + shape_str(x.m) +
                                      " (expected [1, " + std::to_string(cols) + "])");
    TileData out{x.dtype, Matrix(rows, cols)};
    for (Eigen::Index r = 0; r < rows; ++r)
        for (Eigen::Index c = 0; c < cols; ++c) out.m(r, c) = expand_element(op, x.dtype, x.m(r, c), col.m(0, c));
    return out;
}

TileData reduce_cols(ReduceOp op, const TileData& x) {
    const Eigen::Index rows = x.m.rows(), cols = x.m.cols();
    TileData out{x.dtype, Matrix(1, cols)};
    for (Eigen::Index c = 0; c < cols; ++c) {
        double acc = reduce_init(op);
        for (Eigen::Index r = 0; r < rows; ++r) acc = reduce_step(op, acc, x.m(r, c));
        out.m(0, c) = round_to(x.dtype, acc);
    }
    return out;
}

TileData ternary(BinaryOp op1, BinaryOp op2, const TileData& a, const TileData& b, const TileData& c) {
    return binary(op2, binary(op1, a, b), c);
}

TileData ternary_scalar(BinaryOp op1, BinaryOp op2, const TileData& a, double s, const TileData& c) {
    return binary(op2, binary_scalar(op1, a, s), c);
}

TileData prelu(const TileData& x, const TileData& slope) {
    if (x.m.rows() != slope.m.rows() || x.m.cols() != slope.m.cols())
        shape_error("prelu", "shapes differ: " + shape_str(x.m) + " vs " + shape_str(slope.m));
    TileData out{x.dtype, Matrix(x.m.rows(), x.m.cols())};
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) {
        const double v = x.m.data()[i];
        out.m.data()[i] = v > 0 ? v : round_to(x.dtype, v * slope.m.data()[i]);
    }
    return out;
}

TileData lrelu(const TileData& x, double slope) {
    const double s = round_to(x.dtype, slope);
    TileData out{x.dtype, Matrix(x.m.rows(), x.m.cols())};
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) {
        const double v = x.m.data()[i];
        out.m.data()[i] = v > 0 ? v : round_to(x.dtype, v * s);
    }
    return out;
}

TileData compare(CmpMode mode, const TileData& a, const TileData& b, int64_t mask_cols) {
    if (a.m.rows() != b.m.rows() || a.m.cols() != b.m.cols())
        shape_error("cmp", "shapes differ: " + shape_str(a.m) + " vs " + shape_str(b.m));
    return pack_mask(
        mode, a, [&](Eigen::Index r, Eigen::Index c) { return b.m(r, c); }, mask_cols);
}

TileData compare_scalar(CmpMode mode, const TileData& a, double s, int64_t mask_cols) {
    const double v = round_to(a.dtype, s);
    return pack_mask(
        mode, a, [&](Eigen::Index, Eigen::Index) { return v; }, mask_cols);
}

TileData select(const TileData& mask, const TileData& a, const TileData& b) {
    if (a.m.rows() != b.m.rows() || a.m.cols() != b.m.cols())
        shape_error("sel", "shapes differ: " + shape_str(a.m) + " vs " + shape_str(b.m));
    TileData out{a.dtype, Matrix(a.m.rows(), a.m.cols())};
    for (Eigen::Index r = 0; r < a.m.rows(); ++r)
        for (Eigen::Index c = 0; c < a.m.cols(); ++c)
            out.m(r, c) = mask_bit(mask, r, c) ? a.m(r, c) : round_to(a.dtype, b.m(r, c));
    return out;
}

TileData select_scalar(const TileData& mask, const TileData& a, double s) {
    const double v = round_to(a.dtype, s);
    TileData out{a.dtype, Matrix(a.m.rows(), a.m.cols())};
    for (Eigen::Index r = 0; r < a.m.rows(); ++r)
        for (Eigen::Index c = 0; c < a.m.cols(); ++c) out.m(r, c) = mask_bit(mask, r, c) ? a.m(r, c) : v;
    return out;
}

TileData fillpad(const TileData& x, int64_t vr, int64_t vc, int64_t rows, int64_t cols, double pad) {
    const double p = round_to(x.dtype, pad);
    TileData out{x.dtype, Matrix::Constant(rows, cols, p)};
    const int64_t R = std::min<int64_t>({vr, x.m.rows(), rows}), C = std::min<int64_t>({vc, x.m.cols(), cols});
    for (int64_t r = 0; r < R; ++r)
        for (int64_t c = 0; c < C; ++c) out.m(r, c) = x.m(r, c);
    return out;
}

TileData iota(int64_t rows, int64_t cols, DType t, double start, bool descending) {
    TileData out{t, Matrix(rows, cols)};
    for (int64_t k = 0, n = rows * cols; k < n; ++k)
        out.m.data()[k] = round_to(t, descending ? start - static_cast<double>(k) : start + static_cast<double>(k));
    return out;
}

TileData tri(int64_t rows, int64_t cols, DType t, int64_t diagonal, bool upper, int64_t vr, int64_t vc) {
    TileData out{t, Matrix::Zero(rows, cols)};
    for (int64_t r = 0; r < std::min(rows, vr); ++r)
        for (int64_t c = 0; c < std::min(cols, vc); ++c)
            out.m(r, c) = (upper ? c >= r + diagonal : c <= r + diagonal) ? round_to(t, 1.0) : 0.0;
    return out;
}

TileData concat_cols(const TileData& a, int64_t vc0, const TileData& b, int64_t vc1, int64_t cols) {
    if (a.m.rows() != b.m.rows())
        shape_error("concat", "row counts differ: " + shape_str(a.m) + " vs " + shape_str(b.m));
    TileData out{a.dtype, Matrix::Zero(a.m.rows(), cols)};
    vc0 = std::min<int64_t>({vc0, a.m.cols(), cols});
    vc1 = std::min<int64_t>({vc1, b.m.cols(), cols - vc0});
    out.m.leftCols(vc0) = a.m.leftCols(vc0);
    if (vc1 > 0) out.m.middleCols(vc0, vc1) = b.m.leftCols(vc1);
    return out;
}

TileData assemble(const TileData& target, const TileData& src, int64_t r0, int64_t c0) {
    TileData out = target;
    for (int64_t r = 0; r < src.m.rows(); ++r)
        for (int64_t c = 0; c < src.m.cols(); ++c)
            if (r0 + r >= 0 && r0 + r < out.m.rows() && c0 + c >= 0 && c0 + c < out.m.cols())
                out.m(r0 + r, c0 + c) = round_to(target.dtype, src.m(r, c));
    return out;
}

TileData window(const TileData& x, int64_t r0, int64_t c0, int64_t rows, int64_t cols) {
    TileData out{x.dtype, Matrix::Zero(rows, cols)};
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
            if (r0 + r >= 0 && r0 + r < x.m.rows() && c0 + c >= 0 && c0 + c < x.m.cols())
                out.m(r, c) = x.m(r0 + r, c0 + c);
    return out;
}

TileData transpose(const TileData& x) {
    return TileData{x.dtype, x.m.transpose()};
}

TileData full(int64_t rows, int64_t cols, DType t, double value) {
    return TileData{t, Matrix::Constant(rows, cols, round_to(t, value))};
}

DType matmul_result_dtype(DType input) {
    return dtype_is_float(input) ? DType::FP32 : DType::INT32;
}

TileData matmul(const TileData& lhs, const TileData& rhs, const TileData* acc, const TileData* bias) {
    const Eigen::Index M = lhs.m.rows(), K = lhs.m.cols(), N = rhs.m.cols();
    if (rhs.m.rows() != K)
        shape_error("matmul", "lhs " + shape_str(lhs.m) + " and rhs " + shape_str(rhs.m) + " disagree on K");
    if (acc && (acc->m.rows() != M || acc->m.cols() != N))
        shape_error("matmul",
                    "acc " + shape_str(acc->m) + " is not [" + std::to_string(M) + ", " + std::to_string(N) + "]");
    if (bias && (bias->m.rows() != 1 || bias->m.cols() != N))
        shape_error("matmul", "bias " + shape_str(bias->m) + " is not [1, " + std::to_string(N) + "]");
    const DType t = matmul_result_dtype(lhs.dtype);
    Matrix sum = acc ? acc->m : Matrix::Zero(M, N);
    if (bias) sum.rowwise() += bias->m.row(0);
    // Each sum(i, j) adds its K products in ascending k, s = s + a(i, k) * b(k, j), whatever M and N are, so a
    // row's result never depends on the other rows (a gemv equals the matching matmul row). Products of
    // FP32/FP16/BF16/INT8 values are exact in double, and the product is rounded before the add anyway (no fused
    // multiply-add: the same two roundings as the scalar loop). Blocked (matmul_blocked): the element's sequence
    // of operations is the scalar loop's, only which elements are computed together changes.
    detail::matmul_accumulate(lhs.m.data(), rhs.m.data(), sum.data(), M, K, N, true);
    TileData out{t, std::move(sum)};
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) out.m.data()[i] = round_to(t, out.m.data()[i]);
    return out;
}

}  // namespace cvsim
