// Human-readable and JSON reports of runs, explorations and expander statistics.
#pragma once

#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "frontend/passes/expand_mixed_kernel.h"
#include "frontend/reference.h"
#include "sim/explore.h"
#include "sim/session.h"

namespace cvsim::cli {

void print_run_report(std::ostream& os, const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want, bool verbose);
nlohmann::json run_json(const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want);

void print_expand_stats(std::ostream& os, const passes::ExpandStats& st);
nlohmann::json stats_json(const passes::ExpandStats& st);

void print_explore_summary(std::ostream& os, const std::string& kernel, const ExploreSummary& sum, bool is_check);
nlohmann::json explore_json(const std::string& kernel, const ExploreSummary& sum);

}  // namespace cvsim::cli
