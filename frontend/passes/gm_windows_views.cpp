// GM windows (gm_windows.h): the base offsets of a view, traced through assignments, loops and branches, and the
// window of a load or store.
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

}  // namespace cvsim::passes
