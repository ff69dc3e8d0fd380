// store(..., atomic=pl.AtomicType.Add): split-K accumulation across blocks is modelled in the reference,
// the simulator and the checker; atomic modes cvsim cannot model are rejected, never ignored.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <regex>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

bool has(const RunResult& r, const std::string& s) {
    return r.out.find(s) != std::string::npos || r.err.find(s) != std::string::npos;
}

// A variant of splitk_atomic.py with `from` replaced by `to`, written next to the build's temp files.
std::string variant(const std::string& from, const std::string& to, const std::string& tag) {
    std::string src = read_file(kernel("splitk_atomic.py"));
    size_t p = src.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    if (p != std::string::npos) src.replace(p, from.size(), to);
    std::string path = ::testing::TempDir() + "/splitk_" + tag + ".py";
    std::ofstream(path) << src;
    return path;
}

TEST(Atomic, SplitKAcrossTwoBlocksWithAtomicAddIsCleanAndEqualsTheReference) {
    RunResult c = run_cvsim({"check", kernel("splitk_atomic.py"), "--blocks", "2"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    EXPECT_TRUE(has(c, "PASS")) << c.out;
    RunResult r = run_cvsim({"run", kernel("splitk_atomic.py"), "--blocks", "2"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    // Two nonzero partial sums per element round alike in either order: bit-exact.
    EXPECT_TRUE(has(r, "outputs: equal to the reference (1 tensor, bit-exact)")) << r.out;
}

TEST(Atomic, SplitKWithAPlainStoreIsAWawRace) {
    RunResult c = run_cvsim({"check", kernel("splitk_plain.py"), "--blocks", "2"});
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_TRUE(has(c, "error[E-RACE-WAW]: WAW on GM out[0:16, 0:64]")) << c.out;
}

// Four float partial sums land in a schedule-dependent order: the comparison allows the documented order
// bound on those elements (no E-MISMATCH / E-NONDET), including under a visibility delay.
TEST(Atomic, FourBlockFloatSplitKIsCleanInEveryExploredOrder) {
    RunResult c = run_cvsim({"check", kernel("splitk4_atomic.py"), "--blocks", "4", "--schedules", "300"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    RunResult d = run_cvsim(
        {"check", kernel("splitk4_atomic.py"), "--blocks", "4", "--schedules", "100", "--visibility-delay", "40"});
    EXPECT_EQ(d.exit_code, 0) << d.out << d.err;
}

// The order bound is a bound, not a blanket tolerance: one block storing plainly among atomic adders
// loses partial sums, which is a mismatch (and a race), not "within the order bound".
TEST(Atomic, APlainStoreAmongAtomicAddsIsARaceAndAMismatch) {
    RunResult c = run_cvsim({"check", kernel("splitk4_one_plain.py"), "--blocks", "4"});
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_TRUE(has(c, "error[E-RACE-WAW]")) << c.out;
    EXPECT_TRUE(has(c, "error[E-MISMATCH]: output out")) << c.out;
}

// Integer atomics wrap and commute: exact in every order.
TEST(Atomic, IntegerAtomicAddsAreExactInEveryOrder) {
    RunResult c = run_cvsim({"check", kernel("atomic_int_vec.py"), "--blocks", "4", "--schedules", "300"});
    EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
    RunResult r = run_cvsim({"run", kernel("atomic_int_vec.py"), "--blocks", "4"});
    EXPECT_TRUE(has(r, "(1 tensor, bit-exact)")) << r.out;
}

TEST(Atomic, AnAtomicAddAgainstAPlainReadOfTheAccumulatorRaces) {
    RunResult c = run_cvsim({"check", kernel("atomic_then_read.py"), "--blocks", "2"});
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_TRUE(std::regex_search(c.out, std::regex(R"(error\[E-RACE-(RAW|WAR)\]: \w+ on GM acc\[0:16, 0:64\])")))
        << c.out;
}

TEST(Atomic, AtomicModesCvsimCannotModelAreRejectedWithACaret) {
    struct Case {
        std::string to, tag, code, target;
    };
    for (const Case& k :
         {Case{"pl.AtomicType.Max", "max", "E-UNSUPPORTED", "a2a3"}, Case{"3", "int3", "E-UNSUPPORTED", "a2a3"},
          Case{"pl.AtomicType.Addd", "typo", "E-TYPE", "a2a3"}}) {
        std::string path = variant("pl.AtomicType.Add", k.to, k.tag);
        RunResult c = run_cvsim({"check", path, "--blocks", "2", "--target", k.target});
        EXPECT_EQ(c.exit_code, 2) << k.tag << c.out << c.err;
        EXPECT_TRUE(has(c, "error[" + k.code + "]")) << k.tag << c.err;
        EXPECT_TRUE(has(c, ":27:50:")) << k.tag << c.err;  // at the atomic= argument
        EXPECT_TRUE(has(c, "^")) << k.tag << c.err;
    }
}

TEST(Atomic, Bf16AtomicAddIsUnsupportedOnA5Only) {
    std::string path =
        variant("out: pl.Out[pl.Tensor[[M, N], pl.FP32]],\n    ) -> pl.Tensor[[M, N], pl.FP32]:",
                "out: pl.Out[pl.Tensor[[M, N], pl.BF16]],\n    ) -> pl.Tensor[[M, N], pl.BF16]:", "bf16");
    RunResult a5 = run_cvsim({"check", path, "--blocks", "2", "--target", "a5"});
    EXPECT_EQ(a5.exit_code, 2) << a5.out << a5.err;
    EXPECT_TRUE(has(a5, "error[E-UNSUPPORTED]: pl.tile.store: a BF16 atomic add is not available on a5")) << a5.err;
    RunResult a2 = run_cvsim({"check", path, "--blocks", "2"});
    EXPECT_EQ(a2.exit_code, 0) << a2.out << a2.err;
}

TEST(Atomic, AnAtomicAddIntoAnIntegerTensorOfAnotherDtypeIsATypeError) {
    std::string path =
        variant("out: pl.Out[pl.Tensor[[M, N], pl.FP32]],\n    ) -> pl.Tensor[[M, N], pl.FP32]:",
                "out: pl.Out[pl.Tensor[[M, N], pl.INT64]],\n    ) -> pl.Tensor[[M, N], pl.INT64]:", "i64");
    RunResult c = run_cvsim({"check", path, "--blocks", "2"});
    EXPECT_EQ(c.exit_code, 2) << c.out << c.err;
}

TEST(Atomic, AtomicAddsFromSplitVectorLanesOfAMixedKernelAreClean) {
    for (const char* target : {"a2a3", "a5"}) {
        RunResult c = run_cvsim({"check", kernel("splitk_mixed_updown.py"), "--blocks", "2", "--target", target});
        EXPECT_EQ(c.exit_code, 0) << target << c.out << c.err;
    }
}

TEST(Atomic, NoneIsAPlainStore) {
    std::string path = variant("pl.AtomicType.Add", "pl.AtomicType.None_", "none");
    RunResult c = run_cvsim({"check", path, "--blocks", "2"});
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_TRUE(has(c, "error[E-RACE-WAW]")) << c.out;
    std::string one = variant("pl.AtomicType.Add", "1", "int1");
    RunResult d = run_cvsim({"check", one, "--blocks", "2"});
    EXPECT_EQ(d.exit_code, 0) << d.out << d.err;
}

TEST(Atomic, ExpandPrintsTheAtomicKwargBack) {
    RunResult e = run_cvsim({"expand", kernel("splitk_atomic.py")});
    EXPECT_EQ(e.exit_code, 0) << e.err;
    EXPECT_TRUE(has(e, "atomic=pl.AtomicType.Add")) << e.out;
}

}  // namespace
