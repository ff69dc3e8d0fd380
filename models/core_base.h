// A core (AIC or AIV): a scalar unit walking the lane program and one in-order pipe per hardware pipe,
// each with a bounded queue (SPEC 4.1). SystemC module; the cube and vector cores specialise the pipe set.
//
// The scalar unit and the pipes are step machines (core_steps.cpp): a step either finishes or names what it
// waits for (models/pipe_instr.h, Step). They run in one of two modes, chosen per schedule:
//  * threads: the scalar unit is an SC_THREAD running a program that calls the blocking API (issue,
//    wait_instrs, ...: the lane walker), and each pipe an SC_THREAD; a step's wait is a SystemC wait();
//  * methods: the scalar unit and the pipes are SC_METHODs; the program is a ScalarProgram of steps (a
//    recorded instruction stream) and a step's wait is a next_trigger() (no coroutine switch).
// Both modes make the same notifications and wait on the same events and times in the same order, and SystemC
// runs methods and threads from identical queues, so a schedule runs identically in either (core_methods.cpp).
#pragma once

#include <systemc>

#include <array>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/params.h"
#include "models/pipe_instr.h"

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
    sc_core::sc_event abort_ev;           // notified to unwind every thread of an aborted schedule
    bool aborted = false;                 // the current schedule is being torn down
    uint64_t t0 = 0;                      // absolute cycle at which the current schedule started
    uint64_t max_cycles = 0;              // simulated-time bound of a schedule (0: none)
    bool timed_out = false;               // a bound was hit (simulated or wall time)
    std::function<bool()> wall_exceeded;  // returns true when the wall-time bound is exceeded
    uint64_t max_instructions = 0;        // instructions all cores may complete in a schedule (0: no bound)
    uint64_t instructions = 0;            // completed so far in this schedule
    bool work_exceeded = false;           // the timeout was max_instructions (deterministic), not the wall
    // The first exception a core's process let out (not AbortRun): SystemC reports it as an opaque
    // "uncaught exception ... In process: ..."; the machine rethrows this one after sc_start instead.
    std::exception_ptr error;
    bool broken = false;  // SystemC stopped at such an exception: no further schedule can run
    void keep_error(std::exception_ptr e) {
        if (!error) error = std::move(e);
    }
};

// The scalar unit's program in method mode: called again after every wait it asks for.
class ScalarProgram {
  public:
    virtual ~ScalarProgram() = default;
    // Runs until the program ends (true) or must wait (false; `w` says for what).
    virtual bool step(Step& w) = 0;
};

class CoreBase : public sc_core::sc_module {
  public:
    SC_HAS_PROCESS(CoreBase);
    CoreBase(sc_core::sc_module_name name, std::vector<ir::Pipe> pipes, RunControl& ctl);

    // ---- set up per schedule (between sc_start calls) ----
    // Thread mode: the lane program runs on the scalar thread and calls the blocking API below.
    void set_program(std::function<void()> program) {
        m_program = std::move(program);
        m_methods = false;
    }
    // Method mode: the scalar unit runs `program`'s steps (nullptr: back to thread mode).
    void set_program(ScalarProgram* program) {
        m_stepper = program;
        m_methods = program != nullptr;
    }
    void clear_program() {
        m_program = nullptr;
        m_stepper = nullptr;
        m_methods = false;
    }
    // Called on the core's thread once its program ended and its pipes drained (finished() is true).
    void set_on_finish(std::function<void()> f) { m_on_finish = std::move(f); }
    void set_queue_depth(uint64_t depth) { m_queue_depth = depth == 0 ? 1 : depth; }
    void set_scalar_cost(uint64_t cycles) { m_scalar_cost = cycles; }
    // Start the program `delay` cycles after the schedule start (no program: the core idles).
    void launch(uint64_t delay);
    void reset();
    // Hands every instruction not yet retired to the engine's retire (the end of a schedule, aborted or not).
    void retire_all();

    // ---- the blocking API (thread mode; on the scalar thread) ----
    // Issue an instruction to its pipe; blocks while the pipe's queue is full. Assigns seq/pipe_seq. A
    // scalar-pipe instruction runs inline on the scalar unit (waits for its deps, then the engine).
    PipeInstr* issue(PipeInstr* in);
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
    void wait_cycles(uint64_t cycles);

    // ---- the step API (both modes; the method-mode program calls these) ----
    struct InstrRun {  // an instruction through dependencies, begin, latency, end
        PipeInstr* in = nullptr;
        uint8_t phase = 0;
        uint64_t t = 0;
    };
    struct IssueOp {  // an issue: debt, queue space, or the inline run of a scalar instruction
        PipeInstr* in = nullptr;
        uint8_t phase = 0;
        uint64_t t = 0;
        InstrRun run;
    };
    bool issue_step(IssueOp& op, Step& w);
    // Walks `left` statements (advance_statement each); false when a periodic check must pay the debt first.
    bool statements_step(uint64_t& left, Step& w);

    // Abort: wake every thread of this core blocked in wait_event (with RunControl::aborted set).
    void abort_waits();
    // Blocked-state reporting: set while waiting on something outside the core (the engine words it).
    void set_blocked(StallCause cause) {
        m_blocked_cause = cause;
        notify_state();
    }
    void clear_blocked() {
        m_blocked_cause = StallCause::None;
        notify_state();
    }
    // Observer of the core's state (for waveforms): called on start, on every stall begin/end, on finish.
    enum class State : uint8_t { Idle = 0, Running = 1, Stalled = 2, Finished = 3 };
    using StateListener = std::function<void(const CoreBase&, State, StallCause)>;
    void set_state_listener(StateListener l) { m_listener = std::move(l); }
    void account_stall(StallCause cause, uint64_t cycles, ir::Pipe pipe);

    uint64_t now() const;  // cycles since the schedule start
    bool instr_done(uint32_t seq) const { return seq < m_done.size() && m_done[seq]; }
    // An instruction not yet completed (a completed one is retired: the engine may free it).
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
    bool has_pipe(ir::Pipe p) const { return m_pipe_index[static_cast<int>(p)] >= 0; }
    const std::vector<ir::Pipe>& pipes() const { return m_pipes; }
    struct PipeStats {
        uint64_t busy = 0;                              // cycles executing instructions
        uint64_t instrs = 0;                            // instructions completed
        std::array<uint64_t, kNumStallCauses> stall{};  // cycles waiting, by cause
    };
    const PipeStats& stats(ir::Pipe p) const { return m_stats[static_cast<int>(p)]; }
    // Pipes waiting (dependency or cross-core) at the time of a deadlock: "MTE2 waits for ...".
    std::vector<std::string> pipe_waits() const;

  private:
    // Where a method-mode process stands (a thread keeps this on its stack).
    enum class Proc : uint8_t { Init, Idle, Busy, Tail, Drain, Aborted };
    struct PipeState {
        ir::Pipe pipe = ir::Pipe::Scalar;
        std::deque<PipeInstr*> queue;               // issued, not yet started
        std::array<sc_core::sc_event, 2> nonempty;  // an instruction was queued (per mode: threads, methods)
        sc_core::sc_event space;                    // an instruction left the queue
        uint32_t next_pipe_seq = 0;                 // pipe_seq of the next instruction issued to this pipe
        PipeInstr* current = nullptr;               // instruction executing or waiting for dependencies
        Proc proc = Proc::Init;                     // method mode: the pipe process's state
        Step wait;                                  // method mode: what it waits for
        InstrRun run;                               // method mode: the instruction it runs
    };

    void scalar_thread();
    void pipe_thread(int index);
    void scalar_method();
    void pipe_method(int index);
    void block(const Step& w);                // thread mode: perform a step's wait
    void suspend(Step& slot, const Step& w);  // method mode: register a step's wait (next_trigger)
    void resumed(Step& w);                    // method mode: back from a wait (forget it, abort check)
    bool sync_step(Step& w);                  // pay the accumulated scalar cycles
    void sync_scalar();
    bool run_step(InstrRun& r, PipeState* ps, Step& w);
    bool take_queued(PipeState& ps, InstrRun& run);
    bool deps_met(const PipeInstr& in) const;
    bool all_done() const { return m_ndone == m_instrs.size(); }
    void check_bounds();
    void check_statement_bounds();
    void notify_state();
    void begin_program();
    void finish_program();
    void retire(uint32_t seq);  // hand a completed instruction to the engine
    void retire_scalar();       // retire the completed scalar instructions

    RunControl& m_ctl;                              // shared abort/bounds state
    uint64_t m_ticks_per_cycle = 1;                 // SystemC time units per cycle
    std::vector<ir::Pipe> m_pipes;                  // pipes this core has (SCALAR is the scalar unit)
    std::array<int, ir::kNumPipes> m_pipe_index{};  // pipe -> index into m_ps, -1 if absent
    std::vector<std::unique_ptr<PipeState>> m_ps;   // queues and events per pipe (not SCALAR)
    bool m_methods = false;                         // this schedule runs in method mode
    std::function<void()> m_program;                // thread mode: the lane program (on the scalar thread)
    ScalarProgram* m_stepper = nullptr;             // method mode: the program's steps
    std::function<void()> m_on_finish;              // after the program and the drain
    InstrEngine* m_engine = nullptr;                // performs data effects
    std::array<sc_core::sc_event, 2> m_start_ev;    // starts the scalar unit for a schedule (per mode)
    sc_core::sc_event m_any_done;                   // any instruction of this core completed
    std::vector<PipeInstr*> m_instrs;               // this schedule's instructions by seq; null once retired
    std::vector<uint8_t> m_done;                    // instruction `seq` completed
    uint32_t m_ndone = 0;                           // instructions completed
    std::vector<uint32_t> m_retire;                 // completed scalar instructions, retired at the next issue
    uint64_t m_queue_depth = 16;                    // pipe queue capacity
    uint64_t m_scalar_cost = 1;                     // cycles per scalar statement
    uint64_t m_scalar_debt = 0;                     // scalar cycles not yet waited for
    int64_t m_last_scalar = -1;                     // seq of the last scalar-executed instruction
    uint32_t m_scalar_pipe_seq = 0;                 // pipe_seq of the next scalar-executed instruction
    bool m_launched = false;
    bool m_finished = false;
    uint64_t m_start_cycle = 0, m_end_cycle = 0;     // program start/end (relative cycles)
    StallCause m_blocked_cause = StallCause::None;   // what the scalar unit waits for now
    std::array<PipeStats, ir::kNumPipes> m_stats{};  // per pipe
    uint64_t m_instr_count = 0;                      // for periodic wall-clock checks
    uint64_t m_stmt_count = 0;                       // statements walked (periodic bound checks)
    StateListener m_listener;                        // waveform observer (optional)
    std::vector<sc_core::sc_event*> m_waiting;       // events this core's processes wait on (wait_event)
    Proc m_scalar_proc = Proc::Init;                 // method mode: the scalar process's state
    Step m_scalar_wait;                              // method mode: what the scalar process waits for
};

}  // namespace cvsim
