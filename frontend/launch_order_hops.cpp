// LaunchOrder, tensor-map edges that hold at some instance pairs: a pair of launches ordered at exactly the
// instances whose windows meet (docs/DECISIONS.md, "Tensor-map edges that hold at the instances that meet").
#include "frontend/launch_order.h"

#include <algorithm>

namespace cvsim::launch_detail {

namespace {

// A - B when the two differ by a constant (every coefficient the same), else nullopt.
std::optional<int64_t> const_diff(const Affine& a, const Affine& b) {
    for (const auto& [v, cf] : a.coef) {
        auto it = b.coef.find(v);
        if (cf != (it == b.coef.end() ? 0 : it->second)) return std::nullopt;
    }
    for (const auto& [v, cf] : b.coef)
        if (cf != 0 && !a.coef.count(v)) return std::nullopt;
    return a.c - b.c;
}

}  // namespace

// Whether V (through base_of) is the variable of a loop both launch A and launch B are in.
bool LaunchOrder::in_both_loops(size_t a, size_t b, const Var* v) {
    v = base_of(v);
    for (const Stmt* f : m_launches[a].loops)
        if (f->loop_var.get() == v)
            return std::find(m_launches[b].loops.begin(), m_launches[b].loops.end(), f) != m_launches[b].loops.end();
    return false;
}

// The edges of the tensor map through which launch J may run after an earlier launch I at some of their instance
// pairs: I (AUTO) publishes a tracked access of one tensor and M (AUTO, after I in program order) looks up an
// access of that tensor, where M is J itself, or a launch J runs after in J's iteration that is in no loop J is
// not in and runs whenever J does (so J's instance runs after M's instance of that iteration): in no branch arm J
// is not in, its core_num a constant or none, in no pl.spmd loop (a launch of fewer than one block does not run;
// golden printed/empty_loop_width_orders_before_launch.py). The tensor is
// created in no loop one of I and M is in and the other is not (else M finds another iteration's tensor).
// Which instance pairs each edge holds at is hop_orders'.
std::vector<LaunchOrder::Hop> LaunchOrder::hops(size_t i, size_t j) {
    std::vector<Hop> out;
    const ManualLaunch& a = m_launches[i];
    const ManualLaunch& b = m_launches[j];
    if (a.scope != kAuto) return out;
    for (size_t m = i + 1; m <= j && m < m_n_launch; ++m) {
        const ManualLaunch& l = m_launches[m];
        if (l.scope != kAuto) continue;
        // (M surely runs where J does: a core_num known at run time only may be below 1, and the runtime does not
        // run such a launch, while J runs after every instance of M "that ran")
        const bool blocks_known = !core_num_attr(*l.call) || launch_core_num(*l.call).has_value();
        if (m != j && (!m_after[j].count(m) || shared_loops(l.loops, b.loops) != l.loops.size() ||
                       !on_every_path(l, b) || never_runs(l) || !blocks_known || m_in_spmd.count(m)))
            continue;
        for (size_t xi = 0; xi < m_access[i].size(); ++xi) {
            const Access& x = m_access[i][xi];
            if (!x.writes || !x.tracked) continue;
            const Var* base = one_base(x.roots);
            if (!base || is_untracked(base) || fresh_in(base, a.loops, l.loops) || fresh_in(base, l.loops, a.loops))
                continue;
            for (size_t yi = 0; yi < m_access[m].size(); ++yi) {
                const Access& y = m_access[m][yi];
                if (y.looks_up && y.tracked && one_base(y.roots) == base) out.push_back(Hop{m, xi, yi});
            }
        }
    }
    return out;
}

// Whether, wherever access X of launch A and Y of launch B (one iteration of the loops both are in) may share
// bytes, edge H holds: its two arguments overlap there, so the tensor map orders H's M, and so B, after A.
// Symbolically: every dimension of H's windows either overlaps at every value (constant offsets, or the same
// terms of loops A and B share) or moves with a dimension of the conflicting windows by the same terms, the
// windows' offsets differing by constants U and V, with extents such that the conflicting windows meeting in that
// dimension makes H's meet (race [r, r + P) and [s, s + Q) meet when -P < r - s < Q; H's [r + U, ...+ EU) and
// [s + V, ...+ EV) then do when EU + U - V >= P and Q + U - V <= EV).
bool LaunchOrder::hop_implied(size_t a, size_t x, size_t b, size_t y, const Hop& h) {
    const auto& rx = arg_window(a, x);
    const auto& ry = arg_window(b, y);
    const auto& mx = map_box(a, h.xi);
    const auto& my = map_box(h.m, h.yi);
    if (!rx || !ry || rx->root != ry->root || rx->dims.size() != ry->dims.size()) return false;
    if (!mx || !my || mx->root != my->root || mx->dims.size() != my->dims.size()) return false;
    // (a loop variable both A and B are in has one value at the pair; M's loops are B's)
    auto shared = [&](const Var* v) { return in_both_loops(a, b, v); };
    for (size_t d = 0; d < mx->dims.size(); ++d) {
        if (!mx->dims[d] || !my->dims[d]) return false;
        const ArgDim& p = *mx->dims[d];
        const ArgDim& q = *my->dims[d];
        if (p.ext <= 0 || q.ext <= 0) return false;
        bool ok = false;
        if (auto c = const_diff(p.off, q.off)) {
            bool one_value = true;
            for (const auto& [v, cf] : p.off.coef) one_value &= cf == 0 || shared(v);
            ok = one_value && *c < q.ext && -*c < p.ext;
        }
        for (size_t e = 0; e < rx->dims.size() && !ok; ++e) {
            if (!rx->dims[e] || !ry->dims[e]) continue;
            const ArgDim& r = *rx->dims[e];
            const ArgDim& s = *ry->dims[e];
            if (r.ext <= 0 || s.ext <= 0) continue;
            const auto u = const_diff(p.off, r.off);
            const auto v = const_diff(q.off, s.off);
            if (!u || !v) continue;
            ok = p.ext + *u - *v >= r.ext && s.ext + *u - *v <= q.ext;
        }
        if (!ok) return false;
    }
    return true;
}

// Whether the edges HS order B after A at every pair of instances (one iteration of the loops both are in) where
// access X of A and Y of B may share bytes: one edge symbolically (hop_implied), else, when the loop variables of
// the windows take few values (at most 65,536 assignments), instance pair by instance pair: wherever the two
// windows meet, some edge's arguments overlap.
bool LaunchOrder::hop_orders(size_t a, size_t x, size_t b, size_t y, const std::vector<Hop>& hs) {
    for (const Hop& h : hs)
        if (hop_implied(a, x, b, y, h)) return true;
    const auto& rx = arg_window(a, x);
    const auto& ry = arg_window(b, y);
    if (!rx || !ry || rx->root != ry->root || rx->dims.size() != ry->dims.size()) return false;
    auto common = [&](const Var* v) { return in_both_loops(a, b, v); };
    // Each variable instance: (variable, 0 = A's own value, 1 = B's (and M's) own, 2 = shared).
    std::vector<std::pair<const Var*, int>> keys;
    auto key_of = [&](const Var* v, int side) {
        const std::pair<const Var*, int> k{base_of(v), common(v) ? 2 : side};
        auto it = std::find(keys.begin(), keys.end(), k);
        if (it != keys.end()) return static_cast<size_t>(it - keys.begin());
        keys.push_back(k);
        return keys.size() - 1;
    };
    auto add_keys = [&](const ArgWindow& w, int side) {
        for (const auto& d : w.dims)
            if (d)
                for (const auto& [v, cf] : d->off.coef) key_of(v, side);
    };
    add_keys(*rx, 0);
    add_keys(*ry, 1);
    std::vector<const Hop*> usable;
    for (const Hop& h : hs) {
        const auto& mx = map_box(a, h.xi);
        const auto& my = map_box(h.m, h.yi);
        if (!mx || !my || mx->root != my->root || mx->dims.size() != my->dims.size() ||
            !std::all_of(mx->dims.begin(), mx->dims.end(), [](const auto& d) { return d && d->ext > 0; }) ||
            !std::all_of(my->dims.begin(), my->dims.end(), [](const auto& d) { return d && d->ext > 0; }))
            continue;
        add_keys(*mx, 0);
        add_keys(*my, 1);
        usable.push_back(&h);
    }
    if (usable.empty()) return false;
    std::vector<std::vector<int64_t>> values;
    int64_t combos = 1;
    for (const auto& [v, side] : keys) {
        auto vals = loop_values(v);
        if (!vals || vals->empty()) return false;
        combos = std::min<int64_t>(combos * static_cast<int64_t>(vals->size()), int64_t{1} << 40);
        values.push_back(std::move(*vals));
    }
    if (combos > (int64_t{1} << 16)) return false;
    std::vector<size_t> at(keys.size(), 0);
    auto value = [&](const Var* v, int side) {
        const std::pair<const Var*, int> k{base_of(v), common(v) ? 2 : side};
        const size_t i = static_cast<size_t>(std::find(keys.begin(), keys.end(), k) - keys.begin());
        auto dv = m_derived_of.find(v);
        return dv == m_derived_of.end() ? values[i][at[i]] : derive(dv->second, values[i][at[i]]);
    };
    auto offset = [&](const Affine& off, int side) {
        int64_t o = off.c;
        for (const auto& [v, cf] : off.coef) o += cf * value(v, side);
        return o;
    };
    // (windows that meet in every dimension known; one not known meets anything)
    auto meet = [&](const ArgWindow& p, const ArgWindow& q) {
        for (size_t d = 0; d < p.dims.size(); ++d) {
            if (!p.dims[d] || !q.dims[d] || p.dims[d]->ext <= 0 || q.dims[d]->ext <= 0) continue;
            const int64_t po = offset(p.dims[d]->off, 0), qo = offset(q.dims[d]->off, 1);
            if (po + p.dims[d]->ext <= qo || qo + q.dims[d]->ext <= po) return false;
        }
        return true;
    };
    for (int64_t c = 0; c < combos; ++c) {
        if (meet(*rx, *ry)) {
            bool ordered = false;
            for (const Hop* h : usable)
                if (meet(*map_box(a, h->xi), *map_box(h->m, h->yi))) {
                    ordered = true;
                    break;
                }
            if (!ordered) return false;
        }
        for (size_t k = 0; k < at.size(); ++k) {
            if (++at[k] < values[k].size()) break;
            at[k] = 0;
        }
    }
    return true;
}

}  // namespace cvsim::launch_detail
