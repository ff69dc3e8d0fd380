// A whole-model file where one function cannot be read (an E-UNSUPPORTED in its body or signature): the
// function is kept as not read, the launches that do not reach it are checked, the ones that do are reported
// not checked with its diagnostic; run/expand of an entry that reaches it exit 2 with that diagnostic
// (docs/DECISIONS.md, "Functions cvsim cannot read"). Fixtures: tests/e2e/kernels/unread/.
#include <gtest/gtest.h>

#include <map>

#include <nlohmann/json.hpp>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/unread/" + name;
}

// The check report per entry: "checked" for a verdict, else the diagnostic's "CODE LINE".
std::map<std::string, std::string> per_kernel(const RunResult& r) {
    std::map<std::string, std::string> out;
    nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
    if (j.is_discarded()) return out;
    for (const auto& k : j["kernels"]) {
        std::string entry = k.value("entry", "");
        if (k.contains("diagnostic"))
            out[entry] =
                k["diagnostic"]["code"].get<std::string>() + " " + std::to_string(k["diagnostic"]["line"].get<int>());
        else
            out[entry] = k["findings"].empty() ? "checked" : "findings";
    }
    return out;
}

RunResult check(const std::string& k) {
    return run_cvsim({"check", kernel(k), "--schedules", "4", "--no-progress", "--json", "-"});
}

TEST(UnreadFunctions, AFunctionNoLaunchReachesDoesNotHideTheVerdict) {
    RunResult r = check("one_launch.py");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    auto k = per_kernel(r);
    ASSERT_EQ(k.size(), 1u) << r.out;
    EXPECT_EQ(k.begin()->second, "checked");
    // The report says which function was not read, and why.
    RunResult text = run_cvsim({"check", kernel("one_launch.py"), "--schedules", "4", "--no-progress"});
    EXPECT_EQ(text.exit_code, 0) << text.err;
    EXPECT_NE(unwrapped(text.err).find("function 'bad' is not read (E-UNSUPPORTED at line 18"), std::string::npos)
        << text.err;
    EXPECT_EQ(text.err.find("error["), std::string::npos) << text.err;
    RunResult run = run_cvsim({"run", kernel("one_launch.py")});
    EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
}

TEST(UnreadFunctions, ALaunchThatReachesItIsNotCheckedTheOthersAre) {
    for (const char* f : {"both_launched.py", "nested.py", "signature.py"}) {
        RunResult r = check(f);
        EXPECT_EQ(r.exit_code, 2) << f << r.out << r.err;  // something was not checked: never exit 0
        auto k = per_kernel(r);
        EXPECT_EQ(k["good"], "checked") << f << r.out;
        const std::string reached = std::string(f) == "both_launched.py" ? "bad" : "wrap";
        EXPECT_EQ(k[reached], std::string(f) == "signature.py" ? "E-UNSUPPORTED 16" : "E-UNSUPPORTED 18") << f << r.out;
        // The diagnostic is bad's own, with its caret.
        EXPECT_NE(r.err.find("unread/" + std::string(f) +
                             (std::string(f) == "signature.py" ? ":16:114: error[E-UNSUPPORTED]"
                                                               : ":18:44: error[E-UNSUPPORTED]")),
                  std::string::npos)
            << r.err;
        EXPECT_NE(r.err.find("^"), std::string::npos) << r.err;
    }
}

// An orchestration cvsim cannot read hides the kernels it launches: it is a launch not checked, never dropped
// (dropping it gave exit 0 with its kernels unchecked).
TEST(UnreadFunctions, AnUnreadOrchestrationIsALaunchNotCheckedNeverDropped) {
    RunResult r = run_cvsim({"check", kernel("unread_orchestration.py"), "--entry", "main", "--schedules", "4",
                             "--no-progress", "--json", "-"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    auto k = per_kernel(r);
    EXPECT_EQ(k["good"], "checked") << r.out;
    EXPECT_EQ(k["bad"], "checked") << r.out;
    EXPECT_EQ(k["sub"], "E-UNSUPPORTED 24") << r.out;
}

TEST(UnreadFunctions, RunAndExpandOfAnEntryThatReachesItExitTwoWithItsDiagnostic) {
    struct Case {
        std::vector<std::string> args;
        const char* at;
    };
    for (const Case& c :
         std::vector<Case>{{{"run", kernel("both_launched.py"), "--entry", "bad"}, "both_launched.py:18:44:"},
                           {{"run", kernel("both_launched.py")}, "both_launched.py:18:44:"},
                           {{"expand", kernel("both_launched.py")}, "both_launched.py:18:44:"},
                           {{"expand", kernel("nested.py"), "--entry", "wrap"}, "nested.py:18:44:"},
                           {{"run", kernel("nested.py"), "--entry", "wrap"}, "nested.py:18:44:"},
                           {{"run", kernel("signature.py"), "--entry", "wrap"}, "signature.py:16:114:"}}) {
        RunResult r = run_cvsim(c.args);
        EXPECT_EQ(r.exit_code, 2) << c.args[1] << r.out << r.err;
        EXPECT_NE(r.err.find(std::string(c.at) + " error[E-UNSUPPORTED]"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("^"), std::string::npos) << r.err;
    }
}

TEST(UnreadFunctions, AnEntryThatDoesNotReachItRunsAndExpandKeepsItAsWritten) {
    RunResult r = run_cvsim({"run", kernel("nested.py"), "--entry", "good"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    std::string out = ::testing::TempDir() + "/unread_expanded.py";
    RunResult e = run_cvsim({"expand", kernel("both_launched.py"), "--entry", "good", "-o", out});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    std::string text = read_file(out);
    EXPECT_NE(text.find("# cvsim: not read: 18:44: E-UNSUPPORTED"), std::string::npos) << text;
    EXPECT_NE(text.find("pl.tensor.slice(a, [16, 64], [0, 0])"), std::string::npos) << text;  // bad as written
    // The printed program reads back the same way: good runs, bad is still refused.
    EXPECT_EQ(run_cvsim({"run", out, "--entry", "good"}).exit_code, 0);
    EXPECT_EQ(run_cvsim({"run", out, "--entry", "bad"}).exit_code, 2);
}

}  // namespace
