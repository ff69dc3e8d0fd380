// Human-readable and JSON reports of runs, explorations and expander statistics.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/passes/timing_scope.h"
#include "frontend/reference.h"
#include "sim/explore.h"
#include "sim/session.h"

namespace cvsim::cli {

void print_run_report(std::ostream& os, const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want, bool verbose);
nlohmann::json run_json(const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want);

void print_expand_stats(std::ostream& os, const passes::ExpandStats& st);
nlohmann::json stats_json(const passes::ExpandStats& st);

// What a verdict proves (SPEC 6): every schedule, or the explored ones with the PCT bound when one applies.
struct VerdictScope {
    bool all_schedules = false;          // the verdict holds for every schedule
    std::vector<std::string> reasons;    // why it does not (static: data-dependent control/addresses; run time)
    std::string qualifier;               // the visibility model the claim is made in
    bool has_pct_bound = false;
    int pct_depth = 0;
    uint64_t pct_events = 0;             // k
    int pct_cores = 0;                   // n
    uint64_t pct_schedules = 0;          // PCT schedules explored
    double pct_hit = 0;                  // per-schedule lower bound 1/(n k^(d-1)) of finding a depth-d bug
    double pct_miss = 1;                 // (1 - hit)^schedules
};
// `statics` is the static analysis of the lane programs; `strategy` the explored strategy; `visibility`
// the fixed delay (`--visibility-delay`) and `max_visibility` the drawn range.
VerdictScope verdict_scope(const passes::TimingScope& statics, const ExploreSummary& sum, const sim::Schedule& strategy,
                           uint64_t visibility, uint64_t max_visibility);

void print_explore_summary(std::ostream& os, const std::string& kernel, const ExploreSummary& sum, bool is_check,
                           const VerdictScope* scope = nullptr);
nlohmann::json explore_json(const std::string& kernel, const ExploreSummary& sum, const VerdictScope* scope = nullptr);

}  // namespace cvsim::cli
