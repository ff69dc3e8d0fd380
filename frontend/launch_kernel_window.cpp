// What a kernel accesses of a tensor parameter (kernel_window), affine in its scalar parameters, through wrappers.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/launch_internal.h"
#include "frontend/ops.h"
#include "frontend/passes/gm_windows.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

namespace {

// Whether F's body names V anywhere.
bool references(const Function& f, const Var* v) {
    bool found = false;
    std::function<void(const Expr*)> look = [&](const Expr* x) {
        if (!x || found) return;
        if (x->kind == ExprKind::Var && x->var.get() == v) found = true;
        for (const auto& a : x->args) look(a.get());
        for (const auto& a : x->args2) look(a.get());
        look(x->attrs.get());
    };
    passes::walk(f.body, [&](const StmtPtr& st) {
        look(st->value.get());
        for (const auto& e : st->values) look(e.get());
        for (const auto& e : st->init_values) look(e.get());
        look(st->start.get());
        look(st->stop.get());
        look(st->step.get());
    });
    return found;
}

// A wrapper (Spmd or Group function): the windows of the kernels it calls with the parameter, their scalar
// parameters mapped back to the wrapper's (a scalar argument that is not a wrapper parameter: that dimension
// unknown), merged. nullopt when the parameter is used otherwise.
std::optional<KernelWindow> wrapper_window(const Program& prog, Function& k, size_t param, int blocks, int depth,
                                           bool* atomic) {
    bool all_atomic = true;
    const Var* pv = k.params[param].var.get();
    std::map<const Var*, size_t> scalar_index;
    for (size_t i = 0; i < k.params.size(); ++i)
        if (k.params[i].var && k.params[i].var->type.kind == TypeKind::Scalar) scalar_index[k.params[i].var.get()] = i;
    int refs = 0, passed = 0;
    std::function<void(const Expr*)> count = [&](const Expr* x) {
        if (!x) return;
        if (x->kind == ExprKind::Var && x->var.get() == pv) ++refs;
        for (const auto& a : x->args) count(a.get());
        for (const auto& a : x->args2) count(a.get());
        count(x->attrs.get());
    };
    std::optional<KernelWindow> out;
    bool bad = false;
    passes::walk(k.body, [&](const StmtPtr& st) {
        count(st->value.get());
        for (const auto& v : st->values) {
            count(v.get());
            passed += v && v->kind == ExprKind::Var && v->var.get() == pv;  // returned
        }
        for (const auto& v : st->init_values) count(v.get());
        const Expr* c = st->value.get();
        if (!c || c->kind != ExprKind::FuncCall || is_host_op_call(*c) || c->ival == kFuncRef) return;
        auto callee = prog.find(c->sval);
        if (!callee) return;
        for (size_t q = 0; q < c->args.size(); ++q) {
            if (!c->args[q] || c->args[q]->kind != ExprKind::Var || c->args[q]->var.get() != pv) continue;
            ++passed;
            // A callee that never names its parameter (an AIC kernel given the output only its AIV half stores)
            // accesses none of it.
            if (q < callee->params.size() && callee->params[q].var && !references(*callee, callee->params[q].var.get()))
                continue;
            bool callee_atomic = false;
            auto w = kernel_window(prog, *callee, q, blocks, depth + 1, &callee_atomic);
            if (w && w->empty()) continue;  // the callee does not access it
            all_atomic &= callee_atomic;
            if (!w) {
                bad = true;
                continue;
            }
            for (auto& d : *w) {
                if (!d) continue;
                std::map<size_t, int64_t> mapped;
                bool ok = true;
                for (const auto& [cq, m] : d->coef) {
                    const ExprPtr& a = cq < c->args.size() ? c->args[cq] : nullptr;
                    auto it = a && a->kind == ExprKind::Var ? scalar_index.find(a->var.get()) : scalar_index.end();
                    if (it == scalar_index.end()) {
                        ok = false;
                        break;
                    }
                    mapped[it->second] += m;
                }
                if (ok)
                    d->coef = mapped;
                else
                    d.reset();
            }
            if (!out) {
                out = w;
            } else if (out->size() != w->size()) {
                bad = true;
            } else {
                for (size_t d = 0; d < w->size(); ++d) {
                    auto& o = (*out)[d];
                    if (!o || !(*w)[d] || o->coef != (*w)[d]->coef) {
                        o.reset();
                        continue;
                    }
                    o->dense &= (*w)[d]->dense && (*w)[d]->lo <= o->hi && o->lo <= (*w)[d]->hi;
                    o->lo = std::min(o->lo, (*w)[d]->lo);
                    o->hi = std::max(o->hi, (*w)[d]->hi);
                }
            }
        }
    });
    if (bad || refs != passed) return std::nullopt;
    if (!out) return KernelWindow{};  // no callee accesses it
    if (atomic) *atomic = all_atomic;
    return out;
}

}  // namespace

std::optional<KernelWindow> kernel_window(const Program& prog, Function& k, size_t param, int blocks, int depth,
                                          bool* atomic) {
    if (atomic) *atomic = false;
    if (param >= k.params.size() || !k.params[param].var || depth > 4) return std::nullopt;
    if (k.type == FuncType::Spmd || k.type == FuncType::Group)
        return wrapper_window(prog, k, param, blocks, depth, atomic);
    bool all_atomic = true;
    if (k.type != FuncType::InCore && k.type != FuncType::AIC && k.type != FuncType::AIV) return std::nullopt;
    const Var* pv = k.params[param].var.get();
    std::map<const Var*, size_t> scalar_index;
    for (size_t i = 0; i < k.params.size(); ++i)
        if (k.params[i].var && k.params[i].var->type.kind == TypeKind::Scalar) scalar_index[k.params[i].var.get()] = i;
    // The parameter and the values that are it: a store's result into it, a loop's carried value started from
    // it (and that loop's results), a copy. Every reference to one of them must be the tensor operand of a load
    // or store, or such a flow (an init value, a yielded or returned value, a copy).
    std::set<const Var*> same{pv};
    auto is_same = [&](const ExprPtr& e) { return e && e->kind == ExprKind::Var && same.count(e->var.get()); };
    auto is_access = [](const Expr* c) {
        return c && c->kind == ExprKind::Call && c->op && (c->op->code == OpCode::Load || c->op->code == OpCode::Store);
    };
    for (size_t before = 0; before != same.size();) {
        before = same.size();
        passes::walk(k.body, [&](const StmtPtr& st) {
            if (st->kind == StmtKind::Assign && st->targets.size() == 1 &&
                (is_same(st->value) || (is_access(st->value.get()) && st->value->op->code == OpCode::Store &&
                                        is_same(arg(*st->value, "output_tensor")))))
                same.insert(st->targets[0].get());
            if (st->kind == StmtKind::For)
                for (size_t i = 0; i < st->iter_args.size() && i < st->init_values.size(); ++i)
                    if (is_same(st->init_values[i])) {
                        same.insert(st->iter_args[i].get());
                        if (i < st->targets.size()) same.insert(st->targets[i].get());
                    }
        });
    }
    int refs = 0, accesses = 0;
    std::function<void(const Expr*)> count = [&](const Expr* x) {
        if (!x) return;
        if (x->kind == ExprKind::Var && same.count(x->var.get())) ++refs;
        for (const auto& a : x->args) count(a.get());
        for (const auto& a : x->args2) count(a.get());
        count(x->attrs.get());
    };
    passes::walk(k.body, [&](const StmtPtr& st) {
        count(st->value.get());
        for (const auto& v : st->values) {
            count(v.get());
            accesses += is_same(v);  // a yielded or returned value
        }
        for (const auto& v : st->init_values) {
            count(v.get());
            accesses += is_same(v);
        }
        count(st->start.get());
        count(st->stop.get());
        count(st->step.get());
        if (st->kind == StmtKind::Assign && is_same(st->value)) ++accesses;
    });
    passes::WindowAnalysis wa(k, blocks);
    // Loops of K whose start is affine in its scalar parameters and whose stop is that start plus a constant
    // (`for i in pl.range(p, p + 2)`): the start, the step and the trip count.
    struct RelLoop {
        KernelDim start;  // coef and lo: the start's affine form (lo holds the constant)
        int64_t step = 1, trips = 0;
    };
    std::map<const Var*, const Expr*> kdef;
    passes::walk(k.body, [&](const StmtPtr& st) {
        if (st->kind == StmtKind::Assign && st->targets.size() == 1 && st->value)
            if (!kdef.emplace(st->targets[0].get(), st->value.get()).second) kdef[st->targets[0].get()] = nullptr;
    });
    std::function<std::optional<KernelDim>(const Expr*, int)> param_affine =
        [&](const Expr* e, int depth) -> std::optional<KernelDim> {
        if (!e || depth > 16) return std::nullopt;
        if (e->kind == ExprKind::Int) return KernelDim{{}, e->ival, 0};
        if (e->kind == ExprKind::Var && e->var) {
            if (auto it = scalar_index.find(e->var.get()); it != scalar_index.end())
                return KernelDim{{{it->second, 1}}, 0, 0};
            auto d = kdef.find(e->var.get());
            return d != kdef.end() && d->second ? param_affine(d->second, depth + 1) : std::nullopt;
        }
        if (e->kind == ExprKind::FuncCall && e->sval == "pl.cast" && !e->args.empty())
            return param_affine(e->args[0].get(), depth + 1);
        if (e->kind != ExprKind::Binary || e->args.size() != 2) return std::nullopt;
        auto a = param_affine(e->args[0].get(), depth + 1), b = param_affine(e->args[1].get(), depth + 1);
        if (!a || !b) return std::nullopt;
        if (e->sval == "+" || e->sval == "-") {
            const int64_t sg = e->sval == "+" ? 1 : -1;
            for (const auto& [q, m] : b->coef) a->coef[q] += sg * m;
            a->lo += sg * b->lo;
            return a;
        }
        if (e->sval == "*" && (a->coef.empty() || b->coef.empty())) {
            const KernelDim& x = a->coef.empty() ? *b : *a;
            const int64_t f = a->coef.empty() ? a->lo : b->lo;
            KernelDim r{{}, x.lo * f, 0};
            for (const auto& [q, m] : x.coef) r.coef[q] = m * f;
            return r;
        }
        return std::nullopt;
    };
    std::map<const Var*, std::optional<RelLoop>> rel_loops;
    passes::walk(k.body, [&](const StmtPtr& st) {
        if (st->kind != StmtKind::For || !st->loop_var || !st->start || !st->stop) return;
        auto a = param_affine(st->start.get(), 0), b = param_affine(st->stop.get(), 0);
        const auto step = st->step ? const_int(st->step) : std::optional<int64_t>(1);
        if (!a || !b || a->coef.empty() || !step || *step <= 0) return;
        std::erase_if(a->coef, [](const auto& e) { return e.second == 0; });
        std::erase_if(b->coef, [](const auto& e) { return e.second == 0; });
        if (a->coef != b->coef || b->lo - a->lo <= 0 || b->lo - a->lo > (int64_t{1} << 24)) return;
        rel_loops[st->loop_var.get()] = RelLoop{*a, *step, (b->lo - a->lo + *step - 1) / *step};
    });
    auto relative_loop = [&](const Var* v) -> std::optional<RelLoop> {
        auto it = rel_loops.find(v);
        return it == rel_loops.end() ? std::nullopt : it->second;
    };
    // Loops whose start is affine in what the window analysis bounds (the block index, constant-range loop
    // variables; scalar parameters) and whose stop is that start plus a constant (`for n in pl.range(d0, d0 +
    // 512, 256)`, d0 from the block index): the start, the step and the trip count. The analysis leaves such a
    // loop variable unbounded (its start is no constant); here it is its start plus `step * k`, k below the trip
    // count.
    struct StartLoop {
        passes::Affine start;
        int64_t step = 1, trips = 0;
    };
    std::map<const Var*, StartLoop> start_loops;
    auto note_start_loop = [&](const Stmt& st, const passes::StmtPath& at) {
        if (!st.loop_var || !st.start || !st.stop || st.loop_kind == LoopKind::Spmd ||
            rel_loops.count(st.loop_var.get()))
            return;
        const auto step = st.step ? const_int(st.step) : std::optional<int64_t>(1);
        if (!step || *step <= 0) return;
        passes::Affine a = wa.value_at(st.start, at), b = wa.value_at(st.stop, at);
        if (!a.ok || !b.ok || a.terms.empty() || a.terms != b.terms || b.c - a.c <= 0 || b.c - a.c > (int64_t{1} << 24))
            return;
        start_loops[st.loop_var.get()] = StartLoop{a, *step, (b.c - a.c + *step - 1) / *step};
    };
    std::optional<KernelWindow> out;
    bool bad = false;
    std::function<void(Block&, passes::StmtPath)> walk = [&](Block& b, passes::StmtPath path) {
        for (size_t i = 0; i < b.size() && !bad; ++i) {
            passes::StmtPath here = path;
            here.emplace_back(&b, i);
            Stmt& s = *b[i];
            const Expr* c = s.value.get();
            if (c && c->kind == ExprKind::Call && c->op &&
                (c->op->code == OpCode::Load || c->op->code == OpCode::Store)) {
                const ExprPtr& t = arg(*c, c->op->code == OpCode::Store ? "output_tensor" : "tensor");
                if (is_same(t)) {
                    ++accesses;
                    all_atomic &= c->op->code == OpCode::Store && is_atomic_add_store(*c);
                    // Each of `same` is the whole parameter (a store returns its whole output tensor): the window
                    // of the access as if it named the parameter itself (the analysis cannot merge a carried
                    // value's start, the parameter, with what the body yields, a store's result).
                    ExprPtr as_param = clone_expr(b[i]->value);
                    for (size_t x = 0; x < c->args.size(); ++x)
                        if (&c->args[x] == &t) {
                            auto v = std::make_shared<Expr>(*t);
                            v->var = k.params[param].var;
                            as_param->args[x] = v;
                        }
                    const passes::GmWindow w = wa.window(*as_param, here);
                    KernelWindow kw;
                    if (w.ok)
                        for (size_t d = 0; d < w.off.size(); ++d) {
                            KernelDim kd;
                            passes::Affine rest;
                            rest.c = w.off[d].c;
                            bool ok = w.off[d].ok;
                            // A loop from a scalar parameter (`for i in pl.range(p, p + 2)`): i is p's part plus
                            // `step * k`, k below the trip count.
                            int64_t rel_lo = 0, rel_hi = 0;
                            std::vector<int64_t> strides;  // of the terms that move the access
                            for (const auto& [v, m] : w.off[d].terms) {
                                // An offset the window analysis only bounds (gm_windows.h: `%off`, no affine
                                // form; `%div`, x // c; `%lane`, the AIV lane index, whose lane 1 may not
                                // store at all) says nothing about which elements are accessed.
                                if (v->name == "%off" || v->name == "%div" || v->name == "%lane") ok = false;
                                if (auto it = scalar_index.find(v); it != scalar_index.end()) {
                                    kd.coef[it->second] += m;
                                } else if (auto rl = relative_loop(v)) {
                                    for (const auto& [q, a] : rl->start.coef) kd.coef[q] += m * a;
                                    rest.c += m * rl->start.lo;
                                    const int64_t span = m * rl->step * (rl->trips - 1);
                                    rel_lo += std::min<int64_t>(0, span);
                                    rel_hi += std::max<int64_t>(0, span);
                                    if (rl->trips > 1) strides.push_back(m * rl->step);
                                } else if (auto sl = start_loops.find(v); sl != start_loops.end()) {
                                    for (const auto& [a, ka] : sl->second.start.terms) {
                                        if (a->name == "%off" || a->name == "%div" || a->name == "%lane") ok = false;
                                        if (auto pi = scalar_index.find(a); pi != scalar_index.end())
                                            kd.coef[pi->second] += m * ka;
                                        else if (m * ka != 0) {
                                            rest.terms[a] += m * ka;
                                            strides.push_back(m * ka);
                                        }
                                    }
                                    rest.c += m * sl->second.start.c;
                                    const int64_t span = m * sl->second.step * (sl->second.trips - 1);
                                    rel_lo += std::min<int64_t>(0, span);
                                    rel_hi += std::max<int64_t>(0, span);
                                    if (sl->second.trips > 1) strides.push_back(m * sl->second.step);
                                } else {
                                    rest.terms[v] += m;
                                    strides.push_back(m);
                                }
                            }
                            std::erase_if(kd.coef, [](const auto& e) { return e.second == 0; });
                            std::erase_if(rest.terms, [](const auto& e) { return e.second == 0; });
                            auto r = ok ? wa.bounds(rest) : std::nullopt;
                            if (!r) {
                                kw.emplace_back();
                                continue;
                            }
                            kd.lo = r->first + rel_lo;
                            kd.hi = r->second + rel_hi + w.ext[d];
                            kd.dense = strides.size() <= 1;
                            for (int64_t st : strides) kd.dense &= std::abs(st) <= w.ext[d];
                            kw.emplace_back(kd);
                        }
                    if (!w.ok) kw.assign(pv->type.shape.size(), std::nullopt);
                    if (!out) {
                        out = kw;
                    } else if (out->size() != kw.size()) {
                        bad = true;
                    } else {
                        for (size_t d = 0; d < kw.size(); ++d) {
                            auto& o = (*out)[d];
                            if (!o || !kw[d] || o->coef != kw[d]->coef) {
                                o.reset();
                                continue;
                            }
                            o->dense &= kw[d]->dense && kw[d]->lo <= o->hi && o->lo <= kw[d]->hi;
                            o->lo = std::min(o->lo, kw[d]->lo);
                            o->hi = std::max(o->hi, kw[d]->hi);
                        }
                    }
                }
            }
            if (s.kind == StmtKind::For) {
                note_start_loop(s, here);
                walk(s.body, here);
            }
            if (s.kind == StmtKind::If) {
                walk(s.body, here);
                walk(s.orelse, here);
            }
        }
    };
    walk(k.body, {});
    if (bad || refs != accesses) return std::nullopt;
    // Only passed along (returned, yielded, copied), never loaded or stored: nothing of it is accessed (an
    // empty window; a wrapper's other callees give the window).
    if (!out) return KernelWindow{};
    if (atomic) *atomic = all_atomic;
    return out;
}

}  // namespace cvsim::launch_detail
