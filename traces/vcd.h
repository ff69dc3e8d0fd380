// VCD waveform writer (GTKWave) through SystemC's own sc_trace: per core its state (idle, running, or
// stalled and on what), per ring direction its occupancy, per flag event id its pending sets.
#pragma once

#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir/ir.h"
#include "sim/cluster.h"
#include "sim/event.h"

namespace cvsim::traces {

// Value of a core's state signal: 0 idle (not started or finished), 1 running, 2 + (cause - 1) stalled on
// a cause (2 dependency, 3 queue full, 4 ring, 5 barrier, 6 flag, 7 fence).
uint32_t vcd_core_state(CoreBase::State s, StallCause cause);

// The sync_set / sync_wait event ids a program can use: the constant ids it names, or 0..15 when an id
// is computed at run time.
std::vector<int64_t> flag_event_ids(const ir::Program& program);

struct VcdLayout {
    int clusters = 1;               // clusters traced (the launch's --blocks)
    std::vector<int64_t> flag_ids;  // flag event ids traced (flag_event_ids)
};

// SystemC registers traced variables once, before the simulation starts, so the order of use is fixed:
//   sim::init_systemc();               // time resolution: 1 ns = 1 cycle
//   VcdTrace vcd(path, layout);        // before the first sim::Machine::instance(...)
//   vcd.attach(sim::Machine::instance(n));
//   session.run(schedule, {&vcd});
//   vcd.close();                       // or the destructor
// Timestamps are SystemC time in cycles (timescale 1 ns), absolute: a schedule starts at RunControl::t0.
// SystemC records a time step's values only when time moves on, so close() runs the paused simulation
// one more cycle: the file ends one cycle after the run, with the last cycle's changes in it.
class VcdTrace : public sim::EventSink {
  public:
    VcdTrace(const std::string& path, VcdLayout layout);
    ~VcdTrace() override;
    VcdTrace(const VcdTrace&) = delete;
    VcdTrace& operator=(const VcdTrace&) = delete;

    // Listens to the cores' state changes and reads the flag counters of `machine`.
    void attach(sim::Machine& machine);
    void on_event(const sim::Event& e) override;
    // Records the last cycle, closes the file and detaches from the cores. Idempotent.
    void close();

  private:
    size_t flag_slot(uint32_t cluster, int64_t event_id, int receiver) const;

    VcdLayout m_layout;                      // what is traced
    sc_core::sc_trace_file* m_tf = nullptr;  // the VCD file (owned by SystemC until sc_close_vcd_trace_file)
    sim::Machine* m_machine = nullptr;       // cores and flag banks being observed (after attach)
    // Traced values: SystemC samples them by address, so these vectors are sized once and never resized.
    std::vector<uint32_t> m_core_state;      // per (cluster, core): vcd_core_state
    std::vector<uint32_t> m_ring_occupancy;  // per (cluster, direction 0 = C2V, 1 = V2C): occupied slots
    std::vector<uint32_t> m_flag_pending;    // per (cluster, flag id, receiver AIC/AIV0/AIV1): pending sets
};

}  // namespace cvsim::traces
