// gm_sync: the GM-synchronisation pass's entry point (the pass itself: gm_sync.h, gm_sync_c2v.cpp).
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes {

void insert_gm_sync(ir::Function& f, const ExpandOptions& opt, ExpandStats& stats,
                    const std::set<const ir::Var*>* live_loads, const std::set<const ir::Var*>* live_reads) {
    const ExpandStats before = stats;
    const size_t vars = f.vars.size(), params = f.params.size();
    {
        gmsync::GmSync g(f, opt, stats, live_loads, live_reads);
        g.run();
        if (!g.m_bp_retry) return;
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
    g.set_back_pressure_off();
    g.run();
}

}  // namespace cvsim::passes
