// LaunchOrder, one iteration: what each launch runs after (deps=, task-id arrays, tensor map, host reads).
#include "frontend/launch_order.h"

#include <algorithm>

namespace cvsim::launch_detail {

void LaunchOrder::order_launches() {
    m_after.assign(m_n_launch, {});
    m_carried.assign(m_n_launch, {});
    m_reported.assign(m_n_launch, false);
    // A host read of a tracked tensor waits for the launches that wrote it before (AUTO scope, tracked argument:
    // the runtime's tensor map knows them): every launch after the read, in every path through it, runs after
    // them. A read in a manual scope, of a manual_dep tensor, or in a branch arm or loop the later launch is not
    // in orders nothing here.
    m_read_writers.assign(m_host_reads.size(), {});
    for (size_t r = 0; r < m_host_reads.size(); ++r) {
        const HostRead& hr = m_host_reads[r];
        if (hr.in_manual_scope) continue;
        // Only writers the read surely waits for at every instance (as map_orders): one root each, and constant
        // windows that share bytes, or one of the two all of the root. A writer in a loop the read is not in, at
        // a window moving with that loop, overlaps the read at some iterations only; one writing a tensor created
        // in that loop wrote the read's tensor at one iteration only.
        const auto read_roots = m_roots->of(hr.tensor);
        const Var* base = one_base(read_roots);
        const GmAlias* gr = single_root(read_roots);
        for (size_t i = 0; base && !is_untracked(base) && i < hr.pos && i < m_n_launch; ++i) {
            if (m_launches[i].scope != kAuto || fresh_in(base, m_launches[i].loops, hr.loops)) continue;
            for (const Access& x : m_access[i]) {
                if (!x.writes || !x.tracked || one_base(x.roots) != base) continue;
                const GmAlias* gx = single_root(x.roots);
                if ((gx && gr && !gx->shape.empty() && !gr->shape.empty() && may_share(*gx, *gr)) ||
                    whole_arg(x.roots, x.arg) || whole_arg(read_roots, hr.tensor))
                    m_read_writers[r].insert(i);
            }
        }
    }
    m_before_all.assign(m_n_launch, {});
    for (size_t j = 0; j < m_n_launch; ++j) {
        const ManualLaunch& b = m_launches[j];
        std::set<size_t> by_deps, direct, named, sels, cond_direct;
        by_deps = m_launch_deps[j];
        for (size_t t : by_deps) {
            if (is_sel(t)) {
                sels.insert(t);
                for (const auto& [e, ts] : m_token_of[t - m_n_launch].elems)
                    for (size_t u : ts)
                        if (is_inst(u)) named.insert(m_token_of[u - m_n_launch].launch);
            } else if (is_inst(t)) {
                named.insert(m_token_of[t - m_n_launch].launch);
            } else if (is_carry(t)) {
                m_carried[j].insert(t);
            } else if (is_cond(t)) {
                // A launch out of one arm of a branch, where it ran: j runs after it when it ran in j's
                // iteration of its loops (all of them j's), which is the iteration the token was made in.
                const size_t x = m_token_of[t - m_n_launch].launch;
                if (x < j && shared_loops(m_launches[x].loops, b.loops) == m_launches[x].loops.size())
                    cond_direct.insert(x);
            } else {
                named.insert(t);
            }
        }
        for (size_t t : named) {
            if (t >= j) continue;
            // A task id out of a loop j is not in is its last iteration's: it orders the earlier iterations'
            // instances only when they run one after another, or when deps= name the task id of every iteration
            // (an array filled per iteration).
            const ManualLaunch& m = m_launches[t];
            const size_t k = shared_loops(m.loops, b.loops);
            // (the loops from Q on: covered by a fill whose every element deps= name)
            size_t covered = m.loops.size();
            for (size_t fi = 0; fi < m_fills.size(); ++fi) {
                const Fill& f = m_fills[fi];
                if (f.nest.size() > m.loops.size() - k ||
                    !std::equal(f.nest.begin(), f.nest.end(), m.loops.end() - f.nest.size()))
                    continue;
                const bool every = ordered_elems(t, fi, by_deps).size() == f.image.size();
                if (every) covered = std::min(covered, m.loops.size() - f.nest.size());
            }
            // (the loops no fill covers: chained, and a task id of t itself, which is its last instance there; a
            // fill's element names the instance that stored it, which orders nothing about the later ones)
            bool all = covered < m.loops.size() || by_deps.count(t) > 0;
            for (size_t q = k; q < covered && all; ++q) all = chained(t, m.loops[q]);
            if (all) {
                direct.insert(t);
                continue;
            }
            // Some of its instances: those of a fill over all the loops t is in and j is not, whose elements
            // deps= name (constant elements, or an index over j's loops).
            for (size_t fi = 0; fi < m_fills.size() && !m_partial.count({t, j}); ++fi) {
                const Fill& f = m_fills[fi];
                if (f.nest.size() != m.loops.size() - k ||
                    !std::equal(f.nest.begin(), f.nest.end(), m.loops.end() - f.nest.size()))
                    continue;
                Partial p{fi, ordered_elems(t, fi, by_deps), {}, {}, {}};
                for (size_t tk : by_deps) {
                    if (!is_inst(tk)) continue;
                    const Token& x = m_token_of[tk - m_n_launch];
                    if (x.launch != t || x.fill != fi) continue;
                    if (!x.at) {
                        continue;
                    } else if (over_loops_of(x.at, b)) {
                        p.at.push_back(x.at);
                    }
                }
                // (a select token: the elements that hold this fill's instance that stored them)
                for (size_t tk : sels) {
                    const Token& x = m_token_of[tk - m_n_launch];
                    if (!over_loops_of(x.at, b)) continue;
                    std::set<int64_t> es;
                    for (const auto& [e, ts] : x.elems)
                        if (auto it = m_inst_id.find(std::make_tuple(t, fi, e));
                            it != m_inst_id.end() && ts.count(it->second))
                            es.insert(e);
                    if (!es.empty()) p.at_in.emplace_back(x.at, std::move(es));
                }
                if (p.elems.empty() && p.at.empty() && p.at_in.empty()) continue;
                // Every instance of t runs before some instance of j, all of which run (j in no branch arm in
                // its loops past t's, those of constant ranges, the indices over them): what runs after every
                // instance of j runs after every instance of t.
                bool all_run = std::all_of(b.arms.begin(), b.arms.end(),
                                           [&](const auto& arm) { return m_if_depth.at(arm.first) <= k; });
                std::vector<const Stmt*> own(b.loops.begin() + static_cast<std::ptrdiff_t>(k), b.loops.end());
                for (const Expr* h : p.at)
                    for (const Stmt* l : index_loops(h)) all_run &= std::find(own.begin(), own.end(), l) != own.end();
                for (const auto& [h, es] : p.at_in)
                    for (const Stmt* l : index_loops(h)) all_run &= std::find(own.begin(), own.end(), l) != own.end();
                std::vector<std::vector<int64_t>> vals;
                size_t points = 1;
                for (const Stmt* l : own) {
                    auto v = all_run ? loop_vals(*l) : std::nullopt;
                    all_run = all_run && v && !v->empty() && (points *= v->size()) <= 4096;
                    if (all_run) vals.push_back(std::move(*v));
                }
                if (all_run) {
                    std::set<int64_t> got = p.elems;
                    std::vector<size_t> at(own.size(), 0);
                    for (size_t q = 0; q < points; ++q) {
                        std::map<const Var*, int64_t> bound;
                        for (size_t d = 0; d < own.size(); ++d) bound[own[d]->loop_var.get()] = vals[d][at[d]];
                        for (const Expr* h : p.at)
                            if (auto e = index_at(h, bound, 0)) got.insert(*e);
                        for (const auto& [h, es] : p.at_in)
                            if (auto e = index_at(h, bound, 0); e && es.count(*e)) got.insert(*e);
                        for (size_t d = own.size(); d-- > 0;) {
                            if (++at[d] < vals[d].size()) break;
                            at[d] = 0;
                        }
                    }
                    if (std::includes(got.begin(), got.end(), f.image.begin(), f.image.end())) m_before_all[j][t] = k;
                }
                m_partial.emplace(std::make_pair(t, j), std::move(p));
            }
        }
        // Select tokens: at j's instances where the index is E, the launches of element E (and, when each runs
        // whenever j does, what they run after) ran before, in this iteration of the loops they share with j. Only
        // launches in no loop j is not in (a task id out of such a loop is its last instance, which orders
        // nothing of the others here), and indices over j's own loops.
        for (size_t tk : sels) {
            const Token& x = m_token_of[tk - m_n_launch];
            if (index_loops(x.at).empty() || !over_loops_of(x.at, b)) continue;
            std::map<size_t, std::set<int64_t>> ordered;  // launch -> the index values where j runs after it
            for (const auto& [e, ts] : x.elems)
                for (size_t t : ts) {
                    if (t >= m_n_launch || t >= j ||
                        shared_loops(m_launches[t].loops, b.loops) != m_launches[t].loops.size())
                        continue;
                    ordered[t].insert(e);
                    if (on_every_path(m_launches[t], b))
                        for (size_t i : m_after[t]) ordered[i].insert(e);
                }
            for (auto& [i, es] : ordered) m_partial[{i, j}].sel.emplace_back(x.at, std::move(es));
        }
        direct.insert(cond_direct.begin(), cond_direct.end());
        for (size_t r = 0; r < m_host_reads.size(); ++r)
            if (m_host_reads[r].pos <= j && dominates(m_host_reads[r], b))
                direct.insert(m_read_writers[r].begin(), m_read_writers[r].end());
        for (size_t i = 0; i < j; ++i)
            if (!exclusive_arms(m_launches[i], b) && map_orders(i, j)) direct.insert(i);
        for (size_t i : direct)
            if (i < j) {
                m_after[j].insert(i);
                if (!on_every_path(m_launches[i], b)) {
                    // (what i runs after that runs only where i's loops run an iteration)
                    for (size_t p : m_after[i])
                        if (runs_loops_of(p, m_launches[i], b)) m_after[j].insert(p);
                    continue;
                }
                m_after[j].insert(m_after[i].begin(), m_after[i].end());
                m_carried[j].insert(m_carried[i].begin(), m_carried[i].end());
                // (only when j runs after ALL of those instances of i: j shares none of i's loops past the K)
                for (const auto& [x, kx] : m_before_all[i]) {
                    if (shared_loops(m_launches[i].loops, b.loops) > kx) continue;
                    m_after[j].insert(x);
                    m_after[j].insert(m_after[x].begin(), m_after[x].end());
                }
            }
        for (size_t i = 0; i < j && !m_reported[j]; ++i) {
            if (m_after[j].count(i) || exclusive_arms(m_launches[i], b) || never_runs(m_launches[i]) || never_runs(b))
                continue;
            auto pt = m_partial.find({i, j});
            if (const Conflict c = conflict(i, j, nullptr, false, pt == m_partial.end() ? nullptr : &pt->second, true);
                c.shared)
                report(i, j, c, nullptr, !c.sure);
        }
    }
}

// The elements of fill FI whose instance of launch T the tokens DEPS order: those named, and, when T's
// instances run one after another over the nest, every one stored before the last named.
std::set<int64_t> LaunchOrder::ordered_elems(size_t t, size_t fi, const std::set<size_t>& deps) {
    const Fill& f = m_fills[fi];
    std::set<int64_t> named;
    for (int64_t e : f.image)
        if (auto it = m_inst_id.find(std::make_tuple(t, fi, e)); it != m_inst_id.end() && deps.count(it->second))
            named.insert(e);
    if (named.empty() || !std::all_of(f.nest.begin(), f.nest.end(), [&](const Stmt* l) { return chained(t, l); }))
        return named;
    size_t last = 0;
    for (size_t q = 0; q < f.order.size(); ++q)
        if (named.count(f.order[q])) last = q;
    named.insert(f.order.begin(), f.order.begin() + static_cast<std::ptrdiff_t>(last) + 1);
    return named;
}

// Whether index H reads only loops B is in (its value is known at each instance of B).
bool LaunchOrder::over_loops_of(const Expr* h, const ManualLaunch& b) {
    const auto& hl = index_loops(h);
    return std::all_of(hl.begin(), hl.end(), [&](const Stmt* l) {
        return l && std::find(b.loops.begin(), b.loops.end(), l) != b.loops.end();
    });
}

}  // namespace cvsim::launch_detail
