// LaunchOrder, indices and task-id tokens: index values, loop ranges, arrays filled per iteration, token ids.
#include "frontend/launch_order.h"

#include <algorithm>
#include <iterator>
#include <string>

namespace cvsim::launch_detail {

// An index at one iteration (BOUND: the nest's loop indices; other single assignments followed).
// (each top-level evaluation visits at most 4096 expressions: shared subexpressions are not memoised)
std::optional<int64_t> LaunchOrder::index_at(const Expr* x, const std::map<const Var*, int64_t>& bound, int depth) {
    if (depth == 0) m_index_steps = 0;
    if (!x || depth > 32 || ++m_index_steps > 4096) return std::nullopt;
    if (x->kind == ExprKind::Int) return x->ival;
    if (x->kind == ExprKind::Var && x->var) {
        if (m_rebound.count(x->var.get())) return std::nullopt;
        if (auto it = bound.find(x->var.get()); it != bound.end()) return it->second;
        auto d = m_token_def.find(x->var.get());
        if (d == m_token_def.end() || m_token_multi.count(x->var.get())) return std::nullopt;
        return index_at(d->second, bound, depth + 1);
    }
    if (x->kind == ExprKind::FuncCall && x->sval == "pl.cast" && !x->args.empty())
        return index_at(x->args[0].get(), bound, depth + 1);
    std::string op;
    if (x->kind == ExprKind::Binary && x->args.size() == 2) op = x->sval;
    if (x->kind == ExprKind::FuncCall && (x->sval == "pl.min" || x->sval == "pl.max") && x->args.size() == 2)
        op = x->sval;
    if (op.empty()) return std::nullopt;
    auto p = index_at(x->args[0].get(), bound, depth + 1);
    auto q = index_at(x->args[1].get(), bound, depth + 1);
    if (!p || !q || std::abs(*p) > (int64_t{1} << 31) || std::abs(*q) > (int64_t{1} << 31)) return std::nullopt;
    if (op == "+") return *p + *q;
    if (op == "-") return *p - *q;
    if (op == "*") return *p * *q;
    if ((op == "//" || op == "%") && *q > 0 && *p >= 0) return op == "//" ? *p / *q : *p % *q;
    if (op == "pl.min" || op == "pl.max") return op == "pl.min" ? std::min(*p, *q) : std::max(*p, *q);
    return std::nullopt;
}

std::optional<LaunchOrder::LoopBounds> LaunchOrder::loop_bounds(const Stmt& f) {
    // (plain ints, not optionals: g++ 12 warns maybe-uninitialized on them)
    const std::map<const Var*, int64_t> none;
    const auto lo = f.start ? index_at(f.start.get(), none, 0) : std::optional<int64_t>(0);
    const auto hi = f.stop ? index_at(f.stop.get(), none, 0) : std::nullopt;
    const auto st = f.step ? index_at(f.step.get(), none, 0) : std::optional<int64_t>(1);
    if (!lo.has_value() || !hi.has_value() || !st.has_value()) return std::nullopt;
    return LoopBounds{lo.value_or(0), hi.value_or(0), st.value_or(1)};
}

// The values a loop's index takes (a positive step; nullopt when not known, none or more than 4096 of them).
std::optional<std::vector<int64_t>> LaunchOrder::loop_vals(const Stmt& f) {
    const auto b = loop_bounds(f);
    if (!b) return std::nullopt;
    const int64_t l = b->lo, h = b->hi, t = b->step;
    if (t <= 0 || h <= l || (h - l - 1) / t >= 4096) return std::nullopt;
    std::vector<int64_t> out;
    for (int64_t x = l; x < h; x += t) out.push_back(x);
    return out;
}

std::optional<size_t> LaunchOrder::fill_nest(const Stmt* loop, size_t k) {
    auto [memo, fresh] = m_fill_of.try_emplace({loop, k});
    if (!fresh) return memo->second;
    Fill f;
    const Stmt* cur = loop;
    size_t ck = k;
    const Expr* update = nullptr;
    for (int depth = 0; depth < 8 && !update; ++depth) {
        if (ck >= cur->iter_args.size() || !cur->iter_args[ck] || !cur->loop_var) return std::nullopt;
        f.nest.push_back(cur);
        const Stmt* y = last_yield(cur->body);
        if (!y || ck >= y->values.size() || !y->values[ck] || y->values[ck]->kind != ExprKind::Var) return std::nullopt;
        const Var* v = y->values[ck]->var.get();
        if (auto d = m_token_def.find(v); d != m_token_def.end() && !m_token_multi.count(v)) {
            // (the update is a statement of this body itself, not of a branch or loop in it)
            if (std::none_of(cur->body.begin(), cur->body.end(), [&](const StmtPtr& st) {
                    return st->kind == StmtKind::Assign && st->targets.size() == 1 && st->targets[0].get() == v;
                }))
                return std::nullopt;
            const Expr* u = d->second;
            if (!u || u->kind != ExprKind::FuncCall || u->sval != "pl.array.update_element" || u->args.size() < 3 ||
                !u->args[0] || u->args[0]->kind != ExprKind::Var || u->args[0]->var != cur->iter_args[ck])
                return std::nullopt;
            update = u;
            break;
        }
        // The carried array goes through a loop of the body (as its initial value) whose result is yielded.
        auto lr = m_loop_result_of.find(v);
        if (lr == m_loop_result_of.end()) return std::nullopt;
        const auto [inner, ik] = lr->second;
        if (std::find_if(cur->body.begin(), cur->body.end(), [&](const StmtPtr& st) { return st.get() == inner; }) ==
                cur->body.end() ||
            ik >= inner->init_values.size() || !inner->init_values[ik] ||
            inner->init_values[ik]->kind != ExprKind::Var || inner->init_values[ik]->var != cur->iter_args[ck])
            return std::nullopt;
        cur = inner;
        ck = ik;
    }
    if (!update) return std::nullopt;
    f.tid = update->args[2].get();
    f.index = update->args[1].get();
    // Every iteration of the nest (at most 4096): a different element each.
    std::vector<std::vector<int64_t>> values;
    size_t points = 1;
    for (const Stmt* l : f.nest) {
        auto v = loop_vals(*l);
        if (!v || v->empty()) return std::nullopt;
        points *= v->size();
        if (points > 4096) return std::nullopt;
        values.push_back(std::move(*v));
    }
    std::vector<size_t> at(f.nest.size(), 0);
    for (size_t p = 0; p < points; ++p) {
        std::map<const Var*, int64_t> bound;
        for (size_t q = 0; q < f.nest.size(); ++q) bound[f.nest[q]->loop_var.get()] = values[q][at[q]];
        auto e = index_at(update->args[1].get(), bound, 0);
        if (!e || !f.image.insert(*e).second) return std::nullopt;
        f.order.push_back(*e);
        for (size_t q = f.nest.size(); q-- > 0;) {
            if (++at[q] < values[q].size()) break;
            at[q] = 0;
        }
    }
    m_fills.push_back(std::move(f));
    memo->second = m_fills.size() - 1;
    return memo->second;
}

size_t LaunchOrder::carry_token(const Var* v, int64_t e) {
    auto [it, fresh] = m_carry_id.emplace(std::make_pair(v, e), m_n_launch + m_token_of.size());
    if (fresh) m_token_of.push_back(Token{true, v, 0, 0, e, nullptr, false, {}, false});
    return it->second;
}

size_t LaunchOrder::inst_token(size_t x, size_t fill, int64_t e) {
    auto [it, fresh] = m_inst_id.emplace(std::make_tuple(x, fill, e), m_n_launch + m_token_of.size());
    if (fresh) m_token_of.push_back(Token{false, nullptr, x, fill, e, nullptr, false, {}, false});
    return it->second;
}

size_t LaunchOrder::sym_token(size_t x, size_t fill, const Expr* at) {
    auto [it, fresh] = m_sym_id.emplace(std::make_tuple(x, fill, at), m_n_launch + m_token_of.size());
    if (fresh) m_token_of.push_back(Token{false, nullptr, x, fill, 0, at, false, {}, false});
    return it->second;
}

size_t LaunchOrder::sel_token(const Expr* at, std::map<int64_t, std::set<size_t>> elems) {
    auto [it, fresh] = m_sel_id.emplace(std::make_pair(at, elems), m_n_launch + m_token_of.size());
    if (fresh) m_token_of.push_back(Token{false, nullptr, 0, 0, 0, at, true, std::move(elems), false});
    return it->second;
}

size_t LaunchOrder::cond_token(size_t x) {
    auto [it, fresh] = m_cond_id.emplace(x, m_n_launch + m_token_of.size());
    if (fresh) m_token_of.push_back(Token{false, nullptr, x, 0, 0, nullptr, false, {}, true});
    return it->second;
}

bool LaunchOrder::is_carry(size_t t) {
    return t >= m_n_launch && m_token_of[t - m_n_launch].carry;
}

bool LaunchOrder::is_inst(size_t t) {
    return t >= m_n_launch && !m_token_of[t - m_n_launch].carry && !m_token_of[t - m_n_launch].select &&
           !m_token_of[t - m_n_launch].cond;
}

bool LaunchOrder::is_cond(size_t t) {
    return t >= m_n_launch && m_token_of[t - m_n_launch].cond;
}

bool LaunchOrder::is_sel(size_t t) {
    return t >= m_n_launch && m_token_of[t - m_n_launch].select;
}

LaunchOrder::Tokens LaunchOrder::meet(const Tokens& a, const Tokens& b) {
    Tokens r;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.begin()));
    return r;
}

LaunchOrder::TokVal LaunchOrder::meet_val(const TokVal& a, const TokVal& b) {
    TokVal r{meet(a.s, b.s), {}};
    for (const auto& [e, t] : a.at)
        if (auto it = b.at.find(e); it != b.at.end())
            if (Tokens m = meet(t, it->second); !m.empty()) r.at[e] = std::move(m);
    return r;
}

LaunchOrder::Tokens LaunchOrder::whole(const TokVal& v) {
    Tokens r = v.s;
    for (const auto& [e, t] : v.at) r.insert(t.begin(), t.end());
    return r;
}

// The values an index may take (at most 4096; nullopt: not known): constants, loop indices of constant
// ranges, single assignments, and + - * // % min max casts of those (each combination: a superset).
std::optional<std::set<int64_t>> LaunchOrder::index_values(const Expr* x, int depth) {
    if (depth == 0) m_value_steps = 0;
    if (!x || depth > 32 || ++m_value_steps > 4096) return std::nullopt;
    if (x->kind == ExprKind::Int) return std::set<int64_t>{x->ival};
    if (x->kind == ExprKind::Var && x->var) {
        if (m_rebound.count(x->var.get())) return std::nullopt;
        if (auto it = m_index_loop.find(x->var.get()); it != m_index_loop.end()) {
            auto v = loop_vals(*it->second);
            if (!v) return std::nullopt;
            return std::set<int64_t>(v->begin(), v->end());
        }
        auto d = m_token_def.find(x->var.get());
        if (d == m_token_def.end() || m_token_multi.count(x->var.get())) return std::nullopt;
        return index_values(d->second, depth + 1);
    }
    if (x->kind == ExprKind::FuncCall && x->sval == "pl.cast" && !x->args.empty())
        return index_values(x->args[0].get(), depth + 1);
    std::string op;
    if (x->kind == ExprKind::Binary && x->args.size() == 2) op = x->sval;
    if (x->kind == ExprKind::FuncCall && (x->sval == "pl.min" || x->sval == "pl.max") && x->args.size() == 2)
        op = x->sval;
    if (op.empty()) return std::nullopt;
    auto a = index_values(x->args[0].get(), depth + 1);
    auto b = index_values(x->args[1].get(), depth + 1);
    if (!a || !b || a->size() * b->size() > 65536) return std::nullopt;
    std::set<int64_t> r;
    for (int64_t p : *a)
        for (int64_t q : *b) {
            if (std::abs(p) > (int64_t{1} << 31) || std::abs(q) > (int64_t{1} << 31)) return std::nullopt;
            if (op == "+")
                r.insert(p + q);
            else if (op == "-")
                r.insert(p - q);
            else if (op == "*")
                r.insert(p * q);
            else if ((op == "//" || op == "%") && q > 0 && p >= 0)
                r.insert(op == "//" ? p / q : p % q);
            else if (op == "pl.min" || op == "pl.max")
                r.insert(op == "pl.min" ? std::min(p, q) : std::max(p, q));
            else
                return std::nullopt;
        }
    if (r.size() > 4096) return std::nullopt;
    return r;
}

// The loops whose indices an index expression reads (through single assignments), and each loop's
// enclosing loops.
void LaunchOrder::collect_index_loops(const Expr* x, std::set<const Stmt*>& out, int depth) {
    if (depth == 0) m_loop_steps = 0;
    if (!x) return;
    if (depth > 32 || ++m_loop_steps > 4096) {
        out.insert(nullptr);  // (not followed to the end: any loop)
        return;
    }
    if (x->kind == ExprKind::Var && x->var) {
        if (auto it = m_index_loop.find(x->var.get()); it != m_index_loop.end()) {
            out.insert(it->second);
        } else if (auto d = m_token_def.find(x->var.get());
                   d != m_token_def.end() && !m_token_multi.count(x->var.get())) {
            collect_index_loops(d->second, out, depth + 1);
        }
    }
    for (const auto& a : x->args) collect_index_loops(a.get(), out, depth + 1);
}

const std::set<const Stmt*>& LaunchOrder::index_loops(const Expr* x) {
    auto [it, fresh] = m_index_loops_memo.try_emplace(x);
    if (fresh) collect_index_loops(x, it->second, 0);
    return it->second;
}

}  // namespace cvsim::launch_detail
