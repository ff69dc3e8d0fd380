// gm_sync_place, the statements placements insert: syncall calls, the barrier workspace, free flag ids, pipes,
// and the reverse flag pair of a loop-carried WAR (place_war_flags).
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

ExprPtr GmSync::syncall_call(const SourceLoc& loc) {
    // Hard when the launch fills the chip, soft otherwise (a hard barrier would deadlock on hardware).
    bool hard = m_opt.blocks == m_opt.chip_clusters;  // SPEC 5.7: hard only when the launch fills the chip exactly
    std::vector<std::pair<std::string, ExprPtr>> args = {{"core_type", str_lit("mix")}};
    if (!hard) {
        args.push_back({"mode", str_lit("soft")});
        args.push_back({"gm_workspace", var_ref(workspace(), loc)});
    }
    return make_call(OpCode::Syncall, args, loc);
}

VarPtr GmSync::workspace() {
    static const char* kName = "__syncall_workspace";
    if (VarPtr v = m_f.find_var(kName)) return v;
    Type t = Type::tensor({64}, DType::INT32);
    VarPtr v = m_f.new_var(kName, t, m_f.loc);
    m_f.params.push_back({v, ParamDir::InOut});
    m_made_workspace = true;
    return v;
}

int GmSync::free_event(bool lane_pair) {
    std::set<int64_t> used = m_planned_events;
    walk(m_f.body, [&](const StmtPtr& s) {
        if (const Expr* c = stmt_call(*s))
            if (c->op->code == OpCode::SyncSet || c->op->code == OpCode::SyncWait)
                if (auto id = const_int(arg(*c, "event_id"))) used.insert(*id);
    });
    const int stride = m_opt.flag_lane_stride;
    int ev = 0;
    while (used.count(ev) || (lane_pair && used.count(ev + stride))) ++ev;
    if (lane_pair && ev >= stride)
        raise(codes::kUnsupported, m_f.loc,
              fmt::format("no free pair of flag ids (id, id + {}) is left for a loop-carried WAR order", stride));
    m_planned_events.insert(ev);
    if (lane_pair) m_planned_events.insert(ev + stride);
    return ev;
}

bool GmSync::a5_two_lanes() const {
    if (m_opt.target != Target::A5) return false;
    if (m_f.split_mode() != SplitMode::NONE) return true;
    const Attr* dual = m_f.attr("dual_aiv_dispatch");
    if (dual && dual->value && dual->value->ival != 0) return true;
    bool region = false;
    walk(m_f.body, [&](const StmtPtr& s) { region |= s->kind == StmtKind::For && s->loop_kind == LoopKind::SplitAiv; });
    return region;
}

PipeType GmSync::pipe_of(const Access& a) {
    if (a.store) return a.lane == Side::Cube ? PipeType::FIX : PipeType::MTE3;
    return PipeType::MTE2;
}

ExprPtr GmSync::pipe_lit(PipeType p) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Enum;
    e->enum_kind = EnumKind::PipeType;
    e->ival = static_cast<int64_t>(p);
    e->sval = std::string(pipe_type_name(p));
    e->type = Type::none();
    return e;
}

void GmSync::place_war_flags(const Access& s, const Access& l, Block* b, size_t is, size_t il) {
    const bool two = a5_two_lanes();
    const int ev = free_event(two);
    const int stride = m_opt.flag_lane_stride;
    Unit unit{"write-after-read flag pair",
              {},
              &m_stats.war_orders,
              nullptr,
              fmt::format("{} -> {} write-after-read flags (event {})", where(l), where(s), ev)};
    auto plan = [&](Block* blk, size_t at, StmtPtr st) {
        unit.stmts.push_back(st);
        this->plan(blk, at, std::move(st));
    };
    // The statements of one flag op on side `lane`: one per AIV lane on the cube, a lane branch on the vector.
    auto flag_op = [&](OpCode op, Side lane, PipeType pipe, const SourceLoc& loc, Block* blk, size_t at) {
        const char* core = lane == Side::Cube ? "aic" : "aiv";
        auto one = [&](int id) {
            return make_eval(
                make_call(op, {{"event_id", int_lit(id)}, {"pipe", pipe_lit(pipe)}, {"core_type", str_lit(core)}}, loc),
                loc);
        };
        if (!two) return plan(blk, at, one(ev));
        if (lane == Side::Cube) {
            plan(blk, at, one(ev));
            plan(blk, at, one(ev + stride));
            return;
        }
        VarPtr sub = new_var("_lane", Type::scalar(DType::INDEX), loc);
        plan(blk, at, make_assign(sub, make_call(OpCode::GetSubblockIdx, {}, loc), loc));
        auto cond = std::make_shared<Expr>();
        cond->kind = ExprKind::Compare;
        cond->sval = "==";
        cond->loc = loc;
        cond->args = {var_ref(sub, loc), int_lit(0, loc)};
        cond->type = Type::scalar(DType::BOOL);
        auto br = std::make_shared<Stmt>();
        br->kind = StmtKind::If;
        br->loc = loc;
        br->value = cond;
        br->body.push_back(one(ev));
        br->orelse.push_back(one(ev + stride));
        plan(blk, at, br);
    };
    // After the consumer's statement in the loop body; before the producer store.
    flag_op(OpCode::SyncSet, l.lane, pipe_of(l), l.stmt->loc, b, il + 1);
    flag_op(OpCode::SyncWait, s.lane, pipe_of(s), s.stmt->loc, b, is);
    // Priming set before the loop, draining wait after it, in the loop's parent block.
    Block* loop_block = b;
    Block* parent = m_parent.at(loop_block);
    size_t loop_index = m_index_in_parent.at(loop_block);
    flag_op(OpCode::SyncSet, l.lane, pipe_of(l), l.stmt->loc, parent, loop_index);
    flag_op(OpCode::SyncWait, s.lane, pipe_of(s), s.stmt->loc, parent, loop_index + 1);
    ++m_stats.war_orders;
    m_flag_units.push_back(std::move(unit));
}

}  // namespace cvsim::passes::gmsync
