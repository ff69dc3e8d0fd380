// A simulation session: one kernel file compiled for one set of options, its reference outputs, and any
// number of schedules run on the (once-elaborated) machine, each checked for hazards and wrong outputs.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/params.h"
#include "frontend/launch.h"
#include "frontend/pipeline.h"
#include "frontend/reference.h"
#include "sim/cluster.h"
#include "sim/data_memo.h"
#include "sim/schedule.h"
#include "sim/verdict.h"

namespace cvsim::sim {

class HazardChecker;
struct StreamCache;

struct SessionOptions {
    Target target = Target::A2A3;
    std::vector<std::string> config_files;  // --config
    std::vector<std::string> param_sets;    // --set key=value
    passes::V2CPolicy v2c = passes::V2CPolicy::Fence;
    passes::C2VPolicy c2v = passes::C2VPolicy::Upstream;
    int blocks = 1;
    std::string entry;
    std::map<std::string, int64_t> dims;             // --dim NAME=V: values of pl.dynamic symbols
    uint64_t input_seed = 1;                         // seeds the generated inputs (not the schedule)
    std::map<std::string, std::string> input_files;  // NAME -> FILE.npy
    std::map<std::string, rt::Scalar> scalars;       // NAME -> VALUE for pl.Scalar parameters (a tensor: every element)
    std::map<std::string, int64_t> iotas;            // NAME=iota+K: tensor element i (row-major) is K + i
    std::optional<uint64_t> visibility_delay;        // --visibility-delay; unset: the gm.visibility_delay parameter
    uint64_t max_visibility_delay = 0;  // --max-visibility-delay (explore/check): the expander's reject sees it
    CompareOptions compare;
    uint64_t max_cycles = 200'000'000;
    double max_wall_seconds = 60;
    // Deterministic work bounds (0: none), E-TIMEOUT when exceeded: tile instructions issued per schedule (all
    // cores), and statements plus tile elements of the reference interpretation (frontend/reference.h).
    uint64_t max_instructions = 0;
    uint64_t max_ref_work = 0;
    // Record instruction results for reuse by later schedules (sim/data_memo.h). Off for a session that runs
    // one schedule (`run`): the memo would only hold a copy of every result until the end.
    bool memo = true;
    size_t memo_budget = DataMemo::kDefaultBudget;  // bytes of results the memo keeps (beyond: computed per schedule)
    // Record each lane's instruction stream once and replay it (method mode, sim/lane_stream.h) when the lanes
    // allow it and the session records the memo (many schedules); off: every schedule walks the lanes live on
    // SystemC threads (the same schedule, cycle for cycle; CVSIM_LIVE_WALK=1 turns it off too, for comparisons).
    bool streams = true;
    // Testing (CVSIM_FAULT_OUT_OF_MEMORY_AT=N): std::bad_alloc is thrown inside a core's SystemC process at the
    // N-th instruction of every schedule, as a real allocation failure there would be.
    int64_t fault_out_of_memory_at = -1;
};

// The expander's options for a session's target, policy and launch, with what the hardware parameters decide
// (chip clusters: hard vs soft barriers; flag counters per AIV lane; the slots of the pipes it adds).
passes::ExpandOptions expand_options(Target target, passes::V2CPolicy v2c, int blocks, const HwParams& hw);

// The session's hardware parameters (--config, --set, then --visibility-delay) and expander options (policy,
// --c2v, --blocks; the visibility delay the expander's reject sees: the larger of the parameter and
// --max-visibility-delay). `expand` builds its pipeline options with these too.
HwParams session_params(const SessionOptions& o);
passes::ExpandOptions session_expand_options(const SessionOptions& o, const HwParams& hw);

// `dims` plus the pl.dynamic symbols that --input NAME=FILE.npy gives a size: a tensor parameter NAME whose
// declared extent is a symbol (not bound by --dim) binds it to the file's extent there. A symbol used only
// in an expression (M // 16) is not bound this way.
std::map<std::string, int64_t> dims_from_inputs(const std::shared_ptr<SourceFile>& file,
                                                const std::map<std::string, int64_t>& dims,
                                                const std::map<std::string, std::string>& input_files);

struct ScheduleResult {
    Schedule schedule;
    RunOutcome outcome;
    std::vector<Finding> findings;  // run-time + races + output comparison
    bool clean() const;             // no finding at all
    uint64_t cycles() const { return outcome.end_cycle; }
};

class Session {
  public:
    // Loads and compiles; throws CompileError (bad input) or ParamError / std::runtime_error.
    Session(std::shared_ptr<SourceFile> file, SessionOptions opt);
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;
    // Whether the schedules replay recorded instruction streams (known after the first schedule ran), and why not.
    bool replays_streams() const;
    std::string streams_off_reason() const;

    const Compiled& compiled() const { return m_compiled; }
    // One `note:` line per dynamic dimension cvsim bound itself (inferred, per-call copy, default), as `check`
    // and `expand` print them.
    const std::vector<std::string>& dim_notes() const { return m_dim_notes; }
    const std::vector<PassRecord>& passes() const { return m_passes; }  // the pipeline's passes as they ran
    const HwParams& hw() const { return m_hw; }
    const SessionOptions& options() const { return m_opt; }
    const rt::TensorStore& initial_gm() const { return m_gm; }
    // The reference outputs (the original program's, sequentially); computed on first use.
    const ref::Result& reference();
    // The expanded program's reference interpretation (lanes cooperatively), for the expander check.
    const ref::Result& expanded_reference();

    // `sched` with its visibility delay resolved (drawn, or this session's fixed delay): what run() runs.
    Schedule resolve(const Schedule& sched) const { return resolve_schedule(sched, m_hw.gm.visibility_delay); }
    // Runs one schedule with the hazard checker and output comparison; `sinks` observe the event stream.
    // The result's schedule is the resolved one (the same record drives the model, the checker, the replay).
    ScheduleResult run(const Schedule& sched, const std::vector<EventSink*>& sinks = {}, int fault_abort_at = -1);
    // The clusters the machine must be elaborated with.
    int clusters_needed() const { return m_compiled.plan.blocks; }
    // Bytes of instruction results the memo keeps (at most its budget plus one result).
    size_t memo_bytes() const { return m_memo.bytes(); }

  private:
    ref::Options ref_options() const;
    SessionOptions m_opt;
    std::shared_ptr<SourceFile> m_file;
    HwParams m_hw;
    std::vector<std::string> m_dim_notes;
    Compiled m_compiled;
    std::vector<PassRecord> m_passes;                         // the pipeline's record of this session's compile
    rt::TensorStore m_gm;                                     // initial GM: kernel tensors, then hidden tensors
    std::vector<uint32_t> m_ring_tensors;                     // hidden ring tensor per cluster
    std::map<std::pair<int, int64_t>, int64_t> m_ring_bases;  // (dir, id) -> byte offset in it
    std::optional<ref::Result> m_ref;
    std::optional<ref::Result> m_ref_expanded;
    std::optional<rt::TensorStore> m_nominal_out;  // nominal schedule's outputs (E-NONDET)
    DataMemo m_memo;                               // instruction results reused across schedules
    std::unique_ptr<StreamCache> m_streams;        // the lanes' recorded instruction streams
    std::shared_ptr<HazardChecker> m_checker;      // reset for each schedule (keeps its storage)
    uint64_t m_gm_image_id = 0;                    // unique per session: names m_gm for the machine's GM restore
    uint64_t m_nominal_events = 0;                 // synchronisation/GM events of the nominal schedule (PCT's k)
};

}  // namespace cvsim::sim
