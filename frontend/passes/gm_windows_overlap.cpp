// GM windows (gm_windows.h): whether two windows may share an element, in one cluster at iterations of a cross loop.
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

}  // namespace cvsim::passes
