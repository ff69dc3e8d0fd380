// Branch results of a split lane as upstream finalises them: see branch_results.h.
#include "frontend/passes/branch_results.h"

#include <map>
#include <vector>

#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;

namespace {

using VarSet = std::set<const Var*>;

// The parameter each GM-tensor version of F derives from (upstream's BuildGmOriginMap).
class OriginWalk {
  public:
    explicit OriginWalk(const Function& f) : m_f(f) {}

    // The parameter each GM-tensor version derives from: a copy takes its source's, a store's result (and a
    // scatter's) its destination's, a carried value its init's when the body yields the same tensor back, a
    // branch result the one both arms yield. Twice, so that a carry found inconsistent poisons what the first
    // round derived from it.
    GmOrigins run() {
        VarSet poisoned;
        for (int round = 0; round < 2; ++round) {
            m_origin.clear();
            for (const auto& p : m_f.params)
                if (is_tensor(*p.var)) m_origin[p.var.get()] = p.var;
            bool again = false;
            origins(m_f.body, poisoned, again);
            if (!again) break;
        }
        return std::move(m_origin);
    }

    void origins(const Block& b, VarSet& poisoned, bool& again) {
        for (const auto& sp : b) {
            const Stmt& s = *sp;
            if (s.kind == StmtKind::Assign && s.targets.size() == 1 && is_tensor(*s.targets[0]) && s.value) {
                VarPtr o;
                if (s.value->kind == ExprKind::Var)
                    o = origin_of(s.value);
                else if (is_call(s, OpCode::Store) || is_call(s, OpCode::Mscatter))
                    o = origin_of(arg(*stmt_call(s), "output_tensor"));
                if (o) m_origin[s.targets[0].get()] = o;
            } else if (s.kind == StmtKind::For) {
                for (size_t k = 0; k < s.iter_args.size() && k < s.init_values.size(); ++k)
                    if (is_tensor(*s.iter_args[k]) && !poisoned.count(s.iter_args[k].get()))
                        if (VarPtr o = origin_of(s.init_values[k])) m_origin[s.iter_args[k].get()] = o;
                origins(s.body, poisoned, again);
                const Stmt* y = trailing_yield(s.body);
                for (size_t k = 0; k < s.iter_args.size(); ++k) {
                    VarPtr o = origin_of(var_ref(s.iter_args[k]));
                    if (!o) continue;
                    if (!y || k >= y->values.size() || origin_of(y->values[k]) != o) {
                        poisoned.insert(s.iter_args[k].get());
                        again = true;
                        continue;
                    }
                    if (k < s.targets.size()) m_origin[s.targets[k].get()] = o;
                }
            } else if (s.kind == StmtKind::If) {
                origins(s.body, poisoned, again);
                origins(s.orelse, poisoned, again);
                const Stmt* yt = trailing_yield(s.body);
                const Stmt* ye = trailing_yield(s.orelse);
                for (size_t k = 0; k < s.targets.size(); ++k) {
                    if (!is_tensor(*s.targets[k]) || !yt || !ye || k >= yt->values.size() || k >= ye->values.size())
                        continue;
                    VarPtr a = origin_of(yt->values[k]), c = origin_of(ye->values[k]);
                    if (a && a == c) m_origin[s.targets[k].get()] = a;
                }
            }
        }
    }

  private:
    const Function& m_f;
    GmOrigins m_origin;

    static bool is_tensor(const Var& v) { return v.type.kind == TypeKind::Tensor; }
    static const Stmt* trailing_yield(const Block& b) {
        return !b.empty() && b.back()->kind == StmtKind::Yield ? b.back().get() : nullptr;
    }
    VarPtr origin_of(const ExprPtr& e) const {
        if (!e || e->kind != ExprKind::Var) return nullptr;
        auto it = m_origin.find(e->var.get());
        return it == m_origin.end() ? nullptr : it->second;
    }
};

class BranchResults {
  public:
    BranchResults(Function& f, const VarSet& copies, const GmOrigins& origins)
        : m_f(f), m_copies(copies), m_origin(origins) {}

    bool run() {
        walk(m_f.body, [&](const StmtPtr& s) {
            if (s->kind == StmtKind::For)
                for (const auto& v : s->iter_args) m_iter_args.insert(v.get());
        });
        fixup(m_f.body);
        VarSet outer;
        strip(m_f.body, outer);
        remap_undefined();
        if (m_subst.empty()) return m_changed;
        // Uses of a dropped result name the parameter it is a version of.
        for (auto& s : m_f.body) rewrite(*s);
        return true;
    }

  private:
    Function& m_f;
    const VarSet& m_copies;
    const GmOrigins& m_origin;             // GM-tensor variable -> the tensor parameter it is a version of
    VarSet m_iter_args;                    // every loop-carried variable of the function
    std::map<const Var*, VarPtr> m_subst;  // dropped branch result -> its parameter
    bool m_changed = false;

    static bool is_tensor(const Var& v) { return v.type.kind == TypeKind::Tensor; }

    static const Stmt* trailing_yield(const Block& b) {
        return !b.empty() && b.back()->kind == StmtKind::Yield ? b.back().get() : nullptr;
    }

    VarPtr origin_of(const ExprPtr& e) const {
        if (!e || e->kind != ExprKind::Var) return nullptr;
        auto it = m_origin.find(e->var.get());
        return it == m_origin.end() ? nullptr : it->second;
    }

    // Every binding of S, nested ones included (upstream's VarDefUseCollector), but cvsim's copies.
    void defs_of(const Stmt& s, VarSet& out) const {
        auto add = [&](const VarPtr& v) {
            if (v && !m_copies.count(v.get())) out.insert(v.get());
        };
        if (s.kind != StmtKind::Yield)
            for (const auto& t : s.targets) add(t);
        add(s.loop_var);
        for (const auto& v : s.iter_args) add(v);
        for (const auto& x : s.body) defs_of(*x, out);
        for (const auto& x : s.orelse) defs_of(*x, out);
    }

    // The names a block's statements make visible after them (upstream's CollectAllDefsInStmts).
    void top_defs(const Block& b, VarSet& out) const {
        for (const auto& s : b)
            if (s->kind == StmtKind::Assign || s->kind == StmtKind::For || s->kind == StmtKind::If)
                for (const auto& t : s->targets)
                    if (!m_copies.count(t.get())) out.insert(t.get());
    }

    static bool all_defined(const ExprPtr& e, const VarSet& defined) {
        bool ok = true;
        for_each_var(e, [&](const VarPtr& v) {
            if (!defined.count(v.get())) ok = false;
        });
        return ok;
    }

    // FixupDanglingYieldValues: in a loop with carried values, a yield (the loop's own, or of a branch in it)
    // whose value names something undefined takes the carried value of its slot instead.
    void fixup(Block& b) {
        VarSet so_far;
        for (auto& sp : b) {
            Stmt& s = *sp;
            if (s.kind == StmtKind::For && !s.iter_args.empty()) {
                VarSet all = so_far;
                for (const auto& x : s.body) defs_of(*x, all);
                for (const auto& v : s.iter_args) all.insert(v.get());
                fixup(s.body);
                fix_scope(s.body, s.iter_args, all);
            } else if (s.kind == StmtKind::If) {
                fixup(s.body);
                fixup(s.orelse);
            }
            defs_of(s, so_far);
        }
    }

    void fix_scope(Block& b, const std::vector<VarPtr>& carriers, const VarSet& defined) {
        for (auto& sp : b) {
            Stmt& s = *sp;
            if (s.kind == StmtKind::If) {
                // A slot's carrier in a branch: the carried value an arm yields there (both arms alike).
                std::vector<VarPtr> slots(s.targets.size());
                std::vector<bool> conflict(s.targets.size(), false);
                for (const Block* arm : {&s.body, &s.orelse})
                    if (const Stmt* y = trailing_yield(*arm))
                        for (size_t i = 0; i < slots.size() && i < y->values.size(); ++i) {
                            const ExprPtr& v = y->values[i];
                            if (!v || v->kind != ExprKind::Var || !m_iter_args.count(v->var.get())) continue;
                            if (!slots[i])
                                slots[i] = v->var;
                            else if (slots[i] != v->var)
                                conflict[i] = true;
                        }
                for (size_t i = 0; i < slots.size(); ++i)
                    if (conflict[i]) slots[i] = nullptr;
                fix_scope(s.body, slots, defined);
                fix_scope(s.orelse, slots, defined);
            } else if (s.kind == StmtKind::Yield) {
                for (size_t i = 0; i < s.values.size() && i < carriers.size(); ++i) {
                    const VarPtr& c = carriers[i];
                    if (!c || all_defined(s.values[i], defined)) continue;
                    // Only a version of the same tensor: the replacement must name what the value named.
                    VarPtr o = origin_of(s.values[i]);
                    if (!o || o != origin_of(var_ref(c))) continue;
                    s.values[i] = var_ref(c, s.loc);
                    m_changed = true;
                }
            }
        }
    }

    // StripDanglingIfReturnVars, for GM-tensor results with a parameter as origin.
    void strip(Block& b, VarSet& outer) {
        for (auto& sp : b) {
            Stmt& s = *sp;
            if (s.kind == StmtKind::If) {
                VarSet t_in = outer, e_in = outer;
                strip(s.body, t_in);
                strip(s.orelse, e_in);
                VarSet then_defs = outer, else_defs = outer;
                top_defs(s.body, then_defs);
                top_defs(s.orelse, else_defs);
                for (size_t i = s.targets.size(); i-- > 0;) {
                    bool dangling = false;
                    for (auto [arm, defs] : {std::pair{&s.body, &then_defs}, std::pair{&s.orelse, &else_defs}}) {
                        const Stmt* y = trailing_yield(*arm);
                        if (y && i < y->values.size() && !all_defined(y->values[i], *defs)) dangling = true;
                    }
                    if (!dangling || !is_tensor(*s.targets[i])) continue;
                    auto it = m_origin.find(s.targets[i].get());
                    if (it == m_origin.end()) continue;
                    m_subst[s.targets[i].get()] = it->second;
                    for (Block* arm : {&s.body, &s.orelse}) {
                        if (!trailing_yield(*arm)) continue;
                        Stmt& y = *arm->back();
                        if (i < y.values.size()) y.values.erase(y.values.begin() + static_cast<std::ptrdiff_t>(i));
                        if (i < y.targets.size()) y.targets.erase(y.targets.begin() + static_cast<std::ptrdiff_t>(i));
                        if (y.values.empty()) arm->pop_back();
                    }
                    s.targets.erase(s.targets.begin() + static_cast<std::ptrdiff_t>(i));
                }
            } else if (s.kind == StmtKind::For) {
                VarSet inner = outer;
                if (s.loop_var) inner.insert(s.loop_var.get());
                for (const auto& v : s.iter_args) inner.insert(v.get());
                strip(s.body, inner);
            }
            defs_of(s, outer);
        }
    }

    // RemapDanglingGmRefsToParam: a GM-tensor version the lane reads but never binds (the other lane's loop or
    // branch that produced it is not in this lane) names its parameter.
    void remap_undefined() {
        VarSet bound;
        for (const auto& p : m_f.params) bound.insert(p.var.get());
        walk(m_f.body, [&](const StmtPtr& s) {
            for (const auto& t : s->targets) bound.insert(t.get());
            for (const auto& t : s->iter_args) bound.insert(t.get());
            if (s->loop_var) bound.insert(s->loop_var.get());
        });
        walk(m_f.body, [&](const StmtPtr& s) {
            std::set<const Var*> reads;
            Stmt shallow = *s;
            shallow.body.clear();
            shallow.orelse.clear();
            collect_reads(shallow, reads);
            for (const Var* v : reads) {
                if (bound.count(v) || m_subst.count(v)) continue;
                auto it = m_origin.find(v);
                if (it != m_origin.end()) m_subst[v] = it->second;
            }
        });
    }

    ExprPtr rewritten(const ExprPtr& e) {
        if (!e) return e;
        if (e->kind == ExprKind::Var) {
            auto it = m_subst.find(e->var.get());
            return it == m_subst.end() ? e : var_ref(it->second, e->loc);
        }
        bool any = false;
        std::vector<ExprPtr> args(e->args.size()), args2(e->args2.size());
        for (size_t i = 0; i < e->args.size(); ++i) any |= (args[i] = rewritten(e->args[i])) != e->args[i];
        for (size_t i = 0; i < e->args2.size(); ++i) any |= (args2[i] = rewritten(e->args2[i])) != e->args2[i];
        if (!any) return e;
        auto n = std::make_shared<Expr>(*e);
        n->args = std::move(args);
        n->args2 = std::move(args2);
        return n;
    }

    void rewrite(Stmt& s) {
        for (ExprPtr* e : {&s.value, &s.start, &s.stop, &s.step}) *e = rewritten(*e);
        for (auto& e : s.values) e = rewritten(e);
        for (auto& e : s.init_values) e = rewritten(e);
        for (auto& x : s.body) rewrite(*x);
        for (auto& x : s.orelse) rewrite(*x);
    }
};

}  // namespace

GmOrigins gm_origins(const Function& f) {
    return OriginWalk(f).run();
}

bool strip_dangling_branch_results(Function& f, const std::set<const Var*>& copy_defs, const GmOrigins& origins) {
    return BranchResults(f, copy_defs, origins).run();
}

}  // namespace cvsim::passes
