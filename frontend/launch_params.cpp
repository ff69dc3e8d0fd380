// Launch targets and parameters: a launch's kernel and core_num, parameter directions, the parameter returned.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/launch_internal.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

std::optional<int64_t> launch_core_num(const Expr& call) {
    const ExprPtr* v = core_num_attr(call);
    if (!v) return std::nullopt;
    auto n = const_int(*v);
    if (!n) return std::nullopt;
    if (*n < 1 || *n > 4096)
        raise(codes::kUnsupported, (*v)->loc, fmt::format("core_num {}: cvsim launches 1..4096 blocks", *n));
    return *n;
}

LaunchTarget launch_target(const Expr& d) {
    if ((d.sval == "pl.submit" || d.sval == "pl.spmd_submit") && !d.args.empty() && d.args[0] &&
        d.args[0]->ival == kFuncRef)
        return {d.args[0]->sval, 1, true};
    return {d.sval, 0, false};
}

std::vector<ParamDir> effective_dirs(const Program& program, const Function& fn,
                                     std::map<const Function*, std::vector<ParamDir>>& memo, int depth) {
    if (auto it = memo.find(&fn); it != memo.end()) return it->second;
    std::vector<ParamDir> dirs;
    for (const auto& p : fn.params) dirs.push_back(p.dir);
    memo[&fn] = dirs;  // a call back into FN sees what it declares
    if (depth > 16) return dirs;
    std::map<const Var*, size_t> index;
    for (size_t k = 0; k < fn.params.size(); ++k)
        if (fn.params[k].var) index[fn.params[k].var.get()] = k;
    auto rank = [](ParamDir d) { return d == ParamDir::InOut ? 2 : d == ParamDir::Out ? 1 : 0; };
    passes::walk(fn.body, [&](const StmtPtr& s) {
        const Expr* v = s->value.get();
        if (!v || (s->kind != StmtKind::Assign && s->kind != StmtKind::Eval) || v->kind != ExprKind::FuncCall ||
            v->ival == kFuncRef)
            return;
        const LaunchTarget t = launch_target(*v);
        std::shared_ptr<Function> callee = program.find(t.kernel);
        if (!callee || callee.get() == &fn) return;
        const std::vector<ParamDir> cd = effective_dirs(program, *callee, memo, depth + 1);
        for (size_t a = t.first; a < v->args.size(); ++a) {
            const Expr* x = v->args[a].get();
            if (x && x->kind == ExprKind::FuncCall && x->sval == "pl.no_dep" && !x->args.empty()) x = x->args[0].get();
            if (!x || x->kind != ExprKind::Var || !x->var) continue;
            auto it = index.find(x->var.get());
            if (it == index.end() || a - t.first >= cd.size()) continue;
            if (rank(cd[a - t.first]) > rank(dirs[it->second])) dirs[it->second] = cd[a - t.first];
        }
    });
    memo[&fn] = dirs;
    return dirs;
}

namespace {

// Which parameter of FN a value of FN is (see returned_param): -1 none or not known, -2 only a cycle (a loop's
// carried value that nothing else reaches).
class ParamResolver {
  public:
    ParamResolver(const Program* prog, const Function& fn, int depth) : m_prog(prog), m_fn(fn), m_depth(depth) {
        std::function<void(const Block&, const Stmt*)> scan = [&](const Block& body, const Stmt* owner) {
            for (const auto& st : body) {
                if (st->kind == StmtKind::Assign && st->value)
                    for (size_t k = 0; k < st->targets.size(); ++k)
                        m_defs[st->targets[k].get()].push_back(
                            {st->value.get(), st->targets.size() > 1 ? static_cast<int>(k) : -1});
                if (st->kind == StmtKind::For) {
                    for (size_t k = 0; k < st->iter_args.size() && k < st->init_values.size(); ++k)
                        m_flows[st->iter_args[k].get()].push_back(st->init_values[k].get());
                    for (size_t k = 0; k < st->targets.size() && k < st->iter_args.size(); ++k)
                        m_links[st->targets[k].get()].push_back(st->iter_args[k].get());
                    scan(st->body, st.get());
                } else if (st->kind == StmtKind::If) {
                    scan(st->body, st.get());
                    scan(st->orelse, st.get());
                } else if (st->kind == StmtKind::Yield) {
                    for (size_t k = 0; k < st->values.size(); ++k) {
                        if (k < st->targets.size()) m_flows[st->targets[k].get()].push_back(st->values[k].get());
                        if (!owner) continue;
                        const auto& to = owner->kind == StmtKind::For ? owner->iter_args : owner->targets;
                        if (k < to.size()) m_flows[to[k].get()].push_back(st->values[k].get());
                    }
                }
            }
        };
        scan(fn.body, nullptr);
    }

    int64_t of_expr(const Expr* e) {
        if (!e || ++m_steps > 20000) return -1;
        if (e->kind == ExprKind::Var) return of_var(e->var.get());
        if (e->kind == ExprKind::Index && !e->args.empty() && e->args[0] && e->args[0]->kind == ExprKind::Var) {
            // `ret[k]` of a launch's result assigned once: the argument the callee returns at k.
            auto it = m_defs.find(e->args[0]->var.get());
            if (it == m_defs.end() || it->second.size() != 1 || m_flows.count(e->args[0]->var.get())) return -1;
            const Expr* d = it->second[0].first;
            if (!d || d->kind != ExprKind::FuncCall || d->ival == kFuncRef) return -1;
            return call_param(d, static_cast<size_t>(std::max<int64_t>(e->ival, 0)));
        }
        return -1;
    }

  private:
    int64_t of_var(const Var* v) {
        for (size_t i = 0; i < m_fn.params.size(); ++i)
            if (m_fn.params[i].var.get() == v) {
                // Rebound only by stores into itself (`y = pl.store(t, offs, y)`): still the parameter's bytes.
                if (m_flows.count(v) || m_links.count(v)) return -1;
                auto it = m_defs.find(v);
                if (it != m_defs.end())
                    for (const auto& [dv, k] : it->second) {
                        const ExprPtr* out = dv && dv->kind == ExprKind::Call && dv->op &&
                                                     (dv->op->code == OpCode::Store || dv->op->code == OpCode::Mscatter)
                                                 ? &arg(*dv, "output_tensor")
                                                 : nullptr;
                        if (!out || !*out || (*out)->kind != ExprKind::Var || (*out)->var.get() != v) return -1;
                    }
                return static_cast<int64_t>(i);
            }
        if (!m_active.insert(v).second) return -2;
        struct Pop {
            std::set<const Var*>& active;
            const Var* v;
            ~Pop() { active.erase(v); }
        } pop{m_active, v};
        int64_t r = -2;
        bool any = false;
        auto meet = [&](int64_t x) {
            any = true;
            if (x == -2 || r == -1) return;
            r = r == -2 ? x : (r == x ? r : -1);
        };
        if (auto it = m_defs.find(v); it != m_defs.end())
            for (const auto& [d, k] : it->second) {
                if (!d) {
                    meet(-1);
                } else if (d->kind == ExprKind::Var || d->kind == ExprKind::Index) {
                    meet(of_expr(d));
                } else if (d->kind == ExprKind::Call && d->op &&
                           (d->op->code == OpCode::Store || d->op->code == OpCode::Mscatter)) {
                    meet(of_expr(arg(*d, "output_tensor").get()));
                } else if (d->kind == ExprKind::FuncCall && d->ival != kFuncRef) {
                    meet(call_param(d, k < 0 ? 0 : static_cast<size_t>(k)));
                } else {
                    meet(-1);
                }
            }
        if (auto it = m_flows.find(v); it != m_flows.end())
            for (const Expr* x : it->second) meet(of_expr(x));
        if (auto it = m_links.find(v); it != m_links.end())
            for (const Var* w : it->second) meet(of_var(w));
        return any ? r : -1;
    }

    // The argument of the launch D that its callee returns at INDEX, as a parameter of FN.
    int64_t call_param(const Expr* d, size_t index) {
        const LaunchTarget t = launch_target(*d);
        const size_t first = t.first;
        auto callee = m_prog ? m_prog->find(t.kernel) : nullptr;
        if (!callee || callee.get() == &m_fn) return -1;
        auto k = returned_param(m_prog, *callee, index, m_depth + 1);
        if (!k || *k + first >= d->args.size()) return -1;
        return of_expr(d->args[*k + first].get());
    }

    const Program* m_prog;
    const Function& m_fn;
    int m_depth;
    std::map<const Var*, std::vector<std::pair<const Expr*, int>>> m_defs;  // assignments (value, unpack index)
    std::map<const Var*, std::vector<const Expr*>> m_flows;  // a loop's carried value / a branch's result: its inputs
    std::map<const Var*, std::vector<const Var*>> m_links;   // a loop's result: its carried value
    std::set<const Var*> m_active;
    int m_steps = 0;
};
}  // namespace

std::optional<size_t> returned_param(const Program* prog, const Function& fn, size_t index, int depth) {
    if (depth > 16) return std::nullopt;
    const Stmt* ret = nullptr;
    int returns = 0;
    passes::walk(fn.body, [&](const StmtPtr& st) {
        if (st->kind == StmtKind::Return) {
            ++returns;
            ret = st.get();
        }
    });
    if (returns != 1 || !ret || fn.body.empty() || fn.body.back().get() != ret) return std::nullopt;
    const Expr* e = index < ret->values.size() ? ret->values[index].get() : nullptr;
    if (ret->values.size() == 1 && index > 0) e = nullptr;
    if (!e) return std::nullopt;
    ParamResolver r(prog, fn, depth);
    const int64_t p = r.of_expr(e);
    if (p < 0) return std::nullopt;
    return static_cast<size_t>(p);
}

std::optional<std::vector<int64_t>> const_ints(const ExprPtr& l) {
    if (!l || (l->kind != ExprKind::List && l->kind != ExprKind::Tuple)) return std::nullopt;
    std::vector<int64_t> r;
    for (const auto& x : l->args) {
        auto c = const_int(x);
        if (!c) return std::nullopt;
        r.push_back(*c);
    }
    return r;
}

}  // namespace cvsim::launch_detail
