// Instructions as the core models see them: a pipe, dependencies, timing, and an engine that performs the
// data effect. The simulator's instruction (its operands and tiles: sim/instr.h) derives from PipeInstr.
#pragma once

#include <cstdint>
#include <vector>

#include "core/pipe.h"

namespace cvsim {

struct PipeInstr;

// Performs the data effect of instructions; implemented by the simulator (sim/lane_executor.h).
class InstrEngine {
public:
    virtual ~InstrEngine() = default;
    // Called by the pipe when the instruction's dependencies are met. May block (SystemC wait) on
    // cross-core conditions (a flag). Returns the instruction's latency in cycles.
    virtual uint64_t begin(PipeInstr& in) = 0;
    // Called when the latency has elapsed: commit writes, raise flags, emit the event.
    virtual void end(PipeInstr& in) = 0;
};

// One instruction issued by a core's scalar unit to one of its pipes, as far as the core model uses it.
struct PipeInstr {
    virtual ~PipeInstr() = default;
    uint32_t seq = 0;                 // per-core issue number
    ir::Pipe pipe = ir::Pipe::Scalar;
    uint32_t pipe_seq = 0;            // position in its pipe
    std::vector<uint32_t> deps;       // same-core instructions (seq) it must wait for
    int64_t scalar_before = -1;       // last scalar-executed instruction before issue
    uint64_t issue_time = 0;          // cycle the scalar unit issued it
    uint64_t start = 0, end = 0;      // execution interval (cycles)
    bool done = false;
};

}  // namespace cvsim
