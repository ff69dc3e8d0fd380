// gm_sync_trace, drains: whether a load's data has left the pipes before a flag (FIXP drain of a cube result
// derived from it, an MTE3 drain), so an author's flag pair orders it.
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

// v's value is computed from `load`'s result tile: a chain of assignments, each variable assigned by one
// statement only (so the value a use sees is the latest instance of its one definition, and that chain
// reaches the latest instance of the load before the use, or a later one on the same in-order MTE2 queue).
// Loop-carried values (init_values / yield) and variables assigned in several places end the chain: false.
bool GmSync::derives_from(const Var* v, const Stmt* load, int depth) const {
    if (!m_defs_built) {
        m_defs_built = true;
        walk(m_f.body, [&](const StmtPtr& st) {
            for (const auto& t : st->targets)
                if (t) m_defs[t.get()].push_back(st.get());
            if (st->kind == StmtKind::For || st->kind == StmtKind::If)
                for (const auto& t : st->iter_args)
                    if (t) m_defs[t.get()].push_back(nullptr);  // a loop-carried / branch value: no single definition
        });
    }
    if (!v || depth > 32) return false;
    auto it = m_defs.find(v);
    if (it == m_defs.end() || it->second.size() != 1 || !it->second[0]) return false;
    const Stmt* d = it->second[0];
    if (d == load) return true;
    if (d->kind != StmtKind::Assign) return false;
    const Expr* c = stmt_call(*d);
    if (!c) return false;
    for (const auto& a : c->args)
        if (a && a->kind == ExprKind::Var && a->type.is_tile() && derives_from(a->var.get(), load, depth + 1))
            return true;
    return false;
}

// A FIXP op (a cube store, a C2V push or boundary move) at a definite trace event in [from, to] whose tile is
// computed from the result of `load` (a statement): it runs after that load completed (MTE2 -> MTE1 -> M -> FIXP
// data dependencies), and the in-order FIXP pipe runs every later FIXP op after it.
bool GmSync::fixp_op_from(size_t from, size_t to, const Stmt* load) const {
    const std::vector<TraceEv>& tr = m_trace;
    for (size_t y = from; y <= to && y < tr.size(); ++y) {
        if (!tr[y].definite) continue;
        const Expr* f = stmt_call(*tr[y].s);
        if (!f) continue;
        const OpCode code = f->op->code;
        const bool fixp = (code == OpCode::Store && call_side(*f) == Side::Cube && call_pipe(*f) == Pipe::Fixp) ||
                          code == OpCode::TpushToAiv || call_side(*f) == Side::BoundaryC2V;
        if (!fixp) continue;
        const ExprPtr& t = code == OpCode::Store || code == OpCode::TpushToAiv
                               ? arg(*f, "tile")
                               : (f->args.empty() ? nullptr : f->args[0]);
        if (t && t->kind == ExprKind::Var && derives_from(t->var.get(), load, 0)) return true;
    }
    return false;
}

// Does the wait at trace event w, on the cube's pipe `p`, hold back the cube's FIXP access cons (event j)? When
// an op of pipe p after the wait (a cube load) feeds a FIXP op that runs before cons: that FIXP op waits for the
// load, the load for the wait (in-order pipe p), and the in-order FIXP pipe runs cons after it.
bool GmSync::wait_gates_fixp(size_t w, size_t j, Pipe p, const Access& cons) const {
    if (cons.lane != Side::Cube || prod_pipe(cons) != Pipe::Fixp || j == 0) return false;
    const std::vector<TraceEv>& tr = m_trace;
    for (size_t x = w + 1; x < j && x < tr.size(); ++x) {
        if (!tr[x].definite) continue;
        const Expr* e = stmt_call(*tr[x].s);
        if (!e || e->op->code != OpCode::Load || call_side(*e) != Side::Cube || call_pipe(*e) != p ||
            tr[x].s->targets.empty())
            continue;
        if (fixp_op_from(x + 1, j - 1, tr[x].s)) return true;
    }
    return false;
}

// The cube's twin of load_drained_by_mte3: a FIXP op computed from the loaded tile in (i, to] runs after the
// load completed, and the in-order FIXP pipe runs a later FIXP release (a C2V push, a set on FIX) after it.
bool GmSync::load_drained_by_fixp(size_t i, size_t to, const Access& load) const {
    if (load.store || load.lane != Side::Cube || load.stmt->targets.empty()) return false;
    return fixp_op_from(i + 1, to, load.stmt.get());
}

bool GmSync::load_drained_by_mte3(size_t i, size_t to, const Access& load) const {
    if (load.store || load.lane != Side::Vector || load.stmt->targets.empty()) return false;
    const std::vector<TraceEv>& tr = m_trace;
    // A V-pipe op that read the loaded tile ran after the load completed; on a5 every V2C push of a non-NZ
    // tile gets the expander's NZ adapter, a V-pipe move issued right before the push, which the in-order V
    // pipe runs after that op: the push (and its ready flag) then follows the load as well.
    bool v_read = false;
    for (size_t x = i + 1; x <= to && x < tr.size(); ++x) {
        if (!tr[x].definite) continue;
        const Expr* e = stmt_call(*tr[x].s);
        if (!e) continue;
        const OpCode code = e->op->code;
        if (!v_read && call_side(*e) == Side::Vector && e->type.is_tile() && e->type.mem == Mem::Vec &&
            code != OpCode::Load && code != OpCode::TpopFromAic && code != OpCode::Mgather)
            for (const auto& a : e->args)
                if (a && a->kind == ExprKind::Var && a->type.is_tile() &&
                    derives_from(a->var.get(), load.stmt.get(), 0))
                    v_read = true;
        const bool mte3 = (code == OpCode::Store && call_side(*e) == Side::Vector) || code == OpCode::TpushToAic ||
                          call_side(*e) == Side::BoundaryV2C;
        if (!mte3) continue;
        const ExprPtr& t = arg(*e, "tile");
        if (t && t->kind == ExprKind::Var && derives_from(t->var.get(), load.stmt.get(), 0)) return true;
        const bool adapted = m_opt.target == Target::A5 && code != OpCode::Store && t && t->type.is_tile() &&
                             t->type.mem == Mem::Vec && t->type.layout() != Layout::NZ;
        if (v_read && adapted) return true;
    }
    return false;
}

}  // namespace cvsim::passes::gmsync
