// Launch internals shared by the launch*.cpp files: targets, parameter directions, aliasing, kernel windows.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "frontend/ir/ir.h"
#include "frontend/launch.h"
#include "frontend/runtime.h"

namespace cvsim::launch_detail {

using namespace ir;

// ---- Launch targets and parameters (launch_params.cpp) ----

// attrs={"core_num": N} on a launch: N SPMD blocks (the runtime's block_num; an AIV-only kernel has one AIV
// lane per block, which cvsim runs as one cluster per block). nullopt: not given or not a constant.
std::optional<int64_t> launch_core_num(const Expr& call);

// A launch call D: the kernel it names (self.k(...), or the kernel pl.submit / pl.spmd_submit(self.k, ...) submits)
// and where that kernel's arguments start in D's (1 for a submit).
struct LaunchTarget {
    const std::string& kernel;
    size_t first = 0;
    bool submit = false;
};
LaunchTarget launch_target(const Expr& d);

// FN's parameter directions as the runtime receives them: a function that launches others (a Group / Spmd
// wrapper) writes a parameter it passes as is to a parameter its callee writes, whatever it declares. PyPTO's
// DeriveCallDirections (phase 0, MaterializeWrapperDirections) merges them so, InOut > Out > In, before it
// derives the call sites' directions: its outliners leave a wrapper's signature as they found it.
std::vector<ParamDir> effective_dirs(const Program& program, const Function& fn,
                                     std::map<const Function*, std::vector<ParamDir>>& memo, int depth = 0);

// The parameter of FN that its INDEX-th returned value is: a parameter itself, a store into one, the result (or
// an indexed element of the result) of a launch of another kernel of the program whose returned parameter is
// passed a parameter of FN, or a branch's / loop's result all of whose inputs are the same parameter. nullopt:
// anything else (several returns, two parameters meeting at a branch, ...).
std::optional<size_t> returned_param(const Program* prog, const Function& fn, size_t index, int depth);

// A list or tuple of integer constants (nullopt: anything else).
std::optional<std::vector<int64_t>> const_ints(const ExprPtr& l);

// ---- Launch arguments that may share GM bytes (launch_alias.cpp) ----

// Launch arguments that may name the same GM bytes (issue 10, adversarial kernels: a missed race). cvsim binds each
// tensor parameter of a kernel to a GM tensor of its own when a launcher runs host ops (each kernel is checked
// on its own data), and the expander pairs accesses by parameter; so two arguments aliasing one tensor, one of
// them written, hide a cross-core race. Such a launch is refused, never checked as if the tensors were apart.
struct GmAlias {
    const Var* base = nullptr;
    // The view's elements of base exactly, as base's row-major element indices start + sum(i_k * strides[k]) for
    // 0 <= i < shape (a slice moves start; a reshape recomputes the strides where that is a view). shape empty:
    // anywhere in base (a value whose window is not known: a computed offset, a launch result, a reshape that is
    // no strided view). (A slice of a [64, 64] reshape of a [32, 128] tensor is not that box of the tensor.)
    std::vector<int64_t> shape, strides;
    int64_t start = 0;
};

// All of V (a root: a tensor the function creates or is given) in its own row-major coordinates; anywhere in V
// when its shape is not known.
GmAlias whole_of(const Var* v);

// Whether A is all of its root in the root's own coordinates, or anywhere in it (unknown): either way a value of
// the root's shape stands for the whole root (the manual-scope window analysis reads windows relative to it).
bool whole_or_unknown(const GmAlias& a);

bool may_share(const GmAlias& a, const GmAlias& b);

// The roots (tensors a function creates or is given) and windows each value of a function may be.
class LaunchAliases {
  public:
    explicit LaunchAliases(const Function& f, const Program* prog = nullptr);

    // The roots (with a constant window when known) whose bytes the value E may be: a variable, or an element of
    // a tuple (`ret[1]` of a launch's or pl.submit's result).
    std::vector<GmAlias> of(const Expr* e, int depth = 0) const;

    // The one pl.tensor.assemble of created tensor V (nullptr: V is not assembled exactly once).
    const Expr* fused_assemble(const Var* v) const {
        auto it = m_fused.find(v);
        return it == m_fused.end() ? nullptr : it->second;
    }

  private:
    void add(const Var* v, const Expr* value);
    std::vector<GmAlias> item(const Expr* base, int64_t k, int depth) const;
    std::vector<GmAlias> of_var(const Var* v, const SourceLoc& loc, int64_t index, int depth) const;
    std::vector<GmAlias> of_var_paths(const Var* v, const SourceLoc& loc, int64_t index, int depth) const;
    std::vector<GmAlias> call_result(const Var* v, const Expr* d, int64_t index, int depth) const;
    std::vector<GmAlias> fused_window(const Var* v, const Expr& a, int depth) const;

    static bool is_tensor_op(const Expr& d) {
        return d.sval == "pl.tensor.slice" || d.sval == "pl.tensor.view" || d.sval == "pl.tensor.create";
    }

    std::map<std::pair<const Var*, const Expr*>, int>
        m_index;  // (target, value) -> its index in a tuple unpacking (-1: one target)
    std::map<const Var*, std::vector<const Expr*>> m_def;
    std::map<const Var*, std::vector<const Var*>> m_link;  // a loop's results: its carried values
    std::set<const Var*> m_params;  // the function's parameters (a reassigned one keeps its entry value)
    mutable std::map<const Function*, std::vector<ParamDir>> m_dirs;  // effective_dirs, memoised
    std::set<const Var*> m_created;                                   // the tensors it creates (pl.tensor.create)
    std::map<const Var*, const Expr*> m_fused;                  // a created tensor -> the one pl.tensor.assemble of it
    mutable std::set<std::pair<const Var*, int64_t>> m_active;  // values being resolved (cycle guard)
    mutable std::map<std::pair<const Var*, int64_t>, std::vector<GmAlias>> m_memo;  // complete results
    mutable int64_t m_cuts = 0;                                                     // cycles cut so far
    mutable int64_t m_visits = 0;  // bound on the work of one launch's check
    const Program* m_prog =
        nullptr;  // the kernels a result may come from (nullptr: every result aliases all arguments)
};

// ARGS are CALLEE's arguments in parameter order, evaluated in CALLER.
// The pairs (i, j), i < j, of CALLEE's tensor parameters whose arguments may share GM bytes (both read-only
// pairs left out, except for an orchestration callee), each with the tensor they may share.
std::vector<std::tuple<size_t, size_t, const Var*>> sharing_pairs(const Program* prog, const Function& caller,
                                                                  const Function& callee,
                                                                  const std::vector<ExprPtr>& args);

[[noreturn]] void raise_shared(const Function& callee, const std::vector<ExprPtr>& args, size_t i, size_t j,
                               const Var* base, const SourceLoc& at, const std::string& why);

// ARGS are CALLEE's arguments in parameter order, evaluated in CALLER. EXACT(i, j): the pair is bound to the same
// GM bytes as the launch has them (not refused).
void refuse_aliased_arguments(const Program* prog, const Function& caller, const Function& callee,
                              const std::vector<ExprPtr>& args, const SourceLoc& at,
                              const std::function<bool(size_t, size_t)>& exact = nullptr);

// ---- Aliasing launch arguments bound to one tensor (launch_alias_groups.cpp) ----

// The alias groups one launch of CALLEE with ARGS (in CALLER) binds: its tensor parameters whose arguments may
// share GM bytes, each as an exact view of the tensor they come from. Empty: no two share. E-UNSUPPORTED for a
// pair that is not an exact view of one tensor (a computed offset, a reshape of a slice, a loop-carried value).
std::vector<rt::AliasGroup> launch_alias_groups(const Program* prog, const Function& caller, const Function& callee,
                                                const std::vector<ExprPtr>& args, const SourceLoc& at);

bool same_groups(const std::vector<rt::AliasGroup>& a, const std::vector<rt::AliasGroup>& b);

// The calls of KERNEL in F (self.k(...), pl.submit(self.k, ...), pl.spmd_submit(self.k, ...)): (call, arguments).
void launch_sites(const Function& f, const std::string& kernel,
                  const std::function<void(const Expr&, const std::vector<ExprPtr>&)>& at);

// ---- Launch collection (launch.cpp) and the launch plan (launch_plan.cpp) ----

std::string several_launches(const Program& p, const Function& f);

// Fills C.plan (program, blocks and entry already set) for a launch of ENTRY: its lane programs, created tensors
// and block count.
void plan_launch(Compiled& c, const std::shared_ptr<Function>& entry);

// The checks and attributes compile() reads of the planned lane programs (launch_plan.cpp).
void check_numerics(const Function& f);
bool attr_true(const Function& f, const char* key);
bool aiv_splits(const Function& f, Target target);

// ---- What a kernel accesses of a tensor parameter (launch_kernel_window.cpp) ----

// What a kernel accesses of one tensor parameter, per dimension: the window [sum(coef * scalar parameter) + lo,
// ... + hi) covering every load and store of it (its own loop variables and block index over their constant
// ranges). nullopt for a dimension whose accesses disagree on the scalar part or are not of that form, and for
// every dimension when the parameter is used otherwise (a view, a call, another op) or the function is a wrapper.
struct KernelDim {
    std::map<size_t, int64_t> coef;  // scalar parameter index -> coefficient
    int64_t lo = 0, hi = 0;
    // Every element of [lo, hi) is accessed (no gaps): the kernel's own loop moves the access by at most its
    // extent. A window with gaps (a loop striding past its tile) is a bounding box: apart when boxes are, but
    // overlap of two boxes says nothing.
    bool dense = true;
};
using KernelWindow = std::vector<std::optional<KernelDim>>;

// ATOMIC (when given): set to whether every access is an atomic-add store (writers that commute).
std::optional<KernelWindow> kernel_window(const Program& prog, Function& k, size_t param, int blocks, int depth = 0,
                                          bool* atomic = nullptr);

}  // namespace cvsim::launch_detail
