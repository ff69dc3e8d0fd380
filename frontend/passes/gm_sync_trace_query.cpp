// gm_sync_trace, queries: what the enumeration (gm_sync_trace.cpp) says of a pair (ordered, published, ordered by
// what the plan inserts), ring back-pressure, and the plan's barriers and fences between two statements.
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

// The slots of each ring when the back-pressure rule of trace_between applies, 0 otherwise: the rings are
// the ones the expander sets up (no hand-written pipe setup: their slot_num is the function's or
// sync.auto_slot_num). Every AIV lane pops each cube push and frees its pop (a split only changes which
// half a lane takes), and a cube push waits for every lane's free, so the rule holds for either lane of a
// split or two-lane function; a transport inside a lane's own branch is uncertain in the trace (rbad).
int64_t GmSync::back_pressure_slots() const {
    if (m_bp_off) return 0;
    if (m_bp_slots) return *m_bp_slots;
    int64_t n = m_f.slot_num().value_or(m_opt.auto_slot_num);
    walk(m_f.body, [&](const StmtPtr& st) {
        const Expr* e = stmt_call(*st);
        if (e && (e->op->code == OpCode::AicInitializePipe || e->op->code == OpCode::AivInitializePipe ||
                  e->op->code == OpCode::ReserveBuffer || e->op->code == OpCode::ImportPeerBuffer))
            n = 0;
    });
    m_bp_slots = std::max<int64_t>(n, 0);
    return *m_bp_slots;
}

// Calls f(i, j) for each instance j of `then` (trace index) that may conflict with an earlier instance of
// `first`, with i the latest such instance, in trace order, until f returns false. Returns false when f did
// (true otherwise); `any` is set when some pair was visited. Checking the latest instance suffices for what
// the callers look for (an ordering after it also follows every earlier one on that core).
bool GmSync::for_each_latest(const Access& first, const Access& then, const std::function<bool(size_t, size_t)>& f,
                             bool* any) const {
    const std::vector<TraceEv>& tr = m_trace;
    std::vector<size_t> firsts;
    for (size_t j = 0; j < tr.size(); ++j) {
        if (tr[j].s == first.stmt.get()) {
            firsts.push_back(j);
            continue;
        }
        if (tr[j].s != then.stmt.get()) continue;
        size_t latest = SIZE_MAX;
        for (size_t q = firsts.size(); q-- > 0;)
            if (instance_overlap(first, tr[firsts[q]], then, tr[j])) {
                latest = firsts[q];
                break;
            }
        if (latest == SIZE_MAX) continue;
        if (any) *any = true;
        if (!f(latest, j)) return false;
    }
    return true;
}

// Is every instance of cons that may conflict with an earlier instance of the store prod ordered after the
// latest such instance by a release that a fence of prod's lane precedes (the store published before the
// release, on every execution)? False when the function cannot be enumerated.
bool GmSync::trace_published(const Access& prod, const Access& cons) const {
    if (!prod.store || !trace()) return false;
    std::optional<Counters> c;
    return for_each_latest(prod, cons, [&](size_t latest, size_t j) {
        if (!c) c = counters(prod, cons);
        if (trace_between(latest, j, prod, cons, *c, true)) return true;
        // In the final phase, a barrier this pass plans (fence + syncall on both lanes) between the two
        // instances orders and publishes as well.
        return m_count_planned_fences && planned_barrier_between(latest, j);
    });
}

// A barrier this pass plans that surely runs after trace event `from` and before event `to`.
bool GmSync::planned_barrier_between(size_t from, size_t to) const {
    return planned_between(from, to, [&](const Block* b, size_t idx) { return m_barrier_at.count({b, idx}) > 0; });
}

// Is every instance of cons ordered after every earlier instance of prod it may conflict with? Checking the
// latest such prod instance suffices: what orders it (a set or push on its pipe after it, a drain, a
// barrier) also follows every earlier one on that core. nullopt: the function cannot be enumerated.
std::optional<GmSync::TraceOrder> GmSync::trace_ordered(const Access& prod, const Access& cons) const {
    if (!trace()) return std::nullopt;
    std::optional<Counters> c;
    bool any = false;
    bool ordered = for_each_latest(
        prod, cons,
        [&](size_t latest, size_t j) {
            if (!c) c = counters(prod, cons);
            return trace_between(latest, j, prod, cons, *c);
        },
        &any);
    if (!ordered) return TraceOrder::Unordered;
    return any ? TraceOrder::Ordered : TraceOrder::Independent;
}

// Is every instance of `then` that may conflict with an earlier instance of `first` preceded, after the latest
// such instance, by a barrier this pass plans (fence + syncall on both lanes, at the same place of the shared
// control flow) that surely runs there? False when the function cannot be enumerated.
bool GmSync::trace_planned_orders(const Access& first, const Access& then) const {
    if (!trace() || m_barrier_at.empty()) return false;
    bool any = false;
    return for_each_latest(
               first, then, [&](size_t latest, size_t j) { return planned_barrier_between(latest, j); }, &any) &&
           any;
}

// A fence of `lane` this pass plans (and has not dropped) that surely runs after trace event `from` and before
// event `to`: planned at a position the trace reaches in between (Mark), outside undecided branches.
bool GmSync::planned_fence_between(size_t from, size_t to, int lane) const {
    return planned_between(from, to, [&](const Block* b, size_t idx) {
        auto li = m_insert.find({const_cast<Block*>(b), idx});
        if (li == m_insert.end()) return false;
        return std::any_of(li->second.begin(), li->second.end(), [&](const StmtPtr& x) {
            return x->kind == StmtKind::Eval && is_call(*x, OpCode::Fence) &&
                   (x->pinned_lane == 0 || x->pinned_lane == lane) && !m_pub_removed.count(x.get());
        });
    });
}

// Is some definite statement position (Mark) the trace reaches after event `from` and before event `to` one
// that `at` accepts?
bool GmSync::planned_between(size_t from, size_t to, const std::function<bool(const Block*, size_t)>& at) const {
    auto lo = std::upper_bound(m_marks.begin(), m_marks.end(), from, [](size_t v, const Mark& m) { return v < m.pos; });
    for (auto it = lo; it != m_marks.end() && it->pos <= to; ++it)
        if (it->definite && at(it->b, it->idx)) return true;
    return false;
}

}  // namespace cvsim::passes::gmsync
