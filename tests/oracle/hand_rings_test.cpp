// Hand-written transports in a mixed kernel (issue 10, generator coverage): a ring id other than 0 gets its
// own pipe setup; the checker and the oracle agree that the kernel runs to completion without a race.
#include <gtest/gtest.h>

#include "oracle_support.h"
#include "test_support.h"

using namespace cvsim;
using namespace cvsim::test;

namespace {

TEST(HandRings, ARingIdOtherThanZeroInAMixedKernelIsSetUp) {
    std::string text = read_file(std::string(CVSIM_SOURCE_DIR) + "/tests/oracle/kernels/mixed_hand_ring_id1.py");
    for (Target t : {Target::A2A3, Target::A5})
        for (auto v2c : {passes::V2CPolicy::Off, passes::V2CPolicy::Fence}) {
            Opts o;
            o.target = t;
            o.v2c = v2c;
            auto s = session_of("mixed_hand_ring_id1.py", text, o);
            CheckerView c = checker_of(*s, 3);
            EXPECT_FALSE(c.deadlock) << c.text;
            EXPECT_TRUE(c.text.empty()) << target_name(t) << " " << passes::policy_name(v2c) << "\n" << c.text;
            auto v = oracle_of(*s, true);
            EXPECT_FALSE(v.unsupported) << "the oracle saw a transport before its pipe setup";
            EXPECT_FALSE(v.deadlock);
            EXPECT_TRUE(v.races.empty()) << format_verdict(v);
        }
    // The wrong id on the pop: both sides call it a deadlock.
    std::string wrong = text;
    wrong.replace(wrong.find("pl.tpop_from_aiv(split=0, id=1)"), 31, "pl.tpop_from_aiv(split=0, id=0)");
    wrong.replace(wrong.find("pl.tfree_to_aiv(t, id=1)"), 24, "pl.tfree_to_aiv(t)");
    Opts o;
    auto s = session_of("wrong.py", wrong, o);
    EXPECT_TRUE(checker_of(*s, 1).deadlock);
    EXPECT_TRUE(oracle_of(*s, true).deadlock);
}

}  // namespace
