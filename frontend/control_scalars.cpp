// Control scalars of an entry: see control_scalars.h.
#include "frontend/control_scalars.h"

#include <map>
#include <set>

#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim {

using namespace ir;

namespace {

// Every parameter each variable of F depends on (transitively, through scalars, tiles and GM tensors alike),
// and which parameters reach a control use. A parameter's taint flows through data too (a scalar written to
// GM with pl.tensor.write, or into a tile with pl.tile.full, and read back into a loop bound: found by
// review), but only a scalar operand that decides what runs or where is a control use, never a tile or
// tensor operand (its data), so a scale factor multiplied into tiles is not sampled.
class Taint {
  public:
    Taint(const Program* p, const Function& f, std::set<const Function*>& active) : m_p(p), m_f(f), m_active(active) {}

    std::vector<std::string> run() {
        for (const auto& p : m_f.params)
            if (p.var->type.kind == TypeKind::Scalar || p.var->type.kind == TypeKind::Tensor)
                m_dep[p.var.get()].insert(p.var.get());
        if (m_f.type == FuncType::Orchestration) {
            for (const auto& p : m_f.params)
                if (p.var->type.kind == TypeKind::Scalar) m_control.insert(p.var.get());
        } else {
            // Dataflow to a fixpoint (loop carries flow backwards), then the control uses.
            for (bool changed = true; changed;) {
                changed = false;
                passes::walk(m_f.body, [&](const StmtPtr& s) { changed |= flow(*s); });
            }
            passes::walk(m_f.body, [&](const StmtPtr& s) { uses(*s); });
        }
        std::vector<std::string> out;
        for (const auto& p : m_f.params)
            if (m_control.count(p.var.get())) out.push_back(p.var->name);
        return out;
    }

  private:
    const Program* m_p;  // for the callees of self.f(...) calls (nullptr: every argument counts)
    const Function& m_f;
    std::set<const Function*>& m_active;  // functions being analysed (a recursive call: every argument counts)
    std::map<const Var*, std::set<const Var*>> m_dep;  // variable -> the parameters it depends on
    std::set<const Var*> m_control;                    // parameters that reach a control use

    // The parameters an expression's value depends on (every variable it reads).
    std::set<const Var*> deps(const ExprPtr& e) const {
        std::set<const Var*> out;
        for_each_var(e, [&](const VarPtr& v) {
            if (auto it = m_dep.find(v.get()); it != m_dep.end()) out.insert(it->second.begin(), it->second.end());
        });
        return out;
    }

    bool add(const Var* v, const std::set<const Var*>& d) {
        if (!v || d.empty()) return false;
        auto& cur = m_dep[v];
        const size_t before = cur.size();
        cur.insert(d.begin(), d.end());
        return cur.size() != before;
    }
    bool add(const VarPtr& v, const std::set<const Var*>& d) { return add(v.get(), d); }

    // An op that writes one of its operands in place (a GM tensor or a tile): that operand takes the deps.
    static const Expr* written_operand(const Expr& call) {
        if (!call.op) return nullptr;
        const char* name = nullptr;
        switch (call.op->code) {
            case OpCode::TensorWrite:
                name = "tensor";
                break;
            case OpCode::Write:
                name = "tile";
                break;
            case OpCode::Store:
            case OpCode::Mscatter:
                name = "output_tensor";
                break;
            default:
                return nullptr;
        }
        const ExprPtr& a = arg(call, name);
        return a && a->kind == ExprKind::Var ? a.get() : nullptr;
    }

    bool flow(const Stmt& s) {
        bool changed = false;
        switch (s.kind) {
            case StmtKind::Assign:
            case StmtKind::Eval: {
                const std::set<const Var*> d = deps(s.value);
                for (const auto& t : s.targets) changed |= add(t, d);
                if (s.value && s.value->kind == ExprKind::Call)
                    if (const Expr* w = written_operand(*s.value)) changed |= add(w->var, d);
                break;
            }
            case StmtKind::Yield: {
                for (size_t i = 0; i < s.values.size() && i < s.targets.size(); ++i)
                    changed |= add(s.targets[i], deps(s.values[i]));
                break;
            }
            case StmtKind::For: {
                std::set<const Var*> bounds = deps(s.start);
                for (const ExprPtr* e : {&s.stop, &s.step}) {
                    auto d = deps(*e);
                    bounds.insert(d.begin(), d.end());
                }
                changed |= add(s.loop_var, bounds);
                for (size_t i = 0; i < s.iter_args.size() && i < s.init_values.size(); ++i)
                    changed |= add(s.iter_args[i], deps(s.init_values[i]));
                // A carried value also takes what the body yields back, and the loop's result its carry.
                if (!s.body.empty() && s.body.back()->kind == StmtKind::Yield) {
                    const Stmt& y = *s.body.back();
                    for (size_t i = 0; i < y.values.size() && i < s.iter_args.size(); ++i)
                        changed |= add(s.iter_args[i], deps(y.values[i]));
                }
                for (size_t i = 0; i < s.targets.size() && i < s.iter_args.size(); ++i)
                    if (auto it = m_dep.find(s.iter_args[i].get()); it != m_dep.end())
                        changed |= add(s.targets[i], std::set<const Var*>(it->second));
                break;
            }
            case StmtKind::If: {
                // A branch result depends on the condition too (which arm yields it).
                const std::set<const Var*> cond = deps(s.value);
                for (const auto& t : s.targets) changed |= add(t, cond);
                break;
            }
            default:
                break;
        }
        return changed;
    }

    void control(const std::set<const Var*>& d) { m_control.insert(d.begin(), d.end()); }

    // A tile or tensor operand is data; anything else an op takes (an offset, a shape, an index, a valid
    // region, an event id) decides what runs or where.
    static bool data_operand(const ExprPtr& e) {
        if (!e) return true;
        const Type& t = e->kind == ExprKind::Var && e->var ? e->var->type : e->type;
        return t.kind == TypeKind::Tile || t.kind == TypeKind::Tensor;
    }

    // Control uses in an expression: op arguments other than numeric operands and tile/tensor operands, and
    // calls of other functions.
    void expr_uses(const ExprPtr& e) {
        if (!e) return;
        if (e->kind == ExprKind::Call && e->op) {
            // A run-time valid region (set_validshape's rows/cols, a tpop's annotated region: Expr::args2) bounds
            // the GM windows of the stores that follow: a control use although its operands are values.
            const bool region = e->op->code == OpCode::SetValidShape;
            for (size_t i = 0; i < e->args.size(); ++i) {
                const bool numeric = i < e->op->params.size() && e->op->params[i].value && !region;
                if (!numeric && !data_operand(e->args[i])) control(deps(e->args[i]));
                expr_uses(e->args[i]);
            }
            for (const auto& a : e->args2) control(deps(a));
            return;
        }
        if (e->kind == ExprKind::FuncCall) {
            // A kernel or helper called with the value: what the callee does with its parameter decides.
            std::shared_ptr<Function> callee = m_p ? m_p->find(e->sval) : nullptr;
            if (callee && !m_active.count(callee.get()) && e->args.size() <= callee->params.size()) {
                m_active.insert(callee.get());
                const std::vector<std::string> ctl = Taint(m_p, *callee, m_active).run();
                m_active.erase(callee.get());
                for (size_t i = 0; i < e->args.size(); ++i)
                    for (const auto& n : ctl)
                        if (callee->params[i].var->name == n) control(deps(e->args[i]));
            } else {
                for (const auto& a : e->args) control(deps(a));
            }
            control(deps(e->attrs));
        }
        for (const auto& a : e->args) expr_uses(a);
    }

    void uses(const Stmt& s) {
        switch (s.kind) {
            case StmtKind::For:
                for (const ExprPtr* e : {&s.start, &s.stop, &s.step}) control(deps(*e));
                break;
            case StmtKind::If:
                control(deps(s.value));
                break;
            case StmtKind::Assign:
            case StmtKind::Eval:
                expr_uses(s.value);
                break;
            default:
                break;
        }
    }
};

}  // namespace

std::vector<std::string> control_scalar_params(const Program& p, const Function& f) {
    std::set<const Function*> active{&f};
    return Taint(&p, f, active).run();
}

}  // namespace cvsim
