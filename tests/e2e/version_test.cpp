// `cvsim --version`: a CI log must say which cvsim produced a verdict (version, commit, build type).
#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string git_head(const std::string& dir) {
    std::string cmd = "git -C '" + dir + "' rev-parse --short=12 HEAD 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return "";
    char buf[64] = {};
    std::string out;
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
    return out;
}

}  // namespace

TEST(Version, PrintsVersionCommitAndBuildTypeOnOneLineAndExitsZero) {
    auto r = run_cvsim({"--version"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(
        r.out, m,
        std::regex(R"(cvsim (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}(-dirty)?|unknown), (\w+(\+asan)?) build\)\n)")))
        << r.out;
    std::string head = git_head(source_dir());
    // Built from a clean git checkout: the commit is the checkout's (the header is regenerated at every
    // build; a binary built from uncommitted changes says -dirty and names the commit they are on).
    if (!head.empty() && !m[3].matched) {
        EXPECT_EQ(m[2].str().substr(0, 12), head);
    }
}
