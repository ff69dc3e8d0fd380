// End to end: what a user sees from the cvsim binary on the seed scenarios.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>

#include <nlohmann/json.hpp>

#include "test_support.h"

using namespace cvsim::test;

namespace {

TEST(Cli, V2cOffReportsTheRaceWithBothSourceLines) {
    RunResult r = run_cvsim({"check", kernel_path("v2c_rope_attn.py"), "--v2c", "off"});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    // The vector store is line 31, the cube load line 33.
    std::regex race(
        R"(RAW on GM q_rot\[0:16, 0:128\]: AIV0 MTE3 write at v2c_rope_attn\.py:31 .* AIC MTE2 read at v2c_rope_attn\.py:33)");
    EXPECT_TRUE(std::regex_search(unwrapped(r.out), race)) << r.out;
    EXPECT_NE(r.out.find("replay: cvsim run"), std::string::npos);
}

TEST(Cli, V2cFenceIsClean) {
    RunResult r = run_cvsim({"check", kernel_path("v2c_rope_attn.py"), "--v2c", "fence"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("PASS"), std::string::npos);
}

TEST(Cli, RunOfTheFencedKernelMatchesTheReferenceAndReportsPerCoreCycles) {
    RunResult r = run_cvsim({"run", kernel_path("v2c_rope_attn.py")});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference"), std::string::npos) << r.out;
    for (const char* core : {"AIC", "AIV0", "AIV1 (replay)"}) EXPECT_NE(r.out.find(core), std::string::npos) << core;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"(AIC\s+(\d+)\s+(\d+)\s+(\d+))")));
    EXPECT_GT(std::stoul(m[3]), 100u);  // the cube core does real work: loads, MTE1 moves, a matmul
}

TEST(Cli, MissingTfreeDeadlocksQuicklyNamingEachBlockedCore) {
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = run_cvsim({"run", kernel_path("missing_tfree.py")});
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_LT(s, 1.0) << "a deadlock must be reported, not waited out";
    EXPECT_NE(r.out.find("E-DEADLOCK"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("AIC: tile.tpush_to_aiv at missing_tfree.py:25 waits for a free slot"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("AIV0: tile.tpop_from_aic at missing_tfree.py:36 waits for data"), std::string::npos) << r.out;
}

TEST(Cli, UnbalancedPopDeadlocksNamingTheSecondPop) {
    RunResult r = run_cvsim({"run", kernel_path("unbalanced_pop.py")});
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.out.find("AIV0: tile.tpop_from_aic at unbalanced_pop.py:32"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("AIC: finished"), std::string::npos) << r.out;
}

TEST(Cli, ExpandOutputParsesBackAndPrintsIdentically) {
    for (const char* k :
         {"v2c_rope_attn.py", "c2v_row_relay.py", "v2c_blocked_loop.py", "missing_tfree.py", "unbalanced_pop.py"}) {
        std::string first = testing::TempDir() + "/first_" + k;
        std::string second = testing::TempDir() + "/second_" + k;
        RunResult a = run_cvsim({"expand", kernel_path(k), "-o", first});
        ASSERT_EQ(a.exit_code, 0) << k << a.err;
        RunResult b = run_cvsim({"expand", first, "-o", second});
        ASSERT_EQ(b.exit_code, 0) << k << b.err;
        EXPECT_EQ(read_file(first), read_file(second)) << k;
    }
}

TEST(Cli, DemoPrintsTheTableOfPolicies) {
    RunResult r = run_cvsim({"demo", "--schedules", "50"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    // policy, verdict, hazard schedules, wrong-output schedules, nominal cycles, fences, barriers inserted.
    std::regex off(R"(off\s+E-RACE-RAW\s+51/51\s+\d+/51\s+\d+\s+0\s+0)");
    std::regex fence(R"(fence\s+clean\s+0/51\s+0/51\s+\d+\s+1\s+0)");
    std::regex syncall(R"(syncall\s+clean\s+0/51\s+0/51\s+\d+\s+0\s+1)");
    std::regex reject(R"(reject\s+E-V2C-UNFENCED)");
    EXPECT_TRUE(std::regex_search(r.out, off)) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, fence)) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, syncall)) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, reject)) << r.out;
}

// Pass statistics: `expand -v` prints them (with one line per decision) on stderr, `--json` reports them.
// `--json -` puts the JSON report alone on standard output (before, it wrote a file named "-").
TEST(Cli, JsonDashWritesTheReportToStandardOutputAlone) {
    std::string k = kernel_path("v2c_rope_attn.py");
    std::filesystem::remove("-");
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"run", k, "--v2c", "off", "--json", "-"},
             {"check", k, "--v2c", "fence", "--schedules", "3", "--no-progress", "--json", "-"},
             {"params", "--json", "-"}}) {
        RunResult r = run_cvsim(args);
        EXPECT_EQ(r.exit_code, args[0] == "run" ? 1 : 0) << args[0] << r.err;
        nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
        EXPECT_FALSE(j.is_discarded()) << args[0] << ": standard output is not JSON alone:\n" << r.out;
        EXPECT_FALSE(std::filesystem::exists("-")) << args[0] << " wrote a file named '-'";
        std::filesystem::remove("-");
    }
    RunResult e = run_cvsim({"expand", k, "--json", "-"});
    EXPECT_EQ(e.exit_code, 2) << "the expanded program and the JSON cannot share standard output";
    EXPECT_NE(e.err.find("-o FILE"), std::string::npos) << e.err;
}

TEST(Cli, ExpandReportsPassStatisticsWithVerboseAndInJson) {
    struct Case {
        const char* kernel;
        const char* policy;
        const char* stat;  // the counter the case exercises
        const char* line;  // a substring of the -v summary
        const char* log;   // a substring of the decision log
    };
    for (const Case& c :
         {Case{"v2c_rope_attn.py", "fence", "v2c_fences", "V2C fences 1",
               "q_rot: V2C fenced (tpush_to_aic / tpop_from_aiv)"},
          Case{"v2c_branch.py", "fence", "fallbacks", "fallbacks 1, barriers 1", "no balanced fence placement"},
          Case{"v2c_blocked_loop.py", "syncall", "barriers", "barriers 1", "ordered with fence + syncall"},
          Case{"v2c_manual_syncall.py", "fence", "already_ordered", "already ordered 1",
               "already ordered, nothing added"},
          Case{"v2c_reused_scratch.py", "fence", "war_orders", "WAR orderings 1",
               "loop-carried WAR ordered with sync_set"},
          Case{"c2v_row_relay.py", "off", "c2v_fences", "C2V fences 1", "fenced (tpush_to_aiv / tpop_from_aic)"},
          Case{"v2c_rope_attn.py", "off", "unfenced", "left unfenced 1", "left unfenced (--v2c off)"}}) {
        std::string js = testing::TempDir() + "/expand_stats.json";
        std::remove(js.c_str());
        RunResult r = run_cvsim({"expand", kernel_path(c.kernel), "--v2c", c.policy, "-v", "--json", js});
        std::string what = std::string(c.kernel) + " --v2c " + c.policy;
        ASSERT_EQ(r.exit_code, 0) << what << r.err;
        EXPECT_NE(r.err.find(c.line), std::string::npos) << what << "\n" << r.err;
        EXPECT_NE(r.err.find(c.log), std::string::npos) << what << "\n" << r.err;
        EXPECT_EQ(r.out.find("expand:"), std::string::npos) << "statistics go to stderr, the program to stdout";
        auto j = nlohmann::json::parse(read_file(js));
        ASSERT_TRUE(j.contains("expand")) << j.dump();
        for (const char* key : {"functions_expanded", "boundaries", "c2v_fences", "v2c_fences", "war_orders",
                                "fallbacks", "barriers", "already_ordered", "unfenced", "log"})
            EXPECT_TRUE(j["expand"].contains(key)) << key;
        EXPECT_GE(j["expand"][c.stat].get<int>(), 1) << what << " " << c.stat;
        EXPECT_EQ(j["expand"]["functions_expanded"].get<int>(), 1) << what;
        EXPECT_FALSE(j["expand"]["log"].empty()) << what;
    }
    // Without -v nothing but the program is printed.
    RunResult quiet = run_cvsim({"expand", kernel_path("v2c_branch.py"), "--v2c", "fence"});
    EXPECT_EQ(quiet.err.find("fallbacks"), std::string::npos) << quiet.err;
}

TEST(Cli, BadInputGivesOneDiagnosticWithCaretAndExit2) {
    RunResult r = run_cvsim({"check", kernel_path("bad/undefined_name.py")});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("undefined_name.py:9:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("error[E-NAME]: name 'tt' is not defined"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("^"), std::string::npos);
}

// One set of compile-time checks: `expand` rejects, with the same diagnostic, every kernel `check` rejects
// before simulating (it used to print an expansion of a kernel whose tiles overflow the UB).
TEST(Cli, ExpandRejectsWhatCheckRejectsWithTheSameDiagnostic) {
    std::vector<std::string> kernels;
    for (const auto& e : std::filesystem::directory_iterator(shared_dir() + "/kernels/bad"))
        if (e.path().extension() == ".py") kernels.push_back(e.path().string());
    for (const char* k : {"inplace_operand_still_live.py", "inplace_reuse_fits.py"})
        kernels.push_back(source_dir() + "/tests/golden/capacity/" + k);
    std::sort(kernels.begin(), kernels.end());
    const std::regex diag(R"(error\[([A-Z0-9-]+)\])");
    int rejected = 0;
    for (const auto& k : kernels) {
        RunResult c = run_cvsim({"check", k, "--schedules", "1"});
        RunResult x = run_cvsim({"expand", k});
        std::smatch mc, mx;
        const bool cbad = c.exit_code == 2 && std::regex_search(c.err, mc, diag);
        EXPECT_EQ(x.exit_code == 2, cbad) << k << "\ncheck: " << c.err << "\nexpand: " << x.err;
        if (cbad && std::regex_search(x.err, mx, diag)) {
            EXPECT_EQ(mx[1].str(), mc[1].str()) << k;
            EXPECT_EQ(x.err.substr(0, x.err.find('\n')), c.err.substr(0, c.err.find('\n'))) << k;
        }
        rejected += cbad;
    }
    EXPECT_GE(rejected, 10) << "the shared bad kernels and the capacity golden are rejected";
}

TEST(Cli, UsageErrorsExit2) {
    EXPECT_EQ(run_cvsim({"run"}).exit_code, 2);
    EXPECT_EQ(run_cvsim({"run", kernel_path("v2c_rope_attn.py"), "--v2c", "sometimes"}).exit_code, 2);
    EXPECT_EQ(run_cvsim({"run", "/nonexistent/k.py"}).exit_code, 2);
    EXPECT_EQ(run_cvsim({"frobnicate"}).exit_code, 2);
}

TEST(Cli, ReplayIsByteIdentical) {
    std::vector<std::string> args = {
        "run", kernel_path("v2c_rope_attn.py"), "--v2c", "off", "--schedule", "random", "--seed", "7"};
    RunResult a = run_cvsim(args), b = run_cvsim(args);
    EXPECT_EQ(a.out, b.out);
    EXPECT_EQ(a.exit_code, 1);
}

}  // namespace
