// The event stream: one record per completed instruction (plus run markers), fed to every observer
// (hazard checker, trace writers) through one interface, so adding a consumer never touches a model.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "frontend/ops.h"
#include "frontend/runtime.h"
#include "frontend/source.h"

namespace cvsim::sim {

// Cores of a cluster: the AIC and the two AIVs.
enum class CoreId : uint8_t { Aic = 0, Aiv0 = 1, Aiv1 = 2 };
constexpr int kCoresPerCluster = 3;
std::string_view core_name(CoreId c);  // "AIC", "AIV0", "AIV1"

// A GM access of an instruction: a window of one tensor (the whole-tensor byte range is derived from it).
struct GmAccess {
    uint32_t tensor = 0;  // index in the run's TensorStore (hidden ring tensors included)
    rt::Window window;    // elements touched
    bool write = false;
    bool atomic = false;    // an atomic-add store: does not race with another atomic add (SPEC 6)
    bool ring = false;      // ring slot traffic (a push's slot write; a pop's or, on a5, an in-place read of the slot)
    int64_t ring_gen = -1;  // ring traffic: the slot generation written or read (names the race: older first)
};

// How long after its completion a write becomes visible to other cores (SPEC 4.5, 6) -- the one definition
// the simulator (when it commits data) and the hazard checker (the fence rule) share. A store waits
// `visibility_delay`; ring slot traffic is ordered by the ring's ready/free flags and is never delayed: the
// slot data is visible to the pop that acquires the push's ready flag.
inline uint64_t write_visibility_delay(const GmAccess& a, uint64_t visibility_delay) {
    return a.ring ? 0 : visibility_delay;
}

// Position of a dynamic instruction in the original program's sequential order: the enclosing loops'
// (source location, iteration) pairs, outermost first, then the statement's own location. Comparing two
// keys lexicographically gives the order the sequential program would have executed them in.
struct OrderKey {
    std::vector<std::pair<uint64_t, int64_t>> loops;  // (loop location key, iteration)
    uint64_t stmt = 0;                                // statement location key (line << 20 | col)
    std::string origin;                               // mixed function the lane code was expanded from
};
using OrderKeyPtr = std::shared_ptr<const OrderKey>;
// -1: a first, 1: b first, 0: unknown (different origins or same position).
int compare_order(const OrderKey& a, const OrderKey& b);

enum class EventKind : uint8_t {
    Instr,      // an instruction completed (start..end)
    CoreStart,  // a core began its program
    CoreEnd,    // a core finished its program
};

// One completed instruction (or a marker). Cycles are relative to the start of the schedule.
struct Event {
    EventKind kind = EventKind::Instr;
    uint16_t cluster = 0;
    CoreId core = CoreId::Aic;
    ir::Pipe pipe = ir::Pipe::Scalar;
    uint32_t seq = 0;            // per-core issue number (0, 1, 2, ...)
    uint32_t pipe_seq = 0;       // per-(core, pipe) completion number
    std::string_view op;         // op name ("tile.load", "tile.tpush_to_aic", "system.fence", ...)
    SourceLoc loc;               // source statement
    uint64_t start = 0;          // cycle the instruction began executing
    uint64_t end = 0;            // cycle it completed
    uint64_t bytes = 0;          // bytes moved or produced
    std::vector<int64_t> shape;  // tile shape, for traces
    // Happens-before inputs (see check/hazard_checker.h):
    std::vector<uint32_t> deps;      // same-core instructions (seq) this one waited for
    int64_t scalar_before = -1;      // seq of the last scalar-executed instruction issued before it (-1: none)
    bool drain = false;              // waited for every earlier instruction of the core (fence, syncall)
    bool fence = false;              // a system.fence(): also waited until the core's GM writes were visible
    std::vector<uint64_t> acquires;  // sync tokens acquired (ready flags, frees, flag sets, barrier arrivals)
    std::vector<uint64_t> releases;  // sync tokens released by this instruction's completion
    std::vector<GmAccess> gm;        // GM windows touched
    OrderKeyPtr order;               // position in the original sequential program (for RAW/WAR naming)
    std::string detail;              // extra words for traces ("ring c2v slot 1", "event 3", ...)
    // Counters for traces (set on the instructions that change them, else -1):
    int ring_dir = -1;        // 0 = C2V, 1 = V2C: the ring this instruction pushed to / popped from / freed
    int ring_occupancy = -1;  // that ring's occupied slots after this instruction
    int64_t flag_event = -1;  // sync_set / sync_wait event id
};

// Sets the SystemC time resolution (1 ns = 1 cycle) and silences expected kernel warnings. Idempotent;
// call before creating any sc_time, trace file or module.
void init_systemc();

// Observer of the event stream.
class EventSink {
  public:
    virtual ~EventSink() = default;
    virtual void on_event(const Event& e) = 0;
    // Called once when a schedule ends (normally or not); `end_cycle` is the last cycle simulated.
    virtual void on_end(uint64_t end_cycle) { (void)end_cycle; }
    // Reads Event::detail (the text traces show); when no sink does, the engine does not format it.
    virtual bool wants_detail() const { return true; }
};

}  // namespace cvsim::sim
