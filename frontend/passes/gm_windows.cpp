// GM windows in absolute tensor coordinates (see gm_windows.h).
#include "frontend/passes/gm_windows.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;

namespace {

constexpr int kMaxDepth = 24;

Affine unknown() {
    Affine a;
    a.ok = false;
    return a;
}

Affine add(const Affine& x, const Affine& y, int64_t sy) {
    if (!x.ok || !y.ok) return unknown();
    Affine r = x;
    r.c += sy * y.c;
    for (auto [v, k] : y.terms) {
        int64_t& t = r.terms[v];
        t += sy * k;
        if (t == 0) r.terms.erase(v);
    }
    return r;
}

Affine scale(const Affine& x, int64_t k) {
    if (!x.ok) return x;
    Affine r;
    if (k == 0) return r;
    r.c = x.c * k;
    for (auto [v, c] : x.terms) r.terms[v] = c * k;
    return r;
}

bool same(const Affine& a, const Affine& b) {
    return a.ok && b.ok && a.c == b.c && a.terms == b.terms;
}

int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
    return q;
}
int64_t ceil_div(int64_t a, int64_t b) {
    return -floor_div(-a, b);
}

}  // namespace

WindowAnalysis::WindowAnalysis(Function& f, int blocks) : m_blocks(std::max(blocks, 0)) {
    for (auto& p : f.params) m_params.insert(p.var.get());
    scan(f.body, {});
    for (const Var* v : m_unbounded) m_bounds.erase(v);
    if (blocks >= 1)
        for (const Var* v : m_block_vars) m_bounds[v] = {0, blocks - 1};
}

void WindowAnalysis::scan(Block& b, StmtPath path) {
    for (size_t i = 0; i < b.size(); ++i) {
        const StmtPtr& s = b[i];
        StmtPath here = path;
        here.push_back({&b, i});
        if (s->kind == StmtKind::Assign) {
            if (s->targets.size() == 1) {
                Def& d = m_defs[s->targets[0].get()];
                ++d.count;
                d.stmt = s.get();
                d.block = &b;
                d.index = i;
                m_def_path[s->targets[0].get()] = here;
                m_flows[s->targets[0].get()].push_back({s->value, here});
                if (s->value && s->value->kind == ExprKind::Call && s->value->op->code == OpCode::GetBlockIdx)
                    m_block_vars.insert(s->targets[0].get());
            } else {
                for (auto& t : s->targets) m_multi.insert(t.get());
            }
        }
        if (s->kind == StmtKind::For) {
            if (s->loop_var) m_loop_vars.insert(s->loop_var.get());
            // A loop nested in one binding the same name: after it, the enclosing loop's body sees the inner
            // loop's last value, not its own iteration's.
            if (s->loop_var)
                for (const auto& [blk, idx] : path)
                    if (const Stmt& o = *(*blk)[idx]; o.kind == StmtKind::For && o.loop_var == s->loop_var)
                        m_nested_rebound.insert(s->loop_var.get());
            auto start = s->start ? const_int(s->start) : std::optional<int64_t>(0);
            auto stop = const_int(s->stop);
            auto step = s->step ? const_int(s->step) : std::optional<int64_t>(1);
            // A name re-bound by several loops (`for i in ...` twice) is one variable: its bounds are the union
            // of every loop's range, and unknown when one of them is not constant. A split_aiv region's lane
            // index is in [0, 1] too (each AIV lane runs the region at one value; gm_sync never counts it as
            // shared by two accesses, so it stays free to differ between them): unbounded, a lane's rows
            // `16 + lane * 8` met every window of the tensor (E-V2C-UNFENCED against the cube's rows 32-47).
            if (s->loop_var && s->loop_kind != LoopKind::Spmd && start && stop && step && *step != 0) {
                int64_t n = *step > 0 ? (*stop - *start + *step - 1) / *step : (*start - *stop - *step - 1) / -*step;
                if (n > 0) {
                    int64_t last = *start + (n - 1) * *step;
                    std::pair<int64_t, int64_t> r{std::min(*start, last), std::max(*start, last)};
                    auto [it, fresh] = m_bounds.insert({s->loop_var.get(), r});
                    if (!fresh)
                        it->second = {std::min(it->second.first, r.first), std::max(it->second.second, r.second)};
                }
            } else if (s->loop_var) {
                m_unbounded.insert(s->loop_var.get());
            }
            const Stmt* y =
                !s->body.empty() && s->body.back()->kind == StmtKind::Yield ? s->body.back().get() : nullptr;
            StmtPath ypath = here;
            ypath.push_back({&s->body, s->body.size() ? s->body.size() - 1 : 0});
            for (size_t k = 0; k < s->iter_args.size(); ++k) {
                const Var* ia = s->iter_args[k].get();
                m_multi.insert(ia);
                if (k < s->init_values.size()) m_flows[ia].push_back({s->init_values[k], here});
                if (y && k < y->values.size()) m_flows[ia].push_back({y->values[k], ypath});
                if (k < s->targets.size()) {
                    m_multi.insert(s->targets[k].get());
                    // Appended, not assigned: a name bound before (an earlier loop's result or a plain
                    // assignment of the same name) keeps its flows, so a base found for it is the meet of every
                    // binding's (rev25: a later loop's view at row 48 was taken for an earlier binding's row 0).
                    auto copy = m_flows[ia];
                    auto& tf = m_flows[s->targets[k].get()];
                    tf.insert(tf.end(), copy.begin(), copy.end());
                }
            }
        }
        if (s->kind == StmtKind::If) {
            for (Block* br : {&s->body, &s->orelse}) {
                if (br->empty() || br->back()->kind != StmtKind::Yield) continue;
                StmtPath ypath = here;
                ypath.push_back({br, br->size() - 1});
                for (size_t k = 0; k < s->targets.size() && k < br->back()->values.size(); ++k) {
                    m_multi.insert(s->targets[k].get());
                    m_flows[s->targets[k].get()].push_back({br->back()->values[k], ypath});
                }
            }
        }
        scan(s->body, here);
        scan(s->orelse, here);
    }
}

bool WindowAnalysis::visible_def(const Def& d, const StmtPath& path) const {
    for (auto& [blk, idx] : path)
        if (blk == d.block) return idx > d.index;
    return false;
}

Affine WindowAnalysis::affine(const ExprPtr& e, const StmtPath& path, int depth) const {
    if (!e || depth > kMaxDepth) return unknown();
    if (auto c = const_int(e)) {
        Affine a;
        a.c = *c;
        return a;
    }
    switch (e->kind) {
        case ExprKind::Var: {
            const Var* v = e->var.get();
            Affine atom;
            atom.terms[v] = 1;
            if (m_loop_vars.count(v)) {
                // A loop variable whose name an assignment also binds (`i = 3` after the loop, or in the body)
                // holds values outside its loops' ranges there: no affine form (nor the value of an arm's test).
                if (rebound(v)) return unknown();
                // Inside `if v == c:` (or the else arm of `if v != c:`) the loop variable is c.
                if (auto c = arm_value(v, path)) {
                    Affine k;
                    k.c = *c;
                    return k;
                }
                return atom;
            }
            if (m_multi.count(v)) return unknown();
            auto it = m_defs.find(v);
            int n = it == m_defs.end() ? 0 : it->second.count;
            if (n == 0) return m_params.count(v) ? atom : unknown();
            if (n > 1 || m_params.count(v) || !visible_def(it->second, path)) return unknown();
            const ExprPtr& val = it->second.stmt->value;
            if (val && val->kind == ExprKind::Call && val->op->code == OpCode::GetBlockIdx) return atom;
            if (val && val->kind == ExprKind::Call && val->op->code == OpCode::GetSubblockIdx) return lane_term();
            return affine(val, m_def_path.at(v), depth + 1);
        }
        case ExprKind::Unary:
            if (e->sval == "-" && e->args.size() == 1) return scale(affine(e->args[0], path, depth + 1), -1);
            return unknown();
        case ExprKind::Binary: {
            if (e->args.size() != 2) return unknown();
            // `x - (x // c) * c` (or `c * (x // c)`) is `x % c`, spelled out (pypto-lib's `unit - row * 8` with
            // `row = unit // 8`): the `%` atom below, also where x // c alone has no bound.
            if (e->sval == "-" && e->args[0] && e->args[0]->kind == ExprKind::Var && e->args[1]) {
                const Expr* m = e->args[1].get();
                for (int hop = 0; m && m->kind == ExprKind::Var && hop < 8; ++hop) {
                    auto it = m_defs.find(m->var.get());
                    if (it == m_defs.end() || it->second.count != 1 || m_multi.count(m->var.get()) ||
                        m_params.count(m->var.get()) || !it->second.stmt->value)
                        break;
                    m = it->second.stmt->value.get();
                }
                if (m && m->kind == ExprKind::Binary && m->sval == "*" && m->args.size() == 2) {
                    for (int side = 0; side < 2; ++side) {
                        const auto c = const_int(m->args[1 - side]);
                        const Expr* q = m->args[side].get();
                        for (int hop = 0; q && q->kind == ExprKind::Var && hop < 8; ++hop) {
                            auto it = m_defs.find(q->var.get());
                            if (it == m_defs.end() || it->second.count != 1 || m_multi.count(q->var.get()) ||
                                m_params.count(q->var.get()) || !it->second.stmt->value)
                                break;
                            q = it->second.stmt->value.get();
                        }
                        if (!c || *c <= 0 || !q || q->kind != ExprKind::Binary || q->sval != "//" ||
                            q->args.size() != 2 || !q->args[0] || q->args[0]->kind != ExprKind::Var ||
                            q->args[0]->var != e->args[0]->var || const_int(q->args[1]) != c)
                            continue;
                        const Affine x = affine(e->args[0], path, depth + 1);
                        if (!x.ok) return unknown();
                        return mod_of(e.get(), x, *c);
                    }
                }
            }
            Affine x = affine(e->args[0], path, depth + 1), y = affine(e->args[1], path, depth + 1);
            if (!x.ok || !y.ok) return unknown();
            if (e->sval == "+") return add(x, y, 1);
            if (e->sval == "-") return add(x, y, -1);
            if (e->sval == "*") {
                if (x.terms.empty()) return scale(y, x.c);
                if (y.terms.empty()) return scale(x, y.c);
                return unknown();
            }
            if (e->sval == "%" && y.terms.empty() && y.c > 0) return mod_of(e.get(), x, y.c);
            if (e->sval == "//" && x.terms.empty() && y.terms.empty() && y.c != 0) {
                Affine r;
                r.c = floor_div(x.c, y.c);
                return r;
            }
            if (e->sval == "//" && y.terms.empty() && y.c > 0) {
                // x // c over loop variables of constant ranges: a constant when x stays within one period of
                // c, else an atom of its own in [min / c, max / c] (no affine form: it moves by steps).
                if (auto r = range(x)) {
                    int64_t lo = floor_div(r->first, y.c), hi = floor_div(r->second, y.c);
                    if (lo == hi) return Affine{true, lo, {}};
                    VarPtr& atom = m_mod_of[e.get()];
                    if (!atom) {
                        atom = std::make_shared<Var>();
                        atom->name = "%div";
                        m_loop_vars.insert(atom.get());
                        m_bounds[atom.get()] = {lo, hi};
                    }
                    Affine a;
                    a.terms[atom.get()] = 1;
                    return a;
                }
                return unknown();
            }
            return unknown();
        }
        case ExprKind::Call:
            if (e->op && e->op->code == OpCode::GetSubblockIdx && e->args.empty()) return lane_term();
            return unknown();
        default:
            return unknown();
    }
}

// x % c (c > 0), for the expression E: x - k*c when x stays within one period of c (loop variables of constant
// ranges); over several periods an atom in [0, c - 1] of its own (gm_windows.h, ModAtom); the same atom when x has
// no bound but is never negative (block indices of a launch whose width is not known, with coefficients >= 0).
Affine WindowAnalysis::mod_of(const Expr* e, const Affine& x, int64_t c) const {
    if (auto r = range(x)) {
        int64_t k = floor_div(r->first, c);
        if (floor_div(r->second, c) == k) return add(x, Affine{true, k * c, {}}, -1);
    } else {
        bool nonneg = x.c >= 0;
        for (const auto& [v, k] : x.terms) nonneg &= k > 0 && m_block_vars.count(v) > 0;
        if (!nonneg) return unknown();
    }
    VarPtr& atom = m_mod_of[e];
    if (!atom) {
        atom = std::make_shared<Var>();
        atom->name = "%mod";
        m_loop_vars.insert(atom.get());
        m_bounds[atom.get()] = {0, c - 1};
        m_mod[atom.get()] = ModAtom{x, c};
    }
    Affine a;
    a.terms[atom.get()] = 1;
    return a;
}

Affine WindowAnalysis::lane_term() const {
    if (!m_lane_atom) {
        m_lane_atom = std::make_shared<Var>();
        m_lane_atom->name = "%lane";
        m_loop_vars.insert(m_lane_atom.get());
        m_bounds[m_lane_atom.get()] = {0, 1};
    }
    Affine a;
    a.terms[m_lane_atom.get()] = 1;
    return a;
}

std::optional<std::pair<int64_t, int64_t>> WindowAnalysis::range(const Affine& a) const {
    if (!a.ok) return std::nullopt;
    int64_t lo = a.c, hi = a.c;
    for (auto& [v, k] : a.terms) {
        auto it = m_bounds.find(v);
        if (it == m_bounds.end() || std::abs(k) > (int64_t{1} << 20) ||
            std::abs(it->second.first) > (int64_t{1} << 30) || std::abs(it->second.second) > (int64_t{1} << 30))
            return std::nullopt;
        lo += std::min(k * it->second.first, k * it->second.second);
        hi += std::max(k * it->second.first, k * it->second.second);
    }
    return std::make_pair(lo, hi);
}

// `v == c` / `c == v` (or `!=`) with v a loop variable: (v, c, is_eq).
static std::optional<std::tuple<const Var*, int64_t, std::string>> var_compare(const Expr& cond) {
    if (cond.kind != ExprKind::Compare || cond.args.size() != 2) return std::nullopt;
    const ExprPtr& a = cond.args[0];
    const ExprPtr& b = cond.args[1];
    static const std::map<std::string, std::string> flip = {{"<", ">"},   {">", "<"},   {"<=", ">="},
                                                            {">=", "<="}, {"==", "=="}, {"!=", "!="}};
    if (!flip.count(cond.sval)) return std::nullopt;
    if (a && a->kind == ExprKind::Var)
        if (auto c = const_int(b)) return std::make_tuple(a->var.get(), *c, cond.sval);
    if (b && b->kind == ExprKind::Var)
        if (auto c = const_int(a)) return std::make_tuple(b->var.get(), *c, flip.at(cond.sval));
    return std::nullopt;
}

std::optional<int64_t> WindowAnalysis::arm_value(const Var* v, const StmtPath& path) const {
    for (size_t k = 0; k + 1 < path.size(); ++k) {
        const Stmt& st = *(*path[k].first)[path[k].second];
        if (st.kind != StmtKind::If || !st.value) continue;
        auto vc = var_compare(*st.value);
        if (!vc || std::get<0>(*vc) != v) continue;
        bool then_arm = path[k + 1].first == &st.body;
        const std::string& op = std::get<2>(*vc);
        if ((op == "==" && then_arm) || (op == "!=" && !then_arm)) return std::get<1>(*vc);
    }
    return std::nullopt;
}

std::optional<bool> WindowAnalysis::static_condition(const Expr& cond) const {
    auto vc = var_compare(cond);
    if (!vc || !m_loop_vars.count(std::get<0>(*vc)) || rebound(std::get<0>(*vc))) return std::nullopt;
    auto it = m_bounds.find(std::get<0>(*vc));
    if (it == m_bounds.end()) return std::nullopt;
    int64_t c = std::get<1>(*vc), lo = it->second.first, hi = it->second.second;
    const std::string& op = std::get<2>(*vc);
    // Over the loop variable's range [lo, hi] (a superset of its values): always true / always false.
    auto holds = [&](int64_t x) {
        if (op == "<") return x < c;
        if (op == "<=") return x <= c;
        if (op == ">") return x > c;
        if (op == ">=") return x >= c;
        if (op == "==") return x == c;
        return x != c;
    };
    if (op == "==" || op == "!=") {
        if (c < lo || c > hi) return op == "!=";
        if (lo == hi) return op == "==";
        return std::nullopt;
    }
    bool a = holds(lo), b = holds(hi);
    if (a == b) return a;  // monotone comparisons: equal at both ends means equal everywhere
    return std::nullopt;
}

std::optional<std::vector<Affine>> WindowAnalysis::base(const Var* v, const StmtPath& path, int depth) const {
    if (depth > kMaxDepth) return std::nullopt;
    // The variables whose base is being found, outermost first: a loop-carried tensor and the store that writes it
    // (`t_iter` flows from `t_new = store(..., t_iter)`, which flows back through the yield) reach each other; a
    // value that reaches one of them through stores and copies only has that one's base (a marker, as for `v`
    // itself). Before, such a carried tensor had no base: every window of it unknown (a false E-V2C-UNFENCED on
    // rows `16 * i` stored and loaded per iteration).
    static thread_local std::vector<const Var*> resolving;
    // Lowest index in `resolving` of a variable a flow was cut at (a marker returned for it): a base found below a
    // slice is partial when the cut variable was being resolved before the slice's input was (rev24).
    static thread_local size_t lowest_cut = SIZE_MAX;
    struct Frame {
        std::vector<const Var*>& st;
        Frame(std::vector<const Var*>& s, const Var* x) : st(s) { st.push_back(x); }
        ~Frame() { st.pop_back(); }
    } frame(resolving, v);
    bool saw_self = false;  // a flow of v reached a variable being resolved through stores and copies
    // The bases of the variables this frame's flows name, found once each (rev25: an `if` yielding the same
    // variable from both arms, chained 20 times in a loop, was explored 2^20 times, one path at a time, now
    // that a flow back to the carried tensor is a marker and no longer ends the search). Under one frame the
    // stack below is the same at every call, so a variable's base there only depends on its depth and on whether
    // its definition is visible from the flow (the only use of the path); the cuts it made are replayed.
    struct Memo {
        std::optional<std::vector<Affine>> r;
        size_t cut;
    };
    std::map<std::tuple<const Var*, int, bool>, Memo> memo;
    std::optional<std::vector<Affine>> result;
    bool conflict = false;
    auto meet = [&](const std::vector<Affine>& r) {
        if (!result) {
            result = r;
            return;
        }
        if (result->size() != r.size()) conflict = true;
        for (size_t d = 0; d < r.size() && !conflict; ++d)
            if (!same((*result)[d], r[d])) conflict = true;
    };
    if (m_params.count(v)) meet(std::vector<Affine>(v->type.shape.size()));
    auto it = m_flows.find(v);
    if (it != m_flows.end()) {
        for (const auto& flow : it->second) {
            const ExprPtr& val = flow.first;
            const StmtPath& p =
                flow.second;  // (not a structured binding: lambdas cannot capture those in C++17/clang 14)
            // A value of the variable itself (scratch = store(..., scratch)) keeps its base.
            std::function<std::optional<std::vector<Affine>>(const ExprPtr&, int)> of =
                [&](const ExprPtr& x, int dd) -> std::optional<std::vector<Affine>> {
                if (!x || dd > kMaxDepth) return std::nullopt;
                if (x->kind == ExprKind::Var) {
                    if (x->var.get() == v) return std::vector<Affine>{};  // marker: self
                    if (auto f = std::find(resolving.begin(), resolving.end(), x->var.get()); f != resolving.end()) {
                        lowest_cut = std::min(lowest_cut, size_t(f - resolving.begin()));
                        return std::vector<Affine>{};  // marker: a variable being resolved (a cycle)
                    }
                    auto d = m_defs.find(x->var.get());
                    const bool vis = d != m_defs.end() && visible_def(d->second, p);
                    auto key = std::make_tuple(x->var.get(), dd + 1, vis);
                    if (auto m = memo.find(key); m != memo.end()) {
                        lowest_cut = std::min(lowest_cut, m->second.cut);
                        return m->second.r;
                    }
                    size_t saved_cut = lowest_cut;
                    lowest_cut = SIZE_MAX;
                    auto r = base(x->var.get(), p, dd + 1);
                    memo[key] = Memo{r, lowest_cut};
                    lowest_cut = std::min(saved_cut, lowest_cut);
                    return r;
                }
                if (x->kind != ExprKind::Call) return std::nullopt;
                if (x->op->code == OpCode::Store) return of(arg(*x, "output_tensor"), dd + 1);
                if (x->op->code == OpCode::TensorCreate) return std::vector<Affine>(x->type.shape.size());
                if (x->op->code == OpCode::Slice) {
                    const ExprPtr& in = arg(*x, "tile");
                    const ExprPtr& off = arg(*x, "offset");
                    if (!in || in->type.kind != TypeKind::Tensor || !off) return std::nullopt;
                    size_t saved_cut = lowest_cut, here = resolving.size();
                    lowest_cut = SIZE_MAX;
                    auto b = of(in, dd + 1);
                    // Cut at a variable resolved outside this slice: a cycle through it.
                    bool partial = lowest_cut < here;
                    lowest_cut = std::min(saved_cut, lowest_cut);
                    if (!b || partial) return std::nullopt;
                    // (a cycle through a slice moves the base at every trip: no base)
                    if (b->empty() && !(in->kind == ExprKind::Var && in->var.get() == v)) return std::nullopt;
                    // A self-slice (`v = slice(v, off)`): a copy of itself when every offset is 0; otherwise v moves
                    // by `off` each time it runs (in a loop: every trip), so it has no base. It used to be taken
                    // "relative to itself", the offset alone: a constant 16 for rows 32, 48, 64 (rev25 r03/r04).
                    if (b->empty()) {
                        for (const auto& o : off->args) {
                            const Affine a = affine(o, p, 0);
                            if (!a.ok || a.c != 0 || !a.terms.empty()) return std::nullopt;
                        }
                        return std::vector<Affine>{};
                    }
                    if (b->size() != off->args.size()) return std::nullopt;
                    for (size_t d = 0; d < off->args.size(); ++d) (*b)[d] = add((*b)[d], affine(off->args[d], p, 0), 1);
                    for (auto& a : *b)
                        if (!a.ok) return std::nullopt;
                    return b;
                }
                return std::nullopt;
            };
            auto r = of(val, depth);
            if (!r) return std::nullopt;
            if (r->empty()) {  // self
                saw_self = true;
                continue;
            }
            // A base that moves with a loop variable, defined where the access does not see this very
            // definition (a later statement of the loop body, another arm), may be another iteration's.
            bool moves = false;
            for (auto& a : *r) moves |= !a.terms.empty();
            if (moves) {
                auto d = m_defs.find(v);
                bool is_assign =
                    d != m_defs.end() && d->second.count == 1 && !m_multi.count(v) && d->second.stmt->value == val;
                if (!is_assign || !visible_def(d->second, path)) return std::nullopt;
            }
            meet(*r);
        }
    }
    if (conflict) return std::nullopt;
    // Only flows back to a variable being resolved (nested): that variable's base (the marker); at the top, none.
    if (!result)
        return saw_self && depth > 0 ? std::optional<std::vector<Affine>>(std::vector<Affine>{}) : std::nullopt;
    return result;
}

GmWindow WindowAnalysis::window(const Expr& call, const StmtPath& path) const {
    GmWindow w;
    bool store = call.op->code == OpCode::Store;
    // pl.tensor.read / pl.tensor.write: one element at `indices`
    bool scalar_read = call.op->code == OpCode::TensorRead || call.op->code == OpCode::TensorWrite;
    const ExprPtr& t = arg(call, store ? "output_tensor" : "tensor");
    const ExprPtr& offs = arg(call, scalar_read ? "indices" : "offsets");
    if (!t || t->kind != ExprKind::Var || !offs || (offs->kind != ExprKind::List && offs->kind != ExprKind::Tuple))
        return w;
    if (scalar_read) {
        w.ext.assign(offs->args.size(), 1);
    } else if (store) {
        // What a store writes (as the lane executor resolves it): `shapes` when given, else the tile's valid
        // region (its static type bounds the run-time one: a split keeps lane 0's larger part), else its shape.
        const ExprPtr& tile = arg(call, "tile");
        if (!tile) return w;
        w.ext = tile->type.shape;
        const auto& valid = tile->type.valid;
        if (valid.size() == w.ext.size() && std::all_of(valid.begin(), valid.end(), [](int64_t v) { return v > 0; }))
            for (size_t d = 0; d < valid.size(); ++d) w.ext[d] = std::min(w.ext[d], valid[d]);
        if (auto sh = const_int_list(arg(call, "shapes"))) {
            // A partition that runs past a tensor dimension (FlattenTileNdTo2D's collapsed leading extent) addresses
            // the tensor's rows linearly (rt::partition_window): no box here, so it may overlap anything.
            for (size_t d = 0; d < sh->size() && d < t->type.shape.size(); ++d)
                if ((*sh)[d] > t->type.shape[d]) return w;
            w.ext = *sh;
        }
        size_t rank = t->type.shape.size();
        if (w.ext.size() < rank) w.ext.insert(w.ext.begin(), rank - w.ext.size(), 1);
    } else {
        auto e = const_int_list(arg(call, "shapes"));
        if (!e) return w;
        w.ext = *e;
        // A load with a valid_shape reads only its valid region from GM.
        if (auto vs = const_int_list(arg(call, "valid_shape")); vs && vs->size() == w.ext.size())
            for (size_t d = 0; d < vs->size(); ++d)
                if ((*vs)[d] >= 0) w.ext[d] = std::min(w.ext[d], (*vs)[d]);
    }
    if (w.ext.size() != offs->args.size()) return w;
    auto b = base(t->var.get(), path, 0);
    if (!b || b->size() != offs->args.size()) return w;
    const std::vector<int64_t>& shape = t->type.shape;
    for (size_t d = 0; d < offs->args.size(); ++d) {
        Affine a = add((*b)[d], affine(offs->args[d], path, 0), 1);
        // An offset without an affine form (a division, a product of variables, a value read from GM) over a
        // known base: within [0, size - extent] of the tensor it addresses (a window outside it is E-OOB;
        // a rank-3+ partition may run past a leading dimension, so only the last one there), an atom of its
        // own. Unknown in this dimension only: two windows apart in another one still do not meet (an
        // UP_DOWN half at a computed row against the cube's columns 16-31 was reported, E-V2C-UNFENCED).
        if (!a.ok && (*b)[d].ok && d < shape.size() && w.ext.size() == shape.size() &&
            (shape.size() <= 2 || d + 1 == shape.size()) && shape[d] > 0 && w.ext[d] > 0 && w.ext[d] <= shape[d]) {
            ir::VarPtr& atom = m_unknown_off[{&call, d}];
            if (!atom) {
                atom = std::make_shared<Var>();
                atom->name = "%off";
                m_loop_vars.insert(atom.get());
                m_bounds[atom.get()] = {0, shape[d] - w.ext[d]};
            }
            Affine x;
            x.terms[atom.get()] = 1;
            a = add((*b)[d], x, 1);
        }
        if (!a.ok) return w;
        w.off.push_back(a);
    }
    w.ok = true;
    return w;
}

bool WindowAnalysis::may_overlap(const GmWindow& a, const GmWindow& b, const std::set<const Var*>& shared,
                                 const Stmt* cross, int64_t tmin, int64_t tmax, const WindowAnalysis& wa) {
    if (!a.ok || !b.ok || a.off.size() != b.off.size() || a.ext.size() != a.off.size() || b.ext.size() != b.off.size())
        return true;
    // A shared loop variable (the same value in both accesses) that moves the two windows at different rates
    // is bounded as an interval per dimension, which admits values between its iterations (rows 16 * i of a
    // 2-trip loop: 0..16, not 0 or 16). Over small constant ranges each value is tried instead (every integer
    // of its [min, max], a superset of its iterations).
    // The same for a loop variable only one of the two windows moves with (its value there is free).
    struct Fix {
        const Var* v;
        std::pair<int64_t, int64_t> r;
        int side;  // 0: the same value in both windows; 1 / 2: a's / b's copy only (two free copies)
    };
    std::vector<Fix> fix;
    int64_t combos = 1;
    static thread_local bool enumerating = false;  // one level: the substituted calls below do not enumerate again
    std::set<const Var*> candidates = enumerating ? std::set<const Var*>{} : shared;
    if (!enumerating)
        for (const GmWindow* w : {&a, &b})
            for (const auto& off : w->off)
                for (const auto& [v, k] : off.terms) candidates.insert(v);
    for (const Var* v : candidates) {
        if (cross && v == cross->loop_var.get()) continue;
        bool in_a = false, in_b = false, differs = false;
        for (size_t d = 0; d < a.off.size(); ++d) {
            auto ia = a.off[d].terms.find(v), ib = b.off[d].terms.find(v);
            int64_t ca = ia == a.off[d].terms.end() ? 0 : ia->second, cb = ib == b.off[d].terms.end() ? 0 : ib->second;
            differs |= ca != cb;
            in_a |= ca != 0;
            in_b |= cb != 0;
        }
        // Not shared and in both windows: two free copies, each enumerated on its own (as one interval, a
        // `%` atom's lane halves 32 + 16 m + 8 L of two iterations seemed to meet). A block index is one value
        // in both windows of a cluster, like a shared loop variable.
        if (!shared.count(v) && !wa.is_block_var(v) && !wa.is_loop_var(v)) continue;
        const bool copies = !shared.count(v) && !wa.is_block_var(v) && in_a && in_b;
        auto bd = wa.m_bounds.find(v);
        if ((!differs && !copies) || bd == wa.m_bounds.end()) continue;
        const int64_t n = bd->second.second - bd->second.first + 1;
        if (n < 1 || n > 64 || combos * n * (copies ? n : 1) > 1024) continue;
        combos *= n * (copies ? n : 1);
        if (copies) {
            fix.push_back({v, bd->second, 1});
            fix.push_back({v, bd->second, 2});
        } else {
            fix.push_back({v, bd->second, 0});
        }
    }
    if (!fix.empty()) {
        std::set<const Var*> rest = shared;
        for (auto& f : fix) rest.erase(f.v);
        std::vector<int64_t> val(fix.size());
        for (size_t k = 0; k < fix.size(); ++k) val[k] = fix[k].r.first;
        while (true) {
            GmWindow sa = a, sb = b;
            for (size_t k = 0; k < fix.size(); ++k)
                for (GmWindow* w : {&sa, &sb}) {
                    if ((fix[k].side == 1 && w != &sa) || (fix[k].side == 2 && w != &sb)) continue;
                    for (auto& off : w->off)
                        if (auto it = off.terms.find(fix[k].v); it != off.terms.end()) {
                            off.c += it->second * val[k];
                            off.terms.erase(it);
                        }
                }
            enumerating = true;
            const bool meet = may_overlap(sa, sb, rest, cross, tmin, tmax, wa);
            enumerating = false;
            if (meet) return true;
            size_t k = 0;
            while (k < fix.size() && ++val[k] > fix[k].r.second) {
                val[k] = fix[k].r.first;
                ++k;
            }
            if (k == fix.size()) return false;
        }
    }
    // A short loop of constant range: try every pair of iterations exactly (the windows may move at
    // different rates in the two accesses).
    if (cross) {
        auto bounds = wa.m_bounds.find(cross->loop_var.get());
        auto step = cross->step ? const_int(cross->step) : std::optional<int64_t>(1);
        auto start = cross->start ? const_int(cross->start) : std::optional<int64_t>(0);
        if (bounds != wa.m_bounds.end() && step && *step != 0 && start) {
            // The cross loop's own trip count when its range is constant (its variable's bounds may be the
            // union with another loop re-binding the name).
            int64_t n = (bounds->second.second - bounds->second.first) / std::abs(*step) + 1;
            if (const ExprPtr& e = cross->stop; e)
                if (const std::optional<int64_t> stop = const_int(e); stop.has_value())
                    n = std::max<int64_t>(*step > 0 ? (stop.value() - *start + *step - 1) / *step
                                                    : (*start - stop.value() - *step - 1) / -*step,
                                          0);
            if (n <= 128) {
                for (int64_t ka = 0; ka < n; ++ka)
                    for (int64_t kb = 0; kb < n; ++kb) {
                        if (ka - kb < tmin || ka - kb > tmax) continue;
                        std::pair<int64_t, int64_t> vals{*start + ka * *step, *start + kb * *step};
                        if (overlap_at(a, b, shared, cross, 0, 0, wa, &vals)) return true;
                    }
                return false;
            }
        }
    }
    return overlap_at(a, b, shared, cross, tmin, tmax, wa, nullptr);
}

bool WindowAnalysis::overlap_at(const GmWindow& a, const GmWindow& b, const std::set<const Var*>& shared,
                                const Stmt* cross, int64_t tmin, int64_t tmax, const WindowAnalysis& wa,
                                const std::pair<int64_t, int64_t>* fixed) {
    const Var* x = cross ? cross->loop_var.get() : nullptr;
    std::optional<int64_t> step = 1;
    if (cross && cross->step) step = const_int(cross->step);
    int64_t lo = cross && !fixed ? tmin : 0, hi = cross && !fixed ? tmax : 0;
    for (size_t d = 0; d < a.off.size() && lo <= hi; ++d) {
        const Affine& oa = a.off[d];
        const Affine& ob = b.off[d];
        // D = off_a - off_b = [Klo, Khi] + A t.
        int64_t Klo = oa.c - ob.c, Khi = Klo, A = 0;
        bool unknown_dim = false;
        auto range = [&](const Var* v, int64_t k) {  // add k * v for v in its loop range
            auto it = wa.m_bounds.find(v);
            if (it == wa.m_bounds.end()) {
                unknown_dim = true;
                return;
            }
            int64_t p = k * it->second.first, q = k * it->second.second;
            Klo += std::min(p, q);
            Khi += std::max(p, q);
        };
        std::set<const Var*> atoms;
        for (auto& [v, k] : oa.terms) atoms.insert(v);
        for (auto& [v, k] : ob.terms) atoms.insert(v);
        for (const Var* v : atoms) {
            auto ia = oa.terms.find(v), ib = ob.terms.find(v);
            int64_t ca = ia == oa.terms.end() ? 0 : ia->second, cb = ib == ob.terms.end() ? 0 : ib->second;
            if (!wa.is_loop_var(v)) {
                // An invariant: the same value in both. A block index (same cluster) is one in [0, blocks - 1].
                if (ca != cb) {
                    if (wa.is_block_var(v))
                        range(v, ca - cb);
                    else
                        unknown_dim = true;
                }
            } else if (v == x && fixed) {
                Klo += ca * fixed->first - cb * fixed->second;
                Khi += ca * fixed->first - cb * fixed->second;
            } else if (v == x && ca == cb) {
                if (!step)
                    unknown_dim = true;
                else
                    A = ca * *step;
            } else if (shared.count(v) && v != x) {
                range(v, ca - cb);  // same value in both
            } else {
                range(v, ca);  // free to differ: each in its range
                range(v, -cb);
            }
        }
        if (unknown_dim) continue;
        const int64_t ea = a.ext[d], eb = b.ext[d];
        // Overlap in this dimension: Klo + A t < eb and Khi + A t > -ea.
        if (A == 0) {
            if (!(Klo < eb && Khi > -ea)) return false;
            continue;
        }
        int64_t tl, th;
        if (A > 0) {
            tl = floor_div(-ea - Khi, A) + 1;
            th = ceil_div(eb - Klo, A) - 1;
        } else {
            tl = floor_div(Klo - eb, -A) + 1;
            th = ceil_div(Khi + ea, -A) - 1;
        }
        lo = std::max(lo, tl);
        hi = std::min(hi, th);
    }
    return lo <= hi;
}

std::optional<int64_t> WindowAnalysis::block_eval(const Expr& e, int64_t x, int depth, std::string* residual) const {
    // `residual` (when the value is unknown): the condition's text with what x decides folded away. Parts that
    // may differ between clusters carry x, so two clusters' residuals are equal only when they surely agree.
    auto unknown = [&](std::string r) -> std::optional<int64_t> {
        if (residual) *residual = std::move(r);
        return std::nullopt;
    };
    auto id = [&](const void* p, bool uniform) {
        return uniform ? fmt::format("@{}", p) : fmt::format("@{}#{}", p, x);
    };
    if (depth > kMaxDepth) return unknown(id(&e, false));
    switch (e.kind) {
        case ExprKind::Int:
        case ExprKind::Bool:
            return e.ival;
        case ExprKind::Const:
            if (e.fval != static_cast<double>(static_cast<int64_t>(e.fval))) return unknown(id(&e, true));
            return static_cast<int64_t>(e.fval);
        case ExprKind::Var: {
            const Var* v = e.var.get();
            auto it = m_defs.find(v);
            // Bound once, to get_block_idx() (a name bound again, or also a loop variable, holds other values).
            if (m_block_vars.count(v) && it != m_defs.end() && it->second.count == 1 && !m_multi.count(v) &&
                !m_params.count(v) && !m_loop_vars.count(v))
                return x;
            return unknown(id(v, uniform_across_blocks(e)));
        }
        case ExprKind::Call:
            if (e.op && e.op->code == OpCode::GetBlockIdx) return x;
            return unknown(id(&e, false));
        case ExprKind::Unary: {
            if (e.args.size() != 1 || !e.args[0]) return unknown(id(&e, false));
            std::string r;
            auto v = block_eval(*e.args[0], x, depth + 1, &r);
            if (!v) return unknown(fmt::format("({} {})", e.sval, r));
            if (e.sval == "-") return -*v;
            if (e.sval == "not") return *v == 0 ? 1 : 0;
            return unknown(id(&e, false));
        }
        case ExprKind::BoolOp: {
            // Three-valued: `and` is false when one operand is, `or` true when one is.
            const bool is_and = e.sval == "and";
            if (!is_and && e.sval != "or") return unknown(id(&e, false));
            std::string rest;
            for (const auto& a : e.args) {
                std::string r;
                auto v = a ? block_eval(*a, x, depth + 1, &r) : std::nullopt;
                if (!a) r = id(&e, false);
                if (!v)
                    rest += " " + r;
                else if ((*v != 0) != is_and)
                    return is_and ? 0 : 1;
            }
            if (!rest.empty()) return unknown(fmt::format("({}{})", e.sval, rest));
            return is_and ? 1 : 0;
        }
        case ExprKind::Binary:
        case ExprKind::Compare: {
            if (e.args.size() != 2 || !e.args[0] || !e.args[1]) return unknown(id(&e, false));
            std::string rl, rr;
            auto l = block_eval(*e.args[0], x, depth + 1, &rl), r = block_eval(*e.args[1], x, depth + 1, &rr);
            if (!l || !r)
                return unknown(
                    fmt::format("({} {} {})", e.sval, l ? std::to_string(*l) : rl, r ? std::to_string(*r) : rr));
            const std::string& op = e.sval;
            if (op == "<") return *l < *r;
            if (op == "<=") return *l <= *r;
            if (op == ">") return *l > *r;
            if (op == ">=") return *l >= *r;
            if (op == "==") return *l == *r;
            if (op == "!=") return *l != *r;
            if (std::max(std::abs(*l), std::abs(*r)) > (int64_t{1} << 30)) return unknown(id(&e, false));
            if (op == "+") return *l + *r;
            if (op == "-") return *l - *r;
            if (op == "*") return *l * *r;
            if (op == "//" && *r != 0) return floor_div(*l, *r);
            if (op == "%" && *r != 0) return *l - floor_div(*l, *r) * *r;
            return unknown(id(&e, false));
        }
        default:
            return unknown(id(&e, false));
    }
}

bool WindowAnalysis::arms_may_differ(const Expr& cond, int64_t x, bool x_then, int64_t y, bool y_then) const {
    std::string rx, ry;
    auto vx = block_eval(cond, x, 0, &rx), vy = block_eval(cond, y, 0, &ry);
    if (vx && (*vx != 0) != x_then) return false;
    if (vy && (*vy != 0) != y_then) return false;
    if (!vx && !vy && rx == ry) return x_then == y_then;  // the same value in both clusters
    return true;
}

bool WindowAnalysis::uniform_across_blocks(const Expr& e, int depth) const {
    if (depth > kMaxDepth) return false;
    switch (e.kind) {
        case ExprKind::Int:
        case ExprKind::Bool:
        case ExprKind::Float:
        case ExprKind::Const:
            return true;
        case ExprKind::Var: {
            const Var* v = e.var.get();
            if (m_params.count(v)) return !m_defs.count(v) && !m_multi.count(v);
            if (m_loop_vars.count(v)) return !rebound(v) && m_bounds.count(v) > 0;  // a constant range
            auto it = m_defs.find(v);
            if (it == m_defs.end() || it->second.count != 1 || m_multi.count(v) || !it->second.stmt->value)
                return false;
            return uniform_across_blocks(*it->second.stmt->value, depth + 1);
        }
        case ExprKind::Unary:
        case ExprKind::Binary:
        case ExprKind::Compare:
        case ExprKind::BoolOp:
            for (const auto& a : e.args)
                if (!a || !uniform_across_blocks(*a, depth + 1)) return false;
            return true;
        default:
            return false;
    }
}

std::optional<std::vector<bool>> WindowAnalysis::block_values(const StmtPath& path) const {
    if (m_blocks < 1 || m_blocks > kMaxBlockEnum) return std::nullopt;
    std::optional<std::vector<bool>> out;
    for (size_t k = 0; k + 1 < path.size(); ++k) {
        const Stmt& st = *(*path[k].first)[path[k].second];
        if (st.kind != StmtKind::If || !st.value) continue;
        const bool then_arm = path[k + 1].first == &st.body;
        for (int64_t x = 0; x < m_blocks; ++x) {
            auto v = block_eval(*st.value, x, 0, nullptr);
            if (!v || (*v != 0) == then_arm) continue;
            if (!out) out.emplace(static_cast<size_t>(m_blocks), true);
            (*out)[static_cast<size_t>(x)] = false;
        }
    }
    return out;
}

GmWindow WindowAnalysis::at_block(const GmWindow& w, int64_t x) const {
    GmWindow r = w;
    for (auto& off : r.off)
        for (auto it = off.terms.begin(); it != off.terms.end();)
            if (is_block_var(it->first)) {
                off.c += it->second * x;
                it = off.terms.erase(it);
            } else {
                ++it;
            }
    return r;
}

bool WindowAnalysis::may_overlap_across_blocks(const GmWindow& a, const GmWindow& b, int blocks,
                                               const WindowAnalysis& wa, const std::set<const Var*>& shared,
                                               const Stmt* cross, int64_t tmin, int64_t tmax,
                                               const std::vector<bool>* a_blocks, const std::vector<bool>* b_blocks,
                                               const std::function<bool(int64_t, int64_t)>* pair_ok) {
    if (blocks <= 1) return false;
    // Accesses that run in some clusters only (`if blk == 0:`): the pairs of clusters (x, y), x != y, where
    // a runs in x and b in y, each with its block index substituted.
    if ((a_blocks || b_blocks || pair_ok) && blocks <= kMaxBlockEnum) {
        auto runs = [](const std::vector<bool>* v, int64_t x) {
            return !v || (static_cast<size_t>(x) < v->size() && (*v)[static_cast<size_t>(x)]);
        };
        for (int64_t x = 0; x < blocks; ++x) {
            if (!runs(a_blocks, x)) continue;
            const GmWindow ax = wa.at_block(a, x);
            for (int64_t y = 0; y < blocks; ++y)
                if (y != x && runs(b_blocks, y) && (!pair_ok || (*pair_ok)(x, y)) &&
                    may_overlap(ax, wa.at_block(b, y), shared, cross, tmin, tmax, wa))
                    return true;
        }
        return false;
    }
    if (!a.ok || !b.ok || a.off.size() != b.off.size() || a.ext.size() != a.off.size() || b.ext.size() != b.off.size())
        return true;
    // Per dimension, the sum of the block atoms' coefficients (every atom bound to get_block_idx() holds the
    // cluster's index): a's cluster x and b's cluster y add ka * x - kb * y to off_a - off_b. The rest is
    // may_overlap's question on the windows with those constants substituted.
    const size_t rank = a.off.size();
    std::vector<int64_t> ka(rank, 0), kb(rank, 0);
    bool any = false;
    auto strip = [&](const GmWindow& w, std::vector<int64_t>& k) {
        GmWindow r = w;
        for (size_t d = 0; d < rank; ++d)
            for (auto it = r.off[d].terms.begin(); it != r.off[d].terms.end();)
                if (wa.is_block_var(it->first)) {
                    k[d] += it->second;
                    any = true;
                    it = r.off[d].terms.erase(it);
                } else {
                    ++it;
                }
        return r;
    };
    const GmWindow sa = strip(a, ka), sb = strip(b, kb);
    if (!any) return may_overlap(sa, sb, shared, cross, tmin, tmax, wa);  // every cluster touches the same window
    auto at = [&](const std::vector<int64_t>& shift) {
        GmWindow sx = sa;
        for (size_t d = 0; d < rank; ++d) sx.off[d].c += shift[d];
        return may_overlap(sx, sb, shared, cross, tmin, tmax, wa);
    };
    std::vector<int64_t> shift(rank);
    if (ka == kb) {
        // The usual case (both windows move with the block index alike): the shift is ka * (x - y).
        for (int64_t delta = -(blocks - 1); delta <= blocks - 1; ++delta) {
            if (delta == 0) continue;
            for (size_t d = 0; d < rank; ++d) shift[d] = ka[d] * delta;
            if (at(shift)) return true;
        }
        return false;
    }
    if (blocks > 256) return true;  // (no conclusion on wider launches)
    // Pairs (x, y), x != y, that shift a against b alike give the same answer: each distinct shift once.
    std::set<std::vector<int64_t>> seen;
    for (int64_t x = 0; x < blocks; ++x)
        for (int64_t y = 0; y < blocks; ++y) {
            if (x == y) continue;
            for (size_t d = 0; d < rank; ++d) shift[d] = ka[d] * x - kb[d] * y;
            if (seen.insert(shift).second && at(shift)) return true;
        }
    return false;
}

}  // namespace cvsim::passes
