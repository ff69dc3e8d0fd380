// State shared by the cores of one schedule (sim-private): the configuration, the machine, the schedule's
// generator and counters, and the run-time findings.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "frontend/runtime.h"
#include "sim/cluster.h"
#include "sim/event.h"

namespace cvsim::sim {

struct RunState {
    const RunConfig* cfg = nullptr;
    Machine* machine = nullptr;
    const rt::TensorStore* tensors = nullptr;  // tensor metadata (the bytes live in GM)
    ScheduleRng rng{0};                        // the schedule's generator
    const SchedulePolicy* policy = nullptr;    // what the schedule's strategy decides (draws from rng)
    uint64_t next_token = 1;                   // sync token ids
    uint64_t visibility_delay = 0;             // GM completion -> visible for this schedule
    std::vector<Finding> findings;             // run-time findings
    std::set<std::string> finding_keys;        // de-duplication
    uint64_t instructions = 0;                 // tile instructions completed
    int aiv_lanes = 1;                         // AIV lanes launched per cluster (a2a3 replay lane included)
    int participants_per_cluster = 0;          // cores per cluster taking part in a mix syncall
    int aic_per_cluster = 0, aiv_per_cluster = 0;
    // PCT: change points (global sync/GM event counter values at which the running core stalls).
    std::vector<uint64_t> pct_points;
    uint64_t sync_events = 0;  // synchronisation/GM events so far (PCT's step counter)
    int launched_cores = 0;    // cores running a program (sweep)
    int blocks = 1;            // the launch's block count (get_block_num)
    // Blocks the chip holds at once: one per cluster, or one per AIV core for a standalone AIV kernel (one lane,
    // no AIC: PyPTO's HardSyncallOccupancy, "1 block = 1 AIV core"). Wider launches run in waves.
    int capacity = 1;
    bool detail = true;  // a sink reads Event::detail (else it is left empty)

    uint64_t token() { return next_token++; }
    void add_finding(Finding f);
    void emit(const Event& e);
};

}  // namespace cvsim::sim
