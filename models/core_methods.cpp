// Method-mode drivers of the core's step machines: the scalar unit and every pipe as an SC_METHOD that
// returns where a thread would wait, after registering the same wait with next_trigger().
//
// Why a schedule is the same in both modes (SystemC 2.3): a process waiting on an event sits in the event's
// dynamic list of threads or of methods, which sc_event::trigger() walks with the same algorithm; a triggered
// process is appended to the runnable queue of threads or of methods, both FIFO; an evaluation phase runs the
// runnable methods, then the runnable threads. next_trigger(e) / next_trigger(t, e) register exactly as
// wait(e) / wait(t, e) (the same timeout event, the same timed-queue insertion). cvsim makes no immediate
// notification, so with every core of a schedule in one mode each phase runs the same processes in the same
// order. The abort path mirrors the threads' too (a thrown AbortRun is caught inside the method).
#include "models/core_base.h"

#include <algorithm>

#if defined(__SANITIZE_ADDRESS__)
#include <pthread.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace cvsim {

using namespace sc_core;

namespace {

// ASan: after SystemC switches from a coroutine back to its main one, ASan believes this thread has no stack
// (see sc_run in sim/cluster.cpp), and an exception thrown on it leaves stale poison behind. Methods run on
// the main stack; during an abort idle threads run too, so a method about to unwind reports the real stack
// first. Nothing in a build without ASan.
void own_stack() {
#if defined(__SANITIZE_ADDRESS__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
    void* addr = nullptr;
    size_t size = 0;
    const bool ok = pthread_attr_getstack(&attr, &addr, &size) == 0;
    pthread_attr_destroy(&attr);
    if (!ok) return;
    void* fake_stack = nullptr;
    __sanitizer_start_switch_fiber(&fake_stack, addr, size);
    __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}
sc_time cycles_time(uint64_t cycles) {
    static const uint64_t ticks = sc_time(1, SC_NS).value();
    return sc_time::from_value(cycles * ticks);
}
}  // namespace

void CoreBase::suspend(Step& slot, const Step& w) {
    // As wait_event / wait_cycles before their wait. A method's pending event wait stays in `slot` (where
    // abort_waits finds it) instead of the threads' registry.
    if (m_ctl.aborted) throw AbortRun{};
    slot = w;
    if (w.kind == Step::Kind::Event)
        next_trigger(*w.ev);
    else
        next_trigger(cycles_time(w.n), m_ctl.abort_ev);
}

void CoreBase::resumed(Step& w) {
    // As wait_event / wait_cycles after their wait.
    w = Step::done();
    if (m_ctl.aborted) throw AbortRun{};
}

void CoreBase::scalar_method() {
    // scalar_thread(), step by step: wait(start); program; sync_scalar(); drain(None); finish.
    if (m_ctl.aborted) own_stack();
    try {
        switch (m_scalar_proc) {
            case Proc::Init:
                m_scalar_proc = Proc::Idle;
                next_trigger(m_start_ev[1]);
                return;
            case Proc::Idle:
                if (m_ctl.aborted) {
                    next_trigger(m_start_ev[1]);
                    return;
                }
                begin_program();
                m_scalar_proc = Proc::Busy;
                break;
            default:
                resumed(m_scalar_wait);
                break;
        }
        Step w;
        if (m_scalar_proc == Proc::Busy) {
            if (m_stepper && !m_stepper->step(w)) return suspend(m_scalar_wait, w);
            m_scalar_proc = Proc::Tail;
            if (!sync_step(w)) return suspend(m_scalar_wait, w);
        }
        if (m_scalar_proc == Proc::Tail) {
            m_scalar_proc = Proc::Drain;  // drain(None): the debt is paid; wait for every instruction
            if (!all_done()) return suspend(m_scalar_wait, Step::event(m_any_done));
        }
        if (!all_done()) return suspend(m_scalar_wait, Step::event(m_any_done));
        finish_program();
        m_scalar_proc = Proc::Idle;
        next_trigger(m_start_ev[1]);
    } catch (const AbortRun&) {
        m_scalar_proc = Proc::Idle;
        next_trigger(m_start_ev[1]);
    } catch (...) {
        m_ctl.keep_error(std::current_exception());
        throw;
    }
}

void CoreBase::pipe_method(int index) {
    // pipe_thread(), step by step.
    PipeState& ps = *m_ps[static_cast<size_t>(index)];
    if (m_ctl.aborted) own_stack();
    bool entry = true;
    while (true) {
        try {
            if (entry) {
                entry = false;
                switch (ps.proc) {
                    case Proc::Init:
                        ps.proc = Proc::Idle;
                        break;
                    case Proc::Aborted:
                        if (m_ctl.aborted) {
                            next_trigger(m_ctl.abort_ev | ps.nonempty[1]);
                            return;
                        }
                        ps.proc = Proc::Idle;
                        break;
                    default:
                        resumed(ps.wait);
                        break;
                }
            }
            Step w;
            while (true) {
                if (ps.proc == Proc::Idle) {
                    if (!take_queued(ps, ps.run)) return suspend(ps.wait, Step::event(ps.nonempty[1]));
                    ps.proc = Proc::Busy;
                }
                if (!run_step(ps.run, &ps, w)) return suspend(ps.wait, w);  // retires the instruction when it completes
                ps.current = nullptr;
                ps.proc = Proc::Idle;
            }
        } catch (const AbortRun&) {
            ps.current = nullptr;
            ps.proc = Proc::Aborted;
            // Wait for the next schedule: the queue is cleared by reset().
            if (m_ctl.aborted) {
                next_trigger(m_ctl.abort_ev | ps.nonempty[1]);
                return;
            }
            ps.proc = Proc::Idle;
        } catch (...) {
            m_ctl.keep_error(std::current_exception());
            throw;
        }
    }
}

}  // namespace cvsim
