// LaunchOrder, windows: values affine in the loop variables, loop ranges, the window each argument covers.
#include "frontend/launch_order.h"

#include <algorithm>
#include <string>

namespace cvsim::launch_detail {

int64_t LaunchOrder::derive(const Derived& dv, int64_t x) {
    const int64_t n = dv.k * x + dv.c;
    return dv.mod ? n % dv.d : n / dv.d;
}

const Var* LaunchOrder::base_of(const Var* v) {
    auto it = m_derived_of.find(v);
    return it == m_derived_of.end() ? v : it->second.base;
}

std::optional<std::pair<int64_t, int64_t>> LaunchOrder::loop_range(const Var* v) {
    if (auto dv = m_derived_of.find(v); dv != m_derived_of.end()) {
        // (monotone in the base for k > 0 and a quotient; a remainder: 0 .. d - 1)
        auto r = loop_range(dv->second.base);
        if (!r) return std::nullopt;
        if (dv->second.mod) return std::pair<int64_t, int64_t>{0, dv->second.d - 1};
        const int64_t x = derive(dv->second, r->first), y = derive(dv->second, r->second);
        return std::pair<int64_t, int64_t>{std::min(x, y), std::max(x, y)};
    }
    auto it = m_loop_of.find(v);
    if (it == m_loop_of.end()) return std::nullopt;
    const auto b = loop_bounds(*it->second);
    if (!b) return std::nullopt;
    const int64_t lo = b->lo, hi = b->hi, st = b->step;
    if (st <= 0 || hi <= lo) return std::nullopt;
    return std::pair<int64_t, int64_t>{lo, lo + (hi - lo - 1) / st * st};
}

std::optional<std::vector<int64_t>> LaunchOrder::loop_values(const Var* v) {
    if (auto dv = m_derived_of.find(v); dv != m_derived_of.end()) {
        auto b = loop_values(dv->second.base);
        if (!b) return std::nullopt;
        std::set<int64_t> out;
        for (int64_t x : *b) out.insert(derive(dv->second, x));
        return std::vector<int64_t>(out.begin(), out.end());
    }
    auto it = m_loop_of.find(v);
    if (it == m_loop_of.end()) it = m_index_loop.find(v);
    return it == m_index_loop.end() ? std::nullopt : loop_vals(*it->second);
}

std::optional<Affine> LaunchOrder::affine(const Expr* e, int depth) {
    if (!e || depth > 32) return std::nullopt;
    if (e->kind == ExprKind::Int) return Affine{{}, e->ival};
    if (e->kind == ExprKind::Var && e->var) {
        const Var* v = e->var.get();
        if (m_rebound.count(v)) return std::nullopt;
        if (m_loop_vars.count(v)) return Affine{{{v, 1}}, 0};
        auto it = m_def_of.find(v);
        if (it == m_def_of.end() || m_multi_def.count(v)) return std::nullopt;
        return affine(it->second, depth + 1);
    }
    if (e->kind == ExprKind::FuncCall && e->sval == "pl.cast" && !e->args.empty())
        return affine(e->args[0].get(), depth + 1);
    if (e->kind != ExprKind::Binary || e->args.size() != 2) return std::nullopt;
    auto a = affine(e->args[0].get(), depth + 1);
    auto b = affine(e->args[1].get(), depth + 1);
    if (!a || !b) return std::nullopt;
    if (e->sval == "+" || e->sval == "-") {
        const int64_t sign = e->sval == "+" ? 1 : -1;
        for (const auto& [v, k] : b->coef) a->coef[v] += sign * k;
        a->c += sign * b->c;
        return a;
    }
    if (e->sval == "*") {
        if (!a->coef.empty() && !b->coef.empty()) return std::nullopt;
        const Affine& s = a->coef.empty() ? *b : *a;
        const int64_t m = a->coef.empty() ? a->c : b->c;
        Affine r{{}, s.c * m};
        for (const auto& [v, k] : s.coef) r.coef[v] = k * m;
        return r;
    }
    if ((e->sval == "//" || e->sval == "%") && b->coef.empty() && b->c > 0 && a->coef.size() == 1 &&
        m_loop_vars.count(a->coef.begin()->first) && std::abs(a->coef.begin()->second) < (int64_t{1} << 20) &&
        std::abs(a->c) < (int64_t{1} << 40)) {
        // (a numerator that is never negative: Python's floor division is C++'s there)
        const auto [v, k] = *a->coef.begin();
        const auto r = loop_range(v);
        if (!r || std::min(k * r->first, k * r->second) + a->c < 0) return std::nullopt;
        const bool mod = e->sval == "%";
        auto [it, fresh] = m_derived_key.try_emplace(std::make_tuple(v, k, a->c, b->c, mod), nullptr);
        if (fresh) {
            m_derived_vars.push_back(Var{v->name + (mod ? "%" : "//") + std::to_string(b->c), v->type, 0, v->loc});
            it->second = &m_derived_vars.back();
            m_derived_of[it->second] = Derived{v, k, a->c, b->c, mod};
        }
        return Affine{{{it->second, 1}}, 0};
    }
    return std::nullopt;
}

std::optional<LaunchOrder::AffineWindow> LaunchOrder::window_of(const Expr* arg) {
    for (int hop = 0; arg && arg->kind == ExprKind::Var && hop < 16; ++hop) {
        auto it = m_def_of.find(arg->var.get());
        if (it == m_def_of.end() || m_multi_def.count(arg->var.get()) || !it->second) return std::nullopt;
        const Expr* d = it->second;
        if (d->kind == ExprKind::Var) {
            arg = d;
            continue;
        }
        // A tensor created and assembled once into a target is a slice of it (FuseCreateAssembleToSlice): its
        // shape, padded with leading 1s, at the assemble's offsets.
        const Expr* target = nullptr;
        const Expr* offs = nullptr;
        std::optional<std::vector<int64_t>> shape;
        if (d->kind == ExprKind::FuncCall && d->sval == "pl.tensor.create") {
            const Expr* as = m_roots->fused_assemble(arg->var.get());
            if (!as || as->args.size() < 3 || !as->args[0] || as->args[0]->kind != ExprKind::Var) return std::nullopt;
            target = as->args[0].get();
            offs = as->args[2].get();
            std::vector<int64_t> sh = arg->var->type.shape;
            const size_t rank = target->var->type.shape.size();
            if (sh.size() > rank) return std::nullopt;
            sh.insert(sh.begin(), rank - sh.size(), 1);
            shape = sh;
        } else if (d->kind == ExprKind::FuncCall && (d->sval == "pl.tensor.slice" || d->sval == "pl.tensor.view") &&
                   d->args.size() >= 3 && d->args[0] && d->args[0]->kind == ExprKind::Var) {
            target = d->args[0].get();
            offs = d->args[2].get();
            shape = const_ints(d->args[1]);
        } else {
            return std::nullopt;
        }
        if (!shape || !offs || (offs->kind != ExprKind::List && offs->kind != ExprKind::Tuple) ||
            offs->args.size() != shape->size())
            return std::nullopt;
        // The whole of one root (by one path or several: a loop's carried value).
        auto base = m_roots->of(target);
        if (base.empty() ||
            !std::all_of(base.begin(), base.end(),
                         [&](const GmAlias& g) { return g.base == base[0].base && whole_or_unknown(g); }) ||
            base[0].base->type.shape != target->var->type.shape)
            return std::nullopt;
        AffineWindow w{base[0].base, {}, *shape};
        for (const auto& o : offs->args) w.lo.push_back(affine(o.get(), 0));
        return w;
    }
    return std::nullopt;
}

// The window access X of launch K names of its root as the runtime's tensor map sees it: the argument's own
// slice (or the whole root), not narrowed to what the kernel accesses (nullopt: not known).
std::optional<LaunchOrder::ArgWindow> LaunchOrder::box_from(const Expr* arg, const std::vector<GmAlias>& rts) {
    struct {
        const Expr* arg;
        const std::vector<GmAlias>& roots;
    } a{arg, rts};
    ArgWindow w;
    if (auto sw = window_of(a.arg)) {
        w.root = sw->root;
        for (size_t d = 0; d < sw->lo.size(); ++d)
            w.dims.push_back(sw->lo[d] ? std::optional<ArgDim>(ArgDim{*sw->lo[d], sw->ext[d]}) : std::nullopt);
    } else if (!a.roots.empty() &&
               std::all_of(a.roots.begin(), a.roots.end(),
                           [&](const GmAlias& g) { return g.base == a.roots[0].base && whole_or_unknown(g); }) &&
               a.arg && a.arg->type.kind == TypeKind::Tensor && a.roots[0].base->type.shape == a.arg->type.shape) {
        // (several roots: the same tensor by several paths, e.g. a loop's carried value; of its shape: all of it)
        w.root = a.roots[0].base;
        for (int64_t e : a.arg->type.shape) w.dims.push_back(ArgDim{Affine{}, e});
    } else if (const GmAlias whole = a.roots.size() == 1 ? whole_of(a.roots[0].base) : GmAlias{};
               a.roots.size() == 1 && !a.roots[0].shape.empty() && !whole.shape.empty() &&
               a.roots[0].strides == whole.strides && a.roots[0].start >= 0) {
        // One constant box of the root (a slice, or a tensor assembled into it): its offsets from its start.
        w.root = a.roots[0].base;
        int64_t rest = a.roots[0].start;
        for (size_t d = 0; d < whole.shape.size(); ++d) {
            w.dims.push_back(ArgDim{Affine{{}, rest / whole.strides[d]}, a.roots[0].shape[d]});
            rest %= whole.strides[d];
        }
    } else {
        return std::nullopt;
    }
    return w;
}

const std::optional<LaunchOrder::ArgWindow>& LaunchOrder::arg_box(size_t k, size_t x) {
    auto [it, fresh] = m_arg_boxes.try_emplace({k, x});
    if (fresh) it->second = box_from(m_access[k][x].arg, m_access[k][x].roots);
    return it->second;
}

// The argument a launch's result stands for: the written argument of the launch that returns it, when that
// launch writes one tensor argument only (followed through single definitions); else E itself.
const Expr* LaunchOrder::through_results(const Expr* e) {
    for (int hop = 0; e && hop < 32; ++hop) {
        const Expr* d = nullptr;
        int64_t index = -1;
        const Type* t = nullptr;
        if (e->kind == ExprKind::Index && !e->args.empty() && e->args[0] && e->args[0]->kind == ExprKind::Var) {
            const Var* tv = e->args[0]->var.get();
            auto it = m_def_of.find(tv);
            if (it == m_def_of.end() || m_multi_def.count(tv)) break;
            d = it->second;
            index = e->ival;
        } else if (e->kind == ExprKind::Var && e->var) {
            auto it = m_def_of.find(e->var.get());
            if (it == m_def_of.end() || m_multi_def.count(e->var.get()) || !it->second) break;
            if (it->second->kind == ExprKind::Var || it->second->kind == ExprKind::Index) {
                e = it->second;
                continue;
            }
            d = it->second;
            t = &e->var->type;
        } else {
            break;
        }
        const Expr* w = written_arg(d, index, t);
        // one written tensor argument only: the result is that one
        if (!w || written_arg(d, 1, nullptr)) break;
        e = w;
    }
    return e;
}

const std::optional<LaunchOrder::ArgWindow>& LaunchOrder::map_box(size_t k, size_t x) {
    auto [it, fresh] = m_map_boxes.try_emplace({k, x});
    if (fresh) {
        const Expr* e = through_results(m_access[k][x].arg);
        it->second = e == m_access[k][x].arg ? arg_box(k, x) : box_from(e, m_roots->of(e));
    }
    return it->second;
}

const std::optional<LaunchOrder::ArgWindow>& LaunchOrder::arg_window(size_t k, size_t x) {
    auto [it, fresh] = m_arg_windows.try_emplace({k, x});
    if (!fresh) return it->second;
    const ManualLaunch& l = m_launches[k];
    const auto& box = map_box(k, x);
    if (!box) return it->second;
    ArgWindow w = *box;
    const size_t pp = m_access_param[k][x];
    // A core_num the orchestration computes at run time: any width (0: the block index unbounded). The runtime
    // runs as many blocks as the value says; the 1 block of a check without --blocks is no bound on what a launch
    // of another width writes (a pair of launches whose blocks 1.. overlap was clean).
    auto blocks = launch_core_num(*l.call);
    int width = blocks ? static_cast<int>(*blocks) : core_num_attr(*l.call) ? 0 : 1;
    // A core_num affine in the orchestration's loop indices (`core_num=i` in `for i in pl.range(1, 4)`) is at most
    // its largest value over their ranges: the windows at that width hold those of every narrower launch (the block
    // index only ranges further), so they bound the accesses, though not exactly (docs/DECISIONS.md, "A core_num
    // from loop indices bounds the blocks").
    bool width_bound = false;
    if (!blocks)
        if (const ExprPtr* cn = core_num_attr(*l.call))
            if (auto a = affine(cn->get(), 0)) {
                int64_t hi = a->c;
                bool ok = true;
                for (const auto& [v, cf] : a->coef) {
                    const auto r = loop_range(v);
                    if (!r || std::abs(cf) > 4096) {
                        ok = false;
                        break;
                    }
                    hi += cf > 0 ? cf * r->second : cf * r->first;
                }
                if (ok && hi >= 1 && hi <= 4096) {
                    width = static_cast<int>(hi);
                    width_bound = true;
                }
            }
    bool atomic = false;
    auto kw = kernel_window(m_program, *l.callee, pp, width, 0, &atomic);
    w.atomic = kw && atomic;
    if (kw && kw->size() == w.dims.size())
        for (size_t d = 0; d < w.dims.size(); ++d) {
            if (!w.dims[d] || !(*kw)[d]) continue;
            Affine off = w.dims[d]->off;
            bool ok = true;
            for (const auto& [q, m] : (*kw)[d]->coef) {
                auto v = l.first + q < l.call->args.size() ? affine(l.call->args[l.first + q].get(), 0) : std::nullopt;
                if (!v) {
                    ok = false;
                    break;
                }
                for (const auto& [lv, cf] : v->coef) off.coef[lv] += m * cf;
                off.c += m * v->c;
            }
            if (!ok) continue;
            off.c += (*kw)[d]->lo;
            std::erase_if(off.coef, [](const auto& e) { return e.second == 0; });
            w.dims[d] = ArgDim{off, (*kw)[d]->hi - (*kw)[d]->lo, (*kw)[d]->dense && !width_bound};
        }
    it->second = w;
    return it->second;
}

}  // namespace cvsim::launch_detail
