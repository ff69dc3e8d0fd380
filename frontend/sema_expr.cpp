// Sema, expressions: names, constants, operators, subscripts, op calls and calls between functions.
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

ExprPtr FunctionLowering::lower_call(const ast::Expr& e, const Type* ann) {
    const ast::Expr& callee = *e.children[0];
    std::string name = callee.dotted();
    if (callee.kind == ast::ExprKind::Attribute && callee.children[0]->kind == ast::ExprKind::Name &&
        callee.children[0]->name == "self")
        return lower_func_call(e, callee.name);
    if (name == "pl.const") return lower_typed_const(e);
    if (ExprPtr sc = lower_scalar_func(e, name)) return sc;
    if (name == "pl.yield_")
        raise(codes::kParse, e.loc, "pl.yield_ must be a statement of its own at the end of a loop or branch body");
    if (name == "pl.range" || name == "pl.parallel" || name == "pl.unroll" || name == "pl.split_aiv" ||
        name == "pl.spmd" || name == "pl.pipeline")
        raise(codes::kParse, e.loc, fmt::format("{} is only allowed as the iterable of a for loop", name));
    if (name == "pl.func_attr") raise(codes::kParse, e.loc, "pl.func_attr must be the first statement of a function");
    if (ExprPtr host = lower_host_op(e, name, ann)) return host;
    if (name.rfind("pl.", 0) != 0) {
        if (name.empty()) raise(codes::kUnsupported, e.loc, "calling this expression is not supported");
        raise(codes::kUnsupported, e.loc,
              fmt::format("call of '{}' is not supported (only pl ops and self.<function>)", name), "",
              static_cast<uint32_t>(name.size()));
    }
    if (name == "pl.tile.gather_row") return lower_gather_row(e);
    if (name == "pl.tile.gather_compare")
        raise(codes::kType, e.loc,
              "pl.tile.gather_compare returns two tiles (dst, cdst); it cannot be used as one value",
              "unpack it (dst, cdst = pl.tile.gather_compare(...)) or bind it to a name and index it (t = ...; dst = "
              "t[0]; cdst = t[1])",
              static_cast<uint32_t>(name.size()));
    (void)ann;
    auto cands = lookup_ops(name.substr(3));
    if (cands.empty()) {
        if (name.rfind("pl.tensor.", 0) == 0 || name.rfind("pl.array.", 0) == 0)
            raise(codes::kUnsupported, callee.loc,
                  fmt::format("{} op '{}' is not modelled by cvsim yet",
                              name.rfind("pl.tensor.", 0) == 0 ? "orchestration tensor" : "array", name),
                  "see OPS.md for the ops cvsim simulates", static_cast<uint32_t>(name.size()));
        if (const UnsupportedOp* u = find_unsupported(name.substr(3)))
            raise(codes::kUnsupported, callee.loc,
                  fmt::format("pl.{} is not supported by cvsim: {}", u->name, u->reason),
                  "docs/OPS_TABLE.md lists the supported ops", static_cast<uint32_t>(name.size()));
        raise(codes::kUnsupported, callee.loc, fmt::format("unknown op '{}'", name), "see OPS.md for the supported ops",
              static_cast<uint32_t>(name.size()));
    }
    return lower_op_call(e, name, cands);
}

ExprPtr FunctionLowering::lower_op_call(const ast::Expr& e, const std::string& name,
                                        const std::vector<const ir::OpDef*>& cands) {
    // Lower positional args first (needed for unified dispatch).
    std::vector<ExprPtr> pos;
    for (auto& a : e.args) pos.push_back(lower_expr(*a, false, nullptr));
    const OpDef* op = cands[0];
    if (cands.size() > 1) {
        // Unified ops: the tile-tile form when the second operand is a tile, else the tile-scalar form.
        bool rhs_tile = pos.size() > 1 && pos[1]->type.kind == TypeKind::Tile;
        for (auto* c : cands) {
            bool c_scalar = c->params.size() > 1 && c->params[1].value;  // the tile-scalar form
            if (c_scalar != rhs_tile) {
                op = c;
                break;
            }
        }
    }
    auto call = std::make_shared<Expr>();
    call->kind = ExprKind::Call;
    call->loc = e.loc;
    call->op = op;
    call->args.assign(op->params.size(), nullptr);
    if (pos.size() > op->params.size())
        raise(codes::kType, e.args[op->params.size()]->loc,
              fmt::format("pl.{}() takes {} argument(s), got {}", op->name(), op->params.size(), pos.size()));
    for (size_t i = 0; i < pos.size(); ++i) call->args[i] = pos[i];
    for (auto& kw : e.keywords) {
        if (kw.name == "attrs" && kw.value->kind == ast::ExprKind::Dict) {
            call->attrs = lower_dict(*kw.value);
            continue;
        }
        size_t idx = op->params.size();
        for (size_t i = 0; i < op->params.size(); ++i)
            if (op->params[i].name == kw.name) idx = i;
        if (idx == op->params.size()) {
            std::string valid, best;
            size_t best_d = 4;
            for (auto& p : op->params) {
                valid += (valid.empty() ? "" : ", ") + p.name;
                if (size_t d = edit_distance(kw.name, p.name); d < best_d) best_d = d, best = p.name;
            }
            std::string hint = valid.empty() ? "it takes no arguments" : "its parameters are: " + valid;
            // A near miss of a parameter is a typo (E-TYPE); any other keyword is one PyPTO's op has and cvsim's
            // catalogue does not model (atomic=, clamp=, ...): ignoring it could change the result, so refuse it.
            if (best.empty())
                raise(codes::kUnsupported, kw.loc,
                      fmt::format("pl.{}(): keyword argument '{}' is not modelled by cvsim", op->name(), kw.name), hint,
                      static_cast<uint32_t>(kw.name.size()));
            hint = "did you mean '" + best + "'? " + hint;
            raise(codes::kType, kw.loc,
                  fmt::format("pl.{}() got an unexpected keyword argument '{}'", op->name(), kw.name), hint,
                  static_cast<uint32_t>(kw.name.size()));
        }
        if (call->args[idx])
            raise(codes::kType, kw.loc,
                  fmt::format("pl.{}() got multiple values for argument '{}'", op->name(), kw.name));
        call->args[idx] = lower_expr(*kw.value, false, nullptr);
    }
    // A compute op on GM tensors is tensor-level code (pl.add(tensor, 1.0) in a kernel source): PyPTO lowers it
    // to tile ops before ExpandMixedKernel, cvsim does not.
    if (is_tile_compute(op->code) || is_matmul(op->code))
        for (const auto& a : call->args)
            if (a && a->type.kind == TypeKind::Tensor)
                raise(codes::kUnsupported, a->loc,
                      fmt::format("tensor-level op: {}() on the tensor {} is lowered to tile ops by PyPTO's "
                                  "ConvertTensorToTileOps pass, which cvsim does not re-implement",
                                  name, type_str(a->type)),
                      "give cvsim the program PyPTO prints at the ExpandMixedKernel boundary, or load the tensor into "
                      "a tile first");
    // A tile of rank above 2 is the merged 2-D tile of a reshape: only another reshape reads it the same way
    // (an op with axes, a reduction or a window would see the merged shape, not the written one).
    for (const auto& a : call->args)
        if (a && a->type.kind == TypeKind::Tile && !a->type.nd_shape.empty() && op->code != OpCode::Reshape)
            raise(codes::kUnsupported, a->loc,
                  fmt::format("pl.{} of the rank-{} tile {}: cvsim holds a tile of rank above 2 as its merged 2-D rows "
                              "and lets only "
                              "pl.tile.reshape read it",
                              op->name(), a->type.nd_shape.size(), shape_str(a->type.nd_shape)),
                  "reshape it to 2-D first (PyPTO's FlattenTileNdTo2D does)");
    insert_memory_moves(*call);
    lower_load_clamp(*call);
    call->type = infer_call_type(*call, region_split());
    if (op->code == OpCode::ImportPeerBuffer) {
        const ExprPtr& peer = arg(*call, "peer_func");
        if (!m_ctx.by_name.count(peer->sval))
            raise(codes::kName, peer->loc,
                  fmt::format("pl.system.import_peer_buffer: the program has no function '{}'", peer->sval),
                  "peer_func names the function that reserves the buffer");
    }
    return call;
}

ExprPtr FunctionLowering::lower_scalar_func(const ast::Expr& e, const std::string& name) {
    // Scalar functions of the printed IR: pl.min/pl.max (and Python's min/max/abs) of scalars, pl.cast(x, pl.DT)
    // of a scalar. Their tile forms (pl.cast(tile, ...), pl.minimum) are ops and are left to the op table.
    bool minmax = name == "pl.min" || name == "pl.max" || name == "min" || name == "max" || name == "pl.tile.min" ||
                  name == "pl.tile.max";
    bool cast = name == "pl.cast";
    bool absf = name == "abs";
    if (!minmax && !cast && !absf) return nullptr;
    if (cast) {
        // Decide without lowering (lowering hoists nested calls): the tile op when the operand is not a scalar.
        if (e.args.size() != 2 || !e.keywords.empty()) return nullptr;
        const ast::Expr& x = *e.args[0];
        bool scalar = x.kind == ast::ExprKind::Int || x.kind == ast::ExprKind::Float ||
                      x.kind == ast::ExprKind::BinOp || x.kind == ast::ExprKind::UnaryOp ||
                      x.kind == ast::ExprKind::Bool || x.kind == ast::ExprKind::Compare ||
                      x.kind == ast::ExprKind::BoolOp;
        if (x.kind == ast::ExprKind::Name) {
            auto it = m_vars.find(x.name);
            scalar =
                it != m_vars.end() ? it->second->type.kind == TypeKind::Scalar : m_ctx.consts.values.count(x.name) > 0;
        }
        if (x.kind == ast::ExprKind::Call) {
            std::string n = x.children[0]->dotted();
            scalar = n == "pl.const" || n == "pl.min" || n == "pl.max" || n == "pl.cast" || n == "min" || n == "max" ||
                     n == "abs" || n == "pl.tile.min" || n == "pl.tile.max" ||
                     // element reads and dimensions are scalars (a submit's predicate= casts pl.tensor.read; hunt8b)
                     n == "pl.tensor.read" || n == "pl.tile.read" || n == "pl.read" || n == "pl.tensor.dim" ||
                     n == "pl.array.get_element";
        }
        if (!scalar) return nullptr;  // the tile op pl.cast
    }
    std::vector<ExprPtr> a;
    for (auto& x : e.args) a.push_back(lower_expr(*x, false, nullptr));
    if (!e.keywords.empty())
        raise(codes::kType, e.keywords[0].loc, fmt::format("{}() takes no keyword arguments", name));
    auto r = std::make_shared<Expr>();
    r->loc = e.loc;
    if (cast) {
        if (a.size() != 2) raise(codes::kType, e.loc, "pl.cast of a scalar takes (value, dtype)");
        ExprPtr d = lower_enum_ref(*e.args[1]);
        if (!d || d->kind != ExprKind::DTypeLit)
            raise(codes::kType, e.args[1]->loc, "pl.cast needs a dtype (pl.INT32, pl.FP32, ...)");
        r->kind = ExprKind::Unary;
        r->sval = "cast";
        r->dtype = d->dtype;
        r->args = {a[0]};
        r->type = Type::scalar(d->dtype);
        return r;
    }
    size_t want = absf ? 1 : 2;
    if (a.size() != want)
        raise(codes::kType, e.loc, fmt::format("{}() of scalars takes {} argument(s), got {}", name, want, a.size()));
    for (auto& x : a)
        if (x->type.kind != TypeKind::Scalar)
            raise(codes::kType, x->loc, fmt::format("{}() needs scalar operands, got {}", name, type_str(x->type)),
                  minmax ? "for tiles use pl.tile.minimum / pl.tile.maximum" : "");
    if (absf) {
        r->kind = ExprKind::Unary;
        r->sval = "abs";
        r->args = {a[0]};
        r->type = a[0]->type;
        return r;
    }
    r->kind = ExprKind::Binary;
    r->sval = name.substr(name.rfind('.') + 1);  // "min" / "max"
    r->args = {a[0], a[1]};
    bool fl = dtype_is_float(a[0]->type.dtype) || dtype_is_float(a[1]->type.dtype);
    r->type = Type::scalar(
        fl ? DType::FP32
           : (a[0]->type.dtype == DType::INDEX || a[1]->type.dtype == DType::INDEX ? DType::INDEX : a[0]->type.dtype));
    return r;
}

ExprPtr FunctionLowering::lower_dict(const ast::Expr& d) {
    auto r = std::make_shared<Expr>();
    r->kind = ExprKind::Dict;
    r->loc = d.loc;
    for (size_t i = 0; i < d.args.size(); ++i) {
        r->args.push_back(lower_attr_value(m_ctx.consts, *d.args[i]));
        // A run-time scalar at a launch site (attrs={"core_num": cores}, cores computed by the orchestration):
        // an expression over the function's variables, typed like any scalar operand. cvsim records it and
        // prints it back; the launch width stays --blocks (docs/DECISIONS.md, "run-time core_num").
        const ast::Expr& v = *d.values[i];
        bool runtime = !fold_const(m_ctx.consts, v, &m_vars) && !lower_enum_ref(v) &&
                       (v.kind == ast::ExprKind::Name || v.kind == ast::ExprKind::BinOp ||
                        v.kind == ast::ExprKind::UnaryOp || v.kind == ast::ExprKind::Call);
        if (runtime && v.kind == ast::ExprKind::Name && !m_vars.count(v.name)) runtime = false;  // E-NAME below
        // A list of the function's variables (PyPTO's "dump_vars": the tensors the runtime dumps for debugging
        // around a launch, a host-side copy that changes no value): kept and printed back, not interpreted.
        if (v.kind == ast::ExprKind::List && !v.args.empty() &&
            std::all_of(v.args.begin(), v.args.end(), [&](const ast::ExprPtr& x) {
                return x->kind == ast::ExprKind::Name && m_vars.count(x->name);
            })) {
            auto l = std::make_shared<ir::Expr>();
            l->kind = ir::ExprKind::List;
            l->loc = v.loc;
            for (const auto& x : v.args) l->args.push_back(lower_expr(*x, false, nullptr));
            r->args2.push_back(l);
            continue;
        }
        if (runtime) {
            ExprPtr x = lower_expr(v, false, nullptr);
            if (x->type.kind != TypeKind::Scalar)
                raise(codes::kType, v.loc,
                      fmt::format("attribute values must be constants, pl enum members or scalars; got {}",
                                  type_str(x->type)));
            r->args2.push_back(x);
            continue;
        }
        r->args2.push_back(lower_attr_value(m_ctx.consts, v));
    }
    return r;
}

ExprPtr FunctionLowering::lower_typed_const(const ast::Expr& e) {
    if (e.args.size() != 2 || !e.keywords.empty()) raise(codes::kType, e.loc, "pl.const takes (value, dtype)");
    auto v = fold_const(m_ctx.consts, *e.args[0], &m_vars);
    if (!v || std::holds_alternative<std::string>(v->v))
        raise(codes::kType, e.args[0]->loc, "pl.const needs a constant number");
    ExprPtr d = lower_enum_ref(*e.args[1]);
    if (!d || d->kind != ExprKind::DTypeLit)
        raise(codes::kType, e.args[1]->loc, "pl.const needs a dtype (pl.INT32, pl.FP32, ...)");
    auto r = std::make_shared<Expr>();
    r->kind = ExprKind::Const;
    r->loc = e.loc;
    r->dtype = d->dtype;
    r->fval = round_to(d->dtype, const_as_double(*v));
    r->type = Type::scalar(d->dtype);
    return r;
}

ExprPtr FunctionLowering::lower_func_call(const ast::Expr& e, const std::string& fname) {
    auto it = m_ctx.by_name.find(fname);
    if (it == m_ctx.by_name.end())
        raise(codes::kName, e.children[0]->loc, fmt::format("the program has no function '{}'", fname));
    const Function& callee = *it->second;
    // A callee whose signature cvsim could not read: its diagnostic (the caller is then not read either).
    if (callee.unread.signature) throw CompileError(*callee.unread.diag);
    auto r = std::make_shared<Expr>();
    r->kind = ExprKind::FuncCall;
    r->loc = e.loc;
    r->sval = fname;
    r->args.assign(callee.params.size(), nullptr);
    if (e.args.size() > callee.params.size())
        raise(codes::kType, e.loc,
              fmt::format("'{}' takes {} argument(s), got {}", fname, callee.params.size(), e.args.size()));
    for (size_t i = 0; i < e.args.size(); ++i) r->args[i] = lower_expr(*e.args[i], false, nullptr);
    for (auto& kw : e.keywords) {
        if (kw.name == "attrs" && kw.value->kind == ast::ExprKind::Dict) {
            r->attrs = lower_dict(*kw.value);
            continue;
        }
        if (kw.name == "device") {
            // A host-level orchestrator's per-rank dispatch (self.k(..., device=r)): kept and printed back; cvsim
            // runs one device and never executes such a dispatch (docs/DECISIONS.md, "Distributed functions").
            r->args2 = {lower_expr(*kw.value, false, nullptr)};
            continue;
        }
        size_t idx = callee.params.size();
        for (size_t i = 0; i < callee.params.size(); ++i)
            if (callee.params[i].var->name == kw.name) idx = i;
        if (idx == callee.params.size())
            raise(codes::kType, kw.loc, fmt::format("'{}' has no parameter '{}'", fname, kw.name));
        if (r->args[idx]) raise(codes::kType, kw.loc, fmt::format("'{}' got multiple values for '{}'", fname, kw.name));
        r->args[idx] = lower_expr(*kw.value, false, nullptr);
    }
    for (size_t i = 0; i < callee.params.size(); ++i) {
        if (!r->args[i])
            raise(codes::kType, e.loc, fmt::format("'{}' is missing argument '{}'", fname, callee.params[i].var->name));
        const Type& want = callee.params[i].var->type;
        // A distributed caller (a host orchestrator dispatching per rank) is never run: a tensor of another shape
        // (a pl.dynamic extent bound per dispatch) is accepted there.
        const Type& have = r->args[i]->type;
        const bool per_dispatch = !m_fn.distributed.what.empty() && want.kind == TypeKind::Tensor &&
                                  have.kind == TypeKind::Tensor && want.dtype == have.dtype &&
                                  want.shape.size() == have.shape.size();
        if (!same_slot_type(r->args[i]->type, want) && !per_dispatch &&
            !(want.kind == TypeKind::Scalar && r->args[i]->type.kind == TypeKind::Scalar))
            raise(codes::kType, r->args[i]->loc,
                  fmt::format("argument '{}' of '{}' is {} but {} was passed", callee.params[i].var->name, fname,
                              type_str(want), type_str(r->args[i]->type)));
    }
    if (callee.ret_types.empty())
        r->type = Type::none();
    else if (callee.ret_types.size() == 1 && !callee.ret_is_tuple)
        r->type = callee.ret_types[0];
    else
        r->type = Type::tuple(callee.ret_types);
    return r;
}

}  // namespace cvsim::sema
