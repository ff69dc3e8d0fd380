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

#include <cmath>
#include <map>
#include <unordered_map>
#include <variant>

#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/parser.h"
#include "frontend/sema_types.h"

namespace cvsim {

using namespace ir;

namespace {

class FunctionLowering;

struct ProgramCtx {
    ConstTable consts;                                    // module constants
    std::shared_ptr<Program> program;                     // the program being built
    std::map<std::string, std::shared_ptr<Function>> by_name;  // functions by name
};

// Lowers one function body.
class FunctionLowering {
public:
    FunctionLowering(ProgramCtx& ctx, Function& fn) : m_ctx(ctx), m_fn(fn) {
        for (auto& v : fn.vars) m_vars[v->name] = v;
    }

    void lower_body(const std::vector<ast::StmtPtr>& body) {
        size_t start = 0;
        // The printed style carries function attrs in a first statement pl.func_attr({...}).
        if (!body.empty() && body[0]->kind == ast::StmtKind::Expr && body[0]->value->kind == ast::ExprKind::Call &&
            body[0]->value->children[0]->dotted() == "pl.func_attr") {
            const ast::Expr& call = *body[0]->value;
            if (call.args.size() != 1 || !call.keywords.empty() || call.args[0]->kind != ast::ExprKind::Dict)
                raise("E-TYPE", call.loc, "pl.func_attr takes one dict of attributes");
            m_fn.attrs = lower_attrs(m_ctx.consts, *call.args[0]);
            m_fn.attrs_in_body = true;
            start = 1;
        }
        m_fn.body = lower_block(body, start, BlockKind::Function);
    }

private:
    enum class BlockKind { Function, Loop, LoopWithInit, Branch, Region };

    ProgramCtx& m_ctx;                                    // program-wide state
    Function& m_fn;                                       // function being lowered
    std::unordered_map<std::string, VarPtr> m_vars;       // name -> variable slot
    Block* m_out = nullptr;                               // block receiving hoisted statements

    // ---- blocks and statements ----

    Block lower_block(const std::vector<ast::StmtPtr>& stmts, size_t start, BlockKind kind,
                      std::vector<VarPtr>* yield_targets = nullptr, const std::vector<Type>* yield_types = nullptr) {
        Block out;
        Block* saved = m_out;
        m_out = &out;
        for (size_t i = start; i < stmts.size(); ++i) {
            const ast::Stmt& s = *stmts[i];
            bool last = i + 1 == stmts.size();
            if (is_yield(s)) {
                if (kind != BlockKind::LoopWithInit && kind != BlockKind::Branch)
                    raise("E-PARSE", s.loc, "pl.yield_ outside a loop with init_values or an if-branch",
                          "pl.yield_ ends the body of `for ... in pl.range(..., init_values=...)` or of an if/else that produces values");
                if (!last) raise("E-PARSE", s.loc, "pl.yield_ must be the last statement of its block");
                lower_yield(s, yield_targets, yield_types);
                continue;
            }
            if (last && kind == BlockKind::LoopWithInit)
                raise("E-PARSE", s.loc, "the body of a loop with init_values must end with pl.yield_(...)",
                      "add `x = pl.yield_(value)` as the last statement of the loop body");
            lower_stmt(s);
        }
        if (stmts.size() == start && kind == BlockKind::LoopWithInit)
            raise("E-PARSE", m_fn.loc, "loop with init_values has an empty body");
        m_out = saved;
        return out;
    }

    static bool is_yield(const ast::Stmt& s) {
        const ast::Expr* v = s.value.get();
        return (s.kind == ast::StmtKind::Assign || s.kind == ast::StmtKind::Expr) && v && v->kind == ast::ExprKind::Call &&
               v->children[0]->dotted() == "pl.yield_";
    }

    void emit(StmtPtr s) { m_out->push_back(std::move(s)); }

    void lower_stmt(const ast::Stmt& s) {
        switch (s.kind) {
            case ast::StmtKind::Assign: lower_assign(s); return;
            case ast::StmtKind::Expr: lower_expr_stmt(s); return;
            case ast::StmtKind::Return: lower_return(s); return;
            case ast::StmtKind::For: lower_for(s); return;
            case ast::StmtKind::If: lower_if(s); return;
            case ast::StmtKind::Pass: {
                auto p = std::make_shared<Stmt>();
                p->kind = StmtKind::Pass;
                p->loc = s.loc;
                emit(p);
                return;
            }
            case ast::StmtKind::FunctionDef: raise("E-UNSUPPORTED", s.loc, "nested function definition is not supported");
            case ast::StmtKind::ClassDef: raise("E-UNSUPPORTED", s.loc, "class definition inside a function is not supported");
            case ast::StmtKind::Import: raise("E-UNSUPPORTED", s.loc, "import inside a function is not supported");
        }
    }

    VarPtr bind(const std::string& name, const Type& type, const SourceLoc& loc) {
        if (name == "self" || name == "pl") raise("E-TYPE", loc, fmt::format("cannot assign to '{}'", name));
        auto it = m_vars.find(name);
        if (it != m_vars.end()) {
            if (!same_slot_type(it->second->type, type))
                raise("E-TYPE", loc,
                      fmt::format("'{}' is re-bound with a different type: {} (first bound at line {} as {})", name,
                                  type_str(type), it->second->loc.line, type_str(it->second->type)),
                      "use a new name for a value of a different type");
            return it->second;
        }
        VarPtr v = m_fn.new_var(name, type, loc);
        m_vars[name] = v;
        return v;
    }

    void lower_assign(const ast::Stmt& s) {
        if (s.targets.size() != 1) raise("E-UNSUPPORTED", s.loc, "chained assignment (a = b = c) is not supported");
        const ast::Expr& target = *s.targets[0];
        std::optional<Type> ann;
        if (s.annotation) ann = lower_type(m_ctx.consts, *s.annotation, &m_fn);
        if (target.kind == ast::ExprKind::Name) {
            ExprPtr value = lower_expr(*s.value, /*top=*/true, ann ? &*ann : nullptr);
            Type t = value->type;
            if (ann) t = merge_annotation(*ann, t, s.loc, *s.value);
            if (t.kind == TypeKind::Unknown)
                raise("E-TYPE", s.value->loc, "cannot infer the type of this value",
                      "annotate the target (x: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = ...) or pass shape= and dtype=");
            if (t.kind == TypeKind::None) raise("E-TYPE", s.value->loc, "this call returns nothing; it cannot be assigned");
            if (t.kind == TypeKind::Tuple) raise("E-TYPE", s.value->loc, fmt::format("this call returns {} values; unpack them (a, b = ...)", t.elems.size()));
            value->type = t;
            auto st = std::make_shared<Stmt>();
            st->kind = StmtKind::Assign;
            st->loc = s.loc;
            st->annotated = ann.has_value();
            st->value = value;
            st->targets.push_back(bind(target.name, t, target.loc));
            emit(st);
            return;
        }
        if (target.kind == ast::ExprKind::Tuple || target.kind == ast::ExprKind::List) {
            if (ann) raise("E-PARSE", s.annotation->loc, "a tuple target cannot be annotated");
            ExprPtr value = lower_expr(*s.value, true, nullptr);
            if (value->type.kind != TypeKind::Tuple)
                raise("E-TYPE", s.value->loc, fmt::format("cannot unpack {} into {} names", type_str(value->type), target.args.size()));
            if (value->type.elems.size() != target.args.size())
                raise("E-TYPE", s.loc, fmt::format("cannot unpack {} values into {} names", value->type.elems.size(), target.args.size()));
            auto st = std::make_shared<Stmt>();
            st->kind = StmtKind::Assign;
            st->loc = s.loc;
            st->value = value;
            for (size_t i = 0; i < target.args.size(); ++i) {
                const ast::Expr& n = *target.args[i];
                if (n.kind != ast::ExprKind::Name) raise("E-UNSUPPORTED", n.loc, "only plain names can be unpacked into");
                st->targets.push_back(bind(n.name, value->type.elems[i], n.loc));
            }
            emit(st);
            return;
        }
        raise("E-UNSUPPORTED", target.loc, "assignment to this kind of target is not supported (only names and tuples of names)");
    }

    Type merge_annotation(const Type& ann, const Type& inferred, const SourceLoc& loc, const ast::Expr& value) {
        if (inferred.kind == TypeKind::Unknown) return ann;
        if (ann.kind != inferred.kind || ann.dtype != inferred.dtype || (ann.kind != TypeKind::Scalar && ann.shape != inferred.shape)) {
            // Integer literals adapt to an annotated integer scalar type.
            if (ann.kind == TypeKind::Scalar && inferred.kind == TypeKind::Scalar && (value.kind == ast::ExprKind::Int || value.kind == ast::ExprKind::Float || value.kind == ast::ExprKind::UnaryOp || value.kind == ast::ExprKind::BinOp))
                return ann;
            if (ann.kind == TypeKind::Scalar && inferred.kind == TypeKind::Scalar && dtype_is_int(ann.dtype) && dtype_is_int(inferred.dtype))
                return ann;
            raise("E-TYPE", loc, fmt::format("annotation says {} but the value is {}", type_str(ann), type_str(inferred)));
        }
        if (ann.kind == TypeKind::Tile) {
            Type t = inferred;  // memory space and view from the annotation win
            t.mem = ann.mem;
            t.view = ann.view;
            if (!ann.valid.empty() || ann.view.written) t.valid = ann.valid;
            return t;
        }
        return ann;
    }

    void lower_expr_stmt(const ast::Stmt& s) {
        const ast::Expr& e = *s.value;
        if (e.kind == ast::ExprKind::Str) return;  // docstring
        if (e.kind != ast::ExprKind::Call)
            raise("E-UNSUPPORTED", e.loc, "an expression statement must be a call (this statement has no effect)");
        if (e.children[0]->dotted() == "pl.func_attr") raise("E-PARSE", e.loc, "pl.func_attr must be the first statement of a function");
        ExprPtr value = lower_expr(e, true, nullptr);
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::Eval;
        st->loc = s.loc;
        st->value = value;
        emit(st);
    }

    void lower_return(const ast::Stmt& s) {
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::Return;
        st->loc = s.loc;
        if (s.value) {
            if (s.value->kind == ast::ExprKind::Tuple && !s.value->parenthesized) {
                for (auto& v : s.value->args) st->values.push_back(lower_expr(*v, false, nullptr));
            } else {
                st->values.push_back(lower_expr(*s.value, false, nullptr));
            }
        }
        if (!m_fn.ret_types.empty()) {
            if (st->values.size() != m_fn.ret_types.size())
                raise("E-TYPE", s.loc, fmt::format("'{}' returns {} value(s) but the signature declares {}", m_fn.name, st->values.size(), m_fn.ret_types.size()));
            for (size_t i = 0; i < st->values.size(); ++i)
                if (!same_slot_type(st->values[i]->type, m_fn.ret_types[i]))
                    raise("E-TYPE", st->values[i]->loc, fmt::format("return value is {} but the signature declares {}", type_str(st->values[i]->type), type_str(m_fn.ret_types[i])));
        }
        emit(st);
    }

    void lower_yield(const ast::Stmt& s, std::vector<VarPtr>* targets, const std::vector<Type>* types) {
        const ast::Expr& call = *s.value;
        if (!call.keywords.empty()) raise("E-TYPE", call.keywords[0].loc, "pl.yield_ takes no keyword arguments");
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::Yield;
        st->loc = s.loc;
        for (auto& a : call.args) st->values.push_back(lower_expr(*a, false, nullptr));
        if (types && types->size() != st->values.size())
            raise("E-TYPE", s.loc, fmt::format("pl.yield_ gives {} value(s), the loop carries {}", st->values.size(), types->size()));
        if (types)
            for (size_t i = 0; i < st->values.size(); ++i)
                if (!same_slot_type(st->values[i]->type, (*types)[i]))
                    raise("E-TYPE", st->values[i]->loc, fmt::format("yielded value is {} but the loop carries {}", type_str(st->values[i]->type), type_str((*types)[i])));
        // Targets (names on the left) become the loop/branch results.
        std::vector<std::pair<std::string, SourceLoc>> names;
        if (s.kind == ast::StmtKind::Assign) {
            const ast::Expr& t = *s.targets[0];
            if (t.kind == ast::ExprKind::Name) names.push_back({t.name, t.loc});
            else if (t.kind == ast::ExprKind::Tuple || t.kind == ast::ExprKind::List)
                for (auto& n : t.args) {
                    if (n->kind != ast::ExprKind::Name) raise("E-PARSE", n->loc, "pl.yield_ results must be names");
                    names.push_back({n->name, n->loc});
                }
        }
        if (names.size() != st->values.size())
            raise("E-TYPE", s.loc, fmt::format("pl.yield_ gives {} value(s) but {} name(s) receive them", st->values.size(), names.size()));
        if (targets && !targets->empty()) {
            // The else-branch of an if must yield into the same names as the then-branch.
            for (size_t i = 0; i < names.size(); ++i)
                if ((*targets)[i]->name != names[i].first)
                    raise("E-TYPE", names[i].second, fmt::format("this branch yields into '{}' but the other branch into '{}'", names[i].first, (*targets)[i]->name));
            st->targets = *targets;
        } else {
            for (size_t i = 0; i < names.size(); ++i) st->targets.push_back(bind(names[i].first, st->values[i]->type, names[i].second));
            if (targets) *targets = st->targets;
        }
        emit(st);
    }

    struct RangeCall {
        LoopKind kind = LoopKind::Range;
        std::vector<ExprPtr> bounds;
        const ast::Expr* init = nullptr;
        SplitMode mode = SplitMode::NONE;
        std::vector<ExprPtr> extra;
    };

    RangeCall lower_range(const ast::Expr& it) {
        RangeCall r;
        if (it.kind != ast::ExprKind::Call)
            raise("E-UNSUPPORTED", it.loc, "a for loop must iterate over pl.range, pl.parallel, pl.unroll, pl.split_aiv or pl.spmd");
        std::string callee = it.children[0]->dotted();
        if (callee == "pl.range") r.kind = LoopKind::Range;
        else if (callee == "pl.parallel") r.kind = LoopKind::Parallel;
        else if (callee == "pl.unroll") r.kind = LoopKind::Unroll;
        else if (callee == "pl.split_aiv") r.kind = LoopKind::SplitAiv;
        else if (callee == "pl.spmd") r.kind = LoopKind::Spmd;
        else if (callee == "range") raise("E-UNSUPPORTED", it.loc, "Python range() is not supported; use pl.range");
        else raise("E-UNSUPPORTED", it.loc, fmt::format("a for loop over '{}' is not supported (pl.range, pl.parallel, pl.unroll, pl.split_aiv, pl.spmd)", callee.empty() ? "this expression" : callee));
        for (auto& a : it.args) {
            ExprPtr e = lower_expr(*a, false, nullptr);
            if (e->type.kind != TypeKind::Scalar || !dtype_is_int(e->type.dtype))
                raise("E-TYPE", a->loc, fmt::format("loop bounds must be integer scalars, got {}", type_str(e->type)));
            r.bounds.push_back(e);
        }
        if (r.bounds.empty() || r.bounds.size() > 3)
            raise("E-TYPE", it.loc, fmt::format("{} takes 1 to 3 bounds, got {}", callee, r.bounds.size()));
        if (r.kind == LoopKind::SplitAiv && (r.bounds.size() != 1 || const_int(r.bounds[0]) != 2))
            raise("E-TYPE", it.loc, "pl.split_aiv takes the lane count 2");
        if (r.bounds.size() == 3 && const_int(r.bounds[2]) == 0) raise("E-TYPE", it.args[2]->loc, "loop step must not be zero");
        for (auto& kw : it.keywords) {
            if (kw.name == "init_values" && r.kind == LoopKind::Range) {
                if (kw.value->kind != ast::ExprKind::Tuple && kw.value->kind != ast::ExprKind::List)
                    raise("E-TYPE", kw.value->loc, "init_values must be a tuple or list of values");
                r.init = kw.value.get();
            } else if (kw.name == "mode" && r.kind == LoopKind::SplitAiv) {
                ExprPtr m = lower_expr(*kw.value, false, nullptr);
                if (m->kind != ExprKind::Enum || m->enum_kind != EnumKind::SplitMode)
                    raise("E-TYPE", kw.value->loc, "mode must be a pl.SplitMode member");
                r.mode = static_cast<SplitMode>(m->ival);
            } else {
                raise("E-TYPE", kw.loc, fmt::format("{}() got an unexpected keyword argument '{}'", callee, kw.name));
            }
        }
        return r;
    }

    void lower_for(const ast::Stmt& s) {
        RangeCall r = lower_range(*s.value);
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::For;
        st->loc = s.loc;
        st->loop_kind = r.kind;
        st->split_mode = r.mode;
        if (r.bounds.size() == 1) st->stop = r.bounds[0];
        else {
            st->start = r.bounds[0];
            st->stop = r.bounds[1];
            if (r.bounds.size() == 3) st->step = r.bounds[2];
        }
        const ast::Expr& target = *s.targets[0];
        const ast::Expr* loop_name = &target;
        const ast::Expr* carried = nullptr;
        if (target.kind == ast::ExprKind::Tuple) {
            if (target.args.size() != 2 || target.args[0]->kind != ast::ExprKind::Name ||
                (target.args[1]->kind != ast::ExprKind::Tuple && target.args[1]->kind != ast::ExprKind::List))
                raise("E-PARSE", target.loc, "a loop with init_values is written `for i, (a, b) in pl.range(..., init_values=(x, y))`");
            loop_name = target.args[0].get();
            carried = target.args[1].get();
        } else if (target.kind != ast::ExprKind::Name) {
            raise("E-PARSE", target.loc, "the loop target must be a name");
        }
        if ((carried != nullptr) != (r.init != nullptr))
            raise("E-PARSE", target.loc, carried ? "the loop unpacks carried values but pl.range has no init_values"
                                                 : "pl.range has init_values; write the target as `i, (a, b)`");
        std::vector<Type> carried_types;
        if (r.init) {
            if (r.init->args.size() != carried->args.size())
                raise("E-TYPE", r.init->loc, fmt::format("init_values has {} value(s) but the target names {}", r.init->args.size(), carried->args.size()));
            for (auto& v : r.init->args) {
                st->init_values.push_back(lower_expr(*v, false, nullptr));
                carried_types.push_back(st->init_values.back()->type);
            }
        }
        st->loop_var = bind(loop_name->name, Type::scalar(DType::INDEX), loop_name->loc);
        if (carried)
            for (size_t i = 0; i < carried->args.size(); ++i) {
                const ast::Expr& n = *carried->args[i];
                if (n.kind != ast::ExprKind::Name) raise("E-PARSE", n.loc, "carried values must be names");
                st->iter_args.push_back(bind(n.name, carried_types[i], n.loc));
            }
        std::vector<VarPtr> results;
        st->body = lower_block(s.body, 0, r.init ? BlockKind::LoopWithInit : BlockKind::Loop, &results, r.init ? &carried_types : nullptr);
        st->targets = results;
        emit(st);
    }

    void lower_if(const ast::Stmt& s) {
        ExprPtr cond = lower_expr(*s.value, false, nullptr);
        if (cond->type.kind != TypeKind::Scalar)
            raise("E-TYPE", s.value->loc, fmt::format("an if condition must be a scalar, got {}", type_str(cond->type)));
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::If;
        st->loc = s.loc;
        st->value = cond;
        std::vector<VarPtr> results;
        bool yields_then = !s.body.empty() && is_yield(*s.body.back());
        bool yields_else = !s.orelse.empty() && is_yield(*s.orelse.back());
        if (yields_then != yields_else && (yields_then || yields_else))
            raise("E-TYPE", s.loc, "with pl.yield_, both branches of the if must yield the same names",
                  "add an else branch ending with pl.yield_(...)");
        BlockKind kind = yields_then ? BlockKind::Branch : BlockKind::Loop;
        st->body = lower_block(s.body, 0, kind, &results);
        if (!s.orelse.empty()) {
            std::vector<Type> types;
            for (auto& v : results) types.push_back(v->type);
            st->orelse = lower_block(s.orelse, 0, kind, &results, yields_then ? &types : nullptr);
        }
        st->targets = results;
        emit(st);
    }

    // ---- expressions ----

    ExprPtr hoist(ExprPtr call) {
        // Give a nested op call its own statement and refer to its result by name.
        std::string base = "_" + (call->op ? call->op->short_name : call->sval);
        VarPtr v = m_fn.new_var(m_fn.fresh_name(base), call->type, call->loc);
        m_vars[v->name] = v;
        auto st = std::make_shared<Stmt>();
        st->kind = StmtKind::Assign;
        st->loc = call->loc;
        st->value = call;
        st->targets.push_back(v);
        emit(st);
        auto ref = std::make_shared<Expr>();
        ref->kind = ExprKind::Var;
        ref->loc = call->loc;
        ref->var = v;
        ref->type = v->type;
        return ref;
    }

    ExprPtr lower_expr(const ast::Expr& e, bool top, const Type* ann) {
        if (auto c = fold_const(m_ctx.consts, e, &m_vars)) return const_to_expr(*c, e.loc);
        switch (e.kind) {
            case ast::ExprKind::Name: {
                auto it = m_vars.find(e.name);
                if (it != m_vars.end()) {
                    auto r = std::make_shared<Expr>();
                    r->kind = ExprKind::Var;
                    r->loc = e.loc;
                    r->var = it->second;
                    r->type = it->second->type;
                    return r;
                }
                if (m_ctx.consts.dynamic.count(e.name))
                    raise("E-UNSUPPORTED", e.loc, fmt::format("dynamic dimension '{}' used as a value is not supported", e.name));
                raise("E-NAME", e.loc, fmt::format("name '{}' is not defined", e.name), suggest_name(e.name), static_cast<uint32_t>(e.name.size()));
            }
            case ast::ExprKind::Attribute: {
                if (auto en = lower_enum(e)) return en;
                std::string d = e.dotted();
                if (d.rfind("pl.", 0) == 0) raise("E-UNSUPPORTED", e.loc, fmt::format("'{}' is not part of the supported DSL", d));
                raise("E-UNSUPPORTED", e.loc, "attribute access is only supported on pl (pl.Mem.Vec, pl.FP16, ...)");
            }
            case ast::ExprKind::Call: {
                ExprPtr c = lower_call(e, ann);
                bool is_op = c->kind == ExprKind::Call || c->kind == ExprKind::FuncCall;
                if (is_op && !top && c->type.kind != TypeKind::None) return hoist(c);
                if (is_op && !top) raise("E-TYPE", e.loc, "this call returns nothing; it cannot be used as a value");
                return c;
            }
            case ast::ExprKind::List:
            case ast::ExprKind::Tuple: {
                auto r = std::make_shared<Expr>();
                r->kind = e.kind == ast::ExprKind::List ? ExprKind::List : ExprKind::Tuple;
                r->loc = e.loc;
                std::vector<Type> ts;
                for (auto& a : e.args) {
                    r->args.push_back(lower_expr(*a, false, nullptr));
                    ts.push_back(r->args.back()->type);
                }
                r->type = Type::tuple(ts);
                return r;
            }
            case ast::ExprKind::BinOp:
            case ast::ExprKind::Compare:
            case ast::ExprKind::BoolOp: {
                ExprPtr l = lower_expr(*e.children[0], false, nullptr);
                ExprPtr rr = lower_expr(*e.children[1], false, nullptr);
                for (auto* x : {&l, &rr})
                    if ((*x)->type.kind != TypeKind::Scalar)
                        raise("E-TYPE", (*x)->loc,
                              fmt::format("operator '{}' needs scalar operands, got {}", e.op, type_str((*x)->type)),
                              (*x)->type.kind == TypeKind::Tile ? "use the tile ops (pl.add, pl.mul, ...) for tiles" : "");
                auto r = std::make_shared<Expr>();
                r->kind = e.kind == ast::ExprKind::BinOp ? ExprKind::Binary : e.kind == ast::ExprKind::Compare ? ExprKind::Compare : ExprKind::BoolOp;
                r->loc = e.loc;
                r->sval = e.op;
                r->args = {l, rr};
                if (r->kind == ExprKind::Binary) {
                    if (e.op == "**" || e.op == "&" || e.op == "|" || e.op == "^" || e.op == "@")
                        raise("E-UNSUPPORTED", e.loc, fmt::format("operator '{}' is only supported when it folds to a constant", e.op));
                    bool fl = dtype_is_float(l->type.dtype) || dtype_is_float(rr->type.dtype) || e.op == "/";
                    r->type = Type::scalar(fl ? DType::FP32 : (l->type.dtype == DType::INDEX || rr->type.dtype == DType::INDEX ? DType::INDEX : l->type.dtype));
                } else {
                    if (e.op == "is" || e.op == "is not" || e.op == "in" || e.op == "not in")
                        raise("E-UNSUPPORTED", e.loc, fmt::format("operator '{}' is not supported", e.op));
                    r->type = Type::scalar(DType::BOOL);
                }
                return r;
            }
            case ast::ExprKind::UnaryOp: {
                ExprPtr x = lower_expr(*e.children[0], false, nullptr);
                if (x->type.kind != TypeKind::Scalar) raise("E-TYPE", x->loc, fmt::format("operator '{}' needs a scalar operand", e.op));
                auto r = std::make_shared<Expr>();
                r->kind = ExprKind::Unary;
                r->loc = e.loc;
                r->sval = e.op;
                r->args = {x};
                r->type = e.op == "not" ? Type::scalar(DType::BOOL) : x->type;
                if (e.op == "~") raise("E-UNSUPPORTED", e.loc, "operator '~' is only supported when it folds to a constant");
                return r;
            }
            case ast::ExprKind::Subscript: return lower_subscript(e);
            case ast::ExprKind::Dict: raise("E-UNSUPPORTED", e.loc, "a dict literal is only allowed as attrs={...}");
            case ast::ExprKind::Slice: raise("E-PARSE", e.loc, "a slice is only allowed inside a subscript");
            case ast::ExprKind::Ellipsis: raise("E-UNSUPPORTED", e.loc, "'...' is not supported here");
            default: break;
        }
        raise("E-UNSUPPORTED", e.loc, "this expression is not supported here");
    }

    std::string suggest_name(const std::string& n) const {
        std::string best;
        size_t best_d = 3;
        auto consider = [&](const std::string& cand) {
            size_t d = edit_distance(n, cand);
            if (d < best_d) { best_d = d; best = cand; }
        };
        for (auto& [k, v] : m_vars) consider(k);
        for (auto& [k, v] : m_ctx.consts.values) consider(k);
        return best.empty() ? "" : fmt::format("did you mean '{}'?", best);
    }

    ExprPtr lower_enum(const ast::Expr& e) { return lower_enum_ref(e); }

    ExprPtr lower_subscript(const ast::Expr& e) {
        ExprPtr base = lower_expr(*e.children[0], false, nullptr);
        if (base->type.kind == TypeKind::Tuple && e.args.size() == 1) {
            auto idx = fold_const(m_ctx.consts, *e.args[0], &m_vars);
            if (!idx || !std::holds_alternative<int64_t>(idx->v)) raise("E-TYPE", e.args[0]->loc, "a tuple index must be a constant integer");
            int64_t i = std::get<int64_t>(idx->v);
            if (i < 0) i += static_cast<int64_t>(base->type.elems.size());
            if (i < 0 || i >= static_cast<int64_t>(base->type.elems.size()))
                raise("E-TYPE", e.args[0]->loc, fmt::format("tuple index {} out of range (size {})", i, base->type.elems.size()));
            auto r = std::make_shared<Expr>();
            r->kind = ExprKind::Index;
            r->loc = e.loc;
            r->ival = i;
            r->args = {base};
            r->type = base->type.elems[i];
            return r;
        }
        if (base->type.kind == TypeKind::Tile || base->type.kind == TypeKind::Tensor) {
            // x[a:b, c:d] -> pl.tile.slice(x, shape, offset)
            const auto& shape = base->type.shape;
            if (e.args.size() != shape.size())
                raise("E-TYPE", e.loc, fmt::format("subscript has {} indices, the value has rank {}", e.args.size(), shape.size()));
            auto off = std::make_shared<Expr>();
            off->kind = ExprKind::List;
            off->loc = e.loc;
            std::vector<int64_t> ext;
            for (size_t d = 0; d < shape.size(); ++d) {
                const ast::Expr& ix = *e.args[d];
                int64_t lo = 0, hi = shape[d];
                if (ix.kind == ast::ExprKind::Slice) {
                    auto get = [&](const ast::ExprPtr& p, int64_t dflt) {
                        if (!p) return dflt;
                        auto c = fold_const(m_ctx.consts, *p, &m_vars);
                        if (!c || !std::holds_alternative<int64_t>(c->v)) raise("E-UNSUPPORTED", p->loc, "slice bounds must be constant integers");
                        return std::get<int64_t>(c->v);
                    };
                    lo = get(ix.children[0], 0);
                    hi = get(ix.children[1], shape[d]);
                } else {
                    auto c = fold_const(m_ctx.consts, ix, &m_vars);
                    if (!c || !std::holds_alternative<int64_t>(c->v)) raise("E-UNSUPPORTED", ix.loc, "indices must be constant integers or slices");
                    lo = std::get<int64_t>(c->v);
                    hi = lo + 1;
                }
                if (lo < 0 || hi > shape[d] || lo >= hi)
                    raise("E-OOB", ix.loc, fmt::format("slice {}:{} is outside dimension {} of size {}", lo, hi, d, shape[d]));
                off->args.push_back(make_int(lo, ix.loc));
                ext.push_back(hi - lo);
            }
            auto shp = std::make_shared<Expr>();
            shp->kind = ExprKind::List;
            shp->loc = e.loc;
            for (auto x : ext) shp->args.push_back(make_int(x, e.loc));
            auto call = std::make_shared<Expr>();
            call->kind = ExprKind::Call;
            call->loc = e.loc;
            call->op = &op_def(OpCode::Slice);
            call->args = {base, shp, off, nullptr};
            call->type = infer_call_type(*call);
            return hoist(call);
        }
        raise("E-TYPE", e.loc, fmt::format("{} cannot be subscripted", type_str(base->type)));
    }

    ExprPtr lower_call(const ast::Expr& e, const Type* ann) {
        const ast::Expr& callee = *e.children[0];
        std::string name = callee.dotted();
        if (callee.kind == ast::ExprKind::Attribute && callee.children[0]->kind == ast::ExprKind::Name && callee.children[0]->name == "self")
            return lower_func_call(e, callee.name);
        if (name == "pl.const") return lower_typed_const(e);
        if (name == "pl.yield_") raise("E-PARSE", e.loc, "pl.yield_ must be a statement of its own at the end of a loop or branch body");
        if (name == "pl.range" || name == "pl.parallel" || name == "pl.unroll" || name == "pl.split_aiv" || name == "pl.spmd")
            raise("E-PARSE", e.loc, fmt::format("{} is only allowed as the iterable of a for loop", name));
        if (name == "pl.func_attr") raise("E-PARSE", e.loc, "pl.func_attr must be the first statement of a function");
        if (name.rfind("pl.", 0) != 0) {
            if (name.empty()) raise("E-UNSUPPORTED", e.loc, "calling this expression is not supported");
            raise("E-UNSUPPORTED", e.loc, fmt::format("call of '{}' is not supported (only pl ops and self.<function>)", name), "", static_cast<uint32_t>(name.size()));
        }
        auto cands = lookup_ops(name.substr(3));
        if (cands.empty()) {
            // Tolerate pl.tile.X / pl.system.X for ops of another namespace? No: report precisely.
            raise("E-UNSUPPORTED", callee.loc, fmt::format("unknown op '{}'", name), "see OPS.md for the supported ops",
                  static_cast<uint32_t>(name.size()));
        }
        // Lower positional args first (needed for unified dispatch).
        std::vector<ExprPtr> pos;
        for (auto& a : e.args) pos.push_back(lower_expr(*a, false, nullptr));
        const OpDef* op = cands[0];
        if (cands.size() > 1) {
            // Unified ops: the tile-tile form when the second operand is a tile, else the tile-scalar form.
            bool rhs_tile = pos.size() > 1 && pos[1]->type.kind == TypeKind::Tile;
            for (auto* c : cands) {
                bool c_scalar = c->code >= OpCode::Adds && c->code <= OpCode::Divs;
                if (c_scalar != rhs_tile) { op = c; break; }
            }
        }
        auto call = std::make_shared<Expr>();
        call->kind = ExprKind::Call;
        call->loc = e.loc;
        call->op = op;
        call->args.assign(op->params.size(), nullptr);
        if (pos.size() > op->params.size())
            raise("E-TYPE", e.args[op->params.size()]->loc,
                  fmt::format("pl.{}() takes {} argument(s), got {}", op->name(), op->params.size(), pos.size()));
        for (size_t i = 0; i < pos.size(); ++i) call->args[i] = pos[i];
        for (auto& kw : e.keywords) {
            if (kw.name == "attrs" && kw.value->kind == ast::ExprKind::Dict) {
                call->attrs = lower_dict(*kw.value);
                continue;
            }
            size_t idx = op->params.size();
            for (size_t i = 0; i < op->params.size(); ++i)
                if (op->params[i].name == kw.name) idx = i;
            if (idx == op->params.size()) {
                std::string valid;
                for (auto& p : op->params) valid += (valid.empty() ? "" : ", ") + p.name;
                raise("E-TYPE", kw.loc, fmt::format("pl.{}() got an unexpected keyword argument '{}'", op->name(), kw.name),
                      valid.empty() ? "it takes no arguments" : "its parameters are: " + valid, static_cast<uint32_t>(kw.name.size()));
            }
            if (call->args[idx]) raise("E-TYPE", kw.loc, fmt::format("pl.{}() got multiple values for argument '{}'", op->name(), kw.name));
            call->args[idx] = lower_expr(*kw.value, false, nullptr);
        }
        // Scalar operands written as literals adapt to the tile's dtype in printing; keep as is.
        call->type = infer_call_type(*call);
        (void)ann;
        return call;
    }

    ExprPtr lower_dict(const ast::Expr& d) {
        auto r = std::make_shared<Expr>();
        r->kind = ExprKind::Dict;
        r->loc = d.loc;
        for (size_t i = 0; i < d.args.size(); ++i) {
            r->args.push_back(lower_attr_value(m_ctx.consts, *d.args[i]));
            r->args2.push_back(lower_attr_value(m_ctx.consts, *d.values[i]));
        }
        return r;
    }

    ExprPtr lower_typed_const(const ast::Expr& e) {
        if (e.args.size() != 2 || !e.keywords.empty()) raise("E-TYPE", e.loc, "pl.const takes (value, dtype)");
        auto v = fold_const(m_ctx.consts, *e.args[0], &m_vars);
        if (!v || std::holds_alternative<std::string>(v->v)) raise("E-TYPE", e.args[0]->loc, "pl.const needs a constant number");
        ExprPtr d = lower_enum_ref(*e.args[1]);
        if (!d || d->kind != ExprKind::DTypeLit) raise("E-TYPE", e.args[1]->loc, "pl.const needs a dtype (pl.INT32, pl.FP32, ...)");
        auto r = std::make_shared<Expr>();
        r->kind = ExprKind::Const;
        r->loc = e.loc;
        r->dtype = d->dtype;
        r->fval = round_to(d->dtype, const_as_double(*v));
        r->type = Type::scalar(d->dtype);
        return r;
    }

    ExprPtr lower_func_call(const ast::Expr& e, const std::string& fname) {
        auto it = m_ctx.by_name.find(fname);
        if (it == m_ctx.by_name.end())
            raise("E-NAME", e.children[0]->loc, fmt::format("the program has no function '{}'", fname));
        const Function& callee = *it->second;
        auto r = std::make_shared<Expr>();
        r->kind = ExprKind::FuncCall;
        r->loc = e.loc;
        r->sval = fname;
        r->args.assign(callee.params.size(), nullptr);
        if (e.args.size() > callee.params.size())
            raise("E-TYPE", e.loc, fmt::format("'{}' takes {} argument(s), got {}", fname, callee.params.size(), e.args.size()));
        for (size_t i = 0; i < e.args.size(); ++i) r->args[i] = lower_expr(*e.args[i], false, nullptr);
        for (auto& kw : e.keywords) {
            size_t idx = callee.params.size();
            for (size_t i = 0; i < callee.params.size(); ++i)
                if (callee.params[i].var->name == kw.name) idx = i;
            if (idx == callee.params.size()) raise("E-TYPE", kw.loc, fmt::format("'{}' has no parameter '{}'", fname, kw.name));
            if (r->args[idx]) raise("E-TYPE", kw.loc, fmt::format("'{}' got multiple values for '{}'", fname, kw.name));
            r->args[idx] = lower_expr(*kw.value, false, nullptr);
        }
        for (size_t i = 0; i < callee.params.size(); ++i) {
            if (!r->args[i]) raise("E-TYPE", e.loc, fmt::format("'{}' is missing argument '{}'", fname, callee.params[i].var->name));
            const Type& want = callee.params[i].var->type;
            if (!same_slot_type(r->args[i]->type, want) &&
                !(want.kind == TypeKind::Scalar && r->args[i]->type.kind == TypeKind::Scalar))
                raise("E-TYPE", r->args[i]->loc, fmt::format("argument '{}' of '{}' is {} but {} was passed", callee.params[i].var->name, fname, type_str(want), type_str(r->args[i]->type)));
        }
        if (callee.ret_types.empty()) r->type = Type::none();
        else if (callee.ret_types.size() == 1 && !callee.ret_is_tuple) r->type = callee.ret_types[0];
        else r->type = Type::tuple(callee.ret_types);
        return r;
    }
};

void collect_function(ProgramCtx& ctx, const ast::Stmt& s) {
    if (s.kind != ast::StmtKind::FunctionDef) {
        if (s.kind == ast::StmtKind::Expr && s.value && s.value->kind == ast::ExprKind::Str) return;  // docstring
        if (s.kind == ast::StmtKind::Pass) return;
        raise("E-UNSUPPORTED", s.loc, "only @pl.function methods are supported in a @pl.program class");
    }
    auto fn = std::make_shared<Function>();
    fn->name = s.name;
    fn->loc = s.loc;
    bool decorated = false;
    for (auto& d : s.decorators) {
        std::string dn = d->kind == ast::ExprKind::Call ? d->children[0]->dotted() : d->dotted();
        if (dn != "pl.function") raise("E-UNSUPPORTED", d->loc, fmt::format("decorator '{}' is not supported (use @pl.function)", dn.empty() ? "?" : dn));
        decorated = true;
        if (d->kind != ast::ExprKind::Call) continue;
        if (!d->args.empty()) raise("E-TYPE", d->args[0]->loc, "@pl.function takes keyword arguments only");
        for (auto& kw : d->keywords) {
            if (kw.name == "type") {
                ExprPtr t = lower_enum_ref(*kw.value);
                if (!t || t->kind != ExprKind::Enum || t->enum_kind != EnumKind::FuncType)
                    raise("E-TYPE", kw.value->loc, "type= must be a pl.FunctionType member");
                fn->type = static_cast<FuncType>(t->ival);
            } else if (kw.name == "attrs") {
                if (kw.value->kind != ast::ExprKind::Dict) raise("E-TYPE", kw.value->loc, "attrs= must be a dict");
                fn->attrs = lower_attrs(ctx.consts, *kw.value);
            } else if (kw.name == "level" || kw.name == "role" || kw.name == "strict_ssa" || kw.name == "name") {
                fn->deco_extra_keys.push_back(kw.name);
                fn->deco_extra.push_back(lower_attr_value(ctx.consts, *kw.value));
            } else {
                raise("E-TYPE", kw.loc, fmt::format("@pl.function() got an unexpected keyword argument '{}'", kw.name),
                      "its keywords are: type, level, role, attrs");
            }
        }
    }
    if (!decorated) raise("E-UNSUPPORTED", s.loc, fmt::format("method '{}' needs the @pl.function decorator", s.name));
    if (s.params.empty() || s.params[0].name != "self")
        raise("E-PARSE", s.loc, fmt::format("the first parameter of '{}' must be self", s.name));
    for (size_t i = 1; i < s.params.size(); ++i) {
        const ast::Param& p = s.params[i];
        if (!p.annotation) raise("E-TYPE", p.loc, fmt::format("parameter '{}' needs a type annotation", p.name));
        if (p.default_value) raise("E-UNSUPPORTED", p.default_value->loc, "parameter default values are not supported");
        if (fn->find_var(p.name)) raise("E-NAME", p.loc, fmt::format("duplicate parameter '{}'", p.name));
        ParamDir dir = ParamDir::In;
        Type t = lower_param_type(ctx.consts, *p.annotation, dir);
        Param param;
        param.var = fn->new_var(p.name, t, p.loc);
        param.dir = dir;
        fn->params.push_back(param);
    }
    if (s.annotation) {
        if (s.annotation->kind == ast::ExprKind::Subscript && s.annotation->children[0]->kind == ast::ExprKind::Name &&
            s.annotation->children[0]->name == "tuple") {
            fn->ret_is_tuple = true;
            for (auto& a : s.annotation->args) fn->ret_types.push_back(lower_type(ctx.consts, *a, nullptr));
        } else if (s.annotation->kind != ast::ExprKind::None) {
            fn->ret_types.push_back(lower_type(ctx.consts, *s.annotation, nullptr));
        }
    }
    if (ctx.by_name.count(fn->name)) raise("E-NAME", s.loc, fmt::format("function '{}' is defined twice", fn->name));
    ctx.by_name[fn->name] = fn;
    ctx.program->functions.push_back(fn);
}

}  // namespace

std::shared_ptr<Program> analyze(const ast::Module& module) {
    ProgramCtx ctx;
    ctx.program = std::make_shared<Program>();
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
                raise("E-UNSUPPORTED", s.loc, fmt::format("import of '{}' is not supported", s.name), "kernels import pypto.language as pl");
            case ast::StmtKind::Assign: define_constant(ctx.consts, s); break;
            case ast::StmtKind::ClassDef: {
                bool is_prog = false;
                for (auto& d : s.decorators) is_prog |= d->dotted() == "pl.program";
                if (!is_prog) raise("E-UNSUPPORTED", s.loc, fmt::format("class '{}' needs the @pl.program decorator", s.name));
                if (program_class) raise("E-UNSUPPORTED", s.loc, "only one @pl.program class per file is supported");
                program_class = &s;
                break;
            }
            case ast::StmtKind::Expr:
                if (s.value->kind == ast::ExprKind::Str) break;  // module docstring
                raise("E-UNSUPPORTED", s.loc, "only constants and one @pl.program class are allowed at module level");
            case ast::StmtKind::Pass: break;
            case ast::StmtKind::FunctionDef:
                raise("E-UNSUPPORTED", s.loc, "functions must be methods of the @pl.program class");
            default:
                raise("E-UNSUPPORTED", s.loc, "only constants and one @pl.program class are allowed at module level");
        }
    }
    if (!program_class) {
        SourceLoc loc{module.source.get(), 1, 1};
        raise("E-PARSE", loc, "no @pl.program class in this file");
    }
    (void)imported;
    ctx.program->name = program_class->name;
    for (const auto& s : program_class->body) collect_function(ctx, *s);
    if (ctx.program->functions.empty()) raise("E-PARSE", program_class->loc, fmt::format("program '{}' has no functions", program_class->name));
    // Bodies: each function is lowered against the complete set of signatures.
    size_t fi = 0;
    for (const auto& s : program_class->body) {
        if (s->kind != ast::StmtKind::FunctionDef) continue;
        auto& fn = ctx.program->functions[fi++];
        FunctionLowering lower(ctx, *fn);
        lower.lower_body(s->body);
    }
    return ctx.program;
}

std::shared_ptr<Program> load_program(std::shared_ptr<SourceFile> file) {
    ast::Module m = parse_module(file);
    return analyze(m);
}

std::shared_ptr<Program> load_program_text(const std::string& path, const std::string& text) {
    return load_program(std::make_shared<SourceFile>(path, text));
}

}  // namespace cvsim
