// LaunchOrder, conflicts: varying arguments, shared tensors, the tensor map's orders, and the findings' text.
#include "frontend/launch_order.h"

#include <fmt/format.h>

#include <algorithm>

#include "frontend/codes.h"

namespace cvsim::launch_detail {

// Whether an argument of launch K may differ between iterations of LOOP: a scalar computed from a loop
// variable of LOOP or of a loop inside it (or from a value cvsim does not follow: a carried scalar, several
// definitions), or a tensor sliced at such an offset. A tensor that is a launch's result or a loop's carried
// value is the same root at every iteration.
bool LaunchOrder::varies(const Expr* e, const Stmt* loop, const ManualLaunch& l, int depth) {
    if (!e || depth > 32) return depth > 32;
    if (e->kind == ExprKind::Var && e->var) {
        const Var* v = e->var.get();
        if (m_rebound.count(v)) return true;
        if (m_loop_vars.count(v)) {
            for (const Stmt* f : l.loops) {
                if (f == loop) break;
                if (f->loop_var.get() == v) return false;  // a loop outside LOOP: fixed across its iterations
            }
            return true;
        }
        const bool tensor = v->type.kind == TypeKind::Tensor;
        auto it = m_def_of.find(v);
        if (it == m_def_of.end() || m_multi_def.count(v) || !it->second)
            // No single definition: a parameter (fixed), or a loop's or branch's result or carried value (a
            // scalar one may change; a tensor one has the same roots at every iteration).
            return !tensor && (m_multi_def.count(v) > 0 || m_carry_index.count(v) > 0);
        const Expr* d = it->second;
        if (tensor) {
            if (d->kind == ExprKind::Var) return varies(d, loop, l, depth + 1);
            if (d->kind == ExprKind::FuncCall &&
                (d->sval == "pl.tensor.slice" || d->sval == "pl.tensor.view" || d->sval == "pl.tensor.reshape"))
                for (const auto& a : d->args)
                    if (varies(a.get(), loop, l, depth + 1)) return true;
            return false;
        }
        return varies(d, loop, l, depth + 1);
    }
    if (e->kind == ExprKind::FuncCall && e->ival == kFuncRef) return false;
    for (const auto& a : e->args)
        if (varies(a.get(), loop, l, depth + 1)) return true;
    return false;
}

bool LaunchOrder::launch_varies(size_t k, const Stmt* loop) {
    const ManualLaunch& l = m_launches[k];
    for (size_t p = l.first; p < l.call->args.size(); ++p)
        if (varies(l.call->args[p].get(), loop, l, 0)) return true;
    return false;
}

bool LaunchOrder::is_untracked(const Var* v) {
    return m_untracked.count(v) > 0;
}

// The window of access X of launch K is what the kernel accesses in every dimension, without gaps.
bool LaunchOrder::exact_window(size_t k, size_t x) {
    const auto& w = arg_window(k, x);
    return w && std::all_of(w->dims.begin(), w->dims.end(), [](const auto& d) { return d && d->exact; });
}

// The window of access X of launch K is known at every iteration of LOOP: narrowed to what the kernel
// accesses in every dimension, offsets moving only with LOOP and the loops outside it.
bool LaunchOrder::known(size_t k, size_t x, const Stmt* loop) {
    if (!loop || !exact_window(k, x)) return false;
    std::set<const Var*> fixed;
    for (const Stmt* f : m_launches[k].loops) {
        fixed.insert(f->loop_var.get());
        if (f == loop) break;
    }
    for (const auto& d : arg_window(k, x)->dims) {
        for (const auto& [v, cf] : d->off.coef)
            if (!fixed.count(base_of(v))) {
                // A loop inside LOOP with few values: apart() tries every one of them.
                auto vals = loop_values(v);
                if (!vals || vals->size() > 64) return false;
            }
    }
    return true;
}

// A tensor launches A and B may share, one of them writing it. ORDERED_BY_MAP: only through arguments the
// runtime's tensor map orders (both launches in AUTO scopes, both arguments tracked, the tensor not
// manual_dep); else only through the others. LOOP: at different iterations of it (windows that differ by the
// iteration are apart).
// KNOWN_ONLY: only through arguments whose windows are known in every dimension.
// USE_HOPS (in one iteration only): tensor-map edges that order B after A at the instances where they hold
// excuse those instances (hops, hop_orders).
LaunchOrder::Conflict LaunchOrder::conflict(size_t a, size_t b, const Stmt* loop, bool known_only, const Partial* part,
                                            bool use_hops) {
    Conflict c;
    std::optional<std::vector<Hop>> hs;  // (found once, when a pair of windows is not apart)
    const bool both_auto = m_launches[a].scope == kAuto && m_launches[b].scope == kAuto;
    for (size_t xi = 0; xi < m_access[a].size(); ++xi)
        for (size_t yi = 0; yi < m_access[b].size(); ++yi) {
            const Access& x = m_access[a][xi];
            const Access& y = m_access[b][yi];
            if (!x.writes && !y.writes) continue;
            // X published and Y looked up in the tensor map: at every pair of instances whose accesses share
            // bytes, the arguments (which hold the accesses) overlap there too, so the map orders those two.
            // (per shared tensor: one the runtime tracks)
            const bool through_map = both_auto && x.writes && x.tracked && y.looks_up && y.tracked;
            for (const GmAlias& gx : x.roots)
                for (const GmAlias& gy : y.roots) {
                    if (c.shared || !may_share(gx, gy)) continue;
                    if (through_map && !is_untracked(gx.base)) continue;
                    // A tensor created in the loop's body: each iteration has its own.
                    if (loop)
                        if (auto it = m_created_in.find(gx.base); it != m_created_in.end() && it->second.count(loop))
                            continue;
                    // In one iteration: one side this iteration's tensor, the other an earlier one's (carried).
                    if (!loop && gx.base == gy.base && other_instance(x.arg, y.arg, gx.base)) continue;
                    if (apart(a, xi, b, yi, loop, part)) continue;
                    if (use_hops && !loop) {
                        if (!hs) hs = hops(a, b);
                        if (!hs->empty() && hop_orders(a, xi, b, yi, *hs)) continue;
                    }
                    // Two atomic adds (and nothing else) to the same bytes commute: no order needed.
                    if (const auto& wa = arg_window(a, xi), &wb = arg_window(b, yi);
                        wa && wb && wa->atomic && wb->atomic)
                        continue;
                    if (known_only && (!known(a, xi, loop) || !known(b, yi, loop))) continue;
                    c = Conflict{gx.base, x.writes, y.writes,
                                 both_auto && x.tracked && y.tracked && !is_untracked(gx.base),
                                 exact_window(a, xi) && exact_window(b, yi)};
                }
        }
    return c;
}

const GmAlias* LaunchOrder::single_root(const std::vector<GmAlias>& rs) {
    if (rs.empty()) return nullptr;
    for (const GmAlias& g : rs)
        if (g.base != rs[0].base || g.shape != rs[0].shape || g.strides != rs[0].strides || g.start != rs[0].start)
            return nullptr;
    return &rs[0];
}

// The one tensor all of RS are (nullptr: none, or several tensors).
const Var* LaunchOrder::one_base(const std::vector<GmAlias>& rs) {
    if (rs.empty()) return nullptr;
    for (const GmAlias& g : rs)
        if (g.base != rs[0].base) return nullptr;
    return rs[0].base;
}

// How the tensor value E reaches BASE, a tensor the orchestration creates: through the carried value of a loop
// (that loop; DIRECT false), or as the tensor the create statement made in this pass over it (DIRECT true:
// followed through single definitions, slices, views, reshapes, assembles and a launch's written argument).
// nullptr and DIRECT false: cvsim cannot tell.
const Stmt* LaunchOrder::carried_from(const Expr* e, const Var* base, bool& direct, int depth) {
    direct = false;
    if (!e || depth > 64) return nullptr;
    if (e->kind == ExprKind::Index && !e->args.empty() && e->args[0] && e->args[0]->kind == ExprKind::Var) {
        const Var* r = e->args[0]->var.get();
        auto it = m_def_of.find(r);
        if (it == m_def_of.end() || m_multi_def.count(r)) return nullptr;
        return carried_from(written_arg(it->second, e->ival, nullptr), base, direct, depth + 1);
    }
    if (e->kind == ExprKind::FuncCall && (e->sval == "pl.tensor.slice" || e->sval == "pl.tensor.view" ||
                                          e->sval == "pl.tensor.reshape" || e->sval == "pl.tensor.assemble"))
        return e->args.empty() ? nullptr : carried_from(e->args[0].get(), base, direct, depth + 1);
    if (e->kind != ExprKind::Var || !e->var) return nullptr;
    const Var* v = e->var.get();
    if (defined_twice(v)) return nullptr;
    if (auto c = m_carry_loop.find(v); c != m_carry_loop.end()) return c->second;
    auto it = m_def_of.find(v);
    if (it == m_def_of.end() || m_multi_def.count(v) || !it->second) return nullptr;
    const Expr* d = it->second;
    if (d->kind == ExprKind::FuncCall && d->sval == "pl.tensor.create") {
        direct = v == base;
        return nullptr;
    }
    if (d->kind == ExprKind::Var || d->kind == ExprKind::Index ||
        (d->kind == ExprKind::FuncCall && (d->sval == "pl.tensor.slice" || d->sval == "pl.tensor.view" ||
                                           d->sval == "pl.tensor.reshape" || d->sval == "pl.tensor.assemble")))
        return carried_from(d, base, direct, depth + 1);
    return carried_from(written_arg(d, -1, &v->type), base, direct, depth + 1);
}

// Whether the tensor values X and Y, both of the tensor BASE created in a loop's body, are different instances
// of it in one pass over that body: one is the tensor this pass created, the other reaches it only through the
// loop's carried value (what an earlier iteration yielded, or what the loop started with, made before it).
bool LaunchOrder::other_instance(const Expr* x, const Expr* y, const Var* base) {
    auto it = m_created_in.find(base);
    if (it == m_created_in.end()) return false;
    bool dx = false, dy = false;
    const Stmt* lx = carried_from(x, base, dx);
    const Stmt* ly = carried_from(y, base, dy);
    return (lx && dy && it->second.count(lx)) || (ly && dx && it->second.count(ly));
}

// Whether the tensor BASE is created in a loop launch A sits in and the other side (the loops OTHER) does not:
// that side finds one iteration's tensor only.
bool LaunchOrder::fresh_in(const Var* base, const std::vector<const Stmt*>& a_loops,
                           const std::vector<const Stmt*>& other) {
    auto it = m_created_in.find(base);
    if (it == m_created_in.end()) return false;
    for (const Stmt* f : it->second)
        if (std::find(a_loops.begin(), a_loops.end(), f) != a_loops.end() &&
            std::find(other.begin(), other.end(), f) == other.end())
            return true;
    return false;
}

// A view that is all of its root in another shape (a pl.tensor.reshape of the whole): it starts at 0, holds as
// many elements as the root, contiguously.
bool LaunchOrder::whole_view(const GmAlias& g) {
    if (g.shape.empty() || g.start != 0) return false;
    const GmAlias w = whole_of(g.base);
    if (w.shape.empty()) return false;
    int64_t n = 1, m = 1;
    for (int64_t d : g.shape) n *= d;
    for (int64_t d : w.shape) m *= d;
    int64_t stride = 1;
    for (size_t k = g.shape.size(); k-- > 0;) {
        if (g.shape[k] != 1 && g.strides[k] != stride) return false;
        stride *= g.shape[k];
    }
    return n == m;
}

// Whether E (which may be RS) is all of its one root, by one path or several (as arg_box reads it).
bool LaunchOrder::whole_arg(const std::vector<GmAlias>& rs, const Expr* e) {
    if (!e || e->type.kind != TypeKind::Tensor || !one_base(rs)) return false;
    if (std::all_of(rs.begin(), rs.end(), whole_view)) return true;
    return std::all_of(rs.begin(), rs.end(), [](const GmAlias& g) { return whole_or_unknown(g); }) &&
           rs[0].base->type.shape == e->type.shape;
}

// The runtime's tensor map orders B after A (both in AUTO scopes; A earlier, in the same iteration or an
// earlier one): A publishes a tracked argument it writes and B looks up one that may share its bytes.
// It does so only when the two arguments surely overlap at every instance paired (LOOP: at two different
// iterations of it): one root each (not a value that is one of several tensors), and constant windows that
// share bytes or windows over the loop variables that share bytes at every value (must_overlap). A window
// that moves with a loop overlaps some instances only, and the tensor map orders nothing for the others.
bool LaunchOrder::map_orders(size_t a, size_t b, const Stmt* loop) {
    if (m_launches[a].scope != kAuto || m_launches[b].scope != kAuto) return false;
    for (size_t xi = 0; xi < m_access[a].size(); ++xi) {
        const Access& x = m_access[a][xi];
        if (!x.writes || !x.tracked) continue;
        const Var* base = one_base(x.roots);
        if (!base || is_untracked(base)) continue;
        // A tensor created in a loop A sits in and B does not (or, pairing iterations of LOOP, in LOOP's
        // body): B finds one iteration's tensor only, another instance of A wrote another tensor.
        if (loop ? m_created_in.count(base) && m_created_in.at(base).count(loop)
                 : fresh_in(base, m_launches[a].loops, m_launches[b].loops))
            continue;
        for (size_t yi = 0; yi < m_access[b].size(); ++yi) {
            const Access& y = m_access[b][yi];
            if (!y.looks_up || !y.tracked || one_base(y.roots) != base) continue;
            // All of the root on one side: any window of it overlaps.
            if (whole_arg(x.roots, x.arg) || whole_arg(y.roots, y.arg)) return true;
            // Two constant boxes: may_share is exact.
            const GmAlias* gx = single_root(x.roots);
            const GmAlias* gy = single_root(y.roots);
            if (gx && gy && !gx->shape.empty() && !gy->shape.empty()) {
                if (may_share(*gx, *gy)) return true;
                continue;
            }
            if (must_overlap(a, xi, b, yi, loop)) return true;
        }
    }
    return false;
}

// UNSURE: the windows of the two iterations may or may not overlap (cvsim cannot bound them).
void LaunchOrder::report(size_t i, size_t j, const Conflict& c, const Stmt* loop, bool unsure) {
    const ManualLaunch& a = m_launches[i];
    const ManualLaunch& b = m_launches[j];
    const char* code = c.a_writes && c.b_writes ? codes::kRaceWaw : c.a_writes ? codes::kRaceRaw : codes::kRaceWar;
    const std::string kind = c.a_writes && c.b_writes ? "WAW" : c.a_writes ? "RAW" : "WAR";
    std::string where;
    if (a.scope != kAuto && a.scope == b.scope)
        where = "in a manual scope";
    else if (a.scope != kAuto || b.scope != kAuto)
        where =
            fmt::format("{} a manual scope and {}",
                        a.scope != kAuto && b.scope != kAuto ? "in two manual scopes (neither is tracked):" : "across",
                        a.scope != kAuto && b.scope != kAuto ? "the runtime orders neither by tensor"
                                                             : "outside it (the runtime's tensor map "
                                                               "records no task of a manual scope and "
                                                               "looks none up there)");
    else if (c.tracked && !c.b_writes)
        where =
            "in AUTO scopes (the runtime's tensor map orders a reader after the writers it finds there, "
            "but cvsim found no such order between these two)";
    else if (c.tracked && !c.a_writes)
        where =
            "in AUTO scopes (the runtime's tensor map orders a launch after the earlier writers it looks "
            "up, never a writer after an earlier reader: no write-after-read order)";
    else if (c.tracked)
        where = fmt::format(
            "in AUTO scopes ('{}' writes it through an Out argument the runtime does not look up: PyPTO's "
            "DeriveCallDirections makes it OutputExisting when no sequential loop encloses the launch and no "
            "earlier launch writes the same buffer)",
            b.callee->name);
    else if (is_untracked(c.shared))
        where = "of a tensor created with manual_dep=True (the runtime does not track it)";
    else
        where = "passing it with pl.no_dep (the runtime does not track that argument)";
    Diagnostic d;
    d.code = code;
    d.loc = b.stmt->loc;
    d.span = 1;
    if (loop) {
        d.message = fmt::format(
            "{} on GM tensor '{}' between launches {}: '{}' (line {}) {} it and '{}' {} it at a later iteration "
            "of the loop at line {}, and nothing orders that iteration's '{}' after the earlier one's '{}' "
            "(deps= of a task id the loop carries, or windows that differ by the loop index){}, so the runtime "
            "may run them in either order or at once",
            kind, c.shared->name, where, a.callee->name, a.stmt->loc.line, c.a_writes ? "writes" : "reads",
            b.callee->name, c.b_writes ? "writes" : "reads", loop->loc.line, b.callee->name, a.callee->name,
            unsure ? "; cvsim cannot tell whether the two iterations' windows overlap: they depend on data, "
                     "on a value it does not follow, or on a strided access it bounds by a box"
                   : "");
        d.hint = fmt::format(
            "carry the task id of the launch at line {} through the loop (init_values / pl.yield_, or a task-id "
            "array) into deps=[...] of this launch, or give each iteration a slice of its own{}",
            a.stmt->loc.line,
            unsure ? " (a pl.tensor.slice at an offset affine in the loop index, which cvsim can show apart); if "
                     "the windows are disjoint by construction, this finding is what cvsim cannot prove"
                   : "");
    } else {
        d.message = fmt::format(
            "{} on GM tensor '{}' between launches {}: '{}' (line {}) {} it and '{}' {} it, and '{}' does not "
            "depend on '{}' (deps=){}, so the runtime may run them in either order or at once",
            kind, c.shared->name, where, a.callee->name, a.stmt->loc.line, c.a_writes ? "writes" : "reads",
            b.callee->name, c.b_writes ? "writes" : "reads", b.callee->name, a.callee->name,
            unsure ? "; cvsim cannot tell whether their windows overlap: they depend on data, on a value it does "
                     "not follow, or on an access it bounds by a box"
                   : "");
        d.hint = c.tracked ? fmt::format(
                                 "order it explicitly: submit this launch with deps=[the task id of the launch at "
                                 "line {}], declare the earlier launch's parameter pl.InOut (the runtime then "
                                 "publishes it as a writer), or write into a tensor of its own",
                                 a.stmt->loc.line)
                           : fmt::format("add the task id of the launch at line {} to deps=[...] of this launch",
                                         a.stmt->loc.line);
    }
    m_out.push_back(std::move(d));
    m_reported[j] = true;
}

}  // namespace cvsim::launch_detail
