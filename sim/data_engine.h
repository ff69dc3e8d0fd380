// The data engine of one core for one schedule: what an instruction does when its pipe runs it (InstrEngine).
// begin() samples inputs (tile bytes, visible GM bytes), computes the result on logical values with the
// shared datapath (or takes it from the memo) and returns the latency from the cost model, jittered by the
// schedule; it asks the core to wait where the hardware waits on another core (a ring slot, a flag, a
// barrier) or the schedule stalls it (PCT). end() writes the result in the destination's physical layout,
// commits GM writes (visible after the visibility delay), raises flags and emits the event.
//
// Files: data_engine.cpp (the dispatch, loads, stores, compute, end), data_sync.cpp (rings, flags,
// barriers, fences, scheduling points), data_compute.cpp (latencies, numerics, the memo, indexed transfers),
// data_mgather_mat.cpp (pl.tile.mgather into L1 on the cube).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "models/core_base.h"
#include "sim/data_memo.h"
#include "sim/payload.h"
#include "sim/run_state.h"

namespace cvsim::sim {

class DataEngine : public InstrEngine {
  public:
    // `owns`: the engine deletes an instruction when it retires (the lane walker's); otherwise instructions
    // belong to a recorded stream and only their data is freed (sim/lane_stream.h).
    DataEngine(RunState& st, int cluster, CoreId core, bool replay, int lane, int aiv_lanes, bool owns);

    Step begin(PipeInstr& in) override { return begin(static_cast<SimInstr&>(in)); }
    void end(PipeInstr& in) override { end(static_cast<SimInstr&>(in)); }
    void issued(PipeInstr& in) override;
    void retire(PipeInstr& in) override;

    // ---- effects the scalar unit performs between instructions (the lane walker's, or a stream's) ----
    void runtime_finding(const std::string& code, const ir::Stmt& s, const std::string& msg);
    // aic/aiv_initialize_pipe: configures the ring (or reports a peer's different geometry).
    void configure_ring(int dir, int64_t id, int64_t slot_num, int64_t slot_size, const ir::Stmt& s);
    // The ring op waits until its ring is configured: the wait, or nothing (ring_wait_done after it).
    bool ring_ready(CrossCorePipe& r, const ir::Expr& c, const ir::Stmt& s, int dir);
    void ring_wait_done() { m_scalar_wait = {}; }
    // A block beyond the chip's clusters waits (before its program) until `after` blocks finished.
    bool dispatch_ready(int after, int chip);
    void dispatch_wait_done();

    CoreBase& core() { return *m_core; }
    int cluster() const { return m_cluster; }
    CoreId core_id() const { return m_core_id; }
    int lane() const { return m_lane; }
    int aiv_lanes() const { return m_aiv_lanes; }
    bool replay() const { return m_replay; }
    RunState& state() { return m_st; }
    // Descriptions of what this core waits for (deadlock report), empty when not blocked.
    std::vector<std::string> blocked() const;
    bool blocked_in_hard_syncall() const { return m_in_hard_syncall; }
    bool blocked_in_syncall() const { return m_in_syncall; }
    void set_runner_index(int i) { m_runner_index = i; }

  private:
    Step begin(SimInstr& in);
    void end(SimInstr& in);
    // ---- data_engine.cpp ----
    Step begin_op(SimInstr& in);
    uint64_t begin_load(SimInstr& in);
    uint64_t begin_store(SimInstr& in);
    void end_op(SimInstr& in);
    Event& make_event(SimInstr& in);
    // ---- data_sync.cpp ----
    uint64_t jitter(uint64_t cycles);
    uint64_t dma_latency(int path, uint64_t rows, uint64_t row_bytes, uint32_t hits, uint32_t misses);
    uint8_t pct_point();
    Step begin_pop(SimInstr& in);
    uint64_t begin_pop_copy(SimInstr& in);
    Step begin_fence(SimInstr& in);
    Step begin_depart(SimInstr& in);
    Step begin_push(SimInstr& in);
    uint64_t push_data(SimInstr& in);
    Step wait_flag(SimInstr& in);
    void end_push(SimInstr& in);
    void end_pop(SimInstr& in);
    void end_arrive(SimInstr& in);
    void end_tfree(SimInstr& in);
    void end_sync_set(SimInstr& in);
    void refresh_slot_tile(TileBuf& t, CrossCorePipe::Slot& sl);
    void slot_reads(SimInstr& in);
    // ---- data_compute.cpp ----
    uint64_t begin_indexed(SimInstr& in);  // pl.tile.mgather / mscatter: the transfers the index tile names
    // ---- data_mgather_mat.cpp ----
    // pl.tile.mgather's Mat form on the cube: the transfers the GM index names; elem mode's scratch write.
    uint64_t begin_mgather_mat(SimInstr& in);
    void end_mgather_mat(SimInstr& in);
    uint64_t compute_latency(const SimInstr& in);
    void compute_data(SimInstr& in);
    bool inputs_clean(const SimInstr& in) const;
    MemoEntry* memo_find(const SimInstr& in);
    MemoEntry* memo_record(const SimInstr& in);
    void settle_output(const SimInstr& in, TileBuf& out);
    void land_tile(const SimInstr& in, const Payload& p);

    RunState& m_st;
    int m_cluster;
    CoreId m_core_id;
    CoreBase* m_core;
    int m_core_index;            // cluster * 3 + core (memo index)
    bool m_replay;               // a2a3 lane-1 replay: handshakes only, no data
    int m_lane;                  // AIV lane index (0/1), 0 on the AIC
    int m_aiv_lanes;             // AIV lanes taking part in rings (replay lane included)
    bool m_owns;                 // instructions are deleted at retire
    uint64_t m_max_visible = 0;  // latest visibility time of this core's GM writes (fence)
    // What the scalar unit / each pipe waits for, for a deadlock report: the facts at the time the wait began,
    // put into words only when a report asks (describe).
    struct WaitNote {
        enum class Kind : uint8_t { None, Pop, Push, Flag, Fence, Syncall, Ring, Dispatch };
        Kind kind = Kind::None;
        const SimInstr* in = nullptr;
        const ir::Expr* call = nullptr;
        const ir::Stmt* stmt = nullptr;
        int64_t a = 0, b = 0, c = 0, d = 0;
        bool empty() const { return kind == Kind::None; }
    };
    std::string describe(const WaitNote& n) const;
    WaitNote m_scalar_wait;
    std::array<WaitNote, ir::kNumPipes> m_pipe_wait;
    bool m_in_hard_syncall = false;
    bool m_in_syncall = false;  // waiting in a syncall's departure (hard or soft)
    uint64_t m_sync_count = 0;  // this core's sync/GM events (sweep)
    int m_runner_index = 0;     // position among the schedule's launched cores (sweep)
    // What a scalar instruction leaves for the one the walker issues right after it: a tpop's slot and data
    // for its a2a3 copy to the landing buffer, a syncall arrival's episode for its departure.
    struct PopHandoff {
        int slot = -1;
        SharedMatrix xfer;
        DType dtype = DType::FP32;
        bool clean = false;
    } m_pop;
    int64_t m_arrive_episode = -1;
};

}  // namespace cvsim::sim
