// The lane walker: walks one lane program (control flow, scalar arithmetic, address computation) and turns
// every tile op into an instruction for a pipe, with its same-core dependencies computed in issue order. What
// it issues goes to a LaneSink: the live core (thread mode: the walk runs on the scalar thread, one
// instruction at a time) or a recorder that builds the lane's whole instruction stream ahead of the schedule
// (sim/lane_stream.h), which method mode replays. The walk never depends on timing; what depends on another
// core or on data (a ring slot, a popped value) is done by the data engine when the instruction runs.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "frontend/runtime.h"
#include "sim/payload.h"
#include "sim/run_state.h"

namespace cvsim::sim {

// Where the walker's instructions and scalar-unit effects go.
class LaneSink {
  public:
    virtual ~LaneSink() = default;
    virtual void statement() = 0;         // one statement walked (the scalar unit's cost)
    virtual uint32_t issued() const = 0;  // the seq the next instruction gets
    virtual bool has_pipe(ir::Pipe p) const = 0;
    virtual void issue(std::unique_ptr<SimInstr> in) = 0;
    // The scalar unit waits for these instructions and then reads their data (only a live walk can).
    virtual void wait_instrs(const std::vector<uint32_t>& seqs) = 0;
    // A ring op waits until its ring is configured.
    virtual void await_ring(CrossCorePipe& r, const ir::Expr& c, const ir::Stmt& s, int dir) = 0;
    virtual void configure_ring(int dir, int64_t id, int64_t slot_num, int64_t slot_size, const ir::Stmt& s) = 0;
    virtual void finding(const std::string& code, const ir::Stmt& s, const std::string& msg) = 0;
    // What follows in the walk depends on run-time values (only a live walk can go on).
    virtual void needs_live(const char* why) = 0;
};

struct TView {
    uint32_t tensor = 0;           // GM tensor
    std::vector<int64_t> off;      // view origin in the tensor
    std::vector<int64_t> shape;    // view shape
    std::vector<int64_t> reshape;  // pl.tensor.view: off/shape are in this row-major shape of the tensor
};

struct LValue;
using LTuple = std::vector<LValue>;
struct LValue {
    std::variant<std::monostate, rt::Scalar, TView, TileRef, std::shared_ptr<LTuple>> v;
};

// The static context of one core's walk (nothing here changes between schedules).
struct WalkContext {
    const RunConfig* cfg = nullptr;
    Machine* machine = nullptr;
    const rt::TensorStore* tensors = nullptr;
    int blocks = 1;  // get_block_num
    int cluster = 0;
    CoreId core = CoreId::Aic;
    int lane = 0;         // AIV lane (0/1), 0 on the AIC
    int aiv_lanes = 1;    // AIV lanes taking part in rings
    bool replay = false;  // a2a3 lane-1 replay: handshakes only, no data
};

class LaneWalker {
  public:
    LaneWalker(const WalkContext& cx, const rt::LaneProgram& prog, LaneSink& sink);
    ~LaneWalker();
    LaneWalker(const LaneWalker&) = delete;
    LaneWalker& operator=(const LaneWalker&) = delete;

    void run();  // the whole lane program

  private:
    // ---- walking (lane_walker.cpp) ----
    void exec_block(const ir::Block& b);
    void exec(const ir::Stmt& s);
    void exec_for(const ir::Stmt& s);
    LValue eval(const ir::ExprPtr& e, const ir::Stmt& s);
    rt::Scalar scalar(const ir::ExprPtr& e);
    TileRef tile(const ir::ExprPtr& e);
    TView view(const ir::ExprPtr& e);
    void assign(const std::vector<ir::VarPtr>& targets, const LValue& v);
    // ---- instruction construction (lane_walker.cpp) ----
    std::unique_ptr<SimInstr> make(ir::Pipe pipe, const ir::Stmt& s, const ir::Expr* call);
    void dep_read(Instr& in, const TileRef& t);
    void dep_write(Instr& in, const TileRef& t);
    void dep_gm(SimInstr& in, uint32_t tensor, const rt::Window& w, bool write, bool atomic = false);
    TileRef new_tile(const ir::Type& t);
    // partition: a store's `shapes` window (may run past a dimension when its rows are one box: rt::partition_window)
    std::optional<rt::Window> window(const TView& v, const ir::ExprPtr& offsets, const std::vector<int64_t>& ext,
                                     const ir::Stmt& s, bool partition = false);
    OrderKeyPtr order_key(const ir::Stmt& s);
    CrossCorePipe* ring_for(const ir::Expr& c, int dir, const ir::Stmt& s);
    void issue(std::unique_ptr<SimInstr> in) {
        m_last_on_pipe[static_cast<size_t>(in->pipe)] = static_cast<int64_t>(m_sink.issued());
        m_sink.issue(std::move(in));
    }
    // A drain (fence, syncall arrival, PIPE_ALL flag): it waits for every earlier instruction of the core, which
    // is the last one issued on each pipe (a pipe completes in order, and the checker's clock of an instruction
    // includes its pipe's earlier ones). Listing every earlier instruction made the recorded stream quadratic
    // in a loop with a fence (hunt: 23 GB for a 200,000-trip loop that `run` walks in 30 MB).
    void dep_drain(Instr& in) const {
        for (int64_t seq : m_last_on_pipe)
            if (seq >= 0) in.deps.push_back(static_cast<uint32_t>(seq));
    }
    // Whether a V2C pop's result is never read but by a tfree (a token: its data cannot matter).
    bool pop_unread(const ir::Stmt& s);
    // ---- op calls (lane_ops.cpp) ----
    LValue issue_call(const ir::Stmt& s, const ir::Expr& c);
    // The cross-core and synchronisation ops of issue_call (lane_sync_ops.cpp); nullopt: not one of them.
    std::optional<LValue> issue_sync_call(const ir::Stmt& s, const ir::Expr& c);
    // pl.tile.mgather's Mat form on the cube (lane_mgather_mat.cpp; its data: DataEngine::begin_mgather_mat).
    LValue issue_mgather_mat(const ir::Stmt& s, const ir::Expr& c);
    // ---- lane_sync_ops.cpp ----
    // A tpush/tpop/tfree of a (direction, id) ring this lane never bound with its own *_initialize_pipe:
    // E-PIPE-SETUP at the op, once per ring (the op then goes on as before: a ring the peer bound works, one
    // nobody bound is waited for).
    void check_ring_setup(const ir::Stmt& s, const ir::Expr& c, int dir, int64_t id);
    // An import_peer_buffer of a name its peer function never reserves: E-PIPE-SETUP at the import.
    void check_peer_buffer(const ir::Stmt& s, const ir::Expr& c);

    WalkContext m_cx;
    rt::LaneProgram m_prog;
    LaneSink& m_sink;
    std::vector<LValue> m_env;    // per variable id (its storage is reused by the next walk)
    std::vector<LValue> m_yield;  // values of the last pl.yield_
    bool m_returned = false;
    std::vector<bool> m_var_read;  // per variable id of the program's function: read but by a tfree (lazily)
    bool m_var_read_done = false;
    std::vector<std::pair<uint64_t, int64_t>> m_loops;   // enclosing loops (location key, iteration)
    std::set<std::pair<int, int64_t>> m_rings_set_up;    // (direction, id) rings this lane initialised
    std::set<std::pair<int, int64_t>> m_setup_reported;  // rings a use without setup was reported for
    struct GmRec {
        uint32_t tensor;
        rt::Window w;
        bool write;
        uint32_t seq;
        ir::Pipe pipe;
    };
    std::vector<GmRec> m_gm_recs;  // this core's GM accesses (intra-core dependencies)
    std::array<int64_t, ir::kNumPipes> m_last_on_pipe = [] {
        std::array<int64_t, ir::kNumPipes> a{};
        a.fill(-1);
        return a;
    }();  // per pipe: the sequence number of the last instruction issued on it (-1: none)
};

}  // namespace cvsim::sim
