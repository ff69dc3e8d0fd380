// The one pass pipeline (frontend/pipeline.h).
#include "frontend/pipeline.h"

#include <fmt/format.h>

#include <set>

#include "frontend/codes.h"
#include "frontend/diag.h"
#include "frontend/ir/ir.h"
#include "frontend/passes/capacity.h"
#include "frontend/passes/ir_util.h"
#include "frontend/runtime.h"

namespace cvsim {

using namespace ir;

const std::vector<PassInfo>& pipeline_passes() {
    static const std::vector<PassInfo> passes = {
        {"sema", "parse, names, types and lowering to the IR (per-call copies of kernels called at other sizes)"},
        {"entry", "a launch of the entry that reaches a function cvsim could not read raises its diagnostic"},
        {"capacity", "the tiles live at each statement fit their buffer, as written (E-CAPACITY)"},
        {"expand-mixed-kernel",
         "expand only: ExpandMixedKernel of every mixed function, with GM sync insertion (what expand prints)"},
        {"verify-hardware",
         "expand only: buffer capacity as expanded, ring buffers and flag pipes of the printed expansion"},
        {"compile",
         "per launch: inline kernel calls, target checks, ExpandMixedKernel with V2C/C2V GM sync insertion of "
         "the functions the launch reaches, lane splits, the launch plan"},
        {"verify-launch",
         "per launch: buffer capacity as expanded, ring buffers, flag pipes, store layouts (not expand)"},
        {"ring-layout", "per launch: where each ring lives in the cluster's hidden ring tensor"},
        {"gm-budget",
         "per launch: the GM of kernel tensors, created tensors and ring buffers fits cvsim's bound (E-CAPACITY)"},
    };
    return passes;
}

namespace {

void verify_block(const Block& b, const Function& f, std::string_view after);

void verify_expr(const ExprPtr& e, const Function& f, std::string_view after, const SourceLoc& at) {
    if (!e) return;  // absent optional operand
    if (e->kind == ExprKind::Call && !e->op)
        raise(codes::kInternal, e->loc.valid() ? e->loc : at,
              fmt::format("IR verify after pass '{}': an op call without its op in '{}'", after, f.name));
    for (const auto& a : e->args) verify_expr(a, f, after, at);
    for (const auto& a : e->args2) verify_expr(a, f, after, at);
}

void verify_block(const Block& b, const Function& f, std::string_view after) {
    for (const auto& s : b) {
        if (!s)
            raise(codes::kInternal, f.loc,
                  fmt::format("IR verify after pass '{}': a null statement in '{}'", after, f.name));
        verify_expr(s->value, f, after, s->loc);
        for (const auto& v : s->values) verify_expr(v, f, after, s->loc);
        verify_block(s->body, f, after);
        verify_block(s->orelse, f, after);
    }
}

void add_expand_stats(PassRecord& r, const passes::ExpandStats& st) {
    r.stats = {{"functions_split", st.functions_expanded},
               {"boundaries", st.boundaries},
               {"c2v_fences", st.c2v_fences},
               {"v2c_fences", st.v2c_fences},
               {"war_orders", st.war_orders},
               {"barriers", st.barriers},
               {"unfenced", st.unfenced}};
}

int64_t count_stmts(const Program& p) {
    int64_t n = 0;
    for (const auto& f : p.functions) passes::walk(f->body, [&](const StmtPtr&) { ++n; });
    return n;
}

}  // namespace

void verify_program(const Program& p, std::string_view after) {
    std::set<std::string> names;
    for (const auto& f : p.functions) {
        if (!f) raise(codes::kInternal, SourceLoc{}, fmt::format("IR verify after pass '{}': a null function", after));
        if (f->name.empty() || !names.insert(f->name).second)
            raise(codes::kInternal, f->loc,
                  fmt::format("IR verify after pass '{}': function name '{}' is empty or not unique", after, f->name));
        for (const auto& prm : f->params)
            if (!prm.var)
                raise(
                    codes::kInternal, f->loc,
                    fmt::format("IR verify after pass '{}': a parameter without its variable in '{}'", after, f->name));
        verify_block(f->body, *f, after);
    }
}

int64_t check_gm_budget(const rt::LaunchPlan& plan, const RingLayout& rings) {
    // The charges and their order are the session's allocation's (rt::bind_entry, then the ring tensors).
    int64_t used = 0;
    for (const auto& p : plan.entry->params)
        if (p.var->type.kind == TypeKind::Tensor && !rt::alias_group(plan, p.var->name))
            rt::charge_gm(used, rt::tensor_bytes(p.var->type.shape, p.var->type.dtype),
                          fmt::format("tensor '{}' of shape {}", p.var->name, shape_str(p.var->type.shape)),
                          p.var->loc);
    for (const auto& g : plan.aliases)
        rt::charge_gm(used, rt::tensor_bytes(g.shape, g.dtype),
                      fmt::format("tensor '{}' of shape {}", g.name, shape_str(g.shape)), plan.entry->loc);
    for (const auto& c : plan.created)
        rt::charge_gm(used, rt::tensor_bytes(c.shape, c.dtype),
                      fmt::format("created tensor '{}' of shape {}", c.name, shape_str(c.shape)), plan.entry->loc);
    for (int b = 0; b < plan.blocks && rings.bytes != 0; ++b)
        rt::charge_gm(used, rings.bytes,
                      fmt::format("the ring buffers of cluster {} (slot_size x slot_num, both directions)", b),
                      plan.entry->loc);
    return used;
}

std::string format_pass_records(const std::vector<PassRecord>& records) {
    std::string out;
    for (const auto& r : records) {
        out += "pass " + r.name;
        if (!r.scope.empty()) out += " [" + r.scope + "]";
        out += ":";
        for (size_t i = 0; i < r.stats.size(); ++i)
            out += fmt::format("{} {} {}", i ? "," : "", r.stats[i].first, r.stats[i].second);
        if (r.stats.empty()) out += " ok";
        out += "\n";
    }
    return out;
}

PipelineResult run_pipeline(const std::shared_ptr<SourceFile>& file, const PipelineOptions& opt) {
    PipelineResult res;
    auto record = [&](std::string name, std::string scope,
                      std::vector<std::pair<std::string, int64_t>> stats = {}) -> PassRecord& {
        res.passes.push_back(PassRecord{std::move(name), std::move(scope), std::move(stats)});
        return res.passes.back();
    };

    // sema
    res.program = load_program(file, opt.sema);
    const Program& program = *res.program;
    verify_program(program, "sema");
    int64_t unread = 0;
    for (const auto& f : program.functions) unread += f->is_unread();
    record("sema", "",
           {{"functions", static_cast<int64_t>(program.functions.size())},
            {"statements", count_stmts(program)},
            {"unread", unread}});

    // entry
    refuse_unread(program, opt.entry);
    record("entry", "");
    if (opt.after_sema) opt.after_sema(program);

    // What capacity and the printed expansion read: with reached_only and a kernel entry, the functions it reaches
    // (the launch passes below take the whole program: a kernel's launch sites bind its tensors).
    const Program* reach = &program;
    Program reached;
    if (const auto e = opt.reached_only && !opt.entry.empty() ? program.find(opt.entry) : nullptr;
        e && e->type != FuncType::Orchestration) {
        reached = sub_program(program, reached_from(program, *e));
        reach = &reached;
    }

    // capacity (as written: the author's own tiles, at their lines)
    passes::check_capacity(*reach, opt.hw);
    record("capacity", "", {{"functions", static_cast<int64_t>(reach->functions.size())}});

    if (opt.printed) {
        passes::ExpandOptions eo = opt.expand;
        if (auto w = launch_width(program, opt.entry)) eo.blocks = *w;  // the launch's own width
        res.printed_blocks = eo.blocks;
        res.printed = passes::expand_mixed_kernel(*reach, eo, res.printed_stats);
        verify_program(*res.printed, "expand-mixed-kernel");
        add_expand_stats(record("expand-mixed-kernel", "printed"), res.printed_stats);
        // The store-layout rule is the board toolchain's, not the pass's: expand prints what PyPTO's pass would.
        check_expanded_for_hardware(*res.printed, opt.hw, /*store_layouts=*/false);
        record("verify-hardware", "printed");
    }

    // The launches.
    std::vector<std::pair<std::string, int>> launches;  // entry, blocks
    if (!opt.every_launch) {
        launches.emplace_back(opt.entry, opt.expand.blocks);
    } else {
        std::vector<KernelLaunch> ks;
        bool entry_ok = true;
        try {
            HostInputs host = opt.host;
            if (opt.sema.defaulted) host.defaulted_dims = *opt.sema.defaulted;
            ks = kernel_launches(program, opt.entry, host);
        } catch (const CompileError& e) {
            // E-ENTRY: no entry to choose, expand prints every function and nothing is launched; E-UNSUPPORTED:
            // launches cvsim does not simulate (aliased launch arguments), printed all the same.
            if (e.diag().code != codes::kEntry && e.diag().code != codes::kUnsupported) throw;
            if (e.diag().code == codes::kUnsupported)
                record("compile", opt.entry.empty() ? "entry" : opt.entry, {{"not_simulated", 1}});
            entry_ok = false;
        }
        for (const auto& k : ks)
            if (!k.distributed) launches.emplace_back(k.name, k.blocks > 0 ? k.blocks : opt.expand.blocks);
        if (ks.empty() && entry_ok) launches.emplace_back(opt.entry, opt.expand.blocks);
    }
    // A kernel launched many times at one width (a loop over layers or heads) compiles to the same launch.
    std::set<std::pair<std::string, int>> seen;
    for (const auto& [entry, blocks] : launches) {
        if (!seen.insert({entry, blocks}).second) continue;
        CompileOptions co;
        co.entry = entry;
        co.expand = opt.expand;
        co.expand.blocks = blocks;
        Compiled c;
        try {
            c = compile(res.program, co);
        } catch (const CompileError& e) {
            // expand: a file without an entry to choose (several kernels and no orchestration) has no launch; a
            // launch cvsim does not simulate (E-UNSUPPORTED: distributed state, no numeric dtype, aliased launch
            // arguments, a partial soft barrier, ...) is printed all the same, as PyPTO's pass would.
            if (opt.every_launch && (e.diag().code == codes::kEntry || e.diag().code == codes::kUnsupported)) {
                if (e.diag().code == codes::kUnsupported)
                    record("compile", entry.empty() ? "entry" : entry, {{"not_simulated", 1}});
                continue;
            }
            throw;
        }
        const std::string scope = c.plan.entry ? c.plan.entry->name : entry;
        verify_program(*c.expanded, "compile");
        PassRecord& r = record("compile", scope);
        add_expand_stats(r, c.stats);
        r.stats.insert(r.stats.begin(), {"blocks", c.plan.blocks});
        check_expanded_for_hardware(*c.expanded, opt.hw, opt.store_layouts);
        record("verify-launch", scope);
        RingLayout rings = ring_layout(c.plan);
        record("ring-layout", scope, {{"bytes", rings.bytes}, {"rings", static_cast<int64_t>(rings.base.size())}});
        if (opt.gm_budget) {
            const int64_t gm = check_gm_budget(c.plan, rings);
            record("gm-budget", scope, {{"bytes", gm}});
        } else {  // expand: the figure only, never the simulator's bound (PipelineOptions::gm_budget)
            try {
                record("gm-budget", scope, {{"bytes", check_gm_budget(c.plan, rings)}});
            } catch (const CompileError&) {
                record("gm-budget", scope, {{"over_bound", 1}});
            }
        }
        // `expand` (every launch) keeps only the records: a whole-model file has hundreds of launches, and each
        // compiled launch holds its own expanded program (18 GB for pypto-lib's deepseek_v4_pro decode_fwd).
        if (opt.every_launch) continue;
        res.launches.push_back(std::move(c));
        res.rings.push_back(std::move(rings));
    }
    return res;
}

}  // namespace cvsim
