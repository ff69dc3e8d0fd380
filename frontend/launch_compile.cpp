// compile() and the checks of a program against its target and hardware, and the ring buffers' GM layout.
#include "frontend/launch.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/launch_internal.h"
#include "frontend/ops.h"
#include "frontend/passes/capacity.h"
#include "frontend/passes/ir_util.h"
#include "frontend/passes/ring_buffers.h"

namespace cvsim {

using namespace ir;
using namespace launch_detail;

// PyPTO's a2a3 codegen of pl.tile.mgather (src/backend/common/pto_ops_memory.cpp): no 8-bit float table, a
// [1, R] index in row mode, 32-byte aligned destination rows. A kernel it refuses is refused here too.
// On a5, row mode's table rows are the second-to-last dimension alone (pto-isa a5 MGather.hpp, GetShape(DIM_3)),
// where cvsim (and a2a3) take the product of all leading dimensions: a table with more leading rows is refused.
static void check_mgather_targets(const Program& program, Target target) {
    for (auto& f : program.functions)
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::Mgather) return;
            const ExprPtr& mem = arg(*c, "mem");
            const DType dt = mem->type.dtype;
            // The Mat (L1) form: a5's GM -> L1 row mode takes the product of the leading dimensions as a2a3 does
            // (MGatherGm2L1RowImpl); a2a3 has no 8-bit float GM -> L1 gather (MGatherCheckGm2L1).
            if (c->type.mem == Mem::Mat) {
                if (target == Target::A2A3 && (dt == DType::FP8E4M3FN || dt == DType::FP8E5M2 || dt == DType::HF8))
                    raise(codes::kUnsupported, mem->loc,
                          fmt::format(
                              "pl.tile.mgather: dtype {} is not supported on a2a3 (PyPTO's a2a3 codegen refuses it)",
                              dtype_name(dt)),
                          "use --target a5");
                return;
            }
            if (target == Target::A5) {
                const auto& sh = mem->type.shape;
                bool leading = false;
                for (size_t d = 0; d + 2 < sh.size(); ++d) leading |= sh[d] != 1;
                if (mgather_coalesce(*c) == 0 && leading)
                    raise(codes::kUnsupported, mem->loc,
                          fmt::format("pl.tile.mgather: row mode on a5 over a table of shape {}: a5's MGATHER counts "
                                      "only the second-to-last "
                                      "dimension as table rows, cvsim all leading dimensions",
                                      shape_str(sh)),
                          "reshape the table to 2-D (pl.tensor.view) or use --target a2a3");
                return;
            }
            if (dt == DType::FP8E4M3FN || dt == DType::FP8E5M2 || dt == DType::HF8)
                raise(
                    codes::kUnsupported, mem->loc,
                    fmt::format("pl.tile.mgather: dtype {} is not supported on a2a3 (PyPTO's a2a3 codegen refuses it)",
                                dtype_name(dt)),
                    "use --target a5");
            const ExprPtr& idx = arg(*c, "idx");
            if (mgather_coalesce(*c) == 0 && idx->type.shape[0] != 1)
                raise(codes::kType, idx->loc,
                      fmt::format("pl.tile.mgather: row mode on a2a3 requires an idx shape [1, R], got {}",
                                  shape_str(idx->type.shape)));
            if ((c->type.cols() * static_cast<int64_t>(dtype_bytes(dt))) % 32 != 0)
                raise(codes::kType, c->loc,
                      fmt::format("pl.tile.mgather: on a2a3 each destination row must be 32-byte aligned ({} columns "
                                  "of {} are {} bytes)",
                                  c->type.cols(), dtype_name(dt),
                                  c->type.cols() * static_cast<int64_t>(dtype_bytes(dt))));
        });
}

// pto-isa TGATHER compare form on a2a3 (include/pto/npu/a2a3/TGather.hpp): src FP16 / FP32, or INT32 with EQ only;
// its a5 form also takes INT16.
static void check_gather_compare_targets(const Program& program, Target target) {
    if (target != Target::A2A3) return;
    for (auto& f : program.functions)
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::GatherCompareDst) return;
            const ExprPtr& src = arg(*c, "src");
            const DType dt = src->type.dtype;
            const ExprPtr& m = arg(*c, "cmp_mode");
            const bool gt = m && (const_str(m).value_or("") == "gt" || const_int(m).value_or(-1) == 4);
            if (dt == DType::INT16 || (dt == DType::INT32 && gt))
                raise(codes::kUnsupported, src->loc,
                      fmt::format("pl.tile.gather_compare: {} src{} is not supported on a2a3 (pto-isa's a2a3 TGATHER "
                                  "compare form takes FP16/FP32, "
                                  "or INT32 with cmp_mode eq)",
                                  dtype_name(dt), dt == DType::INT32 ? " with cmp_mode gt" : ""),
                      "use --target a5");
        });
}

// A hand-written AIC function runs on the cube core, an AIV function on a vector core: a statement of the other
// side (a UB tile op in an AIC function, a cube op in an AIV one) has no unit to run on there.
static void check_lane_sides(const Program& program) {
    for (auto& f : program.functions) {
        if (f->is_unread() || (f->type != FuncType::AIC && f->type != FuncType::AIV)) continue;
        const bool aic = f->type == FuncType::AIC;
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || !c->op) return;
            const Side side = call_side(*c);
            if ((aic && side == Side::Vector) || (!aic && side == Side::Cube))
                raise(codes::kType, c->loc,
                      fmt::format("pl.{} runs on the {} core, but '{}' is an {} function (it runs on the {} core)",
                                  c->op->name(), aic ? "vector" : "cube", f->name, aic ? "AIC" : "AIV",
                                  aic ? "cube" : "vector"),
                      "move the statement to the other lane's function, or write one InCore function and let the "
                      "expansion split it");
        });
    }
}

// The a5 store path has no bf16 atomic add (PyPTO: an fp32 accumulator plus a cast is required there).
static void check_atomic_targets(const Program& program, Target target) {
    if (target != Target::A5) return;
    for (auto& f : program.functions)
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || !is_atomic_add_store(*c)) return;
            const ExprPtr& out = arg(*c, "output_tensor");
            if (out && out->type.dtype == DType::BF16)
                raise(codes::kUnsupported, arg(*c, "atomic")->loc,
                      "pl.tile.store: a BF16 atomic add is not available on a5 (accumulate in FP32 and cast)");
        });
}

// A soft syncall's used_cores (PyPTO: the total number of participating cores; 0 derives it from the launch)
// must be the launch's participant count on the device: cvsim's barrier waits for every launched core of its
// type, so a smaller count (released early: it orders nothing) or a larger one (never released) is refused,
// never ignored. Cores per block on the device: mix = the AIC and both AIVs of the cluster; aic_only = 1;
// aiv_only = both AIVs of a mixed kernel's cluster, else one per block of a vector-only kernel (two when it
// splits between the lanes).
void check_soft_barrier_counts(const rt::LaunchPlan& plan) {
    for (const auto* lane : {&plan.aic, &plan.aiv}) {
        if (!*lane || !(*lane)->fn) continue;
        passes::walk((*lane)->fn->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::Syncall) return;
            const ExprPtr& u = arg(*c, "used_cores");
            if (!u || u->kind == ExprKind::NoneLit) return;
            auto n = const_int(u);
            if (n && *n == 0) return;
            if (!n)
                raise(codes::kUnsupported, u->loc,
                      "pl.system.syncall: a used_cores computed at run time is not modelled",
                      "give the participant count as a constant (or 0: every launched core)");
            const std::string ct = const_str(arg(*c, "core_type")).value_or("mix");
            const int aics = plan.aic ? 1 : 0;
            const int aivs = !plan.aiv ? 0 : (plan.aic || plan.aiv_split) ? 2 : 1;
            const int per_block = ct == "mix" ? aics + (plan.aiv ? 2 : 0) : ct == "aic_only" ? aics : aivs;
            const int64_t launched = static_cast<int64_t>(per_block) * plan.blocks;
            if (*n != launched)
                raise(codes::kUnsupported, u->loc,
                      fmt::format(
                          "pl.system.syncall: used_cores={} but the launch has {} '{}' participant(s) ({} block(s)); a "
                          "partial soft barrier (released before every launched core arrived) is not modelled",
                          *n, launched, ct, plan.blocks),
                      fmt::format("give used_cores={} (or 0: every launched core)", launched));
        });
    }
}

// The alias groups every launch of ENTRY in PROGRAM binds (launch_alias_groups); E-UNSUPPORTED when two
// launches bind its parameters differently (cvsim checks a kernel on one binding of its tensors).
static std::vector<rt::AliasGroup> entry_aliases(const Program& program, const Function& entry) {
    struct Site {
        const Function* caller;
        std::vector<ExprPtr> args;
        SourceLoc loc;
        std::vector<rt::AliasGroup> groups;
    };
    std::vector<Site> sites;
    for (const auto& f : program.functions) {
        if (f.get() == &entry || f->is_unread()) continue;
        launch_sites(*f, entry.name, [&](const Expr& call, const std::vector<ExprPtr>& args) {
            auto groups = launch_alias_groups(&program, *f, entry, args, call.loc);
            sites.push_back(Site{f.get(), args, call.loc, std::move(groups)});
        });
    }
    for (size_t k = 1; k < sites.size(); ++k) {
        if (same_groups(sites[0].groups, sites[k].groups)) continue;
        // Refused at the launch that shares bytes, naming its pair.
        const Site& shared = sites[0].groups.empty() ? sites[k] : sites[0];
        const Site& other = &shared == &sites[0] ? sites[k] : sites[0];
        const auto pairs = sharing_pairs(&program, *shared.caller, entry, shared.args);
        if (pairs.empty()) break;  // (cannot happen: a group comes from a sharing pair)
        const auto& [i, j, base] = pairs.front();
        raise_shared(entry, shared.args, i, j, base, shared.loc,
                     fmt::format("its launch at line {} binds its tensors differently, and cvsim checks a kernel on "
                                 "one binding of its tensors",
                                 other.loc.line));
    }
    return sites.empty() ? std::vector<rt::AliasGroup>{} : sites[0].groups;
}

Compiled compile(std::shared_ptr<Program> program, const CompileOptions& opt) {
    refuse_unread(*program, opt.entry);      // before inlining, which would hide a call of an unread function
    program = inline_kernel_calls(program);  // the lanes and the reference run a callee's statements in place
    refuse_kernel_calls(*program);
    check_atomic_targets(*program, opt.expand.target);
    check_mgather_targets(*program, opt.expand.target);
    check_gather_compare_targets(*program, opt.expand.target);
    check_lane_sides(*program);
    auto entry = pick_entry(*program, opt.entry);
    // Parameters the launches of the entry pass one tensor's bytes (a tensor and its reshape or slice): one GM
    // tensor, each parameter a view of it (docs/DECISIONS.md, "Aliasing launch arguments").
    std::vector<rt::AliasGroup> aliases;
    if (entry->type != FuncType::Orchestration) aliases = entry_aliases(*program, *entry);
    // The launch is what its entry reaches: the expansion, the hardware checks and the verify steps run on
    // those functions only (a whole-model file holds hundreds of kernels; cloning every one per launch made
    // `expand` of pypto-lib's deepseek_v4_pro decode_fwd take 18 GB). The checks above saw every function.
    const std::set<const Function*> reached = reached_from(*program, *entry);
    if (reached.size() < program->functions.size()) program = std::make_shared<Program>(sub_program(*program, reached));
    Compiled c;
    c.original = program;
    bool any_mixed = false;
    for (auto& f : program->functions) any_mixed |= passes::is_mixed(*f);
    passes::ExpandOptions eo = opt.expand;
    eo.keep_distributed = true;  // the Planner refuses a launch that reaches one (refuse_distributed)
    for (const Function* f : reached) eo.only.insert(f->name);
    auto& plan = c.plan;
    // The expansion needs the launch's cluster count (cross-cluster pairs, per-block windows, hard barriers); a
    // launch that sets its own core_num is known only once the Planner walked it: then expand again with it.
    for (int pass = 0; pass < 2; ++pass) {
        c.stats = {};
        c.mixed = false;
        c.expanded = any_mixed ? passes::expand_mixed_kernel(*program, eo, c.stats) : program;
        bool regions = false;
        for (auto& f : c.expanded->functions) regions |= passes::flatten_vector_split_regions(*f, false);
        if (regions) {
            if (c.expanded == program) c.expanded = clone_program(*program);  // the original stays as parsed
            for (auto& f : c.expanded->functions) passes::flatten_vector_split_regions(*f);
        }
        if (passes::split_hand_written_lanes(*c.expanded, false)) {
            if (c.expanded == program) c.expanded = clone_program(*program);  // the original stays as parsed
            passes::split_hand_written_lanes(*c.expanded, true);
        }
        plan = rt::LaunchPlan{};
        plan.program = c.expanded;
        plan.blocks = std::max(1, eo.blocks);
        plan.entry = c.expanded->find(entry->name);
        plan_launch(c, plan.entry);
        if (!any_mixed || plan.blocks == std::max(1, eo.blocks)) break;
        eo.blocks = plan.blocks;
    }
    plan.aliases = std::move(aliases);
    for (const auto* lane : {&plan.aic, &plan.aiv, &plan.mixed_prog})
        if (*lane && (*lane)->fn) check_numerics(*(*lane)->fn);
    if (plan.aiv) {
        plan.aiv_split = aiv_splits(*plan.aiv->fn, opt.expand.target);
        // The a2a3 lane-1 replay is PyPTO's dual dispatch of a mixed kernel (ExpandMixedKernel marks every unsplit
        // mixed kernel dual_aiv_dispatch on 910B). A vector-only kernel is a single-AIV task: lane 1 does not run.
        plan.aiv_lane1_replay = !plan.aiv_split && (plan.aic || attr_true(*plan.aiv->fn, "dual_aiv_dispatch"));
        plan.aiv_lane1_launched = plan.aiv_split;
    }
    check_soft_barrier_counts(plan);
    return c;
}

// A cross-core flag set or waited on a pipe its core does not have (PIPE_V on the AIC; M, MTE1, FIX on an AIV)
// names no queue of that core: refused (E-TYPE), never run as if it were on the scalar unit, where a wait
// would order everything after it and a set nothing before it.
void check_sync_pipes(const Program& p) {
    for (const auto& f : p.functions) {
        if (f->type != FuncType::AIC && f->type != FuncType::AIV) continue;
        const bool aic = f->type == FuncType::AIC;
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || (c->op->code != OpCode::SyncSet && c->op->code != OpCode::SyncWait)) return;
            const ExprPtr& pa = arg(*c, "pipe");
            if (!pa || pa->kind != ExprKind::Enum || pa->enum_kind != EnumKind::PipeType) return;
            const auto pt = static_cast<PipeType>(pa->ival);
            const bool missing =
                aic ? pt == PipeType::V : (pt == PipeType::M || pt == PipeType::MTE1 || pt == PipeType::FIX);
            if (missing)
                raise(codes::kType, pa->loc,
                      fmt::format("{} on pipe {}: the {} has no such pipe ({})",
                                  c->op->code == OpCode::SyncSet ? "sync_set" : "sync_wait", pipe_type_name(pt),
                                  aic ? "AIC" : "AIV", aic ? "S, MTE1, MTE2, MTE3, M, FIX" : "S, MTE2, MTE3, V"),
                      "name the pipe of the access the flag orders (a vector store: MTE3; a cube load: MTE2), or "
                      "PIPE_ALL / S");
        });
    }
}

// pto-isa's TSTORE of a Vec tile compiles only when the GM tensor's layout matches the tile's (ND: row_major /
// none_box, DN: col_major / none_box, NZ: col_major / row_major; CheckStaticForVecAndMat on a2a3, CheckStaticVec
// on a5), except for a tile of one row or one column. A GM tensor here is ND, so a Vec tile in another layout
// stored to it is a kernel the board's toolchain rejects (PyPTO and ptoas pass it through unchanged): refused
// here (E-TYPE at the tile), not simulated as if the bytes landed somewhere (docs/DECISIONS.md).
void check_store_layouts(const Program& p) {
    for (const auto& f : p.functions) {
        passes::walk(f->body, [&](const StmtPtr& s) {
            const Expr* c = passes::stmt_call(*s);
            if (!c || c->op->code != OpCode::Store) return;
            const ExprPtr& t = arg(*c, "tile");
            if (!t || !t->type.is_tile() || t->type.mem != Mem::Vec) return;
            const Layout l = t->type.layout();
            if (l == Layout::ND || t->type.rows() == 1 || t->type.cols() == 1) return;
            const ExprPtr& dst = arg(*c, "output_tensor");
            std::string name =
                dst && dst->kind == ExprKind::Var && dst->var ? fmt::format(" '{}'", dst->var->name) : std::string();
            raise(codes::kType, t->loc,
                  fmt::format(
                      "pl.tile.store of a Vec tile in {} layout (blayout={}, slayout={}) into the ND tensor{}: "
                      "pto-isa's TSTORE "
                      "needs the GM layout to match the tile's (ND: row_major/none_box, DN: col_major/none_box, NZ: "
                      "col_major/row_major), so the kernel does not compile for the board",
                      layout_name(l), tile_layout_name(t->type.view.blayout.value_or(TileLayout::row_major)),
                      tile_layout_name(t->type.view.slayout.value_or(TileLayout::none_box)), name),
                  "move the tile to row_major / none_box before the store (pl.tile.move(t, target_memory=pl.Mem.Vec, "
                  "blayout=pl.TileLayout.row_major, slayout=pl.TileLayout.none_box))");
        });
    }
}

void check_expanded_for_hardware(const Program& expanded, const HwParams& hw, bool store_layouts) {
    passes::check_capacity(expanded, hw);
    passes::check_ring_buffers(expanded, hw);
    check_sync_pipes(expanded);
    if (store_layouts) check_store_layouts(expanded);
}

RingLayout ring_layout(const rt::LaunchPlan& plan) {
    std::map<std::pair<int, int64_t>, int64_t> size;  // (dir, id) -> bytes
    for (const auto* lane : {&plan.aic, &plan.aiv}) {
        if (!*lane) continue;
        passes::walk((*lane)->fn->body, [&](const StmtPtr& s) {
            const Expr* call = passes::stmt_call(*s);
            if (!call || (call->op->code != OpCode::AicInitializePipe && call->op->code != OpCode::AivInitializePipe))
                return;
            auto bytes = const_int(arg(*call, "slot_size")).value_or(0);
            auto dm = const_int(arg(*call, "dir_mask")).value_or(1);
            auto num = const_int(arg(*call, "slot_num")).value_or(dm == 3 ? 4 : 8);
            int64_t id = arg(*call, "id") ? const_int(arg(*call, "id")).value_or(0) : 0;
            int64_t ring = -1;
            if (bytes < 0 || num < 0 || __builtin_mul_overflow(bytes, num, &ring)) ring = -1;
            for (int dir = 0; dir < 2; ++dir)
                if (dm & (1 << dir)) {
                    int64_t& cur = size[{dir, id}];
                    cur = ring < 0 || cur < 0 ? -1 : std::max(cur, ring);
                }
        });
    }
    RingLayout out;
    if (size.empty()) return out;
    // -1 bytes: more than int64 holds (the session refuses it with E-CAPACITY).
    auto overflow = [&] {
        out.base.clear();
        out.bytes = -1;
        return out;
    };
    for (auto& [key, n] : size)
        if (n < 0) return overflow();
    int64_t half = std::max(size[{0, 0}], size[{1, 0}]);
    if (half > INT64_MAX / 2) return overflow();
    out.base[{0, 0}] = 0;
    out.base[{1, 0}] = half;
    out.bytes = 2 * half;
    for (auto& [key, n] : size) {
        if (key.second == 0) continue;
        out.base[key] = out.bytes;
        if (__builtin_add_overflow(out.bytes, n, &out.bytes)) return overflow();
    }
    return out;
}

int64_t ring_tensor_bytes(const rt::LaunchPlan& plan) {
    return ring_layout(plan).bytes;
}

}  // namespace cvsim
