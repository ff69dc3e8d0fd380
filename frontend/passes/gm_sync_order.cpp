// gm_sync_order: what already orders a pair (the hazard checker's view) and execution order (gm_sync.h).
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

std::string GmSync::name_of(const std::set<const Var*>& o) {
    std::string n;
    for (auto* v : o) n += (n.empty() ? "" : "/") + v->name;
    return n;
}

bool GmSync::intersects(const std::set<const Var*>& a, const std::set<const Var*>& b) {
    for (auto* v : a)
        if (b.count(v)) return true;
    return false;
}

bool GmSync::orders(const Stmt& s, const Access& prod) const {
    Side p = prod.lane;
    if (const Expr* c = stmt_call(s)) {
        OpCode code = c->op->code;
        if (code == OpCode::Syncall && call_side(*c) == Side::Shared) return true;
        Side sd = call_side(*c);
        bool v2c = p == Side::Vector;
        if (v2c ? sd == Side::BoundaryV2C : sd == Side::BoundaryC2V)
            return !m_handwritten[v2c ? 1 : 0] && prod_pipe(prod) == (v2c ? Pipe::Mte3 : Pipe::Fixp);
    }
    auto block_orders = [&](const Block& b) {
        for (auto& x : b)
            if (orders(*x, prod)) return true;
        return false;
    };
    if (s.kind == StmtKind::If) return block_orders(s.body) && block_orders(s.orelse);
    if (s.kind == StmtKind::For) return runs_at_least_once(s) && block_orders(s.body);
    return false;
}

bool GmSync::has_transport(const Stmt& s, bool v2c) {
    if (const Expr* c = stmt_call(s)) {
        OpCode code = c->op->code;
        Side sd = call_side(*c);
        if (v2c ? (code == OpCode::TpushToAic || code == OpCode::TpopFromAiv || sd == Side::BoundaryV2C)
                : (code == OpCode::TpushToAiv || code == OpCode::TpopFromAic || sd == Side::BoundaryC2V))
            return true;
    }
    for (const auto& x : s.body)
        if (has_transport(*x, v2c)) return true;
    for (const auto& x : s.orelse)
        if (has_transport(*x, v2c)) return true;
    return false;
}

std::optional<Pipe> GmSync::sync_pipe(const Expr& c, Side lane) {
    PipeType pt = PipeType::S;
    if (const ExprPtr& pa = arg(c, "pipe"); pa && pa->kind == ExprKind::Enum) pt = static_cast<PipeType>(pa->ival);
    Pipe p = Pipe::Scalar;
    switch (pt) {
        case PipeType::ALL:
            return std::nullopt;
        case PipeType::V:
            p = Pipe::Vector;
            break;
        case PipeType::M:
            p = Pipe::Cube;
            break;
        case PipeType::MTE1:
            p = Pipe::Mte1;
            break;
        case PipeType::MTE2:
            p = Pipe::Mte2;
            break;
        case PipeType::MTE3:
            p = Pipe::Mte3;
            break;
        case PipeType::FIX:
            p = Pipe::Fixp;
            break;
        default:
            break;
    }
    bool has = lane == Side::Cube ? p != Pipe::Vector : (p == Pipe::Mte2 || p == Pipe::Mte3 || p == Pipe::Vector);
    return has ? p : Pipe::Scalar;
}

bool GmSync::flags_order(const Block& b, size_t is, size_t il, const Access& prod, const Access& cons) const {
    if (m_opt.target == Target::A5 && (m_split || a5_two_lanes())) return false;
    // Statements of b, and those nested in b[i] through loops of a constant trip count (each runs trips
    // times per execution of b, all of it at b[i]'s position): stmt -> (index in b, runs per execution).
    std::map<const Stmt*, std::pair<size_t, int64_t>> direct;
    std::function<void(const Block&, size_t, int64_t)> nest = [&](const Block& blk, size_t i, int64_t mult) {
        for (const auto& x : blk) {
            direct[x.get()] = {i, mult};
            if (x->kind != StmtKind::For || !sequential(*x)) continue;
            auto n = trips(*x);
            if (n && mult * *n <= 64) nest(x->body, i, mult * *n);
        }
    };
    for (size_t i = 0; i < b.size(); ++i) {
        direct[b[i].get()] = {i, 1};
        if (b[i]->kind == StmtKind::For && sequential(*b[i]))
            if (auto n = trips(*b[i]); n && *n <= 64) nest(b[i]->body, i, *n);
    }
    std::map<int64_t, std::vector<std::pair<size_t, const Expr*>>> sets, waits;
    std::set<int64_t> elsewhere;
    bool nonconst = false;
    walk(m_f.body, [&](const StmtPtr& s) {
        const Expr* c = stmt_call(*s);
        if (!c || (c->op->code != OpCode::SyncSet && c->op->code != OpCode::SyncWait)) return;
        bool set = c->op->code == OpCode::SyncSet;
        Side sd = call_side(*c);
        if (sd != Side::Shared && sd != (set ? prod.lane : cons.lane)) return;  // the other counter
        auto id = const_int(arg(*c, "event_id"));
        if (!id) {
            nonconst = true;
            return;
        }
        auto it = direct.find(s.get());
        if (it == direct.end())
            elsewhere.insert(*id);
        else
            for (int64_t k = 0; k < it->second.second; ++k) (set ? sets : waits)[*id].push_back({it->second.first, c});
    });
    if (nonconst) return false;
    const int lane = prod.lane == Side::Cube ? 1 : 2;
    auto fenced = [&](size_t from, size_t to) {  // a fence of the producer's lane, or a barrier it takes part in
        for (size_t i = from; i < to; ++i)
            if (const Expr* c = stmt_call(*b[i])) {
                if (c->op->code == OpCode::Fence && b[i]->kind == StmtKind::Eval &&
                    (b[i]->pinned_lane == 0 || b[i]->pinned_lane == lane))
                    return true;
                if (c->op->code == OpCode::Syncall &&
                    call_side(*c) != (prod.lane == Side::Cube ? Side::Vector : Side::Cube))
                    return true;
            }
        return false;
    };
    for (auto& [id, ss] : sets) {
        auto wit = waits.find(id);
        if (elsewhere.count(id) || wit == waits.end() || wit->second.size() != ss.size()) continue;
        for (size_t k = 0; k < ss.size(); ++k) {
            auto [si, sc] = ss[k];
            auto [wi, wc] = wit->second[k];
            if (!(si > is && wi < il)) continue;
            auto sp = sync_pipe(*sc, prod.lane);
            bool covers = !sp || *sp == prod_pipe(prod) || fenced(is + 1, si) || will_publish(prod);
            auto wp = sync_pipe(*wc, cons.lane);
            bool blocks = !wp || *wp == Pipe::Scalar || *wp == prod_pipe(cons);
            if (covers && blocks) return true;
        }
    }
    return false;
}

bool GmSync::planned_barrier(const Block* b, size_t lo, size_t hi) const {
    for (auto& [blk, idx] : m_barrier_at)
        if (blk == b && idx >= lo && idx <= hi) return true;
    for (size_t j = lo; j < hi && j < b->size(); ++j)
        if (surely_planned_in(*(*b)[j])) return true;
    return false;
}

bool GmSync::surely_planned_in(const Stmt& x) const {
    if (x.kind != StmtKind::For || !sequential(x) || !runs_at_least_once(x)) return false;
    for (auto& [blk, idx] : m_barrier_at)
        if (blk == &x.body) return true;
    for (const auto& y : x.body)
        if (surely_planned_in(*y)) return true;
    return false;
}

bool GmSync::already_ordered(const Block& b, size_t is, size_t il, const Access& prod, const Access& cons,
                             bool* after_prod) const {
    if (after_prod) *after_prod = true;
    for (size_t i = is + 1; i < il; ++i)
        if (orders(*b[i], prod)) return true;
    size_t d = 0;
    while (d < prod.path.size() && prod.path[d].first != &b) ++d;
    for (size_t k = d + 1; k < prod.path.size(); ++k)
        for (size_t j = prod.path[k].second + 1; j < prod.path[k].first->size(); ++j)
            if (orders(*(*prod.path[k].first)[j], prod)) return true;
    if (flags_order(b, is, il, prod, cons)) return true;
    if (after_prod) *after_prod = false;
    // Exact: the happens-before edges of barriers, flags and rings over the unrolled function. What it
    // finds may sit inside cons's statement (a flag pair in cons's loop), so it covers no other load.
    if (auto t = trace_ordered(prod, cons); t && *t != TraceOrder::Unordered) return true;
    for (size_t k = d + 1; k < cons.path.size(); ++k)
        for (size_t j = 0; j < cons.path[k].second; ++j)
            if (orders(*(*cons.path[k].first)[j], prod)) return true;
    return false;
}

std::vector<GmSync::LoopAt> GmSync::common_loops(const Access& a, const Access& b) const {
    std::vector<LoopAt> out;
    for (size_t d = 0; d + 1 < a.path.size() && d + 1 < b.path.size() && a.path[d] == b.path[d]; ++d) {
        const Stmt& st = *(*a.path[d].first)[a.path[d].second];
        if (st.kind == StmtKind::For && a.path[d + 1].first == &st.body && b.path[d + 1].first == &st.body)
            out.push_back({&st, d + 1});
    }
    return out;
}

std::optional<int64_t> GmSync::trips(const Stmt& loop) {
    auto start = loop.start ? const_int(loop.start) : std::optional<int64_t>(0);
    auto stop = const_int(loop.stop);
    auto step = loop.step ? const_int(loop.step) : std::optional<int64_t>(1);
    if (!start || !stop || !step || *step == 0) return std::nullopt;
    int64_t n = *step > 0 ? (*stop - *start + *step - 1) / *step : (*start - *stop - *step - 1) / -*step;
    return std::max<int64_t>(n, 0);
}

bool GmSync::overlap_same(const Access& a, const Access& b) const {
    std::set<const Var*> shared;  // a split_aiv lane index differs between the lanes and the cube: free
    for (auto& l : common_loops(a, b))
        if (l.loop->loop_kind != LoopKind::SplitAiv) shared.insert(l.loop->loop_var.get());
    return overlap_in_one_cluster(a, b, [&](const GmWindow& wa, const GmWindow& wb) {
        return WindowAnalysis::may_overlap(wa, wb, shared, nullptr, 0, 0, m_win);
    });
}

bool GmSync::halved_function() const {
    if (m_f.split_mode() == SplitMode::NONE) return false;
    const Attr* lowered = m_f.attr("split_aiv");
    return !lowered || !lowered->value || lowered->value->ival == 0;
}

bool GmSync::holds_lane(const Access& a) const {
    const Var* lane = m_win.lane_atom();
    if (!lane || a.lane != Side::Vector || !a.win.ok) return false;
    for (const auto& off : a.win.off)
        if (off.terms.count(lane)) return true;
    return false;
}

std::optional<Access> GmSync::lane_half(const Access& a, int lane) const {
    if (!halved_function()) return std::nullopt;
    const SplitMode mode = m_f.split_mode();
    const Expr& c = *a.call;
    std::vector<int64_t> box;
    if (c.op->code == OpCode::Store) {
        const ExprPtr& t = arg(c, "tile");
        if (!t || t->type.kind != TypeKind::Tile || t->type.mem != Mem::Vec) return std::nullopt;
        box = t->type.shape;
    } else if (c.op->code == OpCode::Load && c.type.mem == Mem::Vec) {
        box = c.type.shape;
    } else {
        return std::nullopt;
    }
    if (box.size() < 2) return std::nullopt;
    const size_t tax = mode == SplitMode::UP_DOWN ? box.size() - 2 : box.size() - 1;
    if (box[tax] < 2 || box[tax] % 2) return std::nullopt;  // whole on both lanes (extent 1), or refused by the split
    // A halved access whose window is unknown may meet anything on the other lane (it was taken for no
    // halved access at all: two halved stores at a computed row got no barrier, E-RACE-WAW under fence).
    if (!a.win.ok) return a;
    if (a.win.ext.size() < 2) return std::nullopt;
    const size_t wax = mode == SplitMode::UP_DOWN ? a.win.ext.size() - 2 : a.win.ext.size() - 1;
    const int64_t half = box[tax] / 2;
    Access l = a;
    if (const Var* lv = m_win.lane_atom())
        for (auto& off : l.win.off)
            if (auto it = off.terms.find(lv); it != off.terms.end()) {
                off.c += it->second * lane;
                off.terms.erase(it);
            }
    l.win.off[wax].c += lane * half;
    l.win.ext[wax] = std::min(half, std::max<int64_t>(a.win.ext[wax] - lane * half, 0));
    return l;
}

Access GmSync::at_lane(const Access& a, int lane) const {
    if (auto h = lane_half(a, lane)) return *h;
    Access l = a;
    if (const Var* lv = m_win.lane_atom())
        for (auto& off : l.win.off)
            if (auto it = off.terms.find(lv); it != off.terms.end()) {
                off.c += it->second * lane;
                off.terms.erase(it);
            }
    return l;
}

bool GmSync::overlap_in_one_cluster(const Access& a, const Access& b,
                                    const std::function<bool(const GmWindow&, const GmWindow&)>& meet) const {
    // Conditions on the scalar parameters that no launch meets both of (collect's path facts): never together.
    if (facts_disjoint(a, b)) return false;
    // The lane index: each access that holds it on either lane (at_lane: its value and, halved, its half).
    if (holds_lane(a) || holds_lane(b)) {
        const bool la = holds_lane(a), lb = holds_lane(b);
        for (int x = 0; x < (la ? 2 : 1); ++x)
            for (int y = 0; y < (lb ? 2 : 1); ++y)
                if (overlap_in_one_cluster(la ? at_lane(a, x) : a, lb ? at_lane(b, y) : b, meet)) return true;
        return false;
    }
    if (!a.blocks && !b.blocks) return meet(a.win, b.win);
    // Either runs in some clusters only (`if blk == 0:`): both in one cluster x, the block index x in both.
    for (int64_t x = 0; x < m_win.blocks(); ++x) {
        const size_t k = static_cast<size_t>(x);
        if ((a.blocks && !(*a.blocks)[k]) || (b.blocks && !(*b.blocks)[k])) continue;
        if (meet(m_win.at_block(a.win, x), m_win.at_block(b.win, x))) return true;
    }
    return false;
}

bool GmSync::overlap_carried(const Access& a, const Access& b, const LoopAt& lp) const {
    if (!sequential(*lp.loop)) return false;
    auto n = trips(*lp.loop);
    if (n && *n <= 1) return false;
    int64_t far = n ? *n - 1 : (int64_t{1} << 40);
    std::set<const Var*> shared;
    for (auto& l : common_loops(a, b))
        if (l.depth < lp.depth && l.loop->loop_kind != LoopKind::SplitAiv) shared.insert(l.loop->loop_var.get());
    return overlap_in_one_cluster(a, b, [&](const GmWindow& wa, const GmWindow& wb) {
        return WindowAnalysis::may_overlap(wa, wb, shared, lp.loop, -far, -1, m_win);
    });
}

}  // namespace cvsim::passes::gmsync
