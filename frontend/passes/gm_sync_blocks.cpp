// gm_sync_blocks: dependencies between the clusters of one launch (gm_sync.h has the pass; issue 10).
//
// On a launch of `--blocks` > 1 clusters, a vector access in one cluster and a cube access in ANOTHER may
// touch a common element (gm_windows: the block index differs, scalar parameters are equal, loop variables
// as the iteration order says). The reference runs the blocks in lockstep, so such a pair must run in
// program order: the earlier one first (same iteration, or an earlier iteration of a common loop), and, in
// a loop, the later one of iteration j before the earlier one of any iteration i > j (other clusters run
// any iteration). A tpush/tpop token, a flag pair or a tile transport orders two cores of ONE cluster
// only, so nothing but a barrier (fence + syncall(mix)) orders such a pair, and only an author's syncall
// counts as already ordering it.
//
// Direction of an ordering "X before Y" (X runs first): C2V when X is a cube store, V2C otherwise (a cube
// read that a vector store must wait for is the WAR of a V2C dependency, as in the rest of the pass).
// V2C follows --v2c: fence and syncall place a barrier (fence counts it as a fallback: "crosses
// clusters"), reject raises E-V2C-UNFENCED, off leaves it. C2V: upstream leaves it, --c2v complete places
// a barrier. Placement: before the later access's statement in the block where the two diverge (it
// dominates the later access and post-dominates the earlier one); the loop-carried direction right after
// the later access's statement (as the loop-carried WAR barrier of the same-cluster pairs); accesses in
// sibling arms of a branch in a loop: after the branch (one barrier per iteration orders both ways).
// This runs before the same-cluster pairing, which then finds its pairs ordered by these barriers
// instead of adding a token as well.
#include "frontend/passes/gm_sync.h"

#include "frontend/codes.h"

namespace cvsim::passes::gmsync {

// Does every cluster run `loop` (at path `at`) equally often, as far as is known? Bounds that are the same
// in every cluster (constants, scalar parameters, ...) give one trip count; bounds affine in the block index
// are counted per cluster, and differ only when those counts do. Bounds that also read anything else
// (a parameter beside the block index) count as equal: a barrier there is placed as before, and a
// deadlock it causes is still reported (E-DEADLOCK).
bool GmSync::same_trips_everywhere(const Stmt& loop, const Path& at) const {
    auto uniform = [&](const ExprPtr& e) { return !e || m_win.uniform_across_blocks(*e); };
    if (uniform(loop.start) && uniform(loop.stop) && uniform(loop.step)) return true;
    const int nb = m_opt.blocks;
    if (nb < 1 || nb > WindowAnalysis::kMaxBlockEnum) return true;
    auto at_block = [&](const ExprPtr& e, int64_t dflt, int64_t x) -> std::optional<int64_t> {
        if (!e) return dflt;
        const Affine a = m_win.value_at(e, at);
        if (!a.ok) return std::nullopt;
        int64_t v = a.c;
        for (const auto& [atom, k] : a.terms) {
            if (!m_win.is_block_var(atom)) return std::nullopt;
            v += k * x;
        }
        return v;
    };
    std::optional<int64_t> first;
    for (int64_t x = 0; x < nb; ++x) {
        auto s = at_block(loop.start, 0, x), e = at_block(loop.stop, 0, x), st = at_block(loop.step, 1, x);
        if (!s || !e || !st || *st == 0) return true;
        const int64_t n =
            *st > 0 ? (*e > *s ? (*e - *s + *st - 1) / *st : 0) : (*s > *e ? (*s - *e - *st - 1) / -*st : 0);
        if (first && *first != n) return false;
        first = n;
    }
    return true;
}

// Do all clusters reach a barrier placed in block b (on a's path) equally often? Not when a loop around b
// surely runs a different number of trips in different clusters (`for i in pl.range(blk, 3, 2)`: cluster 0 two
// trips, cluster 1 one): the clusters with fewer trips never arrive at the others' last barriers, and the
// launch deadlocks (hunt14).
bool GmSync::balanced_in(const Access& a, const Block* b) const {
    for (size_t k = 0; k < a.path.size(); ++k) {
        if (a.path[k].first == b) return true;
        const Stmt& s = *(*a.path[k].first)[a.path[k].second];
        if (s.kind != StmtKind::For) continue;
        const Path at(a.path.begin(), a.path.begin() + static_cast<std::ptrdiff_t>(k) + 1);
        if (!same_trips_everywhere(s, at)) return false;
    }
    return false;  // (b is not on a's path)
}

struct BlockOrder {
    GmSync& g;

    // Does `s` always run a chip-wide barrier (an author syncall(mix), hard or soft)?
    bool barrier_stmt(const Stmt& s) const {
        if (const Expr* c = stmt_call(s)) return c->op->code == OpCode::Syncall && call_side(*c) == Side::Shared;
        auto any = [&](const Block& b) {
            for (const auto& x : b)
                if (barrier_stmt(*x)) return true;
            return false;
        };
        if (s.kind == StmtKind::If) return any(s.body) && any(s.orelse);
        if (s.kind == StmtKind::For) return runs_at_least_once(s) && any(s.body);
        return false;
    }

    // An author barrier in a's blocks at depths >= from: after a (after = true) or before it.
    bool author_nested(const Access& a, size_t from, bool after) const {
        for (size_t k = from; k < a.path.size(); ++k) {
            const Block& b = *a.path[k].first;
            size_t i = a.path[k].second;
            for (size_t j = after ? i + 1 : 0; j < (after ? b.size() : i); ++j)
                if (barrier_stmt(*b[j])) return true;
        }
        return false;
    }

    // Does a barrier (author or planned) run after `first` and before `then` in the same iteration?
    // d: the depth where their paths diverge (same block, first's index lower).
    bool forward_ordered(const Access& first, const Access& then, size_t d) const {
        const Block& b = *first.path[d].first;
        size_t i1 = first.path[d].second, i2 = then.path[d].second;
        for (size_t k = i1 + 1; k < i2; ++k)
            if (barrier_stmt(*b[k])) return true;
        return g.planned_barrier(&b, i1 + 1, i2) || author_nested(first, d + 1, true) ||
               author_nested(then, d + 1, false) || g.barrier_after(first, d + 1) || g.barrier_before(then, d + 1);
    }

    // Does a barrier run after `then` of iteration j and before `first` of every later iteration? D: the
    // depth of the innermost common sequential loop's body.
    bool backward_ordered(const Access& first, const Access& then, size_t D) const {
        const Block& lb = *first.path[D].first;
        size_t f = first.path[D].second, t = then.path[D].second;
        for (size_t k = 0; k < lb.size(); ++k)
            if ((k > t || k < f) && barrier_stmt(*lb[k])) return true;
        return g.planned_barrier(&lb, 0, f) || g.planned_barrier(&lb, t + 1, lb.size()) ||
               author_nested(then, D + 1, true) || author_nested(first, D + 1, false) || g.barrier_after(then, D + 1) ||
               g.barrier_before(first, D + 1);
    }

    static const char* kind(const Access& x, const Access& y) {
        if (x.store && y.store) return "write-after-write";
        return x.store ? "read-after-write" : "write-after-read";
    }

    static std::string what_access(const Access& a) {
        return fmt::format("{} {}", a.lane == Side::Cube ? "cube" : "vector", a.store ? "store" : "load");
    }

    bool balanced(const Access& x, const Access& y, const Block* b) const {
        return g.balanced_in(x, b) || g.balanced_in(y, b);
    }

    // Order x before y (x runs first) with a barrier at (b, index), as the policy of its direction says.
    // b2 (when given): a second barrier at (b2, index2), for a pair in sibling arms of one branch (each cluster
    // runs one arm, so it passes one of the two barriers).
    void order(const Access& x, const Access& y, Block* b, size_t index, const std::string& carried,
               Block* b2 = nullptr, size_t index2 = 0, const Stmt* sibling_if = nullptr) {
        const bool v2c = !(x.lane == Side::Cube && x.store);
        const std::string tensor = GmSync::name_of(x.origins);
        const std::string what = fmt::format("{} -> {} {}: {} {} across clusters{}", g.where(x), g.where(y), tensor,
                                             v2c ? "V2C" : "C2V", kind(x, y), carried);
        // A barrier where the clusters arrive unequally often would hang the launch (E-DEADLOCK from cvsim's
        // own barrier, on a kernel whose blocks may not even share a byte: the windows of a block-strided loop
        // are not told apart). Left unordered instead: the simulation decides, and a real cross-cluster
        // dependency is then reported as a race.
        if ((v2c ? g.m_opt.v2c == V2CPolicy::Fence || g.m_opt.v2c == V2CPolicy::Syncall : g.complete()) &&
            (!balanced(x, y, b) || (b2 && !balanced(x, y, b2)))) {
            ++g.m_stats.unfenced;
            g.m_stats.log.push_back(what +
                                    " left unordered: a loop around the barrier's place runs a different number of "
                                    "trips in different clusters, so a barrier there would deadlock");
            return;
        }
        if (!v2c) {
            if (g.complete()) {
                const size_t before = g.m_barrier_units.size();
                g.c2v_order_at(b, index, y.stmt->loc, what + " ordered with fence + syncall (--c2v complete)");
                if (b2) {
                    const size_t mid = g.m_barrier_units.size();
                    g.c2v_order_at(b2, index2, y.stmt->loc, what + " ordered with fence + syncall (--c2v complete)");
                    if (mid == before + 1 && g.m_barrier_units.size() == mid + 1) merge_last_two(true);
                }
            } else {
                ++g.m_stats.unfenced;
                g.m_stats.log.push_back(what + " left unfenced as upstream does");
            }
            return;
        }
        switch (g.m_opt.v2c) {
            case V2CPolicy::Off:
                ++g.m_stats.unfenced;
                g.m_stats.log.push_back(what + " left unfenced (--v2c off)");
                return;
            case V2CPolicy::Reject:
                if (g.dry_reject(y.stmt->loc)) return;
                raise(codes::kV2cUnfenced, y.stmt->loc,
                      fmt::format("{} of '{}' in one cluster {} GM that the {} at {} {} in another cluster{}, with "
                                  "nothing ordering them: the "
                                  "dependency crosses clusters, so a tpush/tpop, a flag pair or a tile transport "
                                  "(which order the cores of "
                                  "one cluster) cannot order it",
                                  what_access(y), tensor, y.store ? "overwrites" : "reads", what_access(x),
                                  x.stmt->loc.str(), x.store ? "writes" : "reads",
                                  carried.find("loop-carried") != std::string::npos ? " in an earlier iteration" : ""),
                      "insert pl.system.fence() + pl.system.syncall(core_type=\"mix\") between the two accesses (or "
                      "compile with --v2c "
                      "fence)");
            case V2CPolicy::Fence:
                ++g.m_stats.fallbacks;
                g.m_stats.log.push_back(what + " has no balanced fence placement (crosses clusters), barrier instead");
                place(b, index, b2, index2, y.stmt->loc, sibling_if);
                return;
            case V2CPolicy::Syncall:
                g.m_stats.log.push_back(what + " ordered with fence + syncall");
                place(b, index, b2, index2, y.stmt->loc, sibling_if);
                return;
        }
    }

    // The barrier at (b, index), and its sibling-arm twin at (b2, index2) when given: one unit for the final
    // re-check (removed together or kept together, so each cluster still arrives as often as the others).
    // (a sibling pair whose two positions were planned already: nothing more; else both halves, even where one
    // position holds a barrier of another pair, whose twins balance that one alone)
    void place(Block* b, size_t index, Block* b2, size_t index2, const SourceLoc& loc, const Stmt* sibling_if) {
        const size_t before = g.m_barrier_units.size();
        if (!b2) {
            g.place_barrier(b, index, loc, sibling_if);
            return;
        }
        if (g.m_rejected || !g.m_sibling_at.emplace(b, index, b2, index2).second) return;
        g.place_barrier(b, index, loc, sibling_if, false, true);
        const size_t mid = g.m_barrier_units.size();
        g.place_barrier(b2, index2, loc, sibling_if, true, true);
        if (mid == before + 1 && g.m_barrier_units.size() == mid + 1) merge_last_two(false);
    }

    // The last two barrier units as one (a sibling pair, counted once).
    void merge_last_two(bool c2v) {
        auto& units = g.m_barrier_units;
        auto& first = units[units.size() - 2].stmts;
        const auto& second = units.back().stmts;
        first.insert(first.end(), second.begin(), second.end());
        units.pop_back();
        --g.m_stats.barriers;
        if (c2v) --g.m_stats.c2v_orders;
    }

    // Already ordered by an author barrier (or one planned): counted, and the store published under the
    // policies that order (the barrier orders arrival, not visibility).
    void ordered(const Access& x, const Access& y, bool planned, const std::string& carried) {
        const bool v2c = !(x.lane == Side::Cube && x.store);
        const std::string what = fmt::format("{} -> {} {}: {} {} across clusters{}", g.where(x), g.where(y),
                                             GmSync::name_of(x.origins), v2c ? "V2C" : "C2V", kind(x, y), carried);
        if (planned) {
            g.m_stats.log.push_back(what + " ordered by the barrier placed for an earlier pair");
            return;
        }
        ++g.m_stats.already_ordered;
        g.m_stats.log.push_back(what + " already ordered by a barrier, nothing added");
        if (x.store && v2c)
            g.ordered_v2c_store(x, y, false);
        else if (x.store && g.complete())
            g.publish_after(x);
    }

    int64_t far(const Stmt& loop) const {
        auto n = GmSync::trips(loop);
        return n ? *n - 1 : (int64_t{1} << 40);
    }

    // Loops that can carry a dependency: sequential, more than one trip (or unknown).
    std::vector<GmSync::LoopAt> carrying(const Access& a, const Access& b) const {
        std::vector<GmSync::LoopAt> out;
        for (auto& l : g.common_loops(a, b)) {
            if (!GmSync::sequential(*l.loop)) continue;
            auto n = GmSync::trips(*l.loop);
            if (n && *n <= 1) continue;
            out.push_back(l);
        }
        return out;
    }

    std::set<const Var*> shared_above(const Access& a, const Access& b, size_t depth) const {
        std::set<const Var*> s;
        for (auto& l : g.common_loops(a, b))
            if (l.depth < depth && l.loop->loop_kind != LoopKind::SplitAiv) s.insert(l.loop->loop_var.get());
        return s;
    }

    static const std::vector<bool>* blocks_of(const Access& a) { return a.blocks ? &*a.blocks : nullptr; }

    // May p (in an earlier iteration of a loop holding both than q) touch an element q touches, in another
    // cluster?
    bool overlap_earlier(const Access& p, const Access& q) const {
        const int nb = g.m_opt.blocks;
        for (auto& l : carrying(p, q))
            if (WindowAnalysis::may_overlap_across_blocks(p.win, q.win, nb, g.m_win, shared_above(p, q, l.depth),
                                                          l.loop, -far(*l.loop), -1, blocks_of(p), blocks_of(q)))
                return true;
        return false;
    }

    // first and then in sibling arms (depth d) of the branch at depth d - 1, in one iteration of every loop
    // around it and in two clusters that take different arms. The reference runs the blocks in lockstep by
    // program position, in which the arms' statement indices compare (the arm itself does not), so the access
    // at the lower index in its arm runs first (a tie: the one whose statement that is, else the then-arm's, as
    // written; deeper positions hold iteration ordinals, so no one order holds there). Ordered by a barrier after
    // that access's statement in its arm and one before the other's in the other arm: each cluster takes one
    // arm, so each passes one of the two.
    void sibling_same_iteration(const Access& first, const Access& then, size_t d) {
        const Stmt& br = *(*first.path[d - 1].first)[first.path[d - 1].second];
        if (br.kind != StmtKind::If || !br.value || g.m_win.uniform_across_blocks(*br.value)) return;
        std::set<const Var*> all;
        for (auto& l : g.common_loops(first, then))
            if (l.loop->loop_kind != LoopKind::SplitAiv) all.insert(l.loop->loop_var.get());
        const bool first_then = first.path[d].first == &br.body, then_then = then.path[d].first == &br.body;
        const std::function<bool(int64_t, int64_t)> differ = [&](int64_t x, int64_t y) {
            return g.m_win.arms_may_differ(*br.value, x, first_then, y, then_then);
        };
        if (g.m_opt.blocks > WindowAnalysis::kMaxBlockEnum ||
            !WindowAnalysis::may_overlap_across_blocks(first.win, then.win, g.m_opt.blocks, g.m_win, all, nullptr, 0, 0,
                                                       blocks_of(first), blocks_of(then), &differ))
            return;
        // (At one index, an access directly in its arm is a prefix of the other's position: it goes first.)
        const size_t fi = first.path[d].second, ti = then.path[d].second;
        const bool first_runs_first =
            fi < ti || (fi == ti && !(then.path.size() == d + 1 && first.path.size() > d + 1));
        const Access& x = first_runs_first ? first : then;
        const Access& y = first_runs_first ? then : first;
        const std::string what = " (sibling arms, one iteration)";
        const bool x_after = author_nested(x, d, true) || g.barrier_after(x, d);
        const bool y_before = author_nested(y, d, false) || g.barrier_before(y, d);
        if (x_after && y_before) {
            const bool author = author_nested(x, d, true) && author_nested(y, d, false);
            ordered(x, y, !author, what);
            return;
        }
        order(x, y, x.path[d].first, x.path[d].second + 1, what, y.path[d].first, y.path[d].second, &br);
    }

    void pair(const Access& first, const Access& then) {
        const int nb = g.m_opt.blocks;
        // Cheap exclusion first: no overlap with every loop variable free.
        if (!WindowAnalysis::may_overlap_across_blocks(first.win, then.win, nb, g.m_win, {}, nullptr, 0, 0,
                                                       blocks_of(first), blocks_of(then)))
            return;
        size_t d = 0;
        while (d < first.path.size() && d < then.path.size() && first.path[d] == then.path[d]) ++d;
        if (d >= first.path.size() || d >= then.path.size()) return;
        std::vector<GmSync::LoopAt> loops;
        for (auto& l : g.common_loops(first, then))
            if (GmSync::sequential(*l.loop)) loops.push_back(l);
        if (first.path[d].first != then.path[d].first) {
            // Sibling arms of the branch at depth d - 1. In one iteration, two clusters may take different arms
            // (a condition on the block index) and run them at the same time.
            if (d > 0) sibling_same_iteration(first, then, d);
            // Across iterations, only iterations of a loop around it order them (a barrier after the branch,
            // every iteration, orders both ways).
            if (d == 0 || loops.empty() || carrying(first, then).empty()) return;
            if (!overlap_earlier(first, then) && !overlap_earlier(then, first)) return;
            Block* p = first.path[d - 1].first;
            size_t at = first.path[d - 1].second;
            const Block* lb = first.path[loops.back().depth].first;
            size_t in_lb = first.path[loops.back().depth].second;
            const std::string carried = " (sibling arms, loop-carried)";
            for (auto [x, y] : {std::make_pair(&first, &then), std::make_pair(&then, &first)}) {
                bool author = false;
                for (size_t k = 0; k < lb->size(); ++k) author |= k != in_lb && barrier_stmt(*(*lb)[k]);
                bool planned = g.planned_barrier(p, 0, p->size()) || g.planned_barrier(lb, 0, lb->size());
                if (author || planned)
                    ordered(*x, *y, !author, carried);
                else
                    order(*x, *y, p, at + 1, carried);
            }
            return;
        }
        Block* b = first.path[d].first;
        size_t i2 = then.path[d].second;
        std::set<const Var*> all;
        for (auto& l : g.common_loops(first, then))
            if (l.loop->loop_kind != LoopKind::SplitAiv) all.insert(l.loop->loop_var.get());
        // first (iteration i) before then (iteration j >= i).
        if (WindowAnalysis::may_overlap_across_blocks(first.win, then.win, nb, g.m_win, all, nullptr, 0, 0,
                                                      blocks_of(first), blocks_of(then)) ||
            overlap_earlier(first, then)) {
            bool author = false;
            if (forward_ordered(first, then, d)) {
                // (author or planned: tell them apart for the log)
                author = !(g.planned_barrier(b, first.path[d].second + 1, i2) || g.barrier_after(first, d + 1) ||
                           g.barrier_before(then, d + 1));
                ordered(first, then, !author, "");
            } else {
                order(first, then, b, i2, "");
            }
        }
        // then (iteration j) before first (iteration i > j).
        if (!loops.empty() && overlap_earlier(then, first)) {
            const GmSync::LoopAt& inner = loops.back();
            std::string carried = fmt::format(" (loop-carried, line {} loop)", inner.loop->loc.line);
            if (backward_ordered(first, then, inner.depth)) {
                const Block& lb = *first.path[inner.depth].first;
                bool planned = g.planned_barrier(&lb, 0, first.path[inner.depth].second) ||
                               g.planned_barrier(&lb, then.path[inner.depth].second + 1, lb.size()) ||
                               g.barrier_after(then, inner.depth + 1) || g.barrier_before(first, inner.depth + 1);
                ordered(then, first, planned, carried);
            } else {
                order(then, first, b, i2 + 1, carried);
            }
        }
    }

    void run() {
        const auto& acc = g.m_acc;
        for (size_t i = 0; i < acc.size(); ++i)
            for (size_t j = i + 1; j < acc.size(); ++j) {
                const Access& p = acc[i];
                const Access& q = acc[j];
                if (p.lane == q.lane || (!p.store && !q.store) || !GmSync::intersects(p.origins, q.origins)) continue;
                if (GmSync::both_atomic_add(p, q)) continue;  // atomic adds commute
                Order o = compare(p.path, q.path);
                if (o == Order::Before || o == Order::Unordered)
                    pair(p, q);
                else if (o == Order::After)
                    pair(q, p);
            }
    }
};

void GmSync::order_across_blocks() {
    if (m_opt.blocks <= 1) return;
    BlockOrder{*this}.run();
}

}  // namespace cvsim::passes::gmsync
