// ExpandMixedKernel's Splitter: a lane's statements by side, its loops and branches, boundary moves as tpush/tpop.
#include "frontend/passes/expand_mixed_internal.h"

namespace cvsim::passes::expand_detail {

std::shared_ptr<Function> Splitter::build() {
    m_out->body = filter(m_src.body);
    dce();
    // Branch results of GM-tensor type follow upstream's lane finalisation (docs/DECISIONS.md, "Branch
    // tensor results follow upstream"); the copies and yields that leaves unused go in a second DCE.
    // The other side's loop or branch kept for SHARED statements that all turned out dead, carrying GM
    // tensors only: upstream's lane does not have it (its versions are repointed to their parameters).
    GmOrigins origins;
    for (const auto& [v, prm] : m_src_origins) origins[m_map.get(m_src.vars[v->id]).get()] = m_map.get(prm);
    drop_emptied(m_out->body, origins);
    if (strip_dangling_branch_results(*m_out, m_copy_defs, origins)) dce();
    refuse_other_lanes_values();
    insert_tfree(m_out->body);
    // A flattened split_aiv region: both lanes run the function (split_aiv, as PyPTO stamps it, also tells
    // the a2a3 launch that lane 1 is not a replay of an unsplit function) and both are dispatched.
    if (m_dual) mark_dual_aiv(*m_out);
    return m_out;
}

// The loads of the source function the lane keeps: filtered and DCE'd as build() does, before any GM
// synchronisation is inserted (which only adds reads of store tiles and of the loads it orders).
// `reads`: the results of the pl.tensor.read statements the lane keeps (a SHARED read the lane does not use
// is dropped, so it is no GM access of that lane).
void Splitter::live_loads(std::set<const Var*>& out, std::set<const Var*>* reads) {
    m_out->body = filter(m_src.body);
    dce();
    std::set<const Var*> kept, kept_reads;
    walk(m_out->body, [&](const StmtPtr& s) {
        if (s->kind == StmtKind::Assign && (is_call(*s, OpCode::Load) || is_call(*s, OpCode::Mgather)))
            for (const auto& t : s->targets) kept.insert(t.get());
        if (s->kind == StmtKind::Assign && is_call(*s, OpCode::TensorRead))
            for (const auto& t : s->targets) kept_reads.insert(t.get());
    });
    for (const auto& v : m_src.vars) {
        if (kept.count(m_map.get(v).get())) out.insert(v.get());
        if (reads && kept_reads.count(m_map.get(v).get())) reads->insert(v.get());
    }
}

bool Splitter::mine(Side s) const {
    return s == Side::Shared || (s == Side::Cube && m_lane == Lane::Aic) || (s == Side::Vector && m_lane == Lane::Aiv);
}

Block Splitter::filter(const Block& b) {
    Block out;
    for (const auto& s : b) filter_stmt(*s, out);
    return out;
}

int Splitter::split_code(const Expr& call) {
    if (call.op->code == OpCode::AivShard || call.op->code == OpCode::AicGather) {
        // An explicit split= wins (in a region sema only lets the odd variant of its mode through).
        if (auto s = const_int(arg(call, "split"))) return static_cast<int>(*s);
        if (m_region_split >= 0) return m_region_split;
    }
    return 0;
}

void Splitter::filter_stmt(const Stmt& s, Block& out) {
    Side side = stmt_side(s);
    switch (s.kind) {
        case StmtKind::Return:
            if (m_lane == Lane::Aiv) out.push_back(clone_stmt(std::make_shared<Stmt>(s), &m_map));
            return;
        case StmtKind::Yield: {
            // Only reached for yields of a loop/branch that is not MIXED (kept whole).
            if (mine(side)) out.push_back(clone_stmt(std::make_shared<Stmt>(s), &m_map));
            return;
        }
        case StmtKind::For:
            if (s.loop_kind == LoopKind::SplitAiv) return split_region(s, out);
            [[fallthrough]];
        case StmtKind::If:
            if (side == Side::Mixed) return structured(s, out);
            if (mine(side)) out.push_back(clone_stmt(std::make_shared<Stmt>(s), &m_map));
            // The other lane's loop or branch may hold SHARED statements this lane needs too (a barrier of
            // every core, a scalar it reads later): keep its control flow with only those (dead ones and an
            // emptied loop go in dce()).
            else if (holds_shared(s)) {
                structured(s, out);
                m_shared_only.insert(out.back().get());
                if (loop_var_read_after(s)) m_var_shells.insert(out.back().get());
            }
            return;
        default:
            break;
    }
    if (side == Side::BoundaryC2V || side == Side::BoundaryV2C) return boundary(s, side, out);
    if (m_lane == Lane::Aiv && is_call(s, OpCode::TpushToAic) && s.kind == StmtKind::Eval) return hand_push(s, out);
    if (mine(side)) {
        out.push_back(clone_stmt(std::make_shared<Stmt>(s), &m_map));
    } else if ((is_call(s, OpCode::Store) || is_call(s, OpCode::Mscatter)) && s.kind == StmtKind::Assign &&
               s.targets.size() == 1) {
        // The other lane's store still names the tensor's next SSA version, which this lane may read (a
        // value a loop carries, a later load): here it is the same tensor (dce() drops it when unused).
        const ExprPtr& t = arg(*stmt_call(s), "output_tensor");
        if (t && t->kind == ExprKind::Var && t->var != s.targets[0]) {
            out.push_back(make_assign(m_map.get(s.targets[0]), clone_expr(t, &m_map), s.loc));
            m_copy_defs.insert(m_map.get(s.targets[0]).get());
        }
    }
}

// A SHARED statement (scalar work, barriers, fences, flags of both sides) anywhere inside a loop or branch,
// or a carried value / result that is a scalar (the other lane may read it after the loop or branch).
bool Splitter::holds_shared(const Stmt& s) const {
    if (loop_var_read_after(s)) return true;
    // A GM tensor that is a version of one parameter is not: the lane names that parameter instead (upstream
    // drops such a loop or branch from the lane and repoints the version: strip_dangling_branch_results). A
    // result that picks between tensors (arms yielding versions of different parameters) is (found by
    // review: dropping the branch left the lane without the choice).
    for (const auto& v : s.kind == StmtKind::For ? s.iter_args : s.targets) {
        if (v->type.kind == TypeKind::Tile) continue;
        if (v->type.kind == TypeKind::Tensor && m_src_origins.count(v.get())) continue;
        return true;
    }
    for (const Block* b : {&s.body, &s.orelse})
        for (const auto& x : *b) {
            if (x->kind == StmtKind::Yield || x->kind == StmtKind::Pass || x->kind == StmtKind::Return) continue;
            if (x->kind == StmtKind::For || x->kind == StmtKind::If) {
                if (holds_shared(*x)) return true;
                continue;
            }
            if (stmt_side(*x) == Side::Shared) return true;
        }
    return false;
}

// A loop whose variable a statement after it reads (its last value, DSL 4.1) before the name is bound
// again (`for i ...` then `r = i * 16`): the other lane keeps the loop's control flow for that value. The
// statements after the loop in its block and in each enclosing block are looked at, in order.
bool Splitter::loop_var_read_after(const Stmt& loop) const {
    if (loop.kind != StmtKind::For || !loop.loop_var || loop.loop_kind == LoopKind::SplitAiv ||
        loop.loop_kind == LoopKind::Spmd)
        return false;
    const Var* v = loop.loop_var.get();
    std::vector<std::pair<const Block*, size_t>> path;
    std::function<bool(const Block&)> find = [&](const Block& b) {
        for (size_t i = 0; i < b.size(); ++i) {
            path.push_back({&b, i});
            if (b[i].get() == &loop || find(b[i]->body) || find(b[i]->orelse)) return true;
            path.pop_back();
        }
        return false;
    };
    if (!find(m_src.body)) return false;
    for (size_t lvl = path.size(); lvl-- > 0;) {
        const Block& b = *path[lvl].first;
        for (size_t j = path[lvl].second + 1; j < b.size(); ++j) {
            const Stmt& x = *b[j];
            std::set<const Var*> r;
            const bool rebinds =
                (x.kind == StmtKind::For && x.loop_var.get() == v) ||
                std::any_of(x.targets.begin(), x.targets.end(), [&](const VarPtr& t) { return t.get() == v; });
            if (rebinds) {
                Stmt head = x;  // its own header or value still reads the old one
                head.body.clear();
                head.orelse.clear();
                collect_reads(head, r);
                return r.count(v) > 0;
            }
            collect_reads(x, r);
            if (r.count(v)) return true;
        }
    }
    return false;
}

void Splitter::split_region(const Stmt& s, Block& out) {
    // A split_aiv region: each AIV lane runs the body with aiv_id = its subblock index (so both lanes are
    // dispatched, whatever the mode: UP_DOWN / LEFT_RIGHT lanes work on their halves, NONE lanes on the
    // whole region); the AIC runs its statements once.
    int saved = m_region_split;
    m_region_split = s.split_mode == SplitMode::NONE ? 0 : s.split_mode == SplitMode::UP_DOWN ? 1 : 2;
    if (m_lane == Lane::Aiv) {
        out.push_back(make_assign(m_map.get(s.loop_var), make_call(OpCode::GetSubblockIdx, {}, s.loc), s.loc));
        m_dual = true;
    }
    for (const auto& x : s.body) filter_stmt(*x, out);
    m_region_split = saved;
}

void Splitter::structured(const Stmt& s, Block& out) {
    auto ns = std::make_shared<Stmt>(s);
    ns->body.clear();
    ns->orelse.clear();
    ns->value = clone_expr(s.value, &m_map);
    ns->start = clone_expr(s.start, &m_map);
    ns->stop = clone_expr(s.stop, &m_map);
    ns->step = clone_expr(s.step, &m_map);
    if (s.loop_var) ns->loop_var = m_map.get(s.loop_var);
    std::vector<bool> keep;
    const std::vector<VarPtr>& carried = s.kind == StmtKind::For ? s.iter_args : s.targets;
    for (const auto& v : carried) keep.push_back(lane_keeps_type(m_lane, v->type));
    ns->iter_args.clear();
    ns->init_values.clear();
    ns->targets.clear();
    for (size_t k = 0; k < s.iter_args.size(); ++k)
        if (keep[k]) {
            ns->iter_args.push_back(m_map.get(s.iter_args[k]));
            ns->init_values.push_back(clone_expr(s.init_values[k], &m_map));
        }
    for (size_t k = 0; k < s.targets.size(); ++k)
        if (k < keep.size() && keep[k]) ns->targets.push_back(m_map.get(s.targets[k]));
    auto branch = [&](const Block& b) {
        Block nb;
        for (const auto& x : b) {
            if (x->kind == StmtKind::Yield && &x == &b.back()) {
                auto y = std::make_shared<Stmt>(*x);
                y->values.clear();
                y->targets.clear();
                for (size_t k = 0; k < x->values.size(); ++k)
                    if (k < keep.size() && keep[k]) {
                        y->values.push_back(clone_expr(x->values[k], &m_map));
                        if (k < x->targets.size()) y->targets.push_back(m_map.get(x->targets[k]));
                    }
                if (!y->values.empty()) nb.push_back(y);
                continue;
            }
            filter_stmt(*x, nb);
        }
        return nb;
    };
    ns->body = branch(s.body);
    ns->orelse = branch(s.orelse);
    out.push_back(ns);
}

// SRC moved in UB to the layout (BL, SL) the V2C transport needs, named `<src>_SUFFIX` (the adapters below).
ExprPtr Splitter::moved_to_layout(const ExprPtr& src, TileLayout bl, TileLayout sl, const char* suffix,
                                  const SourceLoc& loc, Block& out) {
    Type t = src->type;
    t.view.blayout = bl;
    t.view.slayout = sl;
    t.view.written = true;
    std::string base = (src->kind == ExprKind::Var ? src->var->name : std::string()) + suffix;
    VarPtr v = m_out->new_var(m_out->fresh_name(base), t, loc);
    out.push_back(make_assign(v,
                              make_call(OpCode::Move,
                                        {{"tile", src},
                                         {"target_memory", mem_lit(Mem::Vec)},
                                         {"blayout", layout_lit(bl)},
                                         {"slayout", layout_lit(sl)}},
                                        loc),
                              loc));
    return var_ref(v, loc);
}

// On a5 the V2C transport carries NZ data: a tile that is not NZ is first moved to NZ in UB (the adapter
// upstream inserts), else the tile itself.
ExprPtr Splitter::nz_adapted(const ExprPtr& src, const SourceLoc& loc, Block& out) {
    if (m_opt.target != Target::A5 || src->type.layout() == Layout::NZ) return src;
    return moved_to_layout(src, TileLayout::col_major, TileLayout::row_major, "_nz", loc, out);
}

// On a2a3 the V2C pop repacks the slot ND -> NZ (SPEC 4.3), so a boundary move of a tile the author put in
// another layout (an NZ tile written for a5) is first moved back to ND in UB: the expansion computes what the
// mixed function computes (it was pushed as is and arrived scrambled: W-V2C-LAYOUT and E-MISMATCH on cvsim's
// own expansion of a valid kernel; hunt10). A hand-written tpush_to_aic is left as written (W-V2C-LAYOUT).
ExprPtr Splitter::nd_adapted(const ExprPtr& src, const SourceLoc& loc, Block& out) {
    if (m_opt.target == Target::A5 || src->type.layout() == Layout::ND) return src;
    return moved_to_layout(src, TileLayout::row_major, TileLayout::none_box, "_nd", loc, out);
}

// A tpush_to_aic the author wrote in the mixed function: the AIV lane gets the same NZ adapter as a
// boundary move's push.
void Splitter::hand_push(const Stmt& s, Block& out) {
    auto ns = clone_stmt(std::make_shared<Stmt>(s), &m_map);
    Expr& c = *ns->value;
    ExprPtr& tile = c.args[0];  // (tile, split, id)
    tile = nz_adapted(tile, s.loc, out);
    out.push_back(ns);
}

void Splitter::boundary(const Stmt& s, Side side, Block& out) {
    const Expr& call = *stmt_call(s);
    ExprPtr src = clone_expr(arg(call, "tile"), &m_map);
    VarPtr dst = s.targets.empty() ? nullptr : m_map.get(s.targets[0]);
    int split = split_code(call);
    if (m_lane == Lane::Aic) ++m_stats.boundaries;
    if (side == Side::BoundaryC2V) {
        if (m_lane == Lane::Aic) {
            out.push_back(
                make_eval(make_call(OpCode::TpushToAiv, {{"tile", src}, {"split", int_lit(split)}}, s.loc), s.loc));
        } else if (dst) {
            Type t = dst->type;
            out.push_back(
                make_assign(dst, make_call(OpCode::TpopFromAic, {{"split", int_lit(split)}}, s.loc, &t), s.loc));
        }
        return;
    }
    // V2C
    if (m_lane == Lane::Aiv) {
        ExprPtr pushed = m_opt.target == Target::A5 ? nz_adapted(src, s.loc, out) : nd_adapted(src, s.loc, out);
        out.push_back(
            make_eval(make_call(OpCode::TpushToAic, {{"tile", pushed}, {"split", int_lit(split)}}, s.loc), s.loc));
        return;
    }
    if (!dst) return;
    Mem target = dst->type.mem;
    if (target == Mem::Mat) {
        Type t = dst->type;
        out.push_back(make_assign(dst, make_call(OpCode::TpopFromAiv, {{"split", int_lit(split)}}, s.loc, &t), s.loc));
        return;
    }
    Type mat_t = Type::tile(dst->type.shape, dst->type.dtype, Mem::Mat);
    mat_t.valid = dst->type.valid;
    VarPtr m = m_out->new_var(m_out->fresh_name(dst->name + "_mat"), mat_t, s.loc);
    out.push_back(make_assign(m, make_call(OpCode::TpopFromAiv, {{"split", int_lit(split)}}, s.loc, &mat_t), s.loc));
    out.push_back(make_assign(
        dst, make_call(OpCode::Move, {{"tile", var_ref(m, s.loc)}, {"target_memory", mem_lit(target)}}, s.loc), s.loc));
}

}  // namespace cvsim::passes::expand_detail
