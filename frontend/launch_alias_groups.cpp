// Aliasing launch arguments bound to one tensor: exact views of its root, a launch's alias groups, launch sites.
#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/launch_internal.h"
#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::launch_detail {

namespace {

int64_t numel_of(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
    return n;
}

// An orchestration value as an exact view of the tensor it was cut from (the root: a tensor the orchestration
// creates or is given), as rt::ParamView describes one.
struct ExactView {
    const Var* root = nullptr;
    std::vector<int64_t> off, shape, reshape;
    // Per dimension, the launched kernel's scalar parameter whose value adds to `off` ("" none): a slice offset
    // the orchestration computes and passes to the kernel too (rt::ParamView::off_param).
    std::vector<std::string> off_param;
    std::string how;  // "" (the root itself), "a pl.tensor.reshape", "a pl.tensor.slice", ...
    bool fixed() const {
        return std::all_of(off_param.begin(), off_param.end(), [](const std::string& p) { return p.empty(); });
    }
    bool whole() const {
        return reshape.empty() && shape == root->type.shape && fixed() &&
               std::all_of(off.begin(), off.end(), [](int64_t o) { return o == 0; });
    }
    bool operator==(const ExactView& o) const {
        return root == o.root && off == o.off && shape == o.shape && reshape == o.reshape && off_param == o.off_param;
    }
};

class ExactViews {
  public:
    ExactViews(const Function& f, const Program* prog) : m_prog(prog) {
        passes::walk(f.body, [&](const StmtPtr& s) {
            if (s->kind == StmtKind::For || s->kind == StmtKind::If)
                for (const auto& t : s->targets) m_def[t.get()].push_back(nullptr);
            if (s->value && s->kind == StmtKind::Assign)
                for (size_t k = 0; k < s->targets.size(); ++k) {
                    m_def[s->targets[k].get()].push_back(s->value.get());
                    m_index[s->targets[k].get()] = s->targets.size() > 1 ? static_cast<int>(k) : -1;
                }
        });
        for (const auto& prm : f.params)
            if (prm.var) m_params.insert(prm.var.get());
    }

    // nullopt: not known exactly (a loop-carried or reassigned value, a computed shape or offset, a reshape of a
    // part of a tensor, ...).
    std::optional<ExactView> of(const Expr* e, int depth = 0) const {
        if (e && e->kind == ExprKind::Index && !e->args.empty() && e->args[0] && e->args[0]->kind == ExprKind::Var &&
            depth <= 64) {
            // `ret[k]` of a launch's (or pl.submit's) result assigned once: the argument the kernel returns there.
            const Var* t = e->args[0]->var.get();
            auto it = m_def.find(t);
            if (it == m_def.end() || m_params.count(t) || it->second.size() != 1 || !it->second[0] ||
                it->second[0]->kind != ExprKind::FuncCall || it->second[0]->ival == kFuncRef)
                return std::nullopt;
            return launch_result(it->second[0], static_cast<size_t>(std::max<int64_t>(e->ival, 0)), depth);
        }
        if (!e || e->kind != ExprKind::Var || depth > 64) return std::nullopt;
        const Var* v = e->var.get();
        if (v->type.kind != TypeKind::Tensor) return std::nullopt;
        auto whole = [&] {
            ExactView r;
            r.root = v;
            r.off.assign(v->type.shape.size(), 0);
            r.shape = v->type.shape;
            return r;
        };
        auto it = m_def.find(v);
        if (it == m_def.end()) return m_params.count(v) ? std::optional<ExactView>(whole()) : std::nullopt;
        if (m_params.count(v) || it->second.size() != 1 || !it->second[0]) return std::nullopt;
        const Expr* d = it->second[0];
        if (d->kind == ExprKind::Var || d->kind == ExprKind::Index) return of(d, depth + 1);
        if (d->kind == ExprKind::Call && d->op && d->op->code == OpCode::TensorCreate) return whole();
        if (d->kind != ExprKind::FuncCall || d->ival == kFuncRef) return std::nullopt;
        if (d->sval == "pl.tensor.create") return whole();
        const bool view = d->sval == "pl.tensor.view";
        // A view as another dtype counts its shape and offsets in that dtype's elements: not a box of the source.
        if (!d->args.empty() && d->args[0] && d->type.kind == TypeKind::Tensor &&
            d->args[0]->type.kind == TypeKind::Tensor && d->type.dtype != d->args[0]->type.dtype)
            return std::nullopt;
        if (d->sval == "pl.tensor.reshape" || (view && d->args.size() == 2)) {
            // The source's bytes under another row-major shape: only of a whole tensor (or of a whole reshape).
            if (d->args.size() != 2) return std::nullopt;
            auto src = of(d->args[0].get(), depth + 1);
            auto shape = const_ints(d->args[1]);
            if (!shape) shape = v->type.shape;  // a computed extent: the value's type (sema's dims)
            if (!src) return std::nullopt;
            const auto& base = src->reshape.empty() ? src->root->type.shape : src->reshape;
            if (src->shape != base || !src->fixed() ||
                !std::all_of(src->off.begin(), src->off.end(), [](int64_t o) { return o == 0; }))
                return std::nullopt;
            if (shape->empty() || numel_of(*shape) != numel_of(base) || numel_of(base) < 0) return std::nullopt;
            src->off.assign(shape->size(), 0);
            src->shape = *shape;
            src->reshape = *shape == src->root->type.shape ? std::vector<int64_t>{} : *shape;
            src->how = "a " + d->sval;
            return src;
        }
        if (d->sval == "pl.tensor.slice" || view) {
            // A constant box of the source, in its coordinates.
            if (d->args.size() != 3) return std::nullopt;
            auto src = of(d->args[0].get(), depth + 1);
            auto shape = const_ints(d->args[1]);
            const Expr* offs = d->args[2].get();
            if (!src || !shape || !offs || (offs->kind != ExprKind::List && offs->kind != ExprKind::Tuple) ||
                shape->size() != src->shape.size() || offs->args.size() != shape->size())
                return std::nullopt;
            src->off_param.resize(src->off.size());
            for (size_t k = 0; k < shape->size(); ++k) {
                if ((*shape)[k] < 1 || (*shape)[k] > src->shape[k]) return std::nullopt;
                if (auto o = const_int(offs->args[k])) {
                    if (*o < 0 || *o > src->shape[k] - (*shape)[k]) return std::nullopt;
                    src->off[k] += *o;
                    continue;
                }
                // A computed offset the launch also passes as a scalar parameter: bound at bind time (bind_entry
                // adds the parameter's value and checks the box).
                const Expr* x = offs->args[k].get();
                auto it = x && x->kind == ExprKind::Var ? m_scalar_args.find(x->var.get()) : m_scalar_args.end();
                if (it == m_scalar_args.end() || !src->off_param[k].empty() || src->reshape.size()) return std::nullopt;
                src->off_param[k] = it->second;
            }
            src->shape = *shape;
            src->how = "a " + d->sval;
            return src;
        }
        auto ix = m_index.find(v);
        return launch_result(d, ix == m_index.end() || ix->second < 0 ? 0 : static_cast<size_t>(ix->second), depth);
    }

  private:
    // The INDEX-th value a launch D (self.k(...), pl.submit(self.k, ...)) returns: the argument passed as the
    // parameter the kernel returns there.
    std::optional<ExactView> launch_result(const Expr* d, size_t index, int depth) const {
        const LaunchTarget t = launch_target(*d);
        if ((!t.submit && is_host_op_call(*d)) || !m_prog) return std::nullopt;
        const size_t first = t.first;
        auto fn = m_prog->find(t.kernel);
        if (!fn) return std::nullopt;
        auto k = returned_param(m_prog, *fn, index, 0);
        if (!k || *k + first >= d->args.size()) return std::nullopt;
        return of(d->args[*k + first].get(), depth + 1);
    }

  public:
    // The caller's scalar values a launch passes as scalar parameters of the kernel, with the parameter's name: a
    // slice offset that is one of them is that parameter's value at bind time.
    void set_scalar_args(std::map<const Var*, std::string> m) { m_scalar_args = std::move(m); }

  private:
    std::map<const Var*, std::string> m_scalar_args;
    std::map<const Var*, std::vector<const Expr*>> m_def;  // assignments (nullptr: a loop or branch result)
    std::map<const Var*, int> m_index;                     // its index in a tuple unpacking (-1: one target)
    std::set<const Var*> m_params;
    const Program* m_prog = nullptr;
};

}  // namespace

std::vector<rt::AliasGroup> launch_alias_groups(const Program* prog, const Function& caller, const Function& callee,
                                                const std::vector<ExprPtr>& args, const SourceLoc& at) {
    const auto pairs = sharing_pairs(prog, caller, callee, args);
    if (pairs.empty()) return {};
    if (callee.type == FuncType::Orchestration) {
        const auto& [i, j, base] = pairs.front();
        raise_shared(callee, args, i, j, base, at,
                     "cvsim does not follow aliasing arguments into a nested orchestration, so a race between them "
                     "would go unseen");
    }
    ExactViews views(caller, prog);
    {
        std::map<const Var*, std::string> scalars;
        for (size_t q = 0; q < args.size() && q < callee.params.size(); ++q)
            if (args[q] && args[q]->kind == ExprKind::Var && callee.params[q].var->type.kind == TypeKind::Scalar &&
                dtype_is_int(callee.params[q].var->type.dtype))
                scalars.emplace(args[q]->var.get(), callee.params[q].var->name);
        views.set_scalar_args(std::move(scalars));
    }
    std::map<size_t, ExactView> of;
    for (const auto& [i, j, base] : pairs) {
        for (size_t k : {i, j}) {
            if (of.count(k)) continue;
            auto v = views.of(args[k].get());
            const Type& t = callee.params[k].var->type;
            if (!v || t.dtype != v->root->type.dtype || t.shape != v->shape)
                raise_shared(callee, args, i, j, base, at,
                             fmt::format("cvsim binds two such parameters to one GM tensor only when each is the "
                                         "tensor, a pl.tensor.reshape of all of it or a constant pl.tensor.slice of "
                                         "it, of the parameter's dtype and shape, and '{}' is not",
                                         args[k] && args[k]->kind == ExprKind::Var ? args[k]->var->name : "?"));
            of.emplace(k, *v);
        }
    }
    // One group per root; a pair with different roots shares nothing after all.
    std::map<const Var*, rt::AliasGroup> groups;
    std::vector<const Var*> order;
    for (const auto& [k, v] : of) {
        auto [it, fresh] = groups.try_emplace(v.root);
        rt::AliasGroup& g = it->second;
        if (fresh) {
            order.push_back(v.root);
            g.dtype = v.root->type.dtype;
            g.shape = v.root->type.shape;
            g.dir = callee.params[k].dir;
        } else if (g.dir != callee.params[k].dir) {
            g.dir = ParamDir::InOut;
        }
        const std::string& name = callee.params[k].var->name;
        g.members.push_back(rt::ParamView{name, v.off, v.shape, v.reshape, v.off_param});
        if (g.name.empty() && v.whole()) g.name = name;
        g.origin +=
            fmt::format("{}'{}'{}", g.origin.empty() ? "" : ", ", name, v.how.empty() ? "" : " (" + v.how + ")");
    }
    std::vector<rt::AliasGroup> out;
    for (const Var* root : order) {
        rt::AliasGroup& g = groups[root];
        if (g.members.size() < 2) continue;
        if (g.name.empty()) {
            // No parameter is the whole tensor: the root keeps the orchestration's name (not a parameter's).
            g.name = root->name;
            for (bool clash = true; clash;) {
                clash = false;
                for (const auto& prm : callee.params) clash |= prm.var->name == g.name;
                if (clash) g.name += "_shared";
            }
        }
        g.origin = fmt::format("{} of '{}' ({}:{})", g.origin, root->name, caller.name, at.line);
        out.push_back(std::move(g));
    }
    return out;
}

bool same_groups(const std::vector<rt::AliasGroup>& a, const std::vector<rt::AliasGroup>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].name != b[i].name || a[i].shape != b[i].shape || a[i].dtype != b[i].dtype || a[i].dir != b[i].dir ||
            a[i].members.size() != b[i].members.size())
            return false;
        for (size_t k = 0; k < a[i].members.size(); ++k) {
            const auto &x = a[i].members[k], &y = b[i].members[k];
            if (x.param != y.param || x.off != y.off || x.shape != y.shape || x.reshape != y.reshape ||
                x.off_param != y.off_param)
                return false;
        }
    }
    return true;
}

void launch_sites(const Function& f, const std::string& kernel,
                  const std::function<void(const Expr&, const std::vector<ExprPtr>&)>& at) {
    passes::walk(f.body, [&](const StmtPtr& s) {
        const ExprPtr& v = s->value;
        if (!v || v->kind != ExprKind::FuncCall) return;
        if (!is_host_op_call(*v)) {
            if (v->sval == kernel) at(*v, v->args);
            return;
        }
        for (size_t i = 0; i < v->args.size(); ++i)
            if (const ExprPtr& a = v->args[i];
                a && a->kind == ExprKind::FuncCall && a->ival == kFuncRef && a->sval == kernel)
                at(*v, std::vector<ExprPtr>(v->args.begin() + static_cast<std::ptrdiff_t>(i) + 1, v->args.end()));
    });
}

}  // namespace cvsim::launch_detail
