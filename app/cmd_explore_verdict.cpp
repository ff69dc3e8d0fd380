// explore and check, the verdict half of KernelCheck: diagnostics, summaries, the reports of each entry and the
// closing lines of a kernel (cmd_explore_internal.h; the entries and their schedules are in cmd_explore.cpp).
#include <fmt/format.h>

#include <deque>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>

#include "app/cli_internal.h"
#include "app/cmd_explore_internal.h"
#include "app/report.h"
#include "app/sampling.h"
#include "frontend/codes.h"
#include "frontend/control_scalars.h"
#include "frontend/host_eval.h"
#include "frontend/launch.h"
#include "frontend/parser.h"
#include "frontend/passes/ir_util.h"
#include "frontend/printer.h"
#include "frontend/sema.h"
#include "traces/chrome_trace.h"

namespace cvsim::cli {

using sim::Finding;

bool ExploreCommand::KernelCheck::on_diagnostic(const CheckEntry& ent, const CompileError& err) {
    const std::string& entry = ent.opts.entry;
    // A reject diagnostic is a finding (exit 1); other diagnostics are bad input (exit 2). One kernel of
    // a multi-launch file that cannot be checked does not hide the verdicts of the others.
    nlohmann::json item = {{"kernel", m_kernel}, {"diagnostic", to_json(err.diag())}};
    if (m_per_launch || ent.dim_try > 0) item["entry"] = entry;
    if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
    if (!ent.binding.empty()) item["launch"] = ent.binding;
    const bool oob = err.diag().code == cvsim::codes::kOob;
    const bool race_diag = err.diag().code == cvsim::codes::kV2cUnfenced || cvsim::is_race_code(err.diag().code);
    if (!ent.dim_sample.empty()) {
        // A sampled size: a race (a reject diagnostic, launches a manual scope leaves unordered) is
        // the kernel's verdict there; any other diagnostic says the program does not take the size.
        if (!race_diag) {
            // (a window that does not fit at this size: the size is not one the program takes)
            if (std::find(m_size_skipped.begin(), m_size_skipped.end(), ent.dim_sample) == m_size_skipped.end())
                m_size_skipped.push_back(ent.dim_sample);
            size_entry_done(ent, false);
            return false;
        }
        std::cerr << render_text(err.diag());
        if (!m_c.quiet)
            std::cerr << fmt::format(
                "note: {}{}: found with {}, a size cvsim chose for the pl.dynamic symbol(s) it defaulted "
                "(with {} it found nothing): bind the sizes your program uses with --dim NAME=V\n",
                m_kernel, entry_tag(ent), ent.dim_sample, size_text(m_defaulted));
        m_cmd.m_any_findings = true;
        ++m_cmd.m_diag_found;
        m_size_found.insert(retry_key(ent));
        item["sizes"] = ent.dim_sample;
        m_cmd.m_report.push_back(item);
        return false;
    }
    if (ent.sample_extra > 0 && err.diag().code != cvsim::codes::kV2cUnfenced) {
        // An extra value the program does not compile with: no verdict with it.
        skip_extra(ent, err.diag().message, oob);
        return false;
    }
    if (ent.dim_try > 0) {
        // A diagnostic at a smaller size is no verdict there (the default's report comes anyway).
        return retry_done(ent, false);
    }
    if (race_diag) {
        // (a race between launches of a manual scope: unordered_launches)
        std::cerr << render_text(err.diag());
        m_cmd.m_any_findings = true;
        ++m_cmd.m_diag_found;
        m_size_dirty.insert(retry_key(ent));
        if (ent.sample_group >= 0) {
            // A verdict with this value (the group is not unchecked).
            ++m_sample_count[ent.sample_group];
            ++m_sample_taken[ent.sample_group];
            m_sample_found[ent.sample_group] = true;
        }
        m_cmd.m_report.push_back(item);
        return false;
    }
    auto report_it = [this, diag = err.diag(), item, keep = m_per_launch, at = &ent]() {
        if (at->sample_group >= 0) ++m_sample_count[at->sample_group];
        if (at->sample_group >= 0 && diag.code == cvsim::codes::kOob) {
            reject_sample(*at,
                          diag.loc.valid() ? fmt::format("{}: {}", diag.loc.short_str(), diag.message) : diag.message);
            return false;
        }
        m_size_dirty.insert(retry_key(*at));
        if (!keep) throw CompileError(diag);
        std::cerr << render_text(diag);
        m_cmd.m_any_unread = true;
        m_cmd.m_report.push_back(item);
        return false;
    };
    if (oob && defer_default(ent, err.diag().message, report_it)) return false;
    if (err.diag().code == cvsim::codes::kUnchecked && !m_defaulted.empty() && ent.dim_try == 0 &&
        ent.dim_sample.empty() && ent.sample_extra == 0 && m_e.merge.empty() &&
        ent.why.find(kMadeUpSizeWhy) != std::string::npos) {
        m_unchecked_deferred[ent.opts.entry].push_back(report_it);
        return false;
    }
    report_it();
    return false;
}

bool ExploreCommand::KernelCheck::on_summary(const CheckEntry& ent, const std::string& label, const ExploreSummary& sum,
                                             const std::shared_ptr<sim::Session>& session) {
    if (!ent.dim_sample.empty() && !sum.interrupted) {
        if (size_not_taken(sum)) {
            if (std::find(m_size_skipped.begin(), m_size_skipped.end(), ent.dim_sample) == m_size_skipped.end())
                m_size_skipped.push_back(ent.dim_sample);
            // (over the budget: a bound hit, not a reference that stopped for another reason)
            if (std::any_of(sum.distinct.begin(), sum.distinct.end(), bound_hit) && !nominal_oob(sum) &&
                std::find(m_size_over_budget.begin(), m_size_over_budget.end(), ent.dim_sample) ==
                    m_size_over_budget.end())
                m_size_over_budget.push_back(ent.dim_sample);
            size_entry_done(ent, false);
            return false;
        }
        size_entry_done(ent, true);
        m_size_checked_kernels.insert(ent.opts.entry);
        if (std::find(m_size_taken.begin(), m_size_taken.end(), ent.dim_sample) == m_size_taken.end())
            m_size_taken.push_back(ent.dim_sample);
        if (sum.distinct.empty()) return false;  // nothing there: the default's report stands
        m_size_found.insert(retry_key(ent));
        if (report_entry(ent, label, sum)) return true;
        if (!m_c.quiet)
            std::cout << fmt::format(
                "note: found with {}, a size cvsim chose for the pl.dynamic symbol(s) it defaulted (with {} it "
                "found nothing in this kernel): bind the sizes your program uses with --dim NAME=V\n",
                ent.dim_sample, size_text(m_defaulted));
        return false;
    }
    // Out of bounds in the nominal schedule, and whether the run raced.
    bool race = false;
    const DistinctFinding* oob = nominal_oob(sum, &race);
    if (ent.sample_extra > 0 && only_timeouts(sum) && !sum.interrupted) {
        skip_extra(ent, "its schedules exceed the probe's bound (--probe-budget, or --timeout)", false);
        if (!m_c.quiet)
            std::cerr << fmt::format(
                "note: {} [{}]: {} not checked: its schedules exceed the probe's bound (--probe-budget {} tile "
                "instructions per schedule, or --timeout); --input NAME=V checks a value without it\n",
                m_kernel, ent.opts.entry, ent.sampled.empty() ? std::string("a further sampled value") : ent.sampled,
                ent.opts.probe_budget);
        return false;
    }
    if (ent.sample_extra > 0 && oob && !sum.interrupted) {
        if (race && ent.sample_extra == 2) {
            if (!m_chain_fallback.count(ent.sample_group))
                m_chain_fallback.emplace(ent.sample_group, ChainFallback{&ent, label, sum, session});
            return false;
        }
        if (!race) {
            skip_extra(ent, oob->finding.message, true);
            return false;
        }
    }
    if (ent.dim_try > 0 && !sum.interrupted) {
        // Its verdict first when the size stays in bounds, then (the level done) the default's reports.
        if (!oob && report_entry(ent, label, sum)) return true;
        return retry_done(ent, !oob);
    } else if (oob && !sum.interrupted) {
        const std::string why = oob->finding.message +
                                (race ? "; the run also raced there, which an access outside a tensor can cause" : "");
        if (defer_default(ent, why, [this, at = &ent, label, sum, session]() { return report_entry(*at, label, sum); }))
            return false;
    }
    return report_entry(ent, label, sum);
}

// ---- KernelCheck: reports and sampled values ----

// An extra sampled value the kernel does not take: counted like any sample, without a note of its own.
void ExploreCommand::KernelCheck::skip_extra(const CheckEntry& ent, const std::string& why, bool counted) {
    if (!counted) return;
    if (!m_sample_why.count(ent.sample_group)) m_sample_why[ent.sample_group] = why;
    ++m_sample_count[ent.sample_group];
    ++m_sample_rejected[ent.sample_group];
}

void ExploreCommand::KernelCheck::reject_sample(const CheckEntry& ent, const std::string& why) {
    if (!m_sample_why.count(ent.sample_group)) m_sample_why[ent.sample_group] = why;
    ++m_sample_rejected[ent.sample_group];
    if (!m_c.quiet)
        std::cerr << fmt::format("note: {} [{}]: {} is not a value it takes ({}); no verdict with it\n", m_kernel,
                                 ent.opts.entry, ent.sampled, why);
}

// The report of one explored entry (true: the run was interrupted).
bool ExploreCommand::KernelCheck::emit(const CheckEntry& ent, const std::string& label, const ExploreSummary& sum) {
    const CommonOptions& ck = ent.opts;
    VerdictScope scope =
        verdict_scope(timing_scope_of(ck, m_kernel), sum, m_cmd.m_base, m_cmd.m_fixed_visibility, m_e.max_visibility);
    if (!m_c.quiet) print_explore_summary(std::cout, label, sum, m_cmd.m_is_check, &scope, output_width());
    if (!m_c.quiet && !ent.sampled.empty() && !sum.distinct.empty())
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
    if (!m_e.save_failures.empty()) save_failures(m_e.save_failures, ck, m_kernel, sum);
    nlohmann::json item = explore_json(m_kernel, sum, &scope);
    if (m_per_launch || ent.dim_try > 0 || !ent.dim_sample.empty()) item["entry"] = ck.entry;
    if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
    if (!ent.binding.empty()) item["launch"] = ent.binding;
    if (!ent.dim_sample.empty()) item["sizes"] = ent.dim_sample;  // the sizes cvsim chose, not given
    m_cmd.m_report.push_back(item);
    std::vector<std::string> codes;
    for (const auto& d : sum.distinct) codes.push_back(d.finding.code);
    if (only_unsupported(codes)) {
        m_cmd.m_any_unread = true;
        if (!m_c.quiet)
            std::cout << "NO VERDICT: a construct of this kernel is not modelled at run time (E-UNSUPPORTED "
                         "above); exit 2\n";
    } else {
        ++m_cmd.m_verdicts;
        if (!sum.distinct.empty()) {
            m_cmd.m_any_findings = true;
            ++m_cmd.m_verdicts_found;
        }
    }
    if (!sum.distinct.empty()) m_size_dirty.insert(retry_key(ent));
    return sum.interrupted;
}

// An entry's verdict, or for a sampled value the kernel does not take, a note (true: interrupted).
bool ExploreCommand::KernelCheck::report_entry(const CheckEntry& ent, const std::string& label,
                                               const ExploreSummary& sum) {
    if (ent.sample_group >= 0) {
        ++m_sample_count[ent.sample_group];
        // Not when the same run races: a race can be what put the window out of bounds (a stale read of a
        // sampled index; found by review), and the race is a verdict of its own.
        bool race = false;
        const DistinctFinding* oob = nominal_oob(sum, &race);
        if (oob && !race) {
            reject_sample(ent, oob->finding.message);
            return false;
        }
        ++m_sample_taken[ent.sample_group];
        if (!sum.distinct.empty()) m_sample_found[ent.sample_group] = true;
    }
    return emit(ent, label, sum);
}

// After the last entry: the reports kept back, the sample groups no value was taken of, the sizes note.
bool ExploreCommand::KernelCheck::finish() {
    // A chain value that raced out of bounds, when no smaller one stayed in bounds (and nothing else was found).
    for (auto& [g, fb] : m_chain_fallback)
        if (!m_chain_done[g] && !m_sample_found[g] && report_entry(*fb.ent, fb.label, fb.sum)) return true;
    // Every retry ends in retry_done; a report still kept here would be lost, so it is given.
    for (auto& [name, r] : m_retries)
        for (auto& f : std::exchange(r.deferred, {}))
            if (f()) return true;
    // A kernel not checked at the default size for a made-up size's sake: a size that checked it replaces the
    // E-UNCHECKED, else it is reported now.
    for (auto& [name, reports] : m_unchecked_deferred) {
        if (m_size_checked_kernels.count(name)) {
            if (!m_c.quiet)
                std::cerr << fmt::format(
                    "note: {}: kernel '{}' is not launched with known scalars at the size(s) cvsim defaulted ({}); it "
                    "was checked at the other sizes cvsim chose (below)\n",
                    m_kernel, name, size_text(m_defaulted));
            continue;
        }
        for (auto& f : reports)
            if (f()) return true;
    }
    report_unchecked_samples();
    note_sizes_checked();
    return false;
}

void ExploreCommand::KernelCheck::report_unchecked_samples() {
    for (const auto& [g, taken] : m_sample_taken) {
        if (taken > 0 || m_sample_rejected[g] < m_sample_count[g])
            continue;  // a verdict, or another diagnostic said why not
        const CheckEntry& ent = *m_sample_first[g];
        Diagnostic d;
        d.code = cvsim::codes::kUnchecked;
        d.loc = ent.program ? ent.program->find(ent.opts.entry)->loc : SourceLoc{};
        d.message = fmt::format(
            "kernel '{}' is not checked: it takes none of the values cvsim sampled for its unbound scalar "
            "parameter(s) (the first: {})",
            ent.opts.entry, m_sample_why[g]);
        d.hint = "give the values your program uses: --input NAME=VALUE";
        std::cerr << render_text(d);
        nlohmann::json item = {{"kernel", m_kernel}, {"entry", ent.opts.entry}, {"diagnostic", to_json(d)}};
        if (!ent.orchestration.empty()) item["orchestration"] = ent.orchestration;
        m_cmd.m_report.push_back(item);
        m_cmd.m_any_unread = true;
    }
}

void ExploreCommand::KernelCheck::note_sizes_checked() {
    if (!m_c.quiet && m_size_found.empty() && !m_size_over_budget.empty())
        std::cerr << fmt::format(
            "note: {}: not checked at {} (sizes cvsim chose for the pl.dynamic symbol(s) it defaulted): their "
            "schedules exceed the probe's bound (--probe-budget {} tile instructions per schedule, or --timeout); "
            "--dim NAME=V checks a size without it\n",
            m_kernel, fmt::join(m_size_over_budget, "; "), m_c.probe_budget);
    if (!m_c.quiet && m_size_found.empty() && !m_size_taken.empty()) {
        std::vector<std::string> not_taken;
        for (const auto& t : m_size_skipped)
            if (std::find(m_size_taken.begin(), m_size_taken.end(), t) == m_size_taken.end()) not_taken.push_back(t);
        std::cerr << fmt::format(
            "note: {}: the kernels the size(s) cvsim defaulted ({}) found nothing in were also checked, with the "
            "nominal schedule and up to {} more each, with {} (sizes cvsim chose: the values the program compares "
            "them with, then halvings of {}): no finding there{}; --dim NAME=V checks the sizes you use\n",
            m_kernel, size_text(m_defaulted), kSizeSchedules, fmt::join(m_size_taken, "; "), kDefaultDim,
            not_taken.empty() ? std::string()
                              : fmt::format(" ({} not taken: out of bounds, not compiling or beyond --probe-budget)",
                                            fmt::join(not_taken, "; ")));
    }
}

}  // namespace cvsim::cli
