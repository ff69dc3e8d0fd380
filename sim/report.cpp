// Report formatting.
#include "sim/report.h"

#include <fmt/format.h>

#include <cmath>

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

void print_run_report(std::ostream& os, const sim::Session& s, const sim::ScheduleResult& r, const ref::Result& want, bool verbose) {
    const auto& o = r.outcome;
    int blocks = s.compiled().plan.blocks;
    std::string vis;
    if (r.schedule.max_visibility > 0 && r.schedule.strategy == sim::Strategy::Random)
        vis = fmt::format(", visibility delay {} (drawn from [0, {}])", r.schedule.visibility_delay, r.schedule.max_visibility);
    else if (r.schedule.visibility_delay > 0)
        vis = fmt::format(", visibility delay {}", r.schedule.visibility_delay);
    os << fmt::format("schedule {} seed {}{}: {} cycles ({:.2f} us at {} GHz), {} instructions\n", r.schedule.str(), r.schedule.seed, vis,
                      o.end_cycle, static_cast<double>(o.end_cycle) / (s.hw().chip.clock_ghz * 1000.0), s.hw().chip.clock_ghz, o.instructions);
    os << fmt::format("{:<16} {:>8} {:>8} {:>8}  {}\n", "core", "start", "end", "cycles", "pipes: busy / stalled (cause)");
    size_t shown = 0;
    for (const auto& c : o.cores) {
        if (!verbose && blocks > 4 && shown >= 6) break;
        ++shown;
        std::string pipes;
        for (const auto& [p, st] : c.pipes) {
            uint64_t stalled = 0;
            std::string causes;
            for (int k = 1; k < kNumStallCauses; ++k)
                if (st.stall[k]) {
                    stalled += st.stall[k];
                    causes += fmt::format("{}{} {}", causes.empty() ? "" : ", ", stall_cause_name(static_cast<StallCause>(k)), st.stall[k]);
                }
            if (st.busy == 0 && stalled == 0) continue;
            pipes += fmt::format("{} {}/{}{} ", ir::pipe_name(p), st.busy, stalled, causes.empty() ? "" : " (" + causes + ")");
        }
        os << fmt::format("{:<16} {:>8} {:>8} {:>8}  {}\n", core_label(c, blocks), c.start, c.end, c.end - c.start,
                          c.finished ? pipes : "BLOCKED " + pipes);
    }
    if (!verbose && blocks > 4 && o.cores.size() > shown) os << fmt::format("... {} more cores (-v shows all)\n", o.cores.size() - shown);
    for (const auto& ring : o.rings)
        os << fmt::format("ring {}{} id {}: {} slots x {} B, {} pushes, max occupancy {}, producer stalled {} cycles\n",
                          blocks > 1 ? fmt::format("c{} ", ring.cluster) : "", ring.c2v ? "C2V" : "V2C", ring.id, ring.slot_num,
                          ring.slot_size, ring.pushes, ring.max_occupancy, ring.producer_stall_cycles);
    os << fmt::format("GM: {} B read, {} B written; L2 hit rate {:.1f}%\n", o.gm_bytes_read, o.gm_bytes_written, 100.0 * o.l2_hit_rate);
    if (want.error) {
        os << fmt::format("reference: could not run ({}: {})\n", want.error->code, want.error->message);
    } else if (o.completed) {
        bool mismatch = false;
        for (const auto& f : r.findings) mismatch |= f.code == "E-MISMATCH" || f.code == "E-UNWRITTEN";
        int outputs = 0;
        bool atomic_tol = false;
        for (const auto& t : want.gm.tensors) {
            outputs += t.is_output();
            for (double x : t.atomic_tol) atomic_tol |= x > 0;
        }
        os << (mismatch ? "outputs: DIFFER from the reference\n"
                        : fmt::format("outputs: equal to the reference ({} tensor{}, {})\n", outputs, outputs == 1 ? "" : "s",
                                      s.options().compare.rtol > 0 || s.options().compare.atol > 0 ? "within tolerance"
                                      : atomic_tol ? "bit-exact except float atomic sums, within their order bound"
                                                   : "bit-exact"));
    }
    if (r.findings.empty()) {
        os << "findings: none\n";
        return;
    }
    os << fmt::format("findings: {}\n", r.findings.size());
    for (const auto& f : r.findings) os << sim::format_finding(f);
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
        j["rings"].push_back({{"cluster", ring.cluster}, {"direction", ring.c2v ? "C2V" : "V2C"}, {"slots", ring.slot_num},
                              {"slot_size", ring.slot_size}, {"pushes", ring.pushes}, {"max_occupancy", ring.max_occupancy},
                              {"producer_stall_cycles", ring.producer_stall_cycles}});
    j["gm"] = {{"bytes_read", o.gm_bytes_read}, {"bytes_written", o.gm_bytes_written}, {"l2_hit_rate", o.l2_hit_rate}};
    j["outputs_match_reference"] = o.completed && !want.error;
    for (const auto& f : r.findings) {
        if (f.code == "E-MISMATCH" || f.code == "E-UNWRITTEN") j["outputs_match_reference"] = false;
        j["findings"].push_back(sim::finding_json(f));
    }
    if (!j.contains("findings")) j["findings"] = nlohmann::json::array();
    j["expand"] = stats_json(s.compiled().stats);
    return j;
}

void print_expand_stats(std::ostream& os, const passes::ExpandStats& st) {
    os << fmt::format("expand: {} function(s) split, {} boundary move(s), C2V fences {}, V2C fences {}, WAR orderings {}, "
                      "fallbacks {}, barriers {}, already ordered {}, left unfenced {}\n",
                      st.functions_expanded, st.boundaries, st.c2v_fences, st.v2c_fences, st.war_orders, st.fallbacks, st.barriers,
                      st.already_ordered, st.unfenced);
    if (st.c2v_complete) os << fmt::format("  --c2v complete: {} C2V ordering(s) added beyond upstream\n", st.c2v_orders);
    for (const auto& l : st.log) os << "  " << l << "\n";
}

nlohmann::json stats_json(const passes::ExpandStats& st) {
    return {{"functions_expanded", st.functions_expanded}, {"boundaries", st.boundaries}, {"c2v_fences", st.c2v_fences},
            {"v2c_fences", st.v2c_fences}, {"war_orders", st.war_orders}, {"fallbacks", st.fallbacks},
            {"barriers", st.barriers}, {"already_ordered", st.already_ordered}, {"unfenced", st.unfenced},
            {"c2v_orders", st.c2v_orders}, {"log", st.log}};
}

VerdictScope verdict_scope(const passes::TimingScope& statics, const ExploreSummary& sum, const sim::Schedule& strategy,
                           uint64_t visibility, uint64_t max_visibility) {
    VerdictScope v;
    v.reasons = statics.reasons;
    for (const auto& d : sum.distinct) {
        const std::string& code = d.finding.code;
        if (code == "W-NONUNIFORM-GATHER")
            v.reasons.push_back("W-NONUNIFORM-GATHER: the cube's data depends on which AIV lane's push landed last");
        else if (code == "E-TIMEOUT" || code == "E-CRASH")
            v.reasons.push_back(code + ": some schedules did not run to the end");
    }
    if (sum.crashes > 0 && v.reasons.empty()) v.reasons.push_back("E-CRASH: some schedules did not run to the end");
    v.all_schedules = v.reasons.empty();
    if (max_visibility > 0)
        v.qualifier = fmt::format("GM writes visible up to {} cycles after completion, as drawn per schedule", max_visibility);
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
        v.pct_hit = 1.0 / (static_cast<double>(v.pct_cores) * std::pow(static_cast<double>(v.pct_events), v.pct_depth - 1));
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
        os << fmt::format("    PCT bound (n = {} cores, k = {} events, d = {}): a schedule finds a depth-{} bug with\n"
                          "    probability >= {:.3g}; {} schedules miss it with probability <= {:.3g}\n",
                          v.pct_cores, v.pct_events, v.pct_depth, v.pct_depth, v.pct_hit, v.pct_schedules, v.pct_miss);
    else
        os << "    random schedules give no probabilistic bound; explore with --strategy pct:D for one\n";
}

}  // namespace

void print_explore_summary(std::ostream& os, const std::string& kernel, const ExploreSummary& sum, bool is_check,
                           const VerdictScope* scope) {
    os << fmt::format("{}: {} schedules ({:.0f}/s), {} with findings; cycles nominal {}, range {}..{}\n", kernel, sum.schedules,
                      sum.wall_seconds > 0 ? static_cast<double>(sum.schedules) / sum.wall_seconds : 0.0, sum.failing,
                      sum.nominal_cycles, sum.min_cycles, sum.max_cycles);
    if (sum.peak_rss_kb > 0)
        os << fmt::format("wall {:.2f} s, {} job{}; peak RSS {:.1f} MiB{}\n", sum.wall_seconds, sum.jobs, sum.jobs == 1 ? "" : "s",
                          static_cast<double>(sum.peak_rss_kb) / 1024.0,
                          sum.workers_peak_rss_kb > 0 ? fmt::format(" (largest worker {:.1f} MiB)", static_cast<double>(sum.workers_peak_rss_kb) / 1024.0) : "");
    if (sum.interrupted)
        os << "INTERRUPTED: a partial summary of the schedules finished before the signal (no verdict; rerun with the same "
              "--jsonl file to resume)\n";
    if (sum.distinct.empty()) {
        os << (sum.interrupted ? "no findings so far\n" : is_check ? "PASS: no finding in any explored schedule\n" : "no findings\n");
        if (scope && !sum.interrupted) print_scope(os, *scope);
        return;
    }
    os << fmt::format("{}: {} distinct finding(s)\n", is_check ? "FAIL" : "findings", sum.distinct.size());
    for (const auto& d : sum.distinct) {
        os << sim::format_finding(d.finding);
        os << fmt::format("    seen in {} of {} schedules; first: {} seed {}\n    replay: {}\n", d.count, sum.schedules, d.first.str(),
                          d.first.seed, d.replay);
    }
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
            sc["pct"] = {{"cores", scope->pct_cores}, {"events", scope->pct_events}, {"depth", scope->pct_depth},
                         {"schedules", scope->pct_schedules}, {"hit_per_schedule", scope->pct_hit}, {"miss_probability", scope->pct_miss}};
        j["scope"] = sc;
    }
    return j;
}

}  // namespace cvsim::cli
