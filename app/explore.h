// Schedule exploration: many seeds of one strategy in worker processes under a supervisor, distinct
// findings with the first seed and frequency, shards, resumable JSON lines (SPEC 8).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "sim/session.h"

namespace cvsim::cli {

struct DistinctFinding {
    sim::Finding finding;  // as reported by the schedule with the smallest seed that shows it
    sim::Schedule first;   // that schedule
    uint64_t count = 0;    // schedules showing it
    std::string replay;    // command line that replays `first`
};

struct ExploreSummary {
    uint64_t schedules = 0;       // schedules run (the nominal one included)
    uint64_t failing = 0;         // schedules with at least one finding
    uint64_t wrong_outputs = 0;   // schedules with E-MISMATCH / E-UNWRITTEN
    uint64_t hazards = 0;         // schedules with a race
    uint64_t crashes = 0;         // schedules that killed their worker (E-CRASH)
    uint64_t skipped = 0;         // seeds already in the --jsonl file (resumed)
    bool interrupted = false;     // SIGINT/SIGTERM stopped the run: a partial summary
    bool wall_time_stop = false;  // stopped early: a schedule ran into the wall-time bound (--timeout)
    uint64_t nominal_cycles = 0;  // cycles of the nominal schedule
    uint64_t nominal_events = 0;  // synchronisation/GM events of the nominal schedule (PCT's k)
    int nominal_cores = 0;        // cores launched (PCT's n)
    uint64_t min_cycles = 0, max_cycles = 0;
    double wall_seconds = 0;
    int jobs = 1;                           // worker processes used
    long peak_rss_kb = 0;                   // peak resident memory of this process (getrusage RUSAGE_SELF)
    long workers_peak_rss_kb = 0;           // of the largest worker process reaped (RUSAGE_CHILDREN)
    std::vector<DistinctFinding> distinct;  // ordered by first seed (nominal first)
};

// One schedule's result as a JSON-lines record: seed, strategy, verdict, cycles, finding codes and keys,
// and the full finding for keys the producing worker had not reported before.
struct ScheduleRecord {
    sim::Schedule schedule;
    std::string verdict;  // "clean", "findings", "crash"
    uint64_t cycles = 0;
    uint64_t events = 0;             // nominal schedule only: synchronisation/GM events (PCT's k)
    int cores = 0;                   // nominal schedule only: cores launched (PCT's n)
    std::vector<std::string> codes;  // per finding
    std::vector<std::string> keys;   // per finding (de-duplication identity)
    std::vector<sim::Finding> full;  // findings whose key this worker reports for the first time
};
nlohmann::json record_json(const ScheduleRecord& r, const std::string& kernel);
ScheduleRecord record_from_json(const nlohmann::json& j);

// Folds records into a summary (order-independent: the same records in any order give the same summary).
class SummaryBuilder {
  public:
    void add(const ScheduleRecord& r);
    ExploreSummary finish(const CommonOptions& c, const std::string& kernel);
    size_t distinct_so_far() const { return m_keys.size(); }  // distinct findings folded so far (progress)

  private:
    ExploreSummary m_sum;
    struct Key {
        uint64_t first_seed = UINT64_MAX;  // ordering: nominal first, then by seed
        bool nominal = false;
        sim::Schedule first;
        sim::Finding finding;
        bool have_full = false;
        uint64_t count = 0;
    };
    std::map<std::string, Key> m_keys;
    bool m_any = false;
};

// In-process exploration (the demo; `--jobs 0`): nominal schedule, then `e.schedules` seeds of `base`.
ExploreSummary explore_kernel(sim::Session& session, const CommonOptions& c, const std::string& kernel,
                              const ExploreOptions& e, const sim::Schedule& base,
                              const std::function<void(uint64_t done)>& progress = {});

// Exploration in worker processes (each runs many schedules inside one SystemC elaboration) watched by
// this process: a schedule that crashes its worker is reported with its seed (E-CRASH) and a fresh worker
// resumes at the next seed. Honours --jobs, --shard, --jsonl (resumable), --stop-on-first and the
// progress bar. Throws CompileError for bad input (compiled once here before forking).
ExploreSummary explore_parallel(const CommonOptions& c, const std::string& kernel, const ExploreOptions& e,
                                const sim::Schedule& base);

// `--merge`: the summary of JSON-lines files written by shards (or any runs) of one exploration, as the
// single run over the same seeds would print it. Takes the lines of `kernel` with the nominal schedule or
// `base`'s strategy; a (strategy, seed) present in several files counts once. Throws std::runtime_error on
// an unreadable file and JournalError on a file that is not a journal of this kernel and these options.
ExploreSummary merge_jsonl(const CommonOptions& c, const std::string& kernel, const ExploreOptions& e,
                           const sim::Schedule& base);

// Peak resident memory in KiB of this process and of its largest reaped child (getrusage).
long peak_rss_kb_self();
long peak_rss_kb_children();

}  // namespace cvsim::cli
