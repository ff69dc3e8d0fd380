// A core (AIC or AIV): a scalar unit walking the lane program and one in-order pipe per hardware pipe,
// each with a bounded queue (SPEC 4.1). SystemC module; the cube and vector cores specialise the pipe set.
#pragma once

#include <systemc>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "models/pipe_instr.h"
#include "core/params.h"

namespace cvsim {

// Thrown inside a core's threads when the schedule is aborted (deadlock, timeout, fault): unwinds the
// lane program back to the thread's idle loop.
struct AbortRun {};

// Why a core is not making progress (for deadlock reports and stall statistics).
enum class StallCause : uint8_t { None, Dependency, QueueFull, Ring, Barrier, Flag, Fence };
constexpr int kNumStallCauses = 7;
std::string_view stall_cause_name(StallCause c);

// Shared by every core of one elaboration: the abort event and flag.
struct RunControl {
    sc_core::sc_event abort_ev;  // notified to unwind every thread of an aborted schedule
    bool aborted = false;        // the current schedule is being torn down
    uint64_t t0 = 0;             // absolute cycle at which the current schedule started
    uint64_t max_cycles = 0;     // simulated-time bound of a schedule (0: none)
    bool timed_out = false;      // a bound was hit (simulated or wall time)
    std::function<bool()> wall_exceeded;  // returns true when the wall-time bound is exceeded
};

class CoreBase : public sc_core::sc_module {
public:
    SC_HAS_PROCESS(CoreBase);
    CoreBase(sc_core::sc_module_name name, std::vector<ir::Pipe> pipes, RunControl& ctl);

    // ---- set up per schedule (between sc_start calls) ----
    void set_program(std::function<void()> program) { m_program = std::move(program); }
    // Called on the core's thread once its program ended and its pipes drained (finished() is true).
    void set_on_finish(std::function<void()> f) { m_on_finish = std::move(f); }
    void set_queue_depth(uint64_t depth) { m_queue_depth = depth == 0 ? 1 : depth; }
    void set_scalar_cost(uint64_t cycles) { m_scalar_cost = cycles; }
    // Start the program `delay` cycles after the schedule start (no program: the core idles).
    void launch(uint64_t delay);
    void reset();

    // ---- used by the lane executor on the scalar thread ----
    // Issue an instruction to its pipe; blocks while the pipe's queue is full. Assigns seq/pipe_seq.
    PipeInstr* issue(std::unique_ptr<PipeInstr> in);
    // Run a scalar-pipe instruction inline on the scalar unit (waits for its deps, then the engine).
    PipeInstr* exec_scalar(std::unique_ptr<PipeInstr> in);
    // Scalar statements cost cycles; they are accounted lazily (synchronised at the next interaction).
    void advance(uint64_t cycles) { m_scalar_debt += cycles; }
    // Every 4096 statements: the wall-time bound (a scalar-only loop issues no instruction to check it) and
    // the simulated time owed (so the cycle bound stops it too).
    void advance_statement() {
        m_scalar_debt += m_scalar_cost;
        if ((++m_stmt_count & 4095) == 0) check_statement_bounds();
    }
    // Block the scalar unit until every listed instruction completed.
    void wait_instrs(const std::vector<uint32_t>& seqs, StallCause cause);
    // Block the scalar unit until every issued instruction completed.
    void drain(StallCause cause);
    // Wait on an event (from the scalar thread or an engine call in a pipe thread), unwinding on abort.
    void wait_event(sc_core::sc_event& e);
    // Abort: wake every thread of this core blocked in wait_event (with RunControl::aborted set).
    void abort_waits();
    void wait_cycles(uint64_t cycles);
    // Blocked-state reporting: set while waiting on something outside the core.
    void set_blocked(StallCause cause, std::string what) {
        m_blocked_cause = cause;
        m_blocked_what = std::move(what);
        notify_state();
    }
    void clear_blocked() {
        m_blocked_cause = StallCause::None;
        m_blocked_what.clear();
        notify_state();
    }
    // Observer of the core's state (for waveforms): called on start, on every stall begin/end, on finish.
    enum class State : uint8_t { Idle = 0, Running = 1, Stalled = 2, Finished = 3 };
    using StateListener = std::function<void(const CoreBase&, State, StallCause)>;
    void set_state_listener(StateListener l) { m_listener = std::move(l); }
    void account_stall(StallCause cause, uint64_t cycles, ir::Pipe pipe);

    uint64_t now() const;                  // cycles since the schedule start
    bool instr_done(uint32_t seq) const { return seq < m_done.size() && m_done[seq]; }
    // An instruction not yet completed (a completed one is retired: its object and operands are freed).
    const PipeInstr& instr(uint32_t seq) const { return *m_instrs[seq]; }
    uint32_t issued() const { return static_cast<uint32_t>(m_instrs.size()); }
    int64_t last_scalar() const { return m_last_scalar; }
    void set_engine(InstrEngine* e) { m_engine = e; }
    sc_core::sc_event& any_done() { return m_any_done; }

    // ---- state and statistics ----
    bool launched() const { return m_launched; }
    bool finished() const { return m_finished; }
    uint64_t start_cycle() const { return m_start_cycle; }
    uint64_t end_cycle() const { return m_end_cycle; }
    StallCause blocked_cause() const { return m_blocked_cause; }
    const std::string& blocked_what() const { return m_blocked_what; }
    bool has_pipe(ir::Pipe p) const { return m_pipe_index[static_cast<int>(p)] >= 0; }
    const std::vector<ir::Pipe>& pipes() const { return m_pipes; }
    struct PipeStats {
        uint64_t busy = 0;                                  // cycles executing instructions
        uint64_t instrs = 0;                                // instructions completed
        std::array<uint64_t, kNumStallCauses> stall{};      // cycles waiting, by cause
    };
    const PipeStats& stats(ir::Pipe p) const { return m_stats[static_cast<int>(p)]; }
    // Pipes waiting (dependency or cross-core) at the time of a deadlock: "MTE2 waits for ...".
    std::vector<std::string> pipe_waits() const;

private:
    struct PipeState {
        ir::Pipe pipe = ir::Pipe::Scalar;
        std::deque<PipeInstr*> queue;        // issued, not yet started
        sc_core::sc_event nonempty;      // an instruction was queued
        sc_core::sc_event space;         // an instruction left the queue
        uint32_t next_pipe_seq = 0;      // pipe_seq of the next instruction issued to this pipe
        PipeInstr* current = nullptr;        // instruction executing or waiting for dependencies
    };

    void scalar_thread();
    void pipe_thread(int index);
    void sync_scalar();                  // pay the accumulated scalar cycles
    void run_instr(PipeInstr& in, PipeState* ps);
    bool deps_met(const PipeInstr& in) const;
    void check_bounds();
    void notify_state();

    RunControl& m_ctl;                                 // shared abort/bounds state
    std::vector<ir::Pipe> m_pipes;                     // pipes this core has (SCALAR is the scalar unit)
    std::array<int, ir::kNumPipes> m_pipe_index{};     // pipe -> index into m_ps, -1 if absent
    std::vector<std::unique_ptr<PipeState>> m_ps;      // queues and events per pipe (not SCALAR)
    std::function<void()> m_program;                   // the lane program (runs on the scalar thread)
    std::function<void()> m_on_finish;                 // after the program and the drain
    InstrEngine* m_engine = nullptr;                   // performs data effects
    sc_core::sc_event m_start_ev;                      // starts the scalar thread for a schedule
    sc_core::sc_event m_any_done;                      // any instruction of this core completed
    std::vector<std::unique_ptr<PipeInstr>> m_instrs;      // this schedule's instructions by seq; null once retired
    std::vector<uint8_t> m_done;                       // instruction `seq` completed
    uint32_t m_ndone = 0;                              // instructions completed
    std::vector<uint32_t> m_retire;                    // completed scalar instructions, freed at the next issue
    void retire(uint32_t seq);                         // free a completed instruction (operands, payload)
    void retire_scalar();                              // free the completed scalar instructions
    uint64_t m_queue_depth = 16;                       // pipe queue capacity
    uint64_t m_scalar_cost = 1;                        // cycles per scalar statement
    uint64_t m_scalar_debt = 0;                        // scalar cycles not yet waited for
    int64_t m_last_scalar = -1;                        // seq of the last scalar-executed instruction
    uint32_t m_scalar_pipe_seq = 0;                    // pipe_seq of the next scalar-executed instruction
    bool m_launched = false;
    bool m_finished = false;
    uint64_t m_start_cycle = 0, m_end_cycle = 0;       // program start/end (relative cycles)
    StallCause m_blocked_cause = StallCause::None;     // what the scalar unit waits for now
    std::string m_blocked_what;                        // description for deadlock reports
    std::array<PipeStats, ir::kNumPipes> m_stats{};    // per pipe
    uint64_t m_instr_count = 0;                        // for periodic wall-clock checks
    uint64_t m_stmt_count = 0;                         // statements walked (periodic bound checks)
    void check_statement_bounds();
    StateListener m_listener;                          // waveform observer (optional)
    std::vector<sc_core::sc_event*> m_waiting;         // events this core's threads wait on (wait_event)
};

}  // namespace cvsim
