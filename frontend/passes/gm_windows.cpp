// GM windows in absolute tensor coordinates (see gm_windows.h): the scan of definitions and affine offsets;
// views in gm_windows_views.cpp, overlap tests in gm_windows_overlap.cpp and gm_windows_blocks.cpp.
#include "frontend/passes/gm_windows.h"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "frontend/ops.h"
#include "frontend/passes/gm_windows_internal.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;
using namespace gm_windows_detail;

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

}  // namespace cvsim::passes
