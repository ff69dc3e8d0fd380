// gm_sync_pair: pairing each store with its loads and what each pair needs, per policy (gm_sync.h).
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes::gmsync {

bool GmSync::depends_later(const Access& s, const Access& c) const {
    if (overlap_same(s, c)) return true;
    for (auto& lp : common_loops(s, c))
        if (overlap_carried(s, c, lp)) return true;
    return false;
}

void GmSync::pair_and_place() {
    // Stores in the order of their first later dependent access (then program order), property 4: the
    // ordering of a pair goes right before its consumer, so the pair that ends first is placed first and
    // its barrier covers the pairs whose store precedes it and whose consumer follows it (greedy interval
    // point cover; before, an outer pair placed first got a barrier of its own).
    std::vector<std::pair<size_t, size_t>> order;  // (first dependent access index, store index)
    for (size_t i = 0; i < m_acc.size(); ++i) {
        const Access& s = m_acc[i];
        if (!s.store || s.origins.empty()) continue;
        size_t first = m_acc.size();
        for (size_t j = i + 1; j < m_acc.size() && first == m_acc.size(); ++j)
            if (opposite(s, m_acc[j]) && compare(s.path, m_acc[j].path) == Order::Before && depends_later(s, m_acc[j]))
                first = j;
        order.push_back({first, i});
    }
    std::stable_sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [first_dep, i] : order) {
        const Access& s = m_acc[i];
        // Every later load that may read what s wrote, in program order. The first one is paired; a later
        // one is covered when an ordering placed for an earlier pair sits in a block enclosing both, before
        // the later load's statement there (it runs after s and before that statement on every path).
        // Otherwise it is a pair of its own: a first load in one arm of a branch orders nothing for a load
        // after the branch.
        std::optional<size_t> covered;
        std::set<const Access*> war_done;
        std::vector<std::pair<size_t, const Access*>> cover;  // (depth, the load whose pair was ordered there)
        for (const Access& c : m_acc) {
            if (!opposite(s, c) || compare(s.path, c.path) != Order::Before || !depends_later(s, c)) continue;
            bool done = false;
            for (const auto& [d, prev] : cover)
                if (c.path.size() > d && prev->path.size() > d && c.path[d].first == prev->path[d].first &&
                    c.path[d].second >= prev->path[d].second)
                    done = true;
            if (done) continue;
            if (auto r = handle_pair(s, c, war_done)) {
                cover.push_back({*r, &c});
                covered = covered ? std::max(*covered, *r) : *r;
            }
        }
        handle_carried(s, covered);
        handle_war(s, war_done);
    }
}

int GmSync::producer_stores(const Access& s) const {
    int n = 0;
    for (const auto& a : m_acc)
        if (a.store && a.lane == s.lane && intersects(a.origins, s.origins)) ++n;
    return n;
}

void GmSync::handle_carried(const Access& s, std::optional<size_t> covered) {
    bool v2c = s.lane == Side::Vector;
    for (const Access& c : m_acc) {
        if (!opposite(s, c) || compare(s.path, c.path) == Order::Before) continue;
        const LoopAt* carry = nullptr;
        auto loops = common_loops(s, c);
        for (auto& lp : loops)
            if (overlap_carried(s, c, lp)) carry = &lp;  // innermost carrying loop
        if (!carry) continue;
        if (covered && carry->depth <= *covered) continue;
        size_t D = carry->depth;
        Block* lb = s.path[D].first;
        size_t ic = c.path[D].second;
        // Already ordered across the back edge: after s's statement or before c's statement.
        bool ordered = carried_ordered(s, c, D);
        std::string tensor = name_of(s.origins);
        std::string what = fmt::format("{} -> {} {}: {} (loop-carried, line {} loop)", where(s), where(c), tensor,
                                       v2c ? "V2C" : "C2V", carry->loop->loc.line);
        if (ordered) {
            ++m_stats.already_ordered;
            // As in handle_pair: what orders it covers the store's completion only (SPEC 4.5/6).
            if (v2c)
                ordered_v2c_store(s, c);
            else if (complete())
                publish_after(s, &c);
            m_stats.log.push_back(what + " already ordered, nothing added");
            continue;
        }
        if (barrier_after(s, D) || barrier_before(c, D) || trace_planned_orders(s, c))
            continue;  // a barrier this pass placed
        if (!v2c && complete()) {
            c2v_order_at(lb, ic, c.stmt->loc, what + " ordered with fence + syncall (--c2v complete)");
            continue;
        }
        if (!v2c) {
            ++m_stats.unfenced;
            m_stats.log.push_back(what + " left unfenced as upstream does (loop-carried C2V)");
            return;
        }
        switch (m_opt.v2c) {
            case V2CPolicy::Off:
                ++m_stats.unfenced;
                m_stats.log.push_back(what + " left unfenced (--v2c off)");
                return;
            case V2CPolicy::Reject:
                if (dry_reject(c.stmt->loc)) continue;  // recorded (the plan of the other pairs goes on)
                raise(codes::kV2cUnfenced, c.stmt->loc,
                      fmt::format("cube load of '{}' reads GM written by the vector store at {} in an earlier "
                                  "iteration of the loop at line {}, "
                                  "with nothing ordering them",
                                  tensor, s.stmt->loc.str(), carry->loop->loc.line),
                      "insert pl.system.syncall in the loop body before the cube consumer (or compile with --v2c "
                      "fence)");
            case V2CPolicy::Fence:
            case V2CPolicy::Syncall:
                if (m_opt.v2c == V2CPolicy::Fence) {
                    ++m_stats.fallbacks;
                    m_stats.log.push_back(what + " has no balanced fence placement (loop-carried), barrier instead");
                } else {
                    m_stats.log.push_back(what + " ordered with fence + syncall");
                }
                place_barrier(lb, ic, c.stmt->loc);
                break;
        }
    }
}

bool GmSync::barrier_before(const Access& a, size_t from) const {
    for (size_t k = from; k < a.path.size(); ++k)
        if (planned_barrier(a.path[k].first, 0, a.path[k].second)) return true;
    return false;
}

bool GmSync::barrier_after(const Access& a, size_t from) const {
    for (size_t k = from; k < a.path.size(); ++k)
        if (planned_barrier(a.path[k].first, a.path[k].second + 1, a.path[k].first->size())) return true;
    return false;
}

bool GmSync::carried_ordered(const Access& first, const Access& then, size_t D) const {
    Block* lb = first.path[D].first;
    size_t i_f = first.path[D].second, i_t = then.path[D].second;
    for (size_t k = 0; k < lb->size(); ++k)
        if ((k > i_f || k < i_t) && orders(*(*lb)[k], first)) return true;
    if (flags_order(*lb, i_f, i_t, first, then)) return true;
    auto t = trace_ordered(first, then);
    return t && *t != TraceOrder::Unordered;
}

void GmSync::handle_war(const Access& s, const std::set<const Access*>& done) {
    const bool v2c = s.lane == Side::Cube;  // the first access, the load, is the vector's
    for (const Access& c : m_acc) {
        if (!opposite(s, c) || done.count(&c)) continue;
        auto loops = common_loops(c, s);
        const LoopAt* carry = nullptr;
        for (auto& lp : loops)
            if (overlap_carried(c, s, lp)) carry = &lp;
        bool same = compare(c.path, s.path) == Order::Before && overlap_same(c, s);
        if (!carry && !same) continue;
        size_t d = 0;
        while (d < c.path.size() && d < s.path.size() && c.path[d] == s.path[d]) ++d;
        Block* cb = s.path[d].first;
        size_t i_c = c.path[d].second, i_s = s.path[d].second;
        bool need_carry = carry && !carried_ordered(c, s, carry->depth) && !barrier_after(c, carry->depth) &&
                          !barrier_before(s, carry->depth);
        bool need_same = same && !already_ordered(*cb, i_c, i_s, c, s) && !planned_barrier(cb, i_c + 1, i_s);
        // Over the unrolled function a planned barrier runs between every load instance and the next
        // overlapping store instance (both the same iteration's and a later one's).
        if ((need_carry || need_same) && trace_planned_orders(c, s)) {
            m_stats.log.push_back(
                fmt::format("{} -> {} {}: write-after-read ordered by the barriers planned (unrolled)", where(c),
                            where(s), name_of(s.origins)));
            continue;
        }
        if (!need_carry && !need_same) continue;
        std::string tensor = name_of(s.origins);
        std::string what =
            fmt::format("{} -> {} {}: {} write-after-read{}", where(c), where(s), tensor, v2c ? "V2C" : "C2V",
                        carry ? fmt::format(" (loop-carried, line {} loop)", carry->loop->loc.line)
                              : std::string(" (same iteration)"));
        if (!v2c && complete() && (m_opt.v2c == V2CPolicy::Off || m_opt.v2c == V2CPolicy::Reject)) {
            c2v_order_at(cb, i_s, s.stmt->loc,
                         what + " ordered with fence + syncall before the store (--c2v complete)");
            continue;
        }
        switch (m_opt.v2c) {
            case V2CPolicy::Off:
                ++m_stats.unfenced;
                m_stats.log.push_back(what + " left unfenced (--v2c off)");
                if (v2c) continue;
                return;
            case V2CPolicy::Reject:
                if (dry_reject(s.stmt->loc)) continue;  // recorded (the plan of the other pairs goes on)
                if (v2c)
                    raise(codes::kV2cUnfenced, s.stmt->loc,
                          fmt::format("cube store of '{}' overwrites GM that the vector load at {} reads{}, with "
                                      "nothing ordering them",
                                      tensor, c.stmt->loc.str(), carry && !same ? " in an earlier iteration" : ""),
                          "insert pl.system.syncall between the vector load and the cube store (or compile with "
                          "--v2c fence)");
                raise(codes::kV2cUnfenced, s.stmt->loc,
                      fmt::format("vector store of '{}' overwrites GM that the cube load at {} reads{}, with "
                                  "nothing ordering them",
                                  tensor, c.stmt->loc.str(), carry ? " in an earlier iteration" : ""),
                      "insert pl.system.syncall before the vector store (or compile with --v2c fence)");
            case V2CPolicy::Fence:
            case V2CPolicy::Syncall: {
                // A V2C WAR whose load runs before the store in the common block: a token of the loaded tile
                // (it also orders later iterations' stores: they follow the pop on the cube).
                if (v2c && m_opt.v2c == V2CPolicy::Fence && token_ring_free(true) && i_c < i_s &&
                    c.path.size() == d + 1 && vector_accesses(c) == 1 && !c.stmt->targets.empty() &&
                    c.call->op->code == OpCode::Load) {
                    place_fence(c, s, cb, i_c, i_s, true);
                    ++m_stats.v2c_fences;
                    m_stats.log.push_back(what + " fenced (tpush_to_aic / tpop_from_aiv)");
                    continue;
                }
                // Under fence, a WAR carried only across iterations (the load later in the body than the
                // store) takes the reverse flag pair of place_war_flags instead of a barrier.
                Block* lb = carry ? s.path[carry->depth].first : nullptr;
                auto owner = lb ? m_owner.find(lb) : m_owner.end();
                bool loop_body = owner != m_owner.end() && owner->second && &owner->second->body == lb;
                // (On a5 with both AIV lanes, place_war_flags sets and waits one flag per lane, issue 10.7.)
                if (m_opt.v2c == V2CPolicy::Fence && !need_same && loop_body &&
                    c.path[carry->depth].second > s.path[carry->depth].second) {
                    place_war_flags(s, c, lb, s.path[carry->depth].second, c.path[carry->depth].second);
                    m_stats.log.push_back(what + " ordered with sync_set / sync_wait");
                    break;
                }
                place_barrier(cb, i_s, s.stmt->loc);
                ++m_stats.war_orders;
                if (v2c && m_opt.v2c == V2CPolicy::Fence) {
                    ++m_stats.fallbacks;
                    m_stats.log.push_back(what + " has no balanced fence placement, barrier instead");
                } else {
                    m_stats.log.push_back(what + " ordered with fence + syncall before the store");
                }
                break;
            }
        }
    }
}

std::optional<size_t> GmSync::handle_pair(const Access& s, const Access& l, std::set<const Access*>& war_done) {
    bool v2c = s.lane == Side::Vector;
    // Common block: first depth where the paths diverge.
    size_t d = 0;
    while (d < s.path.size() && d < l.path.size() && s.path[d] == l.path[d]) ++d;
    Block* b = s.path[d].first;
    size_t is = s.path[d].second, il = l.path[d].second;
    std::string tensor = name_of(s.origins);
    std::string what = fmt::format("{} -> {} {}: {}", where(s), where(l), tensor, v2c ? "V2C" : "C2V");
    // A token carries the store's tile: a scalar write (pl.tensor.write) has none, so it takes a barrier.
    bool direct = s.path.size() == d + 1 && s.call->op->code == OpCode::Store;
    bool unique = producer_stores(s) == 1;
    // Loop-carried WAR: the next iteration's store must wait for every consumer-lane load of the tensor in
    // this iteration that may overlap it, so the reverse order goes after the last such statement.
    bool war = false;
    size_t il_last = il;
    std::set<const Access*> war_loads;
    for (const Access& c : m_acc) {
        if (!opposite(s, c) || c.path.size() <= d) continue;
        bool inside = c.path[d].first == b;
        for (size_t k = 0; k < d && inside; ++k) inside = c.path[k] == s.path[k];
        if (!inside || c.path[d].second <= is) continue;
        bool carried = false;
        for (auto& lp : common_loops(c, s))
            if (lp.depth <= d && overlap_carried(c, s, lp)) carried = true;
        if (!carried) continue;
        // Over the unrolled function no instance of c precedes an overlapping instance of s unordered
        // (e.g. both in an arm only one iteration takes): nothing to order.
        if (auto t = trace_ordered(c, s); t && *t != TraceOrder::Unordered) continue;
        war = true;
        war_loads.insert(&c);
        il_last = std::max(il_last, c.path[d].second);
    }
    // A barrier planned for another pair in b after the last such load, or before the store (also inside
    // an inner loop that surely runs), orders a later iteration's store after them (property 4).
    if (war && (planned_barrier(b, il_last + 1, b->size()) || planned_barrier(b, 0, is))) {
        war = false;
        war_done = war_loads;
        m_stats.log.push_back(what + " loop-carried WAR ordered by a barrier placed for an earlier pair");
    }
    if (auto t = trace_ordered(s, l); t && *t == TraceOrder::Independent) {
        m_stats.log.push_back(
            what + ": no instance of the load may read what an instance of the store wrote before it, nothing added");
        return std::nullopt;
    }
    bool after_store = true;
    if (already_ordered(*b, is, il, s, l, &after_store)) {
        ++m_stats.already_ordered;
        // Publication (SPEC 4.5/6): an author transport, flag or barrier orders the store's completion,
        // not its visibility; under fence/syncall the vector lane also fences right after the store, so
        // the ordering holds with a GM visibility delay too (reject/off keep the program as written).
        // (reject with a visibility delay: an error unless the program publishes the store).
        if (v2c)
            ordered_v2c_store(s, l);
        else if (complete())
            publish_after(s, &l);
        auto owner = m_owner.find(b);
        bool loop_body = owner != m_owner.end() && owner->second && owner->second->kind == StmtKind::For &&
                         &owner->second->body == b;
        if (war && v2c && m_opt.v2c == V2CPolicy::Fence && loop_body) {
            // The author ordered the read after the write; the next iteration's write still waits for it.
            place_war_flags(s, l, b, is, il_last);
            war_done = war_loads;
            m_stats.log.push_back(what + " already ordered; loop-carried WAR ordered with sync_set / sync_wait");
            return after_store ? std::optional<size_t>(d) : std::nullopt;
        }
        m_stats.log.push_back(what + " already ordered, nothing added");
        return after_store ? std::optional<size_t>(d) : std::nullopt;
    }
    if (planned_barrier(b, is + 1, il)) {
        m_stats.log.push_back(what + " ordered by the barrier placed for an earlier pair");
        return d;
    }
    // Over the unrolled function a planned barrier runs between each instance of the load and the latest store
    // instance it may read: that orders this load only, not the later loads of the block (which may read a later
    // store instance, with no barrier after it: a barrier in the next iteration of an inner loop orders the load
    // of rows its first iteration stored, not the load of rows its last one stored; hunt9 steps 1110, E-RACE-RAW
    // under fence / syncall with --c2v complete), as for the trace's own orderings above.
    if (trace_planned_orders(s, l)) {
        m_stats.log.push_back(what + " ordered by the barriers planned for earlier pairs (unrolled)");
        return std::nullopt;
    }
    if (!v2c) {
        // Upstream's pairing (expand_mixed_kernel_pass.cpp) collects tile.store -> tile.load only: a vector
        // consumer of another kind (pl.tensor.read, pl.tile.mgather) is left unfenced under --c2v upstream.
        if (!complete() && l.call->op->code != OpCode::Load) {
            ++m_stats.unfenced;
            m_stats.log.push_back(what +
                                  " left unfenced as upstream does (upstream pairs a cube tile.store with a vector "
                                  "tile.load only, not pl." +
                                  l.call->op->name() + ")");
            return std::nullopt;
        }
        if (direct && unique && (token_ring_free(false) || !complete())) {
            place_fence(s, l, b, is, il, false);
            ++m_stats.c2v_fences;
            m_stats.log.push_back(what + " fenced (tpush_to_aiv / tpop_from_aic)");
            return d;  // its loop-carried WAR (the vector's read first) is V2C: handle_war
        }
        if (complete()) return c2v_order_pair(s, l, b, d, il, /*war=*/false, il_last, what);
        ++m_stats.unfenced;
        m_stats.log.push_back(what +
                              " left unfenced as upstream does (no unique producer store in the consumer's block)");
        return std::nullopt;
    }
    switch (m_opt.v2c) {
        case V2CPolicy::Off:
            ++m_stats.unfenced;
            m_stats.log.push_back(what + " left unfenced (--v2c off)");
            return std::nullopt;
        case V2CPolicy::Reject:
            if (dry_reject(l.stmt->loc)) return std::nullopt;
            raise(codes::kV2cUnfenced, l.stmt->loc,
                  fmt::format("cube load of '{}' reads GM written by the vector store at {} with nothing ordering them",
                              tensor, s.stmt->loc.str()),
                  "insert pl.system.syncall between the producing region and the cube consumer (or compile with "
                  "--v2c fence)");
        case V2CPolicy::Fence:
        case V2CPolicy::Syncall: {
            // Under syncall, a barrier where the clusters arrive unequally often (a loop around it with a
            // different trip count per cluster: `pl.range(blk, n, 2)`) would deadlock the launch; the pair is
            // within one cluster, so the token fence orders it instead (hunt14).
            const bool fence_it = m_opt.v2c == V2CPolicy::Fence || !balanced_in(l, b);
            if (fence_it && direct && unique && token_ring_free(true)) {
                place_fence(s, l, b, is, il, true);
                ++m_stats.v2c_fences;
                m_stats.log.push_back(what +
                                      (m_opt.v2c == V2CPolicy::Syncall
                                           ? " fenced (tpush_to_aic / tpop_from_aiv): a loop around the place of "
                                             "a barrier runs a different number of trips in different clusters"
                                           : " fenced (tpush_to_aic / tpop_from_aiv)"));
                if (war) {
                    place_war_flags(s, l, b, is, il_last);
                    war_done = war_loads;
                    m_stats.log.push_back(what + " loop-carried WAR ordered with sync_set / sync_wait");
                }
                return d;
            }
            if (m_opt.v2c == V2CPolicy::Fence) {
                ++m_stats.fallbacks;
                m_stats.log.push_back(what + " has no balanced fence placement (" +
                                      (s.call->op->code != OpCode::Store ? (s.call->op->code == OpCode::Mscatter
                                                                                ? "a scatter is not a plain store"
                                                                                : "a scalar write has no tile to pass")
                                       : !token_ring_free(true) ? "hand-written transports share the token's ring"
                                       : unique                 ? "the store is nested deeper than the load"
                                                                : "several producer stores") +
                                      "), barrier instead");
            }
            place_barrier(b, il, l.stmt->loc);
            if (m_opt.v2c == V2CPolicy::Syncall) m_stats.log.push_back(what + " ordered with fence + syncall");
            if (war && trace()) {
                // Decided once every read-after-write is placed (place_deferred_war_barriers): a planned
                // barrier (this one, in a later iteration of an inner loop, or a later pair's) may order it
                // over the unrolled function (property 4).
                m_deferred_war.push_back({b, il_last + 1, l.stmt->loc, &s, war_loads, what});
                war_done = war_loads;
            } else if (war) {
                // The next iteration's store must wait until this iteration's load: a second barrier
                // after the consumer's statement.
                place_barrier(b, il_last + 1, l.stmt->loc);
                war_done = war_loads;
                ++m_stats.war_orders;
                m_stats.log.push_back(what + " loop-carried WAR ordered with a second barrier");
            }
            return d;
        }
    }
    return std::nullopt;
}

}  // namespace cvsim::passes::gmsync
