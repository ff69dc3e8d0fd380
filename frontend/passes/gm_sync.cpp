// gm_sync: the GM-synchronisation pass's entry point (the pass itself: gm_sync.h, gm_sync_c2v.cpp).
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes {

namespace {

// One plan of the pass on f, with the back-pressure retry (GmSync::bp_conflict): `hold` records reject's
// E-V2C-UNFENCED instead of raising it and applies the plan all the same (GmSync::hold_rejections).
// Returns where reject would have raised (nullopt: nowhere).
std::optional<SourceLoc> plan_once(ir::Function& f, const ExpandOptions& opt, ExpandStats& stats,
                                   const std::set<const ir::Var*>* live_loads,
                                   const std::set<const ir::Var*>* live_reads, bool hold) {
    const ExpandStats before = stats;
    const size_t vars = f.vars.size(), params = f.params.size();
    {
        gmsync::GmSync g(f, opt, stats, live_loads, live_reads);
        if (hold) g.hold_rejections();
        g.run();
        if (!g.m_bp_retry) return g.rejected();
    }
    // The plan put a token on a ring whose pushes the back-pressure rule counted (GmSync::bp_conflict):
    // nothing was applied; plan again without the rule.
    stats = before;
    f.vars.resize(vars);
    f.params.resize(params);
    stats.log.push_back(fmt::format(
        "{}: ring back-pressure not used: a token this pass adds shares the ring it counts (planned again without it)",
        f.loc.short_str()));
    gmsync::GmSync g(f, opt, stats, live_loads, live_reads);
    if (hold) g.hold_rejections();
    g.set_back_pressure_off();
    g.run();
    return g.rejected();
}

}  // namespace

void insert_gm_sync(ir::Function& f, const ExpandOptions& opt, ExpandStats& stats,
                    const std::set<const ir::Var*>* live_loads, const std::set<const ir::Var*>* live_reads) {
    const ExpandStats before = stats;
    const size_t vars = f.vars.size(), params = f.params.size();
    try {
        plan_once(f, opt, stats, live_loads, live_reads, false);
    } catch (const CompileError& e) {
        if (opt.v2c != V2CPolicy::Reject || e.diag().code != codes::kV2cUnfenced) throw;
        // Reject judges each pair on the function as written, but the function it accepts is the one with this
        // pass's own orderings applied (upstream's C2V tokens, --c2v complete's barriers), and those order more:
        // e.g. a cube load whose tile feeds a FIXP store before the C2V token's push (FIXP, in order) is
        // complete before the vector lane pops the token, so a vector store after the pop is ordered after the
        // load (load_drained_by_fixp). So: plan everything with the errors held, apply the plan, and judge the
        // result again in reject mode (the final re-check's test, prune_inserted). It is accepted only when that
        // re-check raises nothing and plans nothing more: it then holds every dependency ordered in the very
        // function that is emitted, as reject holds an author's program. Otherwise the error stands (the
        // re-check's, which names a pair still unordered with the plan applied).
        const CompileError original = e;
        stats = before;
        f.vars.resize(vars);
        f.params.resize(params);
        std::optional<SourceLoc> where;
        bool ok = false;
        try {
            if (!plan_once(f, opt, stats, live_loads, live_reads, true))
                return;  // (the same plan without the error: cannot happen, the plan is deterministic)
            const size_t vars2 = f.vars.size(), params2 = f.params.size();
            ExpandStats scratch;
            {
                gmsync::GmSync g(f, opt, scratch, live_loads, live_reads);
                g.set_dry();
                g.run();
                where = g.rejected();
                ok = !where && !g.m_bp_retry && g.plans_nothing();
            }
            f.vars.resize(vars2);
            f.params.resize(params2);
        } catch (const CompileError&) {
            throw original;  // another diagnostic of the second look (not met before the first error): the first stands
        }
        if (ok) {
            stats.log.push_back(
                fmt::format("{}: E-V2C-UNFENCED withdrawn: with this pass's own orderings applied "
                            "every pair is ordered (the expanded function re-checked in reject mode)",
                            original.diag().loc.short_str()));
            return;
        }
        if (!where || (where->line == original.diag().loc.line && where->col == original.diag().loc.col))
            throw original;
        // Another pair is the one left unordered: its own diagnostic (the pass on the function as planned raises it).
        ExpandStats scratch;
        gmsync::GmSync t(f, opt, scratch, live_loads, live_reads);
        t.run();
        throw original;  // (t raised nothing: cannot happen, the re-check above found that pair)
    }
}

}  // namespace cvsim::passes
