// Exploration at scale through the cvsim binary: strategies, workers, crash isolation, shards, JSON lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::vector<nlohmann::json> read_jsonl(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

// Lines without the full finding texts (which depend on which worker saw a key first), sorted.
std::vector<std::string> normalised(const std::vector<nlohmann::json>& lines) {
    std::vector<std::string> out;
    for (auto j : lines) {
        j.erase("findings");
        out.push_back(j.dump());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::string tmp(const std::string& name) {
    std::string p = testing::TempDir() + "/" + name;
    std::remove(p.c_str());
    return p;
}

TEST(Explore, RandomFindsTheV2cRaceInTheFirst100Schedules) {
    RunResult r = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--schedules", "100", "--no-progress"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("E-RACE-RAW"), std::string::npos) << r.out;
}

TEST(Explore, Pct2FindsADepth2BugWithinThePctBound) {
    std::string k = source_dir() + "/examples/flag_race.py";
    // The nominal schedule and random timing noise never trigger it.
    RunResult calm = run_cvsim({"explore", k, "--strategy", "random", "--schedules", "300", "--no-progress"});
    EXPECT_EQ(calm.exit_code, 0) << calm.out;
    // PCT's bound for depth 2: probability >= 1/(n k) per run, n cores and k scheduling points.
    std::string js = tmp("flag_race_run.json");
    RunResult nom = run_cvsim({"run", k, "--json", js});
    ASSERT_EQ(nom.exit_code, 0) << nom.out << nom.err;
    auto j = nlohmann::json::parse(read_file(js));
    uint64_t n = j["cores_launched"], kk = j["sync_events"];
    ASSERT_GT(kk, 10u);
    uint64_t bound = n * kk;
    std::string jl = tmp("flag_race.jsonl");
    RunResult pct = run_cvsim({"explore", k, "--strategy", "pct:2", "--schedules", std::to_string(bound), "--jsonl", jl, "--no-progress"});
    EXPECT_EQ(pct.exit_code, 1) << pct.out;
    EXPECT_NE(pct.out.find("E-FLAG-OVERFLOW"), std::string::npos) << pct.out;
    uint64_t first = UINT64_MAX;
    for (auto& line : read_jsonl(jl))
        if (!line["codes"].empty()) first = std::min<uint64_t>(first, line["seed"]);
    std::cout << "pct:2 found the depth-2 bug first at seed " << first << " (bound n*k = " << n << "*" << kk << " = " << bound << ")\n";
    EXPECT_LE(first, bound);
}

TEST(Explore, SameSeedsGiveIdenticalJsonLines) {
    std::string a = tmp("det_a.jsonl"), b = tmp("det_b.jsonl");
    for (auto* f : {&a, &b}) {
        RunResult r = run_cvsim({"explore", kernel_path("v2c_blocked_loop.py"), "--v2c", "off", "--schedules", "60", "--jobs", "2", "--jsonl", *f, "--no-progress"});
        EXPECT_EQ(r.exit_code, 1);
    }
    EXPECT_EQ(normalised(read_jsonl(a)), normalised(read_jsonl(b)));
    EXPECT_EQ(read_jsonl(a).size(), 61u);
}

TEST(Explore, ACrashingScheduleIsReportedWithItsSeedAndTheRestGoesOn) {
    std::string jl = tmp("crash.jsonl");
    RunResult r = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "40", "--jobs", "2", "--fault-abort-seed", "17",
                             "--jsonl", jl, "--no-progress"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("E-CRASH"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--seed 17"), std::string::npos) << r.out;
    auto lines = read_jsonl(jl);
    EXPECT_EQ(lines.size(), 41u) << "every other schedule still ran";
    int crashes = 0;
    for (auto& l : lines) crashes += l["verdict"] == "crash";
    EXPECT_EQ(crashes, 1);
}

TEST(Explore, ShardsMergedEqualASingleRun) {
    std::string s0 = tmp("shard0.jsonl"), s1 = tmp("shard1.jsonl"), s2 = tmp("shard2.jsonl"), one = tmp("single.jsonl");
    std::vector<std::string> common = {"explore", kernel_path("v2c_reused_scratch.py"), "--v2c", "off", "--schedules", "90", "--no-progress"};
    int i = 0;
    for (auto* f : {&s0, &s1, &s2}) {
        auto args = common;
        args.insert(args.end(), {"--shard", std::to_string(i++) + "/3", "--jsonl", *f, "--jobs", "1"});
        run_cvsim(args);
    }
    auto args = common;
    args.insert(args.end(), {"--jsonl", one, "--jobs", "2"});
    run_cvsim(args);
    std::vector<nlohmann::json> merged;
    for (auto* f : {&s0, &s1, &s2})
        for (auto& l : read_jsonl(*f)) merged.push_back(l);
    EXPECT_EQ(normalised(merged), normalised(read_jsonl(one)));
}

TEST(Explore, JsonlIsResumable) {
    std::string jl = tmp("resume.jsonl");
    std::vector<std::string> args = {"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "30", "--jsonl", jl, "--no-progress"};
    RunResult a = run_cvsim(args);
    EXPECT_EQ(read_jsonl(jl).size(), 31u);
    args[3] = "50";
    RunResult b = run_cvsim(args);
    EXPECT_EQ(read_jsonl(jl).size(), 51u) << "only the 20 new seeds ran";
    std::set<uint64_t> seeds;
    for (auto& l : read_jsonl(jl)) seeds.insert(l["seed"].get<uint64_t>());
    EXPECT_EQ(seeds.size(), 51u);
}

TEST(Explore, SweepDelaysEachCoreAtEachEventInTurn) {
    RunResult r = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--strategy", "sweep", "--schedules", "60", "--no-progress"});
    EXPECT_EQ(r.exit_code, 0) << r.out;
    // Delays move the schedule: cycles vary across the sweep.
    EXPECT_EQ(r.out.find("range 0..0"), std::string::npos);
}

}  // namespace
