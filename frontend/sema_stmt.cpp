// Sema, statements: blocks, assignments, returns, yields and branches (loops and scopes: sema_loops.cpp).
#include "frontend/sema.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <variant>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"
#include "frontend/sema_lower.h"

namespace cvsim::sema {

using namespace ir;

void FunctionLowering::lower_body(const std::vector<ast::StmtPtr>& body) {
    size_t start = 0;
    // The printed style carries function attrs in a first statement pl.func_attr({...}).
    if (!body.empty() && body[0]->kind == ast::StmtKind::Expr && body[0]->value->kind == ast::ExprKind::Call &&
        body[0]->value->children[0]->dotted() == "pl.func_attr") {
        const ast::Expr& call = *body[0]->value;
        if (call.args.size() != 1 || !call.keywords.empty() || call.args[0]->kind != ast::ExprKind::Dict)
            raise(codes::kType, call.loc, "pl.func_attr takes one dict of attributes");
        m_fn.attrs = lower_attrs(m_ctx.consts, *call.args[0]);
        m_fn.attrs_in_body = true;
        start = 1;
    }
    m_fn.body = lower_block(body, start, BlockKind::Function);
}

namespace {

bool is_scope(const ast::Stmt& s) {
    return s.kind == ast::StmtKind::With && s.value->kind == ast::ExprKind::Call &&
           s.value->children[0]->dotted() == "pl.scope";
}

// The statements of a block with every `with pl.scope(...)` replaced by its body (recursively): the scope is
// transparent (docs/DECISIONS.md), and PyPTO prints a loop's closing pl.yield_ inside such a scope.
void flatten_scopes(const std::vector<ast::StmtPtr>& stmts, size_t start, std::vector<const ast::Stmt*>& out,
                    const std::function<void(const ast::Stmt&)>& check) {
    for (size_t i = start; i < stmts.size(); ++i) {
        if (is_scope(*stmts[i])) {
            check(*stmts[i]);
            flatten_scopes(stmts[i]->body, 0, out, check);
        } else {
            out.push_back(stmts[i].get());
        }
    }
}

}  // namespace

Block FunctionLowering::lower_block(const std::vector<ast::StmtPtr>& body, size_t start, BlockKind kind,
                                    std::vector<VarPtr>* yield_targets, const std::vector<Type>* yield_types) {
    Block out;
    Block* saved = m_out;
    m_out = &out;
    std::vector<const ast::Stmt*> stmts;
    flatten_scopes(body, start, stmts, [&](const ast::Stmt& w) { check_scope(w); });
    start = 0;
    for (size_t i = start; i < stmts.size(); ++i) {
        const ast::Stmt& s = *stmts[i];
        bool last = i + 1 == stmts.size();
        if (is_yield(s)) {
            if (kind != BlockKind::LoopWithInit && kind != BlockKind::Branch)
                raise(codes::kParse, s.loc, "pl.yield_ outside a loop with init_values or an if-branch",
                      "pl.yield_ ends the body of `for ... in pl.range(..., init_values=...)` or of an if/else that "
                      "produces values");
            if (!last) raise(codes::kParse, s.loc, "pl.yield_ must be the last statement of its block");
            lower_yield(s, yield_targets, yield_types);
            continue;
        }
        if (last && kind == BlockKind::LoopWithInit)
            raise(codes::kParse, s.loc, "the body of a loop with init_values must end with pl.yield_(...)",
                  "add `x = pl.yield_(value)` as the last statement of the loop body");
        lower_stmt(s);
    }
    if (stmts.size() == start && kind == BlockKind::LoopWithInit)
        raise(codes::kParse, m_fn.loc, "loop with init_values has an empty body");
    m_out = saved;
    return out;
}

bool FunctionLowering::is_yield(const ast::Stmt& s) {
    const ast::Expr* v = s.value.get();
    return (s.kind == ast::StmtKind::Assign || s.kind == ast::StmtKind::Expr) && v && v->kind == ast::ExprKind::Call &&
           v->children[0]->dotted() == "pl.yield_";
}

void FunctionLowering::lower_stmt(const ast::Stmt& s) {
    switch (s.kind) {
        case ast::StmtKind::Assign:
            lower_assign(s);
            return;
        case ast::StmtKind::Expr:
            lower_expr_stmt(s);
            return;
        case ast::StmtKind::Return:
            lower_return(s);
            return;
        case ast::StmtKind::For:
            lower_for(s);
            return;
        case ast::StmtKind::If:
            lower_if(s);
            return;
        case ast::StmtKind::Pass: {
            auto p = std::make_shared<Stmt>();
            p->kind = StmtKind::Pass;
            p->loc = s.loc;
            emit(p);
            return;
        }
        case ast::StmtKind::FunctionDef:
            raise(codes::kUnsupported, s.loc, "nested function definition is not supported");
        case ast::StmtKind::ClassDef:
            raise(codes::kUnsupported, s.loc, "class definition inside a function is not supported");
        case ast::StmtKind::Import:
            raise(codes::kUnsupported, s.loc, "import inside a function is not supported");
        case ast::StmtKind::With:
            lower_with(s);
            return;
    }
}

VarPtr FunctionLowering::bind(const std::string& name, const Type& type, const SourceLoc& loc) {
    if (name == "self" || name == "pl") raise(codes::kType, loc, fmt::format("cannot assign to '{}'", name));
    if (m_hidden.count(name) && !m_binding_hidden) {
        const std::string t = name.substr(0, name.rfind("__"));
        raise(codes::kType, loc,
              fmt::format("'{}' names an element of '{}' = pl.tile.gather_compare(...) in cvsim; it cannot be assigned",
                          name, t),
              fmt::format("use another name (cvsim reads {0}[0] and {0}[1] as {0}__dst and {0}__cdst)", t));
    }
    auto it = m_vars.find(name);
    if (it != m_vars.end()) {
        if (!same_slot_type(it->second->type, type))
            raise(codes::kType, loc,
                  fmt::format("'{}' is re-bound with a different type: {} (first bound at line {} as {})", name,
                              type_str(type), it->second->loc.line, type_str(it->second->type)),
                  "use a new name for a value of a different type");
        return it->second;
    }
    VarPtr v = m_fn.new_var(name, type, loc);
    m_vars[name] = v;
    return v;
}

void FunctionLowering::lower_assign(const ast::Stmt& s) {
    if (s.targets.size() != 1) raise(codes::kUnsupported, s.loc, "chained assignment (a = b = c) is not supported");
    const ast::Expr& target = *s.targets[0];
    std::optional<Type> ann;
    if (s.annotation) ann = lower_type(m_ctx.consts, *s.annotation, &m_fn);
    if (s.value && is_gather_compare(*s.value)) {
        lower_gather_compare_assign(s, ann ? &*ann : nullptr);
        return;
    }
    if (target.kind == ast::ExprKind::Name) {
        ExprPtr value = lower_expr(*s.value, /*top=*/true, ann ? &*ann : nullptr);
        // `x: pl.Tensor[...] = pl.tensor.write(t, idx, v)` (PyPTO's tensor.write returns the tensor it writes, in
        // place): the write as a statement, then x an alias of t (cvsim's op returns nothing).
        if (value->kind == ExprKind::Call && value->op && value->op->code == OpCode::TensorWrite) {
            emit(passes::make_eval(value, s.loc));
            ExprPtr dst = std::make_shared<Expr>(*arg(*value, "tensor"));  // a copy: the two statements share no node
            Type dt = dst->type;
            if (ann) dt = merge_annotation(*ann, dt, s.loc, *s.value);
            auto st = std::make_shared<Stmt>();
            st->kind = StmtKind::Assign;
            st->loc = s.loc;
            st->annotated = ann.has_value();
            st->value = dst;
            st->targets.push_back(bind(target.name, dt, target.loc));
            emit(st);
            return;
        }
        // A rank-N tile annotation names a reshape's result (held as its merged rows, Type::nd_shape) only.
        if (ann && !ann->nd_shape.empty() && value->type.nd_shape != ann->nd_shape)
            raise(codes::kUnsupported, s.annotation->loc,
                  "tiles of rank above 2 are supported only as the result of pl.tile.reshape (held as their merged 2-D "
                  "rows)");
        Type t = value->type;
        if (ann) t = merge_annotation(*ann, t, s.loc, *s.value);
        if (t.kind == TypeKind::Unknown)
            raise(codes::kType, s.value->loc, "cannot infer the type of this value",
                  "annotate the target (x: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = ...) or pass shape= and dtype=");
        if (t.kind == TypeKind::None)
            raise(codes::kType, s.value->loc, "this call returns nothing; it cannot be assigned");
        // A tuple bound to a name: a call's result, or an element of a tuple that is itself a tuple (PyPTO's nested
        // `pl.Tuple[pl.Tuple[...], ...]` results: `inner = ret[0]`). A tuple literal is not.
        if (t.kind == TypeKind::Tuple && value->kind != ExprKind::FuncCall && value->kind != ExprKind::Index)
            raise(codes::kType, s.value->loc,
                  fmt::format("a tuple of {} values cannot be bound to one name; unpack it (a, b = ...)",
                              t.elems.size()));
        value->type = t;
        if (ann) annotated_valid_region(*s.annotation, *ann, *value);
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::Assign;
        st->loc = s.loc;
        st->annotated = ann.has_value();
        st->value = value;
        st->targets.push_back(bind(target.name, t, target.loc));
        emit(st);
        return;
    }
    if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List) {
        if (ann) raise(codes::kParse, s.annotation->loc, "a tuple target cannot be annotated");
        ExprPtr value = lower_expr(*s.value, true, nullptr);
        if (value->type.kind != TypeKind::Tuple)
            raise(codes::kType, s.value->loc,
                  fmt::format("cannot unpack {} into {} names", type_str(value->type), target.args.size()));
        if (value->type.elems.size() != target.args.size())
            raise(codes::kType, s.loc,
                  fmt::format("cannot unpack {} values into {} names", value->type.elems.size(), target.args.size()));
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::Assign;
        st->loc = s.loc;
        st->value = value;
        for (size_t i = 0; i < target.args.size(); ++i) {
            const ast::Expr& n = *target.args[i];
            if (n.kind != ast::ExprKind::Name)
                raise(codes::kUnsupported, n.loc, "only plain names can be unpacked into");
            st->targets.push_back(bind(n.name, value->type.elems[i], n.loc));
        }
        emit(st);
        return;
    }
    raise(codes::kUnsupported, target.loc,
          "assignment to this kind of target is not supported (only names and tuples of names)");
}

// A tpop whose annotation declares a run-time valid region (PyPTO prints the type a hand-written consumer gives
// the popped tile, e.g. pl.TileView(valid_shape=[valid_rows, valid_cols]) of scalar parameters): the codegen
// allocates the tile with that region, so the run time bounds the popped tile by it (kept as the call's args2,
// which cloning and variable remapping visit like its operands).
void FunctionLowering::annotated_valid_region(const ast::Expr& annotation, const Type& ann, Expr& value) {
    if (ann.kind != TypeKind::Tile || !ann.valid_dynamic || value.kind != ExprKind::Call || !value.op) return;
    if (value.op->code != OpCode::TpopFromAic && value.op->code != OpCode::TpopFromAiv) return;
    if (annotation.kind != ast::ExprKind::Subscript) return;
    for (size_t i = 2; i < annotation.args.size(); ++i) {
        const ast::Expr& x = *annotation.args[i];
        if (x.kind != ast::ExprKind::Call || x.children.empty() || x.children[0]->dotted() != "pl.TileView") continue;
        for (const auto& kw : x.keywords) {
            if (kw.name != "valid_shape" ||
                (kw.value->kind != ast::ExprKind::List && kw.value->kind != ast::ExprKind::Tuple))
                continue;
            if (kw.value->args.size() != ann.shape.size()) return;
            std::vector<ExprPtr> dims;
            for (const auto& d : kw.value->args) {
                ExprPtr e = lower_expr(*d, false, nullptr);
                if (e->type.kind != TypeKind::Scalar || !dtype_is_int(e->type.dtype))
                    raise(codes::kType, d->loc, "a valid_shape extent must be an integer scalar");
                dims.push_back(e);
            }
            value.args2 = std::move(dims);
        }
    }
}

Type FunctionLowering::merge_annotation(const Type& ann, const Type& inferred, const SourceLoc& loc,
                                        const ast::Expr& value) {
    if (inferred.kind == TypeKind::Unknown) return ann;
    if (ann.kind != inferred.kind || ann.dtype != inferred.dtype ||
        (ann.kind != TypeKind::Scalar && ann.shape != inferred.shape)) {
        // Integer literals adapt to an annotated integer scalar type.
        if (ann.kind == TypeKind::Scalar && inferred.kind == TypeKind::Scalar &&
            (value.kind == ast::ExprKind::Int || value.kind == ast::ExprKind::Float ||
             value.kind == ast::ExprKind::UnaryOp || value.kind == ast::ExprKind::BinOp))
            return ann;
        if (ann.kind == TypeKind::Scalar && inferred.kind == TypeKind::Scalar && dtype_is_int(ann.dtype) &&
            dtype_is_int(inferred.dtype))
            return ann;
        raise(codes::kType, loc,
              fmt::format("annotation says {} but the value is {}", type_str(ann), type_str(inferred)));
    }
    if (ann.kind == TypeKind::Tile) {
        Type t = inferred;  // memory space and view from the annotation win
        t.mem = ann.mem;
        t.view = ann.view;
        // A run-time region in the annotation (or a static one) replaces the op's; an annotation that names none
        // keeps a run-time region the op gives (the static checks then leave the extents to the run time).
        if (!ann.valid.empty() || ann.valid_dynamic || ann.view.written) t.valid = ann.valid;
        if (!ann.valid.empty())
            t.valid_dynamic = false;
        else if (ann.valid_dynamic)
            t.valid_dynamic = true;
        return t;
    }
    return ann;
}

void FunctionLowering::lower_expr_stmt(const ast::Stmt& s) {
    const ast::Expr& e = *s.value;
    if (e.kind == ast::ExprKind::Str) return;  // docstring
    if (e.kind == ast::ExprKind::Ellipsis) {   // `...` as a body is `pass`
        auto p = std::make_shared<Stmt>();
        p->kind = StmtKind::Pass;
        p->loc = s.loc;
        emit(p);
        return;
    }
    if (e.kind != ast::ExprKind::Call)
        raise(codes::kUnsupported, e.loc, "an expression statement must be a call (this statement has no effect)");
    if (e.children[0]->dotted() == "pl.func_attr")
        raise(codes::kParse, e.loc, "pl.func_attr must be the first statement of a function");
    ExprPtr value = lower_expr(e, true, nullptr);
    auto st = std::make_shared<Stmt>();
    st->kind = StmtKind::Eval;
    st->loc = s.loc;
    st->value = value;
    // An in-place op as a statement (`pl.tile.write(t, idx, v)`, PyPTO's form; fillpad_inplace, scatter,
    // scatter_mask, matmul_acc / gemv_acc) writes its destination tile. cvsim's ops return the updated tile,
    // so the statement rebinds the destination to it; the result was dropped before (a silent no-op).
    const char* dst = nullptr;
    if (value->kind == ExprKind::Call && value->op) switch (value->op->code) {
            case OpCode::Write:
            case OpCode::FillpadInplace:
                dst = "tile";
                break;
            case OpCode::Scatter:
            case OpCode::ScatterMask:
                dst = "dst";
                break;
            case OpCode::MatmulAcc:
            case OpCode::GemvAcc:
                dst = "acc";
                break;  // accumulates in L0C in place
            default:
                break;
        }
    if (dst) {
        const ExprPtr& t = arg(*value, dst);
        if (!t || t->kind != ExprKind::Var)
            raise(codes::kUnsupported, value->loc,
                  fmt::format("{} as a statement writes its tile in place; cvsim needs that tile as a variable",
                              value->op->name()),
                  "write into a named tile (t = ...; pl.tile.write(t, [i, j], v))");
        st->kind = StmtKind::Assign;
        st->targets.push_back(bind(t->var->name, value->type, value->loc));
    }
    emit(st);
}

void FunctionLowering::lower_return(const ast::Stmt& s) {
    auto st = std::make_shared<Stmt>();
    st->kind = StmtKind::Return;
    st->loc = s.loc;
    if (s.value) {
        if (s.value->kind == ast::ExprKind::Tuple && !s.value->parenthesized) {
            for (auto& v : s.value->args) st->values.push_back(lower_expr(*v, false, nullptr));
        } else {
            st->values.push_back(lower_expr(*s.value, false, nullptr));
        }
    }
    // `return result` of a pl.Tuple value (upstream's Group functions): its elements are the returned values.
    if (st->values.size() == 1 && m_fn.ret_types.size() > 1 && st->values[0]->type.kind == TypeKind::Tuple &&
        st->values[0]->type.elems.size() == m_fn.ret_types.size()) {
        ExprPtr t = st->values[0];
        st->values.clear();
        for (size_t k = 0; k < t->type.elems.size(); ++k) {
            auto x = std::make_shared<Expr>();
            x->kind = ExprKind::Index;
            x->loc = t->loc;
            x->args = {t};
            x->ival = static_cast<int64_t>(k);
            x->type = t->type.elems[k];
            st->values.push_back(x);
        }
    }
    if (!m_fn.ret_types.empty()) {
        if (st->values.size() != m_fn.ret_types.size())
            raise(codes::kType, s.loc,
                  fmt::format("'{}' returns {} value(s) but the signature declares {}", m_fn.name, st->values.size(),
                              m_fn.ret_types.size()));
        for (size_t i = 0; i < st->values.size(); ++i)
            if (!same_slot_type(st->values[i]->type, m_fn.ret_types[i]))
                raise(codes::kType, st->values[i]->loc,
                      fmt::format("return value is {} but the signature declares {}", type_str(st->values[i]->type),
                                  type_str(m_fn.ret_types[i])));
    }
    emit(st);
}

void FunctionLowering::lower_yield(const ast::Stmt& s, std::vector<VarPtr>* targets, const std::vector<Type>* types) {
    const ast::Expr& call = *s.value;
    if (!call.keywords.empty()) raise(codes::kType, call.keywords[0].loc, "pl.yield_ takes no keyword arguments");
    auto st = std::make_shared<Stmt>();
    st->kind = StmtKind::Yield;
    st->loc = s.loc;
    for (auto& a : call.args) st->values.push_back(lower_expr(*a, false, nullptr));
    if (types && types->size() != st->values.size())
        raise(codes::kType, s.loc,
              fmt::format("pl.yield_ gives {} value(s), the loop carries {}", st->values.size(), types->size()));
    if (types)
        for (size_t i = 0; i < st->values.size(); ++i)
            if (!same_slot_type(st->values[i]->type, (*types)[i]))
                raise(codes::kType, st->values[i]->loc,
                      fmt::format("yielded value is {} but the loop carries {}", type_str(st->values[i]->type),
                                  type_str((*types)[i])));
    // Targets (names on the left) become the loop/branch results.
    std::vector<std::pair<std::string, SourceLoc>> names;
    if (s.kind == ast::StmtKind::Assign) {
        const ast::Expr& t = *s.targets[0];
        if (t.kind == ast::ExprKind::Name)
            names.push_back({t.name, t.loc});
        else if (t.kind == ast::ExprKind::Tuple || t.kind == ast::ExprKind::List)
            for (auto& n : t.args) {
                if (n->kind != ast::ExprKind::Name) raise(codes::kParse, n->loc, "pl.yield_ results must be names");
                names.push_back({n->name, n->loc});
            }
    }
    if (names.size() != st->values.size())
        raise(codes::kType, s.loc,
              fmt::format("pl.yield_ gives {} value(s) but {} name(s) receive them", st->values.size(), names.size()));
    if (targets && !targets->empty()) {
        // The else-branch of an if must yield into the same names as the then-branch.
        for (size_t i = 0; i < names.size(); ++i)
            if ((*targets)[i]->name != names[i].first)
                raise(codes::kType, names[i].second,
                      fmt::format("this branch yields into '{}' but the other branch into '{}'", names[i].first,
                                  (*targets)[i]->name));
        st->targets = *targets;
    } else {
        for (size_t i = 0; i < names.size(); ++i)
            st->targets.push_back(bind(names[i].first, st->values[i]->type, names[i].second));
        if (targets) *targets = st->targets;
    }
    emit(st);
}

void FunctionLowering::lower_if(const ast::Stmt& s) {
    ExprPtr cond = lower_expr(*s.value, false, nullptr);
    if (cond->type.kind != TypeKind::Scalar)
        raise(codes::kType, s.value->loc,
              fmt::format("an if condition must be a scalar, got {}", type_str(cond->type)));
    auto st = std::make_shared<Stmt>();
    st->kind = StmtKind::If;
    st->loc = s.loc;
    st->value = cond;
    std::vector<VarPtr> results;
    // The last statement of a branch, looking through `with pl.scope()` (flattened by lower_block).
    auto last = [](const std::vector<ast::StmtPtr>& b) -> const ast::Stmt* {
        const ast::Stmt* l = b.empty() ? nullptr : b.back().get();
        while (l && is_scope(*l) && !l->body.empty()) l = l->body.back().get();
        return l;
    };
    bool yields_then = last(s.body) && is_yield(*last(s.body));
    bool yields_else = last(s.orelse) && is_yield(*last(s.orelse));
    if (yields_then != yields_else && (yields_then || yields_else))
        raise(codes::kType, s.loc, "with pl.yield_, both branches of the if must yield the same names",
              "add an else branch ending with pl.yield_(...)");
    BlockKind kind = yields_then ? BlockKind::Branch : BlockKind::Loop;
    st->body = lower_block(s.body, 0, kind, &results);
    if (!s.orelse.empty()) {
        std::vector<Type> types;
        for (auto& v : results) types.push_back(v->type);
        st->orelse = lower_block(s.orelse, 0, kind, &results, yields_then ? &types : nullptr);
    }
    st->targets = results;
    emit(st);
}

}  // namespace cvsim::sema
