// Recording a lane's instruction stream (the walker on a recording sink) and replaying it on the core.
#include "sim/lane_stream.h"

namespace cvsim::sim {

namespace {

// A walk that needs run-time values.
struct NotRecordable {
    std::string why;
};

// Bounds of a recording (beyond them the lane walks live, which frees instructions as they complete): a
// recorded instruction with its operands takes about 1 KB, and a long loop under a wall-time bound (a timeout
// test) must not be walked to its end before the schedule starts.
constexpr size_t kMaxRecordedInstrs = size_t{1} << 18;
constexpr uint64_t kMaxRecordedStatements = uint64_t{1} << 24;

class StreamRecorder : public LaneSink {
  public:
    StreamRecorder(LaneStream& s, const CoreBase& core) : m_s(s), m_core(core) {}

    void statement() override {
        ++m_pending;
        if (++m_statements > kMaxRecordedStatements) throw NotRecordable{"too many statements to record"};
    }
    uint32_t issued() const override { return static_cast<uint32_t>(m_s.instrs.size()); }
    bool has_pipe(ir::Pipe p) const override { return m_core.has_pipe(p); }
    void issue(std::unique_ptr<SimInstr> in) override {
        if (in->pipe != ir::Pipe::Scalar && !m_core.has_pipe(in->pipe))
            throw NotRecordable{"an instruction for a pipe the core lacks"};
        if (m_s.instrs.size() >= kMaxRecordedInstrs) throw NotRecordable{"too many instructions to record"};
        add(LaneStream::Op::Issue, static_cast<uint32_t>(m_s.instrs.size()));
        m_s.instrs.push_back(std::move(in));
    }
    void wait_instrs(const std::vector<uint32_t>&) override { throw NotRecordable{"the scalar unit reads tile data"}; }
    void await_ring(CrossCorePipe& r, const ir::Expr& c, const ir::Stmt& s, int dir) override {
        add(LaneStream::Op::AwaitRing, static_cast<uint32_t>(m_s.ring_waits.size()));
        m_s.ring_waits.push_back({&r, &c, &s, dir});
    }
    void configure_ring(int dir, int64_t id, int64_t slot_num, int64_t slot_size, const ir::Stmt& s) override {
        add(LaneStream::Op::ConfigureRing, static_cast<uint32_t>(m_s.ring_setups.size()));
        m_s.ring_setups.push_back({dir, id, slot_num, slot_size, &s});
    }
    void finding(const std::string& code, const ir::Stmt& s, const std::string& msg) override {
        add(LaneStream::Op::Finding, static_cast<uint32_t>(m_s.notes.size()));
        m_s.notes.push_back({code, &s, msg});
    }
    void needs_live(const char* why) override { throw NotRecordable{why}; }

    void finish() {
        flush();
        // Every tile an instruction uses, views' sources included, with how many uses it has and what it
        // starts a schedule with (its bytes as the walk left them: zeros, or a pl.tensor.write's value).
        auto note = [&](const TileRef& t) {
            for (TileRef x = t; x; x = x->view_src) {
                if (x->uses++ == 0) {
                    m_s.tiles.push_back(x);
                    m_s.tile_start.push_back({x->bytes, x->vr, x->vc});
                    std::vector<uint32_t>().swap(x->readers);  // the walk's dependency bookkeeping, done with
                }
            }
        };
        for (const auto& in : m_s.instrs) {
            for (const TileRef& t : in->in) note(t);
            note(in->out);
        }
    }

  private:
    void flush() {
        if (m_pending == 0) return;
        m_s.actions.push_back({LaneStream::Op::Statements, 0, m_pending});
        m_pending = 0;
    }
    void add(LaneStream::Op op, uint32_t index) {
        m_s.actions.push_back({op, index, m_pending});
        m_pending = 0;
    }

    LaneStream& m_s;
    const CoreBase& m_core;
    uint64_t m_pending = 0;  // statements walked since the last action
    uint64_t m_statements = 0;
};

}  // namespace

bool record_stream(const WalkContext& cx, const rt::LaneProgram& prog, const CoreBase& core, LaneStream& out,
                   std::string& why) {
    out = LaneStream{};
    StreamRecorder rec(out, core);
    try {
        LaneWalker walker(cx, prog, rec);
        walker.run();
        rec.finish();
    } catch (const NotRecordable& e) {
        why = e.why;
        out = LaneStream{};
        return false;
    } catch (const std::exception& e) {
        // What the walk throws is thrown again by the live walk, where it is reported as it always was.
        why = e.what();
        out = LaneStream{};
        return false;
    }
    return true;
}

StreamExecutor::StreamExecutor(LaneStream& s, DataEngine& engine, int after, int chip)
    : m_s(s), m_engine(engine), m_core(engine.core()), m_after(after), m_chip(chip) {
    // The tiles as a live walk creates them.
    for (size_t i = 0; i < m_s.tiles.size(); ++i) {
        TileBuf& t = *m_s.tiles[i];
        const LaneStream::TileStart& st = m_s.tile_start[i];
        t.bytes = st.bytes;
        t.vr = st.vr;
        t.vc = st.vc;
        t.clean = false;
        t.slot = -1;
        t.slot_gen = -1;
        t.slot_writes = 0;
        t.uses_left = t.uses;
    }
}

bool StreamExecutor::step(Step& w) {
    if (!m_dispatched) {
        // Waves: a block beyond the chip's clusters waits until enough blocks finished.
        if (m_after > 0 && !m_waiting && !m_engine.dispatch_ready(m_after, m_chip)) m_waiting = true;
        if (m_waiting) {
            if (m_engine.state().machine->blocks_done() < m_after) {
                w = Step::event(m_engine.state().machine->dispatch_event());
                return false;
            }
            m_engine.dispatch_wait_done();
            m_waiting = false;
        }
        m_dispatched = true;
    }
    const size_t n = m_s.actions.size();
    while (m_pc < n) {
        const LaneStream::Action& a = m_s.actions[m_pc];
        if (!m_started) {
            m_started = true;
            m_left = a.statements;
        }
        if (m_left > 0 && !m_core.statements_step(m_left, w)) return false;
        switch (a.op) {
            case LaneStream::Op::Statements:
                break;
            case LaneStream::Op::Issue:
                if (!m_issue.in) {
                    m_issue = CoreBase::IssueOp{};
                    m_issue.in = m_s.instrs[a.index].get();
                }
                if (!m_core.issue_step(m_issue, w)) return false;
                m_issue.in = nullptr;
                break;
            case LaneStream::Op::AwaitRing: {
                const LaneStream::RingWait& rw = m_s.ring_waits[a.index];
                if (!m_waiting) {
                    if (m_engine.ring_ready(*rw.ring, *rw.call, *rw.stmt, rw.dir)) break;
                    m_waiting = true;
                }
                if (!rw.ring->configured()) {
                    w = Step::event(rw.ring->changed());
                    return false;
                }
                m_engine.ring_wait_done();
                m_waiting = false;
                break;
            }
            case LaneStream::Op::ConfigureRing: {
                const LaneStream::RingSetup& rs = m_s.ring_setups[a.index];
                m_engine.configure_ring(rs.dir, rs.id, rs.slot_num, rs.slot_size, *rs.stmt);
                break;
            }
            case LaneStream::Op::Finding: {
                const LaneStream::Note& note = m_s.notes[a.index];
                m_engine.runtime_finding(note.code, *note.stmt, note.message);
                break;
            }
        }
        ++m_pc;
        m_started = false;
    }
    return true;
}

}  // namespace cvsim::sim
