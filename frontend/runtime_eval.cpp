// Run-time scalar evaluation: truthiness and eval_scalar over the IR's scalar expressions (Python semantics).
#include "frontend/runtime.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string_view>

#include "core/fast_round.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::rt {

bool truthy(const Scalar& s) {
    return s.is_float() ? s.f != 0 : s.i != 0;
}

namespace {

int64_t floordiv(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

int64_t pymod(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    return m;
}

}  // namespace

Scalar eval_scalar(const ir::Expr& e, const std::function<Scalar(const ir::Var&)>& lookup) {
    using ir::ExprKind;
    switch (e.kind) {
        case ExprKind::Int:
            return Scalar::of_int(e.ival, DType::INDEX);
        case ExprKind::Bool:
            return Scalar::of_int(e.ival, DType::BOOL);
        case ExprKind::Float:
            return Scalar::of_float(e.fval, DType::FP32);
        case ExprKind::Const:
            return dtype_is_float(e.dtype) ? Scalar::of_float(e.fval, e.dtype)
                                           : Scalar::of_int(static_cast<int64_t>(e.fval), e.dtype);
        case ExprKind::Var:
            return lookup(*e.var);
        case ExprKind::Unary: {
            Scalar x = eval_scalar(*e.args[0], lookup);
            if (e.sval == "not") return Scalar::of_int(!truthy(x), DType::BOOL);
            if (e.sval == "cast") {  // scalar pl.cast: to the target dtype (floats round, integers truncate toward 0)
                if (dtype_is_float(e.dtype)) return Scalar::of_float(round_to(e.dtype, x.as_double()), e.dtype);
                double d = x.is_float() ? std::trunc(x.f) : static_cast<double>(x.i);
                return Scalar::of_int(x.is_float() ? static_cast<int64_t>(round_to(e.dtype, d)) : x.i, e.dtype);
            }
            if (e.sval == "abs") {
                if (x.is_float())
                    x.f = std::fabs(x.f);
                else if (x.i < 0)
                    x.i = static_cast<int64_t>(0ull - static_cast<uint64_t>(x.i));
                return x;
            }
            if (e.sval == "-") {
                if (x.is_float())
                    x.f = -x.f;
                else
                    x.i = static_cast<int64_t>(0ull - static_cast<uint64_t>(x.i));
            }
            return x;
        }
        case ExprKind::BoolOp: {
            Scalar a = eval_scalar(*e.args[0], lookup);
            if (e.sval == "and" ? !truthy(a) : truthy(a)) return Scalar::of_int(truthy(a), DType::BOOL);
            return Scalar::of_int(truthy(eval_scalar(*e.args[1], lookup)), DType::BOOL);
        }
        case ExprKind::Compare: {
            Scalar a = eval_scalar(*e.args[0], lookup), b = eval_scalar(*e.args[1], lookup);
            bool r;
            if (a.is_float() || b.is_float()) {
                double x = a.as_double(), y = b.as_double();
                r = e.sval == "<"    ? x < y
                    : e.sval == "<=" ? x <= y
                    : e.sval == ">"  ? x > y
                    : e.sval == ">=" ? x >= y
                    : e.sval == "==" ? x == y
                                     : x != y;
            } else {
                int64_t x = a.i, y = b.i;
                r = e.sval == "<"    ? x < y
                    : e.sval == "<=" ? x <= y
                    : e.sval == ">"  ? x > y
                    : e.sval == ">=" ? x >= y
                    : e.sval == "==" ? x == y
                                     : x != y;
            }
            return Scalar::of_int(r, DType::BOOL);
        }
        case ExprKind::Binary: {
            Scalar a = eval_scalar(*e.args[0], lookup), b = eval_scalar(*e.args[1], lookup);
            const std::string& op = e.sval;
            if (op == "min" || op == "max") {  // pl.min / pl.max of scalars
                if (a.is_float() || b.is_float()) {
                    double x = a.as_double(), y = b.as_double();
                    return Scalar::of_float(op == "min" ? std::min(x, y) : std::max(x, y), DType::FP32);
                }
                return Scalar::of_int(op == "min" ? std::min(a.i, b.i) : std::max(a.i, b.i), e.type.dtype);
            }
            if (a.is_float() || b.is_float() || op == "/") {
                double x = a.as_double(), y = b.as_double(), r = 0;
                if (op == "+")
                    r = x + y;
                else if (op == "-")
                    r = x - y;
                else if (op == "*")
                    r = x * y;
                else if (op == "/")
                    r = x / y;
                else if (op == "//")
                    r = std::floor(x / y);
                else if (op == "%")
                    r = std::fmod(x, y);
                return Scalar::of_float(
                    r, e.type.dtype == DType::FP32 || !dtype_is_float(e.type.dtype) ? DType::FP32 : e.type.dtype);
            }
            // Saturating 64-bit integer arithmetic (Python's integers do not wrap: a huge offset must stay
            // huge and be reported out of bounds, not wrap back into the tensor); never undefined behaviour.
            uint64_t x = static_cast<uint64_t>(a.i);
            int64_t r = 0;
            const int64_t sat = (a.i < 0) != (b.i < 0) ? INT64_MIN : INT64_MAX;
            if (op == "+")
                r = __builtin_add_overflow(a.i, b.i, &r) ? (a.i < 0 ? INT64_MIN : INT64_MAX) : r;
            else if (op == "-")
                r = __builtin_sub_overflow(a.i, b.i, &r) ? (a.i < 0 ? INT64_MIN : INT64_MAX) : r;
            else if (op == "*")
                r = __builtin_mul_overflow(a.i, b.i, &r) ? sat : r;
            else if (op == "//")
                r = (a.i == INT64_MIN && b.i == -1) ? INT64_MIN : floordiv(a.i, b.i);
            else if (op == "%")
                r = (b.i == -1) ? 0 : pymod(a.i, b.i);
            else if (op == "<<")
                r = b.i >= 0 && b.i < 64 ? static_cast<int64_t>(x << b.i) : 0;
            else if (op == ">>")
                r = b.i >= 0 && b.i < 64 ? (a.i >> b.i) : (a.i < 0 ? -1 : 0);
            return Scalar::of_int(r, e.type.dtype);
        }
        default:
            return Scalar::of_int(0);
    }
}

}  // namespace cvsim::rt
