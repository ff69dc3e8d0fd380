// A V2C dependency between clusters (block b's cube reads block b+1's band): the original program's blocks
// run in lockstep in the reference, so the barrier `--v2c syncall` inserts gives outputs equal to it, and
// without one the race between clusters is reported.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

// Before the lockstep reference, block 0 ran to its end before block 1 started, so block 0's cube read
// block 1's band unwritten (NaN poison) and a correct, barrier-ordered expansion was E-MISMATCH.
TEST(CrossBlock, ASyncallOrderedBandReadFromTheNextBlockEqualsTheReference) {
    for (const char* target : {"a2a3", "a5"}) {
        RunResult r =
            run_cvsim({"run", kernel("cross_block_v2c.py"), "--v2c", "syncall", "--blocks", "2", "--target", target});
        EXPECT_EQ(r.exit_code, 0) << target << "\n" << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference"), std::string::npos) << target << "\n"
                                                                                               << r.out;
        RunResult c =
            run_cvsim({"check", kernel("cross_block_v2c.py"), "--v2c", "syncall", "--blocks", "2", "--target", target});
        EXPECT_EQ(c.exit_code, 0) << target << "\n" << c.out << c.err;
    }
}

TEST(CrossBlock, WithoutABarrierTheRaceBetweenClustersIsReported) {
    RunResult c = run_cvsim({"check", kernel("cross_block_v2c.py"), "--v2c", "off", "--blocks", "2"});
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_NE(c.out.find("E-RACE-RAW"), std::string::npos) << c.out;
}

// Dependencies between clusters that a cluster-local token cannot order (issue 10): the next block's band
// (`(blk + 1) % NBLK`, unknown window), an affine band the same-cluster test calls disjoint, a loop whose
// store of iteration i meets the other cluster's reads of iterations i and i + 1, an author's tile
// transport that orders the pair in one cluster only, and sibling arms of a branch in a loop. Before the
// cross-cluster pairing, `--v2c fence` left each racy (a token, or nothing), and `reject` was silent on
// all but the first.
const char* const kCrossKernels[] = {"cross_block_v2c.py", "cross_block_affine.py", "cross_block_loop.py",
                                     "cross_block_transport.py", "cross_block_branch.py"};

TEST(CrossBlock, FenceAndSyncallOrderEveryCrossClusterVariantEqualToTheReference) {
    for (const char* k : kCrossKernels)
        for (const char* target : {"a2a3", "a5"})
            for (const char* pol : {"fence", "syncall"}) {
                std::string ctx = std::string(k) + " " + target + " " + pol;
                RunResult c = run_cvsim({"check", kernel(k), "--v2c", pol, "--blocks", "2", "--target", target,
                                         "--visibility-delay", "100"});
                EXPECT_EQ(c.exit_code, 0) << ctx << "\n" << c.out << c.err;
                RunResult r = run_cvsim({"run", kernel(k), "--v2c", pol, "--blocks", "2", "--target", target});
                EXPECT_EQ(r.exit_code, 0) << ctx << "\n" << r.out << r.err;
                EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference"), std::string::npos) << ctx << "\n"
                                                                                                       << r.out;
            }
}

TEST(CrossBlock, OffLeavesEveryCrossClusterVariantRacy) {
    for (const char* k : kCrossKernels)
        for (const char* target : {"a2a3", "a5"}) {
            RunResult c = run_cvsim({"check", kernel(k), "--v2c", "off", "--blocks", "2", "--target", target});
            EXPECT_EQ(c.exit_code, 1) << k << " " << target << "\n" << c.out << c.err;
            EXPECT_NE(unwrapped(c.out).find("E-RACE-"), std::string::npos) << k << " " << target << "\n" << c.out;
        }
}

TEST(CrossBlock, RejectSaysTheDependencyCrossesClusters) {
    for (const char* k : kCrossKernels)
        for (const char* target : {"a2a3", "a5"}) {
            RunResult c = run_cvsim({"expand", kernel(k), "--v2c", "reject", "--blocks", "2", "--target", target});
            std::string all = unwrapped(c.out + c.err);
            EXPECT_NE(c.exit_code, 0) << k << " " << target;
            EXPECT_NE(all.find("E-V2C-UNFENCED"), std::string::npos) << k << " " << target << "\n" << all;
            EXPECT_NE(all.find("the dependency crosses clusters"), std::string::npos) << k << " " << target << "\n"
                                                                                      << all;
        }
    // One cluster: the same kernels have nothing to reject but the cluster-local pairs.
    RunResult one = run_cvsim({"expand", kernel("cross_block_affine.py"), "--v2c", "reject", "--blocks", "1"});
    EXPECT_EQ(one.exit_code, 0) << one.out << one.err;
}

TEST(CrossBlock, FenceCountsTheBarrierAsAFallbackThatCrossesClusters) {
    RunResult e = run_cvsim({"expand", kernel("cross_block_v2c.py"), "--v2c", "fence", "--blocks", "2", "-v"});
    std::string out = unwrapped(e.out + e.err);
    EXPECT_EQ(e.exit_code, 0) << out;
    EXPECT_NE(out.find("V2C fences 0"), std::string::npos) << "no cluster-local token is claimed to fence it\n" << out;
    EXPECT_NE(out.find("fallbacks 1, barriers 1"), std::string::npos) << out;
    EXPECT_NE(out.find("(crosses clusters), barrier instead"), std::string::npos) << out;
    // The loop: one barrier before the store (the other cluster's read of this iteration), one after it
    // (its read of the next one).
    RunResult l = run_cvsim({"expand", kernel("cross_block_loop.py"), "--v2c", "fence", "--blocks", "2", "-v"});
    std::string lo = unwrapped(l.out + l.err);
    EXPECT_NE(lo.find("fallbacks 2, barriers 2"), std::string::npos) << lo;
    EXPECT_NE(lo.find("(loop-carried, line 28 loop) has no balanced fence placement (crosses clusters)"),
              std::string::npos)
        << lo;
}

// Per-block bands (each cluster's cube reads only what its own vector wrote) cross nothing: the fence
// policy places its token and no barrier, at any launch width.
TEST(CrossBlock, PerBlockBandsGetTheirTokenAndNoBarrier) {
    const std::pair<const char*, const char*> cases[] = {{"per_block_band.py", "2"},
                                                         {"per_block_band.py", "4"},
                                                         {"v2c_blocks_loop.py", "2"}};  // (sized for 4 / 2 blocks)
    for (const auto& [k, blocks] : cases) {
        RunResult e = run_cvsim({"expand", kernel(k), "--v2c", "fence", "--blocks", blocks, "-v"});
        std::string out = unwrapped(e.out + e.err);
        EXPECT_NE(out.find("V2C fences 1"), std::string::npos) << k << " " << blocks << "\n" << out;
        EXPECT_NE(out.find("fallbacks 0, barriers 0"), std::string::npos) << k << " " << blocks << "\n" << out;
        EXPECT_EQ(out.find("across clusters"), std::string::npos) << k << " " << blocks << "\n" << out;
        RunResult c = run_cvsim({"check", kernel(k), "--v2c", "fence", "--blocks", blocks});
        EXPECT_EQ(c.exit_code, 0) << k << " " << blocks << "\n" << c.out << c.err;
    }
}

// C2V between clusters (the cube of cluster b + 1 writes what the vector of cluster b reads): upstream
// leaves it (racy), --c2v complete orders it with a barrier.
TEST(CrossBlock, CompleteOrdersACrossClusterC2vDependencyUpstreamLeaves) {
    for (const char* target : {"a2a3", "a5"}) {
        RunResult up = run_cvsim({"check", kernel("cross_block_c2v.py"), "--blocks", "2", "--target", target});
        EXPECT_EQ(up.exit_code, 1) << target << "\n" << up.out << up.err;
        EXPECT_NE(unwrapped(up.out).find("E-RACE-RAW"), std::string::npos) << target << "\n" << up.out;
        RunResult c = run_cvsim(
            {"check", kernel("cross_block_c2v.py"), "--c2v", "complete", "--blocks", "2", "--target", target});
        EXPECT_EQ(c.exit_code, 0) << target << "\n" << c.out << c.err;
        RunResult r =
            run_cvsim({"run", kernel("cross_block_c2v.py"), "--c2v", "complete", "--blocks", "2", "--target", target});
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference"), std::string::npos) << target << "\n"
                                                                                               << r.out;
    }
}

}  // namespace

namespace {

// A vector store ordered before a cube store only by a tile transport is published by a fence right after
// the store; an author's fence after the transport does not publish it (the merged sweep's one racy class).
TEST(Publication, AStoreOrderedByATransportIsFencedBeforeItUnderAVisibilityDelay) {
    for (const char* v2c : {"fence", "syncall"}) {
        RunResult c = run_cvsim({"check", kernel("v2c_waw_move_published.py"), "--v2c", v2c, "--blocks", "2",
                                 "--visibility-delay", "50", "--schedules", "20"});
        EXPECT_EQ(c.exit_code, 0) << v2c << "\n" << c.out << c.err;
    }
    RunResult off = run_cvsim({"check", kernel("v2c_waw_move_published.py"), "--v2c", "off", "--blocks", "2",
                               "--visibility-delay", "50", "--schedules", "20"});
    EXPECT_EQ(off.exit_code, 1) << off.out << off.err;
}

}  // namespace
