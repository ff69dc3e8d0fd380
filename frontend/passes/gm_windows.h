// GM windows of stores and loads in absolute tensor coordinates, for gm_sync's pairing (SPEC 5.7).
//
// An offset is an affine form over "atoms": loop variables, scalar parameters and variables bound once
// to pl.tile.get_block_idx(). A variable bound exactly once to an affine value in a block that encloses
// the access (earlier in it) is substituted; anything else (a variable re-bound, an iter_arg, division,
// a product of variables) makes the offset unknown, and an unknown offset may overlap anything (in its own
// dimension only, where the tensor bounds it: its other dimensions still separate two windows). A view
// (`pl.slice` of a tensor, or a store's result) adds its base offsets, traced through assignments, loop
// carried values and branch results; when the sources disagree the base is unknown.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "frontend/ir/ir.h"

namespace cvsim::passes {

struct Affine {
    bool ok = true;
    int64_t c = 0;
    std::map<const ir::Var*, int64_t> terms;  // atom -> coefficient (no zero entries)
};

struct GmWindow {
    bool ok = false;           // offsets and extents known, ranks agree
    std::vector<Affine> off;   // absolute offsets, one per dimension
    std::vector<int64_t> ext;  // extents
};

// The position of a statement: (block, index) from the function body down.
using StmtPath = std::vector<std::pair<ir::Block*, size_t>>;

class WindowAnalysis {
  public:
    // blocks >= 1: the launch's cluster count, which bounds every variable bound to get_block_idx() to
    // [0, blocks - 1] (0: unknown, unbounded).
    explicit WindowAnalysis(ir::Function& f, int blocks = 0);
    // The absolute window of a store (`output_tensor`) or load (`tensor`) call at `path`.
    GmWindow window(const ir::Expr& call, const StmtPath& path) const;
    bool is_loop_var(const ir::Var* v) const { return m_loop_vars.count(v) > 0; }
    // A loop variable whose name an assignment (or a branch / tuple result, or a parameter) also binds.
    bool rebound(const ir::Var* v) const {
        return m_defs.count(v) > 0 || m_multi.count(v) > 0 || m_params.count(v) > 0 || m_nested_rebound.count(v) > 0;
    }
    // `x % c` over loop variables whose range spans more than one period of c is an atom of its own, a
    // "loop variable" in [0, c - 1] that no other access shares (free to differ in every comparison);
    // mod_atom gives its definition, so that an enumeration that knows x's value knows the atom's.
    struct ModAtom {
        Affine x;
        int64_t c = 1;
    };
    const ModAtom* mod_atom(const ir::Var* v) const {
        auto it = m_mod.find(v);
        return it == m_mod.end() ? nullptr : &it->second;
    }
    // pl.tile.get_subblock_idx() (directly, or a variable bound once to it) is the AIV lane index: one atom of the
    // function, "%lane", a "loop variable" in [0, 1] that no two accesses share (the two AIV lanes read different
    // values; the cube has none), like a split_aiv region's lane index. gm_sync puts each lane's value in a vector
    // access's window where the lane decides the rows (GmSync::at_lane). nullptr: no window holds it.
    const ir::Var* lane_atom() const { return m_lane_atom.get(); }
    // A branch condition comparing a loop variable of a constant range with a constant that holds (or fails)
    // in every iteration: the arm that never runs has no accesses. nullopt: depends on the iteration.
    std::optional<bool> static_condition(const ir::Expr& cond) const;

    // May a (in iteration ka of `cross`) and b (iteration kb) share an element, for some ka - kb in
    // [tmin, tmax]? Loop variables in `shared` take equal values in both; other atoms that are not loop
    // variables are invariant; any other loop variable is free to differ, each within its constant range
    // (unknown range: no conclusion). `cross` == nullptr: the same iteration of every shared loop.
    static bool may_overlap(const GmWindow& a, const GmWindow& b, const std::set<const ir::Var*>& shared,
                            const ir::Stmt* cross, int64_t tmin, int64_t tmax, const WindowAnalysis& wa);

    // May a in one cluster and b in ANOTHER cluster of a launch on `blocks` clusters share an element?
    // Variables bound to get_block_idx() take the cluster's index, different in the two (each in [0,
    // blocks)); scalar parameters are the same launch argument in both; loop variables as may_overlap has
    // them (in `shared`: equal; `cross`: iteration difference in [tmin, tmax]; any other: free). An unknown
    // window may overlap anything. blocks <= 1: false.
    static bool may_overlap_across_blocks(const GmWindow& a, const GmWindow& b, int blocks, const WindowAnalysis& wa,
                                          const std::set<const ir::Var*>& shared = {}, const ir::Stmt* cross = nullptr,
                                          int64_t tmin = 0, int64_t tmax = 0,
                                          const std::vector<bool>* a_blocks = nullptr,
                                          const std::vector<bool>* b_blocks = nullptr,
                                          const std::function<bool(int64_t, int64_t)>* pair_ok = nullptr);
    // Can cluster x take the arm x_then says (true: the then-arm) of a branch on `cond` while cluster y takes
    // the arm y_then says, in the same iteration? (Parts of cond that are the same in every cluster have one
    // value in both.)
    bool arms_may_differ(const ir::Expr& cond, int64_t x, bool x_then, int64_t y, bool y_then) const;
    // The clusters a statement at `path` can run in: element x says whether the `if` conditions around it
    // can hold with the block index x (a condition that also reads anything but constants and variables bound
    // to get_block_idx() holds for every x). nullopt: no condition on the block index around it, or the launch
    // width is unknown or wider than kMaxBlockEnum. (may_overlap_across_blocks' a_blocks / b_blocks.)
    std::optional<std::vector<bool>> block_values(const StmtPath& path) const;
    // w with every block variable replaced by the cluster index x.
    GmWindow at_block(const GmWindow& w, int64_t x) const;
    int blocks() const { return m_blocks; }
    // Does a condition take the same value in every cluster (at one iteration of every loop around it)? Built
    // from constants, scalar parameters, loop variables and names bound once to such values; anything else
    // (the block index, a value read from GM or a tile) may differ between clusters.
    bool uniform_across_blocks(const ir::Expr& e, int depth = 0) const;
    static constexpr int kMaxBlockEnum = 256;
    bool is_block_var(const ir::Var* v) const { return m_block_vars.count(v) > 0; }
    // [min, max] of an affine form whose atoms are loop variables of constant ranges (and block variables of a
    // known block count); nullopt otherwise.
    std::optional<std::pair<int64_t, int64_t>> bounds(const Affine& a) const { return range(a); }
    // The affine form of E as seen at PATH (a statement's position; its value over the atoms above).
    Affine value_at(const ir::ExprPtr& e, const StmtPath& path) const { return affine(e, path, 0); }

  private:
    struct Def {
        int count = 0;
        const ir::Stmt* stmt = nullptr;
        ir::Block* block = nullptr;
        size_t index = 0;
    };
    Affine affine(const ir::ExprPtr& e, const StmtPath& path, int depth) const;
    // [min, max] of an affine form whose atoms are loop variables of constant ranges.
    std::optional<std::pair<int64_t, int64_t>> range(const Affine& a) const;
    // The value of loop variable v on `path` when it passes through `if v == c:` (or the else of `!=`).
    std::optional<int64_t> arm_value(const ir::Var* v, const StmtPath& path) const;
    std::optional<std::vector<Affine>> base(const ir::Var* v, const StmtPath& path, int depth) const;
    bool visible_def(const Def& d, const StmtPath& path) const;
    void scan(ir::Block& b, StmtPath path);
    // may_overlap with the cross loop's variable fixed to (value in a, value in b) when `fixed` is given.
    static bool overlap_at(const GmWindow& a, const GmWindow& b, const std::set<const ir::Var*>& shared,
                           const ir::Stmt* cross, int64_t tmin, int64_t tmax, const WindowAnalysis& wa,
                           const std::pair<int64_t, int64_t>* fixed);

    std::map<const ir::Var*, Def> m_defs;  // assignments (Assign targets) per variable
    std::map<const ir::Var*, std::vector<std::pair<ir::ExprPtr, StmtPath>>> m_flows;  // iter_arg / results sources
    std::map<const ir::Var*, StmtPath> m_def_path;                                    // path of the single definition
    mutable std::set<const ir::Var*> m_loop_vars;  // (mutable: mod atoms join them when first met)
    std::set<const ir::Var*> m_block_vars;         // variables bound to get_block_idx()
    int m_blocks = 0;                              // the launch's cluster count (0: unknown)
    // The value of a condition with every block variable equal to x (nullopt: it reads anything else).
    std::optional<int64_t> block_eval(const ir::Expr& e, int64_t x, int depth, std::string* residual) const;
    mutable std::map<const ir::Var*, std::pair<int64_t, int64_t>>
        m_bounds;                               // loop variable -> [min, max] (constant ranges)
    std::set<const ir::Var*> m_unbounded;       // loop variables some loop binds over an unknown range
    std::set<const ir::Var*> m_nested_rebound;  // loop variables a loop nested in a loop of the same name binds
    mutable std::map<const ir::Expr*, ir::VarPtr> m_mod_of;  // `x % c` expression -> its atom
    // An offset with no affine form in one dimension of a window whose other dimensions have one: an atom of
    // its own per (access, dimension), in [0, size - extent] (the access stays inside its tensor, or it is
    // E-OOB), free to differ in every comparison, like a `%` atom without a definition.
    mutable std::map<std::pair<const ir::Expr*, size_t>, ir::VarPtr> m_unknown_off;
    mutable std::map<const ir::Var*, ModAtom> m_mod;
    mutable ir::VarPtr m_lane_atom;                                      // lane_atom()
    Affine lane_term() const;                                            // the lane atom, made when first met
    Affine mod_of(const ir::Expr* e, const Affine& x, int64_t c) const;  // x % c for expression e
    std::set<const ir::Var*> m_params;
    std::set<const ir::Var*> m_multi;  // variables bound by loops / branches / several assignments
};

}  // namespace cvsim::passes
