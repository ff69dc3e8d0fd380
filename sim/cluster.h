// Elaboration and wiring: N clusters (AIC + 2 AIV each), their rings and flags, the barriers and the
// shared GM; runs one schedule at a time inside one elaboration, resetting every model in between
// (SystemC cannot restart sc_start, and forking per schedule is too slow).
#pragma once

#include <systemc>

#include <array>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/params.h"
#include "frontend/runtime.h"
#include "models/barrier.h"
#include "models/core_base.h"
#include "models/cross_core_pipe.h"
#include "sim/event.h"
#include "sim/global_memory.h"
#include "sim/schedule.h"
#include "sim/verdict.h"

namespace cvsim::sim {

// One simulation request.
struct RunConfig {
    const rt::LaunchPlan* plan = nullptr;  // what runs where
    const rt::TensorStore* gm = nullptr;   // initial GM (kernel tensors, then hidden tensors)
    HwParams hw;                           // hardware parameters
    Schedule schedule;                     // strategy and seed
    uint64_t visibility_delay = 0;         // GM write completion -> visible (cycles) when `schedule` is not resolved
    uint64_t max_cycles = 200'000'000;     // simulated-time bound
    double max_wall_seconds = 60;          // wall-time bound
    uint64_t max_instructions = 0;         // deterministic bound: instructions issued by all cores (0: none)
    std::vector<EventSink*> sinks;         // observers of the event stream
    std::vector<uint32_t> ring_tensors;    // hidden ring tensor per cluster (index in gm)
    std::map<std::pair<int, int64_t>, int64_t> ring_bases;  // (dir 0 = C2V / 1 = V2C, ring id) -> byte offset in it
    int fault_abort_at = -1;              // testing: abort the process at this instruction count (crash isolation)
    int64_t fault_out_of_memory_at = -1;  // testing: throw std::bad_alloc inside a core's process there
    class DataMemo* memo = nullptr;       // results reused across the session's schedules (optional)
    uint64_t gm_image_id = 0;             // names `gm`'s contents (0: unnamed): the same image is restored, not rebuilt
    struct StreamCache* streams = nullptr;  // the session's recorded instruction streams (nullptr: walk live)
};

struct CoreReport {
    int cluster = 0;
    CoreId core = CoreId::Aic;
    bool launched = false;
    bool replay = false;  // a2a3 lane-1 replay
    bool finished = false;
    uint64_t start = 0, end = 0;  // cycles
    std::vector<std::pair<ir::Pipe, CoreBase::PipeStats>> pipes;
    std::vector<std::string> blocked;  // at a deadlock: what it waits for
};

struct RingReport {
    int cluster = 0;
    bool c2v = true;
    int64_t id = 0;
    int slot_num = 0;
    int64_t slot_size = 0;
    int max_occupancy = 0;
    uint64_t pushes = 0;
    uint64_t producer_stall_cycles = 0;
};

struct RunOutcome {
    bool completed = false;  // every launched core finished
    bool deadlock = false;
    bool timeout = false;
    uint64_t end_cycle = 0;         // last cycle of the schedule
    std::vector<Finding> findings;  // run-time findings (protocol, OOB, deadlock, layout, ...)
    rt::TensorStore gm_final;       // GM at the end
    std::vector<CoreReport> cores;
    std::vector<RingReport> rings;
    double l2_hit_rate = 0;
    uint64_t gm_bytes_read = 0, gm_bytes_written = 0;
    uint64_t instructions = 0;  // tile instructions simulated
    uint64_t sync_events = 0;   // synchronisation/GM events (PCT's k)
};

class CoreRunner;

// The models of one cluster.
struct ClusterModel {
    std::array<std::unique_ptr<CoreBase>, kCoresPerCluster> cores;            // AIC, AIV0, AIV1
    std::map<std::pair<int, int64_t>, std::unique_ptr<CrossCorePipe>> rings;  // (dir 0=C2V/1=V2C, id)
    FlagBank flags;                                                           // sync_set / sync_wait counters
    // Per (dir, id) ring: the *_initialize_pipe that bound it on the AIC ([0]) and on an AIV ([1]) in this
    // schedule (nullptr: that side never did); a ring bound by one side only is E-PIPE-SETUP at the end of a run.
    std::map<std::pair<int, int64_t>, std::array<const ir::Stmt*, 2>> ring_setups;
};

class Machine {
  public:
    // One elaboration per process with `clusters` clusters (SystemC elaborates once).
    static Machine& instance(int clusters);
    int clusters() const { return static_cast<int>(m_clusters.size()); }

    RunOutcome run(const RunConfig& cfg);

    // ---- used by the core runners during a run ----
    ClusterModel& cluster(int i) { return *m_clusters[i]; }
    CrossCorePipe& ring(int cluster, int dir, int64_t id);
    // A barrier is one group (core type) in one mechanism (Payload::barrier: "mix/hard", "mix/soft@ws..."): a hard
    // (FFTS) barrier, a soft barrier counting in one GM workspace and one counting in another never meet.
    Barrier& barrier(const std::string& key) { return m_barriers[key]; }
    GlobalMemory& gm() { return m_gm; }
    RunControl& control() { return m_ctl; }
    // Blocks beyond the chip's cluster count run in waves: block b >= C starts once b - C + 1 blocks finished
    // (dispatched in block order to the cluster that frees first).
    int blocks_done() const { return m_blocks_done; }
    sc_core::sc_event& dispatch_event() { return m_dispatch_ev; }

  private:
    explicit Machine(int clusters);
    void reset_models();
    void check_ring_setups(const rt::LaunchPlan& plan, struct RunState& st, uint64_t end_cycle);

    RunControl m_ctl;                                       // abort / bounds shared by all cores
    std::vector<std::unique_ptr<ClusterModel>> m_clusters;  // the clusters
    std::map<std::string, Barrier> m_barriers;              // syncall group/mode: "mix/hard", "aiv_only/soft", ...
    GlobalMemory m_gm;                                      // shared GM + L2
    int m_blocks_done = 0;                                  // blocks of the current run whose cores all finished
    std::vector<int> m_cores_left;                          // per block: cores still running
    sc_core::sc_event m_dispatch_ev;                        // a block finished (a cluster is free for the next)
};

}  // namespace cvsim::sim
