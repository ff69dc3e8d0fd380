// LaunchOrder, loops: what a loop's launches run after across iterations, and the findings between iterations.
#include "frontend/launch_order.h"

#include <algorithm>

#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

namespace {
template <class A, class B>
bool prefix_of(const A& a, const B& b) {
    return a.size() <= b.size() && std::equal(a.begin(), a.end(), b.begin());
}
}  // namespace

// A launch in a loop of a constant range that runs no iteration never runs: it races with nothing.
bool LaunchOrder::never_runs(const ManualLaunch& m) {
    return std::any_of(m.loops.begin(), m.loops.end(), [&](const Stmt* l) {
        const auto b = loop_bounds(*l);
        return b && b->step > 0 && b->hi <= b->lo;
    });
}

// Where a launch sits relative to a loop it is in: D is the loop's index in its loops.
size_t LaunchOrder::loop_index(const ManualLaunch& m, const Stmt* loop) {
    return static_cast<size_t>(std::find(m.loops.begin(), m.loops.end(), loop) - m.loops.begin());
}

// M runs in every iteration of LOOP: in no branch arm inside it, and every loop between them runs.
bool LaunchOrder::runs_every(const ManualLaunch& m, const Stmt* loop) {
    const size_t d = loop_index(m, loop);
    for (const auto& arm : m.arms)
        if (m_if_depth.at(arm.first) > d) return false;
    for (size_t q = d + 1; q < m.loops.size(); ++q)
        if (!passes::runs_at_least_once(*m.loops[q])) return false;
    return true;
}

// Every instance of X over LOOP runs after every earlier one: the tensor map finds them, or X runs in every
// iteration after the previous iteration's.
bool LaunchOrder::chained(size_t x, const Stmt* loop) {
    if (auto values = loop_vals(*loop); values && values->size() == 1) return true;  // one instance
    const LoopOrder& o = loop_order(loop);
    auto has = [&](const std::map<size_t, std::set<size_t>>& m) {
        auto it = m.find(x);
        return it != m.end() && it->second.count(x) > 0;
    };
    return has(o.every) || (has(o.prev) && runs_every(m_launches[x], loop));
}

// X's instances inside LOOP's iteration (in the loops below LOOP) run one after another: the last one runs
// after the others.
bool LaunchOrder::chained_below(size_t x, const Stmt* loop) {
    const ManualLaunch& m = m_launches[x];
    for (size_t q = loop_index(m, loop) + 1; q < m.loops.size(); ++q)
        if (!chained(x, m.loops[q])) return false;
    return true;
}

// The number of loops two launches (or a read and a launch) share, outermost first.
size_t LaunchOrder::shared_loops(const std::vector<const Stmt*>& p, const std::vector<const Stmt*>& q) {
    size_t k = 0;
    while (k < p.size() && k < q.size() && p[k] == q[k]) ++k;
    return k;
}

// What i runs after reaches j through i only when i runs whenever j does: i in no branch arm j is not in,
// and in no loop j is not in that may run no iteration (else, on the path without i, nothing of it orders j).
bool LaunchOrder::on_every_path(const ManualLaunch& m, const ManualLaunch& b) {
    if (!prefix_of(m.arms, b.arms)) return false;
    const size_t k = shared_loops(m.loops, b.loops);
    for (size_t q = k; q < m.loops.size(); ++q)
        if (!passes::runs_at_least_once(*m.loops[q])) return false;
    return true;
}

// Where launch P ran, M ran after it, when P runs before M (M runs after it) and B runs after M: M is in no branch
// arm B is not in, and every loop of M that B is not in and that may run no iteration counts from 0 (or less) by a
// positive step up to P's core_num, the same value (defined once, in no loop P or M is not in): the
// runtime refuses a launch of fewer than one block (simpler's submit asserts block_num >= 1), so where P ran
// those loops ran an iteration, and M's instance there ran after P and before B (docs/DECISIONS.md, "A loop that
// runs no iteration only where a launch did not run").
bool LaunchOrder::runs_loops_of(size_t p, const ManualLaunch& m, const ManualLaunch& b) {
    if (!prefix_of(m.arms, b.arms)) return false;
    const ExprPtr* cn = core_num_attr(*m_launches[p].call);
    if (!cn || !*cn || (*cn)->kind != ExprKind::Var || !(*cn)->var || defined_twice((*cn)->var.get()) ||
        m_rebound.count((*cn)->var.get()) || m_index_loop.count((*cn)->var.get()) ||
        m_carry_index.count((*cn)->var.get()))
        return false;
    const Var* e = (*cn)->var.get();
    const auto& pl = m_launches[p].loops;
    // (its value is the one of P's and M's iteration: defined in no loop one of them is not in)
    if (auto d = m_def_loops.find(e);
        d != m_def_loops.end() && (!prefix_of(d->second, pl) || !prefix_of(d->second, m.loops)))
        return false;
    for (size_t q = shared_loops(m.loops, b.loops); q < m.loops.size(); ++q) {
        const Stmt* l = m.loops[q];
        if (passes::runs_at_least_once(*l)) continue;
        if (std::find(pl.begin(), pl.end(), l) != pl.end()) return false;
        const auto start = l->start ? const_int(l->start) : std::optional<int64_t>(0);
        const auto step = l->step ? const_int(l->step) : std::optional<int64_t>(1);
        if (!start || *start > 0 || !step || *step <= 0 || !l->stop || l->stop->kind != ExprKind::Var ||
            l->stop->var.get() != e)
            return false;
    }
    return true;
}

// The read lies on every path to launch B: the branch arms it sits in are B's, and each loop around it that
// is not around B runs (a read in the loops B shares sits in B's iteration).
bool LaunchOrder::dominates(const HostRead& r, const ManualLaunch& b) {
    if (!prefix_of(r.arms, b.arms)) return false;
    const size_t k = shared_loops(r.loops, b.loops);
    for (size_t m = k; m < r.loops.size(); ++m)
        if (!passes::runs_at_least_once(*r.loops[m])) return false;
    return true;
}

// The launches of LOOP and what each runs after across its iterations (needs `after` of its launches: every launch
// of a loop comes before the launches after it, which ask).
std::vector<size_t> LaunchOrder::launches_in(const Stmt* loop) {
    std::vector<size_t> in;
    for (size_t k = 0; k < m_n_launch; ++k)
        if (std::find(m_launches[k].loops.begin(), m_launches[k].loops.end(), loop) != m_launches[k].loops.end())
            in.push_back(k);
    return in;
}

const LaunchOrder::LoopOrder& LaunchOrder::loop_order(const Stmt* loop) {
    if (auto it = m_loop_orders.find(loop); it != m_loop_orders.end()) return it->second;
    LoopOrder o;
    const std::vector<size_t> in = launches_in(loop);
    std::set<const Var*> own;
    for (const auto& ia : loop->iter_args) own.insert(ia.get());
    for (size_t j : in) {
        std::set<size_t> r, e;
        // Through a value the loop carries: the launches the previous iteration's yield surely holds ran there
        // (their last instance in the loops below; all of them when those run one after another), and so did
        // what they run after.
        for (size_t t : m_carried[j]) {
            if (!is_carry(t) || !own.count(m_token_of[t - m_n_launch].var)) continue;
            if (auto it = m_yielded.find(t); it != m_yielded.end())
                for (size_t x : it->second)
                    if (x < m_n_launch && loop_index(m_launches[x], loop) < m_launches[x].loops.size() &&
                        chained_below(x, loop)) {
                        r.insert(x);
                        r.insert(m_after[x].begin(), m_after[x].end());
                    }
        }
        // The tensor map orders j after every earlier iteration's i as it does in one iteration: i publishes
        // what j looks up (and what i runs after, where i runs in every iteration).
        for (size_t i : in)
            if (map_orders(i, j, loop)) {
                for (auto* s : {&r, &e}) {
                    s->insert(i);
                    if (runs_every(m_launches[i], loop)) s->insert(m_after[i].begin(), m_after[i].end());
                }
            }
        o.prev[j] = std::move(r);
        o.every[j] = std::move(e);
    }
    // Through a launch j runs after in its iteration, which runs whenever j does: that launch's back edges.
    const LoopOrder direct = o;
    for (size_t j : in)
        for (size_t y : m_after[j])
            if (on_every_path(m_launches[y], m_launches[j])) {
                if (auto it = direct.prev.find(y); it != direct.prev.end())
                    o.prev[j].insert(it->second.begin(), it->second.end());
                if (auto it = direct.every.find(y); it != direct.every.end())
                    o.every[j].insert(it->second.begin(), it->second.end());
            }
    return m_loop_orders.emplace(loop, std::move(o)).first->second;
}

void LaunchOrder::order_iterations() {
    // Launches of one loop at two iterations (a launch and itself, or two launches of its body, either first in
    // the body): i at iteration t runs before j at every later t' when j runs after every earlier instance of i
    // (the tensor map), or after the previous iteration's i and i after its own previous instance in every
    // iteration, or after i in its own iteration (i running whenever j does) and i so chained, or when j runs in
    // every iteration after its previous instance and after i in its own or the previous iteration
    // (docs/DECISIONS.md, "Manual scopes" and "Task ids carried by loops").
    // (in program order: the order of findings never depends on where the statements were allocated)
    std::vector<const Stmt*> all_loops;
    for (const auto& l : m_launches)
        for (const Stmt* f : l.loops)
            if (std::find(all_loops.begin(), all_loops.end(), f) == all_loops.end()) all_loops.push_back(f);
    for (const Stmt* loop : all_loops) {
        // A loop of one iteration (or none) pairs nothing across iterations.
        if (auto lo = loop->start ? const_int(loop->start) : std::optional<int64_t>(0),
            hi = loop->stop ? const_int(loop->stop) : std::nullopt,
            st = loop->step ? const_int(loop->step) : std::optional<int64_t>(1);
            lo && hi && st && *st > 0 && *hi - *lo <= *st)
            continue;
        const std::vector<size_t> in = launches_in(loop);
        const LoopOrder& o = loop_order(loop);
        auto holds = [](const std::map<size_t, std::set<size_t>>& m, size_t j, size_t i) {
            auto it = m.find(j);
            return it != m.end() && it->second.count(i) > 0;
        };
        for (size_t j : in) {
            if (m_reported[j] || never_runs(m_launches[j])) continue;
            const ManualLaunch& b = m_launches[j];
            for (size_t i : in) {
                const ManualLaunch& a = m_launches[i];
                if (never_runs(a)) continue;
                const bool ordered =
                    holds(o.every, j, i) || (holds(o.prev, j, i) && runs_every(a, loop) && chained(i, loop)) ||
                    (m_after[j].count(i) && on_every_path(a, b) && chained(i, loop)) ||
                    ((m_after[j].count(i) || holds(o.prev, j, i)) && runs_every(b, loop) && chained(j, loop));
                if (ordered) continue;
                // j looks up what i publishes: the tensor map holds every earlier iteration's i that is still
                // running (a task publishes one entry per write; a writer that replaced another overlapping one
                // without an order is itself a WAW reported at i), so j runs after all of them.
                if (map_orders(i, j, loop)) continue;
                // Launches whose arguments change with the iteration are paired through windows cvsim knows
                // (docs/DECISIONS.md, "Manual scopes": what it cannot tell is a limit, counted in the note).
                const bool varying = launch_varies(i, loop) || launch_varies(j, loop);
                if (const Conflict c = conflict(i, j, loop, varying); c.shared) {
                    report(i, j, c, loop, !c.sure);
                    break;
                }
                // Windows cvsim cannot bound in every dimension (data, a value it does not follow, a strided
                // access): it cannot show the iterations apart, so the pair is a finding that says so.
                if (varying)
                    if (const Conflict c = conflict(i, j, loop, false); c.shared) {
                        report(i, j, c, loop, true);
                        break;
                    }
            }
        }
    }
}

}  // namespace cvsim::launch_detail
