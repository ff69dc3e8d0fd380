// Compute kernels on logical tiles: elementwise, reductions, casts and matmul, each result rounded once.
#include "models/datapath.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace cvsim {

namespace {

constexpr std::string_view kBinaryNames[] = {"add", "sub", "mul", "div", "maximum", "minimum"};
constexpr std::string_view kScalarNames[] = {"adds", "subs", "muls", "divs"};
constexpr std::string_view kUnaryNames[] = {"exp", "log", "sqrt", "rsqrt", "recip", "abs", "neg", "relu"};
constexpr std::string_view kReduceNames[] = {"row_sum", "row_max"};
constexpr std::string_view kRowExpandNames[] = {"row_expand_mul", "row_expand_add", "row_expand_sub"};
constexpr std::string_view kCastModeNames[] = {"round", "floor", "ceil", "trunc"};

// Op names may carry the canonical "tile." prefix; cast modes are plain words.
template <class E, size_t N>
std::optional<E> lookup(const std::string_view (&names)[N], std::string_view name, bool op_name = true) {
    if (op_name && name.starts_with("tile.")) name.remove_prefix(5);
    for (size_t i = 0; i < N; ++i)
        if (names[i] == name) return static_cast<E>(i);
    return std::nullopt;
}

std::string shape_str(const Matrix& m) {
    // fmt, not string concatenation: g++ 12 at -O3 raises a false -Wrestrict on "[" + std::to_string(...).
    return fmt::format("[{}, {}]", m.rows(), m.cols());
}

[[noreturn]] void shape_error(std::string_view op, const std::string& detail) {
    throw std::invalid_argument(std::string(op) + ": " + detail);
}

double apply_binary(BinaryOp op, bool integer, double a, double b) {
    switch (op) {
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

double apply_unary(UnaryOp op, bool integer, double x) {
    switch (op) {
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
    }
    return 0;
}

}  // namespace

std::optional<BinaryOp> binary_op_from_name(std::string_view n) {
    return lookup<BinaryOp>(kBinaryNames, n);
}
std::optional<BinaryOp> scalar_op_from_name(std::string_view n) {
    return lookup<BinaryOp>(kScalarNames, n);
}
std::optional<UnaryOp> unary_op_from_name(std::string_view n) {
    return lookup<UnaryOp>(kUnaryNames, n);
}
std::optional<ReduceOp> reduce_op_from_name(std::string_view n) {
    return lookup<ReduceOp>(kReduceNames, n);
}
std::optional<RowExpandOp> row_expand_op_from_name(std::string_view n) {
    return lookup<RowExpandOp>(kRowExpandNames, n);
}
std::optional<CastMode> cast_mode_from_name(std::string_view n) {
    return lookup<CastMode>(kCastModeNames, n, false);
}
std::string_view binary_op_name(BinaryOp op) {
    return kBinaryNames[static_cast<int>(op)];
}
std::string_view unary_op_name(UnaryOp op) {
    return kUnaryNames[static_cast<int>(op)];
}
std::string_view reduce_op_name(ReduceOp op) {
    return kReduceNames[static_cast<int>(op)];
}
std::string_view row_expand_op_name(RowExpandOp op) {
    return kRowExpandNames[static_cast<int>(op)];
}
std::string_view cast_mode_name(CastMode mode) {
    return kCastModeNames[static_cast<int>(mode)];
}

TileData binary(BinaryOp op, const TileData& lhs, const TileData& rhs) {
    if (lhs.m.rows() != rhs.m.rows() || lhs.m.cols() != rhs.m.cols())
        shape_error(binary_op_name(op), "shapes differ: " + shape_str(lhs.m) + " vs " + shape_str(rhs.m));
    const bool integer = dtype_is_int(lhs.dtype);
    TileData out{lhs.dtype, Matrix(lhs.m.rows(), lhs.m.cols())};
    const double *a = lhs.m.data(), *b = rhs.m.data();
    double* o = out.m.data();
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i)
        o[i] = round_to(lhs.dtype, apply_binary(op, integer, a[i], b[i]));
    return out;
}

TileData binary_scalar(BinaryOp op, const TileData& lhs, double scalar) {
    const double s = round_to(lhs.dtype, scalar);
    const bool integer = dtype_is_int(lhs.dtype);
    TileData out{lhs.dtype, Matrix(lhs.m.rows(), lhs.m.cols())};
    const double* a = lhs.m.data();
    double* o = out.m.data();
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i)
        o[i] = round_to(lhs.dtype, apply_binary(op, integer, a[i], s));
    return out;
}

TileData unary(UnaryOp op, const TileData& x) {
    TileData out{x.dtype, Matrix(x.m.rows(), x.m.cols())};
    const double* a = x.m.data();
    double* o = out.m.data();
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i)
        o[i] = round_to(x.dtype, apply_unary(op, dtype_is_int(x.dtype), a[i]));
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
                    break;  // round_to rounds to nearest even
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
        double acc = op == ReduceOp::RowSum ? 0.0 : -std::numeric_limits<double>::infinity();
        for (Eigen::Index c = 0; c < cols; ++c)
            acc = op == ReduceOp::RowSum ? acc + a[c] : apply_binary(BinaryOp::Maximum, false, acc, a[c]);
        out.m(r, 0) = round_to(x.dtype, acc);
    }
    return out;
}

TileData row_expand(RowExpandOp op, const TileData& x, const TileData& row) {
    const Eigen::Index rows = x.m.rows(), cols = x.m.cols();
    if (row.m.rows() != rows || row.m.cols() != 1)
        shape_error(row_expand_op_name(op), "row operand " + shape_str(row.m) + " does not match " +
                                                shape_str(x.m) + " (expected [" + std::to_string(rows) +
                                                ", 1])");
    TileData out{x.dtype, Matrix(rows, cols)};
    for (Eigen::Index r = 0; r < rows; ++r) {
        const double b = row.m(r, 0);
        for (Eigen::Index c = 0; c < cols; ++c)
            out.m(r, c) = round_to(x.dtype, apply_row_expand(op, x.m(r, c), b));
    }
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
        shape_error("matmul", "acc " + shape_str(acc->m) + " is not [" + std::to_string(M) + ", " +
                                  std::to_string(N) + "]");
    if (bias && (bias->m.rows() != 1 || bias->m.cols() != N))
        shape_error("matmul", "bias " + shape_str(bias->m) + " is not [1, " + std::to_string(N) + "]");
    const DType t = matmul_result_dtype(lhs.dtype);
    Matrix sum = acc ? acc->m : Matrix::Zero(M, N);
    if (bias) sum.rowwise() += bias->m.row(0);
    // i-k-j order: each sum(i, j) adds its K products in ascending k whatever M and N are, so a row's result
    // never depends on the other rows (a gemv equals the matching matmul row), while the inner loop walks
    // contiguous memory. Products of FP32/FP16/BF16/INT8 values are exact in double, so a fused multiply-add,
    // if the compiler emits one, gives the same sums. Vectorised with Eigen packets over j, four k at a
    // time: s = (((s + a0 b0) + a1 b1) + a2 b2) + a3 b3 is, element by element, the same sequence of
    // roundings as the scalar loop (Eigen evaluates the sum left to right), with a quarter of the stores.
    using Row = Eigen::Map<Eigen::Matrix<double, 1, Eigen::Dynamic>>;
    using CRow = Eigen::Map<const Eigen::Matrix<double, 1, Eigen::Dynamic>>;
    for (Eigen::Index i = 0; i < M; ++i) {
        Row s(sum.data() + i * N, N);
        const double* a = lhs.m.data() + i * K;
        auto b = [&](Eigen::Index k) { return CRow(rhs.m.data() + k * N, N); };
        Eigen::Index k = 0;
        for (; k + 4 <= K; k += 4) s = s + a[k] * b(k) + a[k + 1] * b(k + 1) + a[k + 2] * b(k + 2) + a[k + 3] * b(k + 3);
        for (; k < K; ++k) s = s + a[k] * b(k);
    }
    TileData out{t, std::move(sum)};
    for (Eigen::Index i = 0, n = out.m.size(); i < n; ++i) out.m.data()[i] = round_to(t, out.m.data()[i]);
    return out;
}

}  // namespace cvsim
