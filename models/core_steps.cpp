// The core's step machines: an issue (scalar cycle debt, queue space, or the inline run of a scalar
// instruction), an instruction's run (dependencies, the engine's begin, latency, end) and a stretch of
// scalar statements. A step returns true when done, or false with the wait it needs; the caller waits (a
// thread) or returns to SystemC (a method) and calls the step again. Each wait is the one the blocking code
// made before the steps existed: wait_event for an event, wait_cycles for cycles (core_base.cpp).
#include <fmt/format.h>

#include "models/core_base.h"

namespace cvsim {

bool CoreBase::deps_met(const PipeInstr& in) const {
    for (uint32_t d : in.deps)
        if (!instr_done(d)) return false;
    return true;
}

bool CoreBase::sync_step(Step& w) {
    if (m_scalar_debt == 0) return true;
    w = Step::cycles(m_scalar_debt);
    m_scalar_debt = 0;
    return false;
}

bool CoreBase::statements_step(uint64_t& left, Step& w) {
    // advance_statement() `left` times, a stretch up to the next periodic check at once.
    while (left > 0) {
        const uint64_t to_check = 4096 - (m_stmt_count & 4095);
        const uint64_t k = left < to_check ? left : to_check;
        m_scalar_debt += k * m_scalar_cost;
        m_stmt_count += k;
        left -= k;
        if ((m_stmt_count & 4095) == 0) {
            if (m_ctl.wall_exceeded && m_ctl.wall_exceeded()) {
                m_ctl.timed_out = true;
                sc_core::sc_pause();
                throw AbortRun{};
            }
            if (m_scalar_debt >= 65536 && !sync_step(w)) return false;
        }
    }
    return true;
}

bool CoreBase::run_step(InstrRun& r, PipeState* ps, Step& w) {
    PipeInstr& in = *r.in;
    switch (r.phase) {
        case 0:
            // Dependencies through tile buffers and GM bytes (the set_flag/wait_flag pairs of the backend).
            if (!deps_met(in)) {
                r.t = now();
                r.phase = 1;
                w = Step::event(m_any_done);
                return false;
            }
            r.phase = 2;
            break;
        case 1:
            if (!deps_met(in)) {
                w = Step::event(m_any_done);
                return false;
            }
            account_stall(StallCause::Dependency, now() - r.t, in.pipe);
            r.phase = 2;
            break;
        default:
            break;
    }
    if (r.phase == 2) {
        const Step b = m_engine->begin(in);  // may wait on a cross-core condition (it accounts that stall)
        if (b.waits()) {
            w = b;
            return false;
        }
        in.start = now();
        if (m_ctl.aborted) throw AbortRun{};
        r.phase = 3;
        if (b.n > 0) {
            w = Step::cycles(b.n);
            return false;
        }
    }
    in.end = now();
    m_stats[static_cast<int>(in.pipe)].busy += in.end - in.start;
    m_stats[static_cast<int>(in.pipe)].instrs += 1;
    m_engine->end(in);
    in.done = true;
    m_done[in.seq] = 1;
    ++m_ndone;
    m_any_done.notify(sc_core::SC_ZERO_TIME);
    // A pipe's instruction is referenced by nobody once done; a scalar one is returned by issue() to the
    // lane walker, which may read its results, so it is retired at the next issue.
    if (ps)
        retire(in.seq);
    else
        m_retire.push_back(in.seq);
    check_bounds();
    return true;
}

bool CoreBase::issue_step(IssueOp& op, Step& w) {
    PipeInstr& in = *op.in;
    if (op.phase == 0) {
        m_engine->issued(in);
        retire_scalar();
        op.phase = 1;
        if (!sync_step(w)) return false;
    }
    if (op.phase == 1) {
        in.seq = static_cast<uint32_t>(m_instrs.size());
        in.scalar_before = m_last_scalar;
        in.issue_time = now();
        const int idx = m_pipe_index[static_cast<int>(in.pipe)];
        if (idx == -2) {
            // Executed inline on the scalar unit.
            in.pipe = ir::Pipe::Scalar;
            in.pipe_seq = m_scalar_pipe_seq++;
            m_instrs.push_back(&in);
            m_done.push_back(0);
            m_last_scalar = in.seq;
            op.run = InstrRun{&in, 0, 0};
            op.phase = 3;
        } else {
            if (idx < 0) throw std::logic_error(fmt::format("{} has no {} pipe", name(), ir::pipe_name(in.pipe)));
            PipeState& ps = *m_ps[static_cast<size_t>(idx)];
            if (ps.queue.size() >= m_queue_depth) {
                op.t = now();
                set_blocked(StallCause::QueueFull);
                op.phase = 2;
                w = Step::event(ps.space);
                return false;
            }
            op.phase = 4;
        }
    }
    if (op.phase == 2) {
        PipeState& ps = *m_ps[static_cast<size_t>(m_pipe_index[static_cast<int>(in.pipe)])];
        if (ps.queue.size() >= m_queue_depth) {
            w = Step::event(ps.space);
            return false;
        }
        clear_blocked();
        account_stall(StallCause::QueueFull, now() - op.t, ir::Pipe::Scalar);
        op.phase = 4;
    }
    if (op.phase == 3) return run_step(op.run, nullptr, w);
    PipeState& ps = *m_ps[static_cast<size_t>(m_pipe_index[static_cast<int>(in.pipe)])];
    in.pipe_seq = ps.next_pipe_seq++;
    m_instrs.push_back(&in);
    m_done.push_back(0);
    ps.queue.push_back(&in);
    ps.nonempty[m_methods ? 1 : 0].notify(sc_core::SC_ZERO_TIME);
    return true;
}

bool CoreBase::take_queued(PipeState& ps, InstrRun& run) {
    if (ps.queue.empty()) return false;
    PipeInstr* in = ps.queue.front();
    ps.current = in;
    ps.queue.pop_front();
    ps.space.notify(sc_core::SC_ZERO_TIME);
    run = InstrRun{in, 0, 0};
    return true;
}

void CoreBase::retire(uint32_t seq) {
    PipeInstr* in = m_instrs[seq];
    m_instrs[seq] = nullptr;
    if (in && m_engine) m_engine->retire(*in);
}

void CoreBase::retire_scalar() {
    for (uint32_t s : m_retire) retire(s);
    m_retire.clear();
}

void CoreBase::retire_all() {
    m_retire.clear();
    for (uint32_t s = 0; s < m_instrs.size(); ++s) retire(s);
    for (auto& ps : m_ps) {
        ps->queue.clear();
        ps->current = nullptr;
    }
}

}  // namespace cvsim
