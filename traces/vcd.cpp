// VCD waveform writer through SystemC's sc_trace (see vcd.h). The models are not touched: core states come
// from CoreBase's state listener, ring occupancy from the events, pending flag sets from the cluster's
// FlagBank right after each sync_set / sync_wait event.
#include "traces/vcd.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <stdexcept>

#include "frontend/ops.h"
#include "traces/timeline.h"

namespace cvsim::traces {

namespace {

constexpr int64_t kDefaultFlagIds = 16;  // event ids a computed sync_set id may take (4-bit)

void scan_expr(const ir::ExprPtr& e, std::set<int64_t>& ids, bool& computed) {
    if (!e) return;
    if (e->kind == ir::ExprKind::Call && e->op &&
        (e->op->code == ir::OpCode::SyncSet || e->op->code == ir::OpCode::SyncWait)) {
        const ir::ExprPtr& id = e->args.empty() ? nullptr : e->args[0];
        if (id && id->kind == ir::ExprKind::Int)
            ids.insert(id->ival);
        else
            computed = true;
    }
    for (const auto& a : e->args) scan_expr(a, ids, computed);
    for (const auto& a : e->args2) scan_expr(a, ids, computed);
}

void scan_block(const ir::Block& b, std::set<int64_t>& ids, bool& computed) {
    for (const auto& s : b) {
        scan_expr(s->value, ids, computed);
        for (const auto& v : s->values) scan_expr(v, ids, computed);
        scan_block(s->body, ids, computed);
        scan_block(s->orelse, ids, computed);
    }
}

}  // namespace

uint32_t vcd_core_state(CoreBase::State s, StallCause cause) {
    switch (s) {
        case CoreBase::State::Idle:
        case CoreBase::State::Finished:
            return 0;
        case CoreBase::State::Running:
            return 1;
        case CoreBase::State::Stalled:
            return cause == StallCause::None ? 1 : 1 + static_cast<uint32_t>(cause);
    }
    return 0;
}

std::vector<int64_t> flag_event_ids(const ir::Program& program) {
    std::set<int64_t> ids;
    bool computed = false;
    for (const auto& f : program.functions) scan_block(f->body, ids, computed);
    if (computed)
        for (int64_t i = 0; i < kDefaultFlagIds; ++i) ids.insert(i);
    return {ids.begin(), ids.end()};
}

VcdTrace::VcdTrace(const std::string& path, VcdLayout layout) : m_layout(std::move(layout)) {
    if (m_layout.clusters < 1) m_layout.clusters = 1;
    // sc_create_vcd_trace_file appends ".vcd" to the name it is given.
    std::string base = path;
    if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
        base.resize(base.size() - 4);
    else
        throw std::invalid_argument(fmt::format("--vcd {}: the file name must end in .vcd", path));
    // SystemC opens the file only when the simulation starts; fail now, with the path, if it cannot.
    if (!std::ofstream(path, std::ios::trunc)) throw std::runtime_error("cannot write VCD '" + path + "'");
    // SystemC announces the timescale on stdout; the command's report owns stdout.
    sc_core::sc_report_handler::set_actions("tracing timescale unit set", sc_core::SC_DO_NOTHING);
    m_tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    if (!m_tf) throw std::runtime_error("cannot write VCD '" + path + "'");
    m_tf->set_time_unit(1, sc_core::SC_NS);
    const size_t clusters = static_cast<size_t>(m_layout.clusters);
    m_core_state.assign(clusters * sim::kCoresPerCluster, 0);
    m_ring_occupancy.assign(clusters * 2, 0);
    m_flag_pending.assign(clusters * m_layout.flag_ids.size() * sim::kCoresPerCluster, 0);
    m_tf->write_comment(
        "core state: 0 idle, 1 running, stalled on 2 dependency, 3 queue full, 4 ring, 5 barrier, 6 flag, 7 fence");
    for (size_t c = 0; c < clusters; ++c) {
        for (int k = 0; k < sim::kCoresPerCluster; ++k) {
            std::string core(core_label(static_cast<sim::CoreId>(k)));
            sc_core::sc_trace(m_tf, m_core_state[c * sim::kCoresPerCluster + static_cast<size_t>(k)],
                              fmt::format("cluster{}.{}.state", c, core), 4);
        }
        sc_core::sc_trace(m_tf, m_ring_occupancy[c * 2], fmt::format("cluster{}.ring_C2V.occupancy", c), 8);
        sc_core::sc_trace(m_tf, m_ring_occupancy[c * 2 + 1], fmt::format("cluster{}.ring_V2C.occupancy", c), 8);
        for (size_t f = 0; f < m_layout.flag_ids.size(); ++f)
            for (int r = 0; r < sim::kCoresPerCluster; ++r) {
                std::string recv(core_label(static_cast<sim::CoreId>(r)));
                sc_core::sc_trace(m_tf, m_flag_pending[flag_slot(static_cast<uint32_t>(c), m_layout.flag_ids[f], r)],
                                  fmt::format("cluster{}.flag{}.pending_to_{}", c, m_layout.flag_ids[f], recv), 8);
            }
    }
}

VcdTrace::~VcdTrace() {
    close();
}

size_t VcdTrace::flag_slot(uint32_t cluster, int64_t event_id, int receiver) const {
    auto it = std::lower_bound(m_layout.flag_ids.begin(), m_layout.flag_ids.end(), event_id);
    if (it == m_layout.flag_ids.end() || *it != event_id) return SIZE_MAX;
    size_t f = static_cast<size_t>(it - m_layout.flag_ids.begin());
    return (size_t{cluster} * m_layout.flag_ids.size() + f) * sim::kCoresPerCluster + static_cast<size_t>(receiver);
}

void VcdTrace::attach(sim::Machine& machine) {
    m_machine = &machine;
    const int clusters = std::min(m_layout.clusters, machine.clusters());
    for (int c = 0; c < clusters; ++c)
        for (int k = 0; k < sim::kCoresPerCluster; ++k) {
            uint32_t* state = &m_core_state[static_cast<size_t>(c * sim::kCoresPerCluster + k)];
            machine.cluster(c).cores[static_cast<size_t>(k)]->set_state_listener(
                [state](const CoreBase&, CoreBase::State s, StallCause cause) { *state = vcd_core_state(s, cause); });
        }
}

void VcdTrace::on_event(const sim::Event& e) {
    if (!m_tf || e.cluster >= m_layout.clusters) return;
    if (e.ring_dir >= 0 && e.ring_dir < 2 && e.ring_occupancy >= 0)
        m_ring_occupancy[size_t{e.cluster} * 2 + static_cast<size_t>(e.ring_dir)] =
            static_cast<uint32_t>(e.ring_occupancy);
    if (e.flag_event >= 0 && m_machine) {
        const FlagBank& fb = m_machine->cluster(e.cluster).flags;
        for (int r = 0; r < sim::kCoresPerCluster; ++r) {
            size_t slot = flag_slot(e.cluster, e.flag_event, r);
            if (slot == SIZE_MAX) continue;
            auto it = fb.counters.find({e.flag_event, r});
            m_flag_pending[slot] = it == fb.counters.end() ? 0 : static_cast<uint32_t>(it->second.tokens.size());
        }
    }
}

void VcdTrace::close() {
    if (!m_tf) return;
    if (m_machine) {
        const int clusters = std::min(m_layout.clusters, m_machine->clusters());
        for (int c = 0; c < clusters; ++c)
            for (auto& core : m_machine->cluster(c).cores) core->set_state_listener(nullptr);
        m_machine = nullptr;
    }
    // SystemC samples traced values when time advances, so the changes of the run's last cycle (cores
    // finishing) are not in the file yet when the run ends on starvation: one more cycle records them.
    if (sc_core::sc_get_status() == sc_core::SC_PAUSED) sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_NS));
    sc_core::sc_close_vcd_trace_file(m_tf);
    m_tf = nullptr;
}

}  // namespace cvsim::traces
