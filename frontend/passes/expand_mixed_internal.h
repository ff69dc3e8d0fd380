// ExpandMixedKernel's Splitter, which builds one lane (AIC or AIV) of a mixed function; private to
// expand_mixed_*.cpp (the pass's interface is expand_mixed_kernel.h).
#pragma once

#include <fmt/format.h>

#include <initializer_list>
#include <map>
#include <set>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/passes/branch_results.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/passes/ir_util.h"

namespace cvsim::passes::expand_detail {

using namespace ir;

// Marks an AIV function whose lanes each run their own part (a flattened split_aiv region): split_aiv, as PyPTO
// stamps it, and dual_aiv_dispatch (both lanes are dispatched).
inline void mark_attrs_true(Function& f, std::initializer_list<const char*> keys) {
    for (const char* key : keys)
        if (!f.attr(key)) {
            Attr a;
            a.key = key;
            a.value = std::make_shared<Expr>();
            a.value->kind = ExprKind::Bool;
            a.value->ival = 1;
            f.attrs.push_back(a);
        }
}

inline void mark_dual_aiv(Function& f) {
    mark_attrs_true(f, {"split_aiv", "dual_aiv_dispatch"});
}

enum class Lane { Aic, Aiv };

inline bool lane_keeps_type(Lane lane, const Type& t) {
    if (t.kind != TypeKind::Tile) return true;
    return is_cube_mem(t.mem) ? lane == Lane::Aic : lane == Lane::Aiv;
}

class Splitter {
  public:
    Splitter(const Function& src, Lane lane, const ExpandOptions& opt, ExpandStats& stats)
        : m_src(src), m_lane(lane), m_opt(opt), m_stats(stats) {
        m_out = std::make_shared<Function>();
        m_out->name = src.name + (lane == Lane::Aic ? "_aic" : "_aiv");
        m_out->type = lane == Lane::Aic ? FuncType::AIC : FuncType::AIV;
        m_out->attrs = src.attrs;
        for (auto& a : m_out->attrs) a.value = clone_expr(a.value);
        m_out->attrs_in_body = src.attrs_in_body;
        m_out->deco_extra = src.deco_extra;
        m_out->deco_extra_keys = src.deco_extra_keys;
        m_out->loc = src.loc;
        m_out->origin = src.name;
        if (!src.specialised_from.empty())
            m_out->specialised_from = src.specialised_from + (lane == Lane::Aic ? "_aic" : "_aiv");
        m_src_origins = gm_origins(src);
        m_map.by_id.resize(src.vars.size());
        for (const auto& v : src.vars) m_map.by_id[v->id] = m_out->new_var(v->name, v->type, v->loc);
        for (const auto& p : src.params) m_out->params.push_back({m_map.get(p.var), p.dir});
        if (lane == Lane::Aiv) {
            m_out->ret_types = src.ret_types;
            m_out->ret_is_tuple = src.ret_is_tuple;
        }
    }

    std::shared_ptr<Function> build();
    void live_loads(std::set<const Var*>& out, std::set<const Var*>* reads = nullptr);

  private:
    const Function& m_src;
    Lane m_lane;
    const ExpandOptions& m_opt;
    ExpandStats& m_stats;
    std::shared_ptr<Function> m_out;      // the lane function being built
    VarMap m_map;                         // source variable -> lane variable
    int m_region_split = -1;              // split code of the enclosing split_aiv region, -1 outside
    bool m_dual = false;                  // a split_aiv region was flattened (both lanes run it)
    std::set<const Var*> m_copy_defs;     // lane variables bound by a copy standing for the other lane's store
    std::set<const Stmt*> m_shared_only;  // the other side's loops/branches, kept for their SHARED statements
    std::set<const Stmt*> m_var_shells;   // ... of them, the loops kept for their variable's last value
    GmOrigins m_src_origins;              // the source function's GM-tensor versions -> their parameter

    // ---- A lane's statements by side, boundaries as tpush/tpop (expand_mixed_lanes.cpp) ----
    bool mine(Side s) const;
    Block filter(const Block& b);
    int split_code(const Expr& call);
    void filter_stmt(const Stmt& s, Block& out);
    bool holds_shared(const Stmt& s) const;
    bool loop_var_read_after(const Stmt& loop) const;
    void split_region(const Stmt& s, Block& out);
    void structured(const Stmt& s, Block& out);
    ExprPtr moved_to_layout(const ExprPtr& src, TileLayout bl, TileLayout sl, const char* suffix, const SourceLoc& loc,
                            Block& out);
    ExprPtr nz_adapted(const ExprPtr& src, const SourceLoc& loc, Block& out);
    ExprPtr nd_adapted(const ExprPtr& src, const SourceLoc& loc, Block& out);
    void hand_push(const Stmt& s, Block& out);
    void boundary(const Stmt& s, Side side, Block& out);

    // ---- The lane's cleanup: other lanes' values, emptied shells, dead code, tfree (expand_mixed_dce.cpp) ----
    void refuse_other_lanes_values();
    void drop_emptied(Block& b, const GmOrigins& origins);
    void dce();
    GmOrigins lane_origins() const;
    static void reads_outside(const Block& root, const Stmt* loop, std::set<const Var*>& out);
    bool strip_dead_carried(Block& b, const std::set<const Var*>& used, const Block& root, const GmOrigins& origins);
    static void expr_reads_of(const ExprPtr& e, std::set<const Var*>& out);
    static bool binds_used(const Block& b, const std::set<const Var*>& used);
    static bool effect_besides_yields(const Block& b);
    static bool prune(Block& b, const std::set<const Var*>& used, const std::set<const Stmt*>& var_shells);
    void insert_tfree(Block& b);
};

}  // namespace cvsim::passes::expand_detail
