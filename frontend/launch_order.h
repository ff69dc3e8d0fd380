// LaunchOrder: the inter-launch ordering analysis of an orchestration (unordered_launches), over launch_order*.cpp.
//
// Algorithm. (1) Collect the launches in program order with the loops and branch arms they sit in, and the
// host's reads of tensor data (launch_order.cpp). (2) Follow the task-id tokens each value surely carries
// through assignments, branches, loops to their fixed point and task-id arrays (launch_order_tokens.cpp,
// launch_order_flow.cpp). (3) Take each launch's tensor arguments, their roots and whether the runtime's tensor
// map looks them up (launch_order_access.cpp), and the windows they cover over the loop variables
// (launch_order_windows.cpp). (4) Order the launches of one iteration, then the launches of one loop at two
// iterations, through deps=, the tensor map and host reads (launch_order_deps.cpp, launch_order_loops.cpp); a
// pair not ordered that may share bytes one of them writes (launch_order_apart.cpp, launch_order_conflict.cpp)
// is a finding (docs/DECISIONS.md, "Manual scopes"), except at the instances a tensor-map edge that holds there
// orders (launch_order_hops.cpp).
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include "frontend/diag.h"
#include "frontend/launch_internal.h"

namespace cvsim::launch_detail {

struct ManualLaunch {
    const Stmt* stmt = nullptr;
    const Expr* call = nullptr;
    std::shared_ptr<Function> callee;
    size_t first = 0;                               // the callee's first argument in call->args (1 for a submit)
    size_t scope = 0;                               // index of its manual scope
    std::vector<std::pair<const Stmt*, int>> arms;  // the branch arms it sits in (If, 0 then / 1 else)
    std::vector<const Stmt*> loops;                 // the loops it sits in (For, outermost first; no pl.spmd)
    std::set<size_t> no_dep;                        // the kernel parameters it passes with pl.no_dep
};

// An integer value of the orchestration as sum(coef * loop variable) + constant (nullopt: not of that form).
struct Affine {
    std::map<const Var*, int64_t> coef;
    int64_t c = 0;
};

class LaunchOrder {
  public:
    // ORCH: an Orchestration function with a source file.
    LaunchOrder(const Program& program, const Function& orch);
    // Statements of ORCH inlined from called orchestrations -> the call they came from (launch_inline.cpp).
    // PyPTO derives call directions per function: an Out argument is looked up for a loop, an earlier writer or an
    // InOut parameter of the function the launch is written in only.
    void set_origin(std::map<const Stmt*, int> origin) { m_origin = std::move(origin); }

    // The findings, in the order they are found.
    std::vector<Diagnostic> run();

  private:
    // ManualLaunch::scope of a launch in no manual scope.
    static constexpr size_t kAuto = std::numeric_limits<size_t>::max();
    static constexpr int64_t kWhole = std::numeric_limits<int64_t>::min();  // the element of a scalar carried value
    static constexpr int64_t kWorkBudget = 4'000'000;
    static constexpr size_t kNoFill = std::numeric_limits<size_t>::max();

    // The orchestration's own reads of tensor data (pl.tensor.read), in program order among the launches: the
    // host waits there for the tensor's writers (docs/DECISIONS.md, "Manual scopes", host reads).
    struct HostRead {
        size_t pos = 0;  // launches before it in program order
        const Expr* tensor = nullptr;
        std::vector<std::pair<const Stmt*, int>> arms;
        std::vector<const Stmt*> loops;
        bool in_manual_scope = false;
    };
    // A loop's start, stop and step, each a constant followed through single assignments (nullopt: one is not).
    struct LoopBounds {
        int64_t lo = 0, hi = 0, step = 1;
    };
    // A task-id array a loop nest fills one element per iteration: after the nest, element e holds the task id
    // the one iteration whose index expression is e stored (PyPTO's lowering of a list of task ids built in
    // loops: `tids[g * 8 + n] = tid`). The nest's loops have constant ranges, the array goes through every level
    // as a carried value, the innermost body updates it at an index of the nest's loop indices that differs at
    // every iteration, so depending on every element of the image orders after every iteration's launch. An
    // instance token (launch, fill, e) says "that launch at the iteration that stored element e".
    struct Fill {
        std::vector<const Stmt*> nest;  // outermost first
        const Expr* tid = nullptr;      // the task id stored
        const Expr* index = nullptr;    // where, over the nest's loop indices
        std::set<int64_t> image;        // the elements it stores
        std::vector<int64_t> order;     // the same, in the order the iterations run
    };
    // Tokens past the launches: carry tokens (v, e) and instance tokens (launch, fill, e), by id - n_launch.
    struct Token {
        bool carry = false;
        const Var* var = nullptr;  // carry: the carried value
        size_t launch = 0;         // instance: the launch
        size_t fill = 0;           // instance: the fill (index in m_fills)
        int64_t e = 0;             // carry: the element (kWhole: the value); instance: the element stored
        const Expr* at = nullptr;  // instance: the element is this index at the reader's iteration (not e)
        // select: an element of an array whose elements hold different launches, read at AT, an index over the
        // reader's loops: at the reader's iteration where AT is E, the launches ELEMS[E] (their instances in that
        // iteration of the loops they share with the reader).
        bool select = false;
        std::map<int64_t, std::set<size_t>> elems;
        // cond: LAUNCH, where it ran (a launch in one arm of a branch, out of that branch's value: where it ran,
        // that arm was taken; docs/DECISIONS.md, "A task id out of one arm of a branch"). It orders a launch only
        // in the iteration it was made in: in all of LAUNCH's loops.
        bool cond = false;
    };
    using Tokens = std::set<size_t>;
    struct TokVal {
        Tokens s;                      // the value as a whole (a scalar task id; an array: none sure)
        std::map<int64_t, Tokens> at;  // an array's elements at constant indices (the others: none sure)
        bool operator==(const TokVal& o) const { return s == o.s && at == o.at; }
    };
    // The instances of a launch in a fill's nest that a later launch's deps= name: elements stored, and indices
    // (over the later launch's loops) whose element it names.
    // SEL: through an array read at an index over the later launch's loops whose elements hold different launches
    // (a select token), the instances of the later launch where that index is one of the values given.
    struct Partial {
        size_t fill = kNoFill;
        std::set<int64_t> elems;
        std::vector<const Expr*> at;
        std::vector<std::pair<const Expr*, std::set<int64_t>>> sel;
        // AT_IN: as AT, where the index is one of the values given (a select token's elements that hold this
        // fill's instances).
        std::vector<std::pair<const Expr*, std::set<int64_t>>> at_in;
    };
    // A tensor launches A and B may both access, one of them writing it (nullptr: none).
    struct Conflict {
        const Var* shared = nullptr;
        bool a_writes = false, b_writes = false;
        bool tracked = false;  // both in AUTO scopes, both arguments tracked, the tensor not manual_dep
        bool sure = false;     // both windows are what the kernels access, without gaps: the overlap is real
    };
    // Each launch's tensor arguments: the argument, what it may be (roots and windows), whether the launch writes
    // it and whether the runtime tracks it there (not pl.no_dep).
    // LOOKS_UP: the runtime looks the argument up in its tensor map, so the launch runs after the earlier writers
    // it finds there (an In or InOut argument, or an Out one PyPTO's DeriveCallDirections makes InOut; set below).
    struct Access {
        const Expr* arg = nullptr;
        std::vector<GmAlias> roots;
        bool writes = false;
        bool tracked = true;
        ParamDir dir = ParamDir::In;
        bool looks_up = false;
    };
    // A loop index divided by a constant (`i // 5`, `i % 5`: a flattened 2-D loop) is a derived variable: an
    // offset affine in it, whose value follows from the loop index's (apart() pairs the two).
    struct Derived {
        const Var* base = nullptr;
        int64_t k = 1, c = 0, d = 1;  // (k * base + c) // d, or % d
        bool mod = false;
    };
    // The window ARG names when it is a pl.tensor.slice (or three-argument pl.tensor.view) of the whole of one
    // root, per dimension its offset (affine) and extent; nullopt otherwise.
    struct AffineWindow {
        const Var* root = nullptr;
        std::vector<std::optional<Affine>> lo;
        std::vector<int64_t> ext;
    };
    // The window a launch's argument covers of its root, per dimension an offset affine in the orchestration's
    // loop variables and an extent (nullopt: not known): the argument's own slice (or the whole root), narrowed by
    // what the kernel accesses of its parameter (kernel_window) when its scalar arguments are affine too.
    struct ArgDim {
        Affine off;
        int64_t ext = 0;
        bool exact = false;  // narrowed to what the kernel accesses, with no gaps (else its whole extent, or a box)
    };
    struct ArgWindow {
        const Var* root = nullptr;
        std::vector<std::optional<ArgDim>> dims;
        bool atomic = false;  // the kernel only adds to it atomically (atomic-add stores commute)
    };
    // An edge of the tensor map that may hold at some instance pairs only, through which a launch J may run after
    // an earlier launch I: I publishes its tracked access XI, M looks its access YI up, and M is J itself or a
    // launch J runs after in J's iteration (M in no loop J is not in, running whenever J does). At the instances
    // where the two arguments overlap, M, and so J, runs after I (docs/DECISIONS.md, "Tensor-map edges that hold
    // at the instances that meet").
    struct Hop {
        size_t m = 0, xi = 0, yi = 0;
    };
    // What a launch runs after across the iterations of one loop (its launches only):
    // PREV[j]: every instance of i at the previous iteration that ran (through a task id the loop carries, or
    // the tensor map); EVERY[j]: every instance of i at every earlier iteration (the tensor map holds them all).
    struct LoopOrder {
        std::map<size_t, std::set<size_t>> prev, every;
    };

    // ---- The launches and host reads (launch_order.cpp) ----
    void find_untracked();
    std::optional<size_t> scope_of(uint32_t line);
    void collect(const Block& body);
    void scan_values();
    bool defined_twice(const Var* v);
    static const Stmt* last_yield(const Block& b);

    // ---- Indices, fills and task-id tokens (launch_order_tokens.cpp) ----
    std::optional<int64_t> index_at(const Expr* x, const std::map<const Var*, int64_t>& bound, int depth);
    std::optional<LoopBounds> loop_bounds(const Stmt& f);
    std::optional<std::vector<int64_t>> loop_vals(const Stmt& f);
    std::optional<size_t> fill_nest(const Stmt* loop, size_t k);
    size_t carry_token(const Var* v, int64_t e);
    size_t inst_token(size_t x, size_t fill, int64_t e);
    size_t sym_token(size_t x, size_t fill, const Expr* at);
    size_t sel_token(const Expr* at, std::map<int64_t, std::set<size_t>> elems);
    size_t cond_token(size_t x);
    bool is_carry(size_t t);
    bool is_inst(size_t t);
    bool is_sel(size_t t);
    bool is_cond(size_t t);
    static Tokens meet(const Tokens& a, const Tokens& b);
    TokVal meet_val(const TokVal& a, const TokVal& b);
    static Tokens whole(const TokVal& v);
    std::optional<std::set<int64_t>> index_values(const Expr* x, int depth);
    void collect_index_loops(const Expr* x, std::set<const Stmt*>& out, int depth);
    const std::set<const Stmt*>& index_loops(const Expr* x);

    // ---- The tokens each value carries, in program order (launch_order_flow.cpp) ----
    TokVal eval(const Expr* x);
    void acc_fill(size_t fi, int64_t e, Tokens& acc);
    void forget_assigned(const Block& b);
    void add_conds(TokVal& to, const TokVal& arm_val, const Stmt* branch, int arm);
    void flow(const Block& body);

    // ---- Each launch's tensor arguments and their buffers (launch_order_access.cpp) ----
    void find_accesses();
    const Expr* written_arg(const Expr* d, int64_t i, const Type* t);
    const Var* root_of(const Expr* e, int depth, bool& cycle);
    const Var* root_of_var(const Var* v, int depth, bool& cycle);
    const Var* pypto_root(const Expr* e);
    static bool exclusive_arms(const ManualLaunch& a, const ManualLaunch& b);

    // ---- Affine offsets and argument windows (launch_order_windows.cpp) ----
    static int64_t derive(const Derived& dv, int64_t x);
    const Var* base_of(const Var* v);
    std::optional<std::pair<int64_t, int64_t>> loop_range(const Var* v);
    std::optional<std::vector<int64_t>> loop_values(const Var* v);
    std::optional<Affine> affine(const Expr* e, int depth);
    std::optional<AffineWindow> window_of(const Expr* arg);
    std::optional<ArgWindow> box_from(const Expr* arg, const std::vector<GmAlias>& rts);
    const std::optional<ArgWindow>& arg_box(size_t k, size_t x);
    const Expr* through_results(const Expr* e);
    const std::optional<ArgWindow>& map_box(size_t k, size_t x);
    const std::optional<ArgWindow>& arg_window(size_t k, size_t x);

    // ---- Windows apart, windows surely overlapping (launch_order_apart.cpp) ----
    bool apart(size_t a, size_t x, size_t b, size_t y, const Stmt* loop, const Partial* part = nullptr);
    bool must_overlap(size_t a, size_t x, size_t b, size_t y, const Stmt* loop);

    // ---- Tensor-map edges that order a pair at the instances that meet (launch_order_hops.cpp) ----
    std::vector<Hop> hops(size_t i, size_t j);
    bool hop_orders(size_t a, size_t x, size_t b, size_t y, const std::vector<Hop>& hs);
    bool hop_implied(size_t a, size_t x, size_t b, size_t y, const Hop& h);
    bool in_both_loops(size_t a, size_t b, const Var* v);  // V is the variable of a loop A and B are both in

    // ---- Conflicts, the tensor map's orders and the findings (launch_order_conflict.cpp) ----
    bool varies(const Expr* e, const Stmt* loop, const ManualLaunch& l, int depth);
    bool launch_varies(size_t k, const Stmt* loop);
    bool is_untracked(const Var* v);
    bool exact_window(size_t k, size_t x);
    bool known(size_t k, size_t x, const Stmt* loop);
    Conflict conflict(size_t a, size_t b, const Stmt* loop, bool known_only = false, const Partial* part = nullptr,
                      bool use_hops = false);
    static const GmAlias* single_root(const std::vector<GmAlias>& rs);
    static const Var* one_base(const std::vector<GmAlias>& rs);
    bool fresh_in(const Var* base, const std::vector<const Stmt*>& a_loops, const std::vector<const Stmt*>& other);
    const Stmt* carried_from(const Expr* e, const Var* base, bool& direct, int depth = 0);
    bool other_instance(const Expr* x, const Expr* y, const Var* base);
    static bool whole_view(const GmAlias& g);
    static bool whole_arg(const std::vector<GmAlias>& rs, const Expr* e);
    bool map_orders(size_t a, size_t b, const Stmt* loop = nullptr);
    void report(size_t i, size_t j, const Conflict& c, const Stmt* loop, bool unsure = false);

    // ---- Where launches run relative to loops, and what runs after what across iterations
    // (launch_order_loops.cpp) ----
    bool never_runs(const ManualLaunch& m);
    static size_t loop_index(const ManualLaunch& m, const Stmt* loop);
    bool runs_every(const ManualLaunch& m, const Stmt* loop);
    bool chained(size_t x, const Stmt* loop);
    bool chained_below(size_t x, const Stmt* loop);
    static size_t shared_loops(const std::vector<const Stmt*>& p, const std::vector<const Stmt*>& q);
    static bool on_every_path(const ManualLaunch& m, const ManualLaunch& b);
    bool runs_loops_of(size_t p, const ManualLaunch& m, const ManualLaunch& b);
    static bool dominates(const HostRead& r, const ManualLaunch& b);
    std::vector<size_t> launches_in(const Stmt* loop);
    const LoopOrder& loop_order(const Stmt* loop);
    void order_iterations();

    // ---- What each launch runs after in its iteration (launch_order_deps.cpp) ----
    void order_launches();
    std::set<int64_t> ordered_elems(size_t t, size_t fi, const std::set<size_t>& deps);
    bool over_loops_of(const Expr* h, const ManualLaunch& b);

    const Program& m_program;
    std::map<const Stmt*, int> m_origin;  // set_origin
    int origin_of(const Stmt* s) const {
        auto it = m_origin.find(s);
        return it == m_origin.end() ? 0 : it->second;
    }
    const Function& m_orch;
    std::vector<Diagnostic> m_out;
    const std::vector<std::pair<uint32_t, uint32_t>> m_scopes;  // the manual scopes' line ranges
    // Tensors the runtime does not track in an AUTO scope either: pl.tensor.create(..., manual_dep=True).
    std::set<const Var*> m_untracked;

    // The launches, in program order, with the loops and branch arms they sit in.
    std::vector<ManualLaunch> m_launches;
    std::map<const Expr*, size_t> m_launch_of;
    std::vector<std::pair<const Stmt*, int>> m_arms;
    std::vector<const Stmt*> m_loops;
    std::map<const Stmt*, size_t> m_if_depth;  // the loops around each branch
    std::vector<HostRead> m_host_reads;
    int m_spmd_depth = 0;        // (collect: the pl.spmd loops around the statement)
    std::set<size_t> m_in_spmd;  // the launches in a pl.spmd loop (N blocks, N perhaps known at run time only)
    size_t m_n_launch = 0;

    std::set<const Var*> m_carry_index;  // the loops' carried values
    // Single assignments of the orchestration (an array filled per iteration is recognised through them).
    std::map<const Var*, const Expr*> m_token_def;
    std::set<const Var*> m_token_multi;
    // How many times each name is defined: as a parameter, an assignment's target, a loop's or branch's result
    // (once: their yields name the same results), a loop index, a carried value. The parser gives every use of a
    // name one variable, so a name defined more than once has no single value cvsim follows.
    std::map<const Var*, int> m_def_count;
    // A loop index that names something else too (the index of another loop, an assigned value, a parameter)
    // has no value cvsim follows.
    std::set<const Var*> m_rebound;
    std::map<const Var*, std::pair<const Stmt*, size_t>> m_loop_result_of;  // a loop's result -> (loop, k)
    int64_t m_index_steps = 0;                                              // index_at's budget
    std::vector<Fill> m_fills;
    std::map<std::pair<const Stmt*, size_t>, std::optional<size_t>> m_fill_of;  // (loop, k) -> index in m_fills
    std::vector<Token> m_token_of;
    std::map<std::pair<const Var*, int64_t>, size_t> m_carry_id;
    std::map<std::tuple<size_t, size_t, int64_t>, size_t> m_inst_id;
    std::map<std::tuple<size_t, size_t, const Expr*>, size_t> m_sym_id;
    std::map<std::pair<const Expr*, std::map<int64_t, std::set<size_t>>>, size_t> m_sel_id;
    std::map<size_t, size_t> m_cond_id;  // launch -> its cond token
    std::map<const Var*, TokVal> m_vals;
    std::map<size_t, Tokens> m_yielded;  // by carry token
    std::map<const Var*, const Stmt*> m_index_loop;
    int64_t m_value_steps = 0;
    // Each loop's enclosing loops, and those of each value's definition (an assignment's, a loop's or a
    // branch's target).
    std::map<const Stmt*, std::vector<const Stmt*>> m_enclosing;
    std::map<const Var*, std::vector<const Stmt*>> m_def_loops;
    std::map<const Expr*, std::set<const Stmt*>> m_index_loops_memo;
    int64_t m_loop_steps = 0;
    // A value defined more than once (not what the printer emits: hand-written code) surely carries nothing:
    // which definition reaches a use is not followed. What deps= each launch carries is taken where it runs, in
    // program order.
    std::vector<Tokens> m_launch_deps;
    // (a budget of statements: nested loops each find their fixed point afresh in every round of the loops around
    // them; past it, a loop's carried values hold nothing sure and its body is followed once)
    int64_t m_work = 0;

    std::optional<LaunchAliases> m_roots;  // built once the tokens are followed
    std::map<const Function*, std::vector<ParamDir>> m_dir_memo;
    std::vector<std::vector<Access>> m_access;
    // Values of the orchestration as affine functions of its loop variables (single definitions followed).
    std::map<const Var*, const Expr*> m_def_of;
    std::set<const Var*> m_multi_def, m_loop_vars;
    // The loops each tensor the orchestration creates is created in: every iteration of those has a fresh one.
    std::map<const Var*, std::set<const Stmt*>> m_created_in;
    std::map<const Var*, const Stmt*> m_carry_loop;  // a loop's carried value -> the loop
    std::map<const Var*, std::pair<const Expr*, std::vector<const Expr*>>> m_carry_defs;  // init, yields
    std::map<const Var*, const Var*> m_loop_result;                                       // result -> carried value
    std::set<const Var*> m_orch_params;
    std::map<const Var*, ParamDir> m_orch_param_dir;
    std::map<const Var*, const Var*> m_root_memo;
    std::set<const Var*> m_root_active;
    int64_t m_root_visits = 0;  // bound on the work (beyond it: no root, so no promotion is assumed)

    std::map<const Var*, Derived> m_derived_of;
    std::deque<Var> m_derived_vars;
    std::map<std::tuple<const Var*, int64_t, int64_t, int64_t, bool>, const Var*> m_derived_key;
    // The loop of each orchestration loop variable.
    std::map<const Var*, const Stmt*> m_loop_of;
    std::map<std::pair<size_t, size_t>, std::optional<ArgWindow>> m_arg_windows;  // (launch, access) -> window
    std::vector<std::vector<size_t>> m_access_param;                              // access -> kernel parameter
    std::map<std::pair<size_t, size_t>, std::optional<ArgWindow>> m_arg_boxes;    // (launch, access) -> window
    std::map<std::pair<size_t, size_t>, std::optional<ArgWindow>> m_map_boxes;    // (launch, access) -> window

    // What each launch runs after in its iteration (transitively): its deps= and, both in AUTO scopes, every
    // earlier launch that publishes a tracked tensor it looks up (map_orders), as the runtime's tensor map orders
    // them; and the loop-carried values its deps= (or those of a launch it runs after) read.
    std::vector<std::set<size_t>> m_after, m_carried;
    std::vector<bool> m_reported;
    std::vector<std::set<size_t>> m_read_writers;  // per host read: the launches it waits for
    std::map<const Stmt*, LoopOrder> m_loop_orders;
    // m_after[j]: every instance of i that ran, in j's iteration of the loops both are in (all of i's instances in
    // the loops j is not in), runs before j. m_partial[(i, j)]: some instances of i do (through a filled array).
    std::map<std::pair<size_t, size_t>, Partial> m_partial;
    // m_before_all[j][x] = K: every instance of x runs before some instance of j over j's loops past the first K (the
    // loops x and j share), in each iteration of those K.
    std::vector<std::map<size_t, size_t>> m_before_all;
};

}  // namespace cvsim::launch_detail
