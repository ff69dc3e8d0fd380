// gm_sync_c2v: what `--c2v complete` orders beyond upstream (gm_sync.h has the pass).
//
// Upstream fences a C2V dependency only when its producer store is unique and the consumer sits in the
// store's block or below it, with no publication fence; it leaves several producer stores, a nested store,
// loop-carried RAW and a cube store followed by a vector store into the same rows open. `complete` orders
// each of these C2V (cube access first) dependencies, and a cube load followed by a vector store where
// --v2c does not, with fence() + syncall(mix) (the SHARED fence publishes both lanes' writes; the barrier
// dominates the second access and post-dominates the first in their common block; vector-first pairs are
// V2C, --v2c's), and publishes the token's FIXP store with a cube-side fence before tpush_to_aiv. Barriers are
// shared: one per (block, index) serves every pair ordered there, and a pair a planned barrier already
// orders gets nothing more.
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes {

std::string_view c2v_policy_name(C2VPolicy p) {
    return p == C2VPolicy::Complete ? "complete" : "upstream";
}

std::optional<C2VPolicy> c2v_policy_from_name(std::string_view n) {
    for (auto p : {C2VPolicy::Upstream, C2VPolicy::Complete})
        if (c2v_policy_name(p) == n) return p;
    return std::nullopt;
}

}  // namespace cvsim::passes

namespace cvsim::passes::gmsync {

void GmSync::c2v_order_at(Block* b, size_t index, const SourceLoc& loc, const std::string& what) {
    int before = m_stats.barriers;
    place_barrier(b, index, loc);
    if (m_stats.barriers != before) {
        ++m_stats.c2v_orders;
        m_barrier_units.back().counter2 = &m_stats.c2v_orders;
    }
    m_stats.log.push_back(what);
}

std::optional<size_t> GmSync::c2v_order_pair(const Access& s, const Access& l, Block* b, size_t d, size_t il, bool war,
                                             size_t il_last, const std::string& what) {
    bool unique = producer_stores(s) == 1;
    c2v_order_at(b, il, l.stmt->loc,
                 what + " ordered with fence + syncall (--c2v complete: " +
                     (unique ? "the store is nested deeper than the load" : "several producer stores") + ")");
    if (war)
        c2v_order_at(b, il_last + 1, l.stmt->loc,
                     what + " loop-carried WAR ordered with a second barrier (--c2v complete)");
    return d;
}

// Every pair of a cube store and a vector store whose windows may overlap, the cube's first in execution
// order (the vector-first pair is V2C: order_v2c_waw): the later one (in program order, same iteration)
// waits for the earlier one through a barrier before its statement in the block where the two diverge; in
// a loop, the earlier one of the next iteration also waits for the later one (a barrier before the earlier
// store's statement in the innermost carrying loop's body).
void GmSync::order_waw() {
    for (size_t i = 0; i < m_acc.size(); ++i) {
        const Access& a = m_acc[i];
        if (!a.store || a.origins.empty()) continue;
        for (size_t j = i + 1; j < m_acc.size(); ++j) {
            const Access& w = m_acc[j];
            if (!w.store || w.lane == a.lane || !intersects(a.origins, w.origins)) continue;
            if (both_atomic_add(a, w)) continue;  // atomic adds to the same bytes commute: no hazard (DECISIONS)
            std::string tensor = name_of(a.origins);
            Order ord = compare(a.path, w.path);
            // Same iteration: a before w in program order.
            if (ord == Order::Before && a.lane == Side::Cube && overlap_same(a, w)) {
                size_t d = 0;
                while (d < a.path.size() && d < w.path.size() && a.path[d] == w.path[d]) ++d;
                Block* b = a.path[d].first;
                size_t ia = a.path[d].second, iw = w.path[d].second;
                std::string what = fmt::format("{} -> {} {}: write-after-write of the cube and vector lanes", where(a),
                                               where(w), tensor);
                if (already_ordered(*b, ia, iw, a, w)) {
                    ++m_stats.already_ordered;
                    m_stats.log.push_back(what + " already ordered, nothing added");
                    publish_after(a, &w);
                } else if (planned_barrier(b, ia + 1, iw)) {
                    m_stats.log.push_back(what + " ordered by the barrier placed for an earlier pair");
                } else {
                    c2v_order_at(b, iw, w.stmt->loc, what + " ordered with fence + syncall (--c2v complete)");
                }
            }
            // Across iterations: w of iteration k before a (or a before w) of a later one.
            const std::pair<const Access*, const Access*> dirs[2] = {{&a, &w}, {&w, &a}};
            for (const auto& [first, then] : dirs) {
                if (first->lane != Side::Cube) continue;  // V2C
                const LoopAt* carry = nullptr;
                auto loops = common_loops(*first, *then);
                for (auto& lp : loops)
                    if (overlap_carried(*first, *then, lp)) carry = &lp;
                if (!carry) continue;
                size_t D = carry->depth;
                if (barrier_after(*first, D) || barrier_before(*then, D)) continue;  // a barrier fences both lanes
                if (carried_ordered(*first, *then, D)) {
                    // What orders it (a transport of the next iteration, an author flag pair) covers the
                    // first store's completion only: published as in the same-iteration case (SPEC 4.5/6).
                    publish_after(*first, then);
                    continue;
                }
                std::string what = fmt::format(
                    "{} -> {} {}: write-after-write of the cube and vector lanes (loop-carried, line {} loop)",
                    where(*first), where(*then), tensor, carry->loop->loc.line);
                c2v_order_at(then->path[D].first, then->path[D].second, then->stmt->loc,
                             what + " ordered with fence + syncall (--c2v complete)");
            }
        }
    }
}

}  // namespace cvsim::passes::gmsync
