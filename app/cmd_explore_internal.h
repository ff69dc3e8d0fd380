// explore and check as a class: ExploreCommand (the command over its kernel files) and its KernelCheck (one file's
// entries, sampled values and sizes); cmd_explore.cpp and cmd_explore_sizes.cpp. Private to those two files.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "app/cli_internal.h"
#include "app/explore.h"

namespace cvsim::cli {

// Sizes of pl.dynamic symbols, by name.
using DimSizes = std::vector<std::pair<std::string, int64_t>>;

// The first out-of-bounds finding of SUM's nominal schedule (nullptr: none); RACE: whether the run raced.
const DistinctFinding* nominal_oob(const ExploreSummary& sum, bool* race = nullptr);

// A bound was hit: a schedule's E-TIMEOUT, or the reference's (an E-UNCHECKED that names it).
bool bound_hit(const DistinctFinding& d);

// Whether SUM found something and all of it is a bound hit: E-TIMEOUT, or E-UNCHECKED (the reference interpreter's
// own wall-time bound; at an extra sampled value, anything else that leaves a kernel unchecked was found before).
bool only_timeouts(const ExploreSummary& sum);

// A kernel of one entry: its Orchestration function (several in a file) and its name.
std::string retry_key(const CheckEntry& x);

// " [ENTRY]" of an entry with a name ("" otherwise).
std::string entry_tag(const CheckEntry& ent);

// "N=16, M=16".
std::string size_text(const DimSizes& dims);

// `cvsim explore` / `cvsim check` (cmd_explore): the options checked, every kernel file in turn, the closing line
// of a file of several kernels and the exit code.
class ExploreCommand {
  public:
    ExploreCommand(const CommonOptions& c, const ExploreOptions& e, bool is_check);
    int run();

  private:
    class KernelCheck;

    // The options checked (std::invalid_argument), and the fixed visibility delay.
    void validate();
    // The JSON report so far, marked interrupted; kExitInterrupted.
    int interrupted_exit();
    // The closing line of a file of several kernels.
    void print_file_verdict();

    const CommonOptions& m_c;
    const ExploreOptions& m_e;
    const bool m_is_check;
    sim::Schedule m_base;  // --strategy
    // The fixed visibility delay of every schedule that draws none: the option, else the parameter.
    uint64_t m_fixed_visibility = 0;
    nlohmann::json m_report = nlohmann::json::array();
    bool m_any_findings = false;
    bool m_any_unread = false;  // a kernel of a multi-launch file that gave a diagnostic instead of a verdict
    // For the closing line of a file of several kernels (its last lines are otherwise one kernel's verdict, which
    // may read PASS when another kernel, or the launches, failed).
    bool m_several = false;
    int m_verdicts = 0, m_verdicts_found = 0, m_diag_found = 0;
};

// One kernel file of an ExploreCommand: its entries in turn (with the retries at smaller defaulted sizes and the
// sampled sizes they queue), the sampled scalar values' bookkeeping, the reports. Each method returning bool
// returns true when the exploration was interrupted (the command then ends with kExitInterrupted).
class ExploreCommand::KernelCheck {
  public:
    KernelCheck(ExploreCommand& cmd, const std::string& kernel);
    bool run();

  private:
    // ---- Entries and their reports (cmd_explore.cpp) ----
    void collect_entries();
    bool check_entry(const CheckEntry& ent);
    // "FILE [ENTRY: KERNEL ...]" for several entries of one file, else FILE.
    std::string label_of(const CheckEntry& ent) const;
    // E-UNCHECKED for an entry whose launch cvsim cannot bind (thrown as CompileError).
    void raise_unchecked(const CheckEntry& ent) const;
    ExploreSummary explore_entry(const CheckEntry& ent, std::shared_ptr<sim::Session>& session);
    ExploreSummary explore_with(const CheckEntry& ent, const ExploreOptions& eo,
                                std::shared_ptr<sim::Session>& session);
    bool on_diagnostic(const CheckEntry& ent, const CompileError& err);
    bool on_summary(const CheckEntry& ent, const std::string& label, const ExploreSummary& sum,
                    const std::shared_ptr<sim::Session>& session);
    bool emit(const CheckEntry& ent, const std::string& label, const ExploreSummary& sum);
    bool report_entry(const CheckEntry& ent, const std::string& label, const ExploreSummary& sum);
    void skip_extra(const CheckEntry& ent, const std::string& why, bool counted);
    void reject_sample(const CheckEntry& ent, const std::string& why);
    bool finish();
    void report_unchecked_samples();
    void note_sizes_checked();

    // ---- Defaulted dims: retries at smaller sizes, sampled sizes (cmd_explore_sizes.cpp) ----
    std::string dims_text(int level) const;
    bool push_level(const std::string& name, int level);
    bool defer_default(const CheckEntry& ent, const std::string& why, std::function<bool()> report_it);
    bool retry_done(const CheckEntry& ent, bool taken);
    bool queue_combo(const DimSizes& combo, int* queued_here = nullptr);
    void queue_sizes();
    void size_entry_done(const CheckEntry& ent, bool taken);
    // A sampled size's run: no verdict (true) when the nominal run falls outside a tensor or every finding is
    // a bound hit.
    static bool size_not_taken(const ExploreSummary& sum) { return nominal_oob(sum) || only_timeouts(sum); }

    ExploreCommand& m_cmd;
    const CommonOptions& m_c;
    const ExploreOptions& m_e;
    const std::string& m_kernel;

    DimSizes m_defaulted;  // the pl.dynamic symbols cvsim defaulted, with their size
    // A deque: entries are appended while it is walked (retries at smaller defaulted dims) and references into it
    // (m_sample_first) stay valid.
    std::deque<CheckEntry> m_entries;
    bool m_per_launch = false;  // several entries, or one other than the file's own

    // Sampled scalars (app/sampling.h): a value the kernel does not take (E-OOB at compile time or in the
    // nominal schedule) is no verdict value; a kernel none of whose samples it takes gets E-UNCHECKED.
    std::map<int, int> m_sample_taken, m_sample_count, m_sample_rejected;
    std::map<int, std::string> m_sample_why;
    std::map<int, const CheckEntry*> m_sample_first;
    // Per sample group: some entry found something (its extra values are then not tried); the descending chain
    // of extra values reached a value the kernel takes (the smaller ones are not tried).
    std::map<int, bool> m_sample_found, m_chain_done;
    // A value of the chain whose nominal run raced out of bounds: reported when no smaller value stays in bounds
    // (a race can be what put the window out of bounds; a smaller value shows a race without that artefact).
    struct ChainFallback {
        const CheckEntry* ent;
        std::string label;
        ExploreSummary sum;
        std::shared_ptr<sim::Session> session;  // in-process: the findings point into its source file
    };
    std::map<int, ChainFallback> m_chain_fallback;

    // Defaulted dims (docs/DECISIONS.md, "A size cvsim defaulted that the kernel does not take"): the pl.dynamic
    // symbols no --dim and no shape of the program bind are a guess (kDefaultDim). When the guess puts a
    // window of a kernel out of bounds in the nominal schedule, the kernel is also checked with those symbols
    // halved, down to the first size whose nominal run stays in bounds, and that verdict is reported too. The
    // default's reports are kept and always given after it (a smaller size can hide what the default found:
    // a launch that is out of bounds at every size, a loop a small size skips; found by review).
    // Sizes cvsim defaulted are sampled (queue_sizes): the kernels (by retry_key) whose entries at the
    // default found something or gave no verdict, and those a sampled size found something in.
    std::set<std::string> m_size_dirty, m_size_found;
    struct DimRetry {
        int level = 0;                                // the size tried last: kDefaultDim >> level
        int pending = 0;                              // its entries not run yet
        bool taken = false;                           // some entry of a retry stayed in bounds
        std::string why;                              // the default's first out-of-bounds message
        std::vector<std::function<bool()>> deferred;  // the default's reports (true: interrupted)
    };
    std::map<std::string, DimRetry> m_retries;  // by retry_key

    // Sizes cvsim defaulted are sampled (docs/DECISIONS.md): a kernel clean at the size(s) cvsim made up can
    // race at another (a window at N - 16 meets one at 0 only when N = 16; a loop over N // 16 runs once;
    // `if N <= 32`). Once every entry at the default ran, the launches of the kernels that found nothing there
    // are checked again at other sizes of those symbols, each size a small run; a size the kernel does not
    // take (it does not compile, or its nominal run falls outside a tensor) or whose schedules only hit the
    // wall-time bound is no verdict, and a size that finds something is that kernel's verdict.
    std::vector<std::string> m_size_taken, m_size_skipped;  // the sizes checked, and those no launch took
    std::vector<std::string> m_size_over_budget;            // sizes whose schedules only exceeded the probe's bound
    // A kernel not checked at the default size because a scalar of its launch comes from a size cvsim made up
    // (pl.tensor.dim of a defaulted dim): its E-UNCHECKED waits for the other sizes, and a size at which the
    // kernel is launched with known scalars and checked replaces it (docs/DECISIONS.md, "A symbol the
    // orchestration computes"). By kernel: the reports kept, and the kernels a sampled size checked.
    std::map<std::string, std::vector<std::function<bool()>>> m_unchecked_deferred;
    std::set<std::string> m_size_checked_kernels;
    int m_widest = 1;  // --jobs 0: the machine is elaborated for the default's widest launch
    // A launch at a size that is the same check as one already run (a kernel the symbol does not reach,
    // launched with the same scalars) is not run again: the signatures run (launch_signature).
    std::set<std::string> m_checked;
    std::vector<DimSizes> m_tried;
    size_t m_queued = 0;
    bool m_capped = false;
    // With several symbols, a size at which all of them together launch something but no launch takes it (its
    // nominal run falls outside a tensor): by its text, the size, its launches not run yet, whether one took it.
    struct SizeGroup {
        int64_t value = 0;
        int pending = 0;
        bool taken = false;
    };
    std::map<std::string, SizeGroup> m_size_groups;
};

}  // namespace cvsim::cli
