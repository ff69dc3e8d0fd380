// Per-call specialisation of kernels whose signature dimensions are dynamic symbols: copies `f__SYM_V` bound to
// each call's sizes (docs/DECISIONS.md, Frontend; the symbols themselves: sema_dims.cpp).
#include <fmt/format.h>
#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>
#include "frontend/sema_types.h"

#include "frontend/sema_dims_internal.h"

namespace cvsim {

using namespace dims;

namespace {

ast::ExprPtr clone_ast(const Expr& e) {
    auto c = std::make_unique<Expr>();
    c->kind = e.kind;
    c->loc = e.loc;
    c->span = e.span;
    c->name = e.name;
    c->op = e.op;
    c->int_value = e.int_value;
    c->float_value = e.float_value;
    c->str_value = e.str_value;
    c->bool_value = e.bool_value;
    c->parenthesized = e.parenthesized;
    for (const auto& x : e.children) c->children.push_back(x ? clone_ast(*x) : nullptr);
    for (const auto& x : e.args) c->args.push_back(x ? clone_ast(*x) : nullptr);
    for (const auto& x : e.values) c->values.push_back(x ? clone_ast(*x) : nullptr);
    for (const auto& k : e.keywords)
        c->keywords.push_back(ast::Keyword{k.name, k.loc, k.value ? clone_ast(*k.value) : nullptr});
    return c;
}

ast::StmtPtr clone_ast(const Stmt& s) {
    auto c = std::make_unique<Stmt>();
    c->kind = s.kind;
    c->loc = s.loc;
    c->name = s.name;
    c->alias = s.alias;
    for (const auto& x : s.targets) c->targets.push_back(x ? clone_ast(*x) : nullptr);
    if (s.annotation) c->annotation = clone_ast(*s.annotation);
    if (s.value) c->value = clone_ast(*s.value);
    for (const auto& x : s.body) c->body.push_back(clone_ast(*x));
    for (const auto& x : s.orelse) c->orelse.push_back(clone_ast(*x));
    for (const auto& x : s.decorators) c->decorators.push_back(clone_ast(*x));
    for (const auto& p : s.params)
        c->params.push_back(ast::Param{p.name, p.loc, p.annotation ? clone_ast(*p.annotation) : nullptr,
                                       p.default_value ? clone_ast(*p.default_value) : nullptr});
    return c;
}

void each_expr(Expr& e, const std::function<void(Expr&)>& f) {
    f(e);
    for (auto& x : e.children)
        if (x) each_expr(*x, f);
    for (auto& x : e.args)
        if (x) each_expr(*x, f);
    for (auto& x : e.values)
        if (x) each_expr(*x, f);
    for (auto& k : e.keywords)
        if (k.value) each_expr(*k.value, f);
}

void each_expr(Stmt& s, const std::function<void(Expr&)>& f) {
    for (auto& x : s.targets)
        if (x) each_expr(*x, f);
    if (s.annotation) each_expr(*s.annotation, f);
    if (s.value) each_expr(*s.value, f);
    for (auto& x : s.body) each_expr(*x, f);
    for (auto& x : s.orelse) each_expr(*x, f);
    for (auto& p : s.params)
        if (p.annotation) each_expr(*p.annotation, f);
}

}  // namespace

// Per-call specialisation (docs/DECISIONS.md, Frontend): a kernel whose signature dimension is a dynamic symbol
// (a pl.dynamic symbol or an implicit one) is one function on the device, called at run time with the sizes of
// its arguments. cvsim gives each symbol one value per program, so a call that passes another size gets its
// own copy of the callee, `f__SYM_V`, whose symbols are renamed and bound to that call's sizes; the copy's own
// calls are specialised the same way (rounds, bounded). A --dim binding is never overridden.
std::unique_ptr<Stmt> bind_implicit_dims(ConstTable& consts, const Stmt& program_class) {
    std::set<std::string> symbols;  // the names a specialisation may rebind
    bind_once(consts, program_class, symbols);
    for (const auto& [n, v] : consts.bound) symbols.erase(n);  // --dim is the user's word: never rebound
    if (symbols.empty()) return nullptr;
    std::unique_ptr<Stmt> cls;  // the specialised copy, made at the first conflict
    auto fold_dim = [&](const Expr& d) -> std::optional<int64_t> {
        auto c = fold_const(consts, d, nullptr, true);
        if (!c) return std::nullopt;
        if (auto* i = std::get_if<int64_t>(&c->v); i && *i > 0) return *i;
        return std::nullopt;
    };
    auto value_of = [&](const std::string& n) -> std::optional<int64_t> {
        auto it = consts.values.find(n);
        if (it == consts.values.end()) return std::nullopt;
        if (auto* i = std::get_if<int64_t>(&it->second.v)) return *i;
        return std::nullopt;
    };
    constexpr int kRounds = 8;       // a call chain deeper than this keeps its E-TYPE
    constexpr size_t kClones = 256;  // bounded work on any input
    std::map<std::pair<std::string, std::map<std::string, int64_t>>, std::string> made;  // (callee, binding) -> copy
    for (int round = 0; round < kRounds; ++round) {
        const Stmt& cur = cls ? *cls : program_class;
        std::map<std::string, FnInfo> fns;
        std::vector<const Expr*> annotations;
        std::vector<std::pair<const Stmt*, FnInfo*>> assigns;
        std::set<std::string> names;
        for (const auto& s : cur.body) {
            if (s->kind != StmtKind::FunctionDef) continue;
            names.insert(s->name);
            FnInfo& fi = fns[s->name];
            fi.def = s.get();
            for (const auto& p : s->params) {
                if (p.name == "self") continue;
                fi.params.push_back(p.name);
                if (const Expr* sh = p.annotation ? tensor_shape(p.annotation.get()) : nullptr)
                    fi.annotated.emplace(p.name, sh);
            }
            scan_body(s->body, fi, annotations, assigns);
        }
        // Each call's binding of the callee's signature symbols, where it differs from the program's.
        struct Site {
            size_t fn_index;
            const Expr* call;
            const Stmt* assign;  // `t: ANN = self.f(...)`: the statement, whose ANN follows the call's sizes
            std::string callee;
            std::map<std::string, int64_t> binding;
        };
        std::vector<Site> sites;
        for (size_t fi_index = 0; fi_index < cur.body.size(); ++fi_index) {
            const Stmt& def = *cur.body[fi_index];
            if (def.kind != StmtKind::FunctionDef) continue;
            const FnInfo& caller = fns[def.name];
            const Stmt* current = nullptr;  // the statement being walked
            auto assign_of = [&](const Expr& c) -> const Stmt* {
                return current && current->kind == StmtKind::Assign && current->annotation && current->value.get() == &c
                           ? current
                           : nullptr;
            };
            std::function<void(const Expr&)> on_call = [&](const Expr& c) {
                const std::string callee = c.children[0]->dotted();
                if (callee.rfind("self.", 0) != 0) return;
                auto f = fns.find(callee.substr(5));
                if (f == fns.end()) return;
                std::map<std::string, int64_t> binding;
                bool consistent = true;
                auto visit = [&](const std::string& param, const Expr& actual) {
                    auto want = f->second.annotated.find(param);
                    if (want == f->second.annotated.end() || actual.kind != ExprKind::Name) return;
                    auto have = caller.annotated.find(actual.name);
                    if (have == caller.annotated.end() || want->second->args.size() != have->second->args.size())
                        return;
                    for (size_t j = 0; j < want->second->args.size(); ++j) {
                        const Expr& w = *want->second->args[j];
                        if (w.kind != ExprKind::Name || !symbols.count(w.name)) continue;
                        auto hv = fold_dim(*have->second->args[j]);
                        auto wv = value_of(w.name);
                        if (!hv || !wv || *hv == *wv) continue;
                        auto [it, fresh] = binding.emplace(w.name, *hv);
                        if (!fresh && it->second != *hv) consistent = false;
                    }
                };
                for (size_t i = 0; i < c.args.size() && i < f->second.params.size(); ++i)
                    visit(f->second.params[i], *c.args[i]);
                for (const auto& kw : c.keywords) visit(kw.name, *kw.value);
                if (consistent && !binding.empty())
                    sites.push_back(Site{fi_index, &c, assign_of(c), f->first, std::move(binding)});
            };
            std::function<void(const std::vector<ast::StmtPtr>&)> walk = [&](const std::vector<ast::StmtPtr>& body) {
                for (const auto& s : body) {
                    current = s.get();
                    if (s->value) visit_calls(*s->value, on_call);
                    walk(s->body);
                    walk(s->orelse);
                }
            };
            walk(def.body);
        }
        if (sites.empty() || made.size() >= kClones) break;
        if (!cls) {  // copy the class and find the sites again in the copy (same order of traversal)
            cls = clone_ast(program_class);
            round = -1;  // the copy is the same program: detect again on it (this pass did not count)
            continue;
        }
        for (Site& site : sites) {
            std::string name;
            auto key = std::make_pair(site.callee, site.binding);
            if (auto m = made.find(key); m != made.end()) {
                name = m->second;
            } else {
                if (made.size() >= kClones) break;
                name = site.callee;
                for (const auto& [n, v] : site.binding) name += fmt::format("__{}_{}", n, v);
                while (names.count(name)) name += "_";
                names.insert(name);
                const Stmt* orig = nullptr;
                for (const auto& s : cls->body)
                    if (s->kind == StmtKind::FunctionDef && s->name == site.callee) orig = s.get();
                auto copy = clone_ast(*orig);
                copy->name = name;
                std::map<std::string, std::string> rename;
                std::string note;
                for (const auto& [n, v] : site.binding) {
                    std::string fresh = fmt::format("{}__in_{}", n, name);
                    rename[n] = fresh;
                    consts.values[fresh] = ConstValue{v};
                    symbols.insert(fresh);
                    note += fmt::format("{}{}={}", note.empty() ? "" : ", ", n, v);
                }
                each_expr(*copy, [&](Expr& e) {
                    if (e.kind != ExprKind::Name) return;
                    if (auto r = rename.find(e.name); r != rename.end()) e.name = r->second;
                });
                consts.specialised.push_back(fmt::format("'{}' is '{}' specialised for the call at {}:{} in '{}' ({})",
                                                         name, site.callee, site.call->loc.line, site.call->loc.col,
                                                         cls->body[site.fn_index]->name, note));
                consts.copy_of[name] = site.callee;
                cls->body.push_back(std::move(copy));
                made.emplace(key, name);
            }
            // The call now names the copy (children[0] is `self.f`: an Attribute whose member is the name), and
            // the annotation of its result, written with the callee's symbols, takes the copy's sizes.
            const_cast<Expr&>(*site.call->children[0]).name = name;
            if (site.assign)
                each_expr(*const_cast<Stmt&>(*site.assign).annotation, [&](Expr& e) {
                    if (e.kind == ExprKind::Name && site.binding.count(e.name))
                        e.name = fmt::format("{}__in_{}", e.name, name);
                });
        }
    }
    return cls;
}

}  // namespace cvsim
