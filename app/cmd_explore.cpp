// explore and check: the schedules of every entry of a kernel file, the sampled values, the reports
// (ExploreCommand, cmd_explore_internal.h; the defaulted sizes' retries and samples are in cmd_explore_sizes.cpp,
// the verdicts and reports in cmd_explore_verdict.cpp).
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

const DistinctFinding* nominal_oob(const ExploreSummary& sum, bool* race) {
    const DistinctFinding* oob = nullptr;
    for (const auto& d : sum.distinct) {
        if (!oob && d.finding.code == cvsim::codes::kOob && d.first.strategy == sim::Strategy::Nominal) oob = &d;
        if (race) *race |= cvsim::is_race_code(d.finding.code);
    }
    return oob;
}

bool bound_hit(const DistinctFinding& d) {
    return d.finding.code == cvsim::codes::kTimeout ||
           (d.finding.code == cvsim::codes::kUnchecked &&
            d.finding.message.find(cvsim::codes::kTimeout) != std::string::npos);
}

bool only_timeouts(const ExploreSummary& sum) {
    if (sum.distinct.empty()) return false;
    // A reference cut at its bound compares nothing, so outputs that differ between schedules by the order of
    // float atomic adds (which the reference's tolerance allows) are E-NONDET there: no verdict either (a probe of
    // pypto-lib's hc_head at a sampled size whose reference, not its schedules, exceeded --probe-budget).
    const bool reference_cut = std::any_of(sum.distinct.begin(), sum.distinct.end(), [](const DistinctFinding& d) {
        return d.finding.code == cvsim::codes::kUnchecked && bound_hit(d);
    });
    for (const auto& d : sum.distinct)
        if (d.finding.code != cvsim::codes::kTimeout && d.finding.code != cvsim::codes::kUnchecked &&
            !(reference_cut && d.finding.code == cvsim::codes::kNondet))
            return false;
    return true;
}

std::string retry_key(const CheckEntry& x) {
    return x.orchestration + "\x1f" + x.opts.entry;
}

std::string entry_tag(const CheckEntry& ent) {
    return ent.opts.entry.empty() ? "" : " [" + ent.opts.entry + "]";
}

std::string size_text(const DimSizes& dims) {
    std::vector<std::string> t;
    for (const auto& [n, v] : dims) t.push_back(fmt::format("{}={}", n, v));
    return fmt::format("{}", fmt::join(t, ", "));
}

int cmd_explore(const CommonOptions& c, const ExploreOptions& e, bool is_check) {
    return ExploreCommand(c, e, is_check).run();
}

// ---- ExploreCommand ----

ExploreCommand::ExploreCommand(const CommonOptions& c, const ExploreOptions& e, bool is_check)
    : m_c(c), m_e(e), m_is_check(is_check) {}

void ExploreCommand::validate() {
    sim::SessionOptions so = session_options(m_c);
    auto base = sim::parse_schedule(m_e.strategy);
    if (!base || base->strategy == sim::Strategy::Nominal)
        throw std::invalid_argument(fmt::format("--strategy {}: expected random, pct:D or sweep", m_e.strategy));
    if (m_e.max_visibility > 0 && base->strategy != sim::Strategy::Random)
        throw std::invalid_argument(
            fmt::format("--max-visibility-delay: the delay is drawn by --strategy random only, not {}", m_e.strategy));
    if (m_e.shard_count < 1 || m_e.shard_index < 0 || m_e.shard_index >= m_e.shard_count)
        throw std::invalid_argument(
            fmt::format("--shard {}/{}: expected I/N with 0 <= I < N", m_e.shard_index, m_e.shard_count));
    // The in-process loop (--jobs 0) keeps no journal and runs the whole range: refuse what it would ignore.
    if (m_e.jobs == 0 && m_e.merge.empty() && (!m_e.jsonl.empty() || m_e.shard_count != 1))
        throw std::invalid_argument("--jobs 0 runs in this process without --jsonl or --shard; use --jobs 1 or more");
    // Seeds base..base+N-1 must not wrap around 2^64 (a wrapped range would never end); the last seed stays
    // below 2^64 - 1 so that seed + 1 is never 0.
    if (m_e.schedules > UINT64_MAX - 1 - m_e.seed)
        throw std::invalid_argument(
            fmt::format("--seed {} --schedules {}: the seed range passes 2^64 - 1; use a smaller base seed or budget",
                        m_e.seed, m_e.schedules));
    m_base = *base;
    m_fixed_visibility = m_c.visibility_delay
                             ? *m_c.visibility_delay
                             : load_params(so.target, so.config_files, so.param_sets).gm.visibility_delay;
}

int ExploreCommand::run() {
    validate();
    for (const auto& kernel : m_e.kernels)
        if (KernelCheck(*this, kernel).run()) return interrupted_exit();
    if (!m_c.json.empty()) write_json(m_c.json, {{"kernels", m_report}});
    print_file_verdict();
    return m_any_findings ? kExitFindings : m_any_unread ? kExitBadInput : kExitClean;
}

int ExploreCommand::interrupted_exit() {
    if (!m_c.json.empty()) write_json(m_c.json, {{"kernels", m_report}, {"interrupted", true}});
    return kExitInterrupted;
}

void ExploreCommand::print_file_verdict() {
    if (!m_several || m_c.quiet) return;
    std::cout.flush();
    const std::string races =
        m_diag_found > 0 ? fmt::format("{} race diagnostic(s) (error[...] above), ", m_diag_found) : "";
    if (m_any_findings)
        std::cout << fmt::format("FAIL (the file): {}{} of {} kernel verdict(s) with findings; exit 1\n", races,
                                 m_verdicts_found, m_verdicts);
    else if (m_any_unread)
        std::cout << fmt::format(
            "NO VERDICT (the file): {} kernel verdict(s), all clean, but not every kernel was checked (the "
            "diagnostics above); exit 2\n",
            m_verdicts);
    else
        std::cout << fmt::format("PASS (the file): all {} kernel verdict(s) clean\n", m_verdicts);
}

// ---- KernelCheck: the entries in turn ----

ExploreCommand::KernelCheck::KernelCheck(ExploreCommand& cmd, const std::string& kernel)
    : m_cmd(cmd), m_c(cmd.m_c), m_e(cmd.m_e), m_kernel(kernel) {}

void ExploreCommand::KernelCheck::collect_entries() {
    if (m_e.merge.empty())
        for (auto& x : entries_of(m_c, m_kernel, &m_defaulted)) m_entries.push_back(std::move(x));
    else
        m_entries.push_back({m_c, "", "", "", {}, nullptr, "", -1, "", nullptr});
    m_per_launch = m_entries.size() > 1 || m_entries[0].opts.entry != m_c.entry || !m_entries[0].orchestration.empty();
    m_cmd.m_several |= m_entries.size() > 1;
    if (m_e.jobs == 0 && m_e.merge.empty() && m_entries.size() > 1) {
        // In-process: SystemC elaborates once per process, so the machine is built for the widest launch
        // (a narrower one leaves clusters idle); each launch elaborating its own failed from the second on.
        int widest = 1;
        for (const auto& ent : m_entries) widest = std::max(widest, ent.opts.blocks);
        sim::Machine::instance(widest);
    }
    for (const auto& ent : m_entries) m_widest = std::max(m_widest, ent.opts.blocks);
}

bool ExploreCommand::KernelCheck::run() {
    collect_entries();
    bool sizes_queued = false;
    for (size_t ei = 0;; ++ei) {
        if (ei == m_entries.size()) {
            // Every entry at the default ran (and the retries): the other sizes of the defaulted symbols.
            if (sizes_queued) break;
            sizes_queued = true;
            queue_sizes();
            if (ei == m_entries.size()) break;
        }
        if (check_entry(m_entries[ei])) return true;
    }
    return finish();
}

std::string ExploreCommand::KernelCheck::label_of(const CheckEntry& ent) const {
    const std::string& entry = ent.opts.entry;
    return m_per_launch || ent.dim_try > 0 || !ent.dim_sample.empty()
               ? m_kernel + " [" +
                     (ent.orchestration.empty() || ent.orchestration == entry ? "" : ent.orchestration + ": ") + entry +
                     (ent.binding.empty() ? "" : (entry.empty() ? "" : " ") + ent.binding) + "]"
               : m_kernel;
}

bool ExploreCommand::KernelCheck::check_entry(const CheckEntry& ent) {
    if (!ent.dim_sample.empty() && m_size_found.count(retry_key(ent))) {
        size_entry_done(ent, false);  // not run: the kernel's verdict is found already
        return false;
    }
    if (ent.sample_group >= 0) {
        m_sample_taken.emplace(ent.sample_group, 0);
        m_sample_first.emplace(ent.sample_group, &ent);
    }
    // Extra sampled values: only while the group found nothing, never into a journal, one value of the chain.
    if (ent.sample_extra > 0 && (m_sample_found[ent.sample_group] || !m_e.jsonl.empty() ||
                                 (ent.sample_extra == 2 && m_chain_done[ent.sample_group])))
        return false;
    const std::string label = label_of(ent);
    ExploreSummary sum;
    // In-process: the findings' source locations point into the session's source file, so the session
    // lives until the summary is printed and reported (a deferred report keeps it).
    std::shared_ptr<sim::Session> session;
    try {
        raise_unchecked(ent);
        sum = explore_entry(ent, session);
    } catch (const CompileError& err) {
        return on_diagnostic(ent, err);
    }
    return on_summary(ent, label, sum, session);
}

void ExploreCommand::KernelCheck::raise_unchecked(const CheckEntry& ent) const {
    const std::string& entry = ent.opts.entry;
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
        raise(cvsim::codes::kUnchecked, ent.loc,
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
}

ExploreSummary ExploreCommand::KernelCheck::explore_with(const CheckEntry& ent, const ExploreOptions& eo,
                                                         std::shared_ptr<sim::Session>& session) {
    const CommonOptions& ck = ent.opts;
    const std::string& entry = ck.entry;
    // Out of memory checking one kernel of a multi-launch file is that kernel's E-CAPACITY; the
    // others are still checked (it used to end the whole check).
    try {
        if (eo.jobs == 0) {
            sim::SessionOptions kso = session_options(ck);
            kso.max_visibility_delay = eo.max_visibility;  // reject: a drawn delay needs published stores
            session = std::make_shared<sim::Session>(SourceFile::read(m_kernel), kso);
            return explore_kernel(*session, ck, m_kernel, eo, m_cmd.m_base);
        }
        return explore_parallel(ck, m_kernel, eo, m_cmd.m_base);
    } catch (const std::bad_alloc&) {
        session.reset();
        if (!m_per_launch) throw;
        std::shared_ptr<ir::Function> fn = ent.program ? ent.program->find(entry) : nullptr;
        raise(cvsim::codes::kCapacity, fn ? fn->loc : SourceLoc{},
              fmt::format("kernel '{}'{} is not checked: out of memory (it needs more memory than "
                          "this machine gives cvsim)",
                          entry, ent.binding.empty() ? "" : " [" + ent.binding + "]"),
              "check it alone with --entry NAME and smaller --dim sizes, or on a machine with more "
              "memory");
    }
}

ExploreSummary ExploreCommand::KernelCheck::explore_entry(const CheckEntry& ent,
                                                          std::shared_ptr<sim::Session>& session) {
    ExploreSummary sum;
    if (!m_e.merge.empty()) {
        sum = merge_jsonl(m_c, m_kernel, m_e, m_cmd.m_base);
    } else if (ent.sample_extra > 0) {
        // An extra sampled value: its nominal run (and one more) decides whether the kernel takes it; a
        // value it takes that shows nothing there is explored on a small budget (the happens-before
        // graph of a kernel whose control and addresses do not depend on data is the same in every
        // schedule, and the scope line says when that does not hold).
        ExploreOptions probe = m_e;
        probe.schedules = 1;
        sum = explore_with(ent, probe, session);
        bool raced = false;
        const bool out_of_bounds =
            (nominal_oob(sum, &raced) && (!raced || ent.sample_extra == 2)) || only_timeouts(sum);
        if (!out_of_bounds && ent.sample_extra == 2) m_chain_done[ent.sample_group] = true;
        if (!out_of_bounds && sum.distinct.empty() && !sum.interrupted && m_e.schedules > 1) {
            ExploreOptions small = m_e;
            small.schedules = std::min<uint64_t>(m_e.schedules, 8);
            sum = explore_with(ent, small, session);
        }
    } else if (!ent.dim_sample.empty()) {
        // A sampled size: a small budget (its nominal schedule among them), never into a journal (a
        // journal is the default's), and whole in every shard.
        ExploreOptions small = m_e;
        small.schedules = std::min<uint64_t>(m_e.schedules, kSizeSchedules);
        small.jsonl.clear();
        small.shard_index = 0;
        small.shard_count = 1;
        sum = explore_with(ent, small, session);
    } else if (ent.dim_try > 0 && m_e.schedules > 1) {
        // A retry at a smaller size: its nominal schedule decides whether the kernel takes the size
        // (a probe of one more schedule, no journal), and only a size it takes is explored in full.
        ExploreOptions probe = m_e;
        probe.schedules = 1;
        probe.jsonl.clear();
        sum = explore_with(ent, probe, session);
        if (!nominal_oob(sum) && !sum.interrupted) sum = explore_with(ent, m_e, session);
    } else {
        sum = explore_with(ent, m_e, session);
    }
    return sum;
}

}  // namespace cvsim::cli
