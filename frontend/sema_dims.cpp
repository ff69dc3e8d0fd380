// Implicit dimension symbols: a tensor dimension written as an expression over names that are neither module
// constants nor `pl.dynamic` symbols (PyPTO prints a caller's variable there after inlining, e.g.
// `pl.Tensor[[rows__ssa_v0, 512], pl.FP32]`). Each such name becomes a dynamic dimension of the launch, bound
// like a pl.dynamic symbol (docs/DECISIONS.md, Frontend): by --dim NAME=V, else from the program itself (an
// actual argument of known shape at a `self.f(...)` call, or `NAME = pl.tensor.dim(t, k)` of a tensor of known
// shape), else the documented default, which the commands report.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "frontend/sema_types.h"

namespace cvsim {

namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Stmt;
using ast::StmtKind;

// The shape list of a pl.Tensor[...] annotation (also inside pl.Out/pl.InOut), nullptr otherwise.
const Expr* tensor_shape(const Expr* e) {
    while (e && e->kind == ExprKind::Subscript && !e->args.empty()) {
        std::string head = e->children[0]->dotted();
        if (head == "pl.Out" || head == "pl.InOut") {
            e = e->args[0].get();
            continue;
        }
        if (head != "pl.Tensor") return nullptr;
        const Expr* s = e->args[0].get();
        return s->kind == ExprKind::List || s->kind == ExprKind::Tuple ? s : nullptr;
    }
    return nullptr;
}

void names_in(const Expr& e, std::vector<std::string>& out) {
    if (e.kind == ExprKind::Name) {
        if (std::find(out.begin(), out.end(), e.name) == out.end()) out.push_back(e.name);
        return;
    }
    if (e.kind == ExprKind::Attribute || e.kind == ExprKind::Call) return;
    for (auto& c : e.children)
        if (c) names_in(*c, out);
    for (auto& a : e.args) names_in(*a, out);
}

// Every tensor annotation in an expression (tuple[...] and pl.Tuple[...] nest them).
void each_tensor_shape(const Expr* e, const std::function<void(const Expr&)>& f) {
    if (!e) return;
    if (const Expr* s = tensor_shape(e)) {
        f(*s);
        return;
    }
    if (e->kind == ExprKind::Subscript)
        for (auto& a : e->args) each_tensor_shape(a.get(), f);
}

struct FnInfo {
    const Stmt* def = nullptr;
    std::vector<std::string> params;               // without self
    std::map<std::string, const Expr*> annotated;  // variable -> its tensor shape list
    const Expr* ret = nullptr;                     // the return annotation (tensor or tuple of them)
};

// The tensor shape lists of an annotation in order (one for a tensor, one per tensor element of a tuple; a
// non-tensor element is nullptr, so positions line up).
std::vector<const Expr*> shapes_in(const Expr* e) {
    std::vector<const Expr*> out;
    if (!e) return out;
    if (const Expr* s = tensor_shape(e)) return {s};
    if (e->kind == ExprKind::Subscript && !e->args.empty()) {
        const std::string head = e->children[0]->dotted();
        if (head == "tuple" || head == "pl.Tuple") {
            const Expr* inner = e->args.size() == 1 && e->args[0]->kind == ExprKind::Tuple ? e->args[0].get() : nullptr;
            const auto& elems = inner ? inner->args : e->args;
            for (const auto& a : elems) out.push_back(tensor_shape(a.get()));
        }
    }
    return out;
}

void scan_body(const std::vector<ast::StmtPtr>& body, FnInfo& fi, std::vector<const Expr*>& annotations,
               std::vector<std::pair<const Stmt*, FnInfo*>>& assigns) {
    for (const auto& s : body) {
        if (s->kind == StmtKind::Assign) {
            if (s->annotation) {
                annotations.push_back(s->annotation.get());
                if (s->targets.size() == 1 && s->targets[0]->kind == ExprKind::Name)
                    if (const Expr* sh = tensor_shape(s->annotation.get())) fi.annotated.emplace(s->targets[0]->name, sh);
            }
            assigns.emplace_back(s.get(), &fi);
        }
        scan_body(s->body, fi, annotations, assigns);
        scan_body(s->orelse, fi, annotations, assigns);
    }
}

void visit_calls(const Expr& e, const std::function<void(const Expr&)>& f) {
    if (e.kind == ExprKind::Call) f(e);
    for (auto& c : e.children)
        if (c) visit_calls(*c, f);
    for (auto& a : e.args) visit_calls(*a, f);
    for (auto& k : e.keywords) visit_calls(*k.value, f);
}

}  // namespace

void bind_implicit_dims(ConstTable& consts, const Stmt& program_class) {
    std::map<std::string, FnInfo> fns;
    std::vector<const Expr*> annotations;
    std::vector<std::pair<const Stmt*, FnInfo*>> assigns;
    for (const auto& s : program_class.body) {
        if (s->kind != StmtKind::FunctionDef) continue;
        FnInfo& fi = fns[s->name];
        fi.def = s.get();
        for (const auto& p : s->params) {
            if (p.name == "self") continue;
            fi.params.push_back(p.name);
            if (!p.annotation) continue;
            annotations.push_back(p.annotation.get());
            if (const Expr* sh = tensor_shape(p.annotation.get())) fi.annotated.emplace(p.name, sh);
        }
        annotations.push_back(s->annotation.get());
        fi.ret = s->annotation.get();
        scan_body(s->body, fi, annotations, assigns);
    }
    // pl.dynamic symbols no --dim binds are found like the implicit names: the program's own shapes bind them
    // first (docs/DECISIONS.md, Frontend), the default only when nothing does.
    std::set<std::string> pending = consts.pending_dynamic;
    consts.pending_dynamic.clear();
    auto settle_pending = [&] {  // after the fixed point: the pending symbols it bound are inferred, the rest default
        for (const auto& n : pending) {
            if (std::find(consts.defaulted.begin(), consts.defaulted.end(), n) != consts.defaulted.end()) continue;
            if (consts.values.count(n)) {
                consts.inferred.emplace_back(n, std::get<int64_t>(consts.values[n].v));
                continue;
            }
            consts.values[n] = ConstValue{*consts.dim_default};
            consts.defaulted.push_back(n);
        }
    };
    // The symbols, in order of first appearance.
    std::vector<std::string> symbols;
    for (const Expr* a : annotations)
        each_tensor_shape(a, [&](const Expr& shape) {
            std::vector<std::string> names;
            for (auto& d : shape.args) names_in(*d, names);
            for (auto& n : names)
                if (!consts.values.count(n) && !consts.dynamic.count(n) &&
                    std::find(symbols.begin(), symbols.end(), n) == symbols.end())
                    symbols.push_back(n);
        });
    if (symbols.empty()) {
        settle_pending();
        return;
    }
    auto unresolved = [&](const std::string& n) {
        return std::find(symbols.begin(), symbols.end(), n) != symbols.end() && !consts.values.count(n);
    };
    auto fold_dim = [&](const Expr& d) -> std::optional<int64_t> {
        auto c = fold_const(consts, d, nullptr, true);
        if (!c) return std::nullopt;
        if (auto* i = std::get_if<int64_t>(&c->v); i && *i > 0) return *i;
        return std::nullopt;
    };
    auto set = [&](const std::string& n, int64_t v) {
        consts.values[n] = ConstValue{v};
        return true;
    };
    for (const auto& n : symbols)
        if (auto b = consts.bound.find(n); b != consts.bound.end()) {
            consts.bound_used.insert(n);
            set(n, b->second);
        }
    // A dimension `NAME` of `want` takes the value of the same dimension of `have` (an actual argument's type).
    auto unify = [&](const Expr* want, const Expr* have) {
        bool changed = false;
        if (!want || !have || want->args.size() != have->args.size()) return false;
        for (size_t i = 0; i < want->args.size(); ++i) {
            const Expr& w = *want->args[i];
            if (w.kind != ExprKind::Name || !unresolved(w.name)) continue;
            if (auto v = fold_dim(*have->args[i])) changed |= set(w.name, *v);
        }
        return changed;
    };
    auto fixpoint = [&] {
        for (bool changed = true; changed;) {
            changed = false;
            for (auto& [stmt, fi] : assigns) {  // NAME = pl.tensor.dim(t, k)
                const Expr* v = stmt->value.get();
                if (stmt->targets.size() != 1 || stmt->targets[0]->kind != ExprKind::Name || !v || v->kind != ExprKind::Call ||
                    v->children[0]->dotted() != "pl.tensor.dim" || v->args.size() != 2 || v->args[0]->kind != ExprKind::Name)
                    continue;
                const std::string& n = stmt->targets[0]->name;
                auto t = fi->annotated.find(v->args[0]->name);
                auto k = fold_const(consts, *v->args[1]);
                if (!unresolved(n) || t == fi->annotated.end() || !k) continue;
                auto* ki = std::get_if<int64_t>(&k->v);
                if (!ki || *ki < 0 || static_cast<size_t>(*ki) >= t->second->args.size()) continue;
                if (auto d = fold_dim(*t->second->args[static_cast<size_t>(*ki)])) changed |= set(n, *d);
            }
            // Both ways, position by position: `x: ANN = y` (an alias), `t: ANN = self.f(...)` against f's return
            // annotation, and `return a, b` against the function's own (PyPTO writes a symbol on one side and the
            // size on the other: pypto-lib's `-> [T_DYN, 4]` returning an `[8, 4]` parameter).
            auto both = [&](const std::vector<const Expr*>& a, const std::vector<const Expr*>& b) {
                if (a.size() != b.size()) return;
                for (size_t i = 0; i < a.size(); ++i) {
                    changed |= unify(a[i], b[i]);
                    changed |= unify(b[i], a[i]);
                }
            };
            for (auto& [stmt, fi] : assigns) {
                if (!stmt->annotation || stmt->targets.size() != 1 || !stmt->value) continue;
                const Expr* v = stmt->value.get();
                if (v->kind == ExprKind::Name) {
                    auto it = fi->annotated.find(v->name);
                    if (it != fi->annotated.end()) both(shapes_in(stmt->annotation.get()), {it->second});
                } else if (v->kind == ExprKind::Call && v->children[0]->dotted().rfind("self.", 0) == 0) {
                    auto f = fns.find(v->children[0]->dotted().substr(5));
                    if (f != fns.end()) both(shapes_in(stmt->annotation.get()), shapes_in(f->second.ret));
                }
            }
            for (auto& entry : fns) {
                FnInfo& fi = entry.second;
                if (!fi.ret) continue;
                std::function<void(const std::vector<ast::StmtPtr>&)> rets = [&](const std::vector<ast::StmtPtr>& body) {
                    for (const auto& s : body) {
                        if (s->kind == StmtKind::Return && s->value) {
                            std::vector<const Expr*> got;
                            const Expr* v = s->value.get();
                            auto shape_of = [&](const Expr& x) -> const Expr* {
                                if (x.kind != ExprKind::Name) return nullptr;
                                auto it = fi.annotated.find(x.name);
                                return it == fi.annotated.end() ? nullptr : it->second;
                            };
                            if (v->kind == ExprKind::Tuple)
                                for (const auto& a : v->args) got.push_back(shape_of(*a));
                            else
                                got.push_back(shape_of(*v));
                            both(shapes_in(fi.ret), got);
                        }
                        rets(s->body);
                        rets(s->orelse);
                    }
                };
                rets(fi.def->body);
            }
            for (auto& entry : fns) {  // self.f(args): a parameter's dims from the actual argument's
                auto& caller = entry.second;  // (a named reference: clang 15 cannot capture a structured binding)
                std::function<void(const Expr&)> on_call = [&](const Expr& c) {
                    std::string callee = c.children[0]->dotted();
                    if (callee.rfind("self.", 0) != 0) return;
                    auto f = fns.find(callee.substr(5));
                    if (f == fns.end()) return;
                    auto arg_shape = [&](const Expr& a) -> const Expr* {
                        if (a.kind != ExprKind::Name) return nullptr;
                        auto it = caller.annotated.find(a.name);
                        return it == caller.annotated.end() ? nullptr : it->second;
                    };
                    auto param_shape = [&](const std::string& p) -> const Expr* {
                        auto it = f->second.annotated.find(p);
                        return it == f->second.annotated.end() ? nullptr : it->second;
                    };
                    for (size_t i = 0; i < c.args.size() && i < f->second.params.size(); ++i)
                        changed |= unify(param_shape(f->second.params[i]), arg_shape(*c.args[i]));
                    for (const auto& kw : c.keywords) changed |= unify(param_shape(kw.name), arg_shape(*kw.value));
                };
                std::vector<std::pair<const Stmt*, FnInfo*>> mine;
                std::function<void(const std::vector<ast::StmtPtr>&)> walk = [&](const std::vector<ast::StmtPtr>& body) {
                    for (const auto& s : body) {
                        if (s->value) visit_calls(*s->value, on_call);
                        walk(s->body);
                        walk(s->orelse);
                    }
                };
                walk(caller.def->body);
            }
        }
    };
    fixpoint();
    // A pl.dynamic symbol the program's shapes do not bind takes the default now, and the implicit names that
    // follow it through calls and aliases follow its value (the fixed point again); then the rest default.
    bool defaulted_any = false;
    for (const auto& n : pending)
        if (!consts.values.count(n)) {
            consts.values[n] = ConstValue{*consts.dim_default};
            consts.defaulted.push_back(n);
            defaulted_any = true;
        }
    if (defaulted_any) fixpoint();
    for (const auto& n : symbols) {
        if (consts.values.count(n) || pending.count(n)) continue;
        if (consts.dim_default) {
            consts.values[n] = ConstValue{*consts.dim_default};
            consts.defaulted.push_back(n);
        } else {
            consts.dynamic.insert(n);
        }
    }
    settle_pending();
}

}  // namespace cvsim
