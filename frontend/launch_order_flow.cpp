// LaunchOrder, the task-id tokens each value surely carries, followed in program order (eval, flow).
#include "frontend/launch_order.h"

#include <algorithm>
#include <iterator>

#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

LaunchOrder::TokVal LaunchOrder::eval(const Expr* x) {
    if (!x) return {};
    if (x->kind == ExprKind::Var && x->var) {
        if (defined_twice(x->var.get())) return {};
        auto it = m_vals.find(x->var.get());
        return it == m_vals.end() ? TokVal{} : it->second;
    }
    if (x->kind == ExprKind::FuncCall && x->sval == "pl.array.create") return {};
    if (x->kind == ExprKind::FuncCall && x->sval == "pl.array.update_element" && x->args.size() >= 3) {
        TokVal a = eval(x->args[0].get());
        const Tokens v = whole(eval(x->args[2].get()));
        a.s.clear();  // (an element it named may be the one replaced)
        const auto where = index_values(x->args[1].get(), 0);
        if (where && where->size() == 1) {
            a.at[*where->begin()] = v;
        } else {
            // (an element the index may name keeps what both values surely carry)
            for (auto it = a.at.begin(); it != a.at.end();) {
                if (!where || where->count(it->first)) it->second = meet(it->second, v);
                it = it->second.empty() ? a.at.erase(it) : std::next(it);
            }
        }
        return a;
    }
    if (x->kind == ExprKind::FuncCall && x->sval == "pl.array.get_element" && x->args.size() >= 2) {
        // (at an index that may take several values: what every element it may name surely carries)
        const TokVal a = eval(x->args[0].get());
        const auto where = index_values(x->args[1].get(), 0);
        if (!where || where->empty()) return {};
        std::optional<Tokens> r;
        for (int64_t e : *where) {
            auto it = a.at.find(e);
            static const Tokens none;
            r = r ? meet(*r, it == a.at.end() ? none : it->second) : it == a.at.end() ? none : it->second;
        }
        // Elements holding different launches (not in every element): which one orders the reader depends on
        // the reader's iteration (a select token, resolved per instance pair in apart()).
        if (where->size() > 1) {
            std::map<int64_t, std::set<size_t>> elems;
            for (int64_t e : *where)
                if (auto it = a.at.find(e); it != a.at.end())
                    for (size_t t : it->second)
                        if (!r->count(t) && (t < m_n_launch || (is_inst(t) && !m_token_of[t - m_n_launch].at &&
                                                                m_token_of[t - m_n_launch].e == e)))
                            elems[e].insert(t);
            if (!elems.empty()) r->insert(sel_token(x->args[1].get(), std::move(elems)));
        }
        // A filled array read at an index of the reader's loops: the launch at the iteration that stored
        // that element, whichever it is (when every element the index may name holds that fill's instance).
        if (where->size() > 1) {
            std::set<std::pair<size_t, size_t>> common;
            bool first = true;
            for (int64_t e : *where) {
                std::set<std::pair<size_t, size_t>> here;
                if (a.at.count(e))
                    for (size_t t : a.at.at(e))
                        if (is_inst(t) && !m_token_of[t - m_n_launch].at && m_token_of[t - m_n_launch].e == e)
                            here.emplace(m_token_of[t - m_n_launch].launch, m_token_of[t - m_n_launch].fill);
                if (first)
                    common = std::move(here);
                else
                    std::erase_if(common, [&](const auto& c) { return !here.count(c); });
                first = false;
            }
            for (const auto& [lx, fi] : common) r->insert(sym_token(lx, fi, x->args[1].get()));
        }
        return TokVal{*r, {}};
    }
    TokVal r;
    if (auto it = m_launch_of.find(x); it != m_launch_of.end()) {
        Tokens deps;
        if (x->attrs)
            for (size_t k = 0; k < x->attrs->args.size() && k < x->attrs->args2.size(); ++k)
                if (x->attrs->args[k]->sval == "deps") {
                    const Tokens d = whole(eval(x->attrs->args2[k].get()));
                    deps.insert(d.begin(), d.end());
                }
        r.s = deps;
        r.s.insert(it->second);
        m_launch_deps[it->second] = std::move(deps);
        return r;
    }
    for (const auto& a : x->args) {
        const Tokens t = whole(eval(a.get()));
        r.s.insert(t.begin(), t.end());
    }
    for (const auto& a : x->args2) {
        const Tokens t = whole(eval(a.get()));
        r.s.insert(t.begin(), t.end());
    }
    const Tokens t = whole(eval(x->attrs.get()));
    r.s.insert(t.begin(), t.end());
    return r;
}

// The tokens of element E of a filled array: the fill's launches in its innermost loop at the iteration that
// stored E, what the task id holds from outside the nest; nothing of the nest's own carried values.
void LaunchOrder::acc_fill(size_t fi, int64_t e, Tokens& acc) {
    const Fill& f = m_fills[fi];
    for (size_t x : whole(eval(f.tid))) {
        if (is_cond(x)) {
            // (a launch of the nest, where it ran: at another iteration than the one that stored the element)
            const auto& ls = m_launches[m_token_of[x - m_n_launch].launch].loops;
            if (std::find(ls.begin(), ls.end(), f.nest.front()) == ls.end()) acc.insert(x);
        } else if (x < m_n_launch) {
            const auto& ls = m_launches[x].loops;
            if (ls.size() >= f.nest.size() && std::equal(f.nest.begin(), f.nest.end(), ls.end() - f.nest.size()))
                acc.insert(inst_token(x, fi, e));
            else if (std::find(ls.begin(), ls.end(), f.nest.front()) == ls.end())
                acc.insert(x);
        } else if (!is_inst(x) && !is_sel(x) && std::none_of(f.nest.begin(), f.nest.end(), [&](const Stmt* l) {
                       return std::any_of(l->iter_args.begin(), l->iter_args.end(),
                                          [&](const VarPtr& v) { return v.get() == m_token_of[x - m_n_launch].var; });
                   })) {
            acc.insert(x);
        }
    }
}

// A launch that runs only in arm ARM of BRANCH (in no loop inside it) and that ARM_VAL, the arm's value, surely
// holds (or holds where it ran): where that launch ran, the arm was taken and the branch's value is ARM_VAL, so
// TO, the branch's value, holds it where it ran (a cond token; docs/DECISIONS.md, "A task id out of one arm of a
// branch").
void LaunchOrder::add_conds(TokVal& to, const TokVal& arm_val, const Stmt* branch, int arm) {
    const size_t depth = m_if_depth.at(branch);
    auto conds = [&](const Tokens& in, Tokens& out) {
        for (size_t t : in) {
            if (t >= m_n_launch && !is_cond(t)) continue;
            const size_t x = t < m_n_launch ? t : m_token_of[t - m_n_launch].launch;
            const ManualLaunch& m = m_launches[x];
            if (m.loops.size() != depth ||
                std::find(m.arms.begin(), m.arms.end(), std::make_pair(branch, arm)) == m.arms.end())
                continue;
            out.insert(cond_token(x));
        }
    };
    conds(arm_val.s, to.s);
    for (const auto& [e, t] : arm_val.at) {
        Tokens c;
        conds(t, c);
        if (!c.empty()) to.at[e].insert(c.begin(), c.end());
    }
}

void LaunchOrder::forget_assigned(const Block& b) {
    for (const auto& st : b) {
        if (st->kind == StmtKind::Assign)
            for (const auto& t : st->targets)
                if (t) m_vals.erase(t.get());
        forget_assigned(st->body);
        forget_assigned(st->orelse);
    }
}

void LaunchOrder::flow(const Block& body) {
    for (const auto& s : body) {
        ++m_work;
        if (s->kind == StmtKind::Assign && s->value) {
            const TokVal v = eval(s->value.get());
            if (s->targets.size() == 1) {
                if (s->targets[0]) m_vals[s->targets[0].get()] = v;
            } else {
                for (const auto& t : s->targets)
                    if (t) m_vals[t.get()] = TokVal{whole(v), {}};
            }
        } else if (s->kind == StmtKind::Eval && s->value) {
            eval(s->value.get());
        } else if (s->kind == StmtKind::For) {
            const size_t n_ia = s->iter_args.size();
            std::vector<TokVal> init(n_ia), must(n_ia), y(n_ia);
            for (size_t k = 0; k < n_ia && k < s->init_values.size(); ++k) init[k] = eval(s->init_values[k].get());
            const Stmt* ys = last_yield(s->body);
            // Its own carried tokens stand for what they surely hold at every iteration.
            auto own_of = [&](size_t t) -> std::optional<std::pair<size_t, int64_t>> {
                if (!is_carry(t)) return std::nullopt;
                const Token& tk = m_token_of[t - m_n_launch];
                for (size_t q = 0; q < n_ia; ++q)
                    if (s->iter_args[q].get() == tk.var) return std::make_pair(q, tk.e);
                return std::nullopt;
            };
            auto expand = [&](const Tokens& in, const std::vector<TokVal>& m) {
                Tokens r;
                for (size_t t : in) {
                    if (auto o = own_of(t)) {
                        const TokVal& mv = m[o->first];
                        const Tokens* part = &mv.s;
                        if (o->second != kWhole) {
                            auto it = mv.at.find(o->second);
                            static const Tokens none;
                            part = it == mv.at.end() ? &none : &it->second;
                        }
                        r.insert(part->begin(), part->end());
                    } else {
                        r.insert(t);
                    }
                }
                return r;
            };
            auto expand_val = [&](const TokVal& v, const std::vector<TokVal>& m) {
                TokVal r{expand(v.s, m), {}};
                for (const auto& [e, t] : v.at)
                    if (Tokens x = expand(t, m); !x.empty()) r.at[e] = std::move(x);
                return r;
            };
            // The greatest M <= init with M[k] <= what the body yields through k (with M for its own carried
            // tokens), from the top down; at most 16 rounds, then nothing sure.
            must = init;
            for (int round = m_work > kWorkBudget ? 16 : 0; round <= 16; ++round) {
                if (round == 16 || m_work > kWorkBudget) {
                    round = 16;
                    must.assign(n_ia, TokVal{});
                }
                for (size_t k = 0; k < n_ia; ++k) {
                    if (!s->iter_args[k]) continue;
                    const Var* ia = s->iter_args[k].get();
                    TokVal v = must[k];
                    v.s.insert(carry_token(ia, kWhole));
                    std::set<int64_t> keys;
                    for (const auto& [e, t] : init[k].at) keys.insert(e);
                    for (const auto& [e, t] : y[k].at) keys.insert(e);
                    for (int64_t e : keys) v.at[e].insert(carry_token(ia, e));
                    m_vals[ia] = std::move(v);
                }
                // (a value of the body read before it is assigned there: not the last round's)
                forget_assigned(s->body);
                flow(s->body);
                for (size_t k = 0; k < n_ia; ++k)
                    y[k] = ys && k < ys->values.size() ? eval(ys->values[k].get()) : TokVal{};
                if (round == 16) break;
                std::vector<TokVal> next(n_ia);
                for (size_t k = 0; k < n_ia; ++k) next[k] = meet_val(init[k], expand_val(y[k], must));
                // (a key the yield added changes the carried value's elements: one more round)
                bool keys_same = true;
                for (size_t k = 0; k < n_ia && keys_same; ++k)
                    for (const auto& [e, t] : y[k].at)
                        keys_same &= m_vals[s->iter_args[k].get()].at.count(e) > 0 || !s->iter_args[k];
                if (next == must && keys_same) break;
                must = std::move(next);
            }
            for (size_t k = 0; k < n_ia; ++k) {
                if (!s->iter_args[k]) continue;
                const Var* ia = s->iter_args[k].get();
                m_yielded[carry_token(ia, kWhole)] = whole(y[k]);
                for (const auto& [e, t] : y[k].at) m_yielded[carry_token(ia, e)] = t;
            }
            const bool runs = passes::runs_at_least_once(*s);
            // (an element read at an index of this loop or one inside it: out of the loop, not known)
            auto local = [&](size_t t) {
                if (!(is_inst(t) || is_sel(t)) || !m_token_of[t - m_n_launch].at) return false;
                for (const Stmt* l : index_loops(m_token_of[t - m_n_launch].at)) {
                    if (!l || l == s.get()) return true;
                    const auto& enc = m_enclosing[l];
                    if (std::find(enc.begin(), enc.end(), s.get()) != enc.end()) return true;
                }
                return false;
            };
            for (size_t k = 0; k < n_ia; ++k) {
                TokVal res = expand_val(y[k], must);
                if (!runs) res = meet_val(res, init[k]);
                std::erase_if(res.s, local);
                for (auto& [e, t] : res.at) std::erase_if(t, local);
                if (auto fi = fill_nest(s.get(), k))
                    for (int64_t e : m_fills[*fi].image) {
                        Tokens t;
                        acc_fill(*fi, e, t);
                        res.at[e] = std::move(t);
                    }
                if (k < s->targets.size() && s->targets[k]) m_vals[s->targets[k].get()] = res;
                if (ys && k < ys->targets.size() && ys->targets[k]) m_vals[ys->targets[k].get()] = res;
            }
            // (a value assigned in the body and used after it: the last iteration's, when one surely ran)
            if (!runs) forget_assigned(s->body);
        } else if (s->kind == StmtKind::If) {
            // (each arm sees what was before the branch, not what the other arm assigned)
            const Stmt* y1 = last_yield(s->body);
            const Stmt* y2 = last_yield(s->orelse);
            forget_assigned(s->body);
            flow(s->body);
            std::vector<TokVal> v1(s->targets.size()), v2(s->targets.size());
            for (size_t k = 0; k < s->targets.size(); ++k)
                if (y1 && k < y1->values.size()) v1[k] = eval(y1->values[k].get());
            forget_assigned(s->body);
            forget_assigned(s->orelse);
            flow(s->orelse);
            for (size_t k = 0; k < s->targets.size(); ++k)
                if (y2 && k < y2->values.size()) v2[k] = eval(y2->values[k].get());
            // A branch's value holds a task id only when both arms yield it (a dependency on one path is
            // none on the other: deps= of a value that may be task_invalid orders nothing sure), and, where it
            // ran, a launch of one arm that arm's value holds (where it ran, that arm was taken).
            for (size_t k = 0; k < s->targets.size(); ++k) {
                const TokVal& a1 = v1[k];
                const TokVal& a2 = v2[k];
                TokVal both = y1 && y2 ? meet_val(a1, a2) : y1 ? a1 : a2;
                if (y1 && y2) {
                    add_conds(both, a1, s.get(), 0);
                    add_conds(both, a2, s.get(), 1);
                }
                if (s->targets[k]) m_vals[s->targets[k].get()] = both;
                for (const Stmt* yy : {y1, y2})
                    if (yy && k < yy->targets.size() && yy->targets[k] && yy->targets[k] != s->targets[k])
                        m_vals[yy->targets[k].get()] = both;
            }
            // (a value assigned in an arm and used after the branch, not through its results: on the other
            // path it is not that value)
            forget_assigned(s->body);
            forget_assigned(s->orelse);
        }
    }
}

}  // namespace cvsim::launch_detail
