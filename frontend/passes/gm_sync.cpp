// gm_sync: the GM-synchronisation pass's entry point (the pass itself: gm_sync.h, gm_sync_c2v.cpp).
#include "frontend/passes/gm_sync.h"

namespace cvsim::passes {

void insert_gm_sync(ir::Function& f, const ExpandOptions& opt, ExpandStats& stats, const std::set<const ir::Var*>* live_loads,
                    const std::set<const ir::Var*>* live_reads) {
    gmsync::GmSync(f, opt, stats, live_loads, live_reads).run();
}

}  // namespace cvsim::passes
