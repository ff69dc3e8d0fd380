// Semantic analysis: module constants, program/function structure, types, names, statements.
//
// Algorithm: (1) fold module constants in order (Python semantics for //, %, /, **); (2) collect every
// function's signature (decorator, attrs, parameters, return type) so calls between functions resolve in
// any order; (3) lower each body statement by statement. Expressions are lowered bottom-up; an op call
// nested inside another expression is hoisted into a fresh assignment placed before the statement, so
// each IR statement carries at most one op call (what the printer, expander and executor expect).
// The first user error raises a CompileError; nothing continues after it, so there are no cascades.
#include "frontend/sema.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <list>
#include <map>
#include <mutex>
#include <unordered_map>
#include <variant>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/parser.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/sema_lower.h"
#include "frontend/sema_types.h"

namespace cvsim {

using namespace ir;

namespace {

using sema::FunctionLowering;
using sema::ProgramCtx;

// The first (in source order) mention of distributed state in a function definition: a pld.* type or op,
// or pl.Ptr (the window buffer pointer of pld.tensor.alloc_window_buffer).
void note_distributed(const ast::Expr* e, Function::DistributedUse& first) {
    if (!e) return;
    // (only an attribute chain can read `pld.*` or `pl.Ptr`: its base name decides before it is spelled out)
    const ast::Expr* base = e;
    while (base->kind == ast::ExprKind::Attribute && !base->children.empty() && base->children[0])
        base = base->children[0].get();
    if (e->kind == ast::ExprKind::Attribute && base->kind == ast::ExprKind::Name &&
        (base->name == "pld" || (base->name == "pl" && e->name == "Ptr"))) {
        std::string d = e->dotted();
        if (d.rfind("pld.", 0) == 0 || d == "pl.Ptr") {
            if (first.what.empty() || loc_before(e->loc, first.loc))
                first = {d, e->loc, static_cast<uint32_t>(d.size())};
            return;
        }
    }
    for (const auto& c : e->children) note_distributed(c.get(), first);
    for (const auto& c : e->args) note_distributed(c.get(), first);
    for (const auto& c : e->values) note_distributed(c.get(), first);
    for (const auto& k : e->keywords) note_distributed(k.value.get(), first);
}

void note_distributed(const ast::Stmt& s, Function::DistributedUse& first) {
    for (const auto& p : s.params) note_distributed(p.annotation.get(), first);
    for (const auto& t : s.targets) note_distributed(t.get(), first);
    note_distributed(s.annotation.get(), first);
    note_distributed(s.value.get(), first);
    for (const auto& b : s.body) note_distributed(*b, first);
    for (const auto& b : s.orelse) note_distributed(*b, first);
}

void read_signature(ProgramCtx& ctx, const ast::Stmt& s, Function& f);

void collect_function(ProgramCtx& ctx, const ast::Stmt& s) {
    if (s.kind != ast::StmtKind::FunctionDef) {
        if (s.kind == ast::StmtKind::Expr && s.value &&
            (s.value->kind == ast::ExprKind::Str || s.value->kind == ast::ExprKind::Ellipsis))
            return;  // docstring or `...`
        if (s.kind == ast::StmtKind::Pass) return;
        raise(codes::kUnsupported, s.loc, "only @pl.function methods are supported in a @pl.program class");
    }
    auto fn = std::make_shared<Function>();
    fn->name = s.name;
    fn->loc = s.loc;
    if (auto c = ctx.consts.copy_of.find(s.name); c != ctx.consts.copy_of.end()) fn->specialised_from = c->second;
    note_distributed(s, fn->distributed);
    try {
        read_signature(ctx, s, *fn);
    } catch (const CompileError& e) {
        if (e.diag().code != codes::kUnsupported || !ctx.keep_unread) throw;
        // Read as unread: callers that reach it get this diagnostic (docs/DECISIONS.md).
        fn->params.clear();
        fn->vars.clear();
        fn->ret_types.clear();
        fn->unread.diag = std::make_shared<const Diagnostic>(e.diag());
        fn->unread.signature = true;
    }
    if (ctx.by_name.count(fn->name))
        raise(codes::kName, s.loc, fmt::format("function '{}' is defined twice", fn->name));
    ctx.by_name[fn->name] = fn;
    ctx.program->functions.push_back(fn);
}

// The first line of a definition (its first decorator's, else its own).
uint32_t first_line(const ast::Stmt& s) {
    uint32_t l = s.loc.line;
    for (const auto& d : s.decorators) l = std::min(l, d->loc.line);
    return l;
}

// Lines FIRST..LAST of FILE (trailing blank and comment lines dropped), re-indented to the printer's
// method indent (4 spaces): the text of a function cvsim did not read, printed back as written.
std::string function_text(const SourceFile& file, uint32_t first, uint32_t last) {
    auto blank = [](std::string_view l) {
        size_t i = l.find_first_not_of(" \t\r");
        return i == std::string_view::npos || l[i] == '#';
    };
    while (last > first && blank(file.line_text(last))) --last;
    const size_t strip = std::min(file.line_text(first).find_first_not_of(' '), file.line_text(first).size());
    std::string out;
    for (uint32_t l = first; l <= last; ++l) {
        std::string_view t = file.line_text(l);
        size_t lead = t.find_first_not_of(' ');
        if (lead == std::string_view::npos) lead = t.size();
        t.remove_prefix(std::min(lead, strip));
        out += t.empty() ? "" : "    ";
        out += t;
        out += "\n";
    }
    return out;
}

void read_signature(ProgramCtx& ctx, const ast::Stmt& s, Function& f) {
    Function* fn = &f;
    bool decorated = false;
    for (auto& d : s.decorators) {
        std::string dn = d->kind == ast::ExprKind::Call ? d->children[0]->dotted() : d->dotted();
        if (dn != "pl.function")
            raise(codes::kUnsupported, d->loc,
                  fmt::format("decorator '{}' is not supported (use @pl.function)", dn.empty() ? "?" : dn));
        decorated = true;
        if (d->kind != ast::ExprKind::Call) continue;
        if (!d->args.empty()) raise(codes::kType, d->args[0]->loc, "@pl.function takes keyword arguments only");
        for (auto& kw : d->keywords) {
            if (kw.name == "type") {
                ExprPtr t = lower_enum_ref(*kw.value);
                if (!t || t->kind != ExprKind::Enum || t->enum_kind != EnumKind::FuncType)
                    raise(codes::kType, kw.value->loc, "type= must be a pl.FunctionType member");
                fn->type = static_cast<FuncType>(t->ival);
            } else if (kw.name == "attrs") {
                if (kw.value->kind != ast::ExprKind::Dict) raise(codes::kType, kw.value->loc, "attrs= must be a dict");
                fn->attrs = lower_attrs(ctx.consts, *kw.value);
            } else if (kw.name == "level" || kw.name == "role" || kw.name == "strict_ssa" || kw.name == "name" ||
                       kw.name == "auto_scope" || kw.name == "external_source") {
                fn->deco_extra_keys.push_back(kw.name);
                fn->deco_extra.push_back(lower_attr_value(ctx.consts, *kw.value));
            } else {
                raise(codes::kType, kw.loc,
                      fmt::format("@pl.function() got an unexpected keyword argument '{}'", kw.name),
                      "its keywords are: type, level, role, attrs, auto_scope, external_source, strict_ssa, name");
            }
        }
    }
    if (!decorated)
        raise(codes::kUnsupported, s.loc, fmt::format("method '{}' needs the @pl.function decorator", s.name));
    // PyPTO prints some functions without `self` (e.g. InCore/AIC/AIV beside Orchestration methods): a
    // leading unannotated `self` is the method receiver, every other parameter is a kernel parameter.
    size_t first_param = !s.params.empty() && s.params[0].name == "self" && !s.params[0].annotation ? 1 : 0;
    for (size_t i = first_param; i < s.params.size(); ++i) {
        const ast::Param& p = s.params[i];
        if (!p.annotation) raise(codes::kType, p.loc, fmt::format("parameter '{}' needs a type annotation", p.name));
        if (p.default_value)
            raise(codes::kUnsupported, p.default_value->loc, "parameter default values are not supported");
        if (fn->find_var(p.name)) raise(codes::kName, p.loc, fmt::format("duplicate parameter '{}'", p.name));
        ParamDir dir = ParamDir::In;
        Type t = lower_param_type(ctx.consts, *p.annotation, dir);
        Param param;
        param.var = fn->new_var(p.name, t, p.loc);
        param.dir = dir;
        fn->params.push_back(param);
    }
    if (s.annotation) {
        std::string head = s.annotation->kind == ast::ExprKind::Subscript ? s.annotation->children[0]->dotted() : "";
        if (head == "tuple" || head == "pl.Tuple") {
            fn->ret_is_tuple = true;
            for (auto& a : s.annotation->args) {
                if (a->kind == ast::ExprKind::Tuple && a->args.empty()) continue;  // pl.Tuple[()]
                fn->ret_types.push_back(lower_type(ctx.consts, *a, nullptr));
            }
        } else if (s.annotation->kind != ast::ExprKind::None) {
            fn->ret_types.push_back(lower_type(ctx.consts, *s.annotation, nullptr));
        }
    }
}

}  // namespace

std::shared_ptr<Program> analyze(const ast::Module& module) {
    return analyze(module, SemaOptions{});
}

namespace {

// A shape error in a program whose dimensions cvsim chose (inferred from the program's own shapes, the
// documented default, or --dim) names those choices: the size a window or a signature disagrees with may be
// one of them, and --dim is how a user gives the launch's real one.
[[noreturn]] void rethrow_with_dims(const CompileError& e, const ConstTable& consts) {
    const Diagnostic& d = e.diag();
    const bool shape =
        d.code == codes::kOob || (d.code == codes::kType && d.message.find("pl.Tensor[[") != std::string::npos);
    std::vector<std::string> chosen;
    for (const auto& [n, v] : consts.inferred) chosen.push_back(fmt::format("{}={} (inferred)", n, v));
    for (const auto& n : consts.defaulted)
        if (auto it = consts.values.find(n); it != consts.values.end())
            if (auto* v = std::get_if<int64_t>(&it->second.v)) chosen.push_back(fmt::format("{}={} (default)", n, *v));
    for (const auto& n : consts.bound_used)
        if (auto it = consts.bound.find(n); it != consts.bound.end())
            chosen.push_back(fmt::format("{}={} (--dim)", n, it->second));
    if (!shape || chosen.empty()) throw e;
    // The dimensions of the tensor the message names come first: its annotation in the file (`NAME:
    // pl.Tensor[[A, B], ...]`, also in pl.Out / pl.InOut), the symbols written there, with their values.
    std::vector<std::string> first;
    if (size_t q = d.message.find("tensor '"); q != std::string::npos && d.loc.file) {
        const size_t b = q + 8, end = d.message.find('\'', b);
        const std::string tensor = end == std::string::npos ? std::string() : d.message.substr(b, end - b);
        const std::string& text = d.loc.file->text();
        for (const std::string lead : {": pl.Tensor[[", ": pl.Out[pl.Tensor[[", ": pl.InOut[pl.Tensor[["}) {
            if (tensor.empty() || !first.empty()) break;
            for (size_t at = text.find(tensor + lead); at != std::string::npos; at = text.find(tensor + lead, at + 1)) {
                if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_')) continue;
                const size_t dims = at + tensor.size() + lead.size(), close = text.find(']', dims);
                if (close == std::string::npos) break;
                const std::string list = text.substr(dims, close - dims);
                for (size_t i = 0; i < list.size();) {
                    if (!(std::isalpha(static_cast<unsigned char>(list[i])) || list[i] == '_')) {
                        ++i;
                        continue;
                    }
                    size_t j = i;
                    while (j < list.size() && (std::isalnum(static_cast<unsigned char>(list[j])) || list[j] == '_'))
                        ++j;
                    const std::string name = list.substr(i, j - i);
                    i = j;
                    auto v = consts.values.find(name);
                    auto* iv = v == consts.values.end() ? nullptr : std::get_if<int64_t>(&v->second.v);
                    if (!iv) continue;
                    std::string how = "from the program's shapes";
                    if (consts.bound_used.count(name))
                        how = "--dim";
                    else if (std::find(consts.defaulted.begin(), consts.defaulted.end(), name) !=
                             consts.defaulted.end())
                        how = "default";
                    else if (std::any_of(consts.inferred.begin(), consts.inferred.end(),
                                         [&](const auto& p) { return p.first == name; }))
                        how = "inferred";
                    const std::string item = fmt::format("{}={} ({})", name, *iv, how);
                    if (std::find(first.begin(), first.end(), item) == first.end()) first.push_back(item);
                }
                break;
            }
        }
    }
    if (!first.empty()) {
        std::vector<std::string> rest;
        for (const auto& c : chosen)
            if (std::none_of(first.begin(), first.end(),
                             [&](const std::string& f) { return c.rfind(f.substr(0, f.find('=') + 1), 0) == 0; }))
                rest.push_back(c);
        first.insert(first.end(), rest.begin(), rest.end());
        chosen = std::move(first);
    }
    constexpr size_t kShown = 4;
    std::string list;
    for (size_t i = 0; i < chosen.size() && i < kShown; ++i) list += (i ? ", " : "") + chosen[i];
    if (chosen.size() > kShown) list += fmt::format(" and {} more", chosen.size() - kShown);
    Diagnostic out = d;
    out.hint = (d.hint.empty() ? std::string() : d.hint + "; ") +
               fmt::format("the program's dynamic dimensions are {}: give the launch's sizes with --dim NAME=V", list);
    for (size_t i = 0; i < consts.specialised.size() && i < 2; ++i) out.hint += "; " + consts.specialised[i];
    if (consts.specialised.size() > 2)
        out.hint += fmt::format(" and {} more per-call copies", consts.specialised.size() - 2);
    throw CompileError(std::move(out));
}

}  // namespace

static std::shared_ptr<Program> analyze_program(const ast::Module& module, const SemaOptions& opt, ProgramCtx& ctx);

std::shared_ptr<Program> analyze(const ast::Module& module, const SemaOptions& opt) {
    ProgramCtx ctx;
    try {
        return analyze_program(module, opt, ctx);
    } catch (const CompileError& e) {
        rethrow_with_dims(e, ctx.consts);
    }
}

static std::shared_ptr<Program> analyze_program(const ast::Module& module, const SemaOptions& opt, ProgramCtx& ctx) {
    ctx.consts.bound = opt.dims;
    ctx.consts.dim_default = opt.dim_default;
    ctx.program = std::make_shared<Program>();
    ctx.keep_unread = opt.keep_unread;
    ctx.program->sources.push_back(module.source);
    const ast::Stmt* program_class = nullptr;
    bool imported = false;
    for (const auto& sp : module.body) {
        const ast::Stmt& s = *sp;
        switch (s.kind) {
            case ast::StmtKind::Import:
                if (s.name == "pypto.language" || s.name == "pypto.language.distributed") {
                    imported = true;
                    break;
                }
                raise(codes::kUnsupported, s.loc, fmt::format("import of '{}' is not supported", s.name),
                      "kernels import pypto.language as pl");
            case ast::StmtKind::Assign:
                define_constant(ctx.consts, s);
                break;
            case ast::StmtKind::ClassDef: {
                bool is_prog = false;
                for (auto& d : s.decorators) is_prog |= d->dotted() == "pl.program";
                if (!is_prog)
                    raise(codes::kUnsupported, s.loc,
                          fmt::format("class '{}' needs the @pl.program decorator", s.name));
                if (program_class)
                    raise(codes::kUnsupported, s.loc, "only one @pl.program class per file is supported");
                program_class = &s;
                break;
            }
            case ast::StmtKind::Expr:
                if (s.value->kind == ast::ExprKind::Str) break;  // module docstring
                raise(codes::kUnsupported, s.loc,
                      "only constants and one @pl.program class are allowed at module level");
            case ast::StmtKind::Pass:
                break;
            case ast::StmtKind::FunctionDef:
                raise(codes::kUnsupported, s.loc, "functions must be methods of the @pl.program class");
            default:
                raise(codes::kUnsupported, s.loc,
                      "only constants and one @pl.program class are allowed at module level");
        }
    }
    if (!program_class) {
        SourceLoc loc{module.source.get(), 1, 1};
        raise(codes::kParse, loc, "no @pl.program class in this file");
    }
    std::unique_ptr<ast::Stmt> specialised = bind_implicit_dims(ctx.consts, *program_class);
    if (specialised) program_class = specialised.get();
    for (const auto& [name, value] : opt.dims) {
        (void)value;
        if (ctx.consts.bound_used.count(name)) continue;
        std::string names;
        for (const auto& d : ctx.consts.dynamic) names += (names.empty() ? "" : ", ") + d;
        raise(codes::kName, SourceLoc{module.source.get(), 1, 1},
              fmt::format("--dim {}: the program has no pl.dynamic symbol '{}'", name, name),
              names.empty() ? "it declares no pl.dynamic symbol" : "its unbound pl.dynamic symbols: " + names);
    }
    (void)imported;
    if (opt.defaulted)
        for (const auto& n : ctx.consts.defaulted)
            if (auto it = ctx.consts.values.find(n); it != ctx.consts.values.end())
                if (auto* v = std::get_if<int64_t>(&it->second.v)) opt.defaulted->emplace_back(n, *v);
    if (opt.inferred) opt.inferred->insert(opt.inferred->end(), ctx.consts.inferred.begin(), ctx.consts.inferred.end());
    if (opt.specialised)
        opt.specialised->insert(opt.specialised->end(), ctx.consts.specialised.begin(), ctx.consts.specialised.end());
    ctx.program->name = program_class->name;
    for (const auto& s : program_class->body) collect_function(ctx, *s);
    if (ctx.program->functions.empty())
        raise(codes::kParse, program_class->loc, fmt::format("program '{}' has no functions", program_class->name));
    // Bodies: each function is lowered against the complete set of signatures.
    // An E-UNSUPPORTED in one body is kept on that function (Function::unread) instead of rejecting the
    // file: the launches that do not reach it still run and get verdicts. Other codes reject the file.
    size_t fi = 0;
    const auto& cls = program_class->body;
    for (size_t i = 0; i < cls.size(); ++i) {
        const ast::Stmt& s = *cls[i];
        if (s.kind != ast::StmtKind::FunctionDef) continue;
        auto& fn = ctx.program->functions[fi++];
        if (!fn->is_unread()) {
            try {
                FunctionLowering lower(ctx, *fn);
                lower.lower_body(s.body);
                sema::check_view_writes(*fn);
            } catch (const CompileError& e) {
                // A window that does not fit its tensor at these sizes (E-OOB) is kept the same way: at a size
                // cvsim samples, a kernel the orchestration does not launch there must not reject the sizes the
                // launches it does make (docs/DECISIONS.md, "A symbol the orchestration computes"); a launch that
                // reaches the function gets the E-OOB.
                if ((e.diag().code != codes::kUnsupported && e.diag().code != codes::kOob) || !opt.keep_unread) throw;
                fn->body.clear();
                fn->vars.resize(fn->params.size());
                Diagnostic kept = e.diag();
                if (kept.code == codes::kOob) try {  // named with the sizes cvsim chose, as when it is thrown
                        rethrow_with_dims(e, ctx.consts);
                    } catch (const CompileError& named) {
                        kept = named.diag();
                    }
                fn->unread.diag = std::make_shared<const Diagnostic>(std::move(kept));
            }
        }
        if (!fn->is_unread()) continue;
        // Its text: up to the next definition of the class, else up to what follows the class.
        // (A per-call copy, appended to the class, has its original's lines: the next definition is the next one
        // in the file.)
        uint32_t last = module.source->line_count();
        bool next_in_class = false;
        for (size_t j = i + 1; j < cls.size(); ++j)
            if (first_line(*cls[j]) > first_line(s) && first_line(*cls[j]) - 1 < last) {
                last = first_line(*cls[j]) - 1;
                next_in_class = true;
            }
        if (!next_in_class)
            for (const auto& m : module.body)
                if (m->loc.line > program_class->loc.line && first_line(*m) - 1 < last) last = first_line(*m) - 1;
        fn->unread.text = function_text(*module.source, first_line(s), last);
        if (size_t d = fn->unread.text.find("def "); d != std::string::npos) {  // a copy prints under its own name
            size_t e = fn->unread.text.find('(', d);
            if (e != std::string::npos && fn->unread.text.compare(d + 4, e - d - 4, s.name) != 0)
                fn->unread.text.replace(d + 4, e - d - 4, s.name);
        }
    }
    // An expanded program without its Group is launched as the expander would have written it (SPEC 3).
    passes::add_implicit_group(*ctx.program);
    return ctx.program;
}

}  // namespace cvsim
