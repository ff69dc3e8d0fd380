// The one pass pipeline: from a kernel file to the expansion `expand` prints and the launches `run`, `check`
// and `explore` simulate. Every command that reads a kernel runs these passes in this order, with an IR
// verify step after each pass that makes a program, so what one command accepts the others accept too
// (docs/DECISIONS.md, "One pass pipeline").
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/params.h"
#include "frontend/launch.h"
#include "frontend/sema.h"
#include "frontend/source.h"

namespace cvsim {

struct PassInfo {
    std::string_view name;  // as printed by `expand -v` and in --json "passes"
    std::string_view does;
};
// The passes, in the order they run.
const std::vector<PassInfo>& pipeline_passes();

// One pass as it ran: its name, what it ran on and its statistics.
struct PassRecord {
    std::string name;
    std::string scope;  // "" the file; "printed" expand's whole-program expansion; else the launch's entry
    std::vector<std::pair<std::string, int64_t>> stats;
};

struct PipelineOptions {
    SemaOptions sema;
    std::string entry;             // --entry ("": the default entry)
    HwParams hw;                   // with --config, --set and --visibility-delay applied
    passes::ExpandOptions expand;  // policy, target, --blocks (sim::expand_options)
    // `expand`: also the whole program's expansion (every mixed function, as written: what it prints),
    // launched on the launch's own core_num when the entry's launches agree on one (launch_width).
    bool printed = false;
    // Which launches the launch passes (compile .. gm-budget) run on. false (run, check, explore): the entry's
    // one launch, E-ENTRY when there is none. true (expand): every launch `check` checks, each kernel an
    // orchestration entry launches (with its core_num) or else the entry; none when the file has no entry
    // to choose (expand prints every function), and a launch stops after `compile` when cvsim does not
    // simulate it (E-UNSUPPORTED there: distributed state, no numeric dtype, ...; expand still prints it).
    bool every_launch = false;
    HostInputs host;  // every_launch: the host walk's inputs, as check's (defaulted_dims: filled from sema)
    // The board toolchain's store-layout rule (check_expanded_for_hardware): expand leaves it out.
    bool store_layouts = true;
    // gm-budget: the GM a launch allocates against cvsim's bound (a limit of the simulator, not of the
    // program): run/check/explore, which allocate it; `expand` allocates nothing and prints real models whose
    // weights are gigabytes (the pass records the bytes, or `over_bound`).
    bool gm_budget = true;
    // capacity and the printed expansion on the functions a kernel entry reaches, not the whole file (check's
    // kernel sessions and their verdict scope: a whole-model file holds hundreds of kernels, and another kernel's
    // tiles or data-dependent branches say nothing about this one). An Orchestration entry reaches every kernel.
    bool reached_only = false;
    // Called after `entry` with the program as read (the commands print their notes there).
    std::function<void(const ir::Program&)> after_sema;
};

struct PipelineResult {
    std::shared_ptr<ir::Program> program;  // as read
    std::shared_ptr<ir::Program> printed;  // PipelineOptions::printed: the whole-program expansion
    passes::ExpandStats printed_stats;
    int printed_blocks = 1;
    std::vector<Compiled> launches;  // one per launch the launch passes ran on (none kept with every_launch)
    std::vector<RingLayout> rings;   // each launch's ring tensor layout (ring-layout)
    std::vector<PassRecord> passes;  // in the order they ran
};

// Throws CompileError at the first diagnostic (E-INTERNAL when a verify step fails).
PipelineResult run_pipeline(const std::shared_ptr<SourceFile>& file, const PipelineOptions& opt);

// The IR verify step: structural invariants every pass keeps (unique function names, no null statement or
// expression where one is required, every op call has its op). E-INTERNAL naming AFTER (the pass) otherwise.
void verify_program(const ir::Program& p, std::string_view after);

// The launch's GM (entry tensors, created tensors, each cluster's ring buffers) against cvsim's GM bound:
// E-CAPACITY before anything is allocated. Returns the bytes.
int64_t check_gm_budget(const rt::LaunchPlan& plan, const RingLayout& rings);

// "pass NAME [SCOPE]: k v, k v\n" per record (`expand -v`).
std::string format_pass_records(const std::vector<PassRecord>& records);

}  // namespace cvsim
