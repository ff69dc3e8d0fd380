// Sema, statements: loops (pl.range / pl.parallel / pl.pipeline with init_values and yields) and `with`
// scopes.
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

FunctionLowering::RangeCall FunctionLowering::lower_range(const ast::Expr& it) {
    RangeCall r;
    if (it.kind != ast::ExprKind::Call)
        raise(codes::kUnsupported, it.loc,
              "a for loop must iterate over pl.range, pl.parallel, pl.unroll, pl.split_aiv or pl.spmd");
    std::string callee = it.children[0]->dotted();
    if (callee == "pl.range")
        r.kind = LoopKind::Range;
    else if (callee == "pl.parallel")
        r.kind = LoopKind::Parallel;
    else if (callee == "pl.unroll")
        r.kind = LoopKind::Unroll;
    else if (callee == "pl.split_aiv")
        r.kind = LoopKind::SplitAiv;
    else if (callee == "pl.spmd")
        r.kind = LoopKind::Spmd;
    else if (callee == "pl.pipeline")
        r.kind = LoopKind::Pipeline;
    else if (callee == "range")
        raise(codes::kUnsupported, it.loc, "Python range() is not supported; use pl.range");
    else
        raise(codes::kUnsupported, it.loc,
              fmt::format(
                  "a for loop over '{}' is not supported (pl.range, pl.parallel, pl.unroll, pl.split_aiv, pl.spmd)",
                  callee.empty() ? "this expression" : callee));
    for (auto& a : it.args) {
        ExprPtr e = lower_expr(*a, false, nullptr);
        if (e->type.kind != TypeKind::Scalar || !dtype_is_int(e->type.dtype))
            raise(codes::kType, a->loc, fmt::format("loop bounds must be integer scalars, got {}", type_str(e->type)));
        r.bounds.push_back(e);
    }
    if (r.bounds.empty() || r.bounds.size() > 3)
        raise(codes::kType, it.loc, fmt::format("{} takes 1 to 3 bounds, got {}", callee, r.bounds.size()));
    if (r.kind == LoopKind::SplitAiv && (r.bounds.size() != 1 || const_int(r.bounds[0]) != 2))
        raise(codes::kType, it.loc, "pl.split_aiv takes the lane count 2");
    if (r.bounds.size() == 3 && const_int(r.bounds[2]) == 0)
        raise(codes::kType, it.args[2]->loc, "loop step must not be zero");
    for (auto& kw : it.keywords) {
        bool counted = r.kind == LoopKind::Range || r.kind == LoopKind::Parallel || r.kind == LoopKind::Pipeline;
        if (kw.name == "init_values" && counted) {
            if (kw.value->kind != ast::ExprKind::Tuple && kw.value->kind != ast::ExprKind::List)
                raise(codes::kType, kw.value->loc, "init_values must be a tuple or list of values");
            r.init = kw.value.get();
        } else if (kw.name == "mode" && r.kind == LoopKind::SplitAiv) {
            ExprPtr m = lower_expr(*kw.value, false, nullptr);
            if (m->kind != ExprKind::Enum || m->enum_kind != EnumKind::SplitMode)
                raise(codes::kType, kw.value->loc, "mode must be a pl.SplitMode member");
            r.mode = static_cast<SplitMode>(m->ival);
        } else if ((kw.name == "stage" && r.kind == LoopKind::Pipeline) ||
                   (kw.name == "attrs" && kw.value->kind == ast::ExprKind::Dict && r.kind != LoopKind::SplitAiv)) {
            // pl.pipeline's stage count and a loop's attrs={...} are scheduling hints: recorded, printed back, and the
            // loop runs sequentially (program order is one of the orders the hardware may choose).
            r.extra.push_back(kw.name == "attrs" ? lower_dict(*kw.value) : lower_attr_value(m_ctx.consts, *kw.value));
            r.extra_keys.push_back(kw.name);
        } else if (r.kind == LoopKind::Spmd) {
            // pl.spmd's launch options are recorded and printed back; the region runs as a loop over blocks.
            r.extra.push_back(lower_attr_value(m_ctx.consts, *kw.value));
            r.extra_keys.push_back(kw.name);
        } else {
            std::string valid = r.kind == LoopKind::Pipeline   ? "stage, init_values, attrs"
                                : counted                      ? "init_values, attrs"
                                : r.kind == LoopKind::SplitAiv ? "mode"
                                                               : "attrs";
            raise(codes::kType, kw.loc, fmt::format("{}() got an unexpected keyword argument '{}'", callee, kw.name),
                  "its keywords are: " + valid, static_cast<uint32_t>(kw.name.size()));
        }
    }
    return r;
}

void FunctionLowering::lower_for(const ast::Stmt& s) {
    RangeCall r = lower_range(*s.value);
    auto st = std::make_shared<Stmt>();
    st->kind = StmtKind::For;
    st->loc = s.loc;
    st->loop_kind = r.kind;
    st->split_mode = r.mode;
    st->loop_extra = r.extra;
    st->loop_extra_keys = r.extra_keys;
    if (r.kind == LoopKind::SplitAiv && m_region)
        raise(codes::kUnsupported, s.loc,
              fmt::format("nested pl.split_aiv regions are not supported (the enclosing region starts at line {})",
                          m_region->loc.line));
    if (r.bounds.size() == 1)
        st->stop = r.bounds[0];
    else {
        st->start = r.bounds[0];
        st->stop = r.bounds[1];
        if (r.bounds.size() == 3) st->step = r.bounds[2];
    }
    const ast::Expr& target = *s.targets[0];
    const ast::Expr* loop_name = &target;
    const ast::Expr* carried = nullptr;
    if (target.kind == ast::ExprKind::Tuple) {
        if (target.args.size() != 2 || target.args[0]->kind != ast::ExprKind::Name ||
            (target.args[1]->kind != ast::ExprKind::Tuple && target.args[1]->kind != ast::ExprKind::List))
            raise(codes::kParse, target.loc,
                  "a loop with init_values is written `for i, (a, b) in pl.range(..., init_values=(x, y))`");
        loop_name = target.args[0].get();
        carried = target.args[1].get();
    } else if (target.kind != ast::ExprKind::Name) {
        raise(codes::kParse, target.loc, "the loop target must be a name");
    }
    if ((carried != nullptr) != (r.init != nullptr))
        raise(codes::kParse, target.loc,
              carried ? "the loop unpacks carried values but pl.range has no init_values"
                      : "pl.range has init_values; write the target as `i, (a, b)`");
    std::vector<Type> carried_types;
    if (r.init) {
        if (r.init->args.size() != carried->args.size())
            raise(codes::kType, r.init->loc,
                  fmt::format("init_values has {} value(s) but the target names {}", r.init->args.size(),
                              carried->args.size()));
        for (auto& v : r.init->args) {
            st->init_values.push_back(lower_expr(*v, false, nullptr));
            carried_types.push_back(st->init_values.back()->type);
        }
    }
    st->loop_var = bind(loop_name->name, Type::scalar(DType::INDEX), loop_name->loc);
    if (carried)
        for (size_t i = 0; i < carried->args.size(); ++i) {
            const ast::Expr& n = *carried->args[i];
            if (n.kind != ast::ExprKind::Name) raise(codes::kParse, n.loc, "carried values must be names");
            st->iter_args.push_back(bind(n.name, carried_types[i], n.loc));
        }
    std::vector<VarPtr> results;
    const Stmt* saved_region = m_region;
    if (r.kind == LoopKind::SplitAiv) m_region = st.get();
    st->body = lower_block(s.body, 0, r.init ? BlockKind::LoopWithInit : BlockKind::Loop, &results,
                           r.init ? &carried_types : nullptr);
    m_region = saved_region;
    st->targets = results;
    emit(st);
}

void FunctionLowering::check_scope(const ast::Stmt& s) {
    // A runtime (task-graph) scope of an Orchestration function. cvsim runs launches in program order, which
    // orders every launch an AUTO scope orders, so the scope is transparent: its body is lowered in place
    // (and printed without the `with`; print -> parse -> print stays the identity). The launches of a MANUAL
    // scope are ordered only by their deps=: check reads the scope's lines again (unordered_launches).
    const ast::Expr& ctx = *s.value;
    if (!ctx.args.empty())
        raise(codes::kType, ctx.args[0]->loc, "pl.scope takes keyword arguments only (mode=pl.ScopeMode.X)");
    for (auto& kw : ctx.keywords) {
        std::string v = kw.value->dotted();
        if (kw.name != "mode")
            raise(codes::kType, kw.loc, fmt::format("pl.scope() got an unexpected keyword argument '{}'", kw.name),
                  "its keyword is: mode", static_cast<uint32_t>(kw.name.size()));
        if (v != "pl.ScopeMode.AUTO" && v != "pl.ScopeMode.MANUAL")
            raise(codes::kType, kw.value->loc, "mode must be pl.ScopeMode.AUTO or pl.ScopeMode.MANUAL");
    }
    if (!s.targets.empty()) raise(codes::kUnsupported, s.targets[0]->loc, "'with pl.scope() as NAME' is not supported");
}

void FunctionLowering::lower_with(const ast::Stmt& s) {
    const ast::Expr& ctx = *s.value;
    std::string name = ctx.kind == ast::ExprKind::Call ? ctx.children[0]->dotted() : ctx.dotted();
    uint32_t span = static_cast<uint32_t>(std::max<size_t>(name.size(), 1));
    if (name == "pl.scope") {
        // Reached only for a scope lower_block did not flatten (it flattens every pl.scope() call).
        if (ctx.kind != ast::ExprKind::Call)
            raise(codes::kType, ctx.loc, "pl.scope must be called: with pl.scope():", "", span);
        check_scope(s);
        for (const auto& b : s.body) lower_stmt(*b);
        return;
    }
    if (name == "pl.at" || name == "pl.cluster" || name == "pl.spmd" || name == "pl.incore" || name == "pl.auto_incore")
        raise(codes::kUnsupported, ctx.loc,
              fmt::format("tensor-level scope '{}' is not supported: PyPTO outlines it (OutlineIncoreScopes / "
                          "OutlineClusterScopes) before ExpandMixedKernel",
                          name),
              "give cvsim the program PyPTO prints at the ExpandMixedKernel boundary", span);
    raise(codes::kUnsupported, ctx.loc,
          fmt::format("'with {}' is not supported (only 'with pl.scope()' inside a function)",
                      name.empty() ? "..." : name),
          "", span);
}

}  // namespace cvsim::sema
