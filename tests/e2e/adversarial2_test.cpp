// Wrong verdicts of the second adversarial round (issue 10), through the real cvsim binary. Fixtures:
// tests/e2e/kernels/adv2/ (kernels written for cvsim). Each test failed before its fix.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kpath(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/adv2/" + name;
}

RunResult check(const std::string& k, const std::vector<std::string>& extra, int schedules = 40) {
    std::vector<std::string> args = {"check", k.find('/') == std::string::npos ? kpath(k) : k, "--schedules",
                                     std::to_string(schedules)};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cvsim(args, 300);
}

std::string what(const std::string& k, const std::vector<std::string>& extra) {
    std::string s = k;
    for (const auto& a : extra) s += " " + a;
    return s;
}

void expect_clean(const std::string& k, const std::vector<std::string>& extra) {
    RunResult r = check(k, extra);
    EXPECT_EQ(r.exit_code, 0) << what(k, extra) << "\n" << r.out << r.err;
}

}  // namespace

// An author's push on ring 0 before the store: a V2C token on that ring was popped as the author's tile
// (FIFO), so the store stayed unordered under fence (E-RACE-RAW). fence now falls back to a barrier.
TEST(Adversarial2, NoTokenOnARingTheAuthorAlsoPushesOn) {
    for (const char* k : {"token_behind_author_push.py", "token_behind_author_push_loop.py"}) {
        for (const char* policy : {"fence", "syncall"}) {
            expect_clean(k, {"--v2c", policy, "--target", "a2a3"});
            // a5: the author's own push of an ND tile arrives scrambled (W-V2C-LAYOUT, E-MISMATCH of its rows,
            // the kernel's mistake); the store / load pair the pass orders is no race.
            RunResult r = check(k, {"--v2c", policy, "--target", "a5"});
            EXPECT_EQ((r.out + r.err).find("E-RACE"), std::string::npos) << k << " a5 " << policy << "\n"
                                                                         << r.out << r.err;
        }
        RunResult off = check(k, {"--v2c", "off"});
        EXPECT_NE((off.out + off.err).find("E-RACE-RAW"), std::string::npos)
            << k << ": the pair the pass orders is a race as written";
    }
    // The C2V mirror under --c2v complete (upstream's token there is what --c2v upstream keeps).
    for (const char* target : {"a2a3", "a5"})
        expect_clean("c2v_token_behind_author_push.py", {"--c2v", "complete", "--v2c", "fence", "--target", target});
}

// A launch narrower than the chip gets a soft barrier, one that fills it exactly a hard one (SPEC 5.7). One
// wider than the chip (--blocks 30 on a2a3's 24 clusters) runs in waves: the syncall policy emitted a hard
// barrier there (E-OCCUPANCY), then a soft one, which hangs on hardware as well (the later blocks start only
// when earlier ones finish, so not all of them ever arrive). The policies refuse it now, and an author's soft
// barrier over such a launch is a deadlock with E-OCCUPANCY, never clean.
TEST(Adversarial2, ABarrierIsHardOnlyWhenTheLaunchFillsTheChip) {
    for (const char* policy : {"syncall", "fence"}) {
        expect_clean("blocks_over_chip.py", {"--blocks", "20", "--v2c", policy});
        RunResult r = check(kpath("blocks_over_chip.py"), {"--blocks", "30", "--v2c", policy}, 3);
        EXPECT_EQ(r.exit_code, 2) << policy << "\n" << r.out << r.err;
        EXPECT_NE(r.err.find("error[E-OCCUPANCY]"), std::string::npos) << r.err;
        EXPECT_NE(unwrapped(r.err).find("the blocks run in waves"), std::string::npos) << r.err;
    }
    RunResult r = run_cvsim({"expand", kpath("blocks_over_chip.py"), "--blocks", "20", "--v2c", "syncall"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("mode='soft'"), std::string::npos) << r.out;
    const std::string soft = ::testing::TempDir() + "adv2_blocks_over_chip_soft.py";
    { std::ofstream(soft) << r.out; }
    RunResult wide = run_cvsim({"check", soft, "--blocks", "30", "--schedules", "2"}, 300);
    EXPECT_EQ(wide.exit_code, 1) << wide.out << wide.err;
    const std::string all = unwrapped(wide.out + wide.err);
    EXPECT_NE(all.find("error[E-DEADLOCK]"), std::string::npos) << all;
    EXPECT_NE(all.find("error[E-OCCUPANCY]: a syncall over the launch's 30 blocks waits for blocks that never start"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("cluster 24 AIC: block 24 not dispatched"), std::string::npos) << all;
    // Without the barrier the 30 blocks run (in waves) to the end: the race is reported, no deadlock.
    RunResult off = check(kpath("blocks_over_chip.py"), {"--blocks", "30", "--v2c", "off"}, 3);
    EXPECT_NE(unwrapped(off.out + off.err).find("E-RACE-RAW"), std::string::npos) << off.out << off.err;
    EXPECT_EQ(unwrapped(off.out + off.err).find("E-DEADLOCK"), std::string::npos) << off.out << off.err;
    r = run_cvsim({"expand", kpath("blocks_over_chip.py"), "--blocks", "24", "--v2c", "syncall"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("mode='soft'"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("syncall(core_type='mix')"), std::string::npos) << r.out;
}

// An early return in a mixed kernel was kept on one lane only (or code after it taken as live): the other lane
// waited forever under fence / syncall. Refused with a caret now.
TEST(Adversarial2, AnEarlyReturnInAMixedKernelIsRefusedNotExpandedIntoAHang) {
    for (const char* k : {"return_dead_code.py", "return_in_loop.py", "return_in_cube_branch.py"})
        for (const char* policy : {"fence", "syncall"}) {
            RunResult r = check(k, {"--v2c", policy});
            EXPECT_EQ(r.exit_code, 2) << k << "\n" << r.out << r.err;
            EXPECT_NE(r.err.find("error[E-UNSUPPORTED]"), std::string::npos) << k << "\n" << r.err;
            EXPECT_NE(unwrapped(r.err).find("an early return in the mixed kernel"), std::string::npos) << k << "\n"
                                                                                                       << r.err;
            EXPECT_NE(r.err.find("^"), std::string::npos) << k << "\n" << r.err;
        }
}

// Two atomic-add stores (vector, then cube) into the same rows commute: reject errored on them.
TEST(Adversarial2, RejectLeavesTwoAtomicAddsToTheSameBytes) {
    expect_clean("atomic_add_pair.py", {"--v2c", "off"});
    expect_clean("atomic_add_pair.py", {"--v2c", "reject"});
    RunResult r = run_cvsim({"expand", kpath("atomic_add_pair.py"), "--v2c", "fence"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("syncall"), std::string::npos) << "no ordering is needed between two atomic adds\n" << r.out;
    EXPECT_EQ(r.out.find("tpush_to_aic"), std::string::npos) << r.out;
}

// The wall-time report of a pipe whose instruction is in flight said "(waiting for #)".
TEST(Adversarial2, TheTimeoutReportNamesAnInstructionInFlight) {
    RunResult r = run_cvsim({"check", kpath("timeout_in_flight.py"), "--timeout", "2", "--schedules", "1"}, 120);
    EXPECT_NE(r.exit_code, 0) << r.out << r.err;
    const std::string all = unwrapped(r.out + r.err);
    EXPECT_EQ(all.find("(waiting for #)"), std::string::npos) << all;
}

// `out = self.good(a, out)` (the common printed form): the rebound `out` was taken to alias every argument of
// the call, so the launch was refused as passing `a` and `out` together. A kernel's result aliases the tensors
// it writes; one tensor passed twice stays refused.
TEST(Adversarial2, ARebindingLaunchResultAliasesOnlyWhatTheKernelWrites) {
    RunResult r = run_cvsim({"check", source_dir() + "/tests/e2e/kernels/alias/rebind_out.py", "--schedules", "5"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    r = run_cvsim({"check", source_dir() + "/tests/e2e/kernels/alias/rebind_out_twice.py", "--schedules", "5"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(unwrapped(r.err).find("may share GM bytes"), std::string::npos) << r.err;
}
