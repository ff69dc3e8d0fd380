// Schedule exploration: many seeds of one strategy, distinct findings with the first seed and frequency.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "sim/cli.h"
#include "sim/session.h"

namespace cvsim::cli {

struct DistinctFinding {
    sim::Finding finding;      // as first seen
    sim::Schedule first;       // the schedule that first showed it
    uint64_t count = 0;        // schedules showing it
    std::string replay;        // command line that replays `first`
};

struct ExploreSummary {
    uint64_t schedules = 0;              // schedules run
    uint64_t failing = 0;                // schedules with at least one finding
    uint64_t wrong_outputs = 0;          // schedules with E-MISMATCH / E-UNWRITTEN
    uint64_t hazards = 0;                // schedules with a race
    uint64_t nominal_cycles = 0;         // cycles of the nominal schedule
    uint64_t min_cycles = 0, max_cycles = 0;
    double wall_seconds = 0;
    std::vector<DistinctFinding> distinct;  // in order of first appearance
};

// Runs the nominal schedule, then `e.schedules` schedules of `base` (seeds e.seed ...).
ExploreSummary explore_kernel(sim::Session& session, const CommonOptions& c, const std::string& kernel,
                              const ExploreOptions& e, const sim::Schedule& base,
                              const std::function<void(uint64_t done)>& progress = {});

}  // namespace cvsim::cli
