// Launches inside `for b in pl.spmd(N)` in an orchestration (docs/DECISIONS.md, "A launch inside pl.spmd(N) is one
// launch of N blocks"): two launches in one pl.spmd body run beside each other block by block, which cvsim's
// per-kernel check does not model, so both kernels are reported not checked (a false PASS before: each kernel was
// checked on its own as if the launches were ordered); the same kernels in two pl.spmd loops are ordered and clean.
// Fixtures: tests/e2e/kernels/spmd/ (kernels written for cvsim).
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kpath(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/spmd/" + name;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST(SpmdLaunch, TwoLaunchesInOneSpmdBodyAreNotCheckedAsIfOrdered) {
    for (const char* target : {"a2a3", "a5"}) {
        RunResult r = run_cvsim({"check", kpath("two_launches.py"), "--schedules", "5", "--target", target}, 300);
        const std::string all = unwrapped(r.out + r.err);
        EXPECT_EQ(r.exit_code, 2) << all;
        EXPECT_EQ(count(all, "error[E-UNCHECKED]"), 2u) << all;
        EXPECT_NE(all.find("kernel 'fill' is not checked"), std::string::npos) << all;
        EXPECT_NE(all.find("kernel 'use' is not checked"), std::string::npos) << all;
        EXPECT_NE(all.find("makes 2 launches in each block"), std::string::npos) << all;
        EXPECT_EQ(all.find("PASS"), std::string::npos) << all;
    }
}

TEST(SpmdLaunch, ALaunchInALoopInsideASpmdBodyIsNotCheckedAsOneLaunch) {
    RunResult r = run_cvsim({"check", kpath("launch_in_loop.py"), "--schedules", "3"}, 300);
    const std::string all = unwrapped(r.out + r.err);
    EXPECT_EQ(r.exit_code, 2) << all;
    EXPECT_NE(all.find("error[E-UNCHECKED]: kernel 'fill' is not checked as launched"), std::string::npos) << all;
    EXPECT_EQ(all.find("PASS"), std::string::npos) << all;
}

TEST(SpmdLaunch, TheSameKernelsInTwoSpmdLoopsAreOrderedAndClean) {
    for (const char* target : {"a2a3", "a5"}) {
        RunResult r = run_cvsim({"check", kpath("two_loops.py"), "--schedules", "5", "--target", target}, 300);
        const std::string all = unwrapped(r.out + r.err);
        EXPECT_EQ(r.exit_code, 0) << all;
        EXPECT_EQ(count(all, "PASS: no finding"), 2u) << all;
        EXPECT_EQ(all.find("error["), std::string::npos) << all;
    }
}

// --entry KERNEL is checked as wide as its widest launch (docs/DECISIONS.md, "A kernel named by --entry is launched
// as wide as its widest launch"): a pl.spmd(4) loop around the launch, or core_num 2 on the Spmd wrapper that
// calls it, with a note naming the launch; every block writes the same rows, a race one block cannot show.
// --blocks N > 1 stands as given.
TEST(SpmdLaunch, AKernelNamedByEntryIsCheckedAsWideAsItsLaunch) {
    const std::string golden = source_dir() + "/tests/golden/printed/";
    const struct {
        const char *file, *kernel, *note;
    } cases[] = {
        {"spmd_loop_entry_width.py", "band", "'band' is launched with 4 blocks at line 28; cvsim checks it with 4"},
        {"core_num_wrapper_entry_width.py", "rows",
         "'rows' is launched with 2 blocks at line 26; cvsim checks it with 2"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.file);
        RunResult r = run_cvsim({"check", golden + c.file, "--entry", c.kernel, "--schedules", "3"}, 300);
        EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
        EXPECT_NE(unwrapped(r.err).find(c.note), std::string::npos) << r.err;
        EXPECT_NE(r.out.find("error[E-RACE-WAW]"), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("--blocks"), std::string::npos) << r.out;  // the replay line launches that wide
        RunResult two = run_cvsim({"check", golden + c.file, "--entry", c.kernel, "--blocks", "2", "--schedules", "3"});
        EXPECT_EQ(two.exit_code, 1) << two.out << two.err;
        EXPECT_EQ(unwrapped(two.err).find("cvsim checks it with"), std::string::npos) << two.err;
    }
}
