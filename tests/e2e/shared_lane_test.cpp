// SHARED statements inside a loop that otherwise belongs to one lane: the other lane keeps the loop with
// only those statements (a barrier every core must reach, a scalar it reads after the loop).
#include <gtest/gtest.h>

#include "test_support.h"

using namespace cvsim::test;

namespace {

std::string kernel(const std::string& name) {
    return source_dir() + "/tests/e2e/kernels/" + name;
}

TEST(SharedLane, AHandWrittenBarrierInAVectorLoopIsReachedByTheCube) {
    for (const char* policy : {"off", "fence", "syncall"}) {
        RunResult c = run_cvsim({"check", kernel("shared_barrier_loop.py"), "--v2c", policy});
        EXPECT_EQ(c.exit_code, 0) << policy << "\n" << c.out << c.err;
        EXPECT_EQ(c.out.find("E-DEADLOCK"), std::string::npos) << c.out;
    }
    RunResult e = run_cvsim({"expand", kernel("shared_barrier_loop.py"), "--v2c", "off"});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    // The AIC function holds the loop with the fence and the barrier, and no vector work.
    size_t aic = e.out.find("def shared_barrier_loop_aic");
    size_t aiv = e.out.find("def shared_barrier_loop_aiv");
    ASSERT_NE(aic, std::string::npos);
    std::string aic_body = e.out.substr(aic, aiv - aic);
    EXPECT_NE(aic_body.find("for i in pl.range(2):\n            pl.system.fence()\n            pl.system.syncall("),
              std::string::npos)
        << aic_body;
    EXPECT_EQ(aic_body.find("pl.tile.mul"), std::string::npos) << aic_body;
}

TEST(SharedLane, AScalarCarriedByAVectorLoopReachesTheCube) {
    for (const char* policy : {"off", "fence"}) {
        RunResult c = run_cvsim({"check", kernel("shared_scalar_loop.py"), "--v2c", policy});
        EXPECT_EQ(c.exit_code, 0) << policy << "\n" << c.out << c.err;
    }
    RunResult r = run_cvsim({"run", kernel("shared_scalar_loop.py")});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("outputs: equal to the reference"), std::string::npos) << r.out;
}

TEST(SharedLane, ATensorVersionCarriedByAVectorLoopReachesTheCube) {
    for (const char* policy : {"fence", "syncall"}) {
        RunResult c = run_cvsim({"check", kernel("shared_tensor_loop.py"), "--v2c", policy});
        EXPECT_EQ(c.exit_code, 0) << policy << "\n" << c.out << c.err;
    }
}

TEST(SharedLane, AScalarYieldedByAVectorBranchReachesTheCube) {
    for (const char* blocks : {"1", "2"}) {
        RunResult c = run_cvsim({"check", kernel("shared_scalar_branch.py"), "--blocks", blocks});
        EXPECT_EQ(c.exit_code, 0) << blocks << "\n" << c.out << c.err;
    }
}

}  // namespace
