// The command line as a person meets it (issue 15): Ctrl-C on a terminal, the progress line on a terminal
// and in a log, reports that fit 80 columns, help, `params --json`, and one finding per repeated mistake.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string tmp(const std::string& name) {
    std::string dir = testing::TempDir() + "/cli_ux";
    std::filesystem::create_directories(dir);
    return dir + "/" + name;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

size_t widest(const std::string& text) {
    size_t w = 0;
    for (const auto& l : lines_of(text)) w = std::max(w, l.size());
    return w;
}

// The report at COLUMNS=N (the child inherits the variable).
struct Columns {
    explicit Columns(int n) { ::setenv("COLUMNS", std::to_string(n).c_str(), 1); }
    ~Columns() { ::unsetenv("COLUMNS"); }
};

// What a terminal user saw: cvsim under a pseudo-terminal of 100 x 30, Ctrl-C typed once `until` shows.
struct PtyRun {
    std::string screen;  // everything written to the terminal (stdout and stderr)
    int exit_code = -1;
    bool saw_until = false;
};

PtyRun run_in_pty(const std::vector<std::string>& args, const std::string& until, int seconds = 60) {
    PtyRun r;
    int master = -1;
    struct winsize ws {};
    ws.ws_col = 100;
    ws.ws_row = 30;
    pid_t pid = ::forkpty(&master, nullptr, nullptr, &ws);
    if (pid < 0) return r;
    if (pid == 0) {
        ::unsetenv("COLUMNS");
        std::vector<char*> argv;
        std::string bin = cvsim_binary();
        argv.push_back(bin.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        ::execv(bin.c_str(), argv.data());
        _exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    bool sent = false;
    char buf[4096];
    while (std::chrono::steady_clock::now() < deadline) {
        pollfd p{master, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0) {
            ssize_t n = ::read(master, buf, sizeof buf);
            if (n <= 0) break;  // EIO: the terminal's last writer is gone
            r.screen.append(buf, static_cast<size_t>(n));
        }
        if (!sent && r.screen.find(until) != std::string::npos) {
            r.saw_until = true;
            // A second of progress, then ^C as the terminal sends it: the line discipline signals the group.
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
            char intr = 3;
            if (::write(master, &intr, 1) != 1) break;
            sent = true;
        }
    }
    ::close(master);
    int st = 0;
    if (::waitpid(pid, &st, WNOHANG) == 0) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &st, 0);
    }
    r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return r;
}

// The lines a user reads once the progress line is gone: the text after the last carriage return's erase.
std::string after_progress(const std::string& screen) {
    size_t at = screen.rfind("\r\033[K");
    return at == std::string::npos ? screen : screen.substr(at + 4);
}

std::vector<nlohmann::json> journal(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    for (std::string l; std::getline(in, l);) out.push_back(nlohmann::json::parse(l));
    return out;
}

}  // namespace

// Ctrl-C in a terminal during explore: the bar line erased, the partial summary with the findings so far
// and their replay commands, exit 130, and a journal that a second run resumes (its summary counts both).
TEST(Terminal, CtrlCDuringExploreGivesThePartialSummaryExit130AndAResumableJournal) {
    std::string jl = tmp("ctrl_c.jsonl");
    std::filesystem::remove(jl);
    std::vector<std::string> args = {"explore",     kernel_path("v2c_rope_attn.py"),
                                     "--v2c",       "off",
                                     "--schedules", "100000000",
                                     "--jobs",      "1",
                                     "--jsonl",     jl};
    PtyRun first = run_in_pty(args, "ETA");
    ASSERT_TRUE(first.saw_until) << "no progress bar on the terminal:\n" << first.screen;
    EXPECT_EQ(first.exit_code, 130) << first.screen;
    // The bar: done / total, rate, ETA and findings so far, redrawn in place.
    EXPECT_NE(first.screen.find("/100000001 schedules"), std::string::npos) << first.screen;
    EXPECT_NE(first.screen.find("/s  ETA "), std::string::npos) << first.screen;
    EXPECT_NE(first.screen.find(" findings"), std::string::npos) << first.screen;
    std::string summary = after_progress(first.screen);
    EXPECT_EQ(summary.find("ETA"), std::string::npos) << "the summary starts on a clean line:\n" << summary;
    EXPECT_NE(summary.find("INTERRUPTED"), std::string::npos) << summary;
    EXPECT_EQ(summary.find("PASS"), std::string::npos) << summary;
    EXPECT_NE(summary.find("error[E-RACE-RAW]"), std::string::npos) << summary;
    EXPECT_NE(summary.find("replay: cvsim run"), std::string::npos) << summary;
    for (const auto& l : lines_of(summary)) EXPECT_LE(l.size(), 101u) << l;  // 100 columns (+ the terminal's \r)

    auto records = journal(jl);
    ASSERT_GT(records.size(), 2u);
    const size_t first_records = records.size();
    // The same command again resumes: the first run's schedules are skipped, not rerun, and counted.
    PtyRun second = run_in_pty(args, "ETA");
    EXPECT_EQ(second.exit_code, 130) << second.screen;
    EXPECT_EQ(second.screen.find("E-JOURNAL"), std::string::npos) << second.screen;
    EXPECT_EQ(second.screen.find("torn"), std::string::npos) << second.screen;
    records = journal(jl);  // every line parses: whole lines only
    EXPECT_GT(records.size(), first_records);
    std::set<uint64_t> seeds;
    size_t schedules = 0;
    for (const auto& j : records) {
        if (j.contains("journal")) continue;
        ++schedules;
        if (j["strategy"] != "nominal") {
            EXPECT_TRUE(seeds.insert(j["seed"].get<uint64_t>()).second) << "seed twice: " << j.dump();
        }
    }
    std::string s2 = after_progress(second.screen);
    EXPECT_NE(s2.find(": " + std::to_string(schedules) + " schedules"), std::string::npos)
        << "the resumed summary counts both runs' " << schedules << " schedules:\n"
        << s2;
}

// In a log (stderr not a terminal): plain progress lines, no carriage returns or escapes; none with
// --no-progress. (Enough schedules and a short interval that even a fast engine prints a line.)
TEST(Progress, ALogGetsPlainLinesEveryIntervalAndNoBar) {
    std::vector<std::string> args = {
        "explore", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--schedules", "20000", "--jobs",
        "1",       "--progress-interval",           "0.05"};
    RunResult r = run_cvsim(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err.find('\r'), std::string::npos);
    EXPECT_EQ(r.err.find('\033'), std::string::npos);
    size_t progress = 0;
    for (const auto& l : lines_of(r.err)) {
        if (l.rfind("progress: ", 0) != 0) continue;
        ++progress;
        EXPECT_NE(l.find("/20001 schedules"), std::string::npos) << l;
        EXPECT_NE(l.find(" ETA "), std::string::npos) << l;
        EXPECT_NE(l.find("distinct finding"), std::string::npos) << l;
    }
    EXPECT_GE(progress, 1u) << r.err;
    args.push_back("--no-progress");
    RunResult quiet = run_cvsim(args);
    EXPECT_EQ(quiet.err.find("progress: "), std::string::npos) << quiet.err;
}

// `run` and `params` fit 80 columns on every shared sample (the wide detail is in --json).
TEST(Width, RunAndParamsFitEightyColumns) {
    Columns cols(80);
    for (std::string target : {"a2a3", "a5"}) {
        RunResult p = run_cvsim({"params", "--target", target});
        EXPECT_EQ(p.exit_code, 0) << p.err;
        EXPECT_LE(widest(p.out), 80u) << p.out;
        EXPECT_NE(p.out.find("chip.clusters = "), std::string::npos) << p.out;
    }
    size_t runs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(shared_dir() + "/kernels")) {
        if (entry.path().extension() != ".py") continue;
        for (std::string v2c : {"off", "fence"}) {
            RunResult r = run_cvsim({"run", entry.path().string(), "--v2c", v2c});
            if (r.exit_code == 2) continue;  // a sample that is bad input by design
            ++runs;
            EXPECT_LE(widest(r.out), 80u) << entry.path() << " --v2c " << v2c << "\n" << r.out;
        }
    }
    EXPECT_GT(runs, 10u);
    RunResult wide = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--blocks", "24"});
    EXPECT_LE(widest(wide.out), 80u) << wide.out;
}

// Without COLUMNS and not on a terminal the reports are 100 columns wide; `params -v` is the full table.
TEST(Width, DefaultIsOneHundredColumnsAndVerboseParamsIsTheTable) {
    ::unsetenv("COLUMNS");
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--v2c", "off"});
    EXPECT_LE(widest(r.out), 100u) << r.out;
    EXPECT_GT(widest(r.out), 80u) << "the default width is 100, not 80:\n" << r.out;
    RunResult t = run_cvsim({"params", "-v"});
    EXPECT_EQ(t.out.rfind("parameter ", 0), 0u) << t.out.substr(0, 200);
    EXPECT_GT(widest(t.out), 200u);
}

// SPEC 2: `params --json` holds every parameter with its value, unit, doc, confidence and source.
TEST(Params, JsonHasEveryParameterWithValueUnitDocConfidenceAndSource) {
    std::string js = tmp("params.json");
    RunResult r = run_cvsim({"params", "--target", "a5", "--set", "gm.latency_hit=77", "--json", js, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    nlohmann::json j = nlohmann::json::parse(read_file(js));
    EXPECT_EQ(j["target"], "a5");
    ASSERT_TRUE(j["parameters"].is_array());
    RunResult table = run_cvsim({"params", "--target", "a5", "-v"});
    // The parameter table is the first block (the op cost formulas follow after a blank line).
    std::vector<std::string> rows_of_table;
    for (const auto& l : lines_of(table.out)) {
        if (l.empty()) break;
        rows_of_table.push_back(l);
    }
    EXPECT_EQ(j["parameters"].size() + 1, rows_of_table.size()) << "one per table row";
    ASSERT_TRUE(j["op_costs"].is_array());
    EXPECT_FALSE(j["op_costs"].empty());
    for (const auto& f : j["op_costs"])
        for (const char* key : {"name", "formula", "confidence", "source"})
            EXPECT_TRUE(f.contains(key) && f[key].is_string()) << key << " in " << f.dump();
    std::set<std::string> names;
    for (const auto& p : j["parameters"]) {
        ASSERT_TRUE(p.is_object());
        for (const char* key : {"name", "value", "unit", "doc", "confidence", "source"})
            EXPECT_TRUE(p.contains(key)) << key << " in " << p.dump();
        EXPECT_TRUE(p["name"].is_string() && p["name"].get<std::string>().find('.') != std::string::npos) << p.dump();
        EXPECT_TRUE(p["value"].is_number() || p["value"].is_boolean() || p["value"].is_string()) << p.dump();
        EXPECT_TRUE(p["confidence"] == "H" || p["confidence"] == "M" || p["confidence"] == "L") << p.dump();
        EXPECT_FALSE(p["doc"].get<std::string>().empty()) << p.dump();
        EXPECT_EQ(p["doc"].get<std::string>().find("(conf "), std::string::npos)
            << "the confidence is its own field: " << p.dump();
        EXPECT_FALSE(p["source"].get<std::string>().empty()) << p.dump();
        EXPECT_TRUE(names.insert(p["name"]).second) << p.dump();
        if (p["name"] == "gm.latency_hit") {
            EXPECT_EQ(p["value"], 77) << "the --set value";
        }
    }
    EXPECT_TRUE(names.count("chip.clusters") && names.count("gm.latency_hit"));
}

// `params --json` of each target against its golden (tests/golden/params/TARGET.json): a parameter, a
// value, a unit, a doc, a confidence or a source that changes shows here. CVSIM_UPDATE_GOLDEN=1 rewrites them.
TEST(Params, JsonOfEachTargetMatchesItsGolden) {
    for (std::string target : {"a2a3", "a5"}) {
        RunResult r = run_cvsim({"params", "--target", target, "--json", "-"});
        ASSERT_EQ(r.exit_code, 0) << r.err;
        std::string golden = source_dir() + "/tests/golden/params/" + target + ".json";
        if (const char* u = std::getenv("CVSIM_UPDATE_GOLDEN"); u && std::string(u) == "1") {
            std::filesystem::create_directories(std::filesystem::path(golden).parent_path());
            std::ofstream(golden) << r.out;
        }
        ASSERT_TRUE(std::filesystem::exists(golden)) << golden << " (CVSIM_UPDATE_GOLDEN=1 writes it)";
        EXPECT_EQ(r.out, read_file(golden)) << "params --json --target " << target << " differs from " << golden
                                            << " (if the change is intended: CVSIM_UPDATE_GOLDEN=1)";
    }
}

// Help shows defaults and no CLI11 rendering artefacts ({false}, :UINT, "INT in [0 - 1024]").
TEST(Help, ShowsDefaultsAndNoRenderingArtefacts) {
    for (std::string cmd : {"run", "explore", "check", "expand", "params", "demo"}) {
        RunResult h = run_cvsim({cmd, "--help"});
        EXPECT_EQ(h.exit_code, 0) << cmd;
        for (const char* junk : {"{false}", "{true}", ":UINT", "INT in [", "TEXT:"})
            EXPECT_EQ(h.out.find(junk), std::string::npos) << cmd << ": " << junk << "\n" << h.out;
    }
    RunResult run = run_cvsim({"run", "--help"});
    EXPECT_NE(run.out.find("(default 200000000)"), std::string::npos) << run.out;  // --max-cycles
    EXPECT_NE(run.out.find("(default 60)"), std::string::npos) << run.out;         // --timeout
    RunResult params = run_cvsim({"params", "--help"});
    EXPECT_NE(params.out.find("--json"), std::string::npos) << params.out;
}

// One mistake on 24 clusters: one finding naming the clusters, not one per pair; --json keeps them all.
TEST(Findings, OneMistakeOnTwentyFourClustersPrintsOnceWithTheClusters) {
    std::string js = tmp("b24.json");
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--blocks", "24", "--json", js});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_LT(lines_of(r.out).size(), 60u) << r.out;
    EXPECT_NE(r.out.find("more like this on clusters 0-23"), std::string::npos) << r.out;
    size_t raw_lines = 0;
    for (const auto& l : lines_of(r.out)) raw_lines += l.rfind("error[E-RACE-RAW]", 0) == 0;
    EXPECT_EQ(raw_lines, 1u) << r.out;
    nlohmann::json j = nlohmann::json::parse(read_file(js));
    EXPECT_GT(j["findings"].size(), 500u) << "--json lists every pair";

    std::string ejs = tmp("b24_explore.json");
    RunResult e = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--blocks", "24",
                             "--schedules", "3", "--jobs", "1", "--json", ejs});
    EXPECT_EQ(e.exit_code, 1) << e.err;
    EXPECT_LT(lines_of(e.out).size(), 60u) << e.out;
    EXPECT_NE(e.out.find("replay: cvsim run"), std::string::npos) << e.out;
    nlohmann::json ej = nlohmann::json::parse(read_file(ejs));
    EXPECT_GT(ej["kernels"][0]["findings"].size(), 500u);
}

// The same on 200 clusters (far wider than the chip: they run in waves), each racing in its own rows: a
// bounded report, all 200 races in --json. (1,000 clusters took 72 s when the reference's lockstep woke every
// block's thread at each turn; 10 s now, still the suite's slowest, so 200 here.)
TEST(Findings, OneMistakeOnManyClustersPrintsOnce) {
    std::string js = tmp("b200.json");
    RunResult r = run_cvsim(
        {"run", source_dir() + "/tests/e2e/kernels/per_block_race.py", "--v2c", "off", "--blocks", "200", "--json", js},
        280);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_LT(lines_of(r.out).size(), 40u) << r.out;
    EXPECT_NE(r.out.find("... and 199 more like this on clusters 0-199"), std::string::npos) << r.out;
    nlohmann::json j = nlohmann::json::parse(read_file(js));
    size_t races = 0;
    for (const auto& f : j["findings"]) races += f["code"] == "E-RACE-RAW";
    EXPECT_EQ(races, 200u);
}
