// Property 4 of issue 10 on fixed kernels: every synchronisation --v2c fence / syncall inserts is necessary
// (removing it makes the oracle find a race), and the expansion stays race- and deadlock-free. Each kernel is
// a class of redundant insertion the oracle sweep found.
#include <gtest/gtest.h>

#include "oracle_removal.h"
#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

struct Case {
    const char* kernel;
    Target target;
    passes::V2CPolicy v2c;
};

class NecessarySync : public ::testing::TestWithParam<Case> {};

TEST_P(NecessarySync, EveryInsertedSynchronisationIsNecessary) {
    const Case& c = GetParam();
    Opts o;
    o.target = c.target;
    o.v2c = c.v2c;
    std::string text = read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/" + c.kernel);
    auto s = session_of(c.kernel, text, o);
    auto v = oracle_of(*s);
    ASSERT_FALSE(v.unsupported) << v.why;
    EXPECT_FALSE(v.deadlock) << format_verdict(v);
    EXPECT_TRUE(v.races.empty()) << format_verdict(v);
    Removal r = try_removals(*s, text);
    EXPECT_GT(r.inserted, 0) << "nothing inserted: the kernel no longer tests the policy";
    std::string sites;
    for (const auto& x : r.redundant_sites) sites += x + "; ";
    EXPECT_EQ(r.redundant, 0) << c.kernel << ": redundant " << sites;
}

INSTANTIATE_TEST_SUITE_P(
    Classes, NecessarySync,
    ::testing::Values(
        // a loop-carried WAR barrier for accesses only one iteration runs
        Case{"war_arm_one_iteration.py", Target::A2A3, passes::V2CPolicy::Syncall},
        Case{"war_arm_one_iteration.py", Target::A5, passes::V2CPolicy::Syncall},
        Case{"war_arm_one_iteration.py", Target::A2A3, passes::V2CPolicy::Fence},
        // a token whose interval holds another pair's token
        Case{"nested_tokens.py", Target::A2A3, passes::V2CPolicy::Fence},
        Case{"nested_tokens.py", Target::A5, passes::V2CPolicy::Fence},
        // a write-after-read token under the barrier placed for a write-after-write before the same cube store
        Case{"token_under_barrier.py", Target::A2A3, passes::V2CPolicy::Fence},
        Case{"token_under_barrier.py", Target::A5, passes::V2CPolicy::Fence},
        // an author's flag set on a pipe that does not cover the store: the publishing fence alone orders it
        Case{"flag_wrong_pipe_fence_only.py", Target::A2A3, passes::V2CPolicy::Fence},
        Case{"flag_wrong_pipe_fence_only.py", Target::A5, passes::V2CPolicy::Fence},
        Case{"flag_wrong_pipe_fence_only.py", Target::A2A3, passes::V2CPolicy::Syncall}));

}  // namespace
