// ExpandMixedKernel's Splitter: a lane's cleanup (other lanes' values refused, dead statements and carried values,
// tfree).
#include "frontend/passes/expand_mixed_internal.h"

namespace cvsim::passes::expand_detail {

// A value the source function computes on the other side only (a scalar read from a vector tile, say)
// that this lane still reads, through a SHARED statement copied to it: no core transports a scalar to
// the other (tpush/tpop carry tiles), so the lane would read a variable it never set. Refused at the
// first statement of the lane that reads it, never run with a made-up value.
void Splitter::refuse_other_lanes_values() {
    auto bound = [](const Stmt& s, std::set<const Var*>& out) {
        for (const auto& t : s.targets) out.insert(t.get());
        for (const auto& t : s.iter_args) out.insert(t.get());
        if (s.loop_var) out.insert(s.loop_var.get());
    };
    std::set<const Var*> defined;
    for (const auto& p : m_out->params) defined.insert(p.var.get());
    walk(m_out->body, [&](const StmtPtr& st) { bound(*st, defined); });
    std::map<const Var*, const Var*> lane_var;  // source variable -> lane variable
    for (const auto& sv : m_src.vars) lane_var[sv.get()] = m_map.get(sv).get();
    std::map<const Var*, const Stmt*> source_def;  // lane variable -> the source statement binding it
    walk(m_src.body, [&](const StmtPtr& st) {
        std::set<const Var*> b;
        bound(*st, b);
        for (const Var* v : b)
            if (auto it = lane_var.find(v); it != lane_var.end()) source_def.emplace(it->second, st.get());
    });
    walk(m_out->body, [&](const StmtPtr& st) {
        std::set<const Var*> reads;
        auto add = [&](const VarPtr& v) { reads.insert(v.get()); };
        for (const ExprPtr* e : {&st->value, &st->start, &st->stop, &st->step}) for_each_var(*e, add);
        for (const auto& e : st->values) for_each_var(e, add);
        for (const auto& e : st->init_values) for_each_var(e, add);
        for (const Var* v : reads) {
            auto it = source_def.find(v);
            if (defined.count(v) || it == source_def.end()) continue;
            const bool aic = m_lane == Lane::Aic;
            raise(codes::kUnsupported, st->loc,
                  fmt::format("the {} lane needs '{}', which only the {} side computes (at {}): a scalar does not "
                              "cross between the cores "
                              "(tpush/tpop carry tiles), so this statement cannot run on the {}",
                              aic ? "AIC" : "AIV", v->name, aic ? "vector" : "cube", it->second->loc.short_str(),
                              aic ? "cube" : "vector"),
                  "compute the value on both sides from GM or parameters, or move it through a tile");
        }
    });
}

void Splitter::drop_emptied(Block& b, const GmOrigins& origins) {
    for (size_t i = 0; i < b.size();) {
        Stmt& s = *b[i];
        drop_emptied(s.body, origins);
        drop_emptied(s.orelse, origins);
        // Tensors only: its carries and results, and what its body still binds (a scalar the body binds and
        // something after it reads keeps it, DSL 4.1).
        bool tensors_only = true;
        for (const auto& v : s.kind == StmtKind::For ? s.iter_args : s.targets)
            if (v->type.kind != TypeKind::Tensor || !origins.count(v.get()))
                tensors_only = false;  // a pick between tensors stays
        for (const Block* arm : {&s.body, &s.orelse})
            walk(*arm, [&](const StmtPtr& x) {
                if (x->kind == StmtKind::Yield) return;
                for (const auto& t : x->targets)
                    if (t->type.kind != TypeKind::Tensor) tensors_only = false;
                for (const auto& t : x->iter_args)
                    if (t->type.kind != TypeKind::Tensor) tensors_only = false;
            });
        if (m_shared_only.count(&s) && !m_var_shells.count(&s) && tensors_only && !effect_besides_yields(s.body) &&
            !effect_besides_yields(s.orelse)) {
            b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
            continue;
        }
        ++i;
    }
}

// Remove statements without effect whose results nothing reads, until nothing changes.
void Splitter::dce() {
    bool changed = true;
    while (changed) {
        changed = false;
        std::set<const Var*> used;
        for (const auto& s : m_out->body) collect_reads(*s, used);
        changed = strip_dead_carried(m_out->body, used, m_out->body, lane_origins());
        if (!changed) changed = prune(m_out->body, used, m_var_shells);
    }
}

// The source's GM origins (gm_origins) on this lane's variables.
GmOrigins Splitter::lane_origins() const {
    GmOrigins origins;
    for (const auto& [v, prm] : m_src_origins) origins[m_map.get(m_src.vars[v->id]).get()] = m_map.get(prm);
    return origins;
}

// The reads of every statement of ROOT outside LOOP's body (LOOP's own header and init values included).
void Splitter::reads_outside(const Block& root, const Stmt* loop, std::set<const Var*>& out) {
    for (const auto& x : root) {
        Stmt shallow = *x;
        shallow.body.clear();
        shallow.orelse.clear();
        collect_reads(shallow, out);
        if (x.get() == loop) continue;
        reads_outside(x->body, loop, out);
        reads_outside(x->orelse, loop, out);
    }
}

// A value a loop carries that this lane neither reads in the body (other than to yield it on, directly or
// through copies of it) nor after the loop is dropped from the loop: iter_arg, init value, result and
// yield value (upstream's StripDeadIterArgs, loop_state_repair.cpp, run on each lane after the split: the
// AIC lane of a loop whose tensor only the AIV lane stores carries nothing; upstream's lane has no
// statement for the dropped store, cvsim's has the copy `t = input` that keeps the tensor's SSA chain,
// so copies are not reads here). A branch's results are kept as they are (upstream strips only the ones
// whose value the lane no longer defines: see docs/DECISIONS.md, parity). The copies that fed a dropped
// value are then dead and pruned.
//
// A read of a copy standing for the other lane's store (m_copy_defs) is not a read of the carried value
// either when that copy is a version of one tensor parameter: upstream's lane has no such statement, so its
// reader names the dangling store result, which RemapDanglingGmRefsToParam points at the parameter (the AIC
// lane of a loop whose vector stores a GM tensor the cube then loads carries nothing upstream). Such a copy
// of a dropped value then copies the parameter instead: the same GM tensor, so no access changes.
bool Splitter::strip_dead_carried(Block& b, const std::set<const Var*>& used, const Block& root,
                                  const GmOrigins& origins) {
    bool changed = false;
    for (auto& sp : b) {
        Stmt& s = *sp;
        changed |= strip_dead_carried(s.body, used, root, origins);
        changed |= strip_dead_carried(s.orelse, used, root, origins);
        if (s.kind != StmtKind::For || s.iter_args.empty()) continue;
        Stmt* y = !s.body.empty() && s.body.back()->kind == StmtKind::Yield ? s.body.back().get() : nullptr;
        if (!y || y->values.size() != s.iter_args.size()) continue;  // not the shape this pass knows: kept
        bool stripped = false;
        for (size_t i = s.iter_args.size(); i-- > 0;) {
            if (i < s.targets.size() && used.count(s.targets[i].get())) continue;
            std::set<const Var*> chain{s.iter_args[i].get()};  // the carried value and its copies
            auto is_copy = [&](const Stmt& x) {
                return x.kind == StmtKind::Assign && x.targets.size() == 1 && x.value &&
                       x.value->kind == ExprKind::Var && chain.count(x.value->var.get());
            };
            for (bool grew = true; grew;) {
                grew = false;
                walk(s.body, [&](const StmtPtr& x) {
                    if (is_copy(*x) && chain.insert(x->targets[0].get()).second) grew = true;
                });
            }
            // The chain's copies standing for the other lane's stores, all versions of the carried value's
            // parameter: their readers read that parameter upstream.
            const auto carried_origin = origins.find(s.iter_args[i].get());
            std::set<const Var*> store_copies;
            if (carried_origin != origins.end())
                for (const Var* v : chain) {
                    auto o = origins.find(v);
                    if (m_copy_defs.count(v) && o != origins.end() && o->second == carried_origin->second)
                        store_copies.insert(v);
                }
            bool read = false;
            walk(s.body, [&](const StmtPtr& x) {
                if (read || is_copy(*x)) return;
                std::set<const Var*> r;
                if (x.get() == y) {
                    for (size_t k = 0; k < y->values.size(); ++k)
                        if (k != i) expr_reads_of(y->values[k], r);
                } else {
                    Stmt shallow = *x;
                    shallow.body.clear();
                    shallow.orelse.clear();
                    collect_reads(shallow, r);
                }
                for (const Var* v : chain)
                    if (r.count(v) && !store_copies.count(v)) read = true;
            });
            if (read) continue;
            // A copy is a read when something after the loop reads it: a name the body binds is visible
            // after the loop (DSL 4.1), so `sc2 = store(t, .., sc)` dropped to `sc2 = sc` and a later
            // `pl.load(sc2, ...)` still needs the carried `sc` (found by review: dropped, the lane read an
            // undefined tensor and the V2C race became a wrong E-UNSUPPORTED).
            std::set<const Var*> after;
            reads_outside(root, &s, after);
            for (const Var* v : chain)
                if (after.count(v) && !store_copies.count(v)) read = true;
            if (read) continue;
            // The store copies (and the copies of them) that something still reads copy the parameter now.
            if (!store_copies.empty())
                walk(s.body, [&](const StmtPtr& x) {
                    if (is_copy(*x) && store_copies.count(x->targets[0].get()) &&
                        !store_copies.count(x->value->var.get()))
                        x->value = var_ref(carried_origin->second, x->value->loc);
                });
            auto erase_at = [](auto& v, size_t k) {
                if (k < v.size()) v.erase(v.begin() + static_cast<std::ptrdiff_t>(k));
            };
            erase_at(s.iter_args, i);
            erase_at(s.init_values, i);
            erase_at(s.targets, i);
            erase_at(y->values, i);
            erase_at(y->targets, i);
            stripped = changed = true;
        }
        if (stripped && y->values.empty()) s.body.pop_back();
    }
    return changed;
}

void Splitter::expr_reads_of(const ExprPtr& e, std::set<const Var*>& out) {
    Stmt tmp;
    tmp.kind = StmtKind::Eval;
    tmp.value = e;
    collect_reads(tmp, out);
}

// A loop or if without yields still defines the names its body binds (visible after it, DSL.md 4.1/4.3).
bool Splitter::binds_used(const Block& b, const std::set<const Var*>& used) {
    for (const auto& s : b) {
        if (s->kind == StmtKind::Assign)
            for (auto& t : s->targets)
                if (used.count(t.get())) return true;
        if (binds_used(s->body, used) || binds_used(s->orelse, used)) return true;
    }
    return false;
}

// A loop or branch whose only effect is yielding values nobody reads is dead too.
bool Splitter::effect_besides_yields(const Block& b) {
    for (const auto& x : b) {
        if (x->kind == StmtKind::Yield) continue;
        if (x->kind == StmtKind::For || x->kind == StmtKind::If) {
            if (effect_besides_yields(x->body) || effect_besides_yields(x->orelse)) return true;
            continue;
        }
        if (has_effect(*x)) return true;
    }
    return false;
}

bool Splitter::prune(Block& b, const std::set<const Var*>& used, const std::set<const Stmt*>& var_shells) {
    bool changed = false;
    for (size_t i = 0; i < b.size();) {
        Stmt& s = *b[i];
        if (s.kind == StmtKind::For || s.kind == StmtKind::If) {
            changed |= prune(s.body, used, var_shells);
            changed |= prune(s.orelse, used, var_shells);
        }
        bool targets_used = false;
        for (auto& t : s.targets)
            if (used.count(t.get())) targets_used = true;
        bool removable = false;
        if (s.kind == StmtKind::Assign) removable = !has_effect(s) && !targets_used;
        if (s.kind == StmtKind::For || s.kind == StmtKind::If)
            removable = !effect_besides_yields(s.body) && !effect_besides_yields(s.orelse) && !targets_used &&
                        !binds_used(s.body, used) && !binds_used(s.orelse, used) &&
                        !(var_shells.count(&s) && s.loop_var && used.count(s.loop_var.get()));
        if (removable) {
            b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
            changed = true;
            continue;
        }
        ++i;
    }
    return changed;
}

// Every pop gets its tfree after the last statement of its block that reads the popped tile or any
// view/alias of it (transitively: on a5 the tile is the slot itself until the free). A tile still used
// after its block ends (yielded out of a branch arm or loop body, or bound there and read later) has no
// single point that frees it exactly once: E-UNSUPPORTED rather than a free that comes too early.
void Splitter::insert_tfree(Block& b) {
    for (auto& s : b) {
        insert_tfree(s->body);
        insert_tfree(s->orelse);
    }
    for (size_t i = b.size(); i-- > 0;) {
        const Stmt& s = *b[i];
        const Expr* c = stmt_call(s);
        if (!c || s.targets.empty()) continue;
        OpCode free_op;
        if (c->op->code == OpCode::TpopFromAic)
            free_op = OpCode::TfreeToAic;
        else if (c->op->code == OpCode::TpopFromAiv)
            free_op = OpCode::TfreeToAiv;
        else
            continue;
        VarPtr v = s.targets[0];
        const std::set<const Var*> al = storage_aliases(m_out->body, v.get());
        auto reads_alias = [&](const Stmt& x, bool shallow) {
            std::set<const Var*> r;
            if (shallow) {
                Stmt sh = x;
                sh.body.clear();
                sh.orelse.clear();
                collect_reads(sh, r);
            } else {
                collect_reads(x, r);
            }
            for (const Var* a : al)
                if (r.count(a)) return true;
            return false;
        };
        size_t last = i;
        bool freed = false;
        std::set<const Stmt*> inside;
        for (size_t j = i + 1; j < b.size(); ++j) {
            if (is_call(*b[j], free_op) && reads_alias(*b[j], false)) freed = true;
            if (reads_alias(*b[j], false)) last = j;
            inside.insert(b[j].get());
            walk(b[j]->body, [&](const StmtPtr& x) { inside.insert(x.get()); });
            walk(b[j]->orelse, [&](const StmtPtr& x) { inside.insert(x.get()); });
        }
        if (freed) continue;
        const Stmt* escape = nullptr;
        walk(m_out->body, [&](const StmtPtr& x) {
            if (escape || x.get() == &s || !reads_alias(*x, true)) return;
            bool own_yield = x->kind == StmtKind::Yield && x == b.back();
            if (!inside.count(x.get()) || own_yield || x->kind == StmtKind::Return) escape = x.get();
        });
        if (escape)
            raise(codes::kUnsupported, s.loc,
                  fmt::format(
                      "the tile '{}' popped here (or a view of it) {} at line {}; cvsim cannot place its {}, which "
                      "must run exactly once, after the tile's last use",
                      v->name,
                      escape->kind == StmtKind::Yield ? "leaves the block it was popped in through a yield"
                                                      : "is used after the block it was popped in ends",
                      escape->loc.line, free_op == OpCode::TfreeToAic ? "tfree_to_aic" : "tfree_to_aiv"),
                  "copy the tile (pl.move) inside the block and let the copy leave it");
        b.insert(b.begin() + static_cast<std::ptrdiff_t>(last + 1),
                 make_eval(make_call(free_op, {{"tile", var_ref(v, s.loc)}}, s.loc), s.loc));
    }
}

}  // namespace cvsim::passes::expand_detail
