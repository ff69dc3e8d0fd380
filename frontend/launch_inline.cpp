// Calls between kernel functions (`self.helper(...)` inside an InCore/AIC/AIV function) are inlined before
// a launch is planned, as PyPTO's InlineFunctions pass does before ExpandMixedKernel: the lanes and the
// reference then run the callee's statements in place (docs/DECISIONS.md, Frontend).
#include "frontend/launch.h"

#include <fmt/format.h>

#include <functional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/passes/ir_util.h"

namespace cvsim {

using namespace ir;

namespace {

bool is_kernel(FuncType t) {
    return t == FuncType::InCore || t == FuncType::AIC || t == FuncType::AIV;
}

const Function* kernel_callee(const Program& p, const Stmt& s) {
    if ((s.kind != StmtKind::Assign && s.kind != StmtKind::Eval) || !s.value || s.value->kind != ExprKind::FuncCall ||
        is_host_op_call(*s.value) || s.value->ival == kFuncRef)
        return nullptr;
    auto g = p.find(s.value->sval);
    // An untyped (Opaque) helper is inlined too: a kernel's helper is one even without type= (found by review:
    // the lane ran such a call as a no-op).
    return g && (is_kernel(g->type) || g->type == FuncType::Opaque) && !g->is_unread()
               ? g.get()
               : nullptr;  // an unread one: refuse_unread
}

// An Orchestration function called as a statement of another (`o = self.helper(x, out)`).
const Function* orchestration_callee(const Program& p, const Stmt& s) {
    if ((s.kind != StmtKind::Assign && s.kind != StmtKind::Eval) || !s.value || s.value->kind != ExprKind::FuncCall ||
        is_host_op_call(*s.value) || s.value->ival == kFuncRef)
        return nullptr;
    auto g = p.find(s.value->sval);
    return g && g->type == FuncType::Orchestration && !g->is_unread() ? g.get() : nullptr;
}

class Inliner {
  public:
    using Callee = const Function* (*)(const Program&, const Stmt&);
    explicit Inliner(const Program& p, Callee callee = kernel_callee, std::function<bool(uint32_t)> relocate = nullptr,
                     std::map<const Stmt*, int>* origin = nullptr)
        : m_p(p), m_callee(callee), m_relocate(std::move(relocate)), m_origin(origin) {}

    Block block(Function& f, const Block& b, int depth) {
        Block out;
        for (const auto& s : b) {
            if (const Function* g = m_callee(m_p, *s)) {
                expand(f, *s, *g, out, depth);
                continue;
            }
            s->body = block(f, s->body, depth);
            s->orelse = block(f, s->orelse, depth);
            out.push_back(s);
        }
        return out;
    }

  private:
    const Program& m_p;
    Callee m_callee;
    // Given the line of a call, whether the inlined statements take the call's location (an orchestration
    // called inside a manual scope: its launches run in that scope).
    std::function<bool(uint32_t)> m_relocate;
    // Each inlined call's statements (not those of calls inside it, which have their own) -> a number of its own.
    std::map<const Stmt*, int>* m_origin;
    int m_calls = 0;

    void expand(Function& f, const Stmt& call_stmt, const Function& g, Block& out, int depth) {
        const Expr& call = *call_stmt.value;
        if (depth >= 8 || g.name == f.name)
            raise(codes::kUnsupported, call.loc,
                  fmt::format("'{}' calls '{}' recursively or more than 8 deep; cvsim inlines kernel calls", f.name,
                              g.name));
        VarMap map;
        map.by_id.assign(g.vars.size(), nullptr);
        for (size_t i = 0; i < g.params.size(); ++i) {
            const VarPtr& pv = g.params[i].var;
            const ExprPtr& a = i < call.args.size() ? call.args[i] : nullptr;
            if (a && a->kind == ExprKind::Var) {
                map.by_id[pv->id] = a->var;  // the caller's value itself (an Out tensor is written in place)
                continue;
            }
            VarPtr nv = f.new_var(f.fresh_name(g.name + "_" + pv->name), pv->type, pv->loc);
            map.by_id[pv->id] = nv;
            auto st = std::make_shared<Stmt>();
            st->kind = StmtKind::Assign;
            st->loc = call.loc;
            st->targets = {nv};
            st->value = clone_expr(a);
            out.push_back(st);
        }
        for (const auto& v : g.vars)
            if (!map.by_id[v->id]) map.by_id[v->id] = f.new_var(f.fresh_name(v->name), v->type, v->loc);
        Block body = clone_block(g.body, &map);
        std::vector<ExprPtr> rets;
        if (!body.empty() && body.back()->kind == StmtKind::Return) {
            rets = body.back()->values;
            body.pop_back();
        }
        passes::walk(body, [&](const StmtPtr& s) {
            if (s->kind == StmtKind::Return)
                raise(codes::kUnsupported, s->loc,
                      fmt::format(
                          "'{}' returns before its end; cvsim inlines it into '{}' and needs one return at the end",
                          g.name, f.name));
        });
        body = block(f, body, depth + 1);
        if (m_origin) {
            const int id = ++m_calls;
            passes::walk(body, [&](const StmtPtr& s) { m_origin->try_emplace(s.get(), id); });
        }
        if (m_relocate && m_relocate(call_stmt.loc.line))
            passes::walk(body, [&](const StmtPtr& s) { s->loc = call_stmt.loc; });
        for (auto& s : body) out.push_back(s);
        if (call_stmt.kind != StmtKind::Assign) return;
        if (m_callee == orchestration_callee && call_stmt.targets.size() == 1 && rets.size() > 1) {
            // An orchestration's results bound to one name (`tt = self.helper(...)`, then `tt[0]`): the tuple.
            auto tup = std::make_shared<Expr>();
            tup->kind = ExprKind::Tuple;
            tup->loc = call_stmt.loc;
            tup->args = rets;
            tup->type = call_stmt.targets[0]->type;
            auto st = std::make_shared<Stmt>();
            st->kind = StmtKind::Assign;
            st->loc = call_stmt.loc;
            st->targets = {call_stmt.targets[0]};
            st->value = tup;
            out.push_back(st);
            return;
        }
        if (call_stmt.targets.size() != rets.size())
            raise(codes::kUnsupported, call_stmt.loc,
                  fmt::format("the {} result(s) of '{}' bound to {} name(s); unpack them (a, b = self.{}(...)) to "
                              "inline the call",
                              rets.size(), g.name, call_stmt.targets.size(), g.name));
        for (size_t i = 0; i < rets.size(); ++i) {
            auto st = std::make_shared<Stmt>();
            st->kind = StmtKind::Assign;
            st->loc = call_stmt.loc;
            st->targets = {call_stmt.targets[i]};
            st->value = rets[i];
            out.push_back(st);
        }
    }
};

}  // namespace

std::shared_ptr<Program> inline_kernel_calls(const std::shared_ptr<Program>& program) {
    bool any = false;
    for (const auto& f : program->functions)
        if (is_kernel(f->type))
            passes::walk(f->body, [&](const StmtPtr& s) { any |= kernel_callee(*program, *s) != nullptr; });
    if (!any) return program;
    auto p = clone_program(*program);
    Inliner in(*p);
    for (const auto& f : p->functions)
        if (is_kernel(f->type)) f->body = in.block(*f, f->body, 0);
    return p;
}

std::shared_ptr<Program> inline_orchestration_calls(const Program& program, const std::string& orch,
                                                    const std::function<bool(uint32_t)>& relocate,
                                                    std::map<const Stmt*, int>* origin) {
    auto f = program.find(orch);
    if (!f) return nullptr;
    bool any = false;
    passes::walk(f->body, [&](const StmtPtr& s) { any |= orchestration_callee(program, *s) != nullptr; });
    if (!any) return nullptr;
    auto p = clone_program(program);
    Inliner in(*p, orchestration_callee, relocate, origin);
    auto g = p->find(orch);
    g->body = in.block(*g, g->body, 0);
    return p;
}

void refuse_kernel_calls(const Program& program) {
    for (const auto& f : program.functions) {
        if (!is_kernel(f->type)) continue;
        passes::walk(f->body, [&](const StmtPtr& s) {
            std::function<void(const ExprPtr&)> visit = [&](const ExprPtr& e) {
                if (!e) return;
                auto callee = e->kind == ExprKind::FuncCall ? program.find(e->sval) : nullptr;
                if (e->kind == ExprKind::FuncCall && !is_host_op_call(*e) && e->ival != kFuncRef &&
                    !(callee && callee->is_unread()))  // unread: refuse_unread
                    raise(codes::kUnsupported, e->loc,
                          fmt::format("the call of '{}' inside the kernel function '{}' is not modelled: only calls of "
                                      "InCore/AIC/AIV or "
                                      "untyped helper functions as a statement of their own are inlined",
                                      e->sval, f->name),
                          "call the helper as its own statement (x = self.helper(...)) or inline it by hand");
                for (const auto& a : e->args) visit(a);
            };
            for (const ExprPtr* e : {&s->value, &s->start, &s->stop, &s->step}) visit(*e);
            for (const auto& v : s->values) visit(v);
            for (const auto& v : s->init_values) visit(v);
        });
    }
}

}  // namespace cvsim
