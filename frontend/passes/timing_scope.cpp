// Static half of "what a verdict proves" (SPEC 6); see timing_scope.h.
//
// A scalar is data-derived when it is bound from an op call that returns a scalar computed from tile or
// tensor contents (any op with a tile/tensor operand and a scalar result, except pure shape queries), from a
// kernel-to-kernel call returning a scalar, or from an expression reading a data-derived scalar (through
// assignments, loop-carried values and branch results, to a fixpoint). Loop variables, block and subblock
// indices, scalar parameters (fixed per run) and constants are not. A data-derived scalar is harmless as the
// value operand of a tile-scalar op (`muls(x, s)`, `full(..., value=s)`): that is data, not an address.
// pl.tile.mgather / mscatter take their GM addresses from an index tile: always data-dependent.
#include "frontend/passes/timing_scope.h"

#include <fmt/format.h>

#include <set>

#include "frontend/ops.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes {

using namespace ir;

bool op_scalar_result_reads_data(const Expr& call) {
    if (call.kind != ExprKind::Call || !call.op || call.type.kind != TypeKind::Scalar) return false;
    if (call.op->short_name == "dim") return false;  // a shape query, fixed per launch
    for (const auto& a : call.args)
        if (a && (a->type.kind == TypeKind::Tile || a->type.kind == TypeKind::Tensor)) return true;
    return false;
}

namespace {

// Operands that carry a scalar as data (never an address or a trip count).
bool data_operand(const Expr& call, size_t index) {
    if (!call.op || index >= call.op->params.size()) return false;
    const std::string& p = call.op->params[index].name;
    switch (call.op->code) {
        case OpCode::Adds:
        case OpCode::Subs:
        case OpCode::Muls:
        case OpCode::Divs:
            return p == "rhs";
        case OpCode::Full:
            return p == "value";
        case OpCode::TensorWrite:
            return p == "value";  // the element's value, not its address
        default:
            return false;
    }
}

class Analysis {
  public:
    explicit Analysis(TimingScope& out) : m_out(out) {}

    void function(const Function& f) {
        m_tainted.clear();
        m_f = &f;
        // Taint to a fixpoint (loop-carried values and reassignments feed back).
        for (bool changed = true; changed;) {
            size_t before = m_tainted.size();
            taint_block(f.body);
            changed = m_tainted.size() != before;
        }
        check_block(f.body);
    }

  private:
    TimingScope& m_out;
    const Function* m_f = nullptr;
    std::set<const Var*> m_tainted;

    bool tainted(const ExprPtr& e) const {
        if (!e) return false;
        if (e->kind == ExprKind::Call && op_scalar_result_reads_data(*e)) return true;
        if (e->kind == ExprKind::FuncCall && e->type.kind == TypeKind::Scalar) return true;
        if (e->kind == ExprKind::Var) return m_tainted.count(e->var.get()) > 0;
        // An op call's result is tainted only through its own rule above (a tile result is data anyway).
        if (e->kind == ExprKind::Call || e->kind == ExprKind::FuncCall) return false;
        for (const auto& a : e->args)
            if (tainted(a)) return true;
        for (const auto& a : e->args2)
            if (tainted(a)) return true;
        return false;
    }

    void mark(const VarPtr& v) {
        if (v && v->type.kind == TypeKind::Scalar) m_tainted.insert(v.get());
    }

    void taint_block(const Block& b) {
        for (const auto& s : b) {
            switch (s->kind) {
                case StmtKind::Assign:
                    if (tainted(s->value))
                        for (const auto& t : s->targets) mark(t);
                    break;
                case StmtKind::For:
                    for (size_t k = 0; k < s->iter_args.size(); ++k) {
                        bool t = k < s->init_values.size() && tainted(s->init_values[k]);
                        if (!s->body.empty() && s->body.back()->kind == StmtKind::Yield &&
                            k < s->body.back()->values.size())
                            t = t || tainted(s->body.back()->values[k]);
                        t = t || m_tainted.count(s->iter_args[k].get());
                        if (t) {
                            mark(s->iter_args[k]);
                            if (k < s->targets.size()) mark(s->targets[k]);
                        }
                    }
                    taint_block(s->body);
                    break;
                case StmtKind::If:
                    for (const Block* br : {&s->body, &s->orelse}) {
                        if (!br->empty() && br->back()->kind == StmtKind::Yield)
                            for (size_t k = 0; k < s->targets.size() && k < br->back()->values.size(); ++k)
                                if (tainted(br->back()->values[k])) mark(s->targets[k]);
                        // A result chosen by a data-dependent condition is data-dependent.
                        if (tainted(s->value))
                            for (const auto& t : s->targets) mark(t);
                    }
                    taint_block(s->body);
                    taint_block(s->orelse);
                    break;
                default:
                    break;
            }
        }
    }

    std::string name_in(const ExprPtr& e) const {
        std::string n;
        for_each_var(e, [&](const VarPtr& v) {
            if (n.empty() && m_tainted.count(v.get())) n = v->name;
        });
        return n.empty() ? "a value read from tile data" : "'" + n + "'";
    }

    void reason(const SourceLoc& loc, const std::string& what, const ExprPtr& e) {
        m_out.data_independent = false;
        m_out.reasons.push_back(fmt::format("{}: {} depends on {} (derived from tile or tensor data) in {}",
                                            loc.short_str(), what, name_in(e), m_f->name));
    }

    // Every op call nested in `e`: scalar operands that are not plain data must not be data-derived.
    void check_expr(const ExprPtr& e, const SourceLoc& loc) {
        if (!e) return;
        if (e->kind == ExprKind::Call && e->op) {
            // mgather / mscatter: the GM elements they touch are the values of their index tile (data).
            if (is_indexed_gm(e->op->code)) {
                m_out.data_independent = false;
                m_out.reasons.push_back(fmt::format(
                    "{}: the GM addresses of pl.{} are the values of its index tile 'idx' (tile data) in {}",
                    loc.short_str(), e->op->name(), m_f->name));
            }
            for (size_t i = 0; i < e->args.size(); ++i) {
                const ExprPtr& a = e->args[i];
                if (!a || a->type.kind == TypeKind::Tile || a->type.kind == TypeKind::Tensor) {
                    check_expr(a, loc);
                    continue;
                }
                if (!data_operand(*e, i) && tainted(a))
                    reason(loc, fmt::format("operand '{}' of {}", e->op->params[i].name, e->op->name()), a);
                check_expr(a, loc);
            }
            return;
        }
        for (const auto& a : e->args) check_expr(a, loc);
        for (const auto& a : e->args2) check_expr(a, loc);
    }

    void check_block(const Block& b) {
        for (const auto& s : b) {
            switch (s->kind) {
                case StmtKind::Assign:
                case StmtKind::Eval:
                    check_expr(s->value, s->loc);
                    break;
                case StmtKind::For:
                    for (const ExprPtr* bound : {&s->start, &s->stop, &s->step})
                        if (tainted(*bound)) reason(s->loc, "a loop bound", *bound);
                    check_block(s->body);
                    break;
                case StmtKind::If:
                    if (tainted(s->value)) reason(s->loc, "a branch condition", s->value);
                    check_block(s->body);
                    check_block(s->orelse);
                    break;
                default:
                    break;
            }
        }
    }
};

}  // namespace

TimingScope analyse_timing_scope(const Program& p) {
    TimingScope out;
    Analysis a(out);
    for (const auto& f : p.functions) a.function(*f);
    return out;
}

}  // namespace cvsim::passes
