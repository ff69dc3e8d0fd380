// Launch ordering of orchestrations (docs/DECISIONS.md, "Manual scopes") and false refusals of the host walk,
// through the real cvsim binary. Fixtures: tests/e2e/kernels/manual/ (kernels written for cvsim). Each test
// failed before its fix; each racy or ordered twin keeps the rule from going silent or flooding.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kpath(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/manual/" + name;
}

RunResult check(const std::string& path, const std::vector<std::string>& extra = {}, int schedules = 3) {
    std::vector<std::string> args = {"check", path, "--schedules", std::to_string(schedules), "--jobs", "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cvsim(args, 300);
}

// The fixture with each (from, to) replaced once, written to the test's scratch folder (TempDir()).
std::string variant(const std::string& name, const std::vector<std::pair<std::string, std::string>>& edits,
                    const std::string& tag) {
    std::ifstream in(kpath(name));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const auto& [from, to] : edits) {
        auto at = text.find(from);
        EXPECT_NE(at, std::string::npos) << name << " has no '" << from << "'";
        if (at != std::string::npos) text.replace(at, from.size(), to);
    }
    std::string path = ::testing::TempDir() + "manual_" + tag + "_" + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

// A pl.spmd_submit whose core_num the orchestration computes: the note names the kernel and the width the host
// walk evaluated (before: "the launch of 'pl.spmd_submit' ... cvsim launches --blocks 1", though it ran 4).
TEST(ManualScope, TheCoreNumNoteOfASubmitNamesTheKernelAndTheEvaluatedWidth) {
    RunResult r = check(kpath("spmd_submit_computed_core_num.py"));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const std::string err = unwrapped(r.err);
    EXPECT_NE(err.find("the launch of 'double' sets core_num at run time; the host walk evaluates it to 4 block(s)"),
              std::string::npos)
        << err;
    EXPECT_EQ(err.find("--blocks 1"), std::string::npos) << err;
}
