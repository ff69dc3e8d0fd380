// Launch arguments that share GM bytes (a tensor and its pl.tensor.reshape or constant slice, or one tensor
// twice) are bound to one GM tensor, each parameter a view of it (docs/DECISIONS.md, "Aliasing launch arguments
// share one GM tensor"): a race between accesses through two of them is reported, an ordered handoff is clean, and
// the data written through one is read through the other. Each test failed before (E-UNSUPPORTED, exit 2).
// Fixtures: tests/e2e/kernels/alias/ and tests/e2e/kernels/adv/alias_*.py (kernels written for cvsim).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "npy_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

std::string kpath(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/alias/" + name;
}

std::string all_of(const RunResult& r) {
    return unwrapped(r.out + r.err);
}

RunResult check(const std::string& path, const std::vector<std::string>& extra, int schedules = 20) {
    std::vector<std::string> args = {"check", path, "--schedules", std::to_string(schedules)};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cvsim(args, 300);
}

// The fixture without its hand-written sync_set / sync_wait pair (and fence): the handoff is unordered.
std::string unsynced(const std::string& name) {
    std::ifstream in(kpath(name));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string line :
         {"        pl.system.fence()\n", "        pl.system.sync_set(3, pipe=pl.PipeType.MTE3, core_type=\"aiv\")\n",
          "        pl.system.sync_wait(3, pipe=pl.PipeType.MTE2, core_type=\"aic\")\n"}) {
        auto at = text.find(line);
        EXPECT_NE(at, std::string::npos) << name << " has no '" << line << "'";
        if (at != std::string::npos) text.erase(at, line.size());
    }
    std::string path = ::testing::TempDir() + "alias_unsynced_" + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace

// The vector lane writes through the Out parameter, the cube lane reads the same bytes through the reshaped (or
// sliced) one with nothing ordering them: a cross-core RAW on the shared tensor, on both targets and (the reshape)
// over two blocks. The expander pairs accesses by parameter, so --v2c fence does not order it either.
TEST(Aliasing, AnUnorderedHandoffThroughTwoAliasesIsARace) {
    for (const char* k : {"reshape_handoff.py", "slice_handoff.py"})
        for (const char* target : {"a2a3", "a5"})
            for (const char* policy : {"off", "fence"}) {
                RunResult r = check(unsynced(k), {"--target", target, "--v2c", policy});
                EXPECT_EQ(r.exit_code, 1) << k << " " << target << " " << policy << "\n" << r.out << r.err;
                EXPECT_NE(all_of(r).find("E-RACE-RAW"), std::string::npos) << k << "\n" << r.out << r.err;
                EXPECT_EQ(all_of(r).find("E-UNSUPPORTED"), std::string::npos) << k << "\n" << r.out << r.err;
            }
}

// The same handoff ordered by a sync_set / sync_wait pair after a fence: clean (no refusal), with and without a
// visibility delay, on both targets.
TEST(Aliasing, AnOrderedHandoffThroughTwoAliasesIsClean) {
    for (const char* k : {"reshape_handoff.py", "slice_handoff.py"})
        for (const char* target : {"a2a3", "a5"})
            for (const char* delay : {"0", "200"}) {
                RunResult r = check(kpath(k), {"--target", target, "--visibility-delay", delay});
                EXPECT_EQ(r.exit_code, 0) << k << " " << target << " " << delay << "\n" << r.out << r.err;
                EXPECT_EQ(all_of(r).find("E-UNSUPPORTED"), std::string::npos) << k << "\n" << r.out << r.err;
            }
}

// Data parity: with a = 1 and w = 1 the vector lane stores 2 everywhere through `s`, so every element the cube
// computes from what it loads through the alias is 64 * 2 = 128 (in the run and in the reference, which the run
// compares it with). A separate tensor for the alias would hold seeded inputs there instead.
TEST(Aliasing, WhatOneAliasWritesTheOtherReads) {
    for (const char* k : {"reshape_handoff.py", "slice_handoff.py"})
        for (const char* target : {"a2a3", "a5"}) {
            const std::string dir = ::testing::TempDir() + "alias_parity_" + target + "_" + k;
            std::filesystem::remove_all(dir);
            // reshape_handoff.py's launch has core_num 2 (each block its own rows); `run --entry k` takes --blocks.
            const std::string blocks = std::string(k) == "reshape_handoff.py" ? "2" : "1";
            RunResult r = run_cvsim({"run", kpath(k), "--entry", "k", "--blocks", blocks, "--target", target, "--input",
                                     "a=1", "--input", "w=1", "--output-dir", dir});
            ASSERT_EQ(r.exit_code, 0) << k << " " << target << "\n" << r.out << r.err;
            const auto out = npy_values(dir, "out", DType::FP32, {16, 64});
            ASSERT_EQ(out.size(), 16u * 64u);
            for (size_t i = 0; i < out.size(); ++i) ASSERT_EQ(out[i], 128.0) << k << " " << target << " element " << i;
        }
}

// Overlapping slices of one created buffer, neither of them all of it (the buffer is the shared tensor), and
// one tensor passed as two parameters (one launch: the Planner binds both to it): the vector store through one and
// the cube load through the other race, as on the device; before, both launches were refused.
TEST(Aliasing, OverlappingSlicesAndOneTensorTwiceAreCheckedNotRefused) {
    const std::string adv = source_dir() + "/tests/e2e/kernels/adv/";
    for (const char* k : {"alias_slices.py", "alias_param_twice.py"})
        for (const char* policy : {"off", "fence"}) {
            RunResult r = check(adv + k, {"--v2c", policy});
            EXPECT_EQ(r.exit_code, 1) << k << " " << policy << "\n" << r.out << r.err;
            EXPECT_NE(all_of(r).find("E-RACE-RAW"), std::string::npos) << k << "\n" << r.out << r.err;
            EXPECT_EQ(all_of(r).find("E-UNSUPPORTED"), std::string::npos) << k << "\n" << r.out << r.err;
        }
    // Disjoint slices share nothing: each its own tensor, clean.
    RunResult r = check(adv + "alias_disjoint.py", {"--v2c", "off"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// A slice of a reshape is a window of the reshape, not that box of the tensor: rows 0-15 of a [64, 64] reshape of
// a [32, 128] buffer are the buffer's rows 0-7, which a slice of the buffer's rows 7-22, columns 64-127 overlaps.
// cvsim added the slice's offsets to the buffer's coordinates ([0:16, 0:64], apart), bound the two parameters to
// tensors of their own and checked the racy launch clean.
TEST(Aliasing, SliceOfAReshapeIsNotThatBoxOfTheTensor) {
    for (const char* policy : {"off", "fence"}) {
        RunResult r = check(kpath("slice_of_reshape.py"), {"--v2c", policy});
        EXPECT_EQ(r.exit_code, 1) << policy << "\n" << r.out << r.err;
        EXPECT_NE(all_of(r).find("E-RACE-RAW"), std::string::npos) << policy << "\n" << r.out << r.err;
    }
    // One row lower the two windows share no byte: clean (bound to one tensor, checked on its bytes).
    RunResult r = check(kpath("slice_of_reshape_apart.py"), {"--v2c", "off"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
}

// A plain copy of a tensor's name (`v1 = buf`) is that tensor: the launch planner refused it (exit 2), and two copies
// passed as two parameters are one GM tensor whose unordered store and load race.
TEST(Aliasing, ACopiedNameIsTheTensorItCopies) {
    for (const char* policy : {"off", "fence"}) {
        RunResult r = check(kpath("copied_name.py"), {"--v2c", policy});
        EXPECT_EQ(r.exit_code, 1) << policy << "\n" << r.out << r.err;
        EXPECT_NE(all_of(r).find("E-RACE-RAW"), std::string::npos) << policy << "\n" << r.out << r.err;
    }
}

// A view as another dtype counts its shape and offsets in that dtype's elements: a slice at FP32 columns 48-63 of
// an FP32 view of an FP16 buffer is the buffer's columns 96-127, not 48-63. cvsim took them as the buffer's own
// coordinates, found the launch's two parameters apart and checked a racy launch clean; now it is refused.
TEST(Aliasing, ViewAsAnotherDtypeIsNotABoxOfItsSource) {
    RunResult r = check(kpath("view_other_dtype.py"), {"--v2c", "off"});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(all_of(r).find("which may share GM bytes of 'buf'"), std::string::npos) << r.out << r.err;
}

// What cvsim cannot bind exactly stays refused, naming the pair: a reshape of a slice, and a kernel launched
// with its tensors shared at one site and apart at another.
TEST(Aliasing, WhatCannotBeBoundExactlyStaysRefused) {
    RunResult r = check(kpath("reshape_of_slice.py"), {});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(all_of(r).find("'k' gets 'buf' and 'view' as parameters 's' and 'r', which may share GM bytes of 'buf'"),
              std::string::npos)
        << r.out << r.err;
    r = check(kpath("two_sites.py"), {});
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(all_of(r).find("which may share GM bytes of 'buf'; its launch at line"), std::string::npos)
        << r.out << r.err;
}

// A launch's result taken by index (`y = ret[0]`, PyPTO's printed `x = ret__tmp_v0[0]`, of a kernel call or of a
// pl.submit) is the argument the kernel returns there: passed beside that argument, both parameters are one GM
// tensor, so the unordered handoff is a race on both targets (both were a false PASS: an indexed tuple element
// was taken for a fresh tensor) and the ordered one is clean. `ret[1]`, another tensor, is neither a race nor
// refused.
TEST(Aliasing, AnIndexedElementOfALaunchResultIsTheTensorItReturns) {
    for (const char* k : {"tuple_item_handoff.py", "submit_item_handoff.py"})
        for (const char* target : {"a2a3", "a5"}) {
            RunResult r = check(unsynced(k), {"--target", target}, 10);
            EXPECT_EQ(r.exit_code, 1) << k << " " << target << "\n" << r.out << r.err;
            EXPECT_NE(all_of(r).find("E-RACE-RAW"), std::string::npos) << k << "\n" << r.out << r.err;
            r = check(kpath(k), {"--target", target}, 10);
            EXPECT_EQ(r.exit_code, 0) << k << " " << target << "\n" << r.out << r.err;
        }
    for (bool synced : {true, false}) {
        RunResult r = check(synced ? kpath("tuple_item_other.py") : unsynced("tuple_item_other.py"), {}, 10);
        EXPECT_EQ(r.exit_code, 0) << synced << "\n" << r.out << r.err;
        EXPECT_EQ(all_of(r).find("E-UNSUPPORTED"), std::string::npos) << r.out << r.err;
    }
}

// A tensor carried through a loop (init value, yielded launch result, loop result) is still that tensor: the launch
// passing it beside the tensor is refused (cvsim does not bind a loop-carried value exactly), never checked with the
// two apart (that was a false PASS without the sync pair); the orchestration's other kernel is still checked.
TEST(Aliasing, ALoopCarriedTensorIsNotTakenForAFreshOne) {
    for (bool synced : {true, false}) {
        RunResult r = check(synced ? kpath("loop_carried_handoff.py") : unsynced("loop_carried_handoff.py"), {}, 10);
        EXPECT_EQ(r.exit_code, 2) << synced << "\n" << r.out << r.err;
        EXPECT_NE(all_of(r).find("'k' gets 'buf' and 'y' as parameters 's' and 'r', which may share GM bytes of 'buf'"),
                  std::string::npos)
            << r.out << r.err;
        // Only k is refused: k0, launched before it, still gets its verdict (a refusal used to end the whole check).
        EXPECT_NE(r.out.find("[k0]"), std::string::npos) << r.out << r.err;
        EXPECT_EQ(r.out.find("[k]"), std::string::npos) << r.out << r.err;
        EXPECT_NE(r.out.find("PASS: no finding"), std::string::npos) << r.out << r.err;
    }
}

// The parameter a kernel returns, followed through a branch whose arms yield its Out parameters and through an Spmd
// wrapper returning `ret[0], ret[1]`: the orchestration's `ret[0]` and `ret[1]` are the two separate buffers, so k2
// is checked (clean), not refused as sharing (two deepseek prefill files were). When the arms yield them crossed,
// either element may be either buffer: refused, never checked as apart.
TEST(Aliasing, ReturnedParametersAreFollowedThroughBranchesAndIndexedResults) {
    RunResult r = check(kpath("branch_results.py"), {}, 5);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(all_of(r).find("E-UNSUPPORTED"), std::string::npos) << r.out << r.err;
    std::ifstream in(kpath("branch_results.py"));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string arm = "            r1, r2 = pl.yield_(o1, o2)\n";
    auto at = text.find(arm);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, arm.size(), "            r1, r2 = pl.yield_(o2, o1)\n");
    const std::string crossed = ::testing::TempDir() + "alias_branch_results_crossed.py";
    std::ofstream(crossed) << text;
    r = check(crossed, {}, 5);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_NE(all_of(r).find("'k2' gets 'p1' and 'p2' as parameters 'x' and 'y', which may share GM bytes"),
              std::string::npos)
        << r.out << r.err;
}
