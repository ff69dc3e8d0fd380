// Exploration internals shared by explore.cpp (records, the in-process loop), explore_workers.cpp (the
// supervisor of the worker processes) and explore_worker_process.cpp (a worker process).
#pragma once

#include <atomic>
#include <cstdint>
#include <set>
#include <string>

#include "app/explore.h"

namespace cvsim::cli {

// One schedule's result as a record; `reported`: keys this worker reported already (their full finding is
// not repeated), nullptr: report every finding in full.
ScheduleRecord to_record(const sim::ScheduleResult& r, std::set<std::string>* reported);
// A worker's record for its supervisor: a clean schedule as "C ..." numbers, any other as "R" and its JSON.
std::string record_line(const ScheduleRecord& r, const std::string& kernel);
// The record a "C ..." line stands for (the one record_from_json gives for its JSON).
ScheduleRecord clean_record_from_line(const std::string& line);
// A finding of a schedule that ran into the wall-time bound (--timeout): the program is too long for the bound, so
// every further schedule would run just as long to the same E-TIMEOUT; the exploration stops there (the run has
// failed already). Only the wall-time bound: a simulated-time or work bound is a property of the schedule, and
// stopping on it would make the explored count depend on the workers' timing.
bool hit_wall_time_bound(const std::vector<sim::Finding>& findings);
// The schedule of `seed` in an exploration from `base`.
sim::Schedule schedule_for(const sim::Schedule& base, const ExploreOptions& e, uint64_t seed);

// The seed each worker is running, in memory shared with the supervisor (one slot per chunk; 0: none,
// else seed + 1), so that a crash is attributed to its schedule without a pipe write per schedule.
using RunningSlot = std::atomic<uint64_t>;
static_assert(RunningSlot::is_always_lock_free, "the running-seed slots are shared between processes");

// The worker process of one chunk (explore_worker_process.cpp): runs seeds LO..HI-1 but SKIP of kernel KERNEL
// (the nominal schedule first; its record too when REPORT_NOMINAL), storing the running seed in RUNNING and
// writing its records to FD; never returns.
[[noreturn]] void worker_main(int fd, const CommonOptions& c, const std::string& kernel, const ExploreOptions& e,
                              const sim::Schedule& base, uint64_t lo, uint64_t hi, const std::set<uint64_t>& skip,
                              bool report_nominal, RunningSlot* running);

}  // namespace cvsim::cli
