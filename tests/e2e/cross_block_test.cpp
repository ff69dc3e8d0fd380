// A V2C dependency between clusters (block b's cube reads block b+1's band): the original program's blocks
// run in lockstep in the reference, so the barrier `--v2c syncall` inserts gives outputs equal to it, and
// without one the race between clusters is reported.
#include <gtest/gtest.h>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) { return source_dir() + "/tests/e2e/kernels/" + name; }

// Before the lockstep reference, block 0 ran to its end before block 1 started, so block 0's cube read
// block 1's band unwritten (NaN poison) and a correct, barrier-ordered expansion was E-MISMATCH.
TEST(CrossBlock, ASyncallOrderedBandReadFromTheNextBlockEqualsTheReference) {
    for (const char* target : {"a2a3", "a5"}) {
        RunResult r = run_cvsim({"run", kernel("cross_block_v2c.py"), "--v2c", "syncall", "--blocks", "2", "--target", target});
        EXPECT_EQ(r.exit_code, 0) << target << "\n" << r.out << r.err;
        EXPECT_NE(unwrapped(r.out).find("outputs: equal to the reference"), std::string::npos) << target << "\n" << r.out;
        RunResult c = run_cvsim({"check", kernel("cross_block_v2c.py"), "--v2c", "syncall", "--blocks", "2", "--target", target});
        EXPECT_EQ(c.exit_code, 0) << target << "\n" << c.out << c.err;
    }
}

TEST(CrossBlock, WithoutABarrierTheRaceBetweenClustersIsReported) {
    RunResult c = run_cvsim({"check", kernel("cross_block_v2c.py"), "--v2c", "off", "--blocks", "2"});
    EXPECT_EQ(c.exit_code, 1) << c.out << c.err;
    EXPECT_NE(c.out.find("E-RACE-RAW"), std::string::npos) << c.out;
}

}  // namespace
