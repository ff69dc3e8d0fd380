// Instructions as the core models see them: a pipe, dependencies, timing, and an engine that performs the
// data effect. The simulator's instruction (its operands and tiles: sim/instr.h) derives from PipeInstr.
#pragma once

#include <cstdint>
#include <vector>

#include "core/pipe.h"

namespace sc_core {
class sc_event;
}

namespace cvsim {

struct PipeInstr;

// What a step of a core's scalar unit, a pipe or the instruction engine needs before it can go on: nothing
// (done; for the engine's begin, the instruction's latency), an event, or a number of cycles. A core runs
// its steps either on SystemC threads (which wait) or on SystemC methods (which return and are triggered
// again); both perform the same waits in the same order, so a schedule is the same cycle for cycle.
struct Step {
    enum class Kind : uint8_t { Done, Event, Cycles };
    Kind kind = Kind::Done;
    uint64_t n = 0;                   // Done: the latency (engine begin); Cycles: cycles to wait (> 0)
    sc_core::sc_event* ev = nullptr;  // Event: what to wait on
    static Step done(uint64_t latency = 0) { return Step{Kind::Done, latency, nullptr}; }
    static Step event(sc_core::sc_event& e) { return Step{Kind::Event, 0, &e}; }
    static Step cycles(uint64_t c) { return Step{Kind::Cycles, c, nullptr}; }
    bool waits() const { return kind != Kind::Done; }
};

// Performs the data effect of instructions; implemented by the simulator (sim/data_engine.h).
class InstrEngine {
  public:
    virtual ~InstrEngine() = default;
    // Called by the pipe when the instruction's dependencies are met, and again after every wait it asks
    // for (a cross-core condition: a ring slot, a flag; a PCT stall); PipeInstr::phase tells it where it
    // stands. Returns Step::done(latency) when the instruction starts executing.
    virtual Step begin(PipeInstr& in) = 0;
    // Called when the latency has elapsed: commit writes, raise flags, emit the event.
    virtual void end(PipeInstr& in) = 0;
    // The scalar unit issues `in` (before it pays its cycle debt): hand over what earlier instructions left.
    virtual void issued(PipeInstr& in) { (void)in; }
    // `in` completed (or its schedule ended) and no model references it any more.
    virtual void retire(PipeInstr& in) = 0;
};

// One instruction issued by a core's scalar unit to one of its pipes, as far as the core model uses it.
struct PipeInstr {
    virtual ~PipeInstr() = default;
    uint32_t seq = 0;  // per-core issue number
    ir::Pipe pipe = ir::Pipe::Scalar;
    uint8_t phase = 0;            // the engine's progress through begin() (0: not begun)
    uint8_t pct_left = 0;         // PCT/sweep stalls still to wait at its scheduling point
    uint32_t pipe_seq = 0;        // position in its pipe
    std::vector<uint32_t> deps;   // same-core instructions (seq) it must wait for
    int64_t scalar_before = -1;   // last scalar-executed instruction before issue
    uint64_t issue_time = 0;      // cycle the scalar unit issued it
    uint64_t start = 0, end = 0;  // execution interval (cycles)
    uint64_t wait_from = 0;       // the engine's: cycle a cross-core wait began (stall accounting)
    bool done = false;
};

}  // namespace cvsim
