// The oracle's lane walker: its own evaluator of scalars, loops and branches over the expanded IR, turning
// each launched lane into instructions with their same-core predecessors (SPEC 4.1). Shares nothing with the
// lane executor: values, windows, pipes and dependencies are computed here from the SPEC.
#include "oracle/walker_internal.h"

namespace cvsim::oracle::detail {

Model build_model(const rt::LaunchPlan& plan, const rt::TensorStore& tensors, const Options& opt) {
    Model m;
    m.blocks = std::max(1, plan.blocks);
    m.standalone_aiv = !plan.aic && plan.aiv && !plan.aiv_split && !plan.aiv_lane1_launched &&
                       !(opt.target == Target::A2A3 && plan.aiv_lane1_replay);
    for (const auto& t : tensors.tensors) m.resources.push_back(t.name);
    // Launched lanes (SPEC 4.1): split -> both AIVs; a2a3 unsplit -> lane 1 replays handshakes; a5 unsplit -> lane 0
    // only.
    int aiv_lanes = !plan.aiv ? 0 : (plan.aiv_split || opt.target == Target::A2A3) ? 2 : 1;
    for (int b = 0; b < m.blocks; ++b) {
        if (plan.aic) m.lanes.push_back(Lane{b, 0, false, {}, {}});
        for (int l = 0; l < aiv_lanes; ++l) m.lanes.push_back(Lane{b, 1 + l, l == 1 && !plan.aiv_split, {}, {}});
    }
    for (auto& lane : m.lanes) {
        const rt::LaneProgram& prog = lane.core == 0 ? *plan.aic : *plan.aiv;
        Walker w(m, lane, prog, tensors, opt, aiv_lanes);
        w.run();
    }
    return m;
}

}  // namespace cvsim::oracle::detail
