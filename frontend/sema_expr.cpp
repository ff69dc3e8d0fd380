// Sema, expressions: names, constants, operators and subscripts (calls: sema_calls.cpp).
#include "frontend/sema.h"

#include <fmt/format.h>

#include <algorithm>
#include <variant>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/sema_lower.h"

namespace cvsim::sema {

using namespace ir;

int FunctionLowering::region_split() const {
    if (!m_region) return -1;
    return m_region->split_mode == SplitMode::NONE ? 0 : m_region->split_mode == SplitMode::UP_DOWN ? 1 : 2;
}

namespace {

// The memory an op's tile operand must live in (the input constraints PyPTO's InferTileMemorySpace enforces).
std::optional<Mem> required_mem(OpCode c, const std::string& param) {
    using O = OpCode;
    if (is_matmul(c)) {
        if (param == "lhs") return Mem::Left;
        if (param == "rhs") return Mem::Right;
        if (param == "acc") return Mem::Acc;
        if (param == "bias") return Mem::Bias;
        return std::nullopt;
    }
    if ((c >= O::Add && c <= O::Minimum) || (c >= O::Adds && c <= O::Divs))
        return param == "lhs" || param == "rhs" ? std::optional(Mem::Vec) : std::nullopt;
    if ((c >= O::Exp && c <= O::Relu) || c == O::RowSum || c == O::RowMax)
        return param == "tile" ? std::optional(Mem::Vec) : std::nullopt;
    if (c == O::RowExpandMul || c == O::RowExpandAdd || c == O::RowExpandSub) return std::optional(Mem::Vec);
    return std::nullopt;
}

// The moves tile.move can make (as its type rule in ops_types.cpp).
bool move_legal(Mem from, Mem to) {
    switch (from) {
        case Mem::Mat:
            return to == Mem::Left || to == Mem::Right || to == Mem::Bias || to == Mem::Vec;
        case Mem::Acc:
            return to == Mem::Mat || to == Mem::Vec;
        case Mem::Vec:
            return to == Mem::Mat || to == Mem::Left || to == Mem::Right || to == Mem::Bias;
        default:
            return false;
    }
}

}  // namespace

void FunctionLowering::insert_memory_moves(Expr& call) {
    // A hand-written program may give an op a tile in another memory (pl.matmul of two Mat tiles, pl.exp of an
    // Acc tile): PyPTO's InferTileMemorySpace inserts `x_Left = pl.tile.move(x, target_memory=Left)` before the
    // op, and so does cvsim (one move per use; docs/DECISIONS.md). A move the hardware cannot make stays an E-TYPE.
    for (size_t i = 0; i < call.args.size() && i < call.op->params.size(); ++i) {
        ExprPtr& a = call.args[i];
        if (!a || a->type.kind != TypeKind::Tile || a->kind != ExprKind::Var) continue;
        auto want = required_mem(call.op->code, call.op->params[i].name);
        if (!want || a->type.mem == *want || !move_legal(a->type.mem, *want)) continue;
        ExprPtr mv =
            passes::make_call(OpCode::Move, {{"tile", a}, {"target_memory", passes::mem_lit(*want, a->loc)}}, a->loc);
        VarPtr v = m_fn.new_var(m_fn.fresh_name(a->var->name + "_" + std::string(mem_name(*want))), mv->type, a->loc);
        m_vars[v->name] = v;
        emit(passes::make_assign(v, mv, a->loc));
        a = passes::var_ref(v, a->loc);
    }
}

ExprPtr FunctionLowering::hoist(ExprPtr call) {
    // Give a nested op call its own statement and refer to its result by name.
    std::string base = "_" + (call->op ? call->op->short_name : call->sval.substr(call->sval.rfind('.') + 1));
    VarPtr v = m_fn.new_var(m_fn.fresh_name(base), call->type, call->loc);
    m_vars[v->name] = v;
    auto st = std::make_shared<Stmt>();
    st->kind = StmtKind::Assign;
    st->loc = call->loc;
    st->value = call;
    st->targets.push_back(v);
    emit(st);
    auto ref = std::make_shared<Expr>();
    ref->kind = ExprKind::Var;
    ref->loc = call->loc;
    ref->var = v;
    ref->type = v->type;
    return ref;
}

ExprPtr FunctionLowering::lower_expr(const ast::Expr& e, bool top, const Type* ann) {
    if (auto c = fold_const(m_ctx.consts, e, &m_vars)) return const_to_expr(*c, e.loc);
    switch (e.kind) {
        case ast::ExprKind::Name: {
            auto it = m_vars.find(e.name);
            if (it != m_vars.end()) {
                auto r = std::make_shared<Expr>();
                r->kind = ExprKind::Var;
                r->loc = e.loc;
                r->var = it->second;
                r->type = it->second->type;
                return r;
            }
            if (m_vars.count(tuple_part_name(e.name, 0)))
                raise(codes::kType, e.loc,
                      fmt::format(
                          "'{}' is the pair of tiles pl.tile.gather_compare returns; cvsim reads it by index only",
                          e.name),
                      fmt::format("{0}[0] is dst (the indices), {0}[1] is cdst (the counts)", e.name),
                      static_cast<uint32_t>(e.name.size()));
            if (m_ctx.consts.dynamic.count(e.name))
                raise(codes::kUnsupported, e.loc, fmt::format("dynamic dimension '{}' is not bound", e.name),
                      fmt::format("bind it with --dim {}=VALUE", e.name), static_cast<uint32_t>(e.name.size()));
            raise(codes::kName, e.loc, fmt::format("name '{}' is not defined", e.name), suggest_name(e.name),
                  static_cast<uint32_t>(e.name.size()));
        }
        case ast::ExprKind::Attribute: {
            if (auto en = lower_enum_ref(e)) return en;
            std::string d = e.dotted();
            if (d.rfind("pl.", 0) == 0)
                raise(codes::kUnsupported, e.loc, fmt::format("'{}' is not part of the supported DSL", d));
            raise(codes::kUnsupported, e.loc, "attribute access is only supported on pl (pl.Mem.Vec, pl.FP16, ...)");
        }
        case ast::ExprKind::Call: {
            ExprPtr c = lower_call(e, ann);
            bool is_op = c->kind == ExprKind::Call || c->kind == ExprKind::FuncCall;
            if (is_op && !top && c->type.kind != TypeKind::None) return hoist(c);
            if (is_op && !top) raise(codes::kType, e.loc, "this call returns nothing; it cannot be used as a value");
            return c;
        }
        case ast::ExprKind::List:
        case ast::ExprKind::Tuple: {
            auto r = std::make_shared<Expr>();
            r->kind = e.kind == ast::ExprKind::List ? ExprKind::List : ExprKind::Tuple;
            r->loc = e.loc;
            std::vector<Type> ts;
            for (auto& a : e.args) {
                r->args.push_back(lower_expr(*a, false, nullptr));
                ts.push_back(r->args.back()->type);
            }
            r->type = Type::tuple(ts);
            return r;
        }
        case ast::ExprKind::BinOp:
        case ast::ExprKind::Compare:
        case ast::ExprKind::BoolOp: {
            ExprPtr l = lower_expr(*e.children[0], false, nullptr);
            ExprPtr rr = lower_expr(*e.children[1], false, nullptr);
            for (auto* x : {&l, &rr})
                if ((*x)->type.kind != TypeKind::Scalar)
                    raise(codes::kType, (*x)->loc,
                          fmt::format("operator '{}' needs scalar operands, got {}", e.op, type_str((*x)->type)),
                          (*x)->type.kind == TypeKind::Tile ? "use the tile ops (pl.add, pl.mul, ...) for tiles" : "");
            auto r = std::make_shared<Expr>();
            r->kind = e.kind == ast::ExprKind::BinOp     ? ExprKind::Binary
                      : e.kind == ast::ExprKind::Compare ? ExprKind::Compare
                                                         : ExprKind::BoolOp;
            r->loc = e.loc;
            r->sval = e.op;
            r->args = {l, rr};
            if (r->kind == ExprKind::Binary) {
                if (e.op == "**" || e.op == "&" || e.op == "|" || e.op == "^" || e.op == "@")
                    raise(codes::kUnsupported, e.loc,
                          fmt::format("operator '{}' is only supported when it folds to a constant", e.op));
                bool fl = dtype_is_float(l->type.dtype) || dtype_is_float(rr->type.dtype) || e.op == "/";
                r->type = Type::scalar(fl ? DType::FP32
                                          : (l->type.dtype == DType::INDEX || rr->type.dtype == DType::INDEX
                                                 ? DType::INDEX
                                                 : l->type.dtype));
            } else {
                if (e.op == "is" || e.op == "is not" || e.op == "in" || e.op == "not in")
                    raise(codes::kUnsupported, e.loc, fmt::format("operator '{}' is not supported", e.op));
                r->type = Type::scalar(DType::BOOL);
            }
            return r;
        }
        case ast::ExprKind::UnaryOp: {
            ExprPtr x = lower_expr(*e.children[0], false, nullptr);
            if (x->type.kind != TypeKind::Scalar)
                raise(codes::kType, x->loc, fmt::format("operator '{}' needs a scalar operand", e.op));
            auto r = std::make_shared<Expr>();
            r->kind = ExprKind::Unary;
            r->loc = e.loc;
            r->sval = e.op;
            r->args = {x};
            r->type = e.op == "not" ? Type::scalar(DType::BOOL) : x->type;
            if (e.op == "~")
                raise(codes::kUnsupported, e.loc, "operator '~' is only supported when it folds to a constant");
            return r;
        }
        case ast::ExprKind::Subscript:
            return lower_subscript(e);
        case ast::ExprKind::Dict:
            raise(codes::kUnsupported, e.loc, "a dict literal is only allowed as attrs={...}");
        case ast::ExprKind::Slice:
            raise(codes::kParse, e.loc, "a slice is only allowed inside a subscript");
        case ast::ExprKind::Ellipsis:
            raise(codes::kUnsupported, e.loc, "'...' is not supported here");
        default:
            break;
    }
    raise(codes::kUnsupported, e.loc, "this expression is not supported here");
}

std::string FunctionLowering::suggest_name(const std::string& n) const {
    std::string best;
    size_t best_d = 3;
    auto consider = [&](const std::string& cand) {
        size_t d = edit_distance(n, cand);
        if (d < best_d) {
            best_d = d;
            best = cand;
        }
    };
    for (auto& [k, v] : m_vars) consider(k);
    for (auto& [k, v] : m_ctx.consts.values) consider(k);
    return best.empty() ? "" : fmt::format("did you mean '{}'?", best);
}

size_t FunctionLowering::tuple_index(const ast::Expr& index, size_t size) {
    auto idx = fold_const(m_ctx.consts, index, &m_vars);
    if (!idx || !std::holds_alternative<int64_t>(idx->v))
        raise(codes::kType, index.loc, "a tuple index must be a constant integer");
    int64_t i = std::get<int64_t>(idx->v);
    if (i < 0) i += static_cast<int64_t>(size);
    if (i < 0 || i >= static_cast<int64_t>(size))
        raise(codes::kType, index.loc, fmt::format("tuple index {} out of range (size {})", i, size));
    return static_cast<size_t>(i);
}

ExprPtr FunctionLowering::lower_subscript(const ast::Expr& e) {
    // t[0] / t[1] of a `t = pl.tile.gather_compare(...)` binding: its hidden element variables.
    if (const ast::Expr& b = *e.children[0]; b.kind == ast::ExprKind::Name && !m_vars.count(b.name) &&
                                             m_vars.count(tuple_part_name(b.name, 0)) && e.args.size() == 1) {
        const VarPtr& v = m_vars.at(tuple_part_name(b.name, tuple_index(*e.args[0], 2)));
        auto r = std::make_shared<Expr>();
        r->kind = ExprKind::Var;
        r->loc = e.loc;
        r->var = v;
        r->type = v->type;
        return r;
    }
    ExprPtr base = lower_expr(*e.children[0], false, nullptr);
    if (base->type.kind == TypeKind::Tuple && e.args.size() == 1) {
        const size_t i = tuple_index(*e.args[0], base->type.elems.size());
        auto r = std::make_shared<Expr>();
        r->kind = ExprKind::Index;
        r->loc = e.loc;
        r->ival = i;
        r->args = {base};
        r->type = base->type.elems[i];
        return r;
    }
    if (base->type.kind == TypeKind::Tile || base->type.kind == TypeKind::Tensor) {
        // x[a:b, c:d] -> pl.tile.slice(x, shape, offset)
        const auto& shape = base->type.shape;
        if (e.args.size() != shape.size())
            raise(codes::kType, e.loc,
                  fmt::format("subscript has {} indices, the value has rank {}", e.args.size(), shape.size()));
        auto off = std::make_shared<Expr>();
        off->kind = ExprKind::List;
        off->loc = e.loc;
        std::vector<int64_t> ext;
        for (size_t d = 0; d < shape.size(); ++d) {
            const ast::Expr& ix = *e.args[d];
            int64_t lo = 0, hi = shape[d];
            if (ix.kind == ast::ExprKind::Slice) {
                auto get = [&](const ast::ExprPtr& p, int64_t dflt) {
                    if (!p) return dflt;
                    auto c = fold_const(m_ctx.consts, *p, &m_vars);
                    if (!c || !std::holds_alternative<int64_t>(c->v))
                        raise(codes::kUnsupported, p->loc, "slice bounds must be constant integers");
                    return std::get<int64_t>(c->v);
                };
                lo = get(ix.children[0], 0);
                hi = get(ix.children[1], shape[d]);
            } else {
                auto c = fold_const(m_ctx.consts, ix, &m_vars);
                if (!c || !std::holds_alternative<int64_t>(c->v))
                    raise(codes::kUnsupported, ix.loc, "indices must be constant integers or slices");
                lo = std::get<int64_t>(c->v);
                hi = lo + 1;
            }
            if (lo < 0 || hi > shape[d] || lo >= hi)
                raise(codes::kOob, ix.loc,
                      fmt::format("slice {}:{} is outside dimension {} of size {}", lo, hi, d, shape[d]));
            off->args.push_back(make_int(lo, ix.loc));
            ext.push_back(hi - lo);
        }
        auto shp = std::make_shared<Expr>();
        shp->kind = ExprKind::List;
        shp->loc = e.loc;
        for (auto x : ext) shp->args.push_back(make_int(x, e.loc));
        auto call = std::make_shared<Expr>();
        call->loc = e.loc;
        if (base->type.kind == TypeKind::Tensor && runs_host_ops()) {
            // An orchestration's x[a:b, c:d] is pl.tensor.slice(x, shape, offset), the host op the launch planner
            // and the alias analysis read (a kernel's tile.slice there named a temporary no launch could bind).
            call->kind = ExprKind::FuncCall;
            call->sval = "pl.tensor.slice";
            call->args = {base, shp, off};
            call->type = Type::tensor(ext, base->type.dtype);
            return hoist(call);
        }
        call->kind = ExprKind::Call;
        call->op = &op_def(OpCode::Slice);
        call->args = {base, shp, off, nullptr};
        call->type = infer_call_type(*call);
        return hoist(call);
    }
    raise(codes::kType, e.loc, fmt::format("{} cannot be subscripted", type_str(base->type)));
}

}  // namespace cvsim::sema
