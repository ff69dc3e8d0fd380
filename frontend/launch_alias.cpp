// Launch arguments that may share GM bytes: the roots a value may be (LaunchAliases); aliasing arguments refused.
#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <tuple>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/launch_internal.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

GmAlias whole_of(const Var* v) {
    GmAlias g;
    g.base = v;
    if (!v || v->type.kind != TypeKind::Tensor || v->type.shape.empty()) return g;
    for (int64_t d : v->type.shape)
        if (d < 1) return g;
    g.shape = v->type.shape;
    g.strides.assign(g.shape.size(), 1);
    for (size_t k = g.shape.size() - 1; k > 0; --k)
        if (__builtin_mul_overflow(g.strides[k], g.shape[k], &g.strides[k - 1])) return GmAlias{v, {}, {}, 0};
    return g;
}

bool whole_or_unknown(const GmAlias& a) {
    if (a.shape.empty()) return true;
    const GmAlias w = whole_of(a.base);
    return a.start == 0 && a.shape == w.shape && a.strides == w.strides;
}

namespace {

// A's elements under another row-major SHAPE (pl.tensor.reshape, two-argument pl.tensor.view) as a strided view,
// or anywhere in A's base when that is not one (numpy's reshape-without-copy rule; dimensions of 1 dropped).
GmAlias reshaped(GmAlias a, const std::vector<int64_t>& shape) {
    GmAlias any{a.base, {}, {}, 0};
    if (a.shape.empty() || shape.empty()) return any;
    int64_t n_old = 1, n_new = 1;
    for (int64_t d : a.shape) n_old *= d;
    for (int64_t d : shape) {
        if (d < 1) return any;
        if (__builtin_mul_overflow(n_new, d, &n_new)) return any;
    }
    if (n_old != n_new) return any;
    std::vector<int64_t> od, os;  // the old dimensions above 1 and their strides
    for (size_t k = 0; k < a.shape.size(); ++k)
        if (a.shape[k] != 1) od.push_back(a.shape[k]), os.push_back(a.strides[k]);
    std::vector<size_t> keep;  // the new dimensions above 1
    for (size_t k = 0; k < shape.size(); ++k)
        if (shape[k] != 1) keep.push_back(k);
    std::vector<int64_t> nd, ns(keep.size(), 0);
    for (size_t k : keep) nd.push_back(shape[k]);
    size_t oi = 0, ni = 0;
    while (oi < od.size() && ni < nd.size()) {
        size_t oj = oi + 1, nj = ni + 1;
        int64_t po = od[oi], pn = nd[ni];
        while (po != pn) {
            if (pn < po) {
                if (nj >= nd.size()) return any;
                pn *= nd[nj++];
            } else {
                if (oj >= od.size()) return any;
                po *= od[oj++];
            }
        }
        for (size_t k = oi; k + 1 < oj; ++k)  // the merged old dimensions must be contiguous in one another
            if (os[k] != od[k + 1] * os[k + 1]) return any;
        ns[nj - 1] = os[oj - 1];
        for (size_t k = nj - 1; k > ni; --k) ns[k - 1] = ns[k] * nd[k];
        oi = oj;
        ni = nj;
    }
    if (oi != od.size() || ni != nd.size()) return any;
    a.shape = shape;
    a.strides.assign(shape.size(), 0);
    for (size_t k = 0; k < keep.size(); ++k) a.strides[keep[k]] = ns[k];
    return a;
}

// The element ranges [lo, hi) of base that view A holds (runs along its last dimension where that has stride 1),
// or nullopt beyond LIMIT ranges.
std::optional<std::vector<std::pair<int64_t, int64_t>>> element_ranges(const GmAlias& a, size_t limit) {
    std::vector<std::pair<int64_t, int64_t>> out;
    const size_t n = a.shape.size();
    const bool run = a.strides[n - 1] == 1;
    const size_t outer = run ? n - 1 : n;  // dimensions enumerated one index at a time
    int64_t count = 1;
    for (size_t k = 0; k < outer; ++k)
        if (__builtin_mul_overflow(count, a.shape[k], &count) || count > static_cast<int64_t>(limit))
            return std::nullopt;
    const int64_t len = run ? a.shape[n - 1] : 1;
    std::vector<int64_t> i(outer, 0);
    for (int64_t c = 0; c < count; ++c) {
        int64_t at = a.start;
        for (size_t k = 0; k < outer; ++k) at += i[k] * a.strides[k];
        out.emplace_back(at, at + len);
        for (size_t k = outer; k-- > 0;) {
            if (++i[k] < a.shape[k]) break;
            i[k] = 0;
        }
    }
    return out;
}

}  // namespace

LaunchAliases::LaunchAliases(const Function& f, const Program* prog) : m_prog(prog) {
    // Every definition of a value: assignments, a loop's carried values (its init values and what the body
    // yields) and results (its carried values), a branch's results (what each arm yields). A value with no
    // definition is a root (a parameter or a created tensor).
    std::function<void(const Block&, const Stmt*)> scan = [&](const Block& body, const Stmt* owner) {
        for (const auto& s : body) {
            if (s->value && s->kind == StmtKind::Assign && s->targets.size() == 1 &&
                s->value->kind == ExprKind::FuncCall && s->value->sval == "pl.tensor.create")
                m_created.insert(s->targets[0].get());
            if (s->value && s->kind == StmtKind::Assign)
                for (size_t k = 0; k < s->targets.size(); ++k) {
                    m_def[s->targets[k].get()].push_back(s->value.get());
                    m_index[{s->targets[k].get(), s->value.get()}] = s->targets.size() > 1 ? static_cast<int>(k) : -1;
                }
            if (s->kind == StmtKind::For) {
                for (size_t k = 0; k < s->iter_args.size() && k < s->init_values.size(); ++k)
                    add(s->iter_args[k].get(), s->init_values[k].get());
                for (size_t k = 0; k < s->targets.size() && k < s->iter_args.size(); ++k)
                    m_link[s->targets[k].get()].push_back(s->iter_args[k].get());
                scan(s->body, s.get());
            } else if (s->kind == StmtKind::If) {
                scan(s->body, s.get());
                scan(s->orelse, s.get());
            } else if (s->kind == StmtKind::Yield) {
                for (size_t k = 0; k < s->values.size(); ++k) {
                    if (k < s->targets.size()) add(s->targets[k].get(), s->values[k].get());
                    if (!owner) continue;
                    const auto& to = owner->kind == StmtKind::For ? owner->iter_args : owner->targets;
                    if (k < to.size()) add(to[k].get(), s->values[k].get());
                    if (owner->kind == StmtKind::For && k < owner->targets.size())
                        add(owner->targets[k].get(), s->values[k].get());
                }
            }
        }
    };
    scan(f.body, nullptr);
    for (const auto& prm : f.params)
        if (prm.var) m_params.insert(prm.var.get());
    // A tensor the orchestration creates and assembles into a target exactly once is a window of that target:
    // PyPTO's FuseCreateAssembleToSlice turns the pl.tensor.create into a pl.tensor.slice of the target at
    // the assemble's offsets (its codegen emits no copy for an orchestration assemble: the producing kernel
    // stores straight into the target). Its launches then write the target's bytes.
    std::map<const Var*, std::vector<const Expr*>> assembled;  // created tensor -> the assembles of it
    passes::walk(f.body, [&](const StmtPtr& s) {
        const Expr* v = s->value.get();
        if (s->kind != StmtKind::Assign || !v || v->kind != ExprKind::FuncCall || v->sval != "pl.tensor.assemble" ||
            v->args.size() < 3)
            return;
        std::set<const Var*> created;
        for (const GmAlias& g : of(v->args[1].get()))
            if (g.base && m_created.count(g.base)) created.insert(g.base);
        for (const Var* c : created) assembled[c].push_back(v);
    });
    for (const auto& [c, list] : assembled)
        if (list.size() == 1) m_fused[c] = list.front();
    m_memo.clear();
}

std::vector<GmAlias> LaunchAliases::of(const Expr* e, int depth) const {
    if (!e) return {};
    if (e->kind == ExprKind::Index && !e->args.empty()) return item(e->args[0].get(), e->ival, depth);
    // pl.no_dep(x) (a launch argument the runtime does not track) is x's bytes.
    if (e->kind == ExprKind::FuncCall && e->sval == "pl.no_dep" && !e->args.empty())
        return of(e->args[0].get(), depth + 1);
    if (e->kind != ExprKind::Var) return {};
    return of_var(e->var.get(), e->loc, -1, depth);
}

void LaunchAliases::add(const Var* v, const Expr* value) {
    if (!v || !value) return;
    m_def[v].push_back(value);
    m_index[{v, value}] = -1;
}

std::vector<GmAlias> LaunchAliases::item(const Expr* base, int64_t k, int depth) const {
    if (!base) return {};
    if (base->kind == ExprKind::Tuple || base->kind == ExprKind::List)
        return k >= 0 && static_cast<size_t>(k) < base->args.size() ? of(base->args[k].get(), depth + 1)
                                                                    : std::vector<GmAlias>{};
    if (base->kind != ExprKind::Var) {  // an element of something else: anything it may be (windows unknown)
        auto r = of(base, depth + 1);
        for (auto& g : r) g = GmAlias{g.base, {}, {}, 0};
        return r;
    }
    return of_var(base->var.get(), base->loc, k, depth);
}

// V, or (INDEX >= 0) its INDEX-th element.
std::vector<GmAlias> LaunchAliases::of_var(const Var* v, const SourceLoc& loc, int64_t index, int depth) const {
    // Memoised, and duplicates dropped (a long SSA chain of launches reaches one root by many paths): a result
    // is kept only when no cycle was cut while computing it (a cut result is complete only for its caller).
    const std::pair<const Var*, int64_t> key{v, index};
    if (auto m = m_memo.find(key); m != m_memo.end()) return m->second;
    const int64_t cuts = m_cuts;
    std::vector<GmAlias> r = of_var_paths(v, loc, index, depth);
    std::sort(r.begin(), r.end(), [](const GmAlias& a, const GmAlias& b) {
        return std::tie(a.base, a.start, a.shape, a.strides) < std::tie(b.base, b.start, b.shape, b.strides);
    });
    r.erase(std::unique(r.begin(), r.end(),
                        [](const GmAlias& a, const GmAlias& b) {
                            return a.base == b.base && a.start == b.start && a.shape == b.shape &&
                                   a.strides == b.strides;
                        }),
            r.end());
    if (m_cuts == cuts) m_memo.emplace(key, r);
    return r;
}

std::vector<GmAlias> LaunchAliases::of_var_paths(const Var* v, const SourceLoc& loc, int64_t index, int depth) const {
    std::vector<GmAlias> out;
    auto it = m_def.find(v);
    auto ln = m_link.find(v);
    if (it == m_def.end() && ln == m_link.end()) return {whole_of(v)};
    // Bounded: a chain too deep or too many paths to follow is refused, never cut short (a cut-off alias
    // would be a missed race).
    if (depth > 64 || ++m_visits > 200000)
        raise(codes::kUnsupported, loc,
              fmt::format("the tensors '{}' may alias are too many definitions deep to follow", v->name),
              "bind each launch argument once (a fresh name per launch result)");
    if (!m_active.insert({v, index}).second) {
        ++m_cuts;
        return out;  // a cycle (`out = self.k(a, out)` in a loop): its other definitions cover it
    }
    if (m_params.count(v)) out.push_back(whole_of(v));  // a reassigned parameter: its value on entry too
    struct Pop {
        std::set<std::pair<const Var*, int64_t>>& active;
        std::pair<const Var*, int64_t> v;
        ~Pop() { active.erase(v); }
    } pop{m_active, {v, index}};
    auto append = [&](std::vector<GmAlias> r) { out.insert(out.end(), r.begin(), r.end()); };
    if (ln != m_link.end())
        for (const Var* w : ln->second) append(of_var(w, loc, index, depth + 1));
    if (it == m_def.end()) return out;
    for (const Expr* d : it->second) {
        if (index >= 0) {
            // An element of a tuple value: of a launch's result, the parameter the kernel returns there; of a
            // tuple written out, that element; else anything the value may be.
            if (d->kind == ExprKind::Var) {
                append(of_var(d->var.get(), d->loc, index, depth + 1));
            } else if (d->kind == ExprKind::FuncCall && d->ival != kFuncRef && !is_tensor_op(*d)) {
                append(call_result(v, d, index, depth));
            } else {
                append(item(d, index, depth + 1));
            }
            continue;
        }
        if (d->kind == ExprKind::Var) {
            append(of(d, depth + 1));
        } else if (d->kind == ExprKind::Index) {
            append(of(d, depth + 1));
        } else if (d->kind == ExprKind::FuncCall && is_host_op_call(*d) && d->sval == "pl.tensor.create") {
            if (auto fu = m_fused.find(v); fu != m_fused.end())
                append(fused_window(v, *fu->second, depth));
            else
                out.push_back(whole_of(v));
        } else if (d->kind == ExprKind::FuncCall && !d->args.empty() &&
                   (d->sval == "pl.tensor.slice" || d->sval == "pl.tensor.view" || d->sval == "pl.tensor.reshape")) {
            auto shape = d->args.size() > 1 ? const_ints(d->args[1]) : std::nullopt;
            const bool reshape = d->sval == "pl.tensor.reshape" || d->args.size() == 2;
            // A reshape to a shape computed at run time (`[pl.tensor.dim(t, 0) * 8, 1024]`): the value's type, when
            // sema knows every dimension of it (as launch_alias_groups reads it).
            if (!shape && reshape && v->type.kind == TypeKind::Tensor && !v->type.shape.empty() &&
                std::all_of(v->type.shape.begin(), v->type.shape.end(), [](int64_t x) { return x >= 1; }))
                shape = v->type.shape;
            auto off = reshape ? std::nullopt : const_ints(d->args[2]);
            // A view as another dtype (pl.tensor.view(..., dtype=D)): its shape and offsets count D's elements,
            // not the source's, so it is anywhere in the source.
            const Expr* src = d->args[0].get();
            const bool retyped = src && d->type.kind == TypeKind::Tensor && src->type.kind == TypeKind::Tensor &&
                                 d->type.dtype != src->type.dtype;
            for (GmAlias a : of(src, depth + 1)) {
                if (reshape && !retyped && !shape && !a.shape.empty() && whole_or_unknown(a)) {
                    // A reshape of all of a tensor to a shape computed at run time (`pl.tensor.reshape(t,
                    // [pl.tensor.dim(t, 0) * 8, 1024])`): still all of it, whatever the shape (a reshape keeps the
                    // element count). Its bytes are the root's; as "anywhere in it" a later launch's lookup of the
                    // reshaped value was no sure overlap and the runtime's tensor-map order through it was lost.
                    a = whole_of(a.base);
                } else if (retyped || !shape) {
                    a = GmAlias{a.base, {}, {}, 0};
                } else if (reshape) {
                    a = reshaped(a, *shape);
                } else {
                    // A constant box of the value, in its own coordinates.
                    bool inside =
                        off && !a.shape.empty() && off->size() == shape->size() && a.shape.size() == off->size();
                    for (size_t k = 0; inside && k < off->size(); ++k)
                        inside = (*off)[k] >= 0 && (*shape)[k] >= 1 && (*off)[k] <= a.shape[k] - (*shape)[k];
                    if (!inside) {
                        a = GmAlias{a.base, {}, {}, 0};
                    } else {
                        for (size_t k = 0; k < off->size(); ++k) a.start += (*off)[k] * a.strides[k];
                        a.shape = *shape;
                    }
                }
                out.push_back(a);
            }
        } else if (d->kind == ExprKind::FuncCall && d->ival != kFuncRef) {
            append(call_result(v, d, -1, depth));
        } else {
            out.push_back(whole_of(v));  // an op (pl.create_tensor) or a fresh value
        }
    }
    return out;
}

// The roots the result of the call D (assigned to V; INDEX >= 0: its INDEX-th element) may be. Another host op
// or a kernel's result: any tensor it was given (windows unknown). A kernel of the program with Out / InOut
// tensor parameters returns one of those (PyPTO's kernels return what they write), so its result aliases only
// those arguments: `out = self.k(a, out)` is not `a` and `out` sharing bytes at the next launch. A pl.submit /
// pl.spmd_submit of a kernel is that kernel's launch (its arguments after the kernel).
std::vector<GmAlias> LaunchAliases::call_result(const Var* v, const Expr* d, int64_t index, int depth) const {
    std::vector<GmAlias> out;
    const LaunchTarget t = launch_target(*d);
    const size_t first = t.first;  // the kernel's first argument
    std::shared_ptr<Function> fn = m_prog ? m_prog->find(t.kernel) : nullptr;
    // What each parameter is to the runtime (a wrapper writes what its callee writes).
    const std::vector<ParamDir> dirs = fn ? effective_dirs(*m_prog, *fn, m_dirs) : std::vector<ParamDir>{};
    auto dir_of = [&](size_t p) { return p < dirs.size() ? dirs[p] : ParamDir::In; };
    bool writes = false;
    if (fn)
        for (size_t p = 0; p < fn->params.size(); ++p)
            writes |=
                fn->params[p].var && fn->params[p].var->type.kind == TypeKind::Tensor && dir_of(p) != ParamDir::In;
    // The one parameter the returned value is (followed through stores and nested launches): the result
    // aliases that argument only (`y1 = self.k(a, w, ws, ybuf1)` is ybuf1, not ws).
    int64_t from = -1;  // (an int, not an optional: g++ 12 warns maybe-uninitialized on the optional)
    if (fn && writes) {
        size_t at = 0;
        if (index >= 0) {
            at = static_cast<size_t>(index);
        } else if (auto ix = m_index.find({v, d}); ix != m_index.end() && ix->second >= 0) {
            at = static_cast<size_t>(ix->second);
        }
        if (auto r = returned_param(m_prog, *fn, at, 0); r && *r + first < d->args.size() && dir_of(*r) != ParamDir::In)
            from = static_cast<int64_t>(*r);
    }
    for (size_t k = first; k < d->args.size(); ++k) {
        const auto& a = d->args[k];
        const size_t p = k - first;  // the kernel's parameter
        if (from >= 0 && static_cast<int64_t>(p) != from) continue;
        if (writes && p < fn->params.size() && dir_of(p) == ParamDir::In) continue;
        for (GmAlias g : of(a.get(), depth + 1)) {
            // The parameter the kernel returns is the argument's view itself; any other: somewhere in it.
            if (from < 0) g = GmAlias{g.base, {}, {}, 0};
            out.push_back(g);
        }
    }
    return out;
}

// The window of the target of pl.tensor.assemble A that the created tensor V (A's source) is: V's shape, padded
// with leading 1s to the target's rank, at A's offsets (anywhere in the target when they are not constants).
std::vector<GmAlias> LaunchAliases::fused_window(const Var* v, const Expr& a, int depth) const {
    std::vector<GmAlias> out;
    auto off = const_ints(a.args[2]);
    std::vector<int64_t> shape = v->type.shape;
    for (GmAlias g : of(a.args[0].get(), depth + 1)) {
        const size_t rank = g.shape.size();
        bool inside = off && rank > 0 && off->size() == rank && shape.size() <= rank;
        std::vector<int64_t> full(rank > shape.size() ? rank - shape.size() : 0, 1);
        full.insert(full.end(), shape.begin(), shape.end());
        for (size_t k = 0; inside && k < rank; ++k)
            inside = (*off)[k] >= 0 && full[k] >= 1 && (*off)[k] <= g.shape[k] - full[k];
        if (!inside) {
            g = GmAlias{g.base, {}, {}, 0};
        } else {
            for (size_t k = 0; k < rank; ++k) g.start += (*off)[k] * g.strides[k];
            g.shape = full;
        }
        out.push_back(g);
    }
    return out;
}

bool may_share(const GmAlias& a, const GmAlias& b) {
    if (a.base != b.base) return false;
    if (a.shape.empty() || b.shape.empty()) return true;
    // Exact: the two views' element ranges of base (bounded; beyond that, assumed to share).
    constexpr size_t kLimit = 1 << 18;
    auto ra = element_ranges(a, kLimit), rb = element_ranges(b, kLimit);
    if (!ra || !rb) return true;
    std::sort(ra->begin(), ra->end());
    std::sort(rb->begin(), rb->end());
    size_t i = 0, j = 0;
    while (i < ra->size() && j < rb->size()) {
        const auto &x = (*ra)[i], &y = (*rb)[j];
        if (x.first < y.second && y.first < x.second) return true;
        if (x.second <= y.second)
            ++i;
        else
            ++j;
    }
    return false;
}

std::vector<std::tuple<size_t, size_t, const Var*>> sharing_pairs(const Program* prog, const Function& caller,
                                                                  const Function& callee,
                                                                  const std::vector<ExprPtr>& args) {
    std::vector<std::tuple<size_t, size_t, const Var*>> out;
    LaunchAliases roots(caller, prog);
    const size_t n = std::min(args.size(), callee.params.size());
    for (size_t i = 0; i < n; ++i)
        for (size_t j = i + 1; j < n; ++j) {
            const Param& p = callee.params[i];
            const Param& q = callee.params[j];
            if (p.var->type.kind != TypeKind::Tensor || q.var->type.kind != TypeKind::Tensor) continue;
            if (p.dir == ParamDir::In && q.dir == ParamDir::In && callee.type != FuncType::Orchestration) continue;
            const Var* shared = nullptr;
            for (const GmAlias& a : roots.of(args[i].get()))
                for (const GmAlias& b : roots.of(args[j].get()))
                    if (!shared && may_share(a, b)) shared = a.base;
            if (shared) out.emplace_back(i, j, shared);
        }
    return out;
}

[[noreturn]] void raise_shared(const Function& callee, const std::vector<ExprPtr>& args, size_t i, size_t j,
                               const Var* base, const SourceLoc& at, const std::string& why) {
    raise(codes::kUnsupported, args[j] ? args[j]->loc : at,
          fmt::format("'{}' gets '{}' and '{}' as parameters '{}' and '{}', which may share GM bytes of '{}'; {}",
                      callee.name, args[i] && args[i]->kind == ExprKind::Var ? args[i]->var->name : "?",
                      args[j] && args[j]->kind == ExprKind::Var ? args[j]->var->name : "?", callee.params[i].var->name,
                      callee.params[j].var->name, base->name, why),
          "pass tensors that do not overlap (disjoint slices), or one tensor and its reshape or constant slice");
}

void refuse_aliased_arguments(const Program* prog, const Function& caller, const Function& callee,
                              const std::vector<ExprPtr>& args, const SourceLoc& at,
                              const std::function<bool(size_t, size_t)>& exact) {
    for (const auto& [i, j, base] : sharing_pairs(prog, caller, callee, args))
        if (!exact || !exact(i, j))
            raise_shared(callee, args, i, j, base, at,
                         "cvsim checks each tensor parameter as a GM tensor of its own, so a race between them would "
                         "go unseen");
}

}  // namespace cvsim::launch_detail
