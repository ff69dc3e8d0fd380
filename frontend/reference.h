// The reference interpreter (SPEC 7): logical tiles, no layouts, no timing.
#pragma once

#include <optional>
#include <string>

#include "frontend/runtime.h"

namespace cvsim::ref {

struct Result {
    rt::TensorStore gm;                     // final GM contents
    std::optional<rt::RuntimeError> error;  // a run-time error (E-OOB, E-DEADLOCK, E-PIPE-...) if the run failed
    uint64_t statements = 0;                // statements executed (all lanes)
};

struct Options {
    uint64_t max_statements = 200'000'000;  // bound on work, so a runaway loop ends with an error, not a hang
    double max_wall_seconds = 0;            // wall-time bound of one interpretation (0: none), E-TIMEOUT
    uint64_t max_work = 0;  // deterministic bound: statements plus tile elements computed, moved (0: none), E-TIMEOUT
};

// Runs the plan on `initial` GM contents. A mixed entry (plan.mixed set) is interpreted sequentially, one
// task per cluster, unless it is in per-lane form (attr split_aiv), which runs as its expanded lanes; an expanded
// program runs its lanes cooperatively (each lane until it blocks on a pop or a barrier, round-robin), rings carrying
// logical tiles.
Result interpret(const rt::LaunchPlan& plan, const rt::TensorStore& initial, const Options& opt = {});

// Runs an expanded Group program sequentially-cooperatively even when plan.mixed is set (used to check that
// the expander preserves the original's semantics).
Result interpret_lanes(const rt::LaunchPlan& plan, const rt::TensorStore& initial, const Options& opt = {});

}  // namespace cvsim::ref
