// Helpers of the oracle tests: compile a kernel into a Session, ask the oracle, ask the HB checker.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "frontend/diag.h"
#include "oracle/oracle.h"
#include "sim/cluster.h"
#include "sim/session.h"

namespace cvsim::test {

struct Opts {
    Target target = Target::A2A3;
    passes::V2CPolicy v2c = passes::V2CPolicy::Fence;
    passes::C2VPolicy c2v = passes::C2VPolicy::Upstream;
    int blocks = 1;
    uint64_t vis = 0;
};

inline std::unique_ptr<sim::Session> session_of(const std::string& name, const std::string& text, const Opts& o) {
    sim::SessionOptions so;
    so.target = o.target;
    so.v2c = o.v2c;
    so.c2v = o.c2v;
    so.blocks = o.blocks;
    so.visibility_delay = o.vis;
    so.max_wall_seconds = 20;
    so.max_cycles = 20'000'000;
    return std::make_unique<sim::Session>(std::make_shared<SourceFile>(name, text), so);
}

inline oracle::Verdict oracle_of(const sim::Session& s, bool cross_check = false) {
    oracle::Options o;
    o.target = s.options().target;
    o.visibility_delay = s.hw().gm.visibility_delay;
    o.chip_clusters = static_cast<int>(s.hw().chip.clusters);
    o.slot_num_one_dir = static_cast<int>(s.hw().sync.slot_num_one_dir);
    o.slot_num_both = static_cast<int>(s.hw().sync.slot_num_both);
    o.cross_check = cross_check;
    return oracle::analyze(s.compiled().plan, s.initial_gm(), o);
}

// What the HB checker reported over the nominal schedule and `randoms` random ones.
struct CheckerView {
    std::set<oracle::RaceKey> races;
    std::set<std::string> tensors;
    bool deadlock = false;
    bool timeout = false;
    std::set<std::string> other;  // other finding codes (E-OOB, E-PIPE-*, ...)
    std::string text;             // every finding, for failure messages
};

inline std::string race_tensor(const std::string& message) {
    auto p = message.find(" on GM ");
    if (p == std::string::npos) return "?";
    p += 7;
    auto q = message.find_first_of("[:", p);
    return message.substr(p, q == std::string::npos ? std::string::npos : q - p);
}

inline CheckerView checker_of(sim::Session& s, int randoms) {
    CheckerView v;
    // One elaboration per process: elaborate the largest machine the generators use (2 clusters) first.
    sim::Machine::instance(std::max(2, s.clusters_needed()));
    for (int i = 0; i <= randoms; ++i) {
        sim::Schedule sc;
        if (i > 0) {
            sc.strategy = sim::Strategy::Random;
            sc.seed = static_cast<uint64_t>(i);
        }
        sim::ScheduleResult r = s.run(sc);
        for (const auto& f : r.findings) {
            v.text += "  " + f.code + " " + f.message + "\n";
            if (f.code.rfind("E-RACE-", 0) == 0) {
                oracle::RaceKey k{race_tensor(f.message), std::min(f.loc.line, f.loc2.line),
                                  std::max(f.loc.line, f.loc2.line)};
                v.races.insert(k);
                v.tensors.insert(k.tensor);
            } else if (f.code == "E-DEADLOCK") {
                v.deadlock = true;
            } else if (f.code == "E-TIMEOUT") {
                v.timeout = true;
            } else {
                v.other.insert(f.code);
            }
        }
    }
    return v;
}

inline std::string keys_str(const std::set<oracle::RaceKey>& ks) {
    std::string s;
    for (const auto& k : ks) s += " " + k.tensor + ":" + std::to_string(k.line_a) + "/" + std::to_string(k.line_b);
    return s.empty() ? " (none)" : s;
}

}  // namespace cvsim::test
