// Report formatting: run, exploration and expansion reports (text and JSON). Line layout, finding groups and
// the parameter listing: report_text.cpp.
#include "app/report.h"

#include <fmt/format.h>

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "frontend/codes.h"
#include "sim/verdict.h"

namespace cvsim::cli {

namespace {

std::string core_label(const sim::CoreReport& c, int blocks) {
    std::string n(sim::core_name(c.core));
    if (blocks > 1) n = fmt::format("c{} {}", c.cluster, n);
    if (c.replay) n += " (replay)";
    return n;
}

}  // namespace

namespace {

// The findings of one run or one exploration as text: each group of repeats once, with a count and the
// clusters; at most kMaxGroups groups (every finding is in --json). `after` adds lines under a group's
// representative (the exploration's frequency and replay command).
constexpr size_t kMaxGroups = 12;

void print_finding_groups(std::ostream& os, const std::vector<const sim::Finding*>& findings,
                          const std::vector<uint64_t>& rank = {},
                          const std::function<std::string(size_t)>& after = {}) {
    std::vector<FindingGroup> groups = group_findings(findings, rank);
    for (size_t g = 0; g < groups.size() && g < kMaxGroups; ++g) {
        const FindingGroup& grp = groups[g];
        os << sim::format_finding(*findings[grp.first]);
        if (after) os << after(grp.first);
        if (grp.count > 1) {
            std::string where =
                grp.clusters.size() > 1 ? fmt::format(" on clusters {}", cluster_ranges(grp.clusters)) : "";
            os << fmt::format("    ... and {} more like this{} (--json lists each)\n", grp.count - 1, where);
        }
    }
    if (groups.size() > kMaxGroups) {
        size_t rest = 0;
        for (size_t g = kMaxGroups; g < groups.size(); ++g) rest += groups[g].count;
        os << fmt::format("... and {} more finding(s) of {} other kind(s) (--json lists each)\n", rest,
                          groups.size() - kMaxGroups);
    }
}

// "SCALAR 3/1506 (dependency 102, ring 1404)" per pipe with work or stalls.
std::vector<std::string> pipe_texts(const sim::CoreReport& c) {
    std::vector<std::string> out;
    for (const auto& [p, st] : c.pipes) {
        uint64_t stalled = 0;
        std::string causes;
        for (int k = 1; k < kNumStallCauses; ++k)
            if (st.stall[k]) {
                stalled += st.stall[k];
                causes += fmt::format("{}{} {}", causes.empty() ? "" : ", ",
                                      stall_cause_name(static_cast<StallCause>(k)), st.stall[k]);
            }
        if (st.busy == 0 && stalled == 0) continue;
        out.push_back(
            fmt::format("{} {}/{}{}", ir::pipe_name(p), st.busy, stalled, causes.empty() ? "" : " (" + causes + ")"));
    }
    return out;
}

}  // namespace

void print_run_report(std::ostream& out, const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want,
                      bool verbose, size_t width) {
    std::ostringstream os;
    const auto& o = r.outcome;
    int blocks = s.compiled().plan.blocks;
    std::string vis;
    if (r.schedule.max_visibility > 0 && r.schedule.strategy == sim::Strategy::Random)
        vis = fmt::format(", visibility delay {} (drawn from [0, {}])", r.schedule.visibility_delay,
                          r.schedule.max_visibility);
    else if (r.schedule.visibility_delay > 0)
        vis = fmt::format(", visibility delay {}", r.schedule.visibility_delay);
    os << fmt::format("schedule {} seed {}{}: {} cycles ({:.2f} us at {} GHz), {} instructions\n", r.schedule.str(),
                      r.schedule.seed, vis, o.end_cycle,
                      static_cast<double>(o.end_cycle) / (s.hw().chip.clock_ghz * 1000.0), s.hw().chip.clock_ghz,
                      o.instructions);
    // One line per core when it fits the width; else the pipes go on indented lines under the core.
    constexpr size_t kCoreCols = 16 + 1 + 8 + 1 + 8 + 1 + 8 + 2;
    std::vector<std::string> lines;
    size_t shown = 0;
    bool one_line = true;
    for (const auto& c : o.cores) {
        if (!verbose && blocks > 4 && shown >= 6) break;
        ++shown;
        std::string pipes;
        for (const auto& p : pipe_texts(c)) pipes += (pipes.empty() ? "" : "  ") + p;
        if (!c.finished) pipes = "BLOCKED " + pipes;
        lines.push_back(pipes);
        one_line = one_line && kCoreCols + pipes.size() <= width;
    }
    if (one_line)
        os << fmt::format("{:<16} {:>8} {:>8} {:>8}  {}\n", "core", "start", "end", "cycles",
                          "pipes: busy / stalled (cause)");
    else
        os << fmt::format("{:<16} {:>8} {:>8} {:>8}\n    pipes: busy / stalled cycles (cause)\n", "core", "start",
                          "end", "cycles");
    for (size_t i = 0; i < shown; ++i) {
        const auto& c = o.cores[i];
        std::string head =
            fmt::format("{:<16} {:>8} {:>8} {:>8}", core_label(c, blocks), c.start, c.end, c.end - c.start);
        if (one_line) {
            os << head << "  " << lines[i] << "\n";
            continue;
        }
        os << head << "\n";
        // Pack whole pipe entries on lines indented 4 (an entry wider than a line is wrapped at the end).
        std::string line;
        auto entries = pipe_texts(c);
        if (!c.finished) entries.insert(entries.begin(), "BLOCKED");
        for (const auto& e : entries) {
            if (!line.empty() && 4 + line.size() + 2 + e.size() > width) {
                os << "    " << line << "\n";
                line.clear();
            }
            line += (line.empty() ? "" : "  ") + e;
        }
        if (!line.empty()) os << "    " << line << "\n";
    }
    if (!verbose && blocks > 4 && o.cores.size() > shown)
        os << fmt::format("... {} more cores (-v shows all)\n", o.cores.size() - shown);
    size_t rings_shown = 0;
    for (const auto& ring : o.rings) {
        if (!verbose && blocks > 4 && ring.cluster >= 2) continue;
        ++rings_shown;
        os << fmt::format("ring {}{} id {}: {} slots x {} B, {} pushes, max occupancy {}, producer stalled {} cycles\n",
                          blocks > 1 ? fmt::format("c{} ", ring.cluster) : "", ring.c2v ? "C2V" : "V2C", ring.id,
                          ring.slot_num, ring.slot_size, ring.pushes, ring.max_occupancy, ring.producer_stall_cycles);
    }
    if (o.rings.size() > rings_shown)
        os << fmt::format("... {} more rings (-v shows all)\n", o.rings.size() - rings_shown);
    os << fmt::format("GM: {} B read, {} B written; L2 hit rate {:.1f}%\n", o.gm_bytes_read, o.gm_bytes_written,
                      100.0 * o.l2_hit_rate);
    if (want.error) {
        os << fmt::format("reference: could not run ({}: {})\n", want.error->code, want.error->message);
    } else if (o.completed) {
        bool mismatch = false;
        for (const auto& f : r.findings) mismatch |= f.code == codes::kMismatch || f.code == codes::kUnwritten;
        int outputs = 0;
        bool atomic_tol = false;
        for (const auto& t : want.gm.tensors) {
            outputs += t.is_output();
            for (double x : t.atomic_tol) atomic_tol |= x > 0;
        }
        os << (mismatch ? "outputs: DIFFER from the reference\n"
                        : fmt::format("outputs: equal to the reference ({} tensor{}, {})\n", outputs,
                                      outputs == 1 ? "" : "s",
                                      s.options().compare.rtol > 0 || s.options().compare.atol > 0 ? "within tolerance"
                                      : atomic_tol ? "bit-exact except float atomic sums, within their order bound"
                                                   : "bit-exact"));
    }
    if (r.findings.empty()) {
        os << "findings: none\n";
    } else {
        std::vector<const sim::Finding*> fs;
        for (const auto& f : r.findings) fs.push_back(&f);
        size_t kinds = group_findings(fs).size();
        os << fmt::format("findings: {}{}\n", r.findings.size(),
                          kinds < r.findings.size() ? fmt::format(" ({} distinct mistake{}; --json lists each finding)",
                                                                  kinds, kinds == 1 ? "" : "s")
                                                    : "");
        print_finding_groups(os, fs);
    }
    out << fit_width(os.str(), width);
}

nlohmann::json run_json(const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want) {
    const auto& o = r.outcome;
    nlohmann::json j;
    j["schedule"] = r.schedule.str();
    j["seed"] = r.schedule.seed;
    j["visibility_delay"] = r.schedule.visibility_delay;
    j["cycles"] = o.end_cycle;
    j["completed"] = o.completed;
    j["instructions"] = o.instructions;
    j["sync_events"] = o.sync_events;
    j["cores_launched"] = o.cores.size();
    j["target"] = std::string(target_name(s.hw().target));
    for (const auto& c : o.cores) {
        nlohmann::json cj;
        cj["cluster"] = c.cluster;
        cj["core"] = std::string(sim::core_name(c.core));
        cj["replay"] = c.replay;
        cj["finished"] = c.finished;
        cj["start"] = c.start;
        cj["end"] = c.end;
        for (const auto& [p, st] : c.pipes) {
            nlohmann::json pj;
            pj["busy"] = st.busy;
            pj["instructions"] = st.instrs;
            for (int k = 1; k < kNumStallCauses; ++k)
                if (st.stall[k]) pj["stall"][std::string(stall_cause_name(static_cast<StallCause>(k)))] = st.stall[k];
            cj["pipes"][std::string(ir::pipe_name(p))] = pj;
        }
        if (!c.blocked.empty()) cj["blocked"] = c.blocked;
        j["cores"].push_back(cj);
    }
    for (const auto& ring : o.rings)
        j["rings"].push_back({{"cluster", ring.cluster},
                              {"direction", ring.c2v ? "C2V" : "V2C"},
                              {"slots", ring.slot_num},
                              {"slot_size", ring.slot_size},
                              {"pushes", ring.pushes},
                              {"max_occupancy", ring.max_occupancy},
                              {"producer_stall_cycles", ring.producer_stall_cycles}});
    j["gm"] = {{"bytes_read", o.gm_bytes_read}, {"bytes_written", o.gm_bytes_written}, {"l2_hit_rate", o.l2_hit_rate}};
    j["outputs_match_reference"] = o.completed && !want.error;
    for (const auto& f : r.findings) {
        if (f.code == codes::kMismatch || f.code == codes::kUnwritten) j["outputs_match_reference"] = false;
        j["findings"].push_back(sim::finding_json(f));
    }
    if (!j.contains("findings")) j["findings"] = nlohmann::json::array();
    j["expand"] = stats_json(s.compiled().stats);
    return j;
}

void print_expand_stats(std::ostream& os, const passes::ExpandStats& st) {
    os << fmt::format(
        "expand: {} function(s) split, {} boundary move(s), C2V fences {}, V2C fences {}, WAR orderings {}, "
        "fallbacks {}, barriers {}, already ordered {}, left unfenced {}\n",
        st.functions_expanded, st.boundaries, st.c2v_fences, st.v2c_fences, st.war_orders, st.fallbacks, st.barriers,
        st.already_ordered, st.unfenced);
    if (st.c2v_complete)
        os << fmt::format("  --c2v complete: {} C2V ordering(s) added beyond upstream\n", st.c2v_orders);
    if (st.pruned)
        os << fmt::format("  final re-check: {} insertion(s) removed, the others order every pair without them\n",
                          st.pruned);
    for (const auto& l : st.log) os << "  " << l << "\n";
}

nlohmann::json stats_json(const passes::ExpandStats& st) {
    return {{"functions_expanded", st.functions_expanded},
            {"boundaries", st.boundaries},
            {"c2v_fences", st.c2v_fences},
            {"v2c_fences", st.v2c_fences},
            {"war_orders", st.war_orders},
            {"fallbacks", st.fallbacks},
            {"barriers", st.barriers},
            {"already_ordered", st.already_ordered},
            {"unfenced", st.unfenced},
            {"c2v_orders", st.c2v_orders},
            {"pruned", st.pruned},
            {"log", st.log}};
}

nlohmann::json passes_json(const std::vector<PassRecord>& records) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : records) {
        nlohmann::json stats = nlohmann::json::object();
        for (const auto& [k, v] : r.stats) stats[k] = v;
        out.push_back({{"name", r.name}, {"scope", r.scope}, {"stats", stats}});
    }
    return out;
}

VerdictScope verdict_scope(const passes::TimingScope& statics, const ExploreSummary& sum, const sim::Schedule& strategy,
                           uint64_t visibility, uint64_t max_visibility) {
    VerdictScope v;
    v.reasons = statics.reasons;
    for (const auto& d : sum.distinct) {
        const std::string& code = d.finding.code;
        // A named string, not a literal: g++ 12 at -O2 raises a false -Wstringop-overread on push_back("...") here.
        static const std::string kGatherReason =
            "W-NONUNIFORM-GATHER: the cube's data depends on which AIV lane's push landed last";
        if (code == codes::kNonuniformGather)
            v.reasons.push_back(kGatherReason);
        else if (code == codes::kTimeout || code == codes::kCrash)
            v.reasons.push_back(code + ": some schedules did not run to the end");
    }
    if (sum.crashes > 0 && v.reasons.empty()) v.reasons.push_back("E-CRASH: some schedules did not run to the end");
    v.all_schedules = v.reasons.empty();
    if (max_visibility > 0)
        v.qualifier =
            fmt::format("GM writes visible up to {} cycles after completion, as drawn per schedule", max_visibility);
    else if (visibility > 0)
        v.qualifier = fmt::format("GM writes visible {} cycles after completion", visibility);
    else
        v.qualifier = "GM writes visible on completion; --visibility-delay N also requires publishing fences";
    if (strategy.strategy == sim::Strategy::Pct && sum.nominal_events > 0 && sum.nominal_cores > 0) {
        v.has_pct_bound = true;
        v.pct_depth = strategy.pct_depth;
        v.pct_events = sum.nominal_events;
        v.pct_cores = sum.nominal_cores;
        v.pct_schedules = sum.schedules > 0 ? sum.schedules - 1 : 0;  // the nominal schedule is not a PCT draw
        v.pct_hit =
            1.0 / (static_cast<double>(v.pct_cores) * std::pow(static_cast<double>(v.pct_events), v.pct_depth - 1));
        v.pct_miss = std::pow(1.0 - v.pct_hit, static_cast<double>(v.pct_schedules));
    }
    return v;
}

namespace {

void print_scope(std::ostream& os, const VerdictScope& v) {
    if (v.all_schedules) {
        os << "scope: holds for every schedule: no control flow or GM address depends on data, so rings,\n"
              "       flags and barriers order the same accesses in every schedule\n"
           << "       (" << v.qualifier << ")\n";
        return;
    }
    os << "scope: holds for the explored schedules only:\n";
    for (const auto& r : v.reasons) os << "    " << r << "\n";
    if (v.has_pct_bound)
        os << fmt::format(
            "    PCT bound (n = {} cores, k = {} events, d = {}): a schedule finds a depth-{} bug with\n"
            "    probability >= {:.3g}; {} schedules miss it with probability <= {:.3g}\n",
            v.pct_cores, v.pct_events, v.pct_depth, v.pct_depth, v.pct_hit, v.pct_schedules, v.pct_miss);
    else
        os << "    random schedules give no probabilistic bound; explore with --strategy pct:D for one\n";
}

}  // namespace

void print_explore_summary(std::ostream& out, const std::string& kernel, const ExploreSummary& sum, bool is_check,
                           const VerdictScope* scope, size_t width) {
    std::ostringstream os;
    os << fmt::format("{}: {} schedules ({:.0f}/s), {} with findings; cycles nominal {}, range {}..{}\n", kernel,
                      sum.schedules, sum.wall_seconds > 0 ? static_cast<double>(sum.schedules) / sum.wall_seconds : 0.0,
                      sum.failing, sum.nominal_cycles, sum.min_cycles, sum.max_cycles);
    if (sum.peak_rss_kb > 0)
        os << fmt::format(
            "wall {:.2f} s, {} job{}; peak RSS {:.1f} MiB{}\n", sum.wall_seconds, sum.jobs, sum.jobs == 1 ? "" : "s",
            static_cast<double>(sum.peak_rss_kb) / 1024.0,
            sum.workers_peak_rss_kb > 0
                ? fmt::format(" (largest worker {:.1f} MiB)", static_cast<double>(sum.workers_peak_rss_kb) / 1024.0)
                : "");
    if (sum.wall_time_stop)
        os << "stopped: a schedule ran into the wall-time bound (--timeout), as every further one would\n";
    if (sum.interrupted)
        os << "INTERRUPTED: a partial summary of the schedules finished before the signal (no verdict; a run with "
              "--jsonl FILE resumes when rerun with the same file)\n";
    if (sum.distinct.empty()) {
        os << (sum.interrupted ? "no findings so far\n"
               : is_check      ? "PASS: no finding in any explored schedule\n"
                               : "no findings\n");
        if (scope && !sum.interrupted) print_scope(os, *scope);
        out << fit_width(os.str(), width);
        return;
    }
    std::vector<const sim::Finding*> fs;
    std::vector<uint64_t> rank;  // the earliest seed first (the nominal schedule before all)
    for (const auto& d : sum.distinct) {
        fs.push_back(&d.finding);
        rank.push_back(d.first.strategy == sim::Strategy::Nominal ? 0 : d.first.seed + 1);
    }
    size_t kinds = group_findings(fs, rank).size();
    os << fmt::format("{}: {} distinct finding(s){}{}\n", is_check ? "FAIL" : "findings", sum.distinct.size(),
                      kinds < sum.distinct.size() ? fmt::format(", {} distinct mistake{}; --json lists each finding",
                                                                kinds, kinds == 1 ? "" : "s")
                                                  : "",
                      sum.interrupted ? " so far" : "");
    print_finding_groups(os, fs, rank, [&](size_t i) {
        const DistinctFinding& d = sum.distinct[i];
        return fmt::format("    seen in {} of {} schedules; first: {} seed {}\n    replay: {}\n", d.count,
                           sum.schedules, d.first.str(), d.first.seed, d.replay);
    });
    out << fit_width(os.str(), width);
}

nlohmann::json explore_json(const std::string& kernel, const ExploreSummary& sum, const VerdictScope* scope) {
    nlohmann::json j;
    j["kernel"] = kernel;
    j["schedules"] = sum.schedules;
    j["failing"] = sum.failing;
    j["wrong_outputs"] = sum.wrong_outputs;
    j["hazards"] = sum.hazards;
    j["nominal_cycles"] = sum.nominal_cycles;
    j["crashes"] = sum.crashes;
    j["interrupted"] = sum.interrupted;
    if (sum.wall_time_stop) j["wall_time_stop"] = true;
    // Run statistics (not part of the verdict: they vary between runs and are 0 for --merge).
    j["jobs"] = sum.jobs;
    j["wall_seconds"] = sum.wall_seconds;
    j["schedules_per_s"] = sum.wall_seconds > 0 ? static_cast<double>(sum.schedules) / sum.wall_seconds : 0.0;
    j["peak_rss_kb"] = sum.peak_rss_kb;
    j["workers_peak_rss_kb"] = sum.workers_peak_rss_kb;
    j["findings"] = nlohmann::json::array();
    for (const auto& d : sum.distinct) {
        auto f = sim::finding_json(d.finding);
        f["count"] = d.count;
        f["first_schedule"] = d.first.str();
        f["first_seed"] = d.first.seed;
        f["first_visibility_delay"] = d.first.visibility_delay;
        f["replay"] = d.replay;
        j["findings"].push_back(f);
    }
    if (scope) {
        nlohmann::json sc;
        sc["all_schedules"] = scope->all_schedules;
        sc["reasons"] = scope->reasons;
        sc["visibility"] = scope->qualifier;
        if (scope->has_pct_bound)
            sc["pct"] = {{"cores", scope->pct_cores},          {"events", scope->pct_events},
                         {"depth", scope->pct_depth},          {"schedules", scope->pct_schedules},
                         {"hit_per_schedule", scope->pct_hit}, {"miss_probability", scope->pct_miss}};
        j["scope"] = sc;
    }
    return j;
}

}  // namespace cvsim::cli
