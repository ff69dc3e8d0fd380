// One launched core for one schedule: its data engine (what instructions do, sim/data_engine.h) and the
// source of its instructions: a recorded stream the core replays in method mode (sim/lane_stream.h), or
// the lane walker running live on the core's scalar thread (sim/lane_walker.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/data_engine.h"
#include "sim/lane_stream.h"
#include "sim/lane_walker.h"

namespace cvsim::sim {

class CoreRunner {
  public:
    // `stream`: the core's recorded stream (method mode), or nullptr (the walker, live).
    CoreRunner(RunState& st, int cluster, CoreId core, const rt::LaneProgram& prog, bool replay, int lane,
               int aiv_lanes, LaneStream* stream);
    ~CoreRunner();
    CoreRunner(const CoreRunner&) = delete;
    CoreRunner& operator=(const CoreRunner&) = delete;

    // Gives the core its engine and program; `after` blocks must finish before it starts (waves of `chip`).
    void install(int after, int chip);

    CoreBase& model() { return m_engine.core(); }
    DataEngine& engine() { return m_engine; }
    bool replay() const { return m_engine.replay(); }
    std::vector<std::string> blocked() const { return m_engine.blocked(); }
    bool blocked_in_hard_syncall() const { return m_engine.blocked_in_hard_syncall(); }
    bool blocked_in_syncall() const { return m_engine.blocked_in_syncall(); }
    void set_runner_index(int i) { m_engine.set_runner_index(i); }

  private:
    class LiveSink;
    void run_live(int after, int chip);

    const rt::LaneProgram& m_prog;  // the plan's (it outlives the schedule)
    WalkContext m_cx;
    DataEngine m_engine;
    LaneStream* m_stream;
    std::optional<StreamExecutor> m_exec;
};

}  // namespace cvsim::sim
