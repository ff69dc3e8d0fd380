// Sema helpers: constant folding with Python semantics (//, %, /, **, shifts, bit ops, comparisons), module
// constants, and constants as IR literals.
#include "frontend/sema_types.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim {

using namespace ir;

bool const_is_int(const ConstValue& c) {
    return std::holds_alternative<int64_t>(c.v) || std::holds_alternative<bool>(c.v);
}
int64_t const_as_int(const ConstValue& c) {
    if (auto* b = std::get_if<bool>(&c.v)) return *b ? 1 : 0;
    return std::get<int64_t>(c.v);
}

namespace {

int64_t py_floordiv(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}

int64_t py_mod(int64_t a, int64_t b) {
    int64_t m = a % b;
    if (m != 0 && ((m < 0) != (b < 0))) m += b;
    return m;
}

bool is_num(const ConstValue& c) {
    return !std::holds_alternative<std::string>(c.v);
}
bool truthy(const ConstValue& c) {
    if (auto* s = std::get_if<std::string>(&c.v)) return !s->empty();
    return const_as_double(c) != 0;
}

[[noreturn]] void const_error(const ast::Expr& e, const std::string& msg) {
    raise(codes::kType, e.loc, msg);
}

// Checked int64 arithmetic: overflow is a user error, never UB.
int64_t checked(const ast::Expr& e, bool overflow, int64_t r) {
    if (overflow) const_error(e, "integer constant overflows 64 bits");
    return r;
}

}  // namespace

double const_as_double(const ConstValue& c) {
    if (auto* i = std::get_if<int64_t>(&c.v)) return static_cast<double>(*i);
    if (auto* d = std::get_if<double>(&c.v)) return *d;
    if (auto* b = std::get_if<bool>(&c.v)) return *b ? 1 : 0;
    return 0;
}

std::optional<ConstValue> fold_const(const ConstTable& consts, const ast::Expr& e,
                                     const std::unordered_map<std::string, VarPtr>* locals, bool index_consts) {
    switch (e.kind) {
        case ast::ExprKind::Call:  // in a dimension, PyPTO prints `n * pl.const(32, pl.INDEX)`
            if (index_consts && e.children[0]->dotted() == "pl.const" && e.args.size() == 2 && e.keywords.empty() &&
                e.args[0]->kind == ast::ExprKind::Int && e.args[1]->dotted() == "pl.INDEX")
                return ConstValue{e.args[0]->int_value};
            return std::nullopt;
        case ast::ExprKind::Int:
            return ConstValue{e.int_value};
        case ast::ExprKind::Float:
            return ConstValue{e.float_value};
        case ast::ExprKind::Bool:
            return ConstValue{e.bool_value};
        case ast::ExprKind::Str:
            return ConstValue{e.str_value};
        case ast::ExprKind::Name: {
            if (locals && locals->count(e.name)) return std::nullopt;
            auto it = consts.values.find(e.name);
            if (it == consts.values.end()) {
                // PyPTO's printer writes non-finite float constants as bare `inf` / `nan` (e.g. pl.const(-inf,
                // pl.FP32)).
                if (e.name == "inf") return ConstValue{std::numeric_limits<double>::infinity()};
                if (e.name == "nan") return ConstValue{std::numeric_limits<double>::quiet_NaN()};
                return std::nullopt;
            }
            return it->second;
        }
        case ast::ExprKind::UnaryOp: {
            auto x = fold_const(consts, *e.children[0], locals, index_consts);
            if (!x) return std::nullopt;
            if (e.op == "not") return ConstValue{!truthy(*x)};
            if (!is_num(*x)) const_error(e, fmt::format("bad operand for unary '{}'", e.op));
            if (e.op == "+") return const_is_int(*x) ? ConstValue{const_as_int(*x)} : *x;
            if (e.op == "-") {
                if (const_is_int(*x)) {
                    int64_t v = const_as_int(*x);
                    return ConstValue{checked(e, v == INT64_MIN, -v)};
                }
                return ConstValue{-std::get<double>(x->v)};
            }
            if (e.op == "~") {
                if (!const_is_int(*x)) const_error(e, "bad operand for unary '~'");
                return ConstValue{~const_as_int(*x)};
            }
            return std::nullopt;
        }
        case ast::ExprKind::BinOp: {
            auto a = fold_const(consts, *e.children[0], locals, index_consts);
            if (!a) return std::nullopt;
            auto b = fold_const(consts, *e.children[1], locals, index_consts);
            if (!b) return std::nullopt;
            if (!is_num(*a) || !is_num(*b)) {
                if (e.op == "+" && !is_num(*a) && !is_num(*b))
                    return ConstValue{std::get<std::string>(a->v) + std::get<std::string>(b->v)};
                const_error(e, fmt::format("unsupported operand types for '{}'", e.op));
            }
            if (const_is_int(*a) && const_is_int(*b)) {
                int64_t x = const_as_int(*a), y = const_as_int(*b), r = 0;
                const std::string& op = e.op;
                if (op == "+" || op == "-" || op == "*") {
                    bool ovf = op == "+"   ? __builtin_add_overflow(x, y, &r)
                               : op == "-" ? __builtin_sub_overflow(x, y, &r)
                                           : __builtin_mul_overflow(x, y, &r);
                    return ConstValue{checked(e, ovf, r)};
                }
                if (op == "//" || op == "%") {
                    if (y == 0) const_error(e, "integer division by zero in a constant");
                    if (x == INT64_MIN && y == -1) const_error(e, "integer constant overflows 64 bits");
                    return ConstValue{op == "//" ? py_floordiv(x, y) : py_mod(x, y)};
                }
                if (op == "/") {
                    if (y == 0) const_error(e, "division by zero in a constant");
                    return ConstValue{static_cast<double>(x) / static_cast<double>(y)};
                }
                if (op == "**") {
                    if (y < 0) return ConstValue{std::pow(static_cast<double>(x), static_cast<double>(y))};
                    int64_t acc = 1;
                    for (int64_t i = 0; i < y; ++i) {
                        if (__builtin_mul_overflow(acc, x, &acc)) const_error(e, "integer constant overflows 64 bits");
                        if (acc == 0 || acc == 1) break;
                    }
                    return ConstValue{acc};
                }
                if (op == "<<" || op == ">>") {
                    if (y < 0 || y > 62) const_error(e, "shift count out of range in a constant");
                    if (op == ">>") return ConstValue{x >> y};
                    if (x != 0 && (x > (INT64_MAX >> y) || x < (INT64_MIN >> y)))
                        const_error(e, "integer constant overflows 64 bits");
                    return ConstValue{static_cast<int64_t>(static_cast<uint64_t>(x) << y)};
                }
                if (op == "&") return ConstValue{x & y};
                if (op == "|") return ConstValue{x | y};
                if (op == "^") return ConstValue{x ^ y};
                const_error(e, fmt::format("operator '{}' is not supported on constants", op));
            }
            double x = const_as_double(*a), y = const_as_double(*b);
            const std::string& op = e.op;
            if (op == "+") return ConstValue{x + y};
            if (op == "-") return ConstValue{x - y};
            if (op == "*") return ConstValue{x * y};
            if (op == "/" || op == "//" || op == "%") {
                if (y == 0) const_error(e, "float division by zero in a constant");
                if (op == "/") return ConstValue{x / y};
                if (op == "//") return ConstValue{std::floor(x / y)};
                double m = std::fmod(x, y);
                if (m != 0 && ((m < 0) != (y < 0))) m += y;
                return ConstValue{m};
            }
            if (op == "**") return ConstValue{std::pow(x, y)};
            const_error(e, fmt::format("operator '{}' needs integer constants", op));
        }
        case ast::ExprKind::Compare: {
            auto a = fold_const(consts, *e.children[0], locals, index_consts);
            auto b = a ? fold_const(consts, *e.children[1], locals, index_consts) : std::nullopt;
            if (!a || !b || !is_num(*a) || !is_num(*b)) return std::nullopt;
            double x = const_as_double(*a), y = const_as_double(*b);
            const std::string& op = e.op;
            if (op == "<") return ConstValue{x < y};
            if (op == "<=") return ConstValue{x <= y};
            if (op == ">") return ConstValue{x > y};
            if (op == ">=") return ConstValue{x >= y};
            if (op == "==") return ConstValue{x == y};
            if (op == "!=") return ConstValue{x != y};
            return std::nullopt;
        }
        case ast::ExprKind::BoolOp: {
            auto a = fold_const(consts, *e.children[0], locals, index_consts);
            auto b = a ? fold_const(consts, *e.children[1], locals, index_consts) : std::nullopt;
            if (!a || !b) return std::nullopt;
            if (e.op == "and") return truthy(*a) ? *b : *a;
            return truthy(*a) ? *a : *b;
        }
        default:
            return std::nullopt;
    }
}

ExprPtr make_int(int64_t v, const SourceLoc& loc) {
    auto r = std::make_shared<Expr>();
    r->kind = ExprKind::Int;
    r->loc = loc;
    r->ival = v;
    r->type = Type::scalar(DType::INDEX);
    return r;
}

ExprPtr const_to_expr(const ConstValue& c, const SourceLoc& loc) {
    auto r = std::make_shared<Expr>();
    r->loc = loc;
    if (auto* i = std::get_if<int64_t>(&c.v)) return make_int(*i, loc);
    if (auto* d = std::get_if<double>(&c.v)) {
        r->kind = ExprKind::Float;
        r->fval = *d;
        r->type = Type::scalar(DType::FP32);
    } else if (auto* b = std::get_if<bool>(&c.v)) {
        r->kind = ExprKind::Bool;
        r->ival = *b;
        r->type = Type::scalar(DType::BOOL);
    } else {
        r->kind = ExprKind::Str;
        r->sval = std::get<std::string>(c.v);
        r->type = Type::none();
    }
    return r;
}

void define_constant(ConstTable& consts, const ast::Stmt& s) {
    if (s.targets.size() != 1 || s.targets[0]->kind != ast::ExprKind::Name)
        raise(codes::kUnsupported, s.loc, "a module-level assignment must bind one name to a constant");
    const std::string& name = s.targets[0]->name;
    const ast::Expr& v = *s.value;
    if (v.kind == ast::ExprKind::Call && v.children[0]->dotted() == "pl.dynamic") {
        if (v.args.size() != 1 || v.args[0]->kind != ast::ExprKind::Str)
            raise(codes::kType, v.loc, "pl.dynamic takes the symbol name as a string");
        for (const std::string& key : {name, v.args[0]->str_value}) {
            auto b = consts.bound.find(key);
            if (b == consts.bound.end()) continue;
            consts.bound_used.insert(key);
            consts.values[name] = ConstValue{b->second};  // bound with --dim: a constant from here on
            consts.dynamic.erase(name);
            return;
        }
        if (consts.dim_default) {  // the program's own shapes, else the documented default (bind_implicit_dims)
            consts.values.erase(name);
            consts.dynamic.erase(name);
            consts.pending_dynamic.insert(name);
            return;
        }
        consts.dynamic.insert(name);
        consts.values.erase(name);
        return;
    }
    auto c = fold_const(consts, v);
    if (!c && !consts.pending_dynamic.empty()) {
        // A module constant over a pending pl.dynamic symbol (`M = N * 2`): the symbol takes its default now.
        std::function<void(const ast::Expr&)> settle = [&](const ast::Expr& x) {
            if (x.kind == ast::ExprKind::Name && consts.pending_dynamic.erase(x.name)) {
                consts.values[x.name] = ConstValue{*consts.dim_default};
                consts.defaulted.push_back(x.name);
            }
            for (auto& ch : x.children)
                if (ch) settle(*ch);
            for (auto& a : x.args)
                if (a) settle(*a);
        };
        settle(v);
        c = fold_const(consts, v);
    }
    if (!c) {
        if (v.kind == ast::ExprKind::Name) raise(codes::kName, v.loc, fmt::format("name '{}' is not defined", v.name));
        raise(codes::kUnsupported, v.loc, fmt::format("module constant '{}' must be a constant expression", name));
    }
    consts.values[name] = *c;
    consts.dynamic.erase(name);
}

}  // namespace cvsim
