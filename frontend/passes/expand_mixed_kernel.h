// ExpandMixedKernel: split mixed InCore functions into AIC / AIV / Group functions with tpush/tpop
// transports, tfree, pipe setup and GM cross-lane synchronisation (SPEC 5).
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/params.h"
#include "frontend/ir/ir.h"

namespace cvsim::passes {

// What to do about vector->cube dependencies through GM (C2V is always fenced as upstream does).
enum class V2CPolicy : uint8_t { Off, Fence, Syncall, Reject };
std::string_view policy_name(V2CPolicy p);
std::optional<V2CPolicy> policy_from_name(std::string_view name);

// What to do about cube->vector dependencies through GM: `upstream` fences what the compiler fences today (a
// unique producer store whose consumer sits in its block or below); `complete` also orders everything else
// (several producer stores, a nested store, WAR, WAW, loop-carried pairs) and publishes the C2V token's
// store with a cube-side fence, so that no cross-core GM hazard of either direction is left.
enum class C2VPolicy : uint8_t { Upstream, Complete };
std::string_view c2v_policy_name(C2VPolicy p);
std::optional<C2VPolicy> c2v_policy_from_name(std::string_view name);

struct ExpandOptions {
    V2CPolicy v2c = V2CPolicy::Fence;
    C2VPolicy c2v = C2VPolicy::Upstream;
    Target target = Target::A2A3;
    int blocks = 1;          // clusters the kernel is launched on (hard vs soft syncall)
    int chip_clusters = 24;  // clusters on the chip
    // a5 (1:1 flags): ids [0, s) pair the AIC with AIV0, [s, 2s) with AIV1; s = chip.flag_counters /
    // the AIVs per cluster (2). A flag both AIV lanes use is one id per lane.
    int flag_lane_stride = 16;
    int auto_slot_num = 2;  // sync.auto_slot_num: slots of the pipes the expander adds (no slot_num attr)
    // gm.visibility_delay (or the bound --max-visibility-delay draws from): > 0, a flag, barrier or transport
    // orders a V2C store's completion only, and `reject` errors on a store the program does not publish.
    uint64_t visibility_delay = 0;
    // A mixed distributed function (pld.* state, ir::Function::distributed): false (`expand`) splits it (pld.*
    // ops placed as upstream's core affinity places them); true (run/check: compile()) keeps it as written, and
    // a launch that reaches it is refused (one device).
    bool keep_distributed = false;
    // Non-empty: only these mixed functions are expanded (the ones a checked launch reaches); any other is kept
    // as written, so one launch's check does not report another kernel's expansion errors.
    std::set<std::string> only;
};

// Pass statistics (printed with -v, reported in --json).
struct ExpandStats {
    int functions_expanded = 0;    // mixed InCore functions split
    int boundaries = 0;            // tile moves across the split turned into tpush/tpop
    int c2v_fences = 0;            // C2V GM dependencies fenced (as upstream)
    int v2c_fences = 0;            // V2C GM dependencies fenced with a tpush/tpop token
    int war_orders = 0;            // loop-carried write-after-read orderings added (reverse sync flags)
    int fallbacks = 0;             // V2C dependencies with no balanced fence placement, given a barrier instead
    int barriers = 0;              // syncalls inserted (policy syncall, or fallbacks)
    int already_ordered = 0;       // dependencies found already ordered (author syncall, flags, transports)
    int unfenced = 0;              // dependencies left unfenced (policy off, or C2V without a unique producer)
    bool c2v_complete = false;     // --c2v complete was in force
    int c2v_orders = 0;            // C2V (and cross-lane WAW) orderings --c2v complete added beyond upstream
    int pruned = 0;                // insertions the final re-check removed (the others order every pair without them)
    std::vector<std::string> log;  // one line per decision, "k.py:28 -> k.py:33 q_rot: V2C fence"
};

// Expands every mixed InCore function of `p` (others are kept). Throws CompileError for `reject`
// (E-V2C-UNFENCED) and for constructs it cannot split.
std::shared_ptr<ir::Program> expand_mixed_kernel(const ir::Program& p, const ExpandOptions& opt, ExpandStats& stats);

// An expanded program written without its Group (SPEC 3: "AIC + AIV (+ Group) functions ... cvsim runs it as
// written"): when nothing launches (no Orchestration, Spmd, Group or InCore function) and the program holds one
// AIC and one AIV function taking the same parameters, adds the Group the expander writes (the AIC's call, then the
// AIV's, whose result it returns), named after them (`f` for f_aic / f_aiv). False when it added none.
bool add_implicit_group(ir::Program& p);

// True when `f` is an InCore function holding both cube and vector statements.
bool is_mixed(const ir::Function& f);

// GM cross-lane dependencies of one mixed function, before the split: inserts declared-side transports
// (C2V/V2C fences), sync flags (loop-carried WAR) or barriers as the policy says (passes/gm_sync.cpp).
// `live_loads` (optional): the targets of the loads the split keeps; any other load is dead (no access).
// `live_reads` (optional, two sets: AIC, AIV): the pl.tensor.read results each lane keeps.
void insert_gm_sync(ir::Function& f, const ExpandOptions& opt, ExpandStats& stats,
                    const std::set<const ir::Var*>* live_loads = nullptr,
                    const std::set<const ir::Var*>* live_reads = nullptr);

// The vector split of an AIV lane function for split mode UP_DOWN / LEFT_RIGHT (passes/vector_split.cpp).
void split_vector_lane(ir::Function& aiv, ir::SplitMode mode);
// The AIC side of the same split: its tpush_to_aiv / tpop_from_aiv carry the function's split code.
void split_cube_lane(ir::Function& aic, ir::SplitMode mode);
// Hand-written lane functions of an already-expanded program: an AIV function with attr split UP_DOWN /
// LEFT_RIGHT whose body is not in per-lane form yet (no get_subblock_idx, no split_aiv attr) gets the vector
// split, and then the split AIC functions' transports that carry split 0 get the function's code. Returns
// whether `p` has such an AIV function (changing nothing when `apply` is false).
bool split_hand_written_lanes(ir::Program& p, bool apply);
// A pl.split_aiv region of a vector-only function (AIV, or an InCore function without cube statements, which
// ExpandMixedKernel leaves unsplit) becomes `region_var = pl.tile.get_subblock_idx()` and its body, and the
// function is marked split_aiv / dual_aiv_dispatch: each AIV lane runs its own half, as in a mixed kernel's
// AIV lane. apply=false only tells whether there is such a region. A region with loop-carried values stays.
bool flatten_vector_split_regions(ir::Function& f, bool apply = true);

}  // namespace cvsim::passes
