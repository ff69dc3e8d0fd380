// explore and check: the schedules of every entry of a kernel file, the sampled values and sizes, the reports.
#include <fmt/format.h>

#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>

#include "app/cli_internal.h"
#include "app/report.h"
#include "app/sampling.h"
#include "frontend/codes.h"
#include "frontend/control_scalars.h"
#include "frontend/launch.h"
#include "frontend/parser.h"
#include "frontend/passes/ir_util.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "traces/chrome_trace.h"

namespace cvsim::cli {

using sim::Finding;

// The first out-of-bounds finding of SUM's nominal schedule (nullptr: none); RACE: whether the run raced.
static const DistinctFinding* nominal_oob(const ExploreSummary& sum, bool* race = nullptr) {
    const DistinctFinding* oob = nullptr;
    for (const auto& d : sum.distinct) {
        if (!oob && d.finding.code == cvsim::codes::kOob && d.first.strategy == sim::Strategy::Nominal) oob = &d;
        if (race) *race |= cvsim::is_race_code(d.finding.code);
    }
    return oob;
}

// Whether SUM found something and all of it is a bound hit: E-TIMEOUT, or E-UNCHECKED (the reference interpreter's
// own wall-time bound; at an extra sampled value, anything else that leaves a kernel unchecked was found before).
static bool only_timeouts(const ExploreSummary& sum) {
    if (sum.distinct.empty()) return false;
    for (const auto& d : sum.distinct)
        if (d.finding.code != cvsim::codes::kTimeout && d.finding.code != cvsim::codes::kUnchecked) return false;
    return true;
}

int cmd_explore(const CommonOptions& c, const ExploreOptions& e, bool is_check) {
    sim::SessionOptions so = session_options(c);
    auto base = sim::parse_schedule(e.strategy);
    if (!base || base->strategy == sim::Strategy::Nominal)
        throw std::invalid_argument(fmt::format("--strategy {}: expected random, pct:D or sweep", e.strategy));
    if (e.max_visibility > 0 && base->strategy != sim::Strategy::Random)
        throw std::invalid_argument(
            fmt::format("--max-visibility-delay: the delay is drawn by --strategy random only, not {}", e.strategy));
    if (e.shard_count < 1 || e.shard_index < 0 || e.shard_index >= e.shard_count)
        throw std::invalid_argument(
            fmt::format("--shard {}/{}: expected I/N with 0 <= I < N", e.shard_index, e.shard_count));
    // The in-process loop (--jobs 0) keeps no journal and runs the whole range: refuse what it would ignore.
    if (e.jobs == 0 && e.merge.empty() && (!e.jsonl.empty() || e.shard_count != 1))
        throw std::invalid_argument("--jobs 0 runs in this process without --jsonl or --shard; use --jobs 1 or more");
    // Seeds base..base+N-1 must not wrap around 2^64 (a wrapped range would never end); the last seed stays
    // below 2^64 - 1 so that seed + 1 is never 0.
    if (e.schedules > UINT64_MAX - 1 - e.seed)
        throw std::invalid_argument(
            fmt::format("--seed {} --schedules {}: the seed range passes 2^64 - 1; use a smaller base seed or budget",
                        e.seed, e.schedules));
    bool any_findings = false;
    // The fixed visibility delay of every schedule that draws none: the option, else the parameter.
    const uint64_t fixed_visibility = c.visibility_delay
                                          ? *c.visibility_delay
                                          : load_params(so.target, so.config_files, so.param_sets).gm.visibility_delay;
    nlohmann::json report = nlohmann::json::array();
    bool any_unread = false;  // a kernel of a multi-launch file that gave a diagnostic instead of a verdict
    // For the closing line of a file of several kernels (its last lines are otherwise one kernel's verdict, which
    // may read PASS when another kernel, or the launches, failed).
    bool several = false;
    int verdicts = 0, verdicts_found = 0, diag_found = 0;
    for (const auto& kernel : e.kernels) {
        // A deque: entries are appended while it is walked (retries at smaller defaulted dims) and references into it
        // (sample_first) stay valid.
        std::vector<std::pair<std::string, int64_t>> defaulted;
        std::deque<CheckEntry> entries;
        if (e.merge.empty())
            for (auto& x : entries_of(c, kernel, &defaulted)) entries.push_back(std::move(x));
        else
            entries.push_back({c, "", "", "", {}, nullptr, "", -1, "", nullptr});
        const bool per_launch =
            entries.size() > 1 || entries[0].opts.entry != c.entry || !entries[0].orchestration.empty();
        several |= entries.size() > 1;
        if (e.jobs == 0 && e.merge.empty() && entries.size() > 1) {
            // In-process: SystemC elaborates once per process, so the machine is built for the widest launch
            // (a narrower one leaves clusters idle); each launch elaborating its own failed from the second on.
            int widest = 1;
            for (const auto& ent : entries) widest = std::max(widest, ent.opts.blocks);
            sim::Machine::instance(widest);
        }
        // Sampled scalars (app/sampling.h): a value the kernel does not take (E-OOB at compile time or in the
        // nominal schedule) is no verdict value; a kernel none of whose samples it takes gets E-UNCHECKED.
        std::map<int, int> sample_taken, sample_count, sample_rejected;
        std::map<int, std::string> sample_why;
        std::map<int, const CheckEntry*> sample_first;
        // Per sample group: some entry found something (its extra values are then not tried); the descending chain
        // of extra values reached a value the kernel takes (the smaller ones are not tried).
        std::map<int, bool> sample_found, chain_done;
        // A value of the chain whose nominal run raced out of bounds: reported when no smaller value stays in bounds
        // (a race can be what put the window out of bounds; a smaller value shows a race without that artefact).
        struct ChainFallback {
            const CheckEntry* ent;
            std::string label;
            ExploreSummary sum;
            std::shared_ptr<sim::Session> session;  // in-process: the findings point into its source file
        };
        std::map<int, ChainFallback> chain_fallback;
        // An extra sampled value the kernel does not take: counted like any sample, without a note of its own.
        auto skip_extra = [&](const CheckEntry& ent, const std::string& why, bool counted) {
            if (!counted) return;
            if (!sample_why.count(ent.sample_group)) sample_why[ent.sample_group] = why;
            ++sample_count[ent.sample_group];
            ++sample_rejected[ent.sample_group];
        };
        auto reject_sample = [&](const CheckEntry& ent, const std::string& why) {
            if (!sample_why.count(ent.sample_group)) sample_why[ent.sample_group] = why;
            ++sample_rejected[ent.sample_group];
            if (!c.quiet)
                std::cerr << fmt::format("note: {} [{}]: {} is not a value it takes ({}); no verdict with it\n", kernel,
                                         ent.opts.entry, ent.sampled, why);
        };
        // Defaulted dims (docs/DECISIONS.md, "A size cvsim defaulted that the kernel does not take"): the pl.dynamic
        // symbols no --dim and no shape of the program bind are a guess (kDefaultDim). When the guess puts a
        // window of a kernel out of bounds in the nominal schedule, the kernel is also checked with those symbols
        // halved, down to the first size whose nominal run stays in bounds, and that verdict is reported too. The
        // default's reports are kept and always given after it (a smaller size can hide what the default found:
        // a launch that is out of bounds at every size, a loop a small size skips; found by review).
        // Sizes cvsim defaulted are sampled (queue_sizes below): the kernels (by retry_key) whose entries at the
        // default found something or gave no verdict, and those a sampled size found something in.
        std::set<std::string> size_dirty, size_found;
        struct DimRetry {
            int level = 0;                                // the size tried last: kDefaultDim >> level
            int pending = 0;                              // its entries not run yet
            bool taken = false;                           // some entry of a retry stayed in bounds
            std::string why;                              // the default's first out-of-bounds message
            std::vector<std::function<bool()>> deferred;  // the default's reports (true: interrupted)
        };
        std::map<std::string, DimRetry> retries;  // by retry_key
        // A kernel of one entry: its Orchestration function (several in a file) and its name.
        auto retry_key = [](const CheckEntry& x) { return x.orchestration + "\x1f" + x.opts.entry; };
        auto tag = [](const CheckEntry& ent) { return ent.opts.entry.empty() ? "" : " [" + ent.opts.entry + "]"; };
        auto dims_text = [&](int level) {
            std::vector<std::string> t;
            for (const auto& dv : defaulted) t.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
            return fmt::format("{}", fmt::join(t, ", "));
        };
        // Queues kernel NAME's launches with the defaulted dims at the first size from kDefaultDim >> LEVEL down
        // that gives any; false when no size down to 1 does.
        auto push_level = [&](const std::string& name, int level) {
            for (; (kDefaultDim >> level) >= 1; ++level) {
                CommonOptions c2 = c;
                c2.quiet = true;
                for (const auto& dv : defaulted)
                    c2.dims.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
                int n = 0;
                try {
                    for (auto& x : entries_of(c2, kernel)) {
                        if (retry_key(x) != name || !x.unbound.empty() || x.rejected) continue;
                        x.opts.quiet = c.quiet;
                        x.dim_try = level;
                        // The sizes first, unless the binding shows them already (a symbol passed as a scalar).
                        std::vector<std::string> shown;
                        for (const auto& dv : defaulted)
                            if (x.binding.find(dv.first + "=") == std::string::npos)
                                shown.push_back(fmt::format("{}={}", dv.first, kDefaultDim >> level));
                        if (!x.binding.empty()) shown.push_back(x.binding);
                        x.binding = fmt::format("{}", fmt::join(shown, ", "));
                        entries.push_back(std::move(x));
                        ++n;
                    }
                } catch (const CompileError&) {
                    // This size does not compile (out of bounds at compile time, ...): the next one.
                }
                retries[name].level = level;
                retries[name].pending = n;
                if (n > 0) return true;
            }
            return false;
        };
        // The default's run of ENT put a window out of bounds (WHY): keep its report (REPORT) until a smaller
        // size is tried. False when the file has no defaulted dim (REPORT then runs now as before).
        auto defer_default = [&](const CheckEntry& ent, const std::string& why, std::function<bool()> report_it) {
            // Not with --jsonl (a journal is one size's) or in-process (its machine is elaborated once, for the
            // default's widths).
            if (defaulted.empty() || ent.dim_try > 0 || !e.merge.empty() || !e.jsonl.empty() || e.jobs == 0)
                return false;
            size_dirty.insert(retry_key(ent));
            DimRetry& r = retries[retry_key(ent)];
            r.deferred.push_back(std::move(report_it));
            if (r.deferred.size() > 1) return true;
            r.why = why;
            if (!c.quiet)
                std::cerr << fmt::format(
                    "note: {}{}: with the size(s) cvsim defaulted ({}) a window falls outside its tensor ({}); "
                    "cvsim tries smaller sizes\n",
                    kernel, tag(ent), dims_text(0), why);
            if (!push_level(retry_key(ent), 1)) {
                if (!c.quiet)
                    std::cerr << fmt::format(
                        "note: {}{}: no smaller size gives this launch (the program does not compile with one, or "
                        "does not launch it); the default's report stands\n",
                        kernel, tag(ent));
                r.deferred.clear();  // no smaller size gives a launch: report it now
                return false;
            }
            return true;
        };
        // An entry of a retry finished (TAKEN: it stayed in bounds): the next size when no entry of this one was
        // taken, the default's reports when there is none. True when a report was interrupted.
        auto retry_done = [&](const CheckEntry& ent, bool taken) {
            DimRetry& r = retries[retry_key(ent)];
            if (taken && !r.taken && !c.quiet)
                std::cerr << fmt::format(
                    "note: {}{}: also checked with {}, the largest size at most {} at which its nominal run stays in "
                    "bounds (the verdict there is above); the report at the size cvsim defaulted follows and "
                    "counts (the window fell outside its tensor: {}); --dim NAME=V checks the size you use\n",
                    kernel, tag(ent), dims_text(r.level), kDefaultDim, r.why);
            r.taken |= taken;
            if (--r.pending > 0) return false;
            if (!r.taken && push_level(retry_key(ent), r.level + 1)) return false;
            if (!r.taken && !c.quiet)
                std::cerr << fmt::format("note: {}{}: no smaller size stays in bounds either\n", kernel, tag(ent));
            auto deferred = std::move(r.deferred);
            r.deferred.clear();
            for (auto& f : deferred)
                if (f()) return true;
            return false;
        };
        auto interrupted_exit = [&]() {
            if (!c.json.empty()) write_json(c.json, {{"kernels", report}, {"interrupted", true}});
            return kExitInterrupted;
        };
        // Sizes cvsim defaulted are sampled (docs/DECISIONS.md): a kernel clean at the size(s) cvsim made up can
        // race at another (a window at N - 16 meets one at 0 only when N = 16; a loop over N // 16 runs once;
        // `if N <= 32`). Once every entry at the default ran, the launches of the kernels that found nothing there
        // are checked again at other sizes of those symbols, each size a small run; a size the kernel does not
        // take (it does not compile, or its nominal run falls outside a tensor) or whose schedules only hit the
        // wall-time bound is no verdict, and a size that finds something is that kernel's verdict.
        std::vector<std::string> size_taken, size_skipped;  // the sizes checked, and those no launch took
        int widest = 1;  // --jobs 0: the machine is elaborated for the default's widest launch
        for (const auto& ent : entries) widest = std::max(widest, ent.opts.blocks);
        auto size_text = [](const std::vector<std::pair<std::string, int64_t>>& dims) {
            std::vector<std::string> t;
            for (const auto& [n, v] : dims) t.push_back(fmt::format("{}={}", n, v));
            return fmt::format("{}", fmt::join(t, ", "));
        };
        // A launch at a size that is the same check as one already run (a kernel the symbol does not reach,
        // launched with the same scalars) is not run again: the signatures run (launch_signature).
        std::set<std::string> checked;
        std::vector<std::vector<std::pair<std::string, int64_t>>> tried;
        size_t queued = 0;
        bool capped = false;
        // With several symbols, a size at which all of them together launch something but no launch takes it (its
        // nominal run falls outside a tensor): by its text, the size, its launches not run yet, whether one took it.
        struct SizeGroup {
            int64_t value = 0;
            int pending = 0;
            bool taken = false;
        };
        std::map<std::string, SizeGroup> size_groups;
        // Queues the launches of the program with COMBO's sizes; false when it does not compile with them or
        // launches nothing there (the default itself and a repeat are not queued again). QUEUED_HERE: how many it
        // queued.
        auto queue_combo = [&](const std::vector<std::pair<std::string, int64_t>>& combo, int* queued_here = nullptr) {
            bool is_default = true;
            for (const auto& [n, v] : combo)
                for (const auto& d : defaulted) is_default &= d.first != n || d.second == v;
            if (capped || is_default || std::find(tried.begin(), tried.end(), combo) != tried.end()) return true;
            tried.push_back(combo);
            CommonOptions c2 = c;
            c2.quiet = true;
            for (const auto& [n, v] : combo) c2.dims.push_back(fmt::format("{}={}", n, v));
            const std::string text = size_text(combo);
            std::vector<CheckEntry> xs;
            try {
                xs = entries_of(c2, kernel);
            } catch (const CompileError&) {
                size_skipped.push_back(text);  // this size does not compile: not one the program takes
                return false;
            }
            bool launches = false, any = false;
            for (auto& x : xs) {
                if (x.sample_extra > 0 || !x.unbound.empty()) continue;
                if (x.rejected && !cvsim::is_race_code(x.rejected->code)) continue;
                launches = true;
                if (size_dirty.count(retry_key(x)) || size_found.count(retry_key(x))) continue;
                if (e.jobs == 0 && x.opts.blocks > widest) continue;  // this process's machine is narrower
                if (std::string sig = launch_signature(x); !sig.empty() && !checked.insert(sig).second) {
                    any = true;  // the size is taken (what it changes was checked already)
                    continue;
                }
                if (queued == kMaxSizeEntries) {
                    capped = true;
                    break;
                }
                x.opts.quiet = c.quiet;
                x.opts.timeout = std::min(x.opts.timeout, kExtraSampleTimeout);
                x.dim_sample = text;
                x.sample_group = -1;  // not one of the default's samples: no group bookkeeping
                std::vector<std::string> shown;
                for (const auto& [n, v] : combo)
                    if (x.binding.find(n + "=") == std::string::npos) shown.push_back(fmt::format("{}={}", n, v));
                if (!x.binding.empty()) shown.push_back(x.binding);
                x.binding = fmt::format("{}", fmt::join(shown, ", "));
                entries.push_back(std::move(x));
                ++queued;
                if (queued_here) ++*queued_here;
                any = true;
            }
            if (!any && !capped) size_skipped.push_back(text);
            return launches;
        };
        auto queue_sizes = [&]() {
            // (--merge reads journals: it runs nothing, so it has no defaulted sizes.)
            if (defaulted.empty() || !e.merge.empty()) return;
            for (const auto& x : entries)
                if (std::string sig = launch_signature(x); !sig.empty()) checked.insert(sig);
            // The sizes: the values the program compares each symbol with (that symbol alone), then all symbols
            // together at 1, 2, 4, ..., 64 (ascending: the smallest sizes overlap the most windows, and those the
            // program does not take cost only a compile), and where the program does not compile with all of them
            // at one size (one symbol needs to be larger), each symbol alone at it.
            try {
                const ast::Module module = parse_module(SourceFile::read(kernel));
                for (const auto& d : defaulted)
                    for (int64_t v : compared_sizes(module, d.first, kMaxComparedSizes, kMaxComparedSize))
                        queue_combo({{d.first, v}});
            } catch (const CompileError&) {
                // The program was read before: nothing to add.
            }
            int smallest = 1;
            while ((kDefaultDim >> smallest) > 1) ++smallest;
            for (int k = smallest; k >= 1; --k) {
                std::vector<std::pair<std::string, int64_t>> all;
                for (const auto& d : defaulted) all.emplace_back(d.first, kDefaultDim >> k);
                int n = 0;
                if (!queue_combo(all, &n) && defaulted.size() > 1)
                    for (const auto& d : defaulted) queue_combo({{d.first, kDefaultDim >> k}});
                else if (n > 0 && defaulted.size() > 1)
                    size_groups[size_text(all)] = SizeGroup{kDefaultDim >> k, n, false};  // decided when they ran
            }
            if (capped && !c.quiet)
                std::cerr << fmt::format(
                    "note: {}: cvsim checks at most {} launches at sizes other than the one it defaulted; the rest "
                    "are not checked (--dim NAME=V checks the sizes you use)\n",
                    kernel, kMaxSizeEntries);
        };
        // A launch at a sampled size ran (TAKEN: the program takes the size): when the last launch of all symbols
        // together at one size did not take it, each symbol alone at that size is queued.
        auto size_entry_done = [&](const CheckEntry& ent, bool taken) {
            auto it = size_groups.find(ent.dim_sample);
            if (it == size_groups.end()) return;
            SizeGroup& g = it->second;
            g.taken |= taken;
            if (--g.pending > 0 || g.taken) return;
            for (const auto& d : defaulted) queue_combo({{d.first, g.value}});
        };
        // A sampled size's run: no verdict (true) when the nominal run falls outside a tensor or every finding is
        // a bound hit.
        auto size_not_taken = [&](const ExploreSummary& sum) { return nominal_oob(sum) || only_timeouts(sum); };
        // The report of one explored entry (true: the run was interrupted).
        auto emit = [&](const CheckEntry& ent, const std::string& label, const ExploreSummary& sum) {
            const CommonOptions& ck = ent.opts;
            VerdictScope scope =
                verdict_scope(timing_scope_of(ck, kernel), sum, *base, fixed_visibility, e.max_visibility);
            if (!c.quiet) print_explore_summary(std::cout, label, sum, is_check, &scope, output_width());
            if (!c.quiet && !ent.sampled.empty() && !sum.distinct.empty())
                std::cout << fmt::format(
                    "note: found with values cvsim sampled ({}), not given: values your program never takes can break "
                    "its preconditions{}; --input NAME=VALUE checks the ones it does\n",
                    ent.sampled,
                    ent.sampled.find("data of ") != std::string::npos
                        ? " (data of T=V: every element of T is V, iota: element i is i (+V), so every block or "
                          "iteration that takes an index from T may take the same one: a race on what they then "
                          "write is real only if T can hold such values, e.g. not for a slot or index map whose "
                          "entries the program keeps distinct)"
                        : "");
            if (!e.save_failures.empty()) save_failures(e.save_failures, ck, kernel, sum);
            nlohmann::json item = explore_json(kernel, sum, &scope);
            if (per_launch || ent.dim_try > 0 || !ent.dim_sample.empty()) item["entry"] = ck.entry;
            if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
            if (!ent.binding.empty()) item["launch"] = ent.binding;
            if (!ent.dim_sample.empty()) item["sizes"] = ent.dim_sample;  // the sizes cvsim chose, not given
            report.push_back(item);
            std::vector<std::string> codes;
            for (const auto& d : sum.distinct) codes.push_back(d.finding.code);
            if (only_unsupported(codes)) {
                any_unread = true;
                if (!c.quiet)
                    std::cout << "NO VERDICT: a construct of this kernel is not modelled at run time (E-UNSUPPORTED "
                                 "above); exit 2\n";
            } else {
                ++verdicts;
                if (!sum.distinct.empty()) {
                    any_findings = true;
                    ++verdicts_found;
                }
            }
            if (!sum.distinct.empty()) size_dirty.insert(retry_key(ent));
            return sum.interrupted;
        };
        // An entry's verdict, or for a sampled value the kernel does not take, a note (true: interrupted).
        auto report_entry = [&](const CheckEntry& ent, const std::string& label, const ExploreSummary& sum) {
            if (ent.sample_group >= 0) {
                ++sample_count[ent.sample_group];
                // Not when the same run races: a race can be what put the window out of bounds (a stale read of a
                // sampled index; found by review), and the race is a verdict of its own.
                bool race = false;
                const DistinctFinding* oob = nominal_oob(sum, &race);
                if (oob && !race) {
                    reject_sample(ent, oob->finding.message);
                    return false;
                }
                ++sample_taken[ent.sample_group];
                if (!sum.distinct.empty()) sample_found[ent.sample_group] = true;
            }
            return emit(ent, label, sum);
        };
        bool sizes_queued = false;
        for (size_t ei = 0;; ++ei) {
            if (ei == entries.size()) {
                // Every entry at the default ran (and the retries): the other sizes of the defaulted symbols.
                if (sizes_queued) break;
                sizes_queued = true;
                queue_sizes();
                if (ei == entries.size()) break;
            }
            const CheckEntry& ent = entries[ei];
            if (!ent.dim_sample.empty() && size_found.count(retry_key(ent))) {
                size_entry_done(ent, false);  // not run: the kernel's verdict is found already
                continue;
            }
            if (ent.sample_group >= 0) {
                sample_taken.emplace(ent.sample_group, 0);
                sample_first.emplace(ent.sample_group, &ent);
            }
            // Extra sampled values: only while the group found nothing, never into a journal, one value of the chain.
            if (ent.sample_extra > 0 && (sample_found[ent.sample_group] || !e.jsonl.empty() ||
                                         (ent.sample_extra == 2 && chain_done[ent.sample_group])))
                continue;
            const CommonOptions& ck = ent.opts;
            const std::string& entry = ck.entry;
            // Several entries of one file: "FILE [ENTRY: KERNEL ...]".
            const std::string label =
                per_launch || ent.dim_try > 0 || !ent.dim_sample.empty()
                    ? kernel + " [" +
                          (ent.orchestration.empty() || ent.orchestration == entry ? "" : ent.orchestration + ": ") +
                          entry + (ent.binding.empty() ? "" : (entry.empty() ? "" : " ") + ent.binding) + "]"
                    : kernel;
            ExploreSummary sum;
            // In-process: the findings' source locations point into the session's source file, so the session
            // lives until the summary is printed and reported (a deferred report keeps it).
            std::shared_ptr<sim::Session> session;
            try {
                if (ent.rejected) throw CompileError(*ent.rejected);
                if (ent.unbound == "pl.spmd" || ent.unbound == "core_num")  // the launch width, not a scalar
                    raise(cvsim::codes::kUnchecked, ent.loc,
                          fmt::format("kernel '{}' is not checked as launched ({}), and checking it otherwise could "
                                      "hide the races between its blocks",
                                      entry, ent.why),
                          "launch it alone in a pl.spmd loop (or with core_num) of a constant width of 1 to 4096");
                bool tensor_arg = false;  // a pl.spmd launch's per-block window of a tensor (host walk)
                if (ent.program)
                    if (auto fn = ent.program->find(entry))
                        for (const auto& p : fn->params)
                            tensor_arg |= p.var->name == ent.unbound && p.var->type.kind == ir::TypeKind::Tensor;
                if (tensor_arg)
                    raise(cvsim::codes::kUnchecked, ent.loc,
                          fmt::format("kernel '{}' is not checked: its tensor '{}' is each block's own window ({}), "
                                      "which one binding for all the blocks of its launch cannot express",
                                      entry, ent.unbound, ent.why),
                          "pass the whole tensor and take each block's window in the kernel (pl.tile.get_block_idx())");
                if (!ent.unbound.empty())
                    raise(
                        cvsim::codes::kUnchecked, ent.loc,
                        ent.why.empty()
                            ? fmt::format("kernel '{}' is not checked: its scalar '{}' is computed by the "
                                          "orchestration, which cvsim "
                                          "does not run, and a value cvsim picked could make the verdict vacuous",
                                          entry, ent.unbound)
                            : fmt::format("kernel '{}' is not checked: the orchestration computes its scalar '{}' from "
                                          "a value cvsim "
                                          "does not know ({}), and a value cvsim picked could make the verdict vacuous",
                                          entry, ent.unbound, ent.why),
                        fmt::format("give the value the orchestration computes: --input {}=VALUE", ent.unbound));
                auto explore_with = [&](const ExploreOptions& eo) {
                    // Out of memory checking one kernel of a multi-launch file is that kernel's E-CAPACITY; the
                    // others are still checked (it used to end the whole check).
                    try {
                        if (eo.jobs == 0) {
                            sim::SessionOptions kso = session_options(ck);
                            kso.max_visibility_delay =
                                eo.max_visibility;  // reject: a drawn delay needs published stores
                            session = std::make_shared<sim::Session>(SourceFile::read(kernel), kso);
                            return explore_kernel(*session, ck, kernel, eo, *base);
                        }
                        return explore_parallel(ck, kernel, eo, *base);
                    } catch (const std::bad_alloc&) {
                        session.reset();
                        if (!per_launch) throw;
                        std::shared_ptr<ir::Function> fn = ent.program ? ent.program->find(entry) : nullptr;
                        raise(cvsim::codes::kCapacity, fn ? fn->loc : SourceLoc{},
                              fmt::format("kernel '{}'{} is not checked: out of memory (it needs more memory than "
                                          "this machine gives cvsim)",
                                          entry, ent.binding.empty() ? "" : " [" + ent.binding + "]"),
                              "check it alone with --entry NAME and smaller --dim sizes, or on a machine with more "
                              "memory");
                    }
                };
                if (!e.merge.empty()) {
                    sum = merge_jsonl(c, kernel, e, *base);
                } else if (ent.sample_extra > 0) {
                    // An extra sampled value: its nominal run (and one more) decides whether the kernel takes it; a
                    // value it takes that shows nothing there is explored on a small budget (the happens-before
                    // graph of a kernel whose control and addresses do not depend on data is the same in every
                    // schedule, and the scope line says when that does not hold).
                    ExploreOptions probe = e;
                    probe.schedules = 1;
                    sum = explore_with(probe);
                    bool raced = false;
                    const bool out_of_bounds =
                        (nominal_oob(sum, &raced) && (!raced || ent.sample_extra == 2)) || only_timeouts(sum);
                    if (!out_of_bounds && ent.sample_extra == 2) chain_done[ent.sample_group] = true;
                    if (!out_of_bounds && sum.distinct.empty() && !sum.interrupted && e.schedules > 1) {
                        ExploreOptions small = e;
                        small.schedules = std::min<uint64_t>(e.schedules, 8);
                        sum = explore_with(small);
                    }
                } else if (!ent.dim_sample.empty()) {
                    // A sampled size: a small budget (its nominal schedule among them), never into a journal (a
                    // journal is the default's), and whole in every shard.
                    ExploreOptions small = e;
                    small.schedules = std::min<uint64_t>(e.schedules, kSizeSchedules);
                    small.jsonl.clear();
                    small.shard_index = 0;
                    small.shard_count = 1;
                    sum = explore_with(small);
                } else if (ent.dim_try > 0 && e.schedules > 1) {
                    // A retry at a smaller size: its nominal schedule decides whether the kernel takes the size
                    // (a probe of one more schedule, no journal), and only a size it takes is explored in full.
                    ExploreOptions probe = e;
                    probe.schedules = 1;
                    probe.jsonl.clear();
                    sum = explore_with(probe);
                    if (!nominal_oob(sum) && !sum.interrupted) sum = explore_with(e);
                } else {
                    sum = explore_with(e);
                }
            } catch (const CompileError& err) {
                // A reject diagnostic is a finding (exit 1); other diagnostics are bad input (exit 2). One kernel of
                // a multi-launch file that cannot be checked does not hide the verdicts of the others.
                nlohmann::json item = {{"kernel", kernel}, {"diagnostic", to_json(err.diag())}};
                if (per_launch || ent.dim_try > 0) item["entry"] = entry;
                if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
                if (!ent.binding.empty()) item["launch"] = ent.binding;
                const bool oob = err.diag().code == cvsim::codes::kOob;
                const bool race_diag =
                    err.diag().code == cvsim::codes::kV2cUnfenced || cvsim::is_race_code(err.diag().code);
                if (!ent.dim_sample.empty()) {
                    // A sampled size: a race (a reject diagnostic, launches a manual scope leaves unordered) is
                    // the kernel's verdict there; any other diagnostic says the program does not take the size.
                    if (!race_diag) {
                        size_entry_done(ent, false);
                        continue;
                    }
                    std::cerr << render_text(err.diag());
                    if (!c.quiet)
                        std::cerr << fmt::format(
                            "note: {}{}: found with {}, a size cvsim chose for the pl.dynamic symbol(s) it defaulted "
                            "(with {} it found nothing): bind the sizes your program uses with --dim NAME=V\n",
                            kernel, tag(ent), ent.dim_sample, size_text(defaulted));
                    any_findings = true;
                    ++diag_found;
                    size_found.insert(retry_key(ent));
                    item["sizes"] = ent.dim_sample;
                    report.push_back(item);
                    continue;
                }
                if (ent.sample_extra > 0 && err.diag().code != cvsim::codes::kV2cUnfenced) {
                    // An extra value the program does not compile with: no verdict with it.
                    skip_extra(ent, err.diag().message, oob);
                    continue;
                }
                if (ent.dim_try > 0) {
                    // A diagnostic at a smaller size is no verdict there (the default's report comes anyway).
                    if (retry_done(ent, false)) return interrupted_exit();
                    continue;
                }
                if (race_diag) {
                    // (a race between launches of a manual scope: unordered_launches)
                    std::cerr << render_text(err.diag());
                    any_findings = true;
                    ++diag_found;
                    size_dirty.insert(retry_key(ent));
                    if (ent.sample_group >= 0) {
                        // A verdict with this value (the group is not unchecked).
                        ++sample_count[ent.sample_group];
                        ++sample_taken[ent.sample_group];
                        sample_found[ent.sample_group] = true;
                    }
                    report.push_back(item);
                    continue;
                }
                auto report_it = [&, diag = err.diag(), item, keep = per_launch, at = &ent]() {
                    if (at->sample_group >= 0) ++sample_count[at->sample_group];
                    if (at->sample_group >= 0 && diag.code == cvsim::codes::kOob) {
                        reject_sample(*at, diag.loc.valid() ? fmt::format("{}: {}", diag.loc.short_str(), diag.message)
                                                            : diag.message);
                        return false;
                    }
                    size_dirty.insert(retry_key(*at));
                    if (!keep) throw CompileError(diag);
                    std::cerr << render_text(diag);
                    any_unread = true;
                    report.push_back(item);
                    return false;
                };
                if (oob && defer_default(ent, err.diag().message, report_it)) continue;
                report_it();
                continue;
            }
            if (!ent.dim_sample.empty() && !sum.interrupted) {
                if (size_not_taken(sum)) {
                    if (std::find(size_skipped.begin(), size_skipped.end(), ent.dim_sample) == size_skipped.end())
                        size_skipped.push_back(ent.dim_sample);
                    size_entry_done(ent, false);
                    continue;
                }
                size_entry_done(ent, true);
                if (std::find(size_taken.begin(), size_taken.end(), ent.dim_sample) == size_taken.end())
                    size_taken.push_back(ent.dim_sample);
                if (sum.distinct.empty()) continue;  // nothing there: the default's report stands
                size_found.insert(retry_key(ent));
                if (report_entry(ent, label, sum)) return interrupted_exit();
                if (!c.quiet)
                    std::cout << fmt::format(
                        "note: found with {}, a size cvsim chose for the pl.dynamic symbol(s) it defaulted (with {} it "
                        "found nothing in this kernel): bind the sizes your program uses with --dim NAME=V\n",
                        ent.dim_sample, size_text(defaulted));
                continue;
            }
            // Out of bounds in the nominal schedule, and whether the run raced.
            bool race = false;
            const DistinctFinding* oob = nominal_oob(sum, &race);
            if (ent.sample_extra > 0 && only_timeouts(sum) && !sum.interrupted) {
                skip_extra(ent, "its schedules exceed the wall-time bound", false);
                continue;
            }
            if (ent.sample_extra > 0 && oob && !sum.interrupted) {
                if (race && ent.sample_extra == 2) {
                    if (!chain_fallback.count(ent.sample_group))
                        chain_fallback.emplace(ent.sample_group, ChainFallback{&ent, label, sum, session});
                    continue;
                }
                if (!race) {
                    skip_extra(ent, oob->finding.message, true);
                    continue;
                }
            }
            if (ent.dim_try > 0 && !sum.interrupted) {
                // Its verdict first when the size stays in bounds, then (the level done) the default's reports.
                if (!oob && report_entry(ent, label, sum)) return interrupted_exit();
                if (retry_done(ent, !oob)) return interrupted_exit();
                continue;
            } else if (oob && !sum.interrupted) {
                const std::string why =
                    oob->finding.message +
                    (race ? "; the run also raced there, which an access outside a tensor can cause" : "");
                if (defer_default(ent, why, [&report_entry, at = &ent, label, sum, session]() {
                        return report_entry(*at, label, sum);
                    }))
                    continue;
            }
            if (report_entry(ent, label, sum)) return interrupted_exit();
        }
        // A chain value that raced out of bounds, when no smaller one stayed in bounds (and nothing else was found).
        for (auto& [g, fb] : chain_fallback)
            if (!chain_done[g] && !sample_found[g] && report_entry(*fb.ent, fb.label, fb.sum))
                return interrupted_exit();
        // Every retry ends in retry_done; a report still kept here would be lost, so it is given.
        for (auto& [name, r] : retries)
            for (auto& f : std::exchange(r.deferred, {}))
                if (f()) return interrupted_exit();
        for (const auto& [g, taken] : sample_taken) {
            if (taken > 0 || sample_rejected[g] < sample_count[g])
                continue;  // a verdict, or another diagnostic said why not
            const CheckEntry& ent = *sample_first[g];
            Diagnostic d;
            d.code = cvsim::codes::kUnchecked;
            d.loc = ent.program ? ent.program->find(ent.opts.entry)->loc : SourceLoc{};
            d.message = fmt::format(
                "kernel '{}' is not checked: it takes none of the values cvsim sampled for its unbound scalar "
                "parameter(s) (the first: {})",
                ent.opts.entry, sample_why[g]);
            d.hint = "give the values your program uses: --input NAME=VALUE";
            std::cerr << render_text(d);
            nlohmann::json item = {{"kernel", kernel}, {"entry", ent.opts.entry}, {"diagnostic", to_json(d)}};
            if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
            report.push_back(item);
            any_unread = true;
        }
        if (!c.quiet && size_found.empty() && !size_taken.empty()) {
            std::vector<std::string> not_taken;
            for (const auto& t : size_skipped)
                if (std::find(size_taken.begin(), size_taken.end(), t) == size_taken.end()) not_taken.push_back(t);
            std::cerr << fmt::format(
                "note: {}: the kernels the size(s) cvsim defaulted ({}) found nothing in were also checked, with the "
                "nominal schedule and up to {} more each, with {} (sizes cvsim chose: the values the program compares "
                "them with, then halvings of {}): no finding there{}; --dim NAME=V checks the sizes you use\n",
                kernel, size_text(defaulted), kSizeSchedules, fmt::join(size_taken, "; "), kDefaultDim,
                not_taken.empty()
                    ? std::string()
                    : fmt::format(" ({} not taken: out of bounds or not compiling)", fmt::join(not_taken, "; ")));
        }
    }
    if (!c.json.empty()) write_json(c.json, {{"kernels", report}});
    if (several && !c.quiet) {
        std::cout.flush();
        const std::string races =
            diag_found > 0 ? fmt::format("{} race diagnostic(s) (error[...] above), ", diag_found) : "";
        if (any_findings)
            std::cout << fmt::format("FAIL (the file): {}{} of {} kernel verdict(s) with findings; exit 1\n", races,
                                     verdicts_found, verdicts);
        else if (any_unread)
            std::cout << fmt::format(
                "NO VERDICT (the file): {} kernel verdict(s), all clean, but not every kernel was checked (the "
                "diagnostics above); exit 2\n",
                verdicts);
        else
            std::cout << fmt::format("PASS (the file): all {} kernel verdict(s) clean\n", verdicts);
    }
    return any_findings ? kExitFindings : any_unread ? kExitBadInput : kExitClean;
}

}  // namespace cvsim::cli
