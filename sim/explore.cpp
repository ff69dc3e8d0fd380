// Sequential exploration of schedules inside one elaboration.
#include "sim/explore.h"

#include <fmt/format.h>

#include <chrono>

namespace cvsim::cli {

ExploreSummary explore_kernel(sim::Session& session, const CommonOptions& c, const std::string& kernel,
                              const ExploreOptions& e, const sim::Schedule& base,
                              const std::function<void(uint64_t)>& progress) {
    ExploreSummary sum;
    auto t0 = std::chrono::steady_clock::now();
    std::map<std::string, size_t> index;
    auto record = [&](const sim::ScheduleResult& r) {
        ++sum.schedules;
        uint64_t cyc = r.cycles();
        if (sum.schedules == 1) sum.min_cycles = sum.max_cycles = cyc;
        sum.min_cycles = std::min(sum.min_cycles, cyc);
        sum.max_cycles = std::max(sum.max_cycles, cyc);
        if (r.findings.empty()) return;
        ++sum.failing;
        bool wrong = false, race = false;
        for (const auto& f : r.findings) {
            if (f.code == "E-MISMATCH" || f.code == "E-UNWRITTEN") wrong = true;
            if (f.code.rfind("E-RACE-", 0) == 0) race = true;
            std::string key = f.key.empty() ? f.code + f.message : f.key;
            auto it = index.find(key);
            if (it == index.end()) {
                index[key] = sum.distinct.size();
                DistinctFinding d;
                d.finding = f;
                d.first = r.schedule;
                d.count = 1;
                d.replay = replay_command(c, kernel, r.schedule);
                sum.distinct.push_back(std::move(d));
            } else {
                ++sum.distinct[it->second].count;
            }
        }
        sum.wrong_outputs += wrong;
        sum.hazards += race;
    };
    sim::Schedule nominal;
    auto nom = session.run(nominal);
    sum.nominal_cycles = nom.cycles();
    record(nom);
    for (uint64_t i = 0; i < e.schedules; ++i) {
        if (e.stop_on_first && !sum.distinct.empty()) break;
        sim::Schedule s = base;
        s.seed = e.seed + i;
        record(session.run(s));
        if (progress) progress(i + 1);
    }
    sum.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return sum;
}

}  // namespace cvsim::cli
