// Reliability of the binary as a CI gate: nothing passes by accident (journal identity, merge inputs,
// unchecked outputs, lost reports), nothing hangs (wall-time bounds), bad options are refused.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string tmp(const std::string& name) {
    std::string p = testing::TempDir() + "/rel_" + name;
    std::filesystem::remove_all(p);
    return p;
}

void write(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

std::vector<nlohmann::json> lines_of(const std::string& path) {
    std::vector<nlohmann::json> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (!line.empty()) out.push_back(nlohmann::json::parse(line));
    return out;
}

// A copy of a shared kernel the test may edit.
std::string kernel_copy(const std::string& name, const std::string& as) {
    std::string p = tmp(as);
    write(p, read_file(kernel_path(name)));
    return p;
}

// ---------------------------------------------------------------- journal identity (item 1)

TEST(Journal, TheFirstLineSaysWhatTheJournalIsOf) {
    std::string jl = tmp("header.jsonl");
    RunResult r = run_cvsim(
        {"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "5", "--jsonl", jl, "--no-progress", "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto lines = lines_of(jl);
    ASSERT_EQ(lines.size(), 7u) << "header, nominal, 5 schedules";
    EXPECT_EQ(lines[0]["journal"], "cvsim-explore");
    EXPECT_EQ(lines[0]["identity"]["v2c"], "fence");
    EXPECT_TRUE(lines[0]["identity"]["kernel_hash"].is_string());
    EXPECT_TRUE(lines[0]["identity"]["cvsim"].is_string());
}

TEST(Journal, ResumingAfterTheKernelChangedIsAnError) {
    std::string k = kernel_copy("v2c_rope_attn.py", "edited.py"), jl = tmp("edited.jsonl");
    std::vector<std::string> args = {"explore", k,         "--v2c", "off",           "--schedules",
                                     "5",       "--jsonl", jl,      "--no-progress", "-q"};
    ASSERT_EQ(run_cvsim(args).exit_code, 1);
    std::string before = read_file(jl);
    // Replace the kernel by a clean one at the same path: its old racy journal must not be reused (nor vice versa).
    write(k, read_file(kernel_path("c2v_row_relay.py")));
    RunResult r = run_cvsim(args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("error[E-JOURNAL]"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("kernel_hash"), std::string::npos) << r.err;
    EXPECT_EQ(read_file(jl), before) << "the journal is left as it was";
}

TEST(Journal, ResumingWithAnotherPolicyIsAnError) {
    std::string jl = tmp("policy.jsonl");
    std::vector<std::string> args = {"explore",       kernel_path("v2c_rope_attn.py"),
                                     "--v2c",         "fence",
                                     "--schedules",   "5",
                                     "--jsonl",       jl,
                                     "--no-progress", "-q"};
    ASSERT_EQ(run_cvsim(args).exit_code, 0);
    args[3] = "off";
    RunResult r = run_cvsim(args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("v2c \"fence\" in the journal, \"off\" now"), std::string::npos) << r.err;
    EXPECT_EQ(r.out.find("no findings"), std::string::npos) << r.out;
}

TEST(Journal, ATornLastLineIsCutOffSaidSoAndItsScheduleRunsAgain) {
    std::string jl = tmp("torn.jsonl");
    std::vector<std::string> args = {
        "explore", kernel_path("v2c_rope_attn.py"), "--schedules", "10", "--jsonl", jl, "--no-progress", "-q"};
    ASSERT_EQ(run_cvsim(args).exit_code, 0);
    std::string text = read_file(jl);
    write(jl, text.substr(0, text.size() - 25));  // a run killed in the middle of its last record
    RunResult r = run_cvsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.err.find("torn line"), std::string::npos) << r.err;
    auto lines = lines_of(jl);  // every line parses: nothing glued to a torn line
    ASSERT_EQ(lines.size(), 12u);
    std::multiset<uint64_t> seeds;
    for (size_t i = 1; i < lines.size(); ++i)
        if (lines[i]["strategy"] != "nominal") seeds.insert(lines[i]["seed"].get<uint64_t>());
    EXPECT_EQ(seeds, (std::multiset<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10})) << "each schedule exactly once";
}

TEST(Journal, AJournalWithoutHeaderIsNotReused) {
    std::string jl = tmp("old.jsonl");
    ASSERT_EQ(run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "3", "--jsonl", jl, "--no-progress",
                         "-q"})
                  .exit_code,
              0);
    std::string text = read_file(jl);
    write(jl, text.substr(text.find('\n') + 1));  // as an older cvsim wrote it
    RunResult r = run_cvsim(
        {"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "3", "--jsonl", jl, "--no-progress", "-q"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no journal header"), std::string::npos) << r.err;
}

TEST(Journal, ResumingWithAnEditedConfigFileIsAnError) {
    std::string cfg = tmp("hw.toml"), jl = tmp("config.jsonl");
    write(cfg, "[gm]\nlatency_hit = 60\n");
    std::vector<std::string> args = {
        "explore", kernel_path("v2c_rope_attn.py"), "--config", cfg, "--schedules", "3", "--jsonl", jl, "--no-progress",
        "-q"};
    ASSERT_EQ(run_cvsim(args).exit_code, 0);
    write(cfg, "[gm]\nlatency_hit = 900\n");
    RunResult r = run_cvsim(args);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(r.err.find("configs"), std::string::npos) << r.err;
}

TEST(Journal, TheInProcessLoopRefusesAJournalItWouldNotWrite) {
    RunResult r =
        run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--jobs", "0", "--jsonl", tmp("inproc.jsonl")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("E-USAGE"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------- merge inputs (item 3)

TEST(Merge, GarbageDevNullAFolderOrAnotherKernelsJournalIsAnError) {
    std::string k = kernel_path("v2c_rope_attn.py");
    std::string garbage = tmp("garbage.jsonl"), other = tmp("other.jsonl"), dir = tmp("dir");
    write(garbage, "this is not a journal\n{\"half\": ");
    std::filesystem::create_directories(dir);
    ASSERT_EQ(run_cvsim({"explore", kernel_path("c2v_row_relay.py"), "--schedules", "3", "--jsonl", other,
                         "--no-progress", "-q"})
                  .exit_code,
              0);
    for (const std::string& f : {garbage, std::string("/dev/null"), dir, other}) {
        RunResult r = run_cvsim({"explore", k, "--merge", f});
        EXPECT_EQ(r.exit_code, 2) << f << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("error[E-JOURNAL]"), std::string::npos) << f << "\n" << r.err;
        EXPECT_EQ(r.out.find("no findings"), std::string::npos) << f;
    }
}

TEST(Merge, AJournalOfOtherOptionsIsAnError) {
    std::string jl = tmp("merge_opts.jsonl");
    ASSERT_EQ(run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--schedules", "3", "--jsonl", jl,
                         "--no-progress", "-q"})
                  .exit_code,
              1);
    RunResult r = run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--v2c", "fence", "--merge", jl});
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_NE(r.err.find("E-JOURNAL"), std::string::npos) << r.err;
}

// ---------------------------------------------------------------- unchecked outputs (item 2)

// A lane calls another kernel function (inlined before the launch).
const char* kRefCannotRun = R"(import pypto.language as pl


@pl.program
class RefCall:
    @pl.function(type=pl.FunctionType.InCore)
    def helper(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        y = pl.store(t, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        y = pl.store(t, [0, 0], y)
        y = self.helper(x, y)
        return y
)";

// Since calls between kernel functions are inlined before a launch (docs/DECISIONS.md), the reference runs
// this kernel too: its outputs are compared and the verdict is clean (before, it was E-UNCHECKED).
TEST(Unchecked, AKernelCallIsInlinedSoTheReferenceComparesTheOutputs) {
    std::string k = tmp("refcall.py");
    write(k, kRefCannotRun);
    RunResult c = run_cvsim({"check", k, "--entry", "main", "--schedules", "5", "--no-progress"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_EQ(c.out.find("E-UNCHECKED"), std::string::npos) << c.out;
    EXPECT_NE(c.out.find("PASS"), std::string::npos) << c.out;
    RunResult r = run_cvsim({"run", k, "--entry", "main"});
    EXPECT_EQ(r.exit_code, 0) << r.out;
    EXPECT_EQ(r.out.find("outputs not compared"), std::string::npos) << r.out;
}

// ---------------------------------------------------------------- lost reports (item 4)

TEST(Io, AReportToAFullDiskIsAnIoError) {
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    std::string k = kernel_path("v2c_rope_attn.py");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", k, "-q", "--json", "/dev/full"},
             {"explore", k, "--schedules", "3", "--no-progress", "-q", "--json", "/dev/full"},
             {"explore", k, "--schedules", "3", "--no-progress", "-q", "--jsonl", "/dev/full"},
             {"expand", k, "-o", "/dev/full"},
             {"run", k, "-q", "--trace", "/dev/full"}}) {
        RunResult r = run_cvsim(args);
        EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args.back() << "\n" << r.err;
        EXPECT_NE(r.err.find("E-IO"), std::string::npos) << r.err;
    }
}

// ---------------------------------------------------------------- bounds (items 6, 8, 9)

const char* kSpin = R"(import pypto.language as pl


@pl.program
class Spin:
    @pl.function(type=pl.FunctionType.InCore)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32], y: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 16])
        for i in pl.range(0, 1000000000000):
            k = i + 1
        y = pl.store(t, [0, 0], y)
        return y
)";

TEST(Bounds, TheWallTimeBoundStopsALaneAndTheReference) {
    std::string k = tmp("spin.py");
    write(k, kSpin);
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = run_cvsim({"run", k, "--timeout", "1", "--max-cycles", "1000000000000000"}, 60);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("E-TIMEOUT"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("wall-time bound of 1 s"), std::string::npos) << r.out;
    EXPECT_LT(s, 15.0) << "a 1 s bound per phase (simulation, reference)";
}

TEST(Bounds, ADeviceThatNeverEndsIsNotAKernel) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = run_cvsim({"run", "/dev/zero"}, 60);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("MiB, the limit of a kernel file"), std::string::npos) << r.err;
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 20.0);
    RunResult d = run_cvsim({"run", testing::TempDir()});
    EXPECT_EQ(d.exit_code, 2);
    EXPECT_NE(d.err.find("is a folder"), std::string::npos) << d.err;
}

TEST(Bounds, ADiagnosticOnAHugeLineShowsAShortExcerpt) {
    std::string k = tmp("long_line.py");
    std::string text = kSpin;
    text.replace(text.find("k = i + 1"), 9, "k = " + std::string(2'000'000, 'a'));  // an undefined 2 MB name
    write(k, text);
    RunResult r = run_cvsim({"run", k});
    EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 500);
    EXPECT_NE(r.err.find("error[E-"), std::string::npos) << r.err.substr(0, 500);
    EXPECT_LT(r.err.size(), 4000u) << "the source line and the message are cut";
    EXPECT_NE(r.err.find("..."), std::string::npos) << r.err.substr(0, 500);
}

TEST(Bounds, ASeedRangeThatWrapsIsRefused) {
    RunResult r =
        run_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--seed", "18446744073709551610", "--schedules", "10"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("E-USAGE"), std::string::npos) << r.err;
}

// Peak resident memory (VmHWM) of a process, KiB; -1 if unknown.
long vm_hwm_kb(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

// Starts cvsim ARGS in the background; its stdout goes to OUT (default: nowhere).
pid_t spawn_cvsim(const std::vector<std::string>& args, const std::string& out = "/dev/null") {
    pid_t pid = fork();
    if (pid == 0) {
        std::vector<char*> argv;
        std::string bin = cvsim_binary();
        argv.push_back(bin.data());
        std::vector<std::string> copy = args;
        for (auto& a : copy) argv.push_back(a.data());
        argv.push_back(nullptr);
        if (!freopen(out.c_str(), "w", stdout) || !freopen("/dev/null", "w", stderr)) _exit(126);
        execv(bin.c_str(), argv.data());
        _exit(127);
    }
    return pid;
}

std::vector<pid_t> children_of(pid_t parent) {
    std::vector<pid_t> out;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
        std::string name = e.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream in(e.path() / "stat");
        std::string stat;
        std::getline(in, stat);
        auto close = stat.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(stat.substr(close + 2));
        char state;
        pid_t ppid;
        rest >> state >> ppid;
        if (ppid == parent && state != 'Z') out.push_back(std::stoi(name));
    }
    return out;
}

bool alive(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat;
    if (!std::getline(in, stat)) return false;
    auto close = stat.rfind(')');
    return close != std::string::npos && stat.size() > close + 2 && stat[close + 2] != 'Z';
}

TEST(Bounds, TheSupervisorsMemoryIsFlatInTheScheduleBudgetAndWorkersDieWithIt) {
    pid_t sup = spawn_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "1000000000000", "--jobs", "2",
                             "--no-progress", "-q"});
    ASSERT_GT(sup, 0);
    std::vector<pid_t> workers;
    for (int i = 0; i < 100 && workers.size() < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        workers = children_of(sup);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    long hwm = vm_hwm_kb(sup);
    ::kill(sup, SIGKILL);
    int st = 0;
    ::waitpid(sup, &st, 0);
    EXPECT_GT(hwm, 0);
    const long limit_kb = (kSanitized ? 600 : 300) * 1024;  // ASan: its shadow and quarantine
    EXPECT_LT(hwm, limit_kb)
        << "the supervisor holds no per-schedule state (it grew ~0.5 GB/s when it held a seed list)";
    ASSERT_EQ(workers.size(), 2u) << "two workers were running";
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));
    for (pid_t w : workers) {
        EXPECT_FALSE(alive(w)) << "worker " << w << " outlived its supervisor";
        if (alive(w)) ::kill(w, SIGKILL);
    }
}

TEST(Bounds, AKernelTooLargeToSimulateIsRefusedBeforeAllocating) {
    std::string big = tmp("big_tensor.py"), ring = tmp("big_ring.py");
    std::string text = kSpin;
    text.replace(text.find("x: pl.Tensor[[16, 16]"), 21, "x: pl.Tensor[[65536, 65536]");
    write(big, text);
    std::string relay = read_file(kernel_path("missing_tfree.py"));
    for (size_t at; (at = relay.find("slot_size=1024")) != std::string::npos;)
        relay.replace(at, 14, "slot_size=4294967297");
    write(ring, relay);
    for (const std::string& k : {big, ring}) {
        RunResult r = run_cvsim({"run", k}, 60);
        EXPECT_EQ(r.exit_code, 2) << k << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("error[E-CAPACITY]"), std::string::npos) << k << "\n" << r.err;
        EXPECT_NE(r.err.find("at most 1024 MiB of GM"), std::string::npos) << r.err;
    }
}

// ---------------------------------------------------------------- text round trip (item 13)

TEST(RoundTrip, NonAsciiStringsSurvivePrintAndParse) {
    std::string src = read_file(source_dir() + "/tests/golden/dsl/spmd_and_calls.py");
    src.replace(src.find("name=\"blocks\""), 13,
                "name=\"bl\xc3\xb6"
                "cke \xe2\x86\x92 \\u00fc\"");
    std::string k = tmp("utf8.py"), a = tmp("utf8_a.py"), b = tmp("utf8_b.py");
    write(k, src);
    ASSERT_EQ(run_cvsim({"expand", k, "-o", a}).exit_code, 0);
    ASSERT_EQ(run_cvsim({"expand", a, "-o", b}).exit_code, 0);
    EXPECT_NE(read_file(a).find("name='bl\xc3\xb6"
                                "cke \xe2\x86\x92 \xc3\xbc'"),
              std::string::npos)
        << read_file(a);
    EXPECT_EQ(read_file(a), read_file(b));
}

// kill -9 of the supervisor at some point of a run: the rerun resumes, and the journal then holds every
// schedule exactly once, every line whole.
TEST(Journal, AfterASupervisorKillTheRerunCompletesEachScheduleExactlyOnce) {
    std::string jl = tmp("killed.jsonl");
    std::vector<std::string> args = {"explore",       kernel_path("v2c_rope_attn.py"),
                                     "--schedules",   "3000",
                                     "--jobs",        "2",
                                     "--jsonl",       jl,
                                     "--no-progress", "-q"};
    pid_t sup = spawn_cvsim(args);
    ASSERT_GT(sup, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(400));
    ::kill(sup, SIGKILL);
    int st = 0;
    ::waitpid(sup, &st, 0);
    RunResult r = run_cvsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::multiset<uint64_t> seeds;
    int nominal = 0;
    for (const auto& l : lines_of(jl)) {  // throws on a line that is not whole JSON
        if (l.contains("journal")) continue;
        if (l["strategy"] == "nominal")
            ++nominal;
        else
            seeds.insert(l["seed"].get<uint64_t>());
    }
    EXPECT_EQ(nominal, 1);
    EXPECT_EQ(seeds.size(), 3000u);
    EXPECT_EQ(std::set<uint64_t>(seeds.begin(), seeds.end()).size(), 3000u) << "no schedule twice";
}

// kill -9 of one worker: its schedule is E-CRASH with its seed, a fresh worker finishes the chunk, and every
// schedule is in the journal exactly once.
TEST(Journal, AKilledWorkerIsACrashOfItsScheduleAndTheRestGoesOn) {
    std::string jl = tmp("worker_kill.jsonl"), out = tmp("worker_kill.out");
    pid_t sup = spawn_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "3000", "--jobs", "2",
                             "--jsonl", jl, "--no-progress"},
                            out);
    ASSERT_GT(sup, 0);
    std::vector<pid_t> workers;
    for (int i = 0; i < 400 && workers.size() < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        workers = children_of(sup);
    }
    ASSERT_FALSE(workers.empty());
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(workers[0], SIGKILL);
    int st = 0;
    ::waitpid(sup, &st, 0);
    ASSERT_TRUE(WIFEXITED(st));
    std::string text = read_file(out);
    std::multiset<uint64_t> seeds;
    int crashes = 0;
    for (const auto& l : lines_of(jl)) {
        if (l.contains("journal") || l["strategy"] == "nominal") continue;
        seeds.insert(l["seed"].get<uint64_t>());
        crashes += l["verdict"] == "crash";
    }
    EXPECT_EQ(seeds.size(), 3000u) << "every schedule once, the crashed one as its crash record";
    EXPECT_EQ(std::set<uint64_t>(seeds.begin(), seeds.end()).size(), 3000u) << "no schedule twice";
    // Killed in a schedule: that schedule is E-CRASH (killed between two schedules: no schedule is blamed).
    EXPECT_LE(crashes, 1);
    if (crashes == 1) {
        EXPECT_EQ(WEXITSTATUS(st), 1) << text;
        EXPECT_NE(text.find("E-CRASH"), std::string::npos) << text;
    } else {
        EXPECT_EQ(WEXITSTATUS(st), 0) << text;
    }
}

TEST(Journal, SigintStopsWithAPartialSummaryAndTheInterruptedExitCode) {
    std::string jl = tmp("sigint.jsonl"), out = tmp("sigint.out");
    pid_t sup = spawn_cvsim({"explore", kernel_path("v2c_rope_attn.py"), "--schedules", "1000000000", "--jobs", "2",
                             "--jsonl", jl, "--no-progress"},
                            out);
    ASSERT_GT(sup, 0);
    std::vector<pid_t> workers;
    for (int i = 0; i < 100 && workers.size() < 2; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        workers = children_of(sup);
    }
    // Some schedules are in the journal (slow sanitizer builds need longer), then ^C.
    for (int i = 0; i < 400; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::ifstream in(jl);
        std::string line;
        int n = 0;
        while (std::getline(in, line)) ++n;
        if (n > 3) break;
    }
    ::kill(sup, SIGINT);
    int st = 0;
    ::waitpid(sup, &st, 0);
    ASSERT_TRUE(WIFEXITED(st)) << "ended by the signal instead of handling it";
    EXPECT_EQ(WEXITSTATUS(st), 130);
    std::string text = read_file(out);
    EXPECT_NE(text.find("INTERRUPTED"), std::string::npos) << text;
    EXPECT_EQ(text.find("PASS"), std::string::npos) << text;
    EXPECT_GT(lines_of(jl).size(), 2u) << "what was finished is in the journal, every line whole";
    for (pid_t w : workers) EXPECT_FALSE(alive(w)) << "worker " << w;
}

TEST(Io, AReportToAFullStandardOutputIsAnIoError) {
    if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
    pid_t pid = spawn_cvsim({"run", kernel_path("v2c_rope_attn.py")}, "/dev/full");
    int st = 0;
    ::waitpid(pid, &st, 0);
    ASSERT_TRUE(WIFEXITED(st));
    EXPECT_EQ(WEXITSTATUS(st), 2) << "the verdict must not be 0 when its report was lost";
}

// ---------------------------------------------------------------- option validation

TEST(Validation, EachBadOptionIsAClearUsageError) {
    std::string k = kernel_path("v2c_rope_attn.py");
    std::vector<std::vector<std::string>> cases = {
        {"run", k, "--timeout", "0"},
        {"run", k, "--timeout", "-1"},
        {"run", k, "--timeout", "nan"},
        {"run", k, "--rtol", "-1"},
        {"run", k, "--rtol", "nan"},
        {"run", k, "--seed", "-1"},
        {"run", k, "--visibility-delay", "-1"},
        {"explore", k, "--jobs", "-1"},
        {"explore", k, "--shard", "0/2/3"},
        {"explore", k, "--shard", "2/2"},
        {"explore", k, "--shard", "0/0"},
        {"run", k, "--entry", ""},
        {"run", k, "--config", testing::TempDir()},
        {"run", k, "--input", "no_such_param=3"},
        {"explore", k, "--seed", "-5"},
        {"explore", k, "--schedules", "-1"},
    };
    for (const auto& args : cases) {
        RunResult r = run_cvsim(args);
        std::string what = args[0] + " " + args[2] + " " + args[3];
        EXPECT_EQ(r.exit_code, 2) << what << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("error[E-USAGE]"), std::string::npos) << what << "\n" << r.err;
    }
}

}  // namespace
