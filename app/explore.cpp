// Exploration: the JSON-lines records and their summary, and the in-process loop. The worker processes and
// their supervisor are in explore_workers.cpp.
#include "app/explore.h"
#include "app/explore_internal.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <fmt/format.h>

#include <sstream>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <thread>
#include <tuple>

#include "app/journal.h"
#include "frontend/codes.h"
#include "frontend/diag.h"

namespace cvsim::cli {

using sim::Finding;
using sim::Schedule;

// ---------------------------------------------------------------- records and summaries

nlohmann::json record_json(const ScheduleRecord& r, const std::string& kernel) {
    nlohmann::json j;
    j["kernel"] = kernel;
    j["seed"] = r.schedule.seed;
    j["strategy"] = r.schedule.str();
    if (r.schedule.resolved) j["visibility_delay"] = r.schedule.visibility_delay;
    if (r.schedule.max_visibility > 0) j["max_visibility"] = r.schedule.max_visibility;
    j["verdict"] = r.verdict;
    j["cycles"] = r.cycles;
    if (r.events) j["events"] = r.events;
    if (r.cores) j["cores"] = r.cores;
    j["codes"] = r.codes;
    j["keys"] = r.keys;
    nlohmann::json full = nlohmann::json::array();
    for (const auto& f : r.full) {
        nlohmann::json fj = sim::finding_json(f);
        fj["key"] = f.key;
        full.push_back(fj);
    }
    j["findings"] = full;
    return j;
}

ScheduleRecord record_from_json(const nlohmann::json& j) {
    ScheduleRecord r;
    auto sc = sim::parse_schedule(j.value("strategy", std::string("random")));
    r.schedule = sc ? *sc : Schedule{};
    r.schedule.seed = j.value("seed", uint64_t{0});
    r.schedule.max_visibility = j.value("max_visibility", uint64_t{0});
    if (j.contains("visibility_delay")) {
        r.schedule.visibility_delay = j.value("visibility_delay", uint64_t{0});
        r.schedule.resolved = true;
    }
    r.verdict = j.value("verdict", std::string("clean"));
    r.cycles = j.value("cycles", uint64_t{0});
    r.events = j.value("events", uint64_t{0});
    r.cores = j.value("cores", 0);
    r.codes = j.value("codes", std::vector<std::string>{});
    r.keys = j.value("keys", std::vector<std::string>{});
    for (const auto& fj : j.value("findings", nlohmann::json::array())) {
        Finding f;
        f.code = fj.value("code", std::string());
        f.message = fj.value("message", std::string());
        f.details = fj.value("details", std::vector<std::string>{});
        f.cycle = fj.value("cycle", uint64_t{0});
        f.key = fj.value("key", std::string());
        r.full.push_back(f);
    }
    return r;
}

void SummaryBuilder::add(const ScheduleRecord& r) {
    ExploreSummary& s = m_sum;
    ++s.schedules;
    bool nominal = r.schedule.strategy == sim::Strategy::Nominal;
    if (nominal) {
        s.nominal_cycles = r.cycles;
        s.nominal_events = r.events;
        s.nominal_cores = r.cores;
    }
    if (r.verdict == "crash") {
        ++s.crashes;
    } else {
        if (!m_any) s.min_cycles = s.max_cycles = r.cycles;
        m_any = true;
        s.min_cycles = std::min(s.min_cycles, r.cycles);
        s.max_cycles = std::max(s.max_cycles, r.cycles);
    }
    if (r.codes.empty()) return;
    ++s.failing;
    bool wrong = false, race = false;
    for (const auto& c : r.codes) {
        wrong |= c == codes::kMismatch || c == codes::kUnwritten;
        race |= is_race_code(c);
    }
    s.wrong_outputs += wrong;
    s.hazards += race;
    // The full finding comes from the smallest seed that shows it (the nominal schedule before all).
    uint64_t order = nominal ? 0 : r.schedule.seed + 1;
    for (size_t i = 0; i < r.keys.size(); ++i) {
        Key& k = m_keys[r.keys[i]];
        ++k.count;
        const Finding* full = nullptr;
        for (const auto& f : r.full)
            if (f.key == r.keys[i]) full = &f;
        if (order < k.first_seed || (order == k.first_seed && full && !k.have_full)) {
            if (order < k.first_seed) k.have_full = false;
            k.first_seed = order;
            k.first = r.schedule;
            k.nominal = nominal;
            if (full) {
                k.finding = *full;
                k.have_full = true;
            } else if (!k.have_full) {
                k.finding.code = i < r.codes.size() ? r.codes[i] : "?";
                k.finding.key = r.keys[i];
                k.finding.message = k.finding.code;
            }
        } else if (full && !k.have_full) {
            k.finding = *full;  // a later seed's text until the first seed's arrives
            k.have_full = true;
        }
    }
}

ExploreSummary SummaryBuilder::finish(const CommonOptions& c, const std::string& kernel) {
    ExploreSummary s = m_sum;
    // By first seed; within a schedule, causes before symptoms (a race before the wrong output it causes).
    auto rank = [](const std::string& code) {
        if (is_race_code(code)) return 0;
        if (code == codes::kOccupancy || code == codes::kDeadlock) return 1;
        if (code == codes::kMismatch || code == codes::kUnwritten || code == codes::kNondet) return 4;
        if (const CodeInfo* ci = find_code(code); ci && ci->severity == CodeSeverity::Warning) return 3;
        return 2;
    };
    std::vector<std::tuple<uint64_t, int, std::string>> order;
    for (auto& [key, k] : m_keys) order.push_back({k.first_seed, rank(k.finding.code), key});
    std::sort(order.begin(), order.end());
    for (auto& [seed, r, key] : order) {
        const Key& k = m_keys[key];
        DistinctFinding d;
        d.finding = k.finding;
        d.first = k.first;
        d.count = k.count;
        d.replay = replay_command(c, kernel, k.first);
        s.distinct.push_back(std::move(d));
    }
    return s;
}

ScheduleRecord to_record(const sim::ScheduleResult& r, std::set<std::string>* reported) {
    ScheduleRecord rec;
    rec.schedule = r.schedule;
    rec.cycles = r.cycles();
    if (r.schedule.strategy == sim::Strategy::Nominal) {
        rec.events = r.outcome.sync_events;
        for (const auto& c : r.outcome.cores) rec.cores += c.launched ? 1 : 0;
    }
    rec.verdict = r.findings.empty() ? "clean" : "findings";
    for (const auto& f : r.findings) {
        std::string key = f.key.empty() ? f.code + ":" + f.message : f.key;
        rec.codes.push_back(f.code);
        rec.keys.push_back(key);
        if (!reported || reported->insert(key).second) {
            Finding copy = f;
            copy.key = key;
            rec.full.push_back(copy);
        }
    }
    return rec;
}

// A worker's record for its supervisor: a clean schedule (most of them) as one line of numbers, "C strategy
// seed visibility_delay|- max_visibility cycles events cores", which the supervisor turns into the record
// record_from_json would give for its JSON; any other as "R" and its JSON.
std::string record_line(const ScheduleRecord& r, const std::string& kernel) {
    if (r.verdict == "clean" && r.codes.empty() && r.keys.empty() && r.full.empty())
        return fmt::format("C {} {} {} {} {} {} {}\n", r.schedule.str(), r.schedule.seed,
                           r.schedule.resolved ? std::to_string(r.schedule.visibility_delay) : std::string("-"),
                           r.schedule.max_visibility, r.cycles, r.events, r.cores);
    return "R " + record_json(r, kernel).dump() + "\n";
}

ScheduleRecord clean_record_from_line(const std::string& line) {
    std::istringstream in(line.substr(2));
    std::string strategy, vis;
    ScheduleRecord r;
    in >> strategy >> r.schedule.seed >> vis >> r.schedule.max_visibility >> r.cycles >> r.events >> r.cores;
    if (!in) throw std::runtime_error("worker: a malformed record: " + line);
    const uint64_t seed = r.schedule.seed, max_visibility = r.schedule.max_visibility;
    auto sc = sim::parse_schedule(strategy);
    r.schedule = sc ? *sc : Schedule{};
    r.schedule.seed = seed;
    r.schedule.max_visibility = max_visibility;
    if (vis != "-") {
        r.schedule.visibility_delay = std::stoull(vis);
        r.schedule.resolved = true;
    }
    r.verdict = "clean";
    return r;
}

bool hit_wall_time_bound(const std::vector<sim::Finding>& findings) {
    for (const auto& f : findings)
        if (f.code == codes::kTimeout && f.message.find("wall-time bound") != std::string::npos) return true;
    return false;
}

sim::Schedule schedule_for(const Schedule& base, const ExploreOptions& e, uint64_t seed) {
    Schedule s = base;
    s.seed = seed;
    if (e.max_visibility > 0) s.max_visibility = e.max_visibility;
    return s;
}

ExploreSummary explore_kernel(sim::Session& session, const CommonOptions& c, const std::string& kernel,
                              const ExploreOptions& e, const Schedule& base,
                              const std::function<void(uint64_t)>& progress) {
    auto t0 = std::chrono::steady_clock::now();
    SummaryBuilder b;
    bool found = false;
    auto nom = session.run(Schedule{});
    b.add(to_record(nom, nullptr));
    found = !nom.findings.empty();
    bool too_long = hit_wall_time_bound(nom.findings);
    for (uint64_t i = 0; i < e.schedules && !too_long; ++i) {
        if (e.stop_on_first && found) break;
        auto r = session.run(schedule_for(base, e, e.seed + i));
        found |= !r.findings.empty();
        too_long = hit_wall_time_bound(r.findings);
        b.add(to_record(r, nullptr));
        if (progress) progress(i + 1);
    }
    ExploreSummary s = b.finish(c, kernel);
    s.wall_time_stop = too_long && s.schedules < e.schedules + 1;
    s.jobs = 0;
    s.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    s.peak_rss_kb = peak_rss_kb_self();
    return s;
}

long peak_rss_kb_self() {
    struct rusage ru {};
    return ::getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

long peak_rss_kb_children() {
    struct rusage ru {};
    return ::getrusage(RUSAGE_CHILDREN, &ru) == 0 ? ru.ru_maxrss : 0;
}

ExploreSummary merge_jsonl(const CommonOptions& c, const std::string& kernel, const ExploreOptions& e,
                           const Schedule& base) {
    SummaryBuilder b;
    std::set<std::pair<std::string, uint64_t>> seen;
    const nlohmann::json identity = journal_identity(c, e, kernel);
    for (const auto& path : e.merge) {
        JournalScan scan = scan_journal(path, kernel, identity, base.str(), false, [&](const nlohmann::json& j) {
            if (seen.insert({j.value("strategy", std::string()), j.value("seed", uint64_t{0})}).second)
                b.add(record_from_json(j));
        });
        if (!scan.header) {
            std::string what = scan.other_kernels.empty() ? "it holds no journal header"
                                                          : "it is a journal of " + scan.other_kernels.front();
            throw JournalError(fmt::format("'{}' is not a journal of {}: {}", path, kernel, what));
        }
        if (scan.torn_bytes)
            std::cerr << fmt::format("warning: '{}' ends in a torn line ({} bytes, a killed run); it was left out\n",
                                     path, scan.torn_bytes);
    }
    ExploreSummary s = b.finish(c, kernel);
    s.jobs = 0;
    return s;
}

}  // namespace cvsim::cli
