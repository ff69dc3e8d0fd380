// The lane executor: walks one lane program on a core's scalar unit (control flow, scalar arithmetic,
// address computation), turns every tile op into an instruction for a pipe, and performs the data effect
// of each instruction when the pipe executes it (InstrEngine). One runner per launched core per schedule.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "frontend/runtime.h"
#include "models/core_base.h"
#include "core/datapath.h"
#include "sim/cluster.h"
#include "sim/data_memo.h"
#include "sim/payload.h"
#include "sim/event.h"

namespace cvsim::sim {

// State shared by the runners of one schedule.
struct RunState {
    const RunConfig* cfg = nullptr;
    Machine* machine = nullptr;
    const rt::TensorStore* tensors = nullptr;  // tensor metadata (the bytes live in GM)
    ScheduleRng rng{0};               // the schedule's generator
    uint64_t next_token = 1;          // sync token ids
    uint64_t visibility_delay = 0;    // GM completion -> visible for this schedule
    std::vector<Finding> findings;    // run-time findings
    std::set<std::string> finding_keys;  // de-duplication
    uint64_t instructions = 0;        // tile instructions completed
    int aiv_lanes = 1;                // AIV lanes launched per cluster (a2a3 replay lane included)
    int participants_per_cluster = 0; // cores per cluster taking part in a mix syncall
    int aic_per_cluster = 0, aiv_per_cluster = 0;
    // PCT: change points (global sync/GM event counter values at which the running core stalls).
    std::vector<uint64_t> pct_points;
    uint64_t sync_events = 0;         // synchronisation/GM events so far (PCT's step counter)
    int launched_cores = 0;           // cores running a program (sweep)
    int blocks = 1;                   // the launch's block count (get_block_num)
    bool detail = true;               // a sink reads Event::detail (else it is left empty)

    uint64_t token() { return next_token++; }
    void add_finding(Finding f);
    void emit(const Event& e);
};

struct TView {
    uint32_t tensor = 0;            // GM tensor
    std::vector<int64_t> off;       // view origin in the tensor
    std::vector<int64_t> shape;     // view shape
    std::vector<int64_t> reshape;   // pl.tensor.view: off/shape are in this row-major shape of the tensor
};

struct LValue;
using LTuple = std::vector<LValue>;
struct LValue {
    std::variant<std::monostate, rt::Scalar, TView, TileRef, std::shared_ptr<LTuple>> v;
};

class CoreRunner : public InstrEngine {
public:
    CoreRunner(RunState& st, int cluster, CoreId core, const rt::LaneProgram& prog, bool replay, int lane, int aiv_lanes);
    ~CoreRunner() override;
    CoreRunner(const CoreRunner&) = delete;
    CoreRunner& operator=(const CoreRunner&) = delete;

    void run();  // the lane program (called on the core's scalar thread)

    // InstrEngine (every instruction a core runs is one of this runner's: an Instr)
    uint64_t begin(PipeInstr& in) override { return begin(static_cast<Instr&>(in)); }
    void end(PipeInstr& in) override { end(static_cast<Instr&>(in)); }
    uint64_t begin(Instr& in);
    void end(Instr& in);

    CoreBase& model() { return *m_core; }
    bool replay() const { return m_replay; }
    // Descriptions of what this core waits for (deadlock report), empty when not blocked.
    std::vector<std::string> blocked() const;
    bool blocked_in_hard_syncall() const { return m_in_hard_syncall; }
    bool blocked_in_syncall() const { return m_in_syncall; }
    // A block beyond the chip's `chip` clusters: wait (before its program) until `after` blocks finished.
    void await_dispatch(int after, int chip);
    void set_runner_index(int i) { m_runner_index = i; }

private:
    // ---- lane walking (lane_executor.cpp) ----
    void exec_block(const ir::Block& b);
    void exec(const ir::Stmt& s);
    void exec_for(const ir::Stmt& s);
    LValue eval(const ir::ExprPtr& e, const ir::Stmt& s);
    rt::Scalar scalar(const ir::ExprPtr& e);
    TileRef tile(const ir::ExprPtr& e);
    TView view(const ir::ExprPtr& e);
    LValue issue_call(const ir::Stmt& s, const ir::Expr& c);
    void assign(const std::vector<ir::VarPtr>& targets, const LValue& v);

    // ---- instruction construction ----
    std::unique_ptr<Instr> make(ir::Pipe pipe, const ir::Stmt& s, const ir::Expr* call);
    void dep_read(Instr& in, const TileRef& t);
    void dep_write(Instr& in, const TileRef& t);
    void dep_gm(Instr& in, uint32_t tensor, const rt::Window& w, bool write, bool atomic = false);
    TileRef new_tile(const ir::Type& t);
    // partition: a store's `shapes` window (may run past a dimension when its rows are one box: rt::partition_window)
    std::optional<rt::Window> window(const TView& v, const ir::ExprPtr& offsets, const std::vector<int64_t>& ext, const ir::Stmt& s,
                                     bool partition = false);
    OrderKeyPtr order_key(const ir::Stmt& s);
    CrossCorePipe* ring_for(const ir::Expr& c, int dir, const ir::Stmt& s);

    // ---- data effects (exec_ops.cpp) ----
    uint64_t jitter(uint64_t cycles);
    uint64_t dma_latency(int path, uint64_t rows, uint64_t row_bytes, uint32_t hits, uint32_t misses);
    void pct_point();
    uint64_t begin_push(Instr& in);
    uint64_t begin_indexed(Instr& in);  // pl.tile.mgather / mscatter: the transfers the index tile names
    // pl.tile.mgather's Mat form on the cube (exec_mgather_mat.cpp): issue, the transfers the GM index names, the
    // elem mode's scratch write.
    LValue issue_mgather_mat(const ir::Stmt& s, const ir::Expr& c);
    uint64_t begin_mgather_mat(Instr& in);
    void end_mgather_mat(Instr& in);
    void end_push(Instr& in);
    void refresh_slot_tile(TileBuf& t, CrossCorePipe::Slot& sl);
    void slot_reads(Instr& in);
    void wait_flag(Instr& in);
    void runtime_finding(const std::string& code, const ir::Stmt& s, const std::string& msg);
    uint64_t compute_latency(const Instr& in);
    void compute_data(Instr& in);
    bool inputs_clean(const Instr& in) const;
    MemoEntry* memo_find(const Instr& in);
    MemoEntry* memo_record(const Instr& in);
    void settle_output(const Instr& in, TileBuf& out);
    void land_tile(const Instr& in, const Payload& p);
    Event make_event(Instr& in);

    RunState& m_st;
    int m_cluster;
    CoreId m_core_id;
    CoreBase* m_core;
    int m_core_index;                 // cluster * 3 + core (memo index)
    rt::LaneProgram m_prog;
    bool m_replay;                    // a2a3 lane-1 replay: handshakes only, no data
    int m_lane;                       // AIV lane index (0/1), 0 on the AIC
    int m_aiv_lanes;                  // AIV lanes taking part in rings (replay lane included)
    std::vector<LValue> m_env;        // per variable id (its storage is reused by the next schedule's runner)
    std::vector<LValue> m_yield;      // values of the last pl.yield_
    bool m_returned = false;
    std::vector<std::pair<uint64_t, int64_t>> m_loops;  // enclosing loops (location key, iteration)
    struct GmRec {
        uint32_t tensor;
        rt::Window w;
        bool write;
        uint32_t seq;
        ir::Pipe pipe;
    };
    std::vector<GmRec> m_gm_recs;     // this core's GM accesses (intra-core dependencies)
    uint64_t m_max_visible = 0;       // latest visibility time of this core's GM writes (fence)
    std::string m_scalar_wait;        // what the scalar unit waits for (deadlock report)
    std::array<std::string, ir::kNumPipes> m_pipe_wait;  // what each pipe waits for
    bool m_in_hard_syncall = false;
    bool m_in_syncall = false;  // waiting in a syncall's departure (hard or soft)
    uint64_t m_sync_count = 0;        // this core's sync/GM events (sweep)
    int m_runner_index = 0;           // position among the schedule's launched cores (sweep)
};

}  // namespace cvsim::sim
