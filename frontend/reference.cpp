// Reference interpreter: walks IR on logical tiles; lanes of an expanded program run cooperatively with
// rings carrying logical tiles; a mixed program runs sequentially (one task per cluster).
#include "frontend/reference.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <tuple>
#include <variant>

#include "core/datapath.h"
#include "frontend/codes.h"
#include "frontend/coop.h"
#include "frontend/diag.h"
#include "frontend/ops.h"
#include "frontend/ops_sort.h"
#include "frontend/reference_internal.h"

namespace cvsim::ref {

using namespace ir;
using rt::Scalar;
using namespace detail;

namespace {

Result finish(Machine& m, bool ok) {
    Result r;
    r.statements = m.statements;
    if (!ok) r.error = rt::RuntimeError{codes::kDeadlock, "the reference run deadlocked: every lane is blocked", {}};
    // Float atomic adds from several cores land in an order the schedule decides. Two nonzero terms give the
    // same rounded sum in either order; k > 2 terms in two orders differ by at most 2 * gamma(k-1) * sum|x|
    // (gamma(n) = n*u / (1 - n*u), u the dtype's unit roundoff): that is the comparison's tolerance there.
    for (auto& [id, terms] : m.atomic_terms) {
        auto& t = m.gm.tensors[id];
        const double u = unit_roundoff(t.dtype);
        t.atomic_tol.assign(terms.n.size(), 0);
        for (size_t k = 0; k < terms.n.size(); ++k) {
            if (terms.n[k] <= 2) continue;
            const double nu = static_cast<double>(terms.n[k] - 1) * u;
            t.atomic_tol[k] = nu < 1 ? 2 * nu / (1 - nu) * terms.abs[k] : std::numeric_limits<double>::infinity();
        }
    }
    r.gm = std::move(m.gm);
    return r;
}

Result run_tasks(Machine& m, std::vector<std::unique_ptr<Lane>>& lanes) {
    std::vector<std::function<void(int)>> tasks;
    for (auto& l : lanes) tasks.push_back([&l](int) { l->run(); });
    try {
        bool ok = m.coop.run(std::move(tasks));
        return finish(m, ok);
    } catch (const rt::RuntimeError& e) {
        Result r = finish(m, true);
        r.error = e;
        return r;
    }
}

}  // namespace

Result interpret_lanes(const rt::LaunchPlan& plan, const rt::TensorStore& initial, const Options& opt) {
    Machine m;
    m.gm = initial;
    m.max_statements = opt.max_statements;
    m.max_work = opt.max_work;
    m.max_wall_seconds = opt.max_wall_seconds;
    m.aiv_lanes = plan.aiv_split ? 2 : 1;
    m.blocks = plan.blocks;
    std::vector<std::unique_ptr<Lane>> lanes;
    int task = 0;
    int aic_n = 0, aiv_n = 0;
    for (int b = 0; b < plan.blocks; ++b) {
        if (plan.aic) {
            lanes.push_back(std::make_unique<Lane>(m, plan.aic->fn, Role::Aic, b, 0, task++));
            lanes.back()->bind(plan.aic->args);
            ++aic_n;
        }
        if (plan.aiv)
            for (int l = 0; l < m.aiv_lanes; ++l) {
                lanes.push_back(std::make_unique<Lane>(m, plan.aiv->fn, Role::Aiv, b, l, task++));
                lanes.back()->bind(plan.aiv->args);
                ++aiv_n;
            }
    }
    m.barrier_size["mix"] = aic_n + aiv_n;
    m.barrier_size["aic_only"] = aic_n;
    m.barrier_size["aiv_only"] = aiv_n;
    return run_tasks(m, lanes);
}

Result interpret(const rt::LaunchPlan& plan, const rt::TensorStore& initial, const Options& opt) {
    // A mixed function already in per-lane form (attr split_aiv: PyPTO's LowerAutoVectorSplit output, its
    // vector statements read get_subblock_idx and each lane does its own part) has no sequential meaning
    // with one lane: it runs as its expanded lanes, both AIV lanes included.
    const Attr* per_lane = plan.mixed ? plan.mixed->attr("split_aiv") : nullptr;
    if (!plan.mixed || (per_lane && per_lane->value && per_lane->value->ival != 0))
        return interpret_lanes(plan, initial, opt);
    Machine m;
    m.gm = initial;
    m.max_statements = opt.max_statements;
    m.max_work = opt.max_work;
    m.max_wall_seconds = opt.max_wall_seconds;
    m.blocks = plan.blocks;
    std::vector<std::unique_ptr<Lane>> lanes;
    for (int b = 0; b < plan.blocks; ++b) {
        lanes.push_back(std::make_unique<Lane>(m, plan.mixed, Role::Mixed, b, 0, b));
        lanes.back()->bind(plan.mixed_prog ? plan.mixed_prog->args : plan.entry_args);
    }
    m.barrier_size["mixed"] = plan.blocks;
    // SPMD reading of the original program: its blocks advance in lockstep, the k-th GM access of every
    // block before any block's (k+1)-th, so a block reading another block's band sees it written when the
    // writes come first in program order (which a barrier the policy inserts makes true on the machine);
    // a block-by-block run would read the band unwritten. Race-free programs give the same outputs in
    // either order (docs/DECISIONS.md).
    m.lockstep = plan.blocks > 1;
    for (auto& l : lanes) m.pos.push_back(l->position());
    m.done.assign(lanes.size(), 0);
    return run_tasks(m, lanes);
}

}  // namespace cvsim::ref
