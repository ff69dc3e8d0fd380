// Scalar parameters that cannot matter: see scalar_influence.h.
#include "frontend/scalar_influence.h"

#include <map>
#include <set>
#include <string>
#include <utility>

namespace cvsim {

using namespace ir;

namespace {

using Memo = std::map<std::pair<const Function*, size_t>, bool>;

// The taint of one parameter through one function: every variable a value derived from it may reach (a
// flow-insensitive over-approximation, to a fixed point), and whether any of them is read where the value could
// change what runs, where, or what is computed or returned.
class Influence {
  public:
    Influence(const Program& p, std::set<const Function*>& active, Memo& memo)
        : m_p(p), m_active(active), m_memo(memo) {}

    bool cannot_matter(const Function& f, size_t index) {
        if (index >= f.params.size()) return false;
        const Var* pv = f.params[index].var.get();
        if (!pv || pv->type.kind != TypeKind::Scalar) return false;
        if (f.is_unread() || !f.distributed.what.empty()) return false;
        if (f.type == FuncType::Orchestration || f.type == FuncType::Opaque) return false;
        if (m_active.count(&f)) return false;  // a recursive call
        if (auto it = m_memo.find({&f, index}); it != m_memo.end()) return it->second;
        m_active.insert(&f);
        m_t = {pv};
        bool ok = true;
        for (bool changed = true; changed && ok;) {
            m_changed = false;
            ok = block(f.body);
            changed = m_changed;
        }
        m_active.erase(&f);
        m_memo[{&f, index}] = ok;
        return ok;
    }

  private:
    const Program& m_p;
    std::set<const Function*>& m_active;  // functions being analysed
    Memo& m_memo;
    std::set<const Var*> m_t;  // the variables a value derived from the parameter may reach
    bool m_changed = false;

    void taint(const VarPtr& v) {
        if (v && m_t.insert(v.get()).second) m_changed = true;
    }
    bool tainted(const VarPtr& v) const { return v && m_t.count(v.get()); }

    // Does E read a tainted variable anywhere (operands, a tpop's region, attrs)?
    bool reads(const ExprPtr& e) const {
        if (!e) return false;
        if (e->kind == ExprKind::Var && tainted(e->var)) return true;
        for (const auto& a : e->args)
            if (reads(a)) return true;
        for (const auto& a : e->args2)
            if (reads(a)) return true;
        return reads(e->attrs);
    }

    // Is E's only use of tainted values to compute its own value (scalar arithmetic rt::eval_scalar evaluates
    // without a diagnostic: +, -, *, bitwise, pl.min/pl.max, unary -/not/~/abs and scalar pl.cast, comparisons,
    // and/or, tuples and their elements; no op, no call, and no division, modulo, power or shift, kept out
    // because their result depends on the operand's range)? Its value is then tainted, nothing else.
    bool plain(const ExprPtr& e) const {
        if (!e || !reads(e)) return true;
        switch (e->kind) {
            case ExprKind::Var:
                return true;
            case ExprKind::Binary: {
                static const std::set<std::string> kPlain{"+", "-", "*", "&", "|", "^", "min", "max"};
                if (!kPlain.count(e->sval)) return false;
                break;
            }
            case ExprKind::Unary:
            case ExprKind::Compare:
            case ExprKind::BoolOp:
            case ExprKind::Index:
            case ExprKind::Tuple:
            case ExprKind::List:
                break;
            default:
                return false;
        }
        if (reads(e->attrs)) return false;
        for (const auto& a : e->args)
            if (!plain(a)) return false;
        for (const auto& a : e->args2)
            if (!plain(a)) return false;
        return true;
    }

    bool block(const Block& b) {
        for (const auto& s : b)
            if (!stmt(*s)) return false;
        return true;
    }

    // The yields of a For body or an If arm that give its results (the ones directly in it).
    template <class F>
    static void yields(const Block& b, F&& f) {
        for (const auto& s : b)
            if (s->kind == StmtKind::Yield) f(*s);
    }

    // A call of a function of the program: each tainted argument must be a parameter that cannot matter to the
    // callee (its results then carry no taint: a returned value is a use).
    bool call(const Expr& e) {
        if (is_host_op_call(e) || reads(e.attrs)) return false;
        for (const auto& a : e.args2)
            if (reads(a)) return false;
        std::shared_ptr<Function> callee = m_p.find(e.sval);
        if (!callee) return false;
        for (size_t j = 0; j < e.args.size(); ++j) {
            if (!reads(e.args[j])) continue;
            if (!plain(e.args[j]) || j >= callee->params.size()) return false;
            if (!Influence(m_p, m_active, m_memo).cannot_matter(*callee, j)) return false;
        }
        return true;
    }

    bool stmt(const Stmt& s) {
        switch (s.kind) {
            case StmtKind::Assign:
            case StmtKind::Eval: {
                if (!reads(s.value)) return true;
                if (s.value->kind == ExprKind::FuncCall) return call(*s.value);
                if (!plain(s.value)) return false;
                for (const auto& t : s.targets) taint(t);
                return true;
            }
            case StmtKind::Return: {
                for (const auto& v : s.values)
                    if (reads(v)) return false;
                return !reads(s.value);
            }
            case StmtKind::Yield: {
                for (size_t j = 0; j < s.values.size(); ++j) {
                    if (!reads(s.values[j])) continue;
                    if (!plain(s.values[j])) return false;
                    if (j < s.targets.size()) taint(s.targets[j]);
                }
                return true;
            }
            case StmtKind::For: {
                for (const ExprPtr* e : {&s.start, &s.stop, &s.step})
                    if (reads(*e)) return false;
                for (const auto& e : s.loop_extra)
                    if (reads(e)) return false;
                for (size_t j = 0; j < s.init_values.size(); ++j) {
                    if (!reads(s.init_values[j])) continue;
                    if (!plain(s.init_values[j]) || j >= s.iter_args.size()) return false;
                    taint(s.iter_args[j]);
                }
                // What the body yields is carried into the next iteration and out of the loop; a carried value is
                // the loop's result when the body runs no more (or never: a 0-trip loop's result is its init).
                yields(s.body, [&](const Stmt& y) {
                    for (size_t j = 0; j < y.values.size(); ++j)
                        if (reads(y.values[j])) {
                            if (j < s.iter_args.size()) taint(s.iter_args[j]);
                            if (j < s.targets.size()) taint(s.targets[j]);
                        }
                });
                for (size_t j = 0; j < s.iter_args.size() && j < s.targets.size(); ++j)
                    if (tainted(s.iter_args[j])) taint(s.targets[j]);
                return !reads(s.value) && block(s.body) && block(s.orelse);
            }
            case StmtKind::If: {
                if (reads(s.value)) return false;
                for (const Block* arm : {&s.body, &s.orelse})
                    yields(*arm, [&](const Stmt& y) {
                        for (size_t j = 0; j < y.values.size() && j < s.targets.size(); ++j)
                            if (reads(y.values[j])) taint(s.targets[j]);
                    });
                return block(s.body) && block(s.orelse);
            }
            case StmtKind::Pass:
                return true;
        }
        return false;
    }
};

}  // namespace

bool scalar_param_cannot_matter(const Program& p, const Function& f, size_t index) {
    std::set<const Function*> active;
    Memo memo;
    return Influence(p, active, memo).cannot_matter(f, index);
}

}  // namespace cvsim
