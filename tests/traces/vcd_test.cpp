// VCD from `cvsim run --vcd`, read back the way a waveform viewer reads it: header, declarations, and
// value changes at strictly increasing times.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "trace_test_util.h"

namespace {

using namespace cvsim::test;

// A minimal VCD reader: hierarchical names from $scope, values per time step.
struct Vcd {
    std::string timescale;                     // "1 ns"
    std::map<std::string, std::string> id_of;  // "cluster0.AIC.state" -> identifier code
    std::map<std::string, int> width;          // name -> declared width
    std::vector<uint64_t> times;               // every #time in file order
    std::map<std::string, std::vector<std::pair<uint64_t, uint64_t>>> changes;  // identifier -> (time, value)
    std::vector<std::string> errors;                                            // what the reader could not accept
};

Vcd read_vcd(const std::string& text) {
    Vcd v;
    std::istringstream in(text);
    std::string tok;
    std::vector<std::string> scope;
    bool defs_done = false;
    uint64_t now = 0;
    std::vector<std::string> ids;
    while (in >> tok) {
        if (tok == "$timescale") {
            std::string a, b;
            in >> a;
            if (a.find_first_not_of("0123456789") == std::string::npos)
                in >> b;
            else
                b.clear();
            v.timescale = b.empty() ? a : a + " " + b;
            in >> tok;  // $end
        } else if (tok == "$scope") {
            std::string kind, name, end;
            in >> kind >> name >> end;
            scope.push_back(name);
        } else if (tok == "$upscope") {
            in >> tok;
            if (!scope.empty()) scope.pop_back();
        } else if (tok == "$var") {
            std::string type, id, name, rest;
            int w = 0;
            in >> type >> w >> id >> name;
            while (in >> rest && rest != "$end") {
            }
            std::string full;
            for (size_t i = 1; i < scope.size(); ++i) full += scope[i] + ".";  // scope 0 is SystemC's top
            full += name;
            v.id_of[full] = id;
            v.width[full] = w;
            ids.push_back(id);
        } else if (tok == "$enddefinitions") {
            in >> tok;
            defs_done = true;
        } else if (tok == "$comment" || tok == "$date" || tok == "$version") {
            while (in >> tok && tok != "$end") {
            }
        } else if (tok == "$dumpvars" || tok == "$end") {
        } else if (tok[0] == '#') {
            if (!defs_done) v.errors.push_back("time before $enddefinitions");
            now = std::stoull(tok.substr(1));
            v.times.push_back(now);
        } else if (tok[0] == 'b') {
            std::string id;
            in >> id;
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) v.errors.push_back("undeclared id " + id);
            v.changes[id].emplace_back(now, std::stoull(tok.substr(1), nullptr, 2));
        } else {
            v.errors.push_back("unexpected token " + tok);
        }
    }
    return v;
}

uint64_t value_at_end(const Vcd& v, const std::string& name) {
    auto it = v.changes.find(v.id_of.at(name));
    return it == v.changes.end() || it->second.empty() ? 0 : it->second.back().second;
}

TEST(VcdCli, HeaderDeclarationsAndStrictlyIncreasingTimes) {
    ScratchDir d;
    std::string path = d.file("w.vcd");
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--v2c", "fence", "--vcd", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("Info:"), std::string::npos) << "SystemC chatter on the report: " << r.out;
    Vcd v = read_vcd(read_file(path));
    EXPECT_TRUE(v.errors.empty()) << v.errors.front();
    EXPECT_EQ(v.timescale, "1 ns") << "one time unit = one cycle";
    for (const char* name : {"cluster0.AIC.state", "cluster0.AIV0.state", "cluster0.AIV1.state",
                             "cluster0.ring_C2V.occupancy", "cluster0.ring_V2C.occupancy"})
        EXPECT_TRUE(v.id_of.count(name)) << name;
    ASSERT_GE(v.times.size(), 3u);
    for (size_t i = 1; i < v.times.size(); ++i) EXPECT_LT(v.times[i - 1], v.times[i]) << "at index " << i;
    // The last change is where the run ends (the first schedule starts at time 0: a core finishing);
    // the file closes one cycle later.
    std::string cycles_text = number_before(r.out, " cycles");
    ASSERT_FALSE(cycles_text.empty()) << r.out;
    const uint64_t cycles = std::stoull(cycles_text);
    uint64_t last_change = 0;
    for (const auto& [id, ch] : v.changes)
        if (!ch.empty()) last_change = std::max(last_change, ch.back().first);
    EXPECT_EQ(last_change, cycles);
    EXPECT_EQ(v.times.back(), cycles + 1);
}

TEST(VcdCli, CoreStatesShowRunningStalledOnTheRingAndIdleAtTheEnd) {
    ScratchDir d;
    std::string path = d.file("w.vcd");
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--v2c", "fence", "--vcd", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Vcd v = read_vcd(read_file(path));
    // The AIC waits for the V2C tile (state 4 = stalled on a ring), then runs, then finishes (0).
    std::vector<uint64_t> aic;
    for (auto [t, val] : v.changes[v.id_of.at("cluster0.AIC.state")]) aic.push_back(val);
    EXPECT_NE(std::find(aic.begin(), aic.end(), 1u), aic.end());
    EXPECT_NE(std::find(aic.begin(), aic.end(), 4u), aic.end());
    for (const char* core : {"cluster0.AIC.state", "cluster0.AIV0.state", "cluster0.AIV1.state"})
        EXPECT_EQ(value_at_end(v, core), 0u) << core;
    // Each ring held a tile at some point and is empty at the end.
    for (const char* ring : {"cluster0.ring_C2V.occupancy", "cluster0.ring_V2C.occupancy"}) {
        uint64_t peak = 0;
        for (auto [t, val] : v.changes[v.id_of.at(ring)]) peak = std::max(peak, val);
        EXPECT_EQ(peak, 1u) << ring;
        EXPECT_EQ(value_at_end(v, ring), 0u) << ring;
    }
}

TEST(VcdCli, FlagCountersCountPendingSets) {
    ScratchDir d;
    std::string path = d.file("w.vcd");
    RunResult r = run_cvsim({"run", kernel_path("v2c_reused_scratch.py"), "--v2c", "fence", "--vcd", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    Vcd v = read_vcd(read_file(path));
    EXPECT_TRUE(v.errors.empty());
    // The expander's loop-carried WAR flag (event 0): the cube sets it for both AIVs, each AIV waits.
    for (const char* name : {"cluster0.flag0.pending_to_AIV0", "cluster0.flag0.pending_to_AIV1"}) {
        ASSERT_TRUE(v.id_of.count(name)) << name;
        const auto& ch = v.changes[v.id_of.at(name)];
        uint64_t peak = 0;
        int rises = 0;
        uint64_t prev = 0;
        for (auto [t, val] : ch) {
            peak = std::max(peak, val);
            rises += val > prev;
            prev = val;
        }
        EXPECT_GE(peak, 1u) << name;
        EXPECT_GE(rises, 2) << name << ": a priming set and one per iteration";
        EXPECT_EQ(value_at_end(v, name), 0u) << name << ": every set was waited for";
    }
    for (size_t i = 1; i < v.times.size(); ++i) EXPECT_LT(v.times[i - 1], v.times[i]);
}

TEST(VcdCli, TheFileNameMustEndInVcd) {
    ScratchDir d;
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--vcd", d.file("w.txt")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(".vcd"), std::string::npos) << r.err;
}

}  // namespace
