// The verdict oracle: an independent reference for "does this expanded program race or deadlock" (issue 10).
//
// It shares no code with the happens-before checker (sim/check/) nor with the lane executor (sim/): it reads
// the launch plan of an EXPANDED program (frontend IR only), walks every launched lane (AIC, AIV0, AIV1 of
// each block) with its own small evaluator of loops, branches and scalars, and turns each lane into its
// instructions: GM reads and writes (tensor, absolute element box, atomic flag), ring slot traffic, push /
// pop / free, sync_set / sync_wait, syncall arrival / departure and fences, each with the pipe it runs on and
// the same-core instructions it waits for (SPEC 4.1: same pipe in order, the scalar unit blocks on its own
// instructions, tile storage and GM dependencies, drains).
//
// The primitives are monotone (blocking FIFOs with slot_num slots, counting flags, barriers), so the k-th pop
// consumes the k-th push, the k-th wait the k-th set, the n-th departure needs every n-th arrival: the
// happens-before graph is the same in every interleaving (control flow and addresses here never depend on
// data). The oracle runs every lane greedily over that graph (an instruction fires once its same-core
// predecessors and its cross-core partners fired; anything left = deadlock), then two conflicting accesses
// of different cores race iff neither reaches the other. `cross_check` recomputes every ordering a second
// way, the interleaving way: "b can happen before a" iff with a frozen, running everything else to maximal
// progress executes b (a's publishing fence frozen instead of a under a visibility delay).
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/params.h"
#include "frontend/runtime.h"

namespace cvsim::oracle {

struct Options {
    Target target = Target::A2A3;
    uint64_t visibility_delay = 0;  // > 0: a GM write is published to other cores only by a later fence of its core
    int chip_clusters = 24;         // a hard syncall waits for every physical core: fewer blocks = deadlock
    int slot_num_one_dir = 8;       // *_initialize_pipe defaults (sync.slot_num_one_dir / _both)
    int slot_num_both = 4;
    bool cross_check = false;  // recompute every ordering by freezing (slow: one greedy run per pair)
};

// One racing pair, by GM tensor (or ring slot memory) and the two source lines (first <= second).
struct RaceKey {
    std::string tensor;
    uint32_t line_a = 0, line_b = 0;
    auto operator<=>(const RaceKey&) const = default;
};

struct Race {
    RaceKey key;
    std::string kind;      // RAW / WAR / WAW (by lane-independent source order: the earlier line first)
    std::string describe;  // "RAW scratch[0:16, 0:64]: AIV0 write at line 14 / AIC read at line 17"
    int write_core = -1;   // 0 AIC, 1 AIV0, 2 AIV1: the core of a write of the pair (the first one for WAW)
    int other_core = -1;   // the other access's core
    bool other_write = false;
};

// One GM access of the analysed program (for properties that ask what the expansion still does).
struct AccessSite {
    std::string tensor;
    uint32_t line = 0;
    int core = 0;  // 0 AIC, 1 AIV0, 2 AIV1
    bool write = false;
    auto operator<=>(const AccessSite&) const = default;
};

struct Verdict {
    std::set<AccessSite> accesses;  // every access site that ran (ring slots included)
    bool deadlock = false;
    std::vector<std::string> blocked;  // each core's first instruction that never ran
    std::vector<Race> races;           // every racing pair (among instructions that ran)
    std::set<RaceKey> race_keys() const;
    std::set<std::string> race_tensors() const;
    bool oob = false;          // some computed window was outside its tensor (the access is dropped)
    bool unsupported = false;  // a construct the oracle does not model (see `why`)
    std::string why;
    size_t instructions = 0;     // instructions of all lanes
    bool cross_checked = false;  // `cross_check` ran and agreed (a disagreement throws std::logic_error)
};

// Analyses the launch of an expanded program. `tensors` is the bound GM (names and shapes; plan.*->args
// index it). Never throws for a modelled program; a construct it cannot follow sets `unsupported`.
Verdict analyze(const rt::LaunchPlan& plan, const rt::TensorStore& tensors, const Options& opt);

std::string format_verdict(const Verdict& v);

}  // namespace cvsim::oracle
