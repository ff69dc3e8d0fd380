// Human-readable and JSON reports of runs, explorations and expander statistics.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/explore.h"
#include "core/params.h"
#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/passes/timing_scope.h"
#include "frontend/reference.h"
#include "sim/session.h"

namespace cvsim::cli {

// Width of the text reports: $COLUMNS when set, else the terminal's (TIOCGWINSZ on stdout), else 100 when
// stdout is not a terminal; never below 40. Full detail stays in --json.
size_t output_width();
// Wraps every line of TEXT longer than WIDTH at spaces, continuation lines indented 4 more than the line;
// a "replay: <command>" line is wrapped with shell continuations (" \\") so it still pastes as one command.
std::string fit_width(const std::string& text, size_t width);

// Findings that are one mistake repeated (the same code, message and details but for the clusters, the
// cycles and the GM windows they name): the text reports print one of them with a count and the clusters.
struct FindingGroup {
    size_t first = 0;                // index of the representative (the first of the group)
    size_t count = 0;                // findings in the group
    std::vector<uint32_t> clusters;  // clusters the group's findings name, ascending
};
// `rank` (optional, per finding): the representative is the lowest rank, then the lowest clusters.
std::vector<FindingGroup> group_findings(const std::vector<const sim::Finding*>& findings,
                                         const std::vector<uint64_t>& rank = {});
// "0-23", "0-5, 7, 9-12" (at most a few ranges, then "...").
std::string cluster_ranges(const std::vector<uint32_t>& clusters);

// `cvsim params`: the aligned table when it fits WIDTH, else one block per parameter (name = value unit,
// the doc and the source wrapped); `params_json` carries every field.
std::string format_params_text(const std::vector<ParamRow>& rows, size_t width);
nlohmann::json params_json(const HwParams& hw, const std::vector<ParamRow>& rows);

void print_run_report(std::ostream& os, const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want,
                      bool verbose, size_t width = 100);
nlohmann::json run_json(const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want);

void print_expand_stats(std::ostream& os, const passes::ExpandStats& st);
nlohmann::json stats_json(const passes::ExpandStats& st);
// The pipeline's passes as they ran: [{"name", "scope", "stats": {...}}] (frontend/pipeline.h).
nlohmann::json passes_json(const std::vector<PassRecord>& records);

// What a verdict proves (SPEC 6): every schedule, or the explored ones with the PCT bound when one applies.
struct VerdictScope {
    bool all_schedules = false;        // the verdict holds for every schedule
    std::vector<std::string> reasons;  // why it does not (static: data-dependent control/addresses; run time)
    std::string qualifier;             // the visibility model the claim is made in
    bool has_pct_bound = false;
    int pct_depth = 0;
    uint64_t pct_events = 0;     // k
    int pct_cores = 0;           // n
    uint64_t pct_schedules = 0;  // PCT schedules explored
    double pct_hit = 0;          // per-schedule lower bound 1/(n k^(d-1)) of finding a depth-d bug
    double pct_miss = 1;         // (1 - hit)^schedules
};
// `statics` is the static analysis of the lane programs; `strategy` the explored strategy; `visibility`
// the fixed delay (`--visibility-delay`) and `max_visibility` the drawn range.
VerdictScope verdict_scope(const passes::TimingScope& statics, const ExploreSummary& sum, const sim::Schedule& strategy,
                           uint64_t visibility, uint64_t max_visibility);

void print_explore_summary(std::ostream& os, const std::string& kernel, const ExploreSummary& sum, bool is_check,
                           const VerdictScope* scope = nullptr, size_t width = 100);
nlohmann::json explore_json(const std::string& kernel, const ExploreSummary& sum, const VerdictScope* scope = nullptr);

}  // namespace cvsim::cli
