// Sema, calls: op calls (pl.tile.* and the rest of the catalogue), scalar functions (pl.min, pl.max, pl.cast, ...),
// dicts, typed constants, and calls between functions.
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
