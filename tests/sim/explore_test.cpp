// Exploration at scale through the cvsim binary: strategies, workers, crash isolation, shards, JSON lines.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "test_support.h"

using namespace cvsim::test;

namespace {

// The schedule records of a --jsonl file.
std::vector<nlohmann::json> read_jsonl(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) {
            auto j = nlohmann::json::parse(line);
            if (!j.contains("journal")) out.push_back(j);  // the schedule records, not the journal header
        }
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

// The --json report of an exploration without its run statistics (wall time, rates, memory, jobs).
nlohmann::json verdict_json(const std::string& path) {
    auto j = nlohmann::json::parse(read_file(path));
    for (auto& k : j["kernels"])
        for (const char* stat : {"jobs", "wall_seconds", "schedules_per_s", "peak_rss_kb", "workers_peak_rss_kb"})
            k.erase(stat);
    return j;
}

// Runs a shell command line; returns its exit status (-1 if it did not exit).
int shell(const std::string& cmd) {
    int st = std::system(cmd.c_str());
    return st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string fresh_dir(const std::string& name) {
    std::string d = testing::TempDir() + "/" + name;
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d;
}

// The single-process exploration the sharded ones must equal: its --json report.
nlohmann::json single_run(const std::string& kernel, const std::string& schedules) {
    std::string js = tmp("single_" + schedules + ".json");
    run_cvsim({"explore", kernel, "--v2c", "off", "--schedules", schedules, "--jobs", "2", "--no-progress", "-q",
               "--json", js});
    return verdict_json(js);
}

TEST(Explore, RandomFindsTheV2cRaceInTheFirst100Schedules) {
    RunResult r =
        run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--schedules", "100", "--no-progress"});
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
    RunResult pct = run_cvsim(
        {"explore", k, "--strategy", "pct:2", "--schedules", std::to_string(bound), "--jsonl", jl, "--no-progress"});
    EXPECT_EQ(pct.exit_code, 1) << pct.out;
    EXPECT_NE(pct.out.find("E-FLAG-OVERFLOW"), std::string::npos) << pct.out;
    uint64_t first = UINT64_MAX;
    for (auto& line : read_jsonl(jl))
        if (!line["codes"].empty()) first = std::min<uint64_t>(first, line["seed"]);
    std::cout << "pct:2 found the depth-2 bug first at seed " << first << " (bound n*k = " << n << "*" << kk << " = "
              << bound << ")\n";
    EXPECT_LE(first, bound);
}

TEST(Explore, SameSeedsGiveIdenticalJsonLines) {
    std::string a = tmp("det_a.jsonl"), b = tmp("det_b.jsonl");
    for (auto* f : {&a, &b}) {
        RunResult r = run_cvsim({"explore", kernel_path("v2c_blocked_loop.py"), "--v2c", "off", "--schedules", "60",
                                 "--jobs", "2", "--jsonl", *f, "--no-progress"});
        EXPECT_EQ(r.exit_code, 1);
    }
    EXPECT_EQ(normalised(read_jsonl(a)), normalised(read_jsonl(b)));
    EXPECT_EQ(read_jsonl(a).size(), 61u);
}

TEST(Explore, ACrashingScheduleIsReportedWithItsSeedAndTheRestGoesOn) {
    std::string jl = tmp("crash.jsonl");
    RunResult r = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "40", "--jobs", "2",
                             "--fault-abort-seed", "17", "--jsonl", jl, "--no-progress"});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("E-CRASH"), std::string::npos) << r.out;
    EXPECT_NE(unwrapped(r.out).find("--seed 17"), std::string::npos) << r.out;
    auto lines = read_jsonl(jl);
    EXPECT_EQ(lines.size(), 41u) << "every other schedule still ran";
    int crashes = 0;
    for (auto& l : lines) crashes += l["verdict"] == "crash";
    EXPECT_EQ(crashes, 1);
}

TEST(Explore, ShardsMergedEqualASingleRun) {
    std::string s0 = tmp("shard0.jsonl"), s1 = tmp("shard1.jsonl"), s2 = tmp("shard2.jsonl"), one = tmp("single.jsonl");
    std::vector<std::string> common = {
        "explore", kernel_path("v2c_reused_scratch.py"), "--v2c", "off", "--schedules", "90", "--no-progress"};
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
    std::vector<std::string> args = {
        "explore", kernel_path("v2c_rope_attn.py"), "--schedules", "30", "--jsonl", jl, "--no-progress"};
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
    RunResult r = run_cvsim(
        {"explore", kernel_path("v2c_rope_attn.py"), "--strategy", "sweep", "--schedules", "60", "--no-progress"});
    EXPECT_EQ(r.exit_code, 0) << r.out;
    // Delays move the schedule: cycles vary across the sweep.
    EXPECT_EQ(r.out.find("range 0..0"), std::string::npos);
}

TEST(Explore, MergeOfTheShardsPrintsTheSingleRunSummary) {
    std::string k = kernel_path("v2c_reused_scratch.py");
    std::vector<std::string> files;
    for (int i = 0; i < 3; ++i) {
        files.push_back(tmp("merge_shard" + std::to_string(i) + ".jsonl"));
        RunResult r = run_cvsim({"explore", k, "--v2c", "off", "--schedules", "90", "--shard", std::to_string(i) + "/3",
                                 "--jobs", "1", "--jsonl", files.back(), "--no-progress", "-q"});
        EXPECT_EQ(r.exit_code, 1) << r.err;
    }
    std::string js = tmp("merged.json");
    std::vector<std::string> args = {"explore", k, "--v2c", "off", "--json", js, "--merge"};
    // The shards in another order, one of them twice: order-independent, each seed counted once.
    for (const std::string& f : {files[2], files[0], files[1], files[0]}) args.push_back(f);
    RunResult m = run_cvsim(args);
    EXPECT_EQ(m.exit_code, 1) << m.err;
    auto merged = verdict_json(js);
    EXPECT_EQ(merged["kernels"][0]["schedules"], 91);
    EXPECT_EQ(merged, single_run(k, "90"));
    EXPECT_NE(m.out.find("replay: cvsim run"), std::string::npos) << m.out;
}

TEST(Explore, MergeOfAMissingFileIsAnIoError) {
    RunResult r = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--merge", tmp("no_such.jsonl")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("E-IO"), std::string::npos) << r.err;
}

// The README's GNU parallel command lines, run as written but for the paths and a smaller budget.
TEST(Explore, ReadmeParallelShardsMergeToTheSingleRun) {
    if (shell("command -v parallel >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "GNU parallel is not installed (scripts/setup.sh --ci installs it)";
    std::string readme = read_file(source_dir() + "/README.md");
    std::vector<std::string> lines;
    std::istringstream in(readme.substr(readme.find("## Scale-out")));
    std::string line;
    while (std::getline(in, line) && lines.size() < 2)
        if (lines.empty() ? line.rfind("parallel -j", 0) == 0
                          : line.rfind("./build/cvsim explore ", 0) == 0 && line.find(" --merge ") != std::string::npos)
            lines.push_back(line);
    ASSERT_EQ(lines.size(), 2u) << "the README shows a parallel line and a merge line";
    auto adapt = [](std::string l) {
        if (auto hash = l.find("   #"); hash != std::string::npos) l.resize(hash);  // the README's "# exit N" comment
        auto sub = [&](const std::string& from, const std::string& to) {
            for (size_t at = l.find(from); at != std::string::npos; at = l.find(from, at + to.size()))
                l.replace(at, from.size(), to);
        };
        sub("./build/cvsim", cvsim_binary());
        sub("../shared", shared_dir());
        sub("--schedules 100000", "--schedules 120");
        return l;
    };
    std::string dir = fresh_dir("readme_parallel");
    std::string js = dir + "/merged.json";
    int rc = shell("cd '" + dir + "' && " + adapt(lines[0]) + " </dev/null >/dev/null 2>&1");
    EXPECT_EQ(rc, 4) << "four shards, each with findings (--v2c off): " << adapt(lines[0]);
    rc = shell("cd '" + dir + "' && " + adapt(lines[1]) + " -q --json " + js + " </dev/null");
    EXPECT_EQ(rc, 1) << adapt(lines[1]);
    EXPECT_EQ(verdict_json(js), single_run(kernel_path("v2c_rope_attn.py"), "120"));
}

// scripts/slurm_explore.sbatch as three array tasks (the SLURM_* variables Slurm would set), then the merge.
TEST(Explore, SlurmArrayScriptShardsMergeToTheSingleRun) {
    std::string dir = fresh_dir("slurm");
    std::string k = kernel_path("v2c_reused_scratch.py");
    for (int i = 0; i < 3; ++i) {
        std::string cmd = "cd '" + dir + "' && SLURM_ARRAY_TASK_ID=" + std::to_string(i) +
                          " SLURM_ARRAY_TASK_MAX=2 SLURM_CPUS_PER_TASK=1 KERNEL='" + k +
                          "' SCHEDULES=90 ARGS='--v2c off -q' CVSIM='" + cvsim_binary() + "' OUT=out bash '" +
                          source_dir() + "/scripts/slurm_explore.sbatch' </dev/null";
        EXPECT_EQ(shell(cmd), 0) << cmd;
    }
    std::vector<std::string> args = {"explore", k, "--v2c", "off", "-q", "--json", dir + "/merged.json", "--merge"};
    for (int i = 0; i < 3; ++i) args.push_back(dir + "/out/shard_" + std::to_string(i) + ".jsonl");
    EXPECT_EQ(run_cvsim(args).exit_code, 1);
    EXPECT_EQ(verdict_json(dir + "/merged.json"), single_run(k, "90"));
}

}  // namespace
