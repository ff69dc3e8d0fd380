// Core model: construction, the thread-mode drivers and blocking API, abort handling, reports. The step
// machines are in core_steps.cpp, the method-mode drivers in core_methods.cpp.
#include "models/core_base.h"

#include <fmt/format.h>

#include <algorithm>

namespace cvsim {

using namespace sc_core;

std::string_view stall_cause_name(StallCause c) {
    static constexpr std::string_view n[] = {"none", "dependency", "full queue", "ring", "barrier", "flag", "fence"};
    return n[static_cast<int>(c)];
}

CoreBase::CoreBase(sc_module_name name, std::vector<ir::Pipe> pipes, RunControl& ctl)
    : sc_module(name), m_ctl(ctl), m_pipes(std::move(pipes)) {
    m_ticks_per_cycle = sc_time(1, SC_NS).value();
    m_pipe_index.fill(-1);
    m_pipe_index[static_cast<int>(ir::Pipe::Scalar)] = -2;  // present, executed inline
    for (ir::Pipe p : m_pipes) {
        if (p == ir::Pipe::Scalar) continue;
        auto ps = std::make_unique<PipeState>();
        ps->pipe = p;
        m_pipe_index[static_cast<int>(p)] = static_cast<int>(m_ps.size());
        m_ps.push_back(std::move(ps));
    }
    SC_THREAD(scalar_thread);
    for (size_t i = 0; i < m_ps.size(); ++i) {
        sc_spawn_options opt;
        sc_spawn([this, i] { pipe_thread(static_cast<int>(i)); }, sc_gen_unique_name("pipe"), &opt);
    }
    // The method-mode processes: they run once at initialisation (to register their first wait), as the
    // threads do.
    SC_METHOD(scalar_method);
    for (size_t i = 0; i < m_ps.size(); ++i) {
        sc_spawn_options opt;
        opt.spawn_method();
        sc_spawn([this, i] { pipe_method(static_cast<int>(i)); }, sc_gen_unique_name("pipe_m"), &opt);
    }
}

namespace {
// SystemC ticks per cycle (1 ns), computed once (constructing an sc_time from a double is not free).
uint64_t ticks_per_cycle() {
    static const uint64_t t = sc_time(1, SC_NS).value();
    return t;
}
sc_time cycles_time(uint64_t cycles) {
    return sc_time::from_value(cycles * ticks_per_cycle());
}
}  // namespace

uint64_t CoreBase::now() const {
    const uint64_t t = sc_time_stamp().value();
    return (m_ticks_per_cycle == 1 ? t : t / m_ticks_per_cycle) - m_ctl.t0;
}

void CoreBase::launch(uint64_t delay) {
    m_launched = true;
    m_start_ev[m_methods ? 1 : 0].notify(cycles_time(delay));
}

void CoreBase::reset() {
    for (auto& ps : m_ps) {
        ps->queue.clear();
        ps->next_pipe_seq = 0;
        ps->current = nullptr;
    }
    m_instrs.clear();
    m_done.clear();
    m_ndone = 0;
    m_retire.clear();
    m_scalar_debt = 0;
    m_scalar_pipe_seq = 0;
    m_last_scalar = -1;
    m_launched = false;
    m_finished = false;
    m_start_cycle = m_end_cycle = 0;
    clear_blocked();
    m_stats = {};
    m_instr_count = 0;
}

void CoreBase::notify_state() {
    if (!m_listener) return;
    State st = m_finished ? State::Finished : m_blocked_cause != StallCause::None ? State::Stalled : State::Running;
    m_listener(*this, st, m_blocked_cause);
}

void CoreBase::wait_event(sc_event& e) {
    // A plain wait on `e` (an `e | abort_ev` list is allocated and freed by every wait); the abort wakes
    // the waiter through the registry instead (abort_waits).
    if (m_ctl.aborted) throw AbortRun{};
    m_waiting.push_back(&e);
    wait(e);
    m_waiting.erase(std::find(m_waiting.begin(), m_waiting.end(), &e));
    if (m_ctl.aborted) throw AbortRun{};
}

void CoreBase::abort_waits() {
    for (sc_event* e : m_waiting) e->notify(SC_ZERO_TIME);
    // Method-mode processes keep their pending event wait themselves (timed waits end on abort_ev).
    if (m_scalar_wait.kind == Step::Kind::Event) m_scalar_wait.ev->notify(SC_ZERO_TIME);
    for (auto& ps : m_ps)
        if (ps->wait.kind == Step::Kind::Event) ps->wait.ev->notify(SC_ZERO_TIME);
}

void CoreBase::wait_cycles(uint64_t cycles) {
    if (m_ctl.aborted) throw AbortRun{};
    if (cycles == 0) return;
    wait(cycles_time(cycles), m_ctl.abort_ev);
    if (m_ctl.aborted) throw AbortRun{};
}

void CoreBase::block(const Step& w) {
    if (w.kind == Step::Kind::Event)
        wait_event(*w.ev);
    else if (w.kind == Step::Kind::Cycles)
        wait_cycles(w.n);
}

void CoreBase::sync_scalar() {
    Step w;
    if (!sync_step(w)) block(w);
}

void CoreBase::check_bounds() {
    if (m_ctl.max_instructions > 0 && ++m_ctl.instructions > m_ctl.max_instructions && !m_ctl.timed_out) {
        m_ctl.timed_out = m_ctl.work_exceeded = true;
        sc_pause();
        return;
    }
    if ((++m_instr_count & 255) == 0 && m_ctl.wall_exceeded && m_ctl.wall_exceeded()) {
        m_ctl.timed_out = true;
        sc_pause();
    }
}

void CoreBase::check_statement_bounds() {
    if (m_ctl.wall_exceeded && m_ctl.wall_exceeded()) {
        m_ctl.timed_out = true;
        sc_pause();
        throw AbortRun{};  // this core stops here; the run ends at the pause with E-TIMEOUT
    }
    if (m_scalar_debt >= 65536) sync_scalar();
}

void CoreBase::begin_program() {
    m_start_cycle = now();
    notify_state();
}

void CoreBase::finish_program() {
    m_end_cycle = now();
    m_finished = true;
    notify_state();
    if (m_on_finish) m_on_finish();
}

void CoreBase::scalar_thread() {
    while (true) {
        wait(m_start_ev[0]);
        if (m_ctl.aborted) continue;
        begin_program();
        try {
            if (m_program) m_program();
            sync_scalar();
            drain(StallCause::None);
            finish_program();
        } catch (const AbortRun&) {
        } catch (const sc_core::sc_unwind_exception&) {
            throw;
        } catch (...) {
            m_ctl.keep_error(std::current_exception());
            throw;
        }
    }
}

void CoreBase::pipe_thread(int index) {
    PipeState& ps = *m_ps[static_cast<size_t>(index)];
    while (true) {
        try {
            InstrRun run;
            while (!take_queued(ps, run)) wait_event(ps.nonempty[0]);
            Step w;
            while (!run_step(run, &ps, w)) block(w);  // retires the instruction when it completes
            ps.current = nullptr;
        } catch (const AbortRun&) {
            ps.current = nullptr;
            // Wait for the next schedule: the queue is cleared by reset().
            while (m_ctl.aborted) wait(m_ctl.abort_ev | ps.nonempty[0]);
        } catch (const sc_core::sc_unwind_exception&) {
            throw;
        } catch (...) {
            m_ctl.keep_error(std::current_exception());
            throw;
        }
    }
}

PipeInstr* CoreBase::issue(PipeInstr* in) {
    IssueOp op;
    op.in = in;
    Step w;
    try {
        while (!issue_step(op, w)) block(w);
    } catch (...) {
        // Unwound before the core took it (an abort while paying the debt or waiting for queue space).
        if (op.phase < 3 && m_engine) m_engine->retire(*in);
        throw;
    }
    return in;
}

void CoreBase::wait_instrs(const std::vector<uint32_t>& seqs, StallCause cause) {
    sync_scalar();
    auto all = [&] {
        for (uint32_t s : seqs)
            if (!instr_done(s)) return false;
        return true;
    };
    if (all()) return;
    uint64_t t = now();
    while (!all()) wait_event(m_any_done);
    account_stall(cause, now() - t, ir::Pipe::Scalar);
}

void CoreBase::drain(StallCause cause) {
    sync_scalar();
    if (all_done()) return;
    uint64_t t = now();
    while (!all_done()) wait_event(m_any_done);
    if (cause != StallCause::None) account_stall(cause, now() - t, ir::Pipe::Scalar);
}

void CoreBase::account_stall(StallCause cause, uint64_t cycles, ir::Pipe pipe) {
    if (cause == StallCause::None || cycles == 0) return;
    m_stats[static_cast<int>(pipe)].stall[static_cast<int>(cause)] += cycles;
}

std::vector<std::string> CoreBase::pipe_waits() const {
    std::vector<std::string> out;
    for (const auto& ps : m_ps) {
        if (!ps->current) continue;
        std::vector<std::string> missing;
        for (uint32_t d : ps->current->deps)
            if (!instr_done(d)) missing.push_back(std::to_string(d));
        // No unfinished dependency: the instruction itself is in flight (issued, its latency not over).
        if (missing.empty())
            out.push_back(
                fmt::format("{} holds instruction #{} (in flight)", ir::pipe_name(ps->pipe), ps->current->seq));
        else
            out.push_back(fmt::format("{} holds instruction #{} (waiting for #{})", ir::pipe_name(ps->pipe),
                                      ps->current->seq, fmt::join(missing, ", #")));
    }
    return out;
}

}  // namespace cvsim
