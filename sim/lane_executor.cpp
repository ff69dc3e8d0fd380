// A launched core for one schedule: the live walk (thread mode) or a recorded stream (method mode).
#include "sim/lane_executor.h"

namespace cvsim::sim {

// The walker's sink in thread mode: every instruction goes to the core at once (the walk waits where the
// scalar unit waits), every effect happens at once.
class CoreRunner::LiveSink : public LaneSink {
  public:
    explicit LiveSink(DataEngine& e) : m_e(e), m_core(e.core()) {}
    void statement() override { m_core.advance_statement(); }
    uint32_t issued() const override { return m_core.issued(); }
    bool has_pipe(ir::Pipe p) const override { return m_core.has_pipe(p); }
    void issue(std::unique_ptr<SimInstr> in) override { m_core.issue(in.release()); }
    void wait_instrs(const std::vector<uint32_t>& seqs) override { m_core.wait_instrs(seqs, StallCause::Dependency); }
    void await_ring(CrossCorePipe& r, const ir::Expr& c, const ir::Stmt& s, int dir) override {
        if (m_e.ring_ready(r, c, s, dir)) return;
        while (!r.configured()) m_core.wait_event(r.changed());
        m_e.ring_wait_done();
    }
    void configure_ring(int dir, int64_t id, int64_t slot_num, int64_t slot_size, const ir::Stmt& s) override {
        m_e.configure_ring(dir, id, slot_num, slot_size, s);
    }
    void finding(const std::string& code, const ir::Stmt& s, const std::string& msg) override {
        m_e.runtime_finding(code, s, msg);
    }
    void needs_live(const char*) override {}

  private:
    DataEngine& m_e;
    CoreBase& m_core;
};

CoreRunner::CoreRunner(RunState& st, int cluster, CoreId core, const rt::LaneProgram& prog, bool replay, int lane,
                       int aiv_lanes, LaneStream* stream)
    : m_prog(prog), m_engine(st, cluster, core, replay, lane, aiv_lanes, stream == nullptr), m_stream(stream) {
    m_cx.cfg = st.cfg;
    m_cx.machine = st.machine;
    m_cx.tensors = st.tensors;
    m_cx.blocks = st.blocks;
    m_cx.cluster = cluster;
    m_cx.core = core;
    m_cx.lane = lane;
    m_cx.aiv_lanes = aiv_lanes;
    m_cx.replay = replay;
}

CoreRunner::~CoreRunner() = default;

void CoreRunner::install(int after, int chip) {
    CoreBase& core = m_engine.core();
    core.set_engine(&m_engine);
    if (m_stream) {
        m_exec.emplace(*m_stream, m_engine, after, chip);
        core.set_program(&*m_exec);
    } else {
        core.set_program([this, after, chip] { run_live(after, chip); });
    }
}

void CoreRunner::run_live(int after, int chip) {
    CoreBase& core = m_engine.core();
    if (after > 0 && !m_engine.dispatch_ready(after, chip)) {
        Machine& m = *m_cx.machine;
        while (m.blocks_done() < after) core.wait_event(m.dispatch_event());
        m_engine.dispatch_wait_done();
    }
    LiveSink sink(m_engine);
    LaneWalker walker(m_cx, m_prog, sink);
    walker.run();
}

}  // namespace cvsim::sim
