// LaunchOrder, each launch's tensor arguments: roots, writes, tensor-map lookups (PyPTO's DeriveCallDirections).
#include "frontend/launch_order.h"

#include <functional>

#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

void LaunchOrder::find_accesses() {
    m_access.resize(m_n_launch);
    for (size_t k = 0; k < m_n_launch; ++k) {
        const ManualLaunch& l = m_launches[k];
        const std::vector<ParamDir> dirs = effective_dirs(m_program, *l.callee, m_dir_memo);
        for (size_t p = l.first; p < l.call->args.size(); ++p) {
            const size_t pp = p - l.first;
            if (pp >= l.callee->params.size() || l.callee->params[pp].var->type.kind != TypeKind::Tensor) continue;
            const Expr* a = l.call->args[p].get();
            if (a && a->kind == ExprKind::FuncCall && a->sval == "pl.no_dep" && !a->args.empty()) a = a->args[0].get();
            const ParamDir d = pp < dirs.size() ? dirs[pp] : l.callee->params[pp].dir;
            m_access[k].push_back(Access{a, m_roots->of(a), d != ParamDir::In, l.no_dep.count(pp) == 0, d, false});
        }
    }
    {
        std::vector<const Stmt*> stack;
        std::function<void(const Block&)> scan = [&](const Block& body) {
            for (const auto& st : body) {
                if (st->kind == StmtKind::Assign && st->value && st->value->kind == ExprKind::FuncCall &&
                    st->value->sval == "pl.tensor.create")
                    for (const auto& t : st->targets) m_created_in[t.get()].insert(stack.begin(), stack.end());
                if (st->kind == StmtKind::For) {
                    stack.push_back(st.get());
                    scan(st->body);
                    stack.pop_back();
                }
                if (st->kind == StmtKind::If) {
                    scan(st->body);
                    scan(st->orelse);
                }
            }
        };
        scan(m_orch.body);
    }
    passes::walk(m_orch.body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::For && s->loop_var) m_loop_vars.insert(s->loop_var.get());
        for (const auto& t : s->targets)
            if (s->kind != StmtKind::Assign || s->targets.size() != 1 ||
                !m_def_of.emplace(t.get(), s->value.get()).second)
                m_multi_def.insert(t.get());
    });
    // (a parameter, a loop index or a carried value that is also assigned: one name, several values)
    for (const auto& [v, d] : m_def_of)
        if (defined_twice(v)) m_multi_def.insert(v);
    // The buffer a tensor value is, as PyPTO's BufferRootCollector names it for DeriveCallDirections (nullptr:
    // none it would name, or not one cvsim can tell): a parameter, a pl.tensor.create or pl.tensor.slice result
    // (a slice is a root of its own there), what pl.tensor.assemble writes into, a launch's result that one
    // written argument matches in shape and dtype (the I-th written argument for `ret[I]`), a loop's carried value
    // when its initial value and every yield are the same buffer. A view or reshape is no root there.
    {
        std::function<void(const Block&, const Stmt*)> scan = [&](const Block& body, const Stmt* owner) {
            for (const auto& st : body) {
                if (st->kind == StmtKind::For) {
                    for (size_t k = 0; k < st->iter_args.size() && k < st->init_values.size(); ++k)
                        if (st->iter_args[k]) {
                            m_carry_defs[st->iter_args[k].get()].first = st->init_values[k].get();
                            m_carry_loop[st->iter_args[k].get()] = st.get();
                        }
                    for (size_t k = 0; k < st->targets.size() && k < st->iter_args.size(); ++k)
                        if (st->targets[k] && st->iter_args[k])
                            m_loop_result[st->targets[k].get()] = st->iter_args[k].get();
                    scan(st->body, st.get());
                } else if (st->kind == StmtKind::If) {
                    scan(st->body, nullptr);
                    scan(st->orelse, nullptr);
                } else if (st->kind == StmtKind::Yield && owner) {
                    for (size_t k = 0; k < st->values.size() && k < owner->iter_args.size(); ++k)
                        if (owner->iter_args[k])
                            m_carry_defs[owner->iter_args[k].get()].second.push_back(st->values[k].get());
                }
            }
        };
        scan(m_orch.body, nullptr);
    }
    for (const auto& prm : m_orch.params)
        if (prm.var) {
            m_orch_params.insert(prm.var.get());
            m_orch_param_dir[prm.var.get()] = prm.dir;
        }
    // Which arguments the runtime looks up (PyPTO's DeriveCallDirections): In and InOut always; Out when the launch
    // sits in a loop that is not pl.parallel (R-seq), an earlier launch (not in the other arm of a branch) writes the
    // same buffer (R-prior), or the buffer is an InOut parameter of the orchestration (R-enclosing); else it is
    // OutputExisting, published without a lookup. Not tracked (pl.no_dep): never.
    // (Per function: a launch inlined from a called orchestration counts its own function's loops and earlier
    // launches only, and never the entry's InOut parameters: docs/DECISIONS.md, "An orchestration called by
    // another".)
    for (size_t k = 0; k < m_n_launch; ++k) {
        const int origin = origin_of(m_launches[k].stmt);
        bool sequential = false;
        for (const Stmt* f : m_launches[k].loops)
            sequential |= f->loop_kind != LoopKind::Parallel && origin_of(f) == origin;
        for (Access& x : m_access[k]) {
            if (!x.tracked) continue;
            if (x.dir != ParamDir::Out || sequential) {
                x.looks_up = true;
                continue;
            }
            const Var* r = pypto_root(x.arg);
            if (!r) continue;
            if (auto pd = m_orch_param_dir.find(r);
                origin == 0 && pd != m_orch_param_dir.end() && pd->second == ParamDir::InOut) {
                x.looks_up = true;
                continue;
            }
            for (size_t i = 0; i < k && !x.looks_up; ++i) {
                if (exclusive_arms(m_launches[i], m_launches[k]) || origin_of(m_launches[i].stmt) != origin) continue;
                for (const Access& w : m_access[i])
                    if (w.writes && pypto_root(w.arg) == r) x.looks_up = true;
            }
        }
    }
    // The loop of each orchestration loop variable, the range of values it takes (constant bounds; nullopt: not
    // known) and the values themselves (nullopt beyond 4096 of them).
    for (const auto& l : m_launches)
        for (const Stmt* f : l.loops)
            if (f->loop_var) m_loop_of[f->loop_var.get()] = f;
    m_access_param.resize(m_n_launch);
    for (size_t k = 0; k < m_n_launch; ++k) {
        const ManualLaunch& l = m_launches[k];
        for (size_t p = l.first; p < l.call->args.size(); ++p) {
            const size_t pp = p - l.first;
            if (pp < l.callee->params.size() && l.callee->params[pp].var->type.kind == TypeKind::Tensor)
                m_access_param[k].push_back(pp);
        }
    }
}

// The I-th written argument of launch call D (I < 0: the one matching the result type T).
const Expr* LaunchOrder::written_arg(const Expr* d, int64_t i, const Type* t) {
    if (!d || d->kind != ExprKind::FuncCall || d->ival == kFuncRef) return nullptr;
    const LaunchTarget lt = launch_target(*d);
    std::shared_ptr<Function> fn = m_program.find(lt.kernel);
    if (!fn || fn->type == FuncType::Orchestration) return nullptr;
    const std::vector<ParamDir> dirs = effective_dirs(m_program, *fn, m_dir_memo);
    std::vector<const Expr*> written;
    for (size_t a = lt.first; a < d->args.size(); ++a) {
        const size_t pp = a - lt.first;
        if (pp >= fn->params.size() || pp >= dirs.size() || dirs[pp] == ParamDir::In ||
            fn->params[pp].var->type.kind != TypeKind::Tensor)
            continue;
        const Expr* x = d->args[a].get();
        if (x && x->kind == ExprKind::FuncCall && x->sval == "pl.no_dep" && !x->args.empty()) x = x->args[0].get();
        written.push_back(x);
    }
    if (i >= 0) return static_cast<size_t>(i) < written.size() ? written[static_cast<size_t>(i)] : nullptr;
    const Expr* match = nullptr;
    int matches = 0;
    for (const Expr* x : written)
        if (x && t && x->type.kind == TypeKind::Tensor && x->type.shape == t->shape && x->type.dtype == t->dtype) {
            match = x;
            ++matches;
        }
    return matches == 1 ? match : nullptr;
}

// CYCLE: set when the value was reached again while its own root is computed (a loop's carried value yielded
// back through launches): nullptr then says "the same as where the cycle started", not "none".
const Var* LaunchOrder::root_of(const Expr* e, int depth, bool& cycle) {
    if (!e || depth > 64) return nullptr;
    if (e->kind == ExprKind::Index && !e->args.empty() && e->args[0] && e->args[0]->kind == ExprKind::Var) {
        auto it = m_def_of.find(e->args[0]->var.get());
        if (it == m_def_of.end() || m_multi_def.count(e->args[0]->var.get())) return nullptr;
        return root_of(written_arg(it->second, e->ival, nullptr), depth + 1, cycle);
    }
    if (e->kind != ExprKind::Var || !e->var) return nullptr;
    return root_of_var(e->var.get(), depth, cycle);
}

const Var* LaunchOrder::root_of_var(const Var* v, int depth, bool& cycle) {
    if (auto m = m_root_memo.find(v); m != m_root_memo.end()) return m->second;
    if (!m_root_active.insert(v).second) {
        cycle = true;
        return nullptr;
    }
    if (++m_root_visits > 100000) {
        m_root_active.erase(v);
        return nullptr;
    }
    bool cut = false;
    const Var* r = nullptr;
    if (auto c = m_carry_defs.find(v); c != m_carry_defs.end()) {
        // The roots of the initial value and of each yield, a value that cycles back being any of them.
        bool any = false, agree = true;
        std::vector<const Expr*> defs{c->second.first};
        defs.insert(defs.end(), c->second.second.begin(), c->second.second.end());
        for (const Expr* y : defs) {
            bool back = false;
            const Var* ry = root_of(y, depth + 1, back);
            cut |= back;
            if (!ry && back) continue;
            if (any && ry != r) agree = false;
            any = true;
            r = ry;
        }
        if (!agree) r = nullptr;
        if (!any) {  // every definition cycles back: the same as where the cycle started
            m_root_active.erase(v);
            cycle = true;
            return nullptr;
        }
    } else if (auto lr = m_loop_result.find(v); lr != m_loop_result.end()) {
        r = root_of_var(lr->second, depth + 1, cut);
    } else if (m_orch_params.count(v) && !m_def_of.count(v)) {
        r = v;
    } else if (auto it = m_def_of.find(v); it != m_def_of.end() && !m_multi_def.count(v) && it->second) {
        const Expr* d = it->second;
        if (d->kind == ExprKind::Var || d->kind == ExprKind::Index)
            r = root_of(d, depth + 1, cut);
        else if (d->kind == ExprKind::FuncCall && (d->sval == "pl.tensor.create" || d->sval == "pl.tensor.slice"))
            r = v;
        else if (d->kind == ExprKind::FuncCall && d->sval == "pl.tensor.assemble" && !d->args.empty())
            r = root_of(d->args[0].get(), depth + 1, cut);
        else
            r = root_of(written_arg(d, -1, &v->type), depth + 1, cut);
    }
    m_root_active.erase(v);
    // A result computed through a cycle cut short holds only for where that cycle started: not kept.
    if (!cut) m_root_memo[v] = r;
    cycle |= cut && !r;
    return r;
}

const Var* LaunchOrder::pypto_root(const Expr* e) {
    bool cycle = false;
    return root_of(e, 0, cycle);
}

bool LaunchOrder::exclusive_arms(const ManualLaunch& a, const ManualLaunch& b) {
    bool x = false;
    for (const auto& [s1, arm1] : a.arms)
        for (const auto& [s2, arm2] : b.arms) x |= s1 == s2 && arm1 != arm2;
    return x;
}

}  // namespace cvsim::launch_detail
