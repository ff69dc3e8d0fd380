// gm_sync: order GM dependencies between the cube and vector lanes of one mixed function (SPEC 5.7).
//
// Algorithm. (1) Trace every tensor value to its origin parameters through assignments, store results,
// tensor slices, loop-carried values and branch results (fixpoint). (2) List the GM stores and loads (tile
// load/store, and the scalar pl.tensor.read / pl.tensor.write, the write pinned to one lane first) in
// program order with their structural position (path of (block, index) pairs) and lane (a store from Acc
// or a load into Mat is the cube's; from/into Vec the vector's), with absolute windows (gm_windows.h).
// (3) Pair by execution order: each store with the first later load of the same origin on the opposite
// lane whose window may overlap it (same iteration, or a later iteration of a common loop); then the
// loads only a back edge puts after it (handle_carried), and the earlier loads it overwrites (handle_war);
// then each vector store with the cube stores that overwrite it (order_v2c_waw, gm_sync_v2c.cpp). A pair
// is V2C when its vector access runs first (RAW, WAR, WAW alike), C2V when its cube access does.
// (4) For each pair, unless something already orders it as the hazard checker would count it
// (an author syncall, a sync_set/sync_wait pair, a tile transport in the same direction between the two),
// apply the policy: C2V is fenced as upstream does when the producer store is unique and the consumer
// sits in the store's block or below it; V2C follows --v2c: `fence` mirrors C2V (token push after the
// store, pop before the consumer, hoisted to the store's block) and falls back to a barrier where no
// balanced placement exists; `syncall` places fence()+syncall(mix) before the consumer's statement in
// the common block (dominates the consumer, post-dominates the producer); `reject` reports
// E-V2C-UNFENCED; `off` leaves it. A transport only counts as ordering when it always runs (not in one
// arm of a branch, not in a loop that may run zero times). Token pops are placed last, so that each ring
// stays FIFO-consistent: a pop moves up before any other same-direction transport between its push and
// its consumer (and before the pop of a token pushed after it). (5) When the pair sits in a loop and the
// windows may overlap across iterations, the next iteration's store must also wait for this iteration's
// load (loop-carried WAR): a reverse sync_set/sync_wait pair for fences, a second barrier for barriers.
// (6) Under fence / syncall, once the plan is applied, each insertion is taken out in turn and kept out when
// the pass itself, re-run in reject mode under a visibility delay, accepts the function without it
// (prune_inserted: the final re-check, property 4).
// The inserted statements carry declared sides (tpush_to_aic is VECTOR, ...), so the split that follows
// puts each on its lane.
//
// The class is declared here and defined in gm_sync_*.cpp: collect ((1) origins, (2) accesses), order (what
// already orders a pair, execution order), pair (pairing and the per-pair policy), place (placements), prune
// (the plan's clean-up, apply and the final re-check), trace (ordering by enumeration), blocks (pairs between
// clusters), c2v (--c2v complete), v2c (V2C write-after-write); gm_sync.cpp is the entry point.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/passes/gm_windows.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes::gmsync {

using namespace ir;

using Path = std::vector<std::pair<Block*, size_t>>;

// A scalar parameter's values on a path: [lo, hi] without `ne` (GmSync::collect's path facts).
struct ParamFact {
    int64_t lo = 0, hi = 0;
    std::set<int64_t> ne;
};

struct Access {
    StmtPtr stmt;  // the store/load statement
    Path path;     // where it sits
    bool store = false;
    Side lane = Side::Shared;      // Cube or Vector
    std::set<const Var*> origins;  // tensor parameters it touches
    const Expr* call = nullptr;
    GmWindow win;  // absolute window (gm_windows.h)
    // The clusters it runs in, as `if` conditions on the block index around it say (nullopt: every cluster;
    // WindowAnalysis::block_values).
    std::optional<std::vector<bool>> blocks;
    // What the conditions and loop bounds around it say of the integer scalar parameters when it runs: parameter ->
    // its values (GmSync::collect). Two accesses whose facts contradict never run in one launch.
    std::map<const Var*, ParamFact> facts;
};

enum class Order { Before, After, Same, Unordered };

inline Order compare(const Path& a, const Path& b) {
    for (size_t d = 0; d < a.size() && d < b.size(); ++d) {
        if (a[d].first != b[d].first) return Order::Unordered;
        if (a[d].second != b[d].second) return a[d].second < b[d].second ? Order::Before : Order::After;
    }
    return a.size() == b.size() ? Order::Same : Order::Unordered;
}

class GmSync {
  public:
    // Two atomic-add stores: the checker and the oracle never pair them (the adds commute), so neither does the pass.
    static bool both_atomic_add(const Access& a, const Access& b);
    GmSync(Function& f, const ExpandOptions& opt, ExpandStats& stats, const std::set<const Var*>* live_loads = nullptr,
           const std::set<const Var*>* live_reads = nullptr)
        : m_f(f), m_opt(opt), m_stats(stats), m_live(live_loads), m_live_reads(live_reads), m_win(f, opt.blocks) {}

    void run();

  private:
    // ---- pairs between the clusters of a launch on --blocks > 1 (gm_sync_blocks.cpp) ----
    // Does every cluster reach block b (on a's path) equally often: no loop around it runs a different number of
    // trips in different clusters as far as is known (bounds affine in the block index alone, counted per
    // cluster)? A chip-wide barrier where they do not deadlocks the launch (hunt14).
    bool balanced_in(const Access& a, const Block* b) const;
    bool same_trips_everywhere(const Stmt& loop, const Path& at) const;
    friend struct BlockOrder;
    void order_across_blocks();

    // ---- --c2v complete (gm_sync_c2v.cpp) ----
    bool complete() const { return m_opt.c2v == C2VPolicy::Complete; }
    // Will an already-ordered pair of the producer store `prod` be published (publish_after: a fence of the
    // store's lane right after it)? Then an author's flag set on a pipe that does not cover the store's
    // still orders it: the fence completes the store before the set (SPEC 6), so no token or barrier is
    // needed on top (property 4). V2C stores under fence / syncall, C2V stores under --c2v complete; never
    // under reject or off, which keep the program as written.
    bool will_publish(const Access& prod) const;
    // A C2V pair (cube store s, vector load l; common block b) upstream leaves open: a barrier before l's
    // statement, and a second one after the last loop-carried WAR load. Returns the ordering's depth.
    std::optional<size_t> c2v_order_pair(const Access& s, const Access& l, Block* b, size_t d, size_t il, bool war,
                                         size_t il_last, const std::string& what);
    // A loop-carried C2V RAW / a C2V WAR upstream leaves open: a barrier at (b, index).
    void c2v_order_at(Block* b, size_t index, const SourceLoc& loc, const std::string& what);
    // Cross-lane write-after-write with the cube's store first (a cube and a vector store that may touch
    // common elements; the vector-first direction is V2C, order_v2c_waw).
    void order_waw();

    // ---- V2C write-after-write (gm_sync_v2c.cpp) ----
    // A vector store first, a cube store second (same iteration or loop-carried): ordered by --v2c.
    void order_v2c_waw();
    // The --v2c policy for one vector-first hazard (prod on the vector lane, cons a cube store) at (b, ip, ic).
    void v2c_order_first(const Access& prod, const Access& cons, Block* b, size_t d, size_t ip, size_t ic,
                         const std::string& what, const char* kind);
    int vector_accesses(const Access& a) const;  // vector accesses of a's kind (store/load) to its origins
    // A vector pl.tensor.read that the other AIV also issues (a2a3: lane 1's replay reads; a5: both lanes
    // run the function) against a vector store of the same elements: AIV0 -> AIV1, which only a barrier
    // orders. Under fence / syncall: a barrier before the second access's statement.
    void order_vector_reads();
    void reject_vector_pair(const Access& x, const Access& y,
                            const std::string& when) const;  // under reject: E-V2C-UNFENCED

    // ---- ordering by enumeration (gm_sync_trace.cpp) ----
    struct TraceEv {
        const Stmt* s;  // a statement with a call
        bool definite;  // runs whenever the loops around it reach it (no undecided branch)
        std::vector<std::pair<const Var*, int64_t>> vals;  // the value of each For loop's variable around it
        // a5 with both AIV lanes (1:1 flags): 1, a flag op that stands for both lanes (the AIC's op on id X
        // followed by its twin on X + stride, or an AIV lane branch of X / X + stride: lane_pair_flag); 2, the
        // AIC's twin itself (the counters skip it). 0 otherwise.
        uint8_t pair = 0;
    };
    // a5 lane pairs of flag ops (what place_war_flags emits when both AIV lanes run): `x` an If on
    // `get_subblock_idx() == 0` whose arms are one flag op each, id X < stride and X + stride, same op, pipe
    // and core; returns the then-arm's op. Or (`next` given) x an AIC flag op on X < stride with `next` the
    // same op on X + stride. Both AIVs then see the same flag protocol, with AIV1's ids shifted, as on a2a3.
    const Stmt* lane_pair_flag(const Stmt& x, const Stmt* next) const;
    bool is_subblock_idx(const Expr& e) const;
    struct Counters {
        // key -> positions in the trace (in order); a key with an uncertain statement is in `bad`.
        std::map<std::pair<int, int64_t>, std::vector<size_t>> sets, waits;  // key (0 flag / 1 ring, id)
        std::set<std::pair<int, int64_t>> bad;
        // The ring of the other direction (the consumer's lane pushes, the producer's lane pops), by id, for
        // back-pressure (trace_between); an id with an uncertain statement is in `rbad`.
        std::map<int64_t, std::vector<size_t>> rpushes, rpops;
        std::set<int64_t> rbad;
        bool rbad_all = false;  // some push or pop of that direction has a ring id that is not a constant
    };
    // The function's statement instances in program order (nullptr: a loop without a constant trip count, a
    // split_aiv / spmd loop, an early return, or too many instances).
    const std::vector<TraceEv>* trace() const;
    bool trace_block(const Block& b, std::map<const Var*, int64_t>& env, bool definite,
                     std::vector<std::pair<const Var*, int64_t>>& vals, std::vector<TraceEv>& out) const;
    // May the instances of a (event ea) and b (event eb) touch a common element?
    bool instance_overlap(const Access& a, const TraceEv& ea, const Access& b, const TraceEv& eb) const;
    Counters counters(const Access& prod, const Access& cons) const;
    bool trace_between(size_t i, size_t j, const Access& prod, const Access& cons, const Counters& c,
                       bool publish = false) const;
    bool trace_published(const Access& prod, const Access& cons) const;
    bool for_each_latest(const Access& first, const Access& then, const std::function<bool(size_t, size_t)>& f,
                         bool* any = nullptr) const;
    bool trace_planned_orders(const Access& first, const Access& then) const;
    // A vector load's completion before an MTE3 release: some vector store or V2C push in trace positions
    // (i, to] whose tile is computed from the load's result (gm_sync_trace.cpp).
    bool load_drained_by_mte3(size_t i, size_t to, const Access& load) const;
    bool load_drained_by_fixp(size_t i, size_t to, const Access& load) const;
    bool fixp_op_from(size_t from, size_t to, const Stmt* load) const;
    bool wait_gates_fixp(size_t w, size_t j, Pipe p, const Access& cons) const;
    bool derives_from(const Var* v, const Stmt* load, int depth) const;  // v's value is computed from load's result
    int64_t back_pressure_slots() const;  // ring slots for the back-pressure rule (0: it does not apply)
    mutable std::optional<int64_t> m_bp_slots;
    // The rule counts the pushes and pops of the function as written; a token this pass puts on the same ring
    // (id 0 of that direction) adds a push and a pop and shifts the count. So each ring 0 the rule relied on is
    // recorded ([0] C2V, [1] V2C, as m_author_ring0), and a plan that also puts a token on it is planned
    // again without the rule (run, insert_gm_sync): sound, at the cost of the rule on such functions.
    mutable bool m_bp_ring0_used[2] = {false, false};
    bool m_bp_off = false;  // planning again: the rule is off
    bool bp_conflict() const;

  public:
    bool m_bp_retry = false;  // run() stopped before applying anything: plan again with m_bp_off (insert_gm_sync)
    void set_back_pressure_off() { m_bp_off = true; }
    // insert_gm_sync's second look at a function reject refused: `hold` records each E-V2C-UNFENCED (where it would
    // have been raised: rejected()) and plans and applies everything else as a run without the error would;
    // `dry` is the re-check (recheck_plans_nothing): it records the same way and applies nothing.
    void hold_rejections() { m_hold = true; }
    void set_dry() { m_dry = true; }
    std::optional<SourceLoc> rejected() const { return m_rejected; }
    bool plans_nothing() const;

  private:
    mutable std::map<const Var*, std::vector<const Stmt*>> m_defs;  // variable -> the statements assigning it
    mutable bool m_defs_built = false;
    // Is every instance of cons ordered after each earlier instance of prod (any iteration) that may touch a
    // common element? Independent: there is no such pair of instances. nullopt: not enumerable.
    enum class TraceOrder { Unordered, Ordered, Independent };
    std::optional<TraceOrder> trace_ordered(const Access& prod, const Access& cons) const;
    mutable std::vector<TraceEv> m_trace;
    // Each statement position (block, index, and the block's end) each time the trace reaches it: pos is the
    // trace index of the next event, so a statement planned there runs between events pos - 1 and pos.
    struct Mark {
        size_t pos;
        const Block* b;
        size_t idx;
        bool definite;
    };
    mutable std::vector<Mark> m_marks;
    mutable bool m_trace_built = false, m_trace_ok = false;

    Function& m_f;
    const ExpandOptions& m_opt;
    ExpandStats& m_stats;
    const std::set<const Var*>* m_live;                   // loads the split keeps (nullptr: all)
    const std::set<const Var*>* m_live_reads;             // [AIC, AIV]: tensor.read results kept (nullptr: all)
    std::map<const Var*, std::set<const Var*>> m_origin;  // tensor variable -> origin parameters
    std::vector<Access> m_acc;                            // accesses in program order
    std::map<Block*, const Stmt*> m_owner;                // block -> the For/If owning it (nullptr: body)
    std::map<Block*, Block*> m_parent;                    // block -> enclosing block
    std::map<Block*, size_t> m_index_in_parent;           // block -> index of its owner in the parent
    // Planned insertions: (block, index) -> statements to insert before that index, in order.
    std::map<std::pair<Block*, size_t>, std::vector<StmtPtr>> m_insert;
    // Token fences, in push (store) order: the pop is planned last (place_token_pops).
    struct Token {
        Block* b;                    // common block of the store and the consumer
        size_t is, il;               // store index; index of the statement holding the consumer
        bool v2c;                    // direction
        StmtPtr pop;                 // the consumer lane's pop
        StmtPtr push;                // the producer lane's push (planned at is + 1)
        std::vector<StmtPtr> after;  // everything planned after the store for it (adapter, fence, push)
        std::string what;            // the pair, for the log
    };
    std::vector<Token> m_tokens;
    // Has the token a publishing fence (a write-after-read token pushes a loaded tile and has none)?
    static bool token_fenced(const Token& t);
    struct PubFence {
        Block* b;
        size_t idx;  // planned at (b, idx)
        StmtPtr fence;
        Access s;                  // the store (copies: callers' accesses need not outlive the pass's plan)
        std::vector<Access> cons;  // the accesses it publishes the store for
        bool keep = false;         // asked for without a consumer (a pair across clusters): never dropped
    };
    // While drop_unneeded_publishing_fences runs: the trace's publication test counts the fences this pass
    // plans (all drops of tokens done), except those in m_pub_removed.
    bool m_count_planned_fences = false;
    std::set<const Stmt*> m_pub_removed;
    bool planned_fence_between(size_t from, size_t to, int lane) const;
    bool planned_barrier_between(size_t from, size_t to) const;
    bool planned_between(size_t from, size_t to, const std::function<bool(const Block*, size_t)>& at) const;
    std::vector<PubFence> m_pub_fences;  // publishing fences publish_after planned
    struct DeferredWar {
        Block* b;
        size_t idx;  // where the second barrier would go
        SourceLoc loc;
        const Access* store;  // elements of m_acc
        std::set<const Access*> loads;
        std::string what;
    };
    std::vector<DeferredWar> m_deferred_war;
    WindowAnalysis m_win;                    // absolute GM windows
    bool m_split = false;                    // split attr or a split_aiv region: both AIVs run
    bool m_handwritten[2] = {false, false};  // hand-written ring ops (C2V, V2C) before the split
    // Hand-written ring ops on ring id 0 (C2V, V2C), the ring a token travels on: the FIFO would hand a token
    // pop an author's tile pushed before the token (or the author's pop the token), so no token there.
    bool m_author_ring0[2] = {false, false};
    bool token_ring_free(bool v2c) const { return !m_author_ring0[v2c ? 1 : 0]; }
    std::set<std::pair<const Block*, size_t>> m_barrier_at;  // barriers planned (block, index)
    // Sibling-arm barrier pairs planned (both positions): a pair is placed whole or not at all, never deduplicated
    // against a single barrier already at one of its positions (that left one arm a barrier short: E-DEADLOCK).
    std::set<std::tuple<const Block*, size_t, const Block*, size_t>> m_sibling_at;
    std::set<int64_t> m_planned_events;
    std::set<std::pair<const Block*, size_t>> m_published;  // stores given a publishing fence                     //
                                                            // flag ids taken by planned sync_set/sync_wait

    // ---- (1) origins ----
    std::set<const Var*> origin_of(const ExprPtr& e);

    void trace_origins();

    // ---- (2) accesses ----
    // A pl.tensor.write is SHARED in the op table: the split would copy it to both lanes, two unordered writes
    // of one element (a WAW no placement between them can order) and, on the lane that lacks its value, a
    // write of an undefined scalar. In a mixed function it runs on one lane, pinned here: the lane whose
    // values (indices, value) it uses, transitively through scalar assignments (a pl.tile.read of a UB tile
    // is the vector's); a write using no lane's value goes to the vector lane (MTE3), or to the cube when
    // both AIV lanes run the function (each would write the element). Values of both lanes, or a vector
    // value with both AIVs running: E-UNSUPPORTED.
    void pin_scalar_writes();

    // `dead`: the block never runs (an arm whose loop-variable condition is decided by the loop's constant
    // range, e.g. `if i > 0:` in a 1-trip loop): its statements are no accesses.
    void collect(Block& b, Path path, Block* parent, bool dead = false);
    // Path facts over the launch's integer scalar parameters (no statement re-binds them: one value per launch,
    // the same in every lane and cluster). Entering an arm of `if p OP c` (or `c OP p`, an `and` of such in the then
    // arm) or the body of a sequential loop (it runs only when start < stop, for a positive step) narrows p's
    // interval; an empty one makes the block dead (its statements never run). m_facts: the current path's.
    using Facts = std::map<const Var*, ParamFact>;
    std::set<const Var*> m_fact_vars;
    Facts m_facts;
    void find_fact_vars();
    bool narrow_cond(const Expr& cond, bool holds, Facts& f) const;  // false: the arm never runs
    bool narrow_loop(const Stmt& loop, Facts& f) const;              // false: the body never runs
    static bool facts_disjoint(const Access& a, const Access& b);

    // ---- helpers ----
    static std::string name_of(const std::set<const Var*>& o);

    static bool intersects(const std::set<const Var*>& a, const std::set<const Var*>& b);

    // Does statement `s` always order the producer access `prod` before the consumer lane (other side)? A
    // loop orders only when its body does and it runs at least once; a branch only when both arms do. A
    // tile transport orders only when its ready flag covers the store's pipe (V2C: MTE3, C2V: FIXP) and the
    // ring holds no hand-written push or pop of that direction (its k-th pop may then take an older token).
    bool orders(const Stmt& s, const Access& prod) const;

    // Does statement `s` (or anything nested in it) move a tile through the ring of one direction?
    static bool has_transport(const Stmt& s, bool v2c);

    // ---- what the hazard checker counts as ordering (sim/check, SPEC 4.4 / 6) ----
    static Pipe prod_pipe(const Access& a) { return call_pipe(*a.call); }

    // The pipe a sync_set / sync_wait runs on: a pipe its core does not have is the scalar unit
    // (models/cube_core.cpp, vector_core.cpp). nullopt: PIPE_ALL (drains the core).
    static std::optional<Pipe> sync_pipe(const Expr& c, Side lane);

    // An author's sync_set / sync_wait pair orders `prod` (in b[is]) before `cons` (in b[il]) when, for one
    // event id, every set the producer lane runs and every wait the consumer lane runs sit directly in b,
    // as many of each (so the k-th wait takes the k-th set of the same execution of b), and some k-th wait
    // comes before b[il] while the k-th set comes after b[is], on the producer's access pipe (or PIPE_ALL,
    // or after a fence), and the wait blocks the consumer's pipe (its access pipe, the scalar unit or
    // PIPE_ALL). Textual order between the set and the wait does not matter: they run on different cores.
    // On a5 an AIC flag pairs with one AIV only, so a split function (both AIVs) is never ordered this way.
    bool flags_order(const Block& b, size_t is, size_t il, const Access& prod, const Access& cons) const;

    // A barrier this pass already plans in b before one of the indices [lo, hi], or inside a statement
    // b[j], lo <= j < hi, on every execution of it (surely_planned_in; property 4: the loop-carried WAR
    // barrier of one pair that a barrier planned for another pair, in an inner loop, already orders).
    bool planned_barrier(const Block* b, size_t lo, size_t hi) const;
    // Does every execution of x run a barrier this pass plans: x a sequential loop of a constant trip count
    // of at least one whose body holds one (directly, or in such a loop nested in it)? Branches: no.
    bool surely_planned_in(const Stmt& x) const;

    // Is prod (in b[is]) ordered before cons (in b[il], il > is) by what sits between them: a statement of
    // b between the two, one after prod in a block holding it (e.g. an aic_gather after the store inside
    // its split_aiv region), one before cons in a block holding it, or an author flag pair in b?
    // `after_prod` (optional): set when the ordering runs after prod whenever prod runs (in b or in prod's
    // blocks), so that it also orders a later iteration's accesses; not when it sits only on cons's path.
    bool already_ordered(const Block& b, size_t is, size_t il, const Access& prod, const Access& cons,
                         bool* after_prod = nullptr) const;

    // ---- execution order: windows, loops ----
    struct LoopAt {
        const Stmt* loop;
        size_t depth;  // path depth of the loop's body block
    };

    // Loops whose body holds both accesses, outermost first.
    std::vector<LoopAt> common_loops(const Access& a, const Access& b) const;

    static bool sequential(const Stmt& loop) {
        return loop.loop_kind != LoopKind::SplitAiv && loop.loop_kind != LoopKind::Spmd;
    }

    static std::optional<int64_t> trips(const Stmt& loop);

    // May a and b touch a common element in the same iteration of every loop holding both?
    bool overlap_same(const Access& a, const Access& b) const;
    // meet(a's window, b's window) for a and b in one cluster: as written when both run in every cluster,
    // else for each cluster both run in, with its block index substituted.
    // A vector access whose window holds the AIV lane index (WindowAnalysis::lane_atom) is met lane by lane
    // (at_lane), each such access on either lane.
    bool overlap_in_one_cluster(const Access& a, const Access& b,
                                const std::function<bool(const GmWindow&, const GmWindow&)>& meet) const;
    // Does the split halve this function's vector tiles (attr split UP_DOWN / LEFT_RIGHT, and not already in
    // PyPTO's per-lane form, attr split_aiv: expand_mixed_kernel's `halve`)?
    bool halved_function() const;
    // A halved vector tile load / store on AIV lane `lane`: rows (UP_DOWN; columns LEFT_RIGHT) [o + lane * half,
    // o + (lane + 1) * half) of the whole tile's window (a superset of its valid part), with the lane index
    // (get_subblock_idx()) = lane. nullopt: not halved. A halved access of unknown window: as it is.
    std::optional<Access> lane_half(const Access& a, int lane) const;
    // a as AIV lane `lane` runs it: the lane index = lane in its window, and its half when halved (lane_half).
    Access at_lane(const Access& a, int lane) const;
    bool holds_lane(const Access& a) const;  // a vector access whose window holds the lane index

    // May a, in an earlier iteration of the common loop `lp` than b, touch an element b touches? (Loops
    // inside lp may be in any iteration; loops around it in the same.) A loop of at most one trip carries
    // nothing.
    bool overlap_carried(const Access& a, const Access& b, const LoopAt& lp) const;

    void plan(Block* b, size_t index, StmtPtr s) { m_insert[{b, index}].push_back(std::move(s)); }

    std::string where(const Access& a) const { return a.stmt->loc.short_str(); }

    VarPtr new_var(const std::string& base, Type t, const SourceLoc& loc) {
        return m_f.new_var(m_f.fresh_name(base), std::move(t), loc);
    }

    // ---- (4) placements ----
    // `s` may be a vector load (a V2C write-after-read): the token is then the loaded tile (the push waits
    // for the load through the tile) and needs no publishing fence (a read is not published).
    void place_fence(const Access& s, const Access& l, Block* b, size_t is, size_t il, bool v2c);

    // Index in `b` of the statement holding block `x` (or `x`'s planned insertion index when x == b), or
    // nullopt when `x` is not inside `b`.
    std::optional<size_t> index_in(Block* b, Block* x, size_t index) const;

    // The token pops, placed so that every ring stays FIFO-consistent: the k-th push of a direction meets
    // the k-th pop. A pop goes before its consumer, but no later than the first statement after its push
    // that moves another tile the same way (an original transport, or a planned token nested there), and no
    // later than the pop of a token pushed after it in the same block. Moving a pop earlier (still after
    // its push in program order) keeps the order it establishes.
    //
    // Deadlock-freedom (SPEC 5.7): the consumer lane must not block on the producer lane between the push
    // and the pop, or a producer stalled on a full ring (more tokens in flight than slots) never reaches
    // what the consumer waits for. So a pop also goes before any barrier, consumer-side sync_wait or
    // opposite-direction transport after its push — original or planned (a fallback barrier, a WAR flag),
    // nested or in the same block; at an index holding planned statements it goes before the first
    // blocking one (after its own push). With the pop no later than that, the consumer waits only for a
    // push the producer reaches without the consumer's help.
    static bool blocks_consumer(const Stmt& s, bool v2c);

    // A V2C token whose store-to-consumer interval holds another token's in the same block (pushed after
    // this store, popped before this consumer) orders nothing more: that push follows this store on the
    // vector lane (MTE3 in order) and its pop precedes this consumer. Dropped (oracle sweep, property 4: one
    // token of two was redundant). Publication: the inner push's flag covers this store's visibility only
    // through a vector fence between the two; a store token's own fence is one, a write-after-read token
    // (a loaded tile) has none, so this store's fence stays then (oracle sweep: a RAW around a WAR raced
    // under a visibility delay). C2V tokens stay as upstream places them.
    void drop_nested_tokens();

    // A V2C token whose store-to-consumer interval in its block holds a barrier this pass planned (placed
    // for another pair, e.g. a write-after-write fallback before the same cube store) orders nothing more:
    // the barrier's fence + syncall(mix) runs after the store on the vector lane (publishing it) and before
    // the consumer on the cube lane, in every execution of the block. Dropped with everything planned for it
    // (oracle sweep, property 4: the largest class of redundant tokens). What relied on the token (a later
    // load it covered, a write-after-write it ordered) sits after the barrier as well.
    void drop_tokens_under_barriers();

    void place_token_pops();

    // Does a fence surely follow the store `s` before anything that may order it, on every path? From the
    // store up through its enclosing blocks: the rest of each block holds only quiet statements (assignments
    // that move no tile across the lanes, fences, nested loops and branches of those) until a fence of the
    // store's lane directly in that block. Leaving a branch's arm continues after the branch (the other arm
    // does not run); leaving a loop's body needs the whole body quiet (a later iteration runs it after this
    // store, before the loop ends). A fence in one arm of a nested branch, before the store in a later
    // iteration, or after a release publishes nothing: conservative (false) otherwise.
    bool quiet(const Stmt& x, const Stmt* store) const;
    bool published(const Access& s) const;

    // A vector-lane system.fence() right after the store `s` (once; nothing when one already follows it).
    // `cons` (optional): the access the ordering is for; over the unrolled function (trace_published) a
    // fence of the author's before each release that orders it publishes the store as well (property 4: an
    // author's fence + syncall at the top of the next iteration, after the loop, ...).
    void publish_after(const Access& s, const Access* cons = nullptr);

    // An already-ordered V2C dependency of the vector store `s` (then `cons`, the cube access): under fence /
    // syncall the store is published (publish_after); under reject with a GM visibility delay, a store the
    // program does not publish is an error, as the checker reports it (SPEC 4.5/6).
    // `same_cluster` false (a pair across clusters, gm_sync_blocks): the trace of one cluster says nothing of
    // what publishes the store before the barrier that orders the other cluster's access.
    void ordered_v2c_store(const Access& s, const Access& cons, bool same_cluster = true);

    // A barrier (fence + syncall) before index il of b. Every cluster must arrive at it as often as the
    // others: where b sits in an arm of a branch whose condition may differ between clusters (on the block
    // index), the other arm gets a barrier too, at its end (one unit with it for the final re-check), up to
    // the first loop around b. `paired_at`: a branch whose other arm the caller gives its own barrier (with
    // `second`: that one, which balances nothing above the branch, as the first one does).
    void place_barrier(Block* b, size_t il, const SourceLoc& loc, const Stmt* paired_at = nullptr, bool second = false,
                       bool whole_pair = false);
    static constexpr int64_t kMaxBalancingBarriers = 64;  // per arm and barrier

    ExprPtr syncall_call(const SourceLoc& loc);

    // The soft barrier's zeroed INT32 GM counter: a hidden parameter the expander adds (as the compiler adds
    // its GM pipe buffer); parameters named __x are allocated and zeroed by the simulator, never compared.
    VarPtr workspace();

    // A flag id no sync_set/sync_wait of the function uses (nor one planned); with `lane_pair` (a5, both AIV
    // lanes) an id below the lane stride whose AIV1 twin (id + stride) is free as well.
    int free_event(bool lane_pair = false);

    // Do both AIV lanes run the AIV function on an a5 cluster (1:1 flags)? It is split (UP_DOWN /
    // LEFT_RIGHT), dispatched to both lanes, or holds a split_aiv region (which dispatches both lanes for
    // the whole function).
    bool a5_two_lanes() const;

    static PipeType pipe_of(const Access& a);

    ExprPtr pipe_lit(PipeType p);

    // Loop-carried WAR for a fenced pair: consumer sets a flag after its last load of the tensor in the body
    // (statement `il`); the producer waits for it before its next store. A priming set before the loop and a
    // final wait after it keep the counts equal.
    //
    // On a5 with both AIV lanes running, flags are 1:1 (the AIC's ids [0, s) reach AIV0, [s, 2s) AIV1): the
    // cube's side of the order is one set (or wait) per lane, ids ev and ev + s, and the vector's side picks
    // its lane's id by subblock index. One set reaching only AIV0 would leave AIV1 waiting forever.
    void place_war_flags(const Access& s, const Access& l, Block* b, size_t is, size_t il);

    bool opposite(const Access& s, const Access& c) const {
        return !c.store && c.lane != s.lane && intersects(c.origins, s.origins);
    }

    // Can the load c, later than the store s in program order, read what s wrote: in the same iteration,
    // or in a later iteration of a loop holding both?
    bool depends_later(const Access& s, const Access& c) const;

    // Pairing by execution order (SPEC 5.7): each store with the first later load in program order whose
    // window may overlap it (same iteration, or a later iteration of a common loop), then with the loads
    // that only a loop's back edge puts after it (earlier in the body, or in a sibling arm).
    void pair_and_place();

    int producer_stores(const Access& s) const;

    // Loop-carried dependencies of store s: loads that run after s only through a back edge (earlier in
    // the body of a common loop, or in a sibling arm) and may read what s wrote in an earlier iteration.
    // `covered`: the depth of the block where the pair of s with a later load was ordered (that ordering
    // runs after s in the same iteration of every loop around that block). Otherwise a barrier before the
    // load's statement in the innermost carrying loop's body orders every earlier iteration's store before
    // it (and, when the load precedes the store in the body, a second barrier before the store's statement
    // orders the same iteration's read before the write). No token: a first iteration has nothing to pop.
    void handle_carried(const Access& s, std::optional<size_t> covered);

    // A barrier this pass plans on a's path at or below depth `from`: before a (runs before it in the same
    // execution) or after it.
    bool barrier_before(const Access& a, size_t from) const;
    bool barrier_after(const Access& a, size_t from) const;

    // Does something in the body of the loop at depth D order `first` (in an earlier iteration) before
    // `then`: a statement after first's or before then's, or an author flag pair?
    bool carried_ordered(const Access& first, const Access& then, size_t D) const;

    // Write-after-read: the store s overwrites what an opposite-lane load c of an earlier iteration, or
    // earlier in program order, reads. `done`: loads whose WAR handle_pair ordered. The load runs first:
    // a vector load before a cube store is V2C and follows --v2c (fence: a token when the load sits directly
    // in the common block before the store and is the tensor's only vector load, the reverse flag pair for a
    // WAR carried only across iterations, else a barrier); a cube load before a vector store is C2V, which
    // --v2c fence / syncall order too (the reuse half of a V2C scratch) and --c2v complete orders when the
    // V2C policy does not (off, reject). A barrier right before s's statement in the block where c and s
    // diverge orders both the same iteration's and a later iteration's pair.
    void handle_war(const Access& s, const std::set<const Access*>& done);

    // Orders the pair (s, l) with l later in program order. Returns the depth of the block where the
    // ordering runs after s (for handle_carried), or nullopt when the pair is left unordered.
    std::optional<size_t> handle_pair(const Access& s, const Access& l, std::set<const Access*>& war_done);

    // Property 4: a publishing fence is redundant when a later fence of its lane (an author's, or one this pass
    // plans: another publishing fence, a token's, a barrier's) follows in the same block with only quiet
    // statements between, existing or planned (no transport, flag, barrier or tile move: nothing that may
    // release the store before that fence). The later fence waits for every GM write issued before it.
    void merge_publishing_fences();

    // Property 4, over the unrolled function: a publishing fence is dropped when, without it, every pair it
    // was placed for is still published by another fence (an author's or a planned one: a later store's, a
    // token's, a barrier's) before the release that orders it (trace_published). Each drop is checked again
    // for the fences dropped before it. At most 64 fences (each test walks the trace).
    void drop_unneeded_publishing_fences();

    // The loop-carried write-after-read barriers handle_pair deferred: placed unless, over the unrolled
    // function, the barriers planned by then order every WAR load before the next overlapping store.
    void place_deferred_war_barriers();

    // ---- the final re-check (property 4: every inserted synchronisation is necessary) ----
    // The rules above decide pair by pair on a plan that is not final: a barrier planned for one pair may
    // order another pair judged before it, an author's flag may cover a pair only through a fence planned
    // later, and a greedy order may leave an earlier insertion covered by later ones. So, once the plan is
    // applied, each inserted ordering (barriers first, then V2C tokens, write-after-read flag pairs and lone
    // publishing fences, in the order they were planned) is taken out in turn and the pass itself re-checks
    // the function in `reject` mode under a GM visibility delay (recheck_plans_nothing): when it raises no
    // error and plans nothing (no C2V token, no --c2v complete ordering, no publishing fence), every
    // dependency is still ordered and published without it, and it stays out. Otherwise it goes back (a
    // token then tries once more without its publishing fence, a barrier without its fence: the fence stays
    // alone). Sound as reject is: a removal stands only where reject would accept the program as written.
    // Removing more never orders more, so one pass leaves each remaining insertion necessary for the
    // re-check. C2V tokens are upstream's and stay. Bounded: at most kMaxPruneUnits insertions per function,
    // each one re-check (one run of this pass); beyond that nothing is re-checked (a -v line says so).
    struct Unit {
        const char* kind;
        std::vector<StmtPtr> stmts;  // the statements planned for it
        int* counter;                // the statistic it counted in (nullptr: none)
        int* counter2;
        std::string what;
    };
    std::vector<Unit> m_barrier_units, m_flag_units;
    bool m_dry = false;                           // a re-check: run() plans and stops before apply()
    bool m_hold = false;                          // hold_rejections(): recorded as under m_dry, the plan applied
    mutable std::optional<SourceLoc> m_rejected;  // a re-check: where reject would have raised E-V2C-UNFENCED
    // Under a re-check, reject's E-V2C-UNFENCED is recorded instead of thrown (true: the caller returns as
    // if the pair were left). The re-check needs no message, and a C++ exception thrown in a process whose
    // SystemC coroutines have run (tests run many sessions in one process) meets ASan's fiber-switch hooks
    // that SystemC calls and is reported as a stack-buffer-overflow (a false positive, but CI's ASan run
    // aborts on it); the re-check runs once per insertion, so it must not throw on its normal path.
    bool dry_reject(const SourceLoc& loc) const;
    bool m_made_workspace = false;  // workspace() added the soft barrier's parameter
    static constexpr size_t kMaxPruneUnits = 48;

    // The pass in reject mode on the function as it now stands: no error, nothing to add. `why` (optional):
    // what the re-check objects to (for -v).
    bool recheck_plans_nothing(std::string* why = nullptr);

    static void walk_blocks(Block& b, const std::function<void(Block&)>& f);

    void prune_inserted();

    void apply();
};

}  // namespace cvsim::passes::gmsync
