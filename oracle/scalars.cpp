// The oracle's scalar evaluator (see values.h).
#include <cmath>

#include "oracle/values.h"

namespace cvsim::oracle::detail {

using namespace ir;

namespace {

int64_t floordiv(int64_t a, int64_t b) {
    if (b == 0) return 0;
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

}  // namespace

Val scalar_value(const ExprPtr& e, const std::function<Val(const Var&)>& var,
                 const std::function<Val(const Expr&)>& call) {
    auto scal = [&](const ExprPtr& x) { return scalar_value(x, var, call); };
    if (!e) return Val::of_int(0);
    switch (e->kind) {
        case ExprKind::Int:
        case ExprKind::Bool:
            return Val::of_int(e->ival);
        case ExprKind::Float:
            return Val::of_float(e->fval);
        case ExprKind::Const:
            return dtype_is_float(e->dtype) ? Val::of_float(e->fval) : Val::of_int(static_cast<int64_t>(e->fval));
        case ExprKind::Enum:
            return Val::of_int(e->ival);
        case ExprKind::Var: {
            Val v = var(*e->var);
            return v.k == Val::Int || v.k == Val::Float ? v : Val::of_int(0);
        }
        case ExprKind::Unary: {
            Val a = scal(e->args[0]);
            if (e->sval == "-") return a.k == Val::Float ? Val::of_float(-a.f) : Val::of_int(-a.i);
            if (e->sval == "not") return Val::of_int(a.as_num() == 0);
            if (e->sval == "~") return Val::of_int(~a.as_int());
            return a;
        }
        case ExprKind::BoolOp: {
            Val a = scal(e->args[0]);
            bool av = a.as_num() != 0;
            if (e->sval == "and" && !av) return a;
            if (e->sval == "or" && av) return a;
            return scal(e->args[1]);
        }
        case ExprKind::Compare: {
            double a = scal(e->args[0]).as_num(), b = scal(e->args[1]).as_num();
            const std::string& o = e->sval;
            bool r = o == "<"    ? a < b
                     : o == "<=" ? a <= b
                     : o == ">"  ? a > b
                     : o == ">=" ? a >= b
                     : o == "==" ? a == b
                                 : a != b;
            return Val::of_int(r);
        }
        case ExprKind::Binary: {
            Val a = scal(e->args[0]), b = scal(e->args[1]);
            const std::string& o = e->sval;
            if (a.k == Val::Float || b.k == Val::Float || o == "/") {
                double x = a.as_num(), y = b.as_num();
                if (o == "+") return Val::of_float(x + y);
                if (o == "-") return Val::of_float(x - y);
                if (o == "*") return Val::of_float(x * y);
                if (o == "/") return Val::of_float(y == 0 ? 0 : x / y);
                if (o == "//") return Val::of_float(y == 0 ? 0 : std::floor(x / y));
                if (o == "%") return Val::of_float(y == 0 ? 0 : x - std::floor(x / y) * y);
                if (o == "**") return Val::of_float(std::pow(x, y));
                return Val::of_float(0);
            }
            int64_t x = a.i, y = b.i;
            if (o == "+") return Val::of_int(x + y);
            if (o == "-") return Val::of_int(x - y);
            if (o == "*") return Val::of_int(x * y);
            if (o == "//") return Val::of_int(floordiv(x, y));
            if (o == "%") return Val::of_int(y == 0 ? 0 : x - floordiv(x, y) * y);
            if (o == "<<") return Val::of_int(x << y);
            if (o == ">>") return Val::of_int(x >> y);
            if (o == "&") return Val::of_int(x & y);
            if (o == "|") return Val::of_int(x | y);
            if (o == "^") return Val::of_int(x ^ y);
            if (o == "**") {
                int64_t r = 1;
                for (int64_t k = 0; k < y; ++k) r *= x;
                return Val::of_int(r);
            }
            return Val::of_int(0);
        }
        case ExprKind::Call:
            return call(*e);
        default:
            return Val::of_int(0);
    }
}

}  // namespace cvsim::oracle::detail
