// The one pass pipeline (frontend/pipeline.h) through the binary: expand, run and check accept the same
// kernels, so a kernel over a capacity bound gets one diagnostic (code, file:line:col) from each; `expand -v`
// and `expand --json` list the passes as they ran. Fixtures: tests/e2e/kernels/pipeline/.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/pipeline/" + name;
}

// "FILE:LINE:COL: error[CODE]" of the one diagnostic on stderr ("" when there is not exactly one).
std::string diagnostic(const RunResult& r) {
    static const std::regex re(R"((\S+:\d+:\d+): error\[([A-Z0-9-]+)\])");
    std::string first;
    int n = 0;
    for (auto it = std::sregex_iterator(r.err.begin(), r.err.end(), re); it != std::sregex_iterator(); ++it, ++n)
        if (n == 0) first = (*it)[1].str() + " " + (*it)[2].str();
    return n == 1 ? first : "";
}

void expect_same_diagnostic(const std::string& k, const std::vector<std::string>& extra, const std::string& want) {
    for (std::string cmd : {"expand", "run", "check"}) {
        std::vector<std::string> args = {cmd, k};
        args.insert(args.end(), extra.begin(), extra.end());
        if (cmd == "check") args.insert(args.end(), {"--schedules", "2", "--jobs", "1", "--no-progress"});
        RunResult r = run_cvsim(args, 120);
        EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.out << r.err;
        EXPECT_EQ(diagnostic(r), want) << cmd << "\n" << r.err;
    }
}

}  // namespace

// The GM of the launch (here one 4 GiB tensor) is over cvsim's bound, a limit of the simulator: run and
// check refuse it before allocating, with one diagnostic; expand allocates nothing and prints it (real models'
// weights are gigabytes; pypto-lib's qwen3_14b prefill and deepseek expert_routed read this way).
TEST(Pipeline, GmOverBudgetIsRefusedByTheCommandsThatAllocateIt) {
    const std::string k = kernel("gm_over_budget.py");
    for (std::string cmd : {"run", "check"}) {
        std::vector<std::string> args = {cmd, k};
        if (cmd == "check") args.insert(args.end(), {"--schedules", "2", "--jobs", "1", "--no-progress"});
        RunResult r = run_cvsim(args, 120);
        EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.out << r.err;
        EXPECT_EQ(diagnostic(r), k + ":8:17 E-CAPACITY") << cmd << "\n" << r.err;
    }
    RunResult e = run_cvsim({"expand", k, "-v"}, 120);
    EXPECT_EQ(e.exit_code, 0) << e.err;
    EXPECT_NE(e.err.find("pass gm-budget"), std::string::npos) << e.err;
    EXPECT_NE(e.err.find("over_bound 1"), std::string::npos) << e.err;
}

// Capacity as the launch runs it (the helper's statements inlined into the caller): expand checked each
// function as written and accepted it.
TEST(Pipeline, CapacityAfterInliningIsOneDiagnosticFromExpandRunAndCheck) {
    const std::string k = kernel("inlined_over_ub.py");
    expect_same_diagnostic(k, {"--entry", "f"}, k + ":10:9 E-CAPACITY");
}

// Capacity as written (an accumulator beside a full one): the same from each command, as before.
TEST(Pipeline, CapacityAsWrittenIsOneDiagnosticFromExpandRunAndCheck) {
    const std::string k = source_dir() + "/tests/golden/capacity/second_acc_beside_full_one.py";
    expect_same_diagnostic(k, {}, k + ":18:9 E-CAPACITY");
}

// `expand -v` prints one line per pass in pipeline order after the expander's statistics; --json has them
// as "passes" with their statistics.
TEST(Pipeline, ExpandVerboseAndJsonListThePassesInOrder) {
    const std::string json = ::testing::TempDir() + "pipeline_passes.json";
    RunResult r = run_cvsim({"expand", kernel_path("v2c_rope_attn.py"), "-v", "--json", json});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> lines;
    for (size_t at = 0; (at = r.err.find("pass ", at)) != std::string::npos;) {
        if (at == 0 || r.err[at - 1] == '\n') lines.push_back(r.err.substr(at, r.err.find('\n', at) - at));
        at += 5;
    }
    const std::vector<std::string> names = {
        "sema",          "entry",       "capacity", "expand-mixed-kernel", "verify-hardware", "compile",
        "verify-launch", "ring-layout", "gm-budget"};
    ASSERT_EQ(lines.size(), names.size()) << r.err;
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(lines[i].rfind("pass " + names[i], 0), 0u) << lines[i];
    EXPECT_NE(r.err.find("pass sema: functions 1, statements "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("pass expand-mixed-kernel [printed]: functions_split 1, "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("pass compile [rope_attn]: blocks 1, functions_split 1, "), std::string::npos) << r.err;

    nlohmann::json j = nlohmann::json::parse(read_file(json));
    ASSERT_EQ(j["passes"].size(), names.size()) << j.dump(2);
    for (size_t i = 0; i < names.size(); ++i) EXPECT_EQ(j["passes"][i]["name"], names[i]);
    EXPECT_EQ(j["passes"][0]["stats"]["functions"], 1);
    // The printed expansion's statistics are the expander's own ("expand"), the launch's the same numbers.
    EXPECT_EQ(j["passes"][3]["stats"]["v2c_fences"], j["expand"]["v2c_fences"]);
    EXPECT_EQ(j["passes"][5]["stats"]["v2c_fences"], j["expand"]["v2c_fences"]);
    EXPECT_GT(j["passes"][8]["stats"]["bytes"].get<int64_t>(), 0);
}
