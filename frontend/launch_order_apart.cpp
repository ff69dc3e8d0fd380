// LaunchOrder, two launches' argument windows apart, or surely overlapping, over the loop variables' values.
#include "frontend/launch_order.h"

#include <algorithm>

#include "frontend/ops.h"

namespace cvsim::launch_detail {

// Whether access X of launch A and Y of launch B name bytes that cannot be shared: in one dimension both
// offsets move alike with the loops (the same loop variables, same coefficients) and the windows are apart.
// LOOP == nullptr: in one iteration of every loop both sit in; else at two different iterations of LOOP:
// both offsets are s * i + c (+ the same terms of loops outside it) and both windows fit in one span of
// |s * step| elements, so different iterations' windows are different spans.
// PART (in one iteration only): the instances of A that B's deps= name through a filled array; a pair of
// instances it orders needs no window apart.
bool LaunchOrder::apart(size_t a, size_t x, size_t b, size_t y, const Stmt* loop, const Partial* part) {
    const auto& wx = arg_window(a, x);
    const auto& wy = arg_window(b, y);
    if (!wx || !wy || wx->root != wy->root || wx->dims.size() != wy->dims.size()) return false;
    // (a derived variable is its loop index's: the same loop, its value computed from the index's)
    auto common = [&](const Var* v) {
        v = base_of(v);
        for (const Stmt* f : m_launches[a].loops)
            if (f->loop_var.get() == v)
                return std::find(m_launches[b].loops.begin(), m_launches[b].loops.end(), f) !=
                       m_launches[b].loops.end();
        return false;
    };
    // Whether loop variable V has one value for both windows: its loop encloses both launches and, when LOOP
    // pairs two of its iterations, encloses LOOP too (a loop inside LOOP runs afresh in each iteration).
    const Var* iv = loop ? loop->loop_var.get() : nullptr;
    auto shared_var = [&](const Var* v) {
        v = base_of(v);
        if (v == iv || !common(v)) return false;
        if (!loop) return true;
        for (const Stmt* f : m_launches[a].loops) {
            if (f == loop) return false;  // reached LOOP first: V's loop is inside it
            if (f->loop_var.get() == v) return true;
        }
        return false;
    };
    // Each variable instance of the two offsets: (variable, 0 = A's own value, 1 = B's own, 2 = shared).
    std::vector<std::pair<const Var*, int>> keys;
    auto key_of = [&](const Var* v, int side) {
        const std::pair<const Var*, int> k{base_of(v), shared_var(v) ? 2 : side};
        auto it = std::find(keys.begin(), keys.end(), k);
        if (it != keys.end()) return static_cast<size_t>(it - keys.begin());
        keys.push_back(k);
        return keys.size() - 1;
    };
    for (size_t d = 0; d < wx->dims.size(); ++d)
        for (int side = 0; side < 2; ++side)
            if (const auto& w = (side == 0 ? wx : wy)->dims[d])
                for (const auto& [v, cf] : w->off.coef) key_of(v, side);
    if (part) {
        if (part->fill != kNoFill)
            for (const Stmt* l : m_fills[part->fill].nest) key_of(l->loop_var.get(), 0);
        for (const Expr* h : part->at)
            for (const Stmt* l : index_loops(h)) key_of(l->loop_var.get(), 1);
        for (const auto& [h, es] : part->sel)
            for (const Stmt* l : index_loops(h)) key_of(l->loop_var.get(), 1);
        for (const auto& [h, es] : part->at_in)
            for (const Stmt* l : index_loops(h)) key_of(l->loop_var.get(), 1);
    }
    std::vector<std::vector<int64_t>> values;
    bool enumerable = true;
    int64_t combos = 1;
    for (const auto& [v, side] : keys) {
        auto vals = loop_values(v);
        if (!vals || vals->empty()) {
            enumerable = false;
            values.emplace_back();
            continue;
        }
        combos = std::min<int64_t>(combos * static_cast<int64_t>(vals->size()), int64_t{1} << 40);
        values.push_back(std::move(*vals));
    }
    // Exact when the variables take few values: under every assignment (A's iteration of LOOP before B's) the two
    // windows are apart in some dimension.
    if (enumerable && combos <= (int64_t{1} << 16)) {
        std::vector<size_t> at(keys.size(), 0);
        size_t iv_a = keys.size(), iv_b = keys.size();
        for (size_t k = 0; k < keys.size(); ++k) {
            if (keys[k].first == iv && keys[k].second == 0) iv_a = k;
            if (keys[k].first == iv && keys[k].second == 1) iv_b = k;
        }
        auto value = [&](const Var* v, int side) {
            const std::pair<const Var*, int> k{base_of(v), shared_var(v) ? 2 : side};
            const size_t i = static_cast<size_t>(std::find(keys.begin(), keys.end(), k) - keys.begin());
            auto dv = m_derived_of.find(v);
            return dv == m_derived_of.end() ? values[i][at[i]] : derive(dv->second, values[i][at[i]]);
        };
        // The instance pair is ordered through a filled array B's deps= read (PART).
        auto ordered_here = [&] {
            if (!part) return false;
            for (const auto& [h, es] : part->sel) {
                std::map<const Var*, int64_t> hb;
                for (const Stmt* l : index_loops(h)) hb[l->loop_var.get()] = value(l->loop_var.get(), 1);
                if (auto e = index_at(h, hb, 0); e && es.count(*e)) return true;
            }
            if (part->fill == kNoFill) return false;
            const Fill& f = m_fills[part->fill];
            std::map<const Var*, int64_t> bound;
            for (const Stmt* l : f.nest) bound[l->loop_var.get()] = value(l->loop_var.get(), 0);
            const auto e = index_at(f.index, bound, 0);
            if (!e) return false;
            if (part->elems.count(*e)) return true;
            for (const Expr* h : part->at) {
                std::map<const Var*, int64_t> hb;
                for (const Stmt* l : index_loops(h)) hb[l->loop_var.get()] = value(l->loop_var.get(), 1);
                if (index_at(h, hb, 0) == e) return true;
            }
            for (const auto& [h, es] : part->at_in) {
                std::map<const Var*, int64_t> hb;
                for (const Stmt* l : index_loops(h)) hb[l->loop_var.get()] = value(l->loop_var.get(), 1);
                if (index_at(h, hb, 0) == e && es.count(*e)) return true;
            }
            return false;
        };
        bool all_apart = true;
        for (int64_t c = 0; c < combos && all_apart; ++c) {
            const bool skip =
                (iv_a < keys.size() && iv_b < keys.size() && values[iv_a][at[iv_a]] >= values[iv_b][at[iv_b]]) ||
                ordered_here();
            if (!skip) {
                bool apart_here = false;
                for (size_t d = 0; d < wx->dims.size() && !apart_here; ++d) {
                    const auto& p = wx->dims[d];
                    const auto& q = wy->dims[d];
                    if (!p || !q) continue;
                    int64_t po = p->off.c, qo = q->off.c;
                    for (const auto& [v, cf] : p->off.coef) po += cf * value(v, 0);
                    for (const auto& [v, cf] : q->off.coef) qo += cf * value(v, 1);
                    apart_here = po + p->ext <= qo || qo + q->ext <= po;
                }
                all_apart = apart_here;
            }
            for (size_t k = 0; k < at.size(); ++k) {
                if (++at[k] < values[k].size()) break;
                at[k] = 0;
            }
        }
        if (all_apart) return true;
    }
    for (size_t d = 0; d < wx->dims.size(); ++d) {
        const auto& p = wx->dims[d];
        const auto& q = wy->dims[d];
        // The offsets' difference over the ranges of the variables keeps the windows apart (what the two
        // coefficients of a shared variable do not cancel ranges over its values).
        if (p && q) {
            std::map<const Var*, int64_t> shared;
            std::vector<std::pair<const Var*, int64_t>> own;
            for (int side = 0; side < 2; ++side)
                for (const auto& [v, cf] : (side == 0 ? p : q)->off.coef) {
                    const int64_t signed_cf = side == 0 ? cf : -cf;
                    if (shared_var(v))
                        shared[v] += signed_cf;
                    else
                        own.emplace_back(v, signed_cf);
                }
            for (const auto& [v, cf] : shared) own.emplace_back(v, cf);
            int64_t lo = p->off.c - q->off.c, hi = lo;
            bool ok = true;
            for (const auto& [v, cf] : own) {
                if (cf == 0) continue;
                auto r = loop_range(v);
                if (!r || std::abs(cf) > (int64_t{1} << 31) || std::abs(r->first) > (int64_t{1} << 31) ||
                    std::abs(r->second) > (int64_t{1} << 31)) {
                    ok = false;
                    break;
                }
                lo += std::min(cf * r->first, cf * r->second);
                hi += std::max(cf * r->first, cf * r->second);
            }
            if (ok && (lo >= q->ext || hi <= -p->ext)) return true;
        }
        if (!p || !q || p->off.coef != q->off.coef) continue;
        bool same_iteration_terms = true;
        for (const auto& [v, cf] : p->off.coef) same_iteration_terms &= common(v);
        if (!same_iteration_terms) continue;
        if (!loop) {
            if (p->off.c + p->ext <= q->off.c || q->off.c + q->ext <= p->off.c) return true;
            continue;
        }
        auto step = loop->step ? const_int(loop->step) : std::optional<int64_t>(1);
        auto s_it = p->off.coef.find(iv);
        if (!iv || !step || *step == 0 || s_it == p->off.coef.end()) continue;
        // The other terms must not change between two iterations of LOOP: loops enclosing it.
        bool outer_only = true;
        for (const auto& [v, cf] : p->off.coef) {
            if (v == iv) continue;
            bool outer = false;
            for (const Stmt* f : m_launches[a].loops) {
                if (f == loop) break;
                outer |= f->loop_var.get() == v;
            }
            outer_only &= outer;
        }
        if (!outer_only) continue;
        const int64_t span = std::abs(s_it->second * *step);
        const int64_t lo = std::min(p->off.c, q->off.c), hi = std::max(p->off.c + p->ext, q->off.c + q->ext);
        if (hi - lo <= span) return true;
    }
    return false;
}

// Whether the runtime's tensor map surely sees access X of launch A and Y of launch B overlap, at every pair of
// their instances the check pairs: the argument windows (not narrowed to what the kernels access: the map keys
// on arguments) share bytes under every value of the loop variables in their offsets (LOOP == nullptr: one
// iteration of every loop both sit in; else A at an earlier iteration of LOOP than B). A map edge that holds for
// some instances only (a slice at an offset moving with a loop, a value that is one of several tensors) orders
// nothing cvsim may rely on: the instance it misses is unordered.
bool LaunchOrder::must_overlap(size_t a, size_t x, size_t b, size_t y, const Stmt* loop) {
    const auto& wx = map_box(a, x);
    const auto& wy = map_box(b, y);
    if (!wx || !wy || wx->root != wy->root || wx->dims.size() != wy->dims.size()) return false;
    for (size_t d = 0; d < wx->dims.size(); ++d)
        if (!wx->dims[d] || !wy->dims[d]) return false;
    auto common = [&](const Var* v) {
        for (const Stmt* f : m_launches[a].loops)
            if (f->loop_var.get() == v)
                return std::find(m_launches[b].loops.begin(), m_launches[b].loops.end(), f) !=
                       m_launches[b].loops.end();
        return false;
    };
    const Var* iv = loop ? loop->loop_var.get() : nullptr;
    auto shared_var = [&](const Var* v) {
        if (v == iv || !common(v)) return false;
        if (!loop) return true;
        for (const Stmt* f : m_launches[a].loops) {
            if (f == loop) return false;
            if (f->loop_var.get() == v) return true;
        }
        return false;
    };
    std::vector<std::pair<const Var*, int>> keys;
    for (size_t d = 0; d < wx->dims.size(); ++d)
        for (int side = 0; side < 2; ++side)
            for (const auto& [v, cf] : (side == 0 ? wx : wy)->dims[d]->off.coef) {
                const std::pair<const Var*, int> k{v, shared_var(v) ? 2 : side};
                if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
            }
    std::vector<std::vector<int64_t>> values;
    int64_t combos = 1;
    for (const auto& [v, side] : keys) {
        auto vals = loop_values(v);
        if (!vals || vals->empty()) return false;
        combos = std::min<int64_t>(combos * static_cast<int64_t>(vals->size()), int64_t{1} << 40);
        values.push_back(std::move(*vals));
    }
    if (combos > (int64_t{1} << 16)) return false;
    size_t iv_a = keys.size(), iv_b = keys.size();
    for (size_t k = 0; k < keys.size(); ++k) {
        if (keys[k].first == iv && keys[k].second == 0) iv_a = k;
        if (keys[k].first == iv && keys[k].second == 1) iv_b = k;
    }
    std::vector<size_t> at(keys.size(), 0);
    auto value = [&](const Var* v, int side) {
        const std::pair<const Var*, int> k{v, shared_var(v) ? 2 : side};
        const size_t i = static_cast<size_t>(std::find(keys.begin(), keys.end(), k) - keys.begin());
        return values[i][at[i]];
    };
    for (int64_t c = 0; c < combos; ++c) {
        const bool skip = iv_a < keys.size() && iv_b < keys.size() && values[iv_a][at[iv_a]] >= values[iv_b][at[iv_b]];
        if (!skip)
            for (size_t d = 0; d < wx->dims.size(); ++d) {
                const auto& p = *wx->dims[d];
                const auto& q = *wy->dims[d];
                int64_t po = p.off.c, qo = q.off.c;
                for (const auto& [v, cf] : p.off.coef) po += cf * value(v, 0);
                for (const auto& [v, cf] : q.off.coef) qo += cf * value(v, 1);
                // (a dimension of unknown extent overlaps only as the same whole dimension)
                const bool overlap = p.ext > 0 && q.ext > 0 ? po < qo + q.ext && qo < po + p.ext
                                                            : po == 0 && qo == 0 && p.ext == q.ext &&
                                                                  p.off.coef.empty() && q.off.coef.empty();
                if (!overlap) return false;
            }
        for (size_t k = 0; k < at.size(); ++k) {
            if (++at[k] < values[k].size()) break;
            at[k] = 0;
        }
    }
    return true;
}

}  // namespace cvsim::launch_detail
