// The data engine's flags (sync_set / sync_wait), barriers (syncall arrival and departure) and fences. A
// wait on another core is a Step the core performs; the instruction's phase says where begin() resumes.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "frontend/codes.h"
#include "sim/data_engine.h"
#include "sim/data_util.h"

namespace cvsim::sim {

using namespace ir;

// ---------------------------------------------------------------- flags

Step DataEngine::wait_flag(SimInstr& in) {
    Payload& p = in.p;
    FlagBank& fb = m_st.machine->cluster(m_cluster).flags;
    const int recv = static_cast<int>(m_core_id);
    const auto key = std::make_pair(p.event_id, recv);
    // a2a3: an AIC wait completes only when every AIV lane has set; a5: the one paired lane.
    const bool a5 = m_st.cfg->hw.target == Target::A5;
    const int need_from = m_core_id == CoreId::Aic && !a5 ? m_aiv_lanes : 1;
    const int a5_lane = p.event_id >= flag_lane_stride(m_st.cfg->hw) ? 1 : 0;
    auto ready = [&] {
        auto it = fb.counters.find(key);
        if (it == fb.counters.end()) return false;
        if (m_core_id != CoreId::Aic) return !it->second.tokens.empty();
        if (a5) return std::find(it->second.from.begin(), it->second.from.end(), a5_lane) != it->second.from.end();
        // An AIC wait needs a set from every AIV lane.
        std::set<int> lanes(it->second.from.begin(), it->second.from.end());
        return static_cast<int>(lanes.size()) >= need_from;
    };
    if (in.phase == 2) {
        in.phase = 4;
        if (!ready()) {
            in.wait_from = m_core->now();
            m_pipe_wait[static_cast<int>(in.pipe)] = WaitNote{WaitNote::Kind::Flag, &in};
            m_core->set_blocked(StallCause::Flag);
            in.phase = 3;
        }
    }
    if (in.phase == 3) {
        if (!ready()) return Step::event(fb.changed);
        m_core->clear_blocked();
        m_pipe_wait[static_cast<int>(in.pipe)] = {};
        m_core->account_stall(StallCause::Flag, m_core->now() - in.wait_from, in.pipe);
    }
    auto& ctr = fb.counters[key];
    if (m_core_id == CoreId::Aic) {
        for (int l = a5 ? a5_lane : 0; l < (a5 ? a5_lane + 1 : need_from); ++l) {
            for (size_t i = 0; i < ctr.from.size(); ++i)
                if (ctr.from[i] == l) {
                    p.acquires.push_back(ctr.tokens[i]);
                    ctr.tokens.erase(ctr.tokens.begin() + static_cast<std::ptrdiff_t>(i));
                    ctr.from.erase(ctr.from.begin() + static_cast<std::ptrdiff_t>(i));
                    break;
                }
        }
    } else {
        p.acquires.push_back(ctr.tokens.front());
        ctr.tokens.pop_front();
        ctr.from.pop_front();
    }
    fb.changed.notify(sc_core::SC_ZERO_TIME);
    return Step::done();
}

void DataEngine::end_sync_set(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    FlagBank& fb = m_st.machine->cluster(m_cluster).flags;
    uint64_t tok = m_st.token();
    p.releases.push_back(tok);
    // a2a3: an AIC set reaches both AIVs. a5: flags are 1:1, ids 0-15 pair the AIC with AIV0 and
    // 16-31 with AIV1 (chip.flag_counters = 32 per cluster, one half per AIV).
    std::vector<int> receivers;
    if (m_core_id != CoreId::Aic)
        receivers.push_back(0);
    else if (hw.target == Target::A5)
        receivers.push_back(p.event_id >= flag_lane_stride(hw) ? 2 : 1);
    else
        for (int l = 0; l < m_aiv_lanes; ++l) receivers.push_back(1 + l);
    for (int rcv : receivers) {
        auto& ctr = fb.counters[{p.event_id, rcv}];
        ctr.tokens.push_back(tok);
        ctr.from.push_back(m_core_id == CoreId::Aic ? 0 : m_lane);
        // At the AIC the sets of both AIVs wait in one counter and a wait takes one of each (SPEC 4.4): the sets
        // pending from this lane. (It was the total over the lanes halved: one lane's 16 sets beside the other's
        // one counted 9, no overflow; found by the twenty-fifth session's hunt.)
        size_t pending = ctr.tokens.size();
        if (rcv == 0 && m_aiv_lanes > 0)
            pending = static_cast<size_t>(std::count(ctr.from.begin(), ctr.from.end(), m_lane));
        if (pending > hw.chip.flag_counter_max)
            runtime_finding(codes::kFlagOverflow, *in.stmt,
                            fmt::format("sync_set({}) leaves {} pending sets; the 4-bit counter holds {}", p.event_id,
                                        pending, hw.chip.flag_counter_max));
    }
    fb.changed.notify(sc_core::sc_time(static_cast<double>(hw.sync.flag_latency), sc_core::SC_NS));
}

// ---------------------------------------------------------------- barriers and fences

Step DataEngine::begin_fence(SimInstr& in) {
    // Every earlier instruction completed (deps); wait until this core's GM writes are visible.
    const uint64_t cost = m_st.cfg->hw.sync.issue_cost;
    if (in.phase == 2) {
        const uint64_t now = m_core->now();
        if (m_max_visible <= now) return Step::done(cost);
        m_scalar_wait = WaitNote{WaitNote::Kind::Fence, &in};
        in.wait_from = m_max_visible - now;
        in.phase = 3;
        return Step::cycles(in.wait_from);
    }
    m_core->account_stall(StallCause::Fence, in.wait_from, Pipe::Scalar);
    m_scalar_wait = {};
    return Step::done(cost);
}

void DataEngine::end_arrive(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    Barrier& b = m_st.machine->barrier(p.barrier);
    int per_cluster = p.group == "mix"        ? m_st.participants_per_cluster
                      : p.group == "aic_only" ? m_st.aic_per_cluster
                                              : m_st.aiv_per_cluster;
    // Hard: every physical core of the chip, and a launch wider than the chip is no exception: its blocks run in
    // waves, and the barrier (PyPTO's HardSyncallOccupancy: block count != cores, partial or over) never completes,
    // so it waits for every launched block as a soft one does (the later waves never start while it waits).
    const int blocks = m_st.cfg->plan->blocks, chip = m_st.capacity;  // (a standalone AIV kernel: its AIV cores)
    int expected = per_cluster * (p.hard ? std::max(chip, blocks) : blocks);
    b.expected = expected;
    uint64_t tok = m_st.token();
    p.releases.push_back(tok);
    uint64_t gen = b.generation;
    b.episode_tokens[gen].push_back(tok);
    if (m_st.detail) p.detail = fmt::format("{} barrier episode {} arrival", p.group, gen);
    if (!p.hard) m_st.machine->gm().account(4, 4);  // soft: an atomic add on the GM workspace counter
    if (++b.arrived >= b.expected) {
        b.arrived = 0;
        ++b.generation;
        uint64_t delay = p.hard ? hw.sync.hard_syncall_release : 0;
        b.release_cycle = m_core->now() + delay;
        b.released.notify(sc_core::sc_time(static_cast<double>(delay), sc_core::SC_NS));
    }
}

Step DataEngine::begin_depart(SimInstr& in) {
    Payload& p = in.p;
    const HwParams& hw = m_st.cfg->hw;
    Barrier& b = m_st.machine->barrier(p.barrier);
    const uint64_t gen = static_cast<uint64_t>(p.ring_id);
    const uint64_t poll = std::max<uint64_t>(hw.sync.soft_poll_interval, 1);
    if (in.phase == 2) {
        in.wait_from = m_core->now();
        in.phase = 7;
        if (b.generation == gen || m_core->now() < b.release_cycle) {
            int per_cluster = p.group == "mix"        ? m_st.participants_per_cluster
                              : p.group == "aic_only" ? m_st.aic_per_cluster
                                                      : m_st.aiv_per_cluster;
            m_in_hard_syncall = p.hard;
            m_in_syncall = true;
            m_scalar_wait =
                WaitNote{WaitNote::Kind::Syncall, &in, nullptr, nullptr, b.expected, b.arrived, per_cluster};
            m_core->set_blocked(StallCause::Barrier);
            in.phase = 3;
        }
    }
    const uint64_t t = in.wait_from;
    if (in.phase == 3) {
        if (b.generation == gen) return Step::event(b.released);
        in.phase = 4;
        if (m_core->now() < b.release_cycle) return Step::cycles(b.release_cycle - m_core->now());
    }
    if (in.phase == 4) {
        in.phase = 5;
        if (!p.hard) {
            // Soft: a waiter sees the counter at its next poll of the GM workspace (one 4-byte read each).
            uint64_t rem = (m_core->now() - t) % poll;
            if (rem) return Step::cycles(poll - rem);
        }
    }
    if (in.phase == 5) {
        if (!p.hard) m_st.machine->gm().account(4 * ((m_core->now() - t) / poll + 1), 0);
        m_core->clear_blocked();
        m_scalar_wait = {};
        m_in_hard_syncall = false;
        m_in_syncall = false;
        m_core->account_stall(StallCause::Barrier, m_core->now() - t, Pipe::Scalar);
    }
    auto it = b.episode_tokens.find(gen);
    if (it != b.episode_tokens.end())
        for (uint64_t x : it->second) p.acquires.push_back(x);
    if (m_st.detail) p.detail = fmt::format("{} barrier episode {}", p.group, gen);
    return Step::done(hw.sync.issue_cost);
}

}  // namespace cvsim::sim
