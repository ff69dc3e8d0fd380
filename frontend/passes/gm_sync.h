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
// The class is shared by gm_sync.cpp (the entry point) and gm_sync_c2v.cpp (what --c2v complete adds).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/passes/gm_windows.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes::gmsync {

using namespace ir;

using Path = std::vector<std::pair<Block*, size_t>>;

struct Access {
    StmtPtr stmt;  // the store/load statement
    Path path;     // where it sits
    bool store = false;
    Side lane = Side::Shared;      // Cube or Vector
    std::set<const Var*> origins;  // tensor parameters it touches
    const Expr* call = nullptr;
    GmWindow win;  // absolute window (gm_windows.h)
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
    static bool both_atomic_add(const Access& a, const Access& b) {
        return a.call && b.call && a.call->op->code == OpCode::Store && b.call->op->code == OpCode::Store &&
               is_atomic_add_store(*a.call) && is_atomic_add_store(*b.call);
    }
    GmSync(Function& f, const ExpandOptions& opt, ExpandStats& stats, const std::set<const Var*>* live_loads = nullptr,
           const std::set<const Var*>* live_reads = nullptr)
        : m_f(f), m_opt(opt), m_stats(stats), m_live(live_loads), m_live_reads(live_reads), m_win(f, opt.blocks) {}

    void run() {
        trace_origins();
        m_split = m_f.split_mode() != SplitMode::NONE;
        walk(m_f.body, [&](const StmtPtr& s) {
            if (s->kind == StmtKind::For && s->loop_kind == LoopKind::SplitAiv) m_split = true;
        });
        pin_scalar_writes();
        collect(m_f.body, {}, nullptr);
        walk(m_f.body, [&](const StmtPtr& s) {
            if (const Expr* c = stmt_call(*s)) {
                OpCode k = c->op->code;
                if (k == OpCode::TpushToAic || k == OpCode::TpopFromAiv) m_handwritten[1] = true;
                if (k == OpCode::TpushToAiv || k == OpCode::TpopFromAic) m_handwritten[0] = true;
                if (k == OpCode::TpushToAic || k == OpCode::TpopFromAiv || k == OpCode::TpushToAiv ||
                    k == OpCode::TpopFromAic) {
                    const ExprPtr& ia = arg(*c, "id");
                    std::optional<int64_t> id = ia ? const_int(ia) : std::optional<int64_t>(0);
                    if (!id || *id == 0)
                        m_author_ring0[(k == OpCode::TpushToAic || k == OpCode::TpopFromAiv) ? 1 : 0] = true;
                }
            }
        });
        m_stats.c2v_complete |= complete();
        order_across_blocks();  // before the same-cluster pairs, which then find them ordered (gm_sync_blocks.cpp)
        pair_and_place();
        place_deferred_war_barriers();
        order_v2c_waw();
        order_vector_reads();
        if (complete()) order_waw();
        drop_nested_tokens();
        drop_tokens_under_barriers();
        place_token_pops();
        merge_publishing_fences();
        drop_unneeded_publishing_fences();
        if (bp_conflict()) {
            m_bp_retry = true;  // nothing is applied; insert_gm_sync plans again without the back-pressure rule
            return;
        }
        if (m_dry) return;  // a re-check (recheck_plans_nothing): the plan is looked at, never applied
        apply();
        prune_inserted();
    }

  private:
    // ---- pairs between the clusters of a launch on --blocks > 1 (gm_sync_blocks.cpp) ----
    friend struct BlockOrder;
    void order_across_blocks();

    // ---- --c2v complete (gm_sync_c2v.cpp) ----
    bool complete() const { return m_opt.c2v == C2VPolicy::Complete; }
    // Will an already-ordered pair of the producer store `prod` be published (publish_after: a fence of the
    // store's lane right after it)? Then an author's flag set on a pipe that does not cover the store's
    // still orders it: the fence completes the store before the set (SPEC 6), so no token or barrier is
    // needed on top (property 4). V2C stores under fence / syncall, C2V stores under --c2v complete; never
    // under reject or off, which keep the program as written.
    bool will_publish(const Access& prod) const {
        if (!prod.store) return false;
        if (prod.lane == Side::Vector) return m_opt.v2c == V2CPolicy::Fence || m_opt.v2c == V2CPolicy::Syncall;
        return complete();
    }
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
    struct Counters;
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
    bool bp_conflict() const {
        return std::any_of(m_tokens.begin(), m_tokens.end(),
                           [&](const Token& t) { return m_bp_ring0_used[t.v2c ? 1 : 0]; });
    }

  public:
    bool m_bp_retry = false;  // run() stopped before applying anything: plan again with m_bp_off (insert_gm_sync)
    void set_back_pressure_off() { m_bp_off = true; }

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
    static bool token_fenced(const Token& t) {
        return std::any_of(t.after.begin(), t.after.end(),
                           [](const StmtPtr& st) { return is_call(*st, OpCode::Fence); });
    }
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
    std::set<int64_t> m_planned_events;
    std::set<std::pair<const Block*, size_t>> m_published;  // stores given a publishing fence                     //
                                                            // flag ids taken by planned sync_set/sync_wait

    // ---- (1) origins ----
    std::set<const Var*> origin_of(const ExprPtr& e) {
        if (!e || e->kind != ExprKind::Var) return {};
        return m_origin[e->var.get()];
    }

    void trace_origins() {
        for (auto& p : m_f.params)
            if (p.var->type.kind == TypeKind::Tensor) m_origin[p.var.get()].insert(p.var.get());
        bool changed = true;
        auto add = [&](const Var* to, const std::set<const Var*>& from) {
            auto& s = m_origin[to];
            size_t n = s.size();
            s.insert(from.begin(), from.end());
            if (s.size() != n) changed = true;
        };
        std::function<void(const Block&)> scan = [&](const Block& b) {
            for (const auto& s : b) {
                if (s->kind == StmtKind::Assign && s->targets.size() == 1 &&
                    s->targets[0]->type.kind == TypeKind::Tensor) {
                    const Var* t = s->targets[0].get();
                    if (const Expr* c = stmt_call(*s)) {
                        if (c->op->code == OpCode::Store || c->op->code == OpCode::Mscatter)
                            add(t, origin_of(arg(*c, "output_tensor")));
                        else if (c->op->code == OpCode::Slice)
                            add(t, origin_of(arg(*c, "tile")));
                        // A reshaped view: its accesses have no window here (they may overlap anything of it).
                        else if (c->op->code == OpCode::TensorView)
                            add(t, origin_of(arg(*c, "tensor")));
                        else if (c->op->code == OpCode::TensorCreate)
                            add(t, {t});
                    } else {
                        add(t, origin_of(s->value));
                    }
                }
                if (s->kind == StmtKind::For) {
                    for (size_t k = 0; k < s->iter_args.size(); ++k) {
                        add(s->iter_args[k].get(), origin_of(s->init_values[k]));
                        if (!s->body.empty() && s->body.back()->kind == StmtKind::Yield &&
                            k < s->body.back()->values.size())
                            add(s->iter_args[k].get(), origin_of(s->body.back()->values[k]));
                        if (k < s->targets.size()) add(s->targets[k].get(), m_origin[s->iter_args[k].get()]);
                    }
                }
                if (s->kind == StmtKind::If)
                    for (auto* br : {&s->body, &s->orelse})
                        if (!br->empty() && br->back()->kind == StmtKind::Yield)
                            for (size_t k = 0; k < s->targets.size() && k < br->back()->values.size(); ++k)
                                add(s->targets[k].get(), origin_of(br->back()->values[k]));
                scan(s->body);
                scan(s->orelse);
            }
        };
        while (changed) {
            changed = false;
            scan(m_f.body);
        }
    }

    // ---- (2) accesses ----
    // A pl.tensor.write is SHARED in the op table: the split would copy it to both lanes, two unordered writes
    // of one element (a WAW no placement between them can order) and, on the lane that lacks its value, a
    // write of an undefined scalar. In a mixed function it runs on one lane, pinned here: the lane whose
    // values (indices, value) it uses, transitively through scalar assignments (a pl.tile.read of a UB tile
    // is the vector's); a write using no lane's value goes to the vector lane (MTE3), or to the cube when
    // both AIV lanes run the function (each would write the element). Values of both lanes, or a vector
    // value with both AIVs running: E-UNSUPPORTED.
    void pin_scalar_writes() {
        bool any = false;
        walk(m_f.body, [&](const StmtPtr& s) { any |= is_call(*s, OpCode::TensorWrite); });
        if (!any) return;
        std::map<const Var*, int> lanes;  // scalar variable -> lanes whose values it holds (1 cube, 2 vector)
        auto uses = [&](const std::set<const Var*>& r) {
            int m = 0;
            for (const Var* v : r)
                if (auto it = lanes.find(v); it != lanes.end()) m |= it->second;
            return m;
        };
        auto expr_uses = [&](const ExprPtr& e) {
            if (!e) return 0;
            auto st = make_eval(e, e->loc);
            std::set<const Var*> r;
            collect_reads(*st, r);
            return uses(r);
        };
        bool changed = true;
        auto mark = [&](const Var* v, int m) {
            if (!v || v->type.kind != TypeKind::Scalar || !m) return;
            int& x = lanes[v];
            if ((x | m) != x) {
                x |= m;
                changed = true;
            }
        };
        auto yields = [](const Block& b) -> const Stmt* {
            return !b.empty() && b.back()->kind == StmtKind::Yield ? b.back().get() : nullptr;
        };
        while (changed) {
            changed = false;
            walk(m_f.body, [&](const StmtPtr& s) {
                if (s->kind == StmtKind::Assign) {
                    Side sd = stmt_side(*s);
                    int m = sd == Side::Cube     ? 1
                            : sd == Side::Vector ? 2
                            : sd == Side::Shared ? expr_uses(s->value)
                                                 : 3;
                    for (const auto& t : s->targets) mark(t.get(), m);
                } else if (s->kind == StmtKind::For) {
                    const Stmt* y = yields(s->body);
                    for (size_t k = 0; k < s->iter_args.size(); ++k) {
                        int m = k < s->init_values.size() ? expr_uses(s->init_values[k]) : 0;
                        if (y && k < y->values.size()) m |= expr_uses(y->values[k]);
                        mark(s->iter_args[k].get(), m);
                        if (k < s->targets.size()) mark(s->targets[k].get(), m);
                    }
                } else if (s->kind == StmtKind::If) {
                    int cond = expr_uses(s->value);
                    for (const Stmt* y : {yields(s->body), yields(s->orelse)})
                        for (size_t k = 0; y && k < s->targets.size() && k < y->values.size(); ++k)
                            mark(s->targets[k].get(), cond | expr_uses(y->values[k]));
                }
            });
        }
        // (a2a3's unsplit lane 1 is a replay: it issues no GM write, so only AIV0 writes.)
        const bool two_aivs = m_split || a5_two_lanes();
        walk(m_f.body, [&](const StmtPtr& s) {
            if (!is_call(*s, OpCode::TensorWrite) || s->pinned_lane) return;
            std::set<const Var*> r;
            collect_reads(*s, r);
            int m = uses(r);
            if (m == 3)
                raise(codes::kUnsupported, s->loc,
                      "pl.tensor.write in a mixed kernel whose index or value uses values of both the cube and the "
                      "vector lane",
                      "compute the element's value and indices on one lane");
            if (m == 2 && two_aivs)
                raise(codes::kUnsupported, s->loc,
                      "pl.tensor.write of a vector value in a function both AIV lanes run (split, split_aiv or dual "
                      "dispatch): each lane "
                      "would write the element",
                      "write the element with pl.tile.store of a [1, 1] tile from one lane's half, or compute it on "
                      "the cube");
            s->pinned_lane = m == 1 || (m == 0 && two_aivs) ? 1 : 2;
        });
    }

    // `dead`: the block never runs (an arm whose loop-variable condition is decided by the loop's constant
    // range, e.g. `if i > 0:` in a 1-trip loop): its statements are no accesses.
    void collect(Block& b, Path path, Block* parent, bool dead = false) {
        m_parent[&b] = parent;
        for (size_t i = 0; i < b.size(); ++i) {
            StmtPtr s = b[i];
            Path here = path;
            here.push_back({&b, i});
            if (const Expr* c = dead ? nullptr : stmt_call(*s)) {
                // A load lane DCE removes (nothing reads its tile) touches no GM in the expanded program.
                bool dead_load =
                    c->op->code == OpCode::Load && m_live && !s->targets.empty() && !m_live->count(s->targets[0].get());
                if ((c->op->code == OpCode::Store || c->op->code == OpCode::Load) && !dead_load) {
                    Access a;
                    a.stmt = s;
                    a.path = here;
                    a.store = c->op->code == OpCode::Store;
                    a.call = c;
                    a.win = m_win.window(*c, here);
                    if (a.store) {
                        a.lane = is_cube_mem(arg(*c, "tile")->type.mem) ? Side::Cube : Side::Vector;
                        a.origins = origin_of(arg(*c, "output_tensor"));
                    } else {
                        a.lane = c->type.mem == Mem::Vec ? Side::Vector : Side::Cube;
                        a.origins = origin_of(arg(*c, "tensor"));
                    }
                    m_acc.push_back(std::move(a));
                } else if (is_indexed_gm(c->op->code)) {
                    // pl.tile.mgather (MTE2) / mscatter (MTE3) on the vector lane: the index tile's values pick the
                    // elements, so the access's window is unknown (may overlap anything of its tensor). mgather's
                    // Mat form runs on the cube: it reads the table and the GM index tensor and (elem mode) writes
                    // the GM scratch, each of unknown window here.
                    const bool scatter = c->op->code == OpCode::Mscatter;
                    const bool mat = !scatter && c->type.kind == TypeKind::Tile && c->type.mem == Mem::Mat;
                    const bool unused =
                        !scatter && m_live && !s->targets.empty() && !m_live->count(s->targets[0].get());
                    std::vector<std::pair<const char*, bool>> parts = {{scatter ? "output_tensor" : "mem", scatter}};
                    if (mat) parts.push_back({"idx", false});
                    if (mat && arg(*c, "scratch") && arg(*c, "scratch")->kind == ExprKind::Var)
                        parts.push_back({"scratch", true});
                    for (const auto& [param, store] : parts) {
                        if (unused) break;
                        Access a;
                        a.stmt = s;
                        a.path = here;
                        a.store = store;
                        a.call = c;
                        a.win = GmWindow{};
                        a.lane = mat ? Side::Cube : Side::Vector;
                        a.origins = origin_of(arg(*c, param));
                        m_acc.push_back(std::move(a));
                    }
                } else if (c->op->code == OpCode::TensorWrite) {
                    // A scalar GM write of one element, on the lane pin_scalar_writes gave it (MTE3).
                    Access a;
                    a.stmt = s;
                    a.path = here;
                    a.store = true;
                    a.call = c;
                    a.win = m_win.window(*c, here);
                    a.lane = s->pinned_lane == 1 ? Side::Cube : Side::Vector;
                    a.origins = origin_of(arg(*c, "tensor"));
                    m_acc.push_back(std::move(a));
                } else if (c->op->code == OpCode::TensorRead) {
                    // A scalar GM read (SHARED: each lane that keeps it reads GM on its own core), so it is a load
                    // of both lanes; lane DCE later drops the copy a lane does not use.
                    for (Side lane : {Side::Cube, Side::Vector}) {
                        const auto* kept = m_live_reads ? &m_live_reads[lane == Side::Cube ? 0 : 1] : nullptr;
                        if (kept && !s->targets.empty() && !kept->count(s->targets[0].get()))
                            continue;  // the lane drops it
                        Access a;
                        a.stmt = s;
                        a.path = here;
                        a.call = c;
                        a.win = m_win.window(*c, here);
                        a.lane = lane;
                        a.origins = origin_of(arg(*c, "tensor"));
                        m_acc.push_back(std::move(a));
                    }
                }
            }
            if (s->kind == StmtKind::For || s->kind == StmtKind::If) {
                m_owner[&s->body] = s.get();
                m_index_in_parent[&s->body] = i;
                int taken = -1;  // the If's condition: 1 always, 0 never, -1 depends on the iteration
                if (s->kind == StmtKind::If && s->value)
                    if (auto t = m_win.static_condition(*s->value)) taken = *t ? 1 : 0;
                collect(s->body, here, &b, dead || taken == 0);
                if (s->kind == StmtKind::If) {
                    m_owner[&s->orelse] = s.get();
                    m_index_in_parent[&s->orelse] = i;
                    collect(s->orelse, here, &b, dead || taken == 1);
                }
            }
        }
    }

    // ---- helpers ----
    static std::string name_of(const std::set<const Var*>& o) {
        std::string n;
        for (auto* v : o) n += (n.empty() ? "" : "/") + v->name;
        return n;
    }

    static bool intersects(const std::set<const Var*>& a, const std::set<const Var*>& b) {
        for (auto* v : a)
            if (b.count(v)) return true;
        return false;
    }

    // Does statement `s` always order the producer access `prod` before the consumer lane (other side)? A
    // loop orders only when its body does and it runs at least once; a branch only when both arms do. A
    // tile transport orders only when its ready flag covers the store's pipe (V2C: MTE3, C2V: FIXP) and the
    // ring holds no hand-written push or pop of that direction (its k-th pop may then take an older token).
    bool orders(const Stmt& s, const Access& prod) const {
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

    static bool runs_at_least_once(const Stmt& loop) {
        if (loop.loop_kind == LoopKind::SplitAiv) return true;
        auto start = loop.start ? const_int(loop.start) : std::optional<int64_t>(0);
        auto stop = const_int(loop.stop);
        auto step = loop.step ? const_int(loop.step) : std::optional<int64_t>(1);
        if (!start || !stop || !step || *step == 0) return false;
        return *step > 0 ? *start < *stop : *start > *stop;
    }

    // Does statement `s` (or anything nested in it) move a tile through the ring of one direction?
    static bool has_transport(const Stmt& s, bool v2c) {
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

    // ---- what the hazard checker counts as ordering (sim/check, SPEC 4.4 / 6) ----
    static Pipe prod_pipe(const Access& a) { return call_pipe(*a.call); }

    // The pipe a sync_set / sync_wait runs on: a pipe its core does not have is the scalar unit
    // (models/cube_core.cpp, vector_core.cpp). nullopt: PIPE_ALL (drains the core).
    static std::optional<Pipe> sync_pipe(const Expr& c, Side lane) {
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

    // An author's sync_set / sync_wait pair orders `prod` (in b[is]) before `cons` (in b[il]) when, for one
    // event id, every set the producer lane runs and every wait the consumer lane runs sit directly in b,
    // as many of each (so the k-th wait takes the k-th set of the same execution of b), and some k-th wait
    // comes before b[il] while the k-th set comes after b[is], on the producer's access pipe (or PIPE_ALL,
    // or after a fence), and the wait blocks the consumer's pipe (its access pipe, the scalar unit or
    // PIPE_ALL). Textual order between the set and the wait does not matter: they run on different cores.
    // On a5 an AIC flag pairs with one AIV only, so a split function (both AIVs) is never ordered this way.
    bool flags_order(const Block& b, size_t is, size_t il, const Access& prod, const Access& cons) const {
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
                for (int64_t k = 0; k < it->second.second; ++k)
                    (set ? sets : waits)[*id].push_back({it->second.first, c});
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

    // A barrier this pass already plans in b before one of the indices [lo, hi], or inside a statement
    // b[j], lo <= j < hi, on every execution of it (surely_planned_in; property 4: the loop-carried WAR
    // barrier of one pair that a barrier planned for another pair, in an inner loop, already orders).
    bool planned_barrier(const Block* b, size_t lo, size_t hi) const {
        for (auto& [blk, idx] : m_barrier_at)
            if (blk == b && idx >= lo && idx <= hi) return true;
        for (size_t j = lo; j < hi && j < b->size(); ++j)
            if (surely_planned_in(*(*b)[j])) return true;
        return false;
    }
    // Does every execution of x run a barrier this pass plans: x a sequential loop of a constant trip count
    // of at least one whose body holds one (directly, or in such a loop nested in it)? Branches: no.
    bool surely_planned_in(const Stmt& x) const {
        if (x.kind != StmtKind::For || !sequential(x) || !runs_at_least_once(x)) return false;
        for (auto& [blk, idx] : m_barrier_at)
            if (blk == &x.body) return true;
        for (const auto& y : x.body)
            if (surely_planned_in(*y)) return true;
        return false;
    }

    // Is prod (in b[is]) ordered before cons (in b[il], il > is) by what sits between them: a statement of
    // b between the two, one after prod in a block holding it (e.g. an aic_gather after the store inside
    // its split_aiv region), one before cons in a block holding it, or an author flag pair in b?
    // `after_prod` (optional): set when the ordering runs after prod whenever prod runs (in b or in prod's
    // blocks), so that it also orders a later iteration's accesses; not when it sits only on cons's path.
    bool already_ordered(const Block& b, size_t is, size_t il, const Access& prod, const Access& cons,
                         bool* after_prod = nullptr) const {
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

    // ---- execution order: windows, loops ----
    struct LoopAt {
        const Stmt* loop;
        size_t depth;  // path depth of the loop's body block
    };

    // Loops whose body holds both accesses, outermost first.
    std::vector<LoopAt> common_loops(const Access& a, const Access& b) const {
        std::vector<LoopAt> out;
        for (size_t d = 0; d + 1 < a.path.size() && d + 1 < b.path.size() && a.path[d] == b.path[d]; ++d) {
            const Stmt& st = *(*a.path[d].first)[a.path[d].second];
            if (st.kind == StmtKind::For && a.path[d + 1].first == &st.body && b.path[d + 1].first == &st.body)
                out.push_back({&st, d + 1});
        }
        return out;
    }

    static bool sequential(const Stmt& loop) {
        return loop.loop_kind != LoopKind::SplitAiv && loop.loop_kind != LoopKind::Spmd;
    }

    static std::optional<int64_t> trips(const Stmt& loop) {
        auto start = loop.start ? const_int(loop.start) : std::optional<int64_t>(0);
        auto stop = const_int(loop.stop);
        auto step = loop.step ? const_int(loop.step) : std::optional<int64_t>(1);
        if (!start || !stop || !step || *step == 0) return std::nullopt;
        int64_t n = *step > 0 ? (*stop - *start + *step - 1) / *step : (*start - *stop - *step - 1) / -*step;
        return std::max<int64_t>(n, 0);
    }

    // May a and b touch a common element in the same iteration of every loop holding both?
    bool overlap_same(const Access& a, const Access& b) const {
        std::set<const Var*> shared;  // a split_aiv lane index differs between the lanes and the cube: free
        for (auto& l : common_loops(a, b))
            if (l.loop->loop_kind != LoopKind::SplitAiv) shared.insert(l.loop->loop_var.get());
        return WindowAnalysis::may_overlap(a.win, b.win, shared, nullptr, 0, 0, m_win);
    }

    // May a, in an earlier iteration of the common loop `lp` than b, touch an element b touches? (Loops
    // inside lp may be in any iteration; loops around it in the same.) A loop of at most one trip carries
    // nothing.
    bool overlap_carried(const Access& a, const Access& b, const LoopAt& lp) const {
        if (!sequential(*lp.loop)) return false;
        auto n = trips(*lp.loop);
        if (n && *n <= 1) return false;
        int64_t far = n ? *n - 1 : (int64_t{1} << 40);
        std::set<const Var*> shared;
        for (auto& l : common_loops(a, b))
            if (l.depth < lp.depth && l.loop->loop_kind != LoopKind::SplitAiv) shared.insert(l.loop->loop_var.get());
        return WindowAnalysis::may_overlap(a.win, b.win, shared, lp.loop, -far, -1, m_win);
    }

    void plan(Block* b, size_t index, StmtPtr s) { m_insert[{b, index}].push_back(std::move(s)); }

    std::string where(const Access& a) const { return a.stmt->loc.short_str(); }

    VarPtr new_var(const std::string& base, Type t, const SourceLoc& loc) {
        return m_f.new_var(m_f.fresh_name(base), std::move(t), loc);
    }

    // ---- (4) placements ----
    // `s` may be a vector load (a V2C write-after-read): the token is then the loaded tile (the push waits
    // for the load through the tile) and needs no publishing fence (a read is not published).
    void place_fence(const Access& s, const Access& l, Block* b, size_t is, size_t il, bool v2c) {
        const SourceLoc& sl = s.stmt->loc;
        ExprPtr tile = s.store ? arg(*s.call, "tile") : var_ref(s.stmt->targets.at(0), sl);
        Type tok_t = tile->type;
        tok_t.view = TileView{};
        tok_t.valid.clear();
        std::vector<StmtPtr> after_store;
        if (v2c) {
            ExprPtr pushed = tile;
            if (m_opt.target == Target::A5) {
                // a5: the V2C transport carries NZ data, so the token is adapted first (the layout contract).
                Type nz_t = tok_t;
                nz_t.view.blayout = TileLayout::col_major;
                nz_t.view.slayout = TileLayout::row_major;
                nz_t.view.written = true;
                VarPtr nz = new_var(tile->kind == ExprKind::Var ? tile->var->name + "_nz" : "_tok_nz", nz_t, sl);
                after_store.push_back(make_assign(nz,
                                                  make_call(OpCode::Move,
                                                            {{"tile", clone_expr(tile)},
                                                             {"target_memory", mem_lit(Mem::Vec)},
                                                             {"blayout", layout_lit(TileLayout::col_major)},
                                                             {"slayout", layout_lit(TileLayout::row_major)}},
                                                            sl),
                                                  sl));
                pushed = var_ref(nz, sl);
            }
            // Publication (SPEC 4.5/6): the push's flag covers the store only through a fence of the vector
            // lane between them once GM writes become visible later than they complete.
            StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, sl), sl);
            fence->pinned_lane = 2;
            if (s.store) after_store.push_back(fence);
            after_store.push_back(make_eval(
                make_call(OpCode::TpushToAic, {{"tile", clone_expr(pushed)}, {"split", int_lit(0)}}, sl), sl));
            Type pop_t = Type::tile(tok_t.shape, tok_t.dtype, Mem::Mat);
            VarPtr tok = new_var("_v2c_token", pop_t, l.stmt->loc);
            ExprPtr pop = make_call(OpCode::TpopFromAiv, {{"split", int_lit(0)}}, l.stmt->loc, &pop_t);
            m_tokens.push_back({b, is, il, true, make_assign(tok, pop, l.stmt->loc), after_store.back(), after_store,
                                fmt::format("{} -> {}", where(s), where(l))});
        } else {
            if (complete()) {
                // --c2v complete: the FIXP store is published before the token push (SPEC 4.5/6).
                StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, sl), sl);
                fence->pinned_lane = 1;
                after_store.push_back(fence);
            }
            after_store.push_back(
                make_eval(make_call(OpCode::TpushToAiv, {{"tile", clone_expr(tile)}, {"split", int_lit(0)}}, sl), sl));
            Type pop_t = Type::tile(tok_t.shape, tok_t.dtype, Mem::Vec);
            VarPtr tok = new_var("_c2v_token", pop_t, l.stmt->loc);
            ExprPtr pop = make_call(OpCode::TpopFromAic, {{"split", int_lit(0)}}, l.stmt->loc, &pop_t);
            m_tokens.push_back(
                {b, is, il, false, make_assign(tok, pop, l.stmt->loc), after_store.back(), after_store, ""});
        }
        for (auto& st : after_store) plan(b, is + 1, st);
    }

    // Index in `b` of the statement holding block `x` (or `x`'s planned insertion index when x == b), or
    // nullopt when `x` is not inside `b`.
    std::optional<size_t> index_in(Block* b, Block* x, size_t index) const {
        while (x && x != b) {
            auto it = m_index_in_parent.find(x);
            if (it == m_index_in_parent.end()) return std::nullopt;
            index = it->second;
            x = m_parent.at(x);
        }
        if (!x) return std::nullopt;
        return index;
    }

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
    static bool blocks_consumer(const Stmt& s, bool v2c) {
        if (const Expr* c = stmt_call(s)) {
            OpCode code = c->op->code;
            Side consumer = v2c ? Side::Cube : Side::Vector;
            if (code == OpCode::Syncall) return true;
            if (code == OpCode::SyncWait && call_side(*c) != (v2c ? Side::Vector : Side::Cube))
                return call_side(*c) == consumer || call_side(*c) == Side::Shared;
        }
        if (has_transport(s, !v2c)) return true;
        for (const auto& x : s.body)
            if (blocks_consumer(*x, v2c)) return true;
        for (const auto& x : s.orelse)
            if (blocks_consumer(*x, v2c)) return true;
        return false;
    }

    // A V2C token whose store-to-consumer interval holds another token's in the same block (pushed after
    // this store, popped before this consumer) orders nothing more: that push follows this store on the
    // vector lane (MTE3 in order) and its pop precedes this consumer. Dropped (oracle sweep, property 4: one
    // token of two was redundant). Publication: the inner push's flag covers this store's visibility only
    // through a vector fence between the two; a store token's own fence is one, a write-after-read token
    // (a loaded tile) has none, so this store's fence stays then (oracle sweep: a RAW around a WAR raced
    // under a visibility delay). C2V tokens stay as upstream places them.
    void drop_nested_tokens() {
        std::vector<int> drop(m_tokens.size(), 0);  // 0 keep, 1 drop, 2 drop but keep the publishing fence
        for (size_t a = 0; a < m_tokens.size(); ++a)
            for (size_t c = 0; c < m_tokens.size() && drop[a] != 1; ++c) {
                const Token& ta = m_tokens[a];
                const Token& tc = m_tokens[c];
                // tc's push runs after ta's producer access and tc's pop before ta's consumer: nested, or from the
                // same statement to an earlier consumer (two cube stores after one vector load), or the same
                // interval twice (the later token goes).
                const bool nested =
                    tc.is > ta.is ? tc.il <= ta.il : tc.is == ta.is && (tc.il < ta.il || (tc.il == ta.il && c < a));
                if (c != a && ta.v2c && tc.v2c && tc.b == ta.b && nested)
                    drop[a] = token_fenced(tc) || !token_fenced(ta) ? 1 : 2;
            }
        std::vector<Token> kept;
        for (size_t a = 0; a < m_tokens.size(); ++a) {
            if (!drop[a]) {
                kept.push_back(std::move(m_tokens[a]));
                continue;
            }
            const Token& t = m_tokens[a];
            auto& list = m_insert[{t.b, t.is + 1}];
            for (const auto& st : t.after)
                if (drop[a] == 1 || !is_call(*st, OpCode::Fence))
                    list.erase(std::remove(list.begin(), list.end(), st), list.end());
            --m_stats.v2c_fences;
            m_stats.log.push_back(
                t.what + ": token dropped, the token of a pair nested inside it orders it" +
                (drop[a] == 2 ? std::string(" (the store's publishing fence stays)") : std::string()));
        }
        m_tokens = std::move(kept);
    }

    // A V2C token whose store-to-consumer interval in its block holds a barrier this pass planned (placed
    // for another pair, e.g. a write-after-write fallback before the same cube store) orders nothing more:
    // the barrier's fence + syncall(mix) runs after the store on the vector lane (publishing it) and before
    // the consumer on the cube lane, in every execution of the block. Dropped with everything planned for it
    // (oracle sweep, property 4: the largest class of redundant tokens). What relied on the token (a later
    // load it covered, a write-after-write it ordered) sits after the barrier as well.
    void drop_tokens_under_barriers() {
        std::vector<Token> kept;
        for (auto& t : m_tokens) {
            if (!t.v2c || !planned_barrier(t.b, t.is + 1, t.il)) {
                kept.push_back(std::move(t));
                continue;
            }
            auto& list = m_insert[{t.b, t.is + 1}];
            for (const auto& st : t.after) list.erase(std::remove(list.begin(), list.end(), st), list.end());
            --m_stats.v2c_fences;
            m_stats.log.push_back(t.what + ": token dropped, a barrier placed for another pair orders it");
        }
        m_tokens = std::move(kept);
    }

    void place_token_pops() {
        std::vector<size_t> pos(m_tokens.size());
        for (size_t k = m_tokens.size(); k-- > 0;) {
            const Token& t = m_tokens[k];
            size_t p = t.il;
            for (size_t i = t.is + 1; i < p; ++i)
                if (has_transport(*(*t.b)[i], t.v2c) || blocks_consumer(*(*t.b)[i], t.v2c)) p = i;
            for (const auto& [where, stmts] : m_insert) {
                bool moves = false, blocks = false;
                for (const auto& st : stmts) {
                    moves |= has_transport(*st, t.v2c);
                    blocks |= st != t.push && blocks_consumer(*st, t.v2c);
                }
                if (where.first == t.b) {
                    // Same-block pushes are ordered through their own pops below; a blocking statement planned
                    // at or before the pop's index pulls the pop up to that index (and in front of it).
                    if (blocks && where.second > t.is && where.second <= p) p = where.second;
                    continue;
                }
                if (!moves && !blocks) continue;
                if (auto i = index_in(t.b, where.first, where.second); i && *i > t.is && *i < p) p = *i;
            }
            for (size_t j = k + 1; j < m_tokens.size(); ++j)
                if (m_tokens[j].b == t.b && m_tokens[j].v2c == t.v2c && m_tokens[j].is > t.is) p = std::min(p, pos[j]);
            pos[k] = p;
        }
        for (size_t k = 0; k < m_tokens.size(); ++k) {
            const Token& t = m_tokens[k];
            auto& list = m_insert[{t.b, pos[k]}];
            // Before the first blocking statement planned at that index (after the token's own push).
            auto from = std::find(list.begin(), list.end(), t.push);
            auto at = std::find_if(from == list.end() ? list.begin() : from + 1, list.end(), [&](const StmtPtr& st) {
                return blocks_consumer(*st, t.v2c) || is_call(*st, OpCode::Fence);
            });
            // A fence planned right before a barrier belongs to it: the pop goes before both.
            list.insert(at, t.pop);
        }
    }

    // Does a fence surely follow the store `s` before anything that may order it, on every path? From the
    // store up through its enclosing blocks: the rest of each block holds only quiet statements (assignments
    // that move no tile across the lanes, fences, nested loops and branches of those) until a fence of the
    // store's lane directly in that block. Leaving a branch's arm continues after the branch (the other arm
    // does not run); leaving a loop's body needs the whole body quiet (a later iteration runs it after this
    // store, before the loop ends). A fence in one arm of a nested branch, before the store in a later
    // iteration, or after a release publishes nothing: conservative (false) otherwise.
    bool quiet(const Stmt& x, const Stmt* store) const {
        if (&x == store || x.kind == StmtKind::Yield || x.kind == StmtKind::Pass) return true;
        if (x.kind == StmtKind::For || x.kind == StmtKind::If) {
            for (const Block* blk : {&x.body, &x.orelse})
                for (const auto& y : *blk)
                    if (!quiet(*y, store)) return false;
            return true;
        }
        const Expr* c = stmt_call(x);
        if (x.kind == StmtKind::Eval) return c && c->op->code == OpCode::Fence;
        if (x.kind != StmtKind::Assign) return false;
        // A tile move may become the transport that orders the store (a boundary move).
        return !(c && (c->op->code == OpCode::Move || is_cross_core(c->op->code) ||
                       call_side(*c) == Side::BoundaryV2C || call_side(*c) == Side::BoundaryC2V));
    }
    bool published(const Access& s) const {
        const int lane = s.lane == Side::Cube ? 1 : 2;
        for (size_t k = s.path.size(); k-- > 0;) {
            Block* b = s.path[k].first;
            size_t i = s.path[k].second;
            for (size_t j = i + 1; j < b->size(); ++j) {
                const Stmt& x = *(*b)[j];
                if (is_call(x, OpCode::Fence) && x.kind == StmtKind::Eval &&
                    (x.pinned_lane == 0 || x.pinned_lane == lane))
                    return true;
                if (!quiet(x, nullptr)) return false;
            }
            auto owner = m_owner.find(b);
            if (owner == m_owner.end() || !owner->second) return false;  // the function's body: no fence after it
            if (owner->second->kind == StmtKind::For)
                for (size_t j = 0; j <= i; ++j)
                    if (!quiet(*(*b)[j], s.stmt.get())) return false;
        }
        return false;
    }

    // A vector-lane system.fence() right after the store `s` (once; nothing when one already follows it).
    // `cons` (optional): the access the ordering is for; over the unrolled function (trace_published) a
    // fence of the author's before each release that orders it publishes the store as well (property 4: an
    // author's fence + syncall at the top of the next iteration, after the loop, ...).
    void publish_after(const Access& s, const Access* cons = nullptr) {
        Block* sb = s.path.back().first;
        size_t si = s.path.back().second;
        // Already published: a fence after the store and before the first statement that orders it (an
        // author's `fence()` + `syncall()`, or the fence this pass placed on an earlier expansion).
        if (published(s) || (cons && trace_published(s, *cons))) return;
        // A barrier this pass plans between the two (fence + syncall on both lanes) publishes the store too.
        if (cons && compare(s.path, cons->path) == Order::Before) {
            size_t d = 0;
            while (d < s.path.size() && d < cons->path.size() && s.path[d] == cons->path[d]) ++d;
            if (d < s.path.size() && d < cons->path.size() &&
                (planned_barrier(s.path[d].first, s.path[d].second + 1, cons->path[d].second) ||
                 barrier_after(s, d + 1) || barrier_before(*cons, d + 1)))
                return;
            // So does a token of the store's direction whose fence + push run after s and whose pop runs
            // before cons (both in the token's block): fence -> push -> pop is a release that orders and
            // publishes. (A token dropped later leaves a nested token or a barrier inside its interval.)
            const bool v2c = s.lane == Side::Vector;
            for (const Token& t : m_tokens) {
                if (t.v2c != v2c || !token_fenced(t)) continue;  // only a token with a publishing fence
                std::optional<size_t> js, jc;
                for (auto& [blk, i] : s.path)
                    if (blk == t.b) js = i;
                for (auto& [blk, i] : cons->path)
                    if (blk == t.b) jc = i;
                if (js && jc && *js < t.is && *jc >= t.il) return;
            }
        }
        if (!m_published.insert({sb, si}).second) {
            for (PubFence& pf : m_pub_fences)
                if (pf.s.stmt == s.stmt && pf.b == sb && pf.idx == si + 1) {
                    if (cons)
                        pf.cons.push_back(*cons);
                    else
                        pf.keep = true;
                }
            return;
        }
        const SourceLoc& sl = s.stmt->loc;
        StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, sl), sl);
        fence->pinned_lane = s.lane == Side::Cube ? 1 : 2;
        plan(sb, si + 1, fence);
        m_pub_fences.push_back({sb, si + 1, fence, s, {}, cons == nullptr});
        if (cons) m_pub_fences.back().cons.push_back(*cons);
        m_stats.log.push_back(
            fmt::format("{}: store published with system.fence() (the ordering it relies on covers its completion "
                        "only, or, a flag set on another pipe, only after a fence)",
                        where(s)));
    }

    // An already-ordered V2C dependency of the vector store `s` (then `cons`, the cube access): under fence /
    // syncall the store is published (publish_after); under reject with a GM visibility delay, a store the
    // program does not publish is an error, as the checker reports it (SPEC 4.5/6).
    // `same_cluster` false (a pair across clusters, gm_sync_blocks): the trace of one cluster says nothing of
    // what publishes the store before the barrier that orders the other cluster's access.
    void ordered_v2c_store(const Access& s, const Access& cons, bool same_cluster = true) {
        if (!s.store || s.lane != Side::Vector) return;
        if (m_opt.v2c == V2CPolicy::Fence || m_opt.v2c == V2CPolicy::Syncall)
            return publish_after(s, same_cluster ? &cons : nullptr);
        if (m_opt.v2c != V2CPolicy::Reject || m_opt.visibility_delay == 0 || published(s) ||
            (same_cluster && trace_published(s, cons)))
            return;
        if (dry_reject(cons.stmt->loc)) return;
        raise(codes::kV2cUnfenced, cons.stmt->loc,
              fmt::format("{} {} of '{}' is ordered after the vector store at {} only on the store's completion: with "
                          "a GM visibility delay "
                          "({} cycles) a flag, barrier or tile transport publishes a write only through a "
                          "system.fence() of the writing core "
                          "between the write and the release, and none follows the store",
                          cons.lane == Side::Cube ? "cube" : "vector", cons.store ? "store" : "load",
                          name_of(s.origins), s.stmt->loc.str(), m_opt.visibility_delay),
              "insert pl.system.fence() right after the vector store (or compile with --v2c fence)");
    }

    void place_barrier(Block* b, size_t il, const SourceLoc& loc) {
        if (m_rejected) return;  // a re-check that already failed (dry_reject): nothing more is planned
        if (!m_barrier_at.insert({b, il}).second) return;  // one barrier covers every pair ordered there
        // A launch wider than the chip runs in waves: a barrier over all its blocks never completes.
        if (m_opt.chip_clusters > 0 && m_opt.blocks > m_opt.chip_clusters)
            raise(codes::kOccupancy, loc,
                  fmt::format(
                      "this dependency needs a barrier (pl.system.syncall), but the launch's {} blocks exceed the "
                      "chip's {} clusters: "
                      "the blocks run in waves, so a barrier over all of them never completes (it hangs on hardware)",
                      m_opt.blocks, m_opt.chip_clusters),
                  fmt::format("launch at most {} blocks (loop over the work inside a block), or order the accesses "
                              "within a cluster",
                              m_opt.chip_clusters));
        StmtPtr fence = make_eval(make_call(OpCode::Fence, {}, loc), loc);
        StmtPtr sync = make_eval(syncall_call(loc), loc);
        plan(b, il, fence);
        plan(b, il, sync);
        ++m_stats.barriers;
        m_barrier_units.push_back(
            {"barrier", {fence, sync}, &m_stats.barriers, nullptr, fmt::format("{} barrier", loc.short_str())});
    }

    ExprPtr syncall_call(const SourceLoc& loc) {
        // Hard when the launch fills the chip, soft otherwise (a hard barrier would deadlock on hardware).
        bool hard = m_opt.blocks == m_opt.chip_clusters;  // SPEC 5.7: hard only when the launch fills the chip exactly
        std::vector<std::pair<std::string, ExprPtr>> args = {{"core_type", str_lit("mix")}};
        if (!hard) {
            args.push_back({"mode", str_lit("soft")});
            args.push_back({"gm_workspace", var_ref(workspace(), loc)});
        }
        return make_call(OpCode::Syncall, args, loc);
    }

    // The soft barrier's zeroed INT32 GM counter: a hidden parameter the expander adds (as the compiler adds
    // its GM pipe buffer); parameters named __x are allocated and zeroed by the simulator, never compared.
    VarPtr workspace() {
        static const char* kName = "__syncall_workspace";
        if (VarPtr v = m_f.find_var(kName)) return v;
        Type t = Type::tensor({64}, DType::INT32);
        VarPtr v = m_f.new_var(kName, t, m_f.loc);
        m_f.params.push_back({v, ParamDir::InOut});
        m_made_workspace = true;
        return v;
    }

    // A flag id no sync_set/sync_wait of the function uses (nor one planned); with `lane_pair` (a5, both AIV
    // lanes) an id below the lane stride whose AIV1 twin (id + stride) is free as well.
    int free_event(bool lane_pair = false) {
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

    // Do both AIV lanes run the AIV function on an a5 cluster (1:1 flags)? It is split (UP_DOWN /
    // LEFT_RIGHT), dispatched to both lanes, or holds a split_aiv region (which dispatches both lanes for
    // the whole function).
    bool a5_two_lanes() const {
        if (m_opt.target != Target::A5) return false;
        if (m_f.split_mode() != SplitMode::NONE) return true;
        const Attr* dual = m_f.attr("dual_aiv_dispatch");
        if (dual && dual->value && dual->value->ival != 0) return true;
        bool region = false;
        walk(m_f.body,
             [&](const StmtPtr& s) { region |= s->kind == StmtKind::For && s->loop_kind == LoopKind::SplitAiv; });
        return region;
    }

    static PipeType pipe_of(const Access& a) {
        if (a.store) return a.lane == Side::Cube ? PipeType::FIX : PipeType::MTE3;
        return PipeType::MTE2;
    }

    ExprPtr pipe_lit(PipeType p) {
        auto e = std::make_shared<Expr>();
        e->kind = ExprKind::Enum;
        e->enum_kind = EnumKind::PipeType;
        e->ival = static_cast<int64_t>(p);
        e->sval = std::string(pipe_type_name(p));
        e->type = Type::none();
        return e;
    }

    // Loop-carried WAR for a fenced pair: consumer sets a flag after its last load of the tensor in the body
    // (statement `il`); the producer waits for it before its next store. A priming set before the loop and a
    // final wait after it keep the counts equal.
    //
    // On a5 with both AIV lanes running, flags are 1:1 (the AIC's ids [0, s) reach AIV0, [s, 2s) AIV1): the
    // cube's side of the order is one set (or wait) per lane, ids ev and ev + s, and the vector's side picks
    // its lane's id by subblock index. One set reaching only AIV0 would leave AIV1 waiting forever.
    void place_war_flags(const Access& s, const Access& l, Block* b, size_t is, size_t il) {
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
                    make_call(op, {{"event_id", int_lit(id)}, {"pipe", pipe_lit(pipe)}, {"core_type", str_lit(core)}},
                              loc),
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

    bool opposite(const Access& s, const Access& c) const {
        return !c.store && c.lane != s.lane && intersects(c.origins, s.origins);
    }

    // Can the load c, later than the store s in program order, read what s wrote: in the same iteration,
    // or in a later iteration of a loop holding both?
    bool depends_later(const Access& s, const Access& c) const {
        if (overlap_same(s, c)) return true;
        for (auto& lp : common_loops(s, c))
            if (overlap_carried(s, c, lp)) return true;
        return false;
    }

    // Pairing by execution order (SPEC 5.7): each store with the first later load in program order whose
    // window may overlap it (same iteration, or a later iteration of a common loop), then with the loads
    // that only a loop's back edge puts after it (earlier in the body, or in a sibling arm).
    void pair_and_place() {
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
                if (opposite(s, m_acc[j]) && compare(s.path, m_acc[j].path) == Order::Before &&
                    depends_later(s, m_acc[j]))
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

    int producer_stores(const Access& s) const {
        int n = 0;
        for (const auto& a : m_acc)
            if (a.store && a.lane == s.lane && intersects(a.origins, s.origins)) ++n;
        return n;
    }

    // Loop-carried dependencies of store s: loads that run after s only through a back edge (earlier in
    // the body of a common loop, or in a sibling arm) and may read what s wrote in an earlier iteration.
    // `covered`: the depth of the block where the pair of s with a later load was ordered (that ordering
    // runs after s in the same iteration of every loop around that block). Otherwise a barrier before the
    // load's statement in the innermost carrying loop's body orders every earlier iteration's store before
    // it (and, when the load precedes the store in the body, a second barrier before the store's statement
    // orders the same iteration's read before the write). No token: a first iteration has nothing to pop.
    void handle_carried(const Access& s, std::optional<size_t> covered) {
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
                    if (dry_reject(c.stmt->loc)) return;
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
                        m_stats.log.push_back(what +
                                              " has no balanced fence placement (loop-carried), barrier instead");
                    } else {
                        m_stats.log.push_back(what + " ordered with fence + syncall");
                    }
                    place_barrier(lb, ic, c.stmt->loc);
                    break;
            }
        }
    }

    // A barrier this pass plans on a's path at or below depth `from`: before a (runs before it in the same
    // execution) or after it.
    bool barrier_before(const Access& a, size_t from) const {
        for (size_t k = from; k < a.path.size(); ++k)
            if (planned_barrier(a.path[k].first, 0, a.path[k].second)) return true;
        return false;
    }
    bool barrier_after(const Access& a, size_t from) const {
        for (size_t k = from; k < a.path.size(); ++k)
            if (planned_barrier(a.path[k].first, a.path[k].second + 1, a.path[k].first->size())) return true;
        return false;
    }

    // Does something in the body of the loop at depth D order `first` (in an earlier iteration) before
    // `then`: a statement after first's or before then's, or an author flag pair?
    bool carried_ordered(const Access& first, const Access& then, size_t D) const {
        Block* lb = first.path[D].first;
        size_t i_f = first.path[D].second, i_t = then.path[D].second;
        for (size_t k = 0; k < lb->size(); ++k)
            if ((k > i_f || k < i_t) && orders(*(*lb)[k], first)) return true;
        if (flags_order(*lb, i_f, i_t, first, then)) return true;
        auto t = trace_ordered(first, then);
        return t && *t != TraceOrder::Unordered;
    }

    // Write-after-read: the store s overwrites what an opposite-lane load c of an earlier iteration, or
    // earlier in program order, reads. `done`: loads whose WAR handle_pair ordered. The load runs first:
    // a vector load before a cube store is V2C and follows --v2c (fence: a token when the load sits directly
    // in the common block before the store and is the tensor's only vector load, the reverse flag pair for a
    // WAR carried only across iterations, else a barrier); a cube load before a vector store is C2V, which
    // --v2c fence / syncall order too (the reuse half of a V2C scratch) and --c2v complete orders when the
    // V2C policy does not (off, reject). A barrier right before s's statement in the block where c and s
    // diverge orders both the same iteration's and a later iteration's pair.
    void handle_war(const Access& s, const std::set<const Access*>& done) {
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
                    if (dry_reject(s.stmt->loc)) return;
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

    // Orders the pair (s, l) with l later in program order. Returns the depth of the block where the
    // ordering runs after s (for handle_carried), or nullopt when the pair is left unordered.
    std::optional<size_t> handle_pair(const Access& s, const Access& l, std::set<const Access*>& war_done) {
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
                what +
                ": no instance of the load may read what an instance of the store wrote before it, nothing added");
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
        if (planned_barrier(b, is + 1, il) || trace_planned_orders(s, l)) {
            m_stats.log.push_back(what + " ordered by the barrier placed for an earlier pair");
            return d;
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
                      fmt::format(
                          "cube load of '{}' reads GM written by the vector store at {} with nothing ordering them",
                          tensor, s.stmt->loc.str()),
                      "insert pl.system.syncall between the producing region and the cube consumer (or compile with "
                      "--v2c fence)");
            case V2CPolicy::Fence:
                if (direct && unique && token_ring_free(true)) {
                    place_fence(s, l, b, is, il, true);
                    ++m_stats.v2c_fences;
                    m_stats.log.push_back(what + " fenced (tpush_to_aic / tpop_from_aiv)");
                    if (war) {
                        place_war_flags(s, l, b, is, il_last);
                        war_done = war_loads;
                        m_stats.log.push_back(what + " loop-carried WAR ordered with sync_set / sync_wait");
                    }
                    return d;
                }
                ++m_stats.fallbacks;
                m_stats.log.push_back(what + " has no balanced fence placement (" +
                                      (s.call->op->code != OpCode::Store ? (s.call->op->code == OpCode::Mscatter
                                                                                ? "a scatter is not a plain store"
                                                                                : "a scalar write has no tile to pass")
                                       : !token_ring_free(true) ? "hand-written transports share the token's ring"
                                       : unique                 ? "the store is nested deeper than the load"
                                                                : "several producer stores") +
                                      "), barrier instead");
                [[fallthrough]];
            case V2CPolicy::Syncall:
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
        return std::nullopt;
    }

    // Property 4: a publishing fence is redundant when a later fence of its lane (an author's, or one this pass
    // plans: another publishing fence, a token's, a barrier's) follows in the same block with only quiet
    // statements between, existing or planned (no transport, flag, barrier or tile move: nothing that may
    // release the store before that fence). The later fence waits for every GM write issued before it.
    void merge_publishing_fences() {
        for (const PubFence& pf : m_pub_fences) {
            auto lit = m_insert.find({pf.b, pf.idx});
            if (lit == m_insert.end()) continue;
            std::vector<StmtPtr>& list = lit->second;
            auto pos = std::find(list.begin(), list.end(), pf.fence);
            if (pos == list.end()) continue;
            const int lane = pf.fence->pinned_lane;
            auto is_fence = [&](const Stmt& x) {
                return x.kind == StmtKind::Eval && is_call(x, OpCode::Fence) &&
                       (x.pinned_lane == 0 || x.pinned_lane == lane);
            };
            auto scan = [&](const std::vector<StmtPtr>& l, size_t from) {  // 1: a fence, -1: a release, 0: go on
                for (size_t k = from; k < l.size(); ++k) {
                    if (is_fence(*l[k])) return 1;
                    if (!quiet(*l[k], nullptr)) return -1;
                }
                return 0;
            };
            int r = scan(list, static_cast<size_t>(pos - list.begin()) + 1);
            for (size_t j = pf.idx; r == 0 && j < pf.b->size(); ++j) {
                const Stmt& x = *(*pf.b)[j];
                if (is_fence(x))
                    r = 1;
                else if (!quiet(x, nullptr))
                    r = -1;
                else if (auto nx = m_insert.find({pf.b, j + 1}); nx != m_insert.end())
                    r = scan(nx->second, 0);
            }
            if (r != 1) continue;
            list.erase(pos);
            m_stats.log.push_back(fmt::format(
                "{}: publishing fence dropped, a later fence of the lane publishes the store first", where(pf.s)));
        }
    }

    // Property 4, over the unrolled function: a publishing fence is dropped when, without it, every pair it
    // was placed for is still published by another fence (an author's or a planned one: a later store's, a
    // token's, a barrier's) before the release that orders it (trace_published). Each drop is checked again
    // for the fences dropped before it. At most 64 fences (each test walks the trace).
    void drop_unneeded_publishing_fences() {
        if (!trace() || m_pub_fences.size() > 64) return;
        m_count_planned_fences = true;
        std::vector<const PubFence*> dropped;
        auto holds = [&](const PubFence& pf) {
            for (const Access& c : pf.cons)
                if (!trace_published(pf.s, c)) return false;
            return true;
        };
        for (const PubFence& pf : m_pub_fences) {
            if (pf.keep || pf.cons.empty()) continue;
            auto lit = m_insert.find({pf.b, pf.idx});
            if (lit == m_insert.end() ||
                std::find(lit->second.begin(), lit->second.end(), pf.fence) == lit->second.end())
                continue;
            m_pub_removed.insert(pf.fence.get());
            bool ok = holds(pf);
            for (const PubFence* d : dropped) ok = ok && holds(*d);
            if (!ok) {
                m_pub_removed.erase(pf.fence.get());
                continue;
            }
            dropped.push_back(&pf);
        }
        m_count_planned_fences = false;
        for (const PubFence* d : dropped) {
            auto& list = m_insert[{d->b, d->idx}];
            list.erase(std::find(list.begin(), list.end(), d->fence));
            m_stats.log.push_back(fmt::format(
                "{}: publishing fence dropped, another fence publishes the store before each release that orders it",
                where(d->s)));
        }
        m_pub_removed.clear();
    }

    // The loop-carried write-after-read barriers handle_pair deferred: placed unless, over the unrolled
    // function, the barriers planned by then order every WAR load before the next overlapping store.
    void place_deferred_war_barriers() {
        for (const DeferredWar& w : m_deferred_war) {
            if (std::all_of(w.loads.begin(), w.loads.end(),
                            [&](const Access* c) { return trace_planned_orders(*c, *w.store); })) {
                m_stats.log.push_back(w.what + " loop-carried WAR ordered by the barriers planned (unrolled)");
                continue;
            }
            place_barrier(w.b, w.idx, w.loc);
            ++m_stats.war_orders;
            m_stats.log.push_back(w.what + " loop-carried WAR ordered with a second barrier");
        }
        m_deferred_war.clear();
    }

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
    mutable std::optional<SourceLoc> m_rejected;  // a re-check: where reject would have raised E-V2C-UNFENCED
    // Under a re-check, reject's E-V2C-UNFENCED is recorded instead of thrown (true: the caller returns as
    // if the pair were left). The re-check needs no message, and a C++ exception thrown in a process whose
    // SystemC coroutines have run (tests run many sessions in one process) meets ASan's fiber-switch hooks
    // that SystemC calls and is reported as a stack-buffer-overflow (a false positive, but CI's ASan run
    // aborts on it); the re-check runs once per insertion, so it must not throw on its normal path.
    bool dry_reject(const SourceLoc& loc) const {
        if (!m_dry) return false;
        if (!m_rejected) m_rejected = loc;
        return true;
    }
    bool m_made_workspace = false;  // workspace() added the soft barrier's parameter
    static constexpr size_t kMaxPruneUnits = 48;

    bool plans_nothing() const {
        for (const auto& [at, list] : m_insert)
            if (!list.empty()) return false;
        return true;
    }

    // The pass in reject mode on the function as it now stands: no error, nothing to add. `why` (optional):
    // what the re-check objects to (for -v).
    bool recheck_plans_nothing(std::string* why = nullptr) {
        ExpandOptions o = m_opt;
        o.v2c = V2CPolicy::Reject;
        o.visibility_delay = std::max<uint64_t>(o.visibility_delay, 1);
        ExpandStats scratch;
        const size_t vars = m_f.vars.size(), params = m_f.params.size();
        bool ok = false;
        try {
            GmSync g(m_f, o, scratch, m_live, m_live_reads);
            g.m_dry = true;
            g.run();
            ok = !g.m_rejected && !g.m_bp_retry && g.plans_nothing();
            if (g.m_rejected && why)
                *why = fmt::format("{}: E-V2C-UNFENCED", g.m_rejected->short_str());
            else if (!ok && why)
                *why = "it would add an ordering" +
                       (scratch.log.empty() ? std::string() : " (" + scratch.log.back() + ")");
        } catch (const CompileError& e) {
            ok = false;
            if (why) *why = fmt::format("{}: {}", e.diag().loc.short_str(), e.what());
        }
        m_f.vars.resize(vars);  // what the re-check made for its plan (a token's variable, ...) goes
        m_f.params.resize(params);
        return ok;
    }

    static void walk_blocks(Block& b, const std::function<void(Block&)>& f) {
        f(b);
        for (auto& st : b) {
            walk_blocks(st->body, f);
            walk_blocks(st->orelse, f);
        }
    }

    void prune_inserted() {
        if (m_opt.v2c != V2CPolicy::Fence && m_opt.v2c != V2CPolicy::Syncall) return;
        std::set<const Stmt*> inserted;
        for (const auto& [at, list] : m_insert)
            for (const auto& st : list) inserted.insert(st.get());
        std::vector<Unit> units;
        std::set<const Stmt*> claimed;
        auto add = [&](Unit u) {
            std::vector<StmtPtr> keep;
            for (auto& st : u.stmts)
                if (inserted.count(st.get()) && claimed.insert(st.get()).second) keep.push_back(st);
            if (keep.empty()) return;
            u.stmts = std::move(keep);
            units.push_back(std::move(u));
        };
        for (const Unit& u : m_barrier_units) add(u);
        for (const Token& t : m_tokens) {
            std::vector<StmtPtr> st = t.after;
            st.push_back(t.pop);
            if (!t.v2c) {
                for (auto& x : st) claimed.insert(x.get());  // upstream's C2V token stays as placed
                continue;
            }
            add({"V2C token", std::move(st), &m_stats.v2c_fences, nullptr, t.what});
        }
        for (const Unit& u : m_flag_units) add(u);
        // Publishing fences placed alone, in program order (the function's statements as now applied).
        walk(m_f.body, [&](const StmtPtr& st) {
            if (inserted.count(st.get()) && !claimed.count(st.get()) && is_call(*st, OpCode::Fence))
                add({"publishing fence",
                     {st},
                     nullptr,
                     nullptr,
                     fmt::format("{} publishing fence", st->loc.short_str())});
        });
        if (units.empty()) return;
        if (units.size() > kMaxPruneUnits) {
            m_stats.log.push_back(
                fmt::format("final re-check skipped: {} insertions (at most {} are re-checked one by one)",
                            units.size(), kMaxPruneUnits));
            return;
        }
        if (std::string why; !recheck_plans_nothing(&why)) {
            m_stats.log.push_back(
                "final re-check: nothing removed, the re-check does not accept the expanded function as it is: " + why);
            return;
        }
        std::set<const Stmt*> removed;
        auto try_without = [&](const std::vector<StmtPtr>& out) {
            std::vector<Stmt> saved;
            for (auto& st : out) {
                saved.push_back(*st);
                *st = Stmt{};  // a Pass while the re-check runs
            }
            if (recheck_plans_nothing()) {
                for (auto& st : out) removed.insert(st.get());
                return true;
            }
            for (size_t k = 0; k < out.size(); ++k) *out[k] = std::move(saved[k]);
            return false;
        };
        for (const Unit& u : units) {
            bool whole = try_without(u.stmts), part = false;
            if (!whole) {
                std::vector<StmtPtr> no_fence;
                for (auto& st : u.stmts)
                    if (!is_call(*st, OpCode::Fence)) no_fence.push_back(st);
                part = no_fence.size() != u.stmts.size() && !no_fence.empty() && try_without(no_fence);
            }
            if (!whole && !part) continue;
            // A barrier's fence left alone runs on both lanes; the lane whose accesses it orders keeps it.
            for (auto& st : u.stmts)
                if (part && is_call(*st, OpCode::Fence) && st->pinned_lane == 0)
                    for (uint8_t lane : {uint8_t{2}, uint8_t{1}}) {
                        st->pinned_lane = lane;
                        if (recheck_plans_nothing()) break;
                        st->pinned_lane = 0;
                    }
            if (u.counter) --*u.counter;
            if (u.counter2) --*u.counter2;
            ++m_stats.pruned;
            m_stats.log.push_back(fmt::format(
                "{}: {} removed{} by the final re-check (every pair stays ordered and published without it)", u.what,
                u.kind, part ? " (its system.fence() stays)" : ""));
        }
        if (removed.empty()) return;
        walk_blocks(m_f.body, [&](Block& b) {
            b.erase(std::remove_if(b.begin(), b.end(), [&](const StmtPtr& st) { return removed.count(st.get()) > 0; }),
                    b.end());
        });
        // The soft barrier's parameter goes with the last barrier that used it.
        if (m_made_workspace) {
            bool used = false;
            walk(m_f.body, [&](const StmtPtr& st) { used |= is_call(*st, OpCode::Syncall); });
            VarPtr w = m_f.find_var("__syncall_workspace");
            if (!used && w)
                m_f.params.erase(
                    std::remove_if(m_f.params.begin(), m_f.params.end(), [&](const Param& p) { return p.var == w; }),
                    m_f.params.end());
        }
    }

    void apply() {
        // Highest index first within each block, so earlier indices stay valid.
        for (auto it = m_insert.rbegin(); it != m_insert.rend(); ++it) {
            Block* b = it->first.first;
            size_t idx = std::min(it->first.second, b->size());
            b->insert(b->begin() + static_cast<std::ptrdiff_t>(idx), it->second.begin(), it->second.end());
        }
    }
};

}  // namespace cvsim::passes::gmsync
