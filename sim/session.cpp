// Session: compile once, reference once, many checked schedules.
#include "sim/session.h"

#include <fmt/format.h>

#include "frontend/diag.h"
#include "frontend/passes/capacity.h"
#include "frontend/passes/ring_buffers.h"
#include "frontend/sema.h"
#include "sim/check/hazard_checker.h"

namespace cvsim::sim {

bool ScheduleResult::clean() const { return findings.empty(); }

Session::Session(std::shared_ptr<SourceFile> file, SessionOptions opt) : m_opt(std::move(opt)), m_file(std::move(file)) {
    m_hw = load_params(m_opt.target, m_opt.config_files, m_opt.param_sets);
    auto program = load_program(m_file, SemaOptions{m_opt.dims});
    CompileOptions co;
    co.entry = m_opt.entry;
    co.expand.v2c = m_opt.v2c;
    co.expand.target = m_opt.target;
    co.expand.blocks = m_opt.blocks;
    co.expand.chip_clusters = static_cast<int>(m_hw.chip.clusters);
    passes::check_capacity(*program, m_hw);
    m_compiled = compile(program, co);
    passes::check_capacity(*m_compiled.expanded, m_hw);
    passes::check_ring_buffers(*m_compiled.expanded, m_hw);

    // GM: the entry's tensors (inputs generated or read, outputs poisoned), then hidden ring tensors.
    rt::bind_entry(m_compiled.plan, m_gm, m_opt.scalars);
    rt::fill_inputs(m_gm, m_opt.input_seed);
    for (auto& [name, path] : m_opt.input_files) {
        auto idx = m_gm.find(name);
        if (!idx) throw std::runtime_error(fmt::format("--input {}: the kernel has no tensor parameter '{}'", name, name));
        rt::read_npy(m_gm.tensors[*idx], path);
    }
    rt::poison_outputs(m_gm);
    int64_t ring_bytes = ring_tensor_bytes(m_compiled.plan);
    if (ring_bytes > 0) {
        for (int b = 0; b < m_compiled.plan.blocks; ++b) {
            rt::TensorBuffer t;
            t.name = fmt::format("__ring_cluster{}", b);
            t.dtype = DType::UINT8;
            t.shape = {ring_bytes};
            t.hidden = true;
            t.bytes.assign(static_cast<size_t>(ring_bytes), 0);
            m_ring_tensors.push_back(m_gm.add(std::move(t)));
        }
    }
}

const ref::Result& Session::reference() {
    if (!m_ref) m_ref = ref::interpret(m_compiled.plan, m_gm);
    return *m_ref;
}

const ref::Result& Session::expanded_reference() {
    if (!m_ref_expanded) m_ref_expanded = ref::interpret_lanes(m_compiled.plan, m_gm);
    return *m_ref_expanded;
}

ScheduleResult Session::run(const Schedule& sched, const std::vector<EventSink*>& sinks, int fault_abort_at) {
    Machine& m = Machine::instance(clusters_needed());
    uint64_t vis = m_opt.visibility_delay;
    HazardChecker checker(m.clusters(), &m_gm, vis);
    RunConfig cfg;
    cfg.plan = &m_compiled.plan;
    cfg.gm = &m_gm;
    cfg.hw = m_hw;
    cfg.schedule = sched;
    if (sched.strategy == Strategy::Pct && sched.pct_events == 0) {
        if (m_nominal_events == 0) run(Schedule{});  // measure k on the nominal schedule first
        cfg.schedule.pct_events = m_nominal_events;
    }
    cfg.visibility_delay = vis;
    cfg.max_cycles = m_opt.max_cycles;
    cfg.max_wall_seconds = m_opt.max_wall_seconds;
    cfg.sinks.push_back(&checker);
    for (auto* s : sinks) cfg.sinks.push_back(s);
    cfg.ring_tensors = m_ring_tensors;
    cfg.fault_abort_at = fault_abort_at;
    cfg.memo = &m_memo;
    ScheduleResult r;
    r.schedule = sched;
    r.outcome = m.run(cfg);
    m_memo.stop_recording();
    r.findings = r.outcome.findings;
    for (const auto& f : checker.findings()) r.findings.push_back(f);
    if (r.outcome.completed) {
        const ref::Result& want = reference();
        if (!want.error) {
            for (auto& f : compare_outputs(r.outcome.gm_final, want.gm, m_opt.compare)) r.findings.push_back(f);
        }
        if (sched.strategy == Strategy::Nominal && sched.seed == 0) {
            m_nominal_out = r.outcome.gm_final;
            m_nominal_events = r.outcome.sync_events;
        } else if (m_nominal_out) {
            for (auto& f : compare_outputs(r.outcome.gm_final, *m_nominal_out, m_opt.compare, "E-NONDET")) r.findings.push_back(f);
        }
    }
    return r;
}

}  // namespace cvsim::sim
