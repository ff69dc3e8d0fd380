// Implicit dimension symbols: a tensor dimension written as an expression over names that are neither module
// constants nor `pl.dynamic` symbols (PyPTO prints a caller's variable there after inlining, e.g.
// `pl.Tensor[[rows__ssa_v0, 512], pl.FP32]`). Each such name becomes a dynamic dimension of the launch, bound
// like a pl.dynamic symbol (docs/DECISIONS.md, Frontend): by --dim NAME=V, else from the program itself (an
// actual argument of known shape at a `self.f(...)` call, or `NAME = pl.tensor.dim(t, k)` of a tensor of known
// shape), else the documented default, which the commands report. Per-call copies: sema_dims_specialise.cpp.
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "frontend/sema_types.h"

#include "frontend/sema_dims_internal.h"

namespace cvsim {

using namespace dims;

namespace dims {

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

// The shape list of a pl.Tile[[...], ...] annotation, nullptr otherwise.
const Expr* tile_shape(const Expr* e) {
    if (!e || e->kind != ExprKind::Subscript || e->args.empty() || e->children[0]->dotted() != "pl.Tile")
        return nullptr;
    const Expr* s = e->args[0].get();
    return s->kind == ExprKind::List || s->kind == ExprKind::Tuple ? s : nullptr;
}

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
                if (s->targets.size() == 1 && s->targets[0]->kind == ExprKind::Name) {
                    if (const Expr* sh = tensor_shape(s->annotation.get()))
                        fi.annotated.emplace(s->targets[0]->name, sh);
                    if (const Expr* sh = tile_shape(s->annotation.get())) fi.tiles.emplace(s->targets[0]->name, sh);
                }
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

// Every call in the statements' values, nested bodies included, in program order.
void visit_body_calls(const std::vector<ast::StmtPtr>& body, const std::function<void(const Expr&)>& f) {
    for (const auto& st : body) {
        if (st->value) visit_calls(*st->value, f);
        visit_body_calls(st->body, f);
        visit_body_calls(st->orelse, f);
    }
}

}  // namespace dims

void dims::bind_once(ConstTable& consts, const Stmt& program_class, std::set<std::string>& symbol_set) {
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
    // The smallest size each dimension symbol needs: a pl.tile.load window (or a pl.tile.store of a tile) along
    // a tensor dimension written as that bare symbol needs it at least as large as the window's extent, plus
    // its offset when that is a constant. A symbol cvsim makes up a size for takes at least that (a default
    // smaller than the program's own windows would only make the program invalid: docs/DECISIONS.md, Frontend).
    std::map<std::string, int64_t> floor;
    {
        auto need = [&](const Expr* tensor, const Expr* offsets, const Expr* extents) {
            if (!tensor || !extents || (extents->kind != ExprKind::List && extents->kind != ExprKind::Tuple)) return;
            if (tensor->args.size() != extents->args.size()) return;
            for (size_t i = 0; i < tensor->args.size(); ++i) {
                const Expr& d = *tensor->args[i];
                if (d.kind != ExprKind::Name || consts.values.count(d.name)) continue;
                auto ext = fold_const(consts, *extents->args[i], nullptr, true);
                auto* e = ext ? std::get_if<int64_t>(&ext->v) : nullptr;
                if (!e || *e <= 0) continue;
                int64_t off = 0;
                if (offsets && (offsets->kind == ExprKind::List || offsets->kind == ExprKind::Tuple) &&
                    i < offsets->args.size())
                    if (auto o = fold_const(consts, *offsets->args[i], nullptr, true))
                        if (auto* oi = std::get_if<int64_t>(&o->v); oi && *oi > 0) off = *oi;
                int64_t& f = floor[d.name];
                f = std::max(f, off + *e);
            }
        };
        for (auto& entry : fns) {
            FnInfo& fi = entry.second;
            auto arg = [](const Expr& c, size_t i, const char* kw) -> const Expr* {
                if (i < c.args.size()) return c.args[i].get();
                for (const auto& k : c.keywords)
                    if (k.name == kw) return k.value.get();
                return nullptr;
            };
            auto shape_of = [](const std::map<std::string, const Expr*>& m, const Expr* v) -> const Expr* {
                if (!v || v->kind != ExprKind::Name) return nullptr;
                auto it = m.find(v->name);
                return it == m.end() ? nullptr : it->second;
            };
            std::function<void(const Expr&)> on_call = [&](const Expr& c) {
                const std::string callee = c.children[0]->dotted();
                if (callee == "pl.tile.load" || callee == "pl.load")
                    need(shape_of(fi.annotated, arg(c, 0, "tensor")), arg(c, 1, "offsets"), arg(c, 2, "shapes"));
                else if (callee == "pl.tile.store" || callee == "pl.store") {
                    const Expr* shapes = arg(c, 3, "shapes");
                    need(shape_of(fi.annotated, arg(c, 2, "output_tensor")), arg(c, 1, "offsets"),
                         shapes ? shapes : shape_of(fi.tiles, arg(c, 0, "tile")));
                }
            };
            visit_body_calls(fi.def->body, on_call);
        }
    }
    auto made_up = [&](const std::string& n) {
        auto f = floor.find(n);
        return f == floor.end() ? *consts.dim_default : std::max(*consts.dim_default, f->second);
    };
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
            consts.values[n] = ConstValue{made_up(n)};
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
    symbol_set.insert(symbols.begin(), symbols.end());
    symbol_set.insert(pending.begin(), pending.end());
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
    // What the fixed point reads, found once (its rounds only re-read them, in the same order): `NAME =
    // pl.tensor.dim(t, k)` assignments, annotated assignments (with the callee of a `self.f(...)` value), every
    // function's returns, and every `self.f(...)` call with its caller and callee (a whole model file has tens of
    // thousands of calls; walking and naming each in every round was most of what reading it cost).
    struct DimAssign {
        const std::string* name;
        FnInfo* fi;
        const Expr* tensor;
        const Expr* axis;
    };
    std::vector<DimAssign> dim_assigns;
    // `NAME = EXPR` of a symbol assigned once in the whole program, EXPR not a pl.tensor.dim or a call: the
    // symbol is the orchestration's scalar of that name (PyPTO prints a host variable into the kernel types
    // after inlining, e.g. `t_linear = (t_dim + 15) // 16 * 16`), so it takes EXPR's value once EXPR's names
    // have one; defaulting it independently gave sizes the program can never have together (docs/DECISIONS.md,
    // "A symbol the orchestration computes").
    std::vector<std::pair<const std::string*, const Expr*>> scalar_assigns;
    {
        std::map<std::string, int> times;
        for (auto& [stmt, fi] : assigns)
            for (const auto& t : stmt->targets)
                if (t && t->kind == ExprKind::Name) ++times[t->name];
        for (auto& [stmt, fi] : assigns) {
            const Expr* v = stmt->value.get();
            if (stmt->targets.size() != 1 || stmt->targets[0]->kind != ExprKind::Name || !v) continue;
            const std::string& n = stmt->targets[0]->name;
            if (times[n] != 1 || std::find(symbols.begin(), symbols.end(), n) == symbols.end()) continue;
            bool plain = true;  // arithmetic over names and constants only
            std::function<void(const Expr&)> scan = [&](const Expr& e) {
                if (e.kind == ExprKind::Call) plain = false;
                for (const auto& x : e.children)
                    if (x) scan(*x);
                for (const auto& x : e.args)
                    if (x) scan(*x);
            };
            scan(*v);
            if (plain) scalar_assigns.emplace_back(&n, v);
        }
    }
    struct AnnAssign {
        const Stmt* stmt;
        FnInfo* fi;
        const FnInfo* callee;  // the value is self.callee(...), else nullptr
    };
    std::vector<AnnAssign> ann_assigns;
    for (auto& [stmt, fi] : assigns) {
        const Expr* v = stmt->value.get();
        if (stmt->targets.size() == 1 && stmt->targets[0]->kind == ExprKind::Name && v && v->kind == ExprKind::Call &&
            v->children[0]->dotted() == "pl.tensor.dim" && v->args.size() == 2 && v->args[0]->kind == ExprKind::Name)
            dim_assigns.push_back(DimAssign{&stmt->targets[0]->name, fi, v->args[0].get(), v->args[1].get()});
        if (!stmt->annotation || stmt->targets.size() != 1 || !stmt->value) continue;
        if (v->kind == ExprKind::Name) {
            ann_assigns.push_back(AnnAssign{stmt, fi, nullptr});
        } else if (v->kind == ExprKind::Call) {
            const std::string callee = v->children[0]->dotted();
            if (callee.rfind("self.", 0) == 0)
                if (auto f = fns.find(callee.substr(5)); f != fns.end())
                    ann_assigns.push_back(AnnAssign{stmt, fi, &f->second});
        }
    }
    std::vector<std::pair<FnInfo*, const Stmt*>> returns;
    for (auto& entry : fns) {
        FnInfo& fi = entry.second;
        if (!fi.ret) continue;
        std::function<void(const std::vector<ast::StmtPtr>&)> rets = [&](const std::vector<ast::StmtPtr>& body) {
            for (const auto& st : body) {
                if (st->kind == StmtKind::Return && st->value) returns.emplace_back(&fi, st.get());
                rets(st->body);
                rets(st->orelse);
            }
        };
        rets(fi.def->body);
    }
    struct SelfCall {
        const FnInfo* caller;
        const Expr* call;
        const FnInfo* callee;
    };
    std::vector<SelfCall> self_calls;
    for (auto& entry : fns) {
        const FnInfo& caller = entry.second;
        std::function<void(const Expr&)> on_call = [&](const Expr& c) {
            const std::string callee = c.children[0]->dotted();
            if (callee.rfind("self.", 0) != 0) return;
            if (auto f = fns.find(callee.substr(5)); f != fns.end())
                self_calls.push_back(SelfCall{&caller, &c, &f->second});
        };
        visit_body_calls(caller.def->body, on_call);
    }
    auto fixpoint = [&] {
        for (bool changed = true; changed;) {
            changed = false;
            for (const DimAssign& d : dim_assigns) {  // NAME = pl.tensor.dim(t, k)
                const std::string& n = *d.name;
                auto t = d.fi->annotated.find(d.tensor->name);
                auto k = fold_const(consts, *d.axis);
                if (!unresolved(n) || t == d.fi->annotated.end() || !k) continue;
                auto* ki = std::get_if<int64_t>(&k->v);
                if (!ki || *ki < 0 || static_cast<size_t>(*ki) >= t->second->args.size()) continue;
                if (auto dv = fold_dim(*t->second->args[static_cast<size_t>(*ki)])) changed |= set(n, *dv);
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
            for (const AnnAssign& a : ann_assigns) {
                if (!a.callee) {
                    auto it = a.fi->annotated.find(a.stmt->value->name);
                    if (it != a.fi->annotated.end()) both(shapes_in(a.stmt->annotation.get()), {it->second});
                } else {
                    both(shapes_in(a.stmt->annotation.get()), shapes_in(a.callee->ret));
                }
            }
            for (const auto& [fi, st] : returns) {
                std::vector<const Expr*> got;
                const Expr* v = st->value.get();
                auto shape_of = [&](const Expr& x) -> const Expr* {
                    if (x.kind != ExprKind::Name) return nullptr;
                    auto it = fi->annotated.find(x.name);
                    return it == fi->annotated.end() ? nullptr : it->second;
                };
                if (v->kind == ExprKind::Tuple)
                    for (const auto& a : v->args) got.push_back(shape_of(*a));
                else
                    got.push_back(shape_of(*v));
                both(shapes_in(fi->ret), got);
            }
            for (const SelfCall& sc : self_calls) {  // self.f(args): a parameter's dims from the actual argument's
                const Expr& c = *sc.call;
                auto arg_shape = [&](const Expr& a) -> const Expr* {
                    if (a.kind != ExprKind::Name) return nullptr;
                    auto it = sc.caller->annotated.find(a.name);
                    return it == sc.caller->annotated.end() ? nullptr : it->second;
                };
                auto param_shape = [&](const std::string& p) -> const Expr* {
                    auto it = sc.callee->annotated.find(p);
                    return it == sc.callee->annotated.end() ? nullptr : it->second;
                };
                for (size_t i = 0; i < c.args.size() && i < sc.callee->params.size(); ++i)
                    changed |= unify(param_shape(sc.callee->params[i]), arg_shape(*c.args[i]));
                for (const auto& kw : c.keywords) changed |= unify(param_shape(kw.name), arg_shape(*kw.value));
            }
        }
    };
    // NAME = EXPR (scalar_assigns) binds last: only a symbol nothing else binds takes EXPR's value, one at a time
    // with the fixed point after each (an expression over two sizes cvsim made up on their own, e.g.
    // `KEY_CACHE_ROWS // BLOCK_TABLE_FLAT`, is a worse guess than the size a call's shapes give the same symbol).
    auto settle = [&] {
        fixpoint();
        for (bool again = true; again;) {
            again = false;
            for (const auto& [n, v] : scalar_assigns)
                if (unresolved(*n))
                    if (auto dv = fold_dim(*v)) {
                        set(*n, *dv);
                        fixpoint();
                        again = true;
                        break;
                    }
        }
    };
    settle();
    // A pl.dynamic symbol the program's shapes do not bind takes the default now, and the implicit names that
    // follow it through calls and aliases follow its value (the fixed point again); then the rest default.
    bool defaulted_any = false;
    for (const auto& n : pending)
        if (!consts.values.count(n)) {
            consts.values[n] = ConstValue{made_up(n)};
            consts.defaulted.push_back(n);
            defaulted_any = true;
        }
    if (defaulted_any) settle();
    for (const auto& n : symbols) {
        if (consts.values.count(n) || pending.count(n)) continue;
        if (consts.dim_default) {
            consts.values[n] = ConstValue{made_up(n)};
            consts.defaulted.push_back(n);
        } else {
            consts.dynamic.insert(n);
        }
    }
    settle_pending();
}

}  // namespace cvsim
