// gm_sync_v2c: V2C write-after-write (gm_sync.h has the pass).
//
// A cross-lane dependency is V2C when the vector lane's access runs first in execution order and the
// cube's second and one of them writes: read-after-write (pair_and_place), write-after-read (handle_war:
// a vector load, then a cube store) and write-after-write (here: a vector store, then a cube store into
// common elements, in the same iteration or a later one). --v2c governs all three alike: `fence` passes a
// token from the vector access to the cube access where the RAW rule allows one (the vector access
// directly in the block where the two diverge, the tensor's only vector access of its kind), else the
// `syncall` placement (fence() + syncall(mix) before the cube access's statement in that block, or in the
// innermost carrying loop's body for a loop-carried pair); `reject` raises E-V2C-UNFENCED naming the
// tensor and both accesses; `off` leaves them (counted as left unfenced). The cube-first direction is C2V:
// --c2v complete (gm_sync_c2v.cpp).
#include "frontend/passes/gm_sync.h"

#include "frontend/codes.h"

namespace cvsim::passes::gmsync {

int GmSync::vector_accesses(const Access& a) const {
    int n = 0;
    for (const auto& x : m_acc)
        if (x.store == a.store && x.lane == Side::Vector && intersects(x.origins, a.origins)) ++n;
    return n;
}

// The vector store p, then the cube store c (same iteration: both in b, p at ip before c at ic; loop-carried:
// b is the carrying loop's body). `d`: depth of b in both paths.
void GmSync::v2c_order_first(const Access& p, const Access& c, Block* b, size_t d, size_t ip, size_t ic,
                             const std::string& what, const char* kind) {
    switch (m_opt.v2c) {
        case V2CPolicy::Off:
            ++m_stats.unfenced;
            m_stats.log.push_back(what + " left unfenced (--v2c off)");
            return;
        case V2CPolicy::Reject:
            if (dry_reject(c.stmt->loc)) return;
            raise(
                codes::kV2cUnfenced, c.stmt->loc,
                fmt::format(
                    "cube store of '{}' overwrites GM that the vector store at {} wrote{}, with nothing ordering them",
                    name_of(p.origins), p.stmt->loc.str(), kind),
                "insert pl.system.fence() + pl.system.syncall between the vector store and the cube store (or compile "
                "with --v2c fence)");
        case V2CPolicy::Fence:
            if (*kind == '\0' && p.path.size() == d + 1 && vector_accesses(p) == 1 &&
                p.call->op->code == OpCode::Store && token_ring_free(true)) {
                place_fence(p, c, b, ip, ic, true);
                ++m_stats.v2c_fences;
                m_stats.log.push_back(what + " fenced (tpush_to_aic / tpop_from_aiv)");
                return;
            }
            ++m_stats.fallbacks;
            m_stats.log.push_back(what + " has no balanced fence placement, barrier instead");
            place_barrier(b, ic, c.stmt->loc);
            return;
        case V2CPolicy::Syncall:
            place_barrier(b, ic, c.stmt->loc);
            m_stats.log.push_back(what + " ordered with fence + syncall");
            return;
    }
}

void GmSync::order_v2c_waw() {
    const bool orders_now = m_opt.v2c == V2CPolicy::Fence || m_opt.v2c == V2CPolicy::Syncall;
    // The pairs in the order of their cube store, then of their vector store (property 4): a barrier goes right
    // before the cube store, so placing the earliest-ending interval's first lets it cover every later pair
    // whose vector store precedes it (the greedy point cover of intervals; before, a pair with an earlier
    // vector store and a later cube store got a barrier of its own that a later-placed one made redundant).
    std::vector<std::pair<const Access*, const Access*>> pairs;
    for (const Access& a : m_acc) {
        if (!a.store || a.lane != Side::Vector || a.origins.empty()) continue;
        for (const Access& w : m_acc) {
            if (!w.store || w.lane != Side::Cube || !intersects(a.origins, w.origins)) continue;
            if (both_atomic_add(a, w)) continue;  // atomic adds to the same bytes commute: no hazard (DECISIONS)
            pairs.push_back({&a, &w});
        }
    }
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return x.second < y.second; });
    for (const auto& [ap, wp] : pairs) {
        {
            const Access& a = *ap;
            const Access& w = *wp;
            const std::string tensor = name_of(a.origins);
            bool before = compare(a.path, w.path) == Order::Before;
            bool same_ordered = false;  // the same iteration's pair is ordered inside the loops holding both
            if (before && overlap_same(a, w)) {
                size_t d = 0;
                while (d < a.path.size() && d < w.path.size() && a.path[d] == w.path[d]) ++d;
                Block* b = a.path[d].first;
                size_t ia = a.path[d].second, iw = w.path[d].second;
                std::string what =
                    fmt::format("{} -> {} {}: V2C write-after-write (same iteration)", where(a), where(w), tensor);
                bool token = false;  // a token planned for a's own RAW pair pops before w
                for (const auto& t : m_tokens) token |= t.v2c && t.b == b && t.is == ia && t.il <= iw;
                if (already_ordered(*b, ia, iw, a, w)) {
                    ++m_stats.already_ordered;
                    m_stats.log.push_back(what + " already ordered, nothing added");
                    ordered_v2c_store(a, w);
                } else if (planned_barrier(b, ia + 1, iw) || token || trace_planned_orders(a, w)) {
                    m_stats.log.push_back(what + " ordered by the " + (token ? "token" : "barrier") +
                                          " placed for an earlier pair");
                } else {
                    v2c_order_first(a, w, b, d, ia, iw, what, "");
                }
                same_ordered = orders_now;
            }
            // Across iterations: a in an earlier iteration than w (w earlier in the body, a sibling arm, or
            // an overlap that only a later iteration has).
            const LoopAt* carry = nullptr;
            auto loops = common_loops(a, w);
            for (auto& lp : loops)
                if (overlap_carried(a, w, lp)) carry = &lp;
            if (!carry || same_ordered) continue;
            size_t D = carry->depth;
            std::string what = fmt::format("{} -> {} {}: V2C write-after-write (loop-carried, line {} loop)", where(a),
                                           where(w), tensor, carry->loop->loc.line);
            if (carried_ordered(a, w, D)) {
                ++m_stats.already_ordered;
                m_stats.log.push_back(what + " already ordered, nothing added");
                ordered_v2c_store(a, w);
                continue;
            }
            if (barrier_after(a, D) || barrier_before(w, D) || trace_planned_orders(a, w))
                continue;  // a barrier this pass placed
            std::string kind = fmt::format(" in an earlier iteration of the loop at line {}", carry->loop->loc.line);
            v2c_order_first(a, w, w.path[D].first, D, a.path[D].second, w.path[D].second, what, kind.c_str());
        }
    }
}

static const char* read_name(const Access& a) {
    return a.call && a.call->op->code == OpCode::Load ? "load" : "pl.tensor.read";
}

void GmSync::reject_vector_pair(const Access& x, const Access& y, const std::string& when) const {
    if (m_opt.v2c != V2CPolicy::Reject) return;
    if (dry_reject(y.stmt->loc)) return;  // a re-check: recorded, and place_barrier then plans nothing
    raise(codes::kV2cUnfenced, y.stmt->loc,
          fmt::format("vector {} of '{}' {} GM that the vector {} at {} {}{} on the other AIV lane ({}), with nothing "
                      "ordering them",
                      y.store ? "store" : read_name(y), name_of(x.origins), y.store ? "overwrites" : "reads",
                      x.store ? "store" : read_name(x), x.stmt->loc.str(), x.store ? "wrote" : "reads", when,
                      m_opt.target == Target::A2A3 && !m_split ? "a2a3: lane 1's replay issues the scalar read"
                      : m_f.split_mode() != SplitMode::NONE && x.call->op->code != OpCode::TensorRead &&
                              y.call->op->code != OpCode::TensorRead
                          ? "the split gives each AIV lane its half of the tile"
                          : "both AIV lanes run the function"),
          "insert pl.system.fence() + pl.system.syncall(core_type=\"mix\") before it (or compile with --v2c fence)");
}

void GmSync::order_vector_reads() {
    if (m_opt.v2c == V2CPolicy::Off) return;
    if (m_opt.target != Target::A2A3 && !m_split && !a5_two_lanes()) return;  // a5 unsplit: AIV0 only
    auto barrier_between = [&](const Block& b, size_t from, size_t to) {      // an author syncall(mix) in b[from, to)
        for (size_t i = from; i < to && i < b.size(); ++i)
            if (const Expr* c = stmt_call(*b[i]); c && c->op->code == OpCode::Syncall && call_side(*c) == Side::Shared)
                return true;
        return false;
    };
    // A split function's halved tile load/store on lane L (lane_half); in PyPTO's per-lane form (attr split_aiv
    // beside split: the split leaves the tiles whole, each lane runs the function at its lane index) a tile
    // load/store as lane L runs it (at_lane; it was halved as well, which only the lane index's being unknown kept
    // from missing a pair). nullopt: neither (two accesses the split does not share between the lanes).
    auto lane_access = [&](const Access& a, int lane) -> std::optional<Access> {
        if (halved_function()) return lane_half(a, lane);
        if (m_f.split_mode() == SplitMode::NONE) return std::nullopt;
        const Expr& c = *a.call;
        const ExprPtr& t = c.op->code == OpCode::Store ? arg(c, "tile") : nullptr;
        const bool tile = (t && t->type.kind == TypeKind::Tile && t->type.mem == Mem::Vec) ||
                          (c.op->code == OpCode::Load && c.type.mem == Mem::Vec);
        return tile ? std::optional<Access>(at_lane(a, lane)) : std::nullopt;
    };
    // Does x on one AIV lane meet y on the other (by `meet`, given the two accesses)?
    auto across_lanes = [&](const Access& x, const Access& y,
                            const std::function<bool(const Access&, const Access&)>& meet) {
        for (int lx = 0; lx < 2; ++lx) {
            auto a = lane_access(x, lx), b = lane_access(y, 1 - lx);
            if (a && b && meet(*a, *b)) return true;
        }
        return false;
    };
    for (const Access& x : m_acc)
        for (const Access& y : m_acc) {
            // A store against a load, or (split) two halved stores: lane 0's half of one may land on lane 1's
            // half of the other (a write-after-write the split creates).
            if (x.lane != Side::Vector || y.lane != Side::Vector || (!x.store && !y.store) ||
                !intersects(x.origins, y.origins))
                continue;
            const Access& r = x.store ? y : x;
            const bool scalar = r.call->op->code == OpCode::TensorRead;
            // A halved load against a halved store, or two halved stores: the split made the two lanes' halves a
            // cross-core pair. (Two stores of which one is not halved are not this pass's: a whole tile both
            // lanes store is a write of each lane, reported by the checker.)
            if (!scalar && !(lane_access(x, 0) && lane_access(y, 0))) continue;
            auto same = [&](const Access& a, const Access& b) { return overlap_same(a, b); };
            std::string what =
                fmt::format("{} -> {} {}: vector {} on the other AIV lane", where(x), where(y), name_of(x.origins),
                            !x.store  ? "write-after-read"
                            : y.store ? "write-after-write"
                                      : "read-after-write");
            if (compare(x.path, y.path) == Order::Before && (scalar ? overlap_same(x, y) : across_lanes(x, y, same))) {
                size_t d = 0;
                while (d < x.path.size() && d < y.path.size() && x.path[d] == y.path[d]) ++d;
                Block* b = x.path[d].first;
                size_t ix = x.path[d].second, iy = y.path[d].second;
                if (!barrier_between(*b, ix + 1, iy) && !planned_barrier(b, ix + 1, iy)) {
                    reject_vector_pair(x, y, "");
                    place_barrier(b, iy, y.stmt->loc);
                    m_stats.log.push_back(what + " (same iteration) ordered with fence + syncall");
                }
            }
            const LoopAt* carry = nullptr;
            auto loops = common_loops(x, y);
            for (auto& lp : loops) {
                auto carried = [&](const Access& a, const Access& b) { return overlap_carried(a, b, lp); };
                if (scalar ? overlap_carried(x, y, lp) : across_lanes(x, y, carried)) carry = &lp;
            }
            if (!carry) continue;
            size_t D = carry->depth;
            Block* lb = x.path[D].first;
            // After x in its iteration, or before y in the next one.
            size_t ix = x.path[D].second, iy = y.path[D].second;
            if (barrier_between(*lb, ix + 1, lb->size()) || barrier_between(*lb, 0, iy) || barrier_after(x, D) ||
                barrier_before(y, D))
                continue;
            reject_vector_pair(x, y,
                               fmt::format(" in an earlier iteration of the loop at line {}", carry->loop->loc.line));
            place_barrier(lb, y.path[D].second, y.stmt->loc);
            m_stats.log.push_back(what + fmt::format(" (loop-carried, line {} loop) ordered with fence + syncall",
                                                     carry->loop->loc.line));
        }
}

}  // namespace cvsim::passes::gmsync
