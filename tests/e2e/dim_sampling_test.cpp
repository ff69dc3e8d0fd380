// Sizes cvsim defaulted are sampled (docs/DECISIONS.md): a pl.dynamic symbol no --dim and no shape binds takes
// 128, and a kernel clean there can race at another size (a window at N - 16 meets one at 0 only at N = 16, a loop
// over N // 16 runs once at N = 16, `if N <= 32`). Each of these kernels was "PASS" at the default; check now also
// tries other sizes of the defaulted symbols and reports the race with the size it found it at.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/dims/" + name;
}

RunResult check(const std::string& file, std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"check", kernel(file), "--v2c", "off", "--schedules", "20", "--no-progress"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cvsim(args);
}

}  // namespace

TEST(DimSampling, ARaceOnlyAtASmallerSizeIsFound) {
    const struct {
        const char* file;
        const char* label;  // the size the race is reported at
    } cases[] = {
        {"race_at_n16.py", "race_at_n16.py [N=16]"},                  // [N - 16, N) meets [0, 16)
        {"race_trip_count_one.py", "race_trip_count_one.py [N=16]"},  // the last iteration is the first
        {"race_if_small.py", "race_if_small.py [N=32]"},              // `if N <= 32`: the compared value first
        {"race_at_compared.py", "race_at_compared.py [N=48]"},        // `if N == 48`: no halving gives it
        {"race_two_dims.py", "race_two_dims.py [M=16]"},              // M alone (N = 16 does not fit the kernel's load)
        {"race_two_dims_runtime.py", "race_two_dims_runtime.py [M=16]"},  // N >= 64 shows only when it runs
        {"race_orch_dim.py", "race_orch_dim.py [N=16]"},  // N only in the orchestration, passed to the kernel
    };
    for (const auto& c : cases) {
        for (const char* jobs : {"1", "0"}) {
            RunResult r = check(c.file, {"--jobs", jobs});
            const std::string out = unwrapped(r.out), err = unwrapped(r.err);
            EXPECT_EQ(r.exit_code, 1) << c.file << " --jobs " << jobs << "\n" << r.out << r.err;
            EXPECT_NE(out.find("E-RACE-RAW"), std::string::npos) << c.file << "\n" << out;
            EXPECT_NE(out.find(c.label), std::string::npos) << c.file << "\n" << out;
            EXPECT_NE(out.find("a size cvsim chose for the pl.dynamic symbol(s) it defaulted"), std::string::npos)
                << c.file << "\n"
                << out;
            // The sizes the kernel does not take are no finding.
            EXPECT_EQ(out.find("E-OOB"), std::string::npos) << c.file << "\n" << out;
            EXPECT_EQ(err.find("error[E-OOB]"), std::string::npos) << c.file << "\n" << err;
        }
        // fence orders the race at every size: no finding anywhere.
        RunResult fence = run_cvsim({"check", kernel(c.file), "--schedules", "20", "--no-progress"});
        EXPECT_EQ(fence.exit_code, 0) << c.file << "\n" << fence.out << fence.err;
        EXPECT_NE(unwrapped(fence.err).find("found nothing in were also checked, with the nominal schedule"),
                  std::string::npos)
            << c.file << "\n"
            << fence.err;
    }
}

TEST(DimSampling, AKernelCleanAtEverySizeStaysClean) {
    // N <= 16 puts its load before row 0: those sizes are not taken, and no finding.
    RunResult r = check("clean_every_size.py", {"--jobs", "1"});
    const std::string out = unwrapped(r.out), err = unwrapped(r.err);
    EXPECT_EQ(r.exit_code, 0) << out << err;
    EXPECT_NE(out.find("PASS"), std::string::npos) << out;
    EXPECT_EQ(out.find("error["), std::string::npos) << out;
    EXPECT_EQ(err.find("error["), std::string::npos) << err;
    EXPECT_NE(err.find("with N=32; N=64 (sizes cvsim chose"), std::string::npos) << err;
    EXPECT_NE(err.find("not taken: out of bounds, not compiling or beyond --probe-budget"), std::string::npos) << err;
}

// A size cvsim chose is a probe bounded by --probe-budget (tile instructions, not wall time): beyond it the size
// is not taken and says so; the default size is no probe and keeps its verdict.
TEST(DimSampling, ASizeBeyondTheProbeBudgetIsNotTaken) {
    RunResult tight = check("race_at_n16.py", {"--jobs", "1", "--probe-budget", "1"});
    const std::string err = unwrapped(tight.err);
    EXPECT_EQ(tight.exit_code, 0) << tight.out << tight.err;
    EXPECT_EQ(tight.out.find("[N=16]"), std::string::npos) << tight.out;
    EXPECT_NE(err.find("not checked at N=16"), std::string::npos) << err;
    EXPECT_NE(err.find("exceed the probe's bound (--probe-budget 1 tile instructions"), std::string::npos) << err;
    RunResult enough = check("race_at_n16.py", {"--jobs", "1", "--probe-budget", "1000"});
    EXPECT_EQ(enough.exit_code, 1) << enough.out << enough.err;
    EXPECT_NE(unwrapped(enough.out).find("race_at_n16.py [N=16]"), std::string::npos) << enough.out;
}

TEST(DimSampling, ASizeGivenIsNotSampled) {
    // --dim N=128 is the user's size: checked at it only (clean), no other size.
    RunResult r = check("race_at_n16.py", {"--dim", "N=128", "--jobs", "1"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("N=16"), std::string::npos) << r.out;
    EXPECT_EQ(unwrapped(r.err).find("also checked"), std::string::npos) << r.err;
    // Of two symbols only the one not given is sampled: M given at 128 leaves N, which does not race.
    RunResult m = check("race_two_dims.py", {"--dim", "M=128", "--jobs", "1"});
    EXPECT_EQ(m.exit_code, 0) << m.out << m.err;
    EXPECT_EQ(m.out.find("M=16"), std::string::npos) << m.out;
    EXPECT_NE(unwrapped(m.err).find("the size(s) cvsim defaulted (N=128) found nothing in"), std::string::npos)
        << m.err;
    // N given at 128 leaves M, which races at 16.
    RunResult n = check("race_two_dims.py", {"--dim", "N=128", "--jobs", "1"});
    EXPECT_EQ(n.exit_code, 1) << n.out << n.err;
    EXPECT_NE(unwrapped(n.out).find("race_two_dims.py [M=16]"), std::string::npos) << n.out;
}

TEST(DimSampling, TheSameCommandGivesTheSameOutput) {
    RunResult a = check("race_trip_count_one.py", {"--jobs", "2"});
    RunResult b = check("race_trip_count_one.py", {"--jobs", "2"});
    auto masked = [](std::string s) {
        // The wall time, rates and memory vary from run to run.
        std::string out;
        for (size_t p = 0; p < s.size();) {
            size_t e = s.find('\n', p);
            std::string line = s.substr(p, e == std::string::npos ? std::string::npos : e - p);
            if (line.find("wall ") == std::string::npos && line.find("schedules (") == std::string::npos &&
                line.find("/s)") == std::string::npos)
                out += line + "\n";
            p = e == std::string::npos ? s.size() : e + 1;
        }
        return out;
    };
    EXPECT_EQ(a.exit_code, 1);
    EXPECT_EQ(masked(unwrapped(a.out)), masked(unwrapped(b.out)));
    EXPECT_EQ(a.err, b.err);
}

TEST(DimSampling, OtherSizesAlsoWithAJournal) {
    // The journal holds the default's runs; the other sizes run besides it (not journaled) and still count.
    const std::string journal = ::testing::TempDir() + "/dim_sampling.jsonl";
    std::remove(journal.c_str());
    RunResult r = check("race_at_n16.py", {"--jobs", "1", "--jsonl", journal});
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(unwrapped(r.out).find("race_at_n16.py [N=16]"), std::string::npos) << r.out;
}
