// A lane's instruction stream, recorded once per session and replayed by every schedule (method mode).
//
// When nothing the walk computes depends on run-time data (no pl.tile.read / pl.tensor.read feeds it, no
// odd C2V split), the lane walker's output is the same in every schedule: the k-th instruction a core
// issues is the same static instruction with the same dependencies, windows and operands (the premise of
// the memo, sim/data_memo.h). The recorder runs the walker once, before the first schedule, and keeps what
// it did as actions: statements walked (their scalar cost), instructions issued, rings configured or waited
// for, findings. The executor replays the actions on the core's scalar unit in method mode, re-using the
// recorded instructions and tiles (reset per schedule): no IR walk, no scalar evaluation, no dependency
// derivation, no allocation of instructions or tiles per schedule. What depends on the schedule (slots,
// data, tokens, timing) is the data engine's, at run time, exactly as in a live walk.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/core_base.h"
#include "sim/data_engine.h"
#include "sim/lane_walker.h"

namespace cvsim::sim {

struct LaneStream {
    enum class Op : uint8_t { Statements, Issue, AwaitRing, ConfigureRing, Finding };
    // Walk `statements` statements (their scalar cost), then do `op` (Statements: nothing more).
    struct Action {
        Op op = Op::Statements;
        uint32_t index = 0;  // Issue: instrs; AwaitRing: ring_waits; ConfigureRing: ring_setups; Finding: notes
        uint64_t statements = 0;
    };
    struct RingWait {
        CrossCorePipe* ring = nullptr;
        const ir::Expr* call = nullptr;
        const ir::Stmt* stmt = nullptr;
        int dir = 0;
    };
    struct RingSetup {
        int dir = 0;
        int64_t id = 0, slot_num = 0, slot_size = 0;
        const ir::Stmt* stmt = nullptr;
    };
    struct Note {
        std::string code;
        const ir::Stmt* stmt = nullptr;
        std::string message;
    };
    struct TileStart {  // a tile as a schedule starts with it
        TileBytes bytes;
        int64_t vr = 0, vc = 0;
    };
    std::vector<Action> actions;
    std::vector<std::unique_ptr<SimInstr>> instrs;
    std::vector<TileRef> tiles;         // every tile an instruction uses (views' sources included)
    std::vector<TileStart> tile_start;  // per tile
    std::vector<RingWait> ring_waits;
    std::vector<RingSetup> ring_setups;
    std::vector<Note> notes;
};

// The streams of one session's launch, recorded at its first schedule: one per launched core, or none when a
// lane cannot be recorded (then every schedule walks live, on threads).
struct StreamCache {
    enum class State : uint8_t { Unknown, Ready, Unsupported };
    State state = State::Unknown;
    std::string why;                                  // Unsupported: the first reason
    std::map<std::pair<int, int>, LaneStream> lanes;  // (cluster, core id) -> stream
    void clear() {
        state = State::Unknown;
        why.clear();
        lanes.clear();
    }
};

// Records `prog`'s walk on one core into `out`; false (with `why`) when the walk needs run-time values.
bool record_stream(const WalkContext& cx, const rt::LaneProgram& prog, const CoreBase& core, LaneStream& out,
                   std::string& why);

// Replays a stream on the core's scalar unit (method mode); resets the stream's tiles for this schedule.
class StreamExecutor : public ScalarProgram {
  public:
    StreamExecutor(LaneStream& s, DataEngine& engine, int after, int chip);
    bool step(Step& w) override;

  private:
    LaneStream& m_s;
    DataEngine& m_engine;
    CoreBase& m_core;
    int m_after, m_chip;  // waves: blocks that must finish before this one starts
    bool m_dispatched = false;
    size_t m_pc = 0;            // the action being run
    bool m_started = false;     // it began (its statements are counted in m_left)
    bool m_waiting = false;     // AwaitRing / dispatch: the wait began
    uint64_t m_left = 0;        // statements still to walk before the op
    CoreBase::IssueOp m_issue;  // Issue: its progress (in: null before it began)
};

}  // namespace cvsim::sim
